package io.mailbox.ejb.event;

import io.mailbox.ejb.event.IntegrationEventRejectedException.Reason;
import jakarta.json.JsonValue;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Names an integration event, versions it and pairs it with its parser. One definition serves both
 * sides: the producer reads type, version and topic; the consumer also runs {@code parse}. Refused
 * when created if wrong: above all, the topic must end in {@code .v<version>}, because a version
 * bump on an unchanged topic breaks every deployed consumer.
 *
 * @param <T> the parsed payload
 */
public final class IntegrationEventDefinition<T> {
  private static final Pattern TYPE = Pattern.compile("[a-z][a-z0-9]*([._-][a-z0-9]+)*");

  private final String type;
  private final int version;
  private final String topic;
  private final Function<JsonValue, T> parse;
  private final Function<IntegrationEventEnvelope, String> orderingKey;

  private IntegrationEventDefinition(
      String type,
      int version,
      String topic,
      Function<JsonValue, T> parse,
      Function<IntegrationEventEnvelope, String> orderingKey) {
    this.type = type;
    this.version = version;
    this.topic = topic;
    this.parse = parse;
    this.orderingKey = orderingKey;
  }

  /**
   * Defines an event.
   *
   * @param parse narrows the delivered data to {@code T}; throw to refuse it (reason {@code parse})
   * @throws IntegrationEventRejectedException reason {@code DEFINITION} when anything is wrong
   */
  public static <T> IntegrationEventDefinition<T> define(
      String type, int version, String topic, Function<JsonValue, T> parse) {
    return define(type, version, topic, parse, null);
  }

  /** As {@link #define(String, int, String, Function)}, with an ordering-key selector. */
  public static <T> IntegrationEventDefinition<T> define(
      String type,
      int version,
      String topic,
      Function<JsonValue, T> parse,
      Function<IntegrationEventEnvelope, String> orderingKey) {
    if (type == null || !TYPE.matcher(type).matches()) {
      throw invalid(
          "type '"
              + type
              + "' must be lower-case words joined by '.', '-' or '_' (e.g. orders.placed)");
    }
    if (version < 1) {
      throw invalid("version of " + type + " must be 1 or more, was " + version);
    }
    // The name rule first: a refused topic is named by its problem only (it may hold a line break
    // that must not reach a log raw); past it the topic is safe to quote.
    Optional<String> problem = TopicName.problem(topic);
    if (problem.isPresent()) {
      throw invalid("the topic of " + type + " v" + version + " is refused: " + problem.get());
    }
    String suffix = ".v" + version;
    if (!topic.endsWith(suffix) || topic.length() == suffix.length()) {
      throw invalid(
          "topic '" + topic + "' of " + type + " v" + version + " must end with '" + suffix + "'");
    }
    if (parse == null) {
      throw invalid(
          "a parser is required for " + type + " v" + version + "; the consumer side runs it");
    }
    return new IntegrationEventDefinition<>(type, version, topic, parse, orderingKey);
  }

  private static IntegrationEventRejectedException invalid(String why) {
    return new IntegrationEventRejectedException(Reason.DEFINITION, why);
  }

  public String type() {
    return type;
  }

  public int version() {
    return version;
  }

  public String topic() {
    return topic;
  }

  /** The ordering key the definition selects for an envelope, if it has a selector. */
  public Optional<String> orderingKeyOf(IntegrationEventEnvelope envelope) {
    return orderingKey == null
        ? Optional.empty()
        : Optional.ofNullable(orderingKey.apply(envelope));
  }

  /**
   * Checks a delivered envelope against this definition and parses its data: type and version must
   * match exactly, then the parser runs.
   */
  public T accept(IntegrationEventEnvelope envelope) {
    if (!type.equals(envelope.type())) {
      throw new IntegrationEventRejectedException(
          Reason.TYPE, "topic " + topic + " expects type " + type + ", got " + envelope.type());
    }
    if (version != envelope.version()) {
      throw new IntegrationEventRejectedException(
          Reason.VERSION,
          "topic " + topic + " expects version " + version + ", got " + envelope.version());
    }
    try {
      return parse.apply(envelope.data());
    } catch (RuntimeException e) {
      throw new IntegrationEventRejectedException(
          Reason.PARSE,
          type + " v" + version + " data refused by its parser: " + e.getClass().getSimpleName(),
          e);
    }
  }
}
