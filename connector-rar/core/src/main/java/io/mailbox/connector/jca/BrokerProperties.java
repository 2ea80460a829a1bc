package io.mailbox.connector.jca;

/**
 * The bean properties of the shipped broker providers whose clients keep many settings, {@code
 * kafka:}, {@code nats:} and {@code redis:} (declared by their factories, checked like the rest by
 * {@code AdapterPropertiesTest}). Kept apart from {@link AdapterProperties} only to keep each class
 * short; a server sees them as the adapter's own properties.
 */
public abstract class BrokerProperties {
  private String kafkaBootstrapServers = "127.0.0.1:9092";
  private String kafkaTopicPrefix = "mailbox.";
  private String kafkaDefaultGroup = "mailbox";
  private Long kafkaPublishTimeoutMillis = 15_000L;
  private String kafkaCreateTopics = "false";
  private Integer kafkaTopicPartitions = 1;
  private Integer kafkaReplicationFactor = 1;
  private Long kafkaUnknownTopicBudgetMillis = 10_000L;
  private Integer kafkaMaxDeliveries = 10;
  private String kafkaQueueAddresses = "";
  private Integer kafkaQueueBatch = 500;
  private String natsUrl = "nats://127.0.0.1:4222";
  private String natsStream = "MAILBOX";
  private String natsSubjectPrefix = "mailbox";
  private String natsDefaultGroup = "mailbox";
  private Long natsPublishTimeoutMillis = 15_000L;
  private String natsCreateStream = "false";
  private Long natsAckWaitMillis = 30_000L;
  private Integer natsMaxDeliveries = 10;
  private Integer natsMaxReconnects = -1;
  private Long natsReconnectWaitMillis = 2_000L;
  private String natsDeduplicateByMessageId = "false";
  private String redisUrl = "redis://127.0.0.1:6379";
  private String redisKeyPrefix = "mailbox";
  private String redisDefaultGroup = "mailbox";
  private Long redisPublishTimeoutMillis = 15_000L;
  private Long redisBlockMillis = 500L;
  private Long redisLeaseMillis = 30_000L;
  private Integer redisMaxDeliveries = 10;
  private Integer redisMaxLength = 0;

  public String getKafkaBootstrapServers() {
    return kafkaBootstrapServers;
  }

  public void setKafkaBootstrapServers(String kafkaBootstrapServers) {
    this.kafkaBootstrapServers = kafkaBootstrapServers;
  }

  public String getKafkaTopicPrefix() {
    return kafkaTopicPrefix;
  }

  public void setKafkaTopicPrefix(String kafkaTopicPrefix) {
    this.kafkaTopicPrefix = kafkaTopicPrefix;
  }

  public String getKafkaDefaultGroup() {
    return kafkaDefaultGroup;
  }

  public void setKafkaDefaultGroup(String kafkaDefaultGroup) {
    this.kafkaDefaultGroup = kafkaDefaultGroup;
  }

  public Long getKafkaPublishTimeoutMillis() {
    return kafkaPublishTimeoutMillis;
  }

  public void setKafkaPublishTimeoutMillis(Long kafkaPublishTimeoutMillis) {
    this.kafkaPublishTimeoutMillis = kafkaPublishTimeoutMillis;
  }

  public String getKafkaCreateTopics() {
    return kafkaCreateTopics;
  }

  public void setKafkaCreateTopics(String kafkaCreateTopics) {
    this.kafkaCreateTopics = kafkaCreateTopics;
  }

  public Integer getKafkaTopicPartitions() {
    return kafkaTopicPartitions;
  }

  public void setKafkaTopicPartitions(Integer kafkaTopicPartitions) {
    this.kafkaTopicPartitions = kafkaTopicPartitions;
  }

  public Integer getKafkaReplicationFactor() {
    return kafkaReplicationFactor;
  }

  public void setKafkaReplicationFactor(Integer kafkaReplicationFactor) {
    this.kafkaReplicationFactor = kafkaReplicationFactor;
  }

  public Long getKafkaUnknownTopicBudgetMillis() {
    return kafkaUnknownTopicBudgetMillis;
  }

  public void setKafkaUnknownTopicBudgetMillis(Long kafkaUnknownTopicBudgetMillis) {
    this.kafkaUnknownTopicBudgetMillis = kafkaUnknownTopicBudgetMillis;
  }

  public Integer getKafkaMaxDeliveries() {
    return kafkaMaxDeliveries;
  }

  public void setKafkaMaxDeliveries(Integer kafkaMaxDeliveries) {
    this.kafkaMaxDeliveries = kafkaMaxDeliveries;
  }

  public String getKafkaQueueAddresses() {
    return kafkaQueueAddresses;
  }

