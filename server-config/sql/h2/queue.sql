-- Mailbox jdbc: provider queue (h2). Matches io.mailbox.connector.provider.jdbc.JdbcProvider; see docs/providers.md.
-- One row per copy. STATE: READY (queued), LEASED (handed out until VISIBLE_AT), PARKED. Times are epoch ms.
CREATE TABLE MBX_QUEUE (
  COPY_KEY     VARCHAR(64)   NOT NULL PRIMARY KEY,
  ADDRESS_HASH CHAR(64)      NOT NULL,
  ADDRESS      VARCHAR(1000) NOT NULL,
  SEQ          BIGINT        NOT NULL,
  MESSAGE_ID   VARCHAR(128)  NOT NULL,
  MESSAGE      VARCHAR(1048576) NOT NULL,
  STATE        VARCHAR(16)   NOT NULL,
  LEASE_ID     VARCHAR(64),
  VISIBLE_AT   BIGINT        NOT NULL,
  DELIVERIES   INTEGER       NOT NULL,
  UPDATED_AT   BIGINT        NOT NULL
);
CREATE INDEX MBX_QUEUE_NEXT ON MBX_QUEUE (ADDRESS_HASH, STATE, SEQ);
CREATE INDEX MBX_QUEUE_MESSAGE ON MBX_QUEUE (MESSAGE_ID);
-- Ids already posted to an address, for the dedupe window (kept until SEEN_UNTIL; the provider
-- deletes expired rows every window, at most every minute, by the SEEN_UNTIL index).
CREATE TABLE MBX_QUEUE_SEEN (
  ADDRESS_HASH CHAR(64)     NOT NULL,
  MESSAGE_ID   VARCHAR(128) NOT NULL,
  SEEN_UNTIL   BIGINT       NOT NULL,
  PRIMARY KEY (ADDRESS_HASH, MESSAGE_ID)
);
CREATE INDEX MBX_QUEUE_SEEN_UNTIL ON MBX_QUEUE_SEEN (SEEN_UNTIL);
