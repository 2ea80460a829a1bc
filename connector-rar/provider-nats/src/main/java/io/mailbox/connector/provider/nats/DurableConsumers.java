package io.mailbox.connector.provider.nats;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailboxException;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.PullSubscribeOptions;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.ConsumerInfo;
import io.nats.client.api.DeliverPolicy;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * The durable pull consumers that read the provider's addresses, one per group and address: made at
 * an address's first use, starting at messages stored after it; each records its group and address
 * (its description), so that a consumer of that name made for something else is refused, in this
 * process or any other, and the snapshot can list the addresses of every server.
 */
final class DurableConsumers {
  private static final Logger LOG = Logger.getLogger(DurableConsumers.class.getName());
  private static final int CONSUMER_NOT_FOUND = 10014;
  private static final int STREAM_NOT_FOUND = 10059;
  private static final int MAX_ACK_PENDING = 20_000;

  private final NatsLink link;
  private final NatsSettings settings;
  private final SubjectNames names;
  private final Set<String> found = ConcurrentHashMap.newKeySet();
  private final Set<String> foundBefore = ConcurrentHashMap.newKeySet();
  private final Map<String, String> ownersHere = new ConcurrentHashMap<>(); // consumer → owner
  private final Map<MailAddress, String> ready = new ConcurrentHashMap<>(); // address → subject

  DurableConsumers(NatsLink link, NatsSettings settings, SubjectNames names) {
    this.link = link;
    this.settings = settings;
    this.names = names;
  }

  /**
   * The subject of {@code address}, the stream and the group's durable consumer made sure of: once
   * per address until the connection is made again (then the server is asked again).
   */
  String subjectReady(String group, MailAddress address) {
    String known = ready.get(address);
    if (known != null) {
      return known;
    }
    String subject = names.subject(address);
    ensure(group, address);
    ready.put(address, subject);
    return subject;
  }

  /** How a pull subscription binds to the group's consumer of {@code address}. */
  PullSubscribeOptions bind(String group, MailAddress address) {
    return PullSubscribeOptions.bind(settings.stream(), names.consumer(group, address));
  }

  /** After a reconnect: look for every consumer again (the server may have lost them). */
  void forgetFound() {
    foundBefore.addAll(found);
    found.clear();
    ready.clear();
  }

  void forgetAll() {
    found.clear();
    foundBefore.clear();
    ready.clear();
  }