  public void setKafkaQueueAddresses(String kafkaQueueAddresses) {
    this.kafkaQueueAddresses = kafkaQueueAddresses;
  }

  public Integer getKafkaQueueBatch() {
    return kafkaQueueBatch;
  }

  public void setKafkaQueueBatch(Integer kafkaQueueBatch) {
    this.kafkaQueueBatch = kafkaQueueBatch;
  }

  public String getNatsUrl() {
    return natsUrl;
  }

  public void setNatsUrl(String natsUrl) {
    this.natsUrl = natsUrl;
  }

  public String getNatsStream() {
    return natsStream;
  }

  public void setNatsStream(String natsStream) {
    this.natsStream = natsStream;
  }

  public String getNatsSubjectPrefix() {
    return natsSubjectPrefix;
  }

  public void setNatsSubjectPrefix(String natsSubjectPrefix) {
    this.natsSubjectPrefix = natsSubjectPrefix;
  }

  public String getNatsDefaultGroup() {
    return natsDefaultGroup;
  }

  public void setNatsDefaultGroup(String natsDefaultGroup) {
    this.natsDefaultGroup = natsDefaultGroup;
  }

  public Long getNatsPublishTimeoutMillis() {
    return natsPublishTimeoutMillis;
  }

  public void setNatsPublishTimeoutMillis(Long natsPublishTimeoutMillis) {
    this.natsPublishTimeoutMillis = natsPublishTimeoutMillis;
  }

  public String getNatsCreateStream() {
    return natsCreateStream;
  }

  public void setNatsCreateStream(String natsCreateStream) {
    this.natsCreateStream = natsCreateStream;
  }

  public Long getNatsAckWaitMillis() {
    return natsAckWaitMillis;
  }

  public void setNatsAckWaitMillis(Long natsAckWaitMillis) {
    this.natsAckWaitMillis = natsAckWaitMillis;
  }

  public Integer getNatsMaxDeliveries() {
    return natsMaxDeliveries;
  }

  public void setNatsMaxDeliveries(Integer natsMaxDeliveries) {
    this.natsMaxDeliveries = natsMaxDeliveries;
  }

  public Integer getNatsMaxReconnects() {
    return natsMaxReconnects;
  }

  public void setNatsMaxReconnects(Integer natsMaxReconnects) {
    this.natsMaxReconnects = natsMaxReconnects;
  }

  public Long getNatsReconnectWaitMillis() {
    return natsReconnectWaitMillis;
  }

  public void setNatsReconnectWaitMillis(Long natsReconnectWaitMillis) {
    this.natsReconnectWaitMillis = natsReconnectWaitMillis;
  }

  public String getNatsDeduplicateByMessageId() {
    return natsDeduplicateByMessageId;
  }

  public void setNatsDeduplicateByMessageId(String natsDeduplicateByMessageId) {
    this.natsDeduplicateByMessageId = natsDeduplicateByMessageId;
  }

  public String getRedisUrl() {
    return redisUrl;
  }

  public void setRedisUrl(String redisUrl) {
    this.redisUrl = redisUrl;
  }

  public String getRedisKeyPrefix() {
    return redisKeyPrefix;
  }

  public void setRedisKeyPrefix(String redisKeyPrefix) {
    this.redisKeyPrefix = redisKeyPrefix;
  }

  public String getRedisDefaultGroup() {
    return redisDefaultGroup;
  }

  public void setRedisDefaultGroup(String redisDefaultGroup) {
    this.redisDefaultGroup = redisDefaultGroup;
  }

  public Long getRedisPublishTimeoutMillis() {
    return redisPublishTimeoutMillis;
  }

  public void setRedisPublishTimeoutMillis(Long redisPublishTimeoutMillis) {
    this.redisPublishTimeoutMillis = redisPublishTimeoutMillis;
  }

  public Long getRedisBlockMillis() {
    return redisBlockMillis;
  }

  public void setRedisBlockMillis(Long redisBlockMillis) {
    this.redisBlockMillis = redisBlockMillis;
  }

  public Long getRedisLeaseMillis() {
    return redisLeaseMillis;
  }

  public void setRedisLeaseMillis(Long redisLeaseMillis) {
    this.redisLeaseMillis = redisLeaseMillis;
  }

  public Integer getRedisMaxDeliveries() {
    return redisMaxDeliveries;
  }

  public void setRedisMaxDeliveries(Integer redisMaxDeliveries) {
    this.redisMaxDeliveries = redisMaxDeliveries;
  }

  public Integer getRedisMaxLength() {
    return redisMaxLength;
  }

  public void setRedisMaxLength(Integer redisMaxLength) {
    this.redisMaxLength = redisMaxLength;
  }
}
