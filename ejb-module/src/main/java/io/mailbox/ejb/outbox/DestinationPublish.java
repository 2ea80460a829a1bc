package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.MailAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Publishes one claimed batch so that a destination's failure fails only its own rows: one {@link
 * OutboxPublisher#publishAll} call per provider (the scheme of the row's address), and when such a
 * call fails as a whole for rows of several addresses, one call per address, so an address the
 * provider refuses does not hold back its healthy neighbours. Rows keep their batch order within
 * each call.
 *
 * <p>Rows of one ordering key in a batch share an address ({@link RelayBatch}). Where its transport
 * keeps a call's order ({@code ordered-batch}) they go in one call. Elsewhere they go in
 * <b>waves</b>: wave n holds the n-th row of every key (unkeyed rows go in the first), and a wave
 * starts only once the one before it was answered; a key whose row failed or was fenced has its
 * later rows held back, unpublished. So a key's row is never stored unless its predecessor was
 * acknowledged, and a batch of 500 rows over 50 keys costs 10 publish calls instead of 10 claims,
 * publishes and status writes.
 */
final class DestinationPublish {

  /** What became of one row. */
  enum State {
    /** The provider accepted it: mark it sent. */
    ACCEPTED,
    /** Its destination failed: a failed attempt. */
    FAILED,
    /** Not attempted: the claim would have expired mid-publish (the fence). */
    FENCED,
    /**
     * Not attempted: an earlier row of its key in the batch did not go, or its wave would not fit
     * in the claim any more. Its claim is given back.
     */
    HELD_BACK
  }

  /** The result for one row; {@code failure} is set when {@code state} is {@code FAILED}. */
  record Result(OutboxRow row, State state, Exception failure) {}

  private final OutboxPublisher publisher;

  DestinationPublish(OutboxPublisher publisher) {
    this.publisher = publisher;
  }

  /** The addresses of {@code rows} whose transport keeps a call's order: one call for a key. */
  Set<String> keepingOrder(List<OutboxRow> rows) {
    Set<String> ordered = new HashSet<>();
    Set<String> asked = new HashSet<>();
    for (OutboxRow row : rows) {
      if (asked.add(row.address()) && publisher.keepsOrderWithinCall(row.address())) {
        ordered.add(row.address());
      }
    }
    return ordered;
  }

  /**
   * Publishes {@code rows} (already validated: every address parses), one call per provider and
   * wave.
   *
   * @param ordered the addresses whose transport keeps a call's order ({@link #keepingOrder})
   * @param mayStart the fence, asked before every call: false leaves that call's rows unpublished
   * @param mayGoOn asked before every wave after the first: false gives back that wave and every
   *     later one (the claim or the sweep's time would run out), rather than letting them be fenced
   *     (a fenced row waits for its claim to expire)
   * @return one result per row, in the order given
   */
  List<Result> publish(
      List<OutboxRow> rows,
      Set<String> ordered,
      BooleanSupplier mayStart,
      BooleanSupplier mayGoOn) {
    Result[] results = new Result[rows.size()];
    Set<String> halted = new HashSet<>(); // keys with a row that did not go
    List<List<Integer>> waves = waves(rows, ordered);
    boolean fits = true;
    for (int n = 0; n < waves.size(); n++) {
      List<Integer> wave = waves.get(n);
      fits = fits && (n == 0 || mayGoOn.getAsBoolean()); // once out of time, for good
      List<Integer> going = new ArrayList<>(wave.size());
      for (int i : wave) {
        if (!fits || halted.contains(rows.get(i).blockingKey())) {
          results[i] = new Result(rows.get(i), State.HELD_BACK, null);
        } else {
          going.add(i);
        }
      }
      publishWave(rows, going, mayStart, results);
      for (int i : going) {
        if (results[i].state() != State.ACCEPTED && rows.get(i).blockingKey() != null) {
          halted.add(rows.get(i).blockingKey());
        }
      }
    }
    return Arrays.asList(results);
  }

  /**
   * The rows' indexes by wave: the n-th row of each key goes in wave n, on a transport that does
   * not keep a call's order; every other row in the first.
   */
  private static List<List<Integer>> waves(List<OutboxRow> rows, Set<String> ordered) {
    List<List<Integer>> waves = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      OutboxRow row = rows.get(i);
      String key = row.blockingKey();
      int wave = 0;
      if (key != null && !ordered.contains(row.address())) {
        wave = seen.merge(key, 1, Integer::sum) - 1;
      }
      while (waves.size() <= wave) {
        waves.add(new ArrayList<>());
      }
      waves.get(wave).add(i);
    }
    return waves;
  }

  private void publishWave(
      List<OutboxRow> rows, List<Integer> wave, BooleanSupplier mayStart, Result[] results) {
    for (List<Integer> provider : groups(rows, wave, true)) {
      if (!mayStart.getAsBoolean()) {
        provider.forEach(i -> results[i] = new Result(rows.get(i), State.FENCED, null));
        continue;
      }
      call(rows, provider, results);
      List<List<Integer>> addresses = groups(rows, provider, false);
      if (addresses.size() > 1 && provider.stream().allMatch(i -> isFailed(results[i]))) {
        // The call failed as a whole: try each address alone, while the claims still cover it.
        // Rows the provider did store before failing are posted again: a repeat the inbox absorbs.
        for (List<Integer> address : addresses) {
          if (mayStart.getAsBoolean()) {
            call(rows, address, results);
          }
        }
      }
    }
  }

  private void call(List<OutboxRow> rows, List<Integer> indexes, Result[] results) {
    List<OutboxRow> group = indexes.stream().map(rows::get).toList();
    List<Exception> failures;
    try {
      failures = publisher.publishAll(group);
    } catch (RuntimeException e) {
      // A publisher should report per row; one that throws fails the whole call, nothing more.
      failures = java.util.Collections.nCopies(group.size(), e);
    }
    for (int j = 0; j < group.size(); j++) {
      Exception failure = failures.get(j);
      results[indexes.get(j)] =
          new Result(group.get(j), failure == null ? State.ACCEPTED : State.FAILED, failure);
    }
  }

  private static boolean isFailed(Result result) {
    return result.state() == State.FAILED;
  }

  /** The indexes grouped by provider (scheme) or by whole address, in order of first appearance. */
  private static List<List<Integer>> groups(
      List<OutboxRow> rows, List<Integer> indexes, boolean byProvider) {
    Map<String, List<Integer>> groups = new LinkedHashMap<>();
    for (int i : indexes) {
      MailAddress address = MailAddress.parse(rows.get(i).address());
      String destination = byProvider ? address.scheme() : address.toString();
      groups.computeIfAbsent(destination, d -> new ArrayList<>()).add(i);
    }
    return List.copyOf(groups.values());
  }
}
