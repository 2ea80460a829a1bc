-- Mailbox consumer inbox (h2). Matches io.mailbox.ejb.inbox.InboxMarker; see docs/outbox.md.
-- ID is a SHA-256 of (consumer, topic, envelope id); a failure-count row adds ':f'.
-- SOURCE_ADDRESS: where the delivery came from (release -> retry re-posts there); an existing table
-- gets it with: ALTER TABLE MBX_INBOX ADD SOURCE_ADDRESS VARCHAR(1000)
CREATE TABLE MBX_INBOX (
  ID          VARCHAR(80)   NOT NULL PRIMARY KEY,
  CONSUMER    VARCHAR(200)  NOT NULL,
  TOPIC       VARCHAR(255)  NOT NULL,
  ENVELOPE_ID VARCHAR(128),
  STATUS      VARCHAR(16)   NOT NULL,
  ATTEMPTS    INTEGER       NOT NULL,
  UPDATED_AT  BIGINT        NOT NULL,
  LAST_ERROR  VARCHAR(1024),
  ENVELOPE    VARCHAR(1048576),
  SOURCE_ADDRESS VARCHAR(1000)
);
CREATE INDEX MBX_INBOX_STATUS ON MBX_INBOX (STATUS, UPDATED_AT);
