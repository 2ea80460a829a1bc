package io.mailbox.connector.provider.jdbc;

import static io.mailbox.connector.provider.jdbc.JdbcProvider.SCHEME;

import io.mailbox.connector.api.AddressState;
import io.mailbox.connector.api.AddressStatus;
import io.mailbox.connector.api.MailAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What an operator sees of the {@code jdbc:} provider: an address's status from indexed counts of
 * its rows (plus the process's own figures: subscribers, collapsed duplicates, group commit), and
 * the sizes of its bookkeeping for the soak.
 */
final class JdbcStatus {
  private final AddressRows rows;
  private final QueueWriter writer;
  private final SubscriberPump pump;
  private final Map<MailAddress, Instant> known;

  /**
   * @param known addresses this process saw activity on, with when ({@link Instant#EPOCH}: only
   *     subscribed to)
   */
  JdbcStatus(
      AddressRows rows, QueueWriter writer, SubscriberPump pump, Map<MailAddress, Instant> known) {
    this.rows = rows;
    this.writer = writer;
    this.pump = pump;
    this.known = known;
  }

  AddressStatus of(MailAddress address, Instant now) {
    return of(address, rows.counts(address, now.toEpochMilli()), now);
  }

  /**
   * Every address with a row or seen by this process, sorted, from one query of the table's counts
   * (plus the process's own figures).
   */
  List<AddressStatus> all(Instant now) {
    Map<MailAddress, AddressRows.Counts> counts = rows.allCounts(now.toEpochMilli());
    Set<MailAddress> addresses = new TreeSet<>(known.keySet());
    addresses.addAll(counts.keySet());
    List<AddressStatus> all = new ArrayList<>(addresses.size());
    for (MailAddress address : addresses) {
      all.add(of(address, counts.getOrDefault(address, AddressRows.Counts.NONE), now));
    }
    return all;
  }

  private AddressStatus of(MailAddress address, AddressRows.Counts counts, Instant now) {
    Instant remembered = known.get(address);
    if (!counts.any() && remembered == null) {
      return AddressStatus.unknown(address);
    }
    Instant lastActivity =
        counts.lastUpdate() > 0 ? Instant.ofEpochMilli(counts.lastUpdate()) : null;
    if (remembered != null
        && !remembered.equals(Instant.EPOCH)
        && (lastActivity == null || remembered.isAfter(lastActivity))) {
      lastActivity = remembered;
    }
    Map<String, Object> extensions = new LinkedHashMap<>();
    extensions.put(SCHEME + ".overdueInFlightCount", counts.overdue());
    extensions.put(SCHEME + ".parkedCount", counts.parked());
    // From the same query (no peek per address: docs/benchmarks.md, "Scale of status").
    extensions.put(
        SCHEME + ".oldestUnreadMs",
        counts.ready() == 0 ? 0L : Math.max(0, now.toEpochMilli() - counts.oldestReadyPosted()));
    extensions.put(SCHEME + ".subscriberCount", pump.receivers(address).size());
    extensions.put(SCHEME + ".collapsedDuplicates", writer.collapsed());
    GroupCommit<?, ?> group = writer.groupCommitFigures();
    if (group != null) {
      // Process-wide, like the counter above: how well concurrent posts share transactions.
      extensions.put(SCHEME + ".groupCommit.batches", group.batches());
      extensions.put(SCHEME + ".groupCommit.rows", group.items());
      extensions.put(SCHEME + ".groupCommit.writeMillis", group.writeMillis());
    }
    return new AddressStatus(
        address,
        AddressState.ONLINE,
        true,
        counts.ready(),
        counts.leased(),
        lastActivity,
        extensions);
  }

  /**
   * In memory: {@code jdbc.subscriberAddresses}, {@code jdbc.knownAddresses}, {@code
   * jdbc.addressHashes} (process-wide cache, capped) and {@code jdbc.groupCommitQueued}. In the
   * database (two counting queries): {@code jdbc.rows.<STATE>} of {@code MBX_QUEUE} (LEASED rows
   * are the lease table), and the dedupe window's {@code MBX_QUEUE_SEEN} as {@code jdbc.seen} (all
   * rows) and {@code jdbc.seenLive} (sightings still inside the window).
   */
  void bookkeeping(Map<String, Long> sizes, Instant now) {
    sizes.put(SCHEME + ".subscriberAddresses", (long) pump.addresses());
    sizes.put(SCHEME + ".knownAddresses", (long) known.size());
    sizes.put(SCHEME + ".addressHashes", (long) JdbcSql.knownHashes());
    GroupCommit<?, ?> group = writer.groupCommitFigures();
    sizes.put(SCHEME + ".groupCommitQueued", group == null ? 0L : group.queued());
    rows.tableSizes(SCHEME + ".", now.toEpochMilli(), sizes);
  }
}
