package io.mailbox.server.payaramicro;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The start scripts' environment variables become the adapter's properties
 * (mailbox_adapter_properties in server-config/common.sh), in asadmin's syntax: pairs separated by
 * ':', a ':' inside a value escaped. The names are the rar's (AdapterPropertiesTest checks those
 * against ra.xml and the docs).
 */
class AdapterPropertiesScriptTest {
  @Test
  void withNothingSetOnlyTheDefaultProvidersStart() throws Exception {
    assertThat(properties(Map.of())).isEqualTo("enabledProviders=mem,jdbc");
  }

  @Test
  void eachBrokerSettingBecomesItsPropertyWithItsColonsEscaped() throws Exception {
    String properties =
        properties(
            Map.of(
                "MAILBOX_PROVIDERS", "mem,jdbc,amqp,kafka,nats,redis",
                "MAILBOX_AMQP_URI", "amqp://guest:guest@127.0.0.1:5672/%2F",
                "MAILBOX_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092",
                "MAILBOX_KAFKA_CREATE_TOPICS", "true",
                "MAILBOX_KAFKA_QUEUE_ADDRESSES", "billing@shop/*",
                "MAILBOX_KAFKA_QUEUE_BATCH", "50",
                "MAILBOX_NATS_URL", "nats://127.0.0.1:4222",
                "MAILBOX_NATS_CREATE_STREAM", "true",
                "MAILBOX_REDIS_URL", "redis://127.0.0.1:6379"));

    assertThat(properties.split("(?<!\\\\):"))
        .containsExactlyInAnyOrder(
            "enabledProviders=mem,jdbc,amqp,kafka,nats,redis",
            "amqpUri=amqp\\://guest\\:guest@127.0.0.1\\:5672/%2F",
            "kafkaBootstrapServers=127.0.0.1\\:9092",
            "kafkaCreateTopics=true",
            "kafkaQueueAddresses=billing@shop/*",
            "kafkaQueueBatch=50",
            "natsUrl=nats\\://127.0.0.1\\:4222",
            "natsCreateStream=true",
            "redisUrl=redis\\://127.0.0.1\\:6379");
  }

  private static String properties(Map<String, String> environment) throws Exception {
    return CommonScript.run("mailbox_adapter_properties", environment);
  }
}
