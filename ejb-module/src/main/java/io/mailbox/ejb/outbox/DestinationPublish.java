package io.mailbox.ejb.outbox;

import io.mailbox.connector.api.MailAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Publishes one claimed batch so that a destination's failure fails only its own rows: one {@link
 * OutboxPublisher#publishAll} call per provider (the scheme of the row's address), and when such a
 * call fails as a whole for rows of several addresses, one call per address, so an address the
 * provider refuses does not hold back its healthy neighbours. Rows keep their batch order within
 * each call. Rows of one ordering key in a batch share an address whose transport keeps a call's
 * order ({@link RelayBatch}), so they are always in one call, and the calls' order does not matter.
 */
final class DestinationPublish {

  /** What became of one row. */
  enum State {
    /** The provider accepted it: mark it sent. */
    ACCEPTED,
    /** Its destination failed: a failed attempt. */
    FAILED,
    /** Not attempted: the claim would have expired mid-publish (the fence). */
    FENCED
  }

  /** The result for one row; {@code failure} is set when {@code state} is {@code FAILED}. */
  record Result(OutboxRow row, State state, Exception failure) {}

  private final OutboxPublisher publisher;

  DestinationPublish(OutboxPublisher publisher) {
    this.publisher = publisher;
  }

  /**
   * Publishes {@code rows} (already validated: every address parses), one call per provider.
   *
   * @param mayStart the fence, asked before every call: false leaves that call's rows unpublished
   * @return one result per row, in the order given
   */
  List<Result> publish(List<OutboxRow> rows, BooleanSupplier mayStart) {
    Result[] results = new Result[rows.size()];
    for (List<Integer> provider : groups(rows, indexes(rows.size()), true)) {
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
    return Arrays.asList(results);
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

  private static List<Integer> indexes(int size) {
    List<Integer> all = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      all.add(i);
    }
    return all;
  }
}