  /**
   * The durable consumer of {@code group} on {@code address}, created when missing with delivery
   * starting at messages stored after it. An existing consumer of that name that records another
   * group or address (its description) is refused with {@code MBX-2008} naming both.
   */
  String ensure(String group, MailAddress address) {
    String name = names.consumer(group, address);
    String owner = owner(group, address);
    String here = ownersHere.putIfAbsent(name, owner);
    if (here != null && !here.equals(owner)) {
      throw collision(name, owner, here);
    }
    if (found.contains(name)) {
      return name;
    }
    link.ensureStream();
    JetStreamManagement management = link.management();
    try {
      ConsumerInfo existing =
          askedOnceMore(
              "describe consumer " + name,
              () -> management.getConsumerInfo(settings.stream(), name));
      String recorded = existing.getConsumerConfiguration().getDescription();
      if (!owner.equals(recorded)) {
        throw collision(name, owner, recorded == null ? "(a consumer made by others)" : recorded);
      }
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() != CONSUMER_NOT_FOUND) {
        throw link.unavailable("refused to describe consumer " + name, e);
      }
      if (foundBefore.contains(name)) {
        LOG.warning(
            () ->
                "NATS durable consumer "
                    + name
                    + " was gone (the server lost it); made again, it delivers what is stored from"
                    + " now on");
      }
      askedOnceMore(
          "create consumer " + name,
          () -> {
            create(management, name, owner, names.subject(address));
            return name;
          });
    }
    found.add(name);
    return name;
  }

  /** A JetStream API call that can time out, and may refuse with {@code E}. */
  private interface ApiCall<T, E extends Exception> {
    T call() throws IOException, E;
  }

  /**
   * Runs {@code call}, and once more when the server did not answer in time (seen in CI, for a
   * describe and for a create: a 5 s timeout while the server's store was busy). Both are safe to
   * repeat: a describe changes nothing, and creating with the same configuration updates nothing.
   */
  private <T, E extends Exception> T askedOnceMore(String what, ApiCall<T, E> call) throws E {
    try {
      return call.call();
    } catch (IOException timedOut) {
      LOG.fine(() -> "NATS did not " + what + " in time; asking once more");
      try {
        return call.call();
      } catch (IOException e) {
        throw link.unavailable("did not " + what, e);
      }
    }
  }

  private void create(JetStreamManagement management, String name, String owner, String subject)
      throws IOException {
    try {
      management.addOrUpdateConsumer(
          settings.stream(),
          ConsumerConfiguration.builder()
              .durable(name)
              .description(owner)
              .filterSubject(subject)
              .deliverPolicy(DeliverPolicy.New)
              .ackPolicy(AckPolicy.Explicit)
              .ackWait(settings.ackWait())
              .maxDeliver(-1) // the provider dead-letters at its cap; the server never drops one
              .maxAckPending(MAX_ACK_PENDING)
              .build());
    } catch (JetStreamApiException e) {
      throw link.unavailable("refused to create consumer " + name, e);
    }
  }

  /**
   * The consumer's numbers now, or empty when it does not exist. A server that does not answer is
   * the coded "unavailable" error, never an empty answer: a peek would show nothing waiting.
   */
  Optional<ConsumerInfo> info(String name) {
    try {
      return Optional.of(link.management().getConsumerInfo(settings.stream(), name));
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() == CONSUMER_NOT_FOUND || e.getApiErrorCode() == STREAM_NOT_FOUND) {
        return Optional.empty();
      }
      throw link.unavailable("refused to describe consumer " + name, e);
    } catch (MailboxException e) {
      throw e; // coded already (not connected)
    } catch (IOException | RuntimeException e) {
      throw link.unavailable("did not describe consumer " + name, e);
    }
  }

  /**
   * Every consumer of the stream that may read {@code subject} (any group's, any server's, ours or
   * not): one without a filter reads the whole stream, a filter may name several subjects or use
   * wildcards.
   */
  List<ConsumerInfo> reading(String subject) {
    try {
      return link.management().getConsumers(settings.stream()).stream()
          .filter(info -> reads(info.getConsumerConfiguration(), subject))
          .toList();
    } catch (JetStreamApiException | IOException e) {
      throw link.unavailable("did not list the consumers of " + subject, e);
    }
  }

  private static boolean reads(ConsumerConfiguration consumer, String subject) {
    List<String> filters = consumer.getFilterSubjects();
    if (filters == null || filters.isEmpty()) {
      return true; // no filter: every subject of the stream
    }
    return filters.stream().anyMatch(filter -> SubjectNames.covers(filter, subject));
  }

  /** The addresses of the provider's durable consumers (by their recorded owner), any server's. */
  Set<MailAddress> ownedAddresses() {
    Set<MailAddress> addresses = new TreeSet<>();
    try {
      for (ConsumerInfo info : link.management().getConsumers(settings.stream())) {
        String owner = info.getConsumerConfiguration().getDescription();
        int at = owner == null ? -1 : owner.indexOf(" address ");
        if (owner != null && owner.startsWith(OWNER_PREFIX) && at > 0) {
          try {
            addresses.add(MailAddress.parse(owner.substring(at + " address ".length())));
          } catch (RuntimeException notOurs) {
            // a description that only looks like ours
          }
        }
      }
    } catch (JetStreamApiException | IOException | RuntimeException e) {
      LOG.fine(() -> "NATS consumers not listed: " + e.getMessage());
    }
    return addresses;
  }

  private static final String OWNER_PREFIX = "mailbox group ";

  /** What a consumer's description records: its group and address, raw. */
  static String owner(String group, MailAddress address) {
    return OWNER_PREFIX + group + " address " + address;
  }

  private static MailboxException collision(String name, String wanted, String existing) {
    return new MailboxException(
        ErrorCode.CONSUMER_NAME_COLLISION,
        "NATS durable consumer "
            + name
            + " would serve '"
            + wanted
            + "', but it belongs to '"
            + existing
            + "': two groups would split one consumer's messages. Use another group"
            + " (natsDefaultGroup), or delete the other consumer. Nothing was read.");
  }
}
