package io.mailbox.connector.provider.redis;

import java.util.List;
import java.util.Map;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.CommandObjects;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.resps.StreamEntry;

/**
 * A stream reader's own connection, which can send a read and take its answer later: the reader
 * asks for its next batch before it hands the current one to the kernel, so Redis and the network
 * work while the subscribers do (a raw read loop waits for each answer in turn). At most one read
 * is outstanding.
 */
final class ReaderConnection extends Connection {
  private CommandObjects commands; // made once the connection knows its protocol
  private CommandObject<List<Map.Entry<String, List<StreamEntry>>>> outstanding;

  ReaderConnection(HostAndPort server, JedisClientConfig config) {
    super(server, config);
  }

  /**
   * Sends {@code XREADGROUP ... >} for new entries of {@code key}; its answer is {@link #answer}.
   */
  void sendReadNew(String group, String consumer, String key, int count, int blockMillis) {
    if (outstanding != null) {
      throw new IllegalStateException("a read is outstanding on this connection");
    }
    if (commands == null) {
      RedisProtocol protocol = getRedisProtocol(); // null: the server's default, RESP2
      commands = new CommandObjects(protocol == null ? RedisProtocol.RESP2 : protocol);
    }
    XReadGroupParams params = XReadGroupParams.xReadGroupParams().count(count);
    CommandObject<List<Map.Entry<String, List<StreamEntry>>>> read =
        commands.xreadGroup(
            group,
            consumer,
            blockMillis > 0 ? params.block(blockMillis) : params,
            Map.of(key, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY));
    sendCommand(read.getArguments());
    flush(); // on its way now, not when the answer is read
    outstanding = read;
  }

  boolean hasOutstanding() {
    return outstanding != null;
  }

  /**
   * The answer to the outstanding read, waiting for it (at most the block time plus the socket
   * margin); a refusal (NOGROUP) is thrown as Jedis's data exception.
   */
  List<Map.Entry<String, List<StreamEntry>>> answer() {
    CommandObject<List<Map.Entry<String, List<StreamEntry>>>> read = outstanding;
    if (read == null) {
      throw new IllegalStateException("no read is outstanding on this connection");
    }
    outstanding = null;
    return read.getBuilder().build(getOne());
  }
}
