package io.mailbox.console.api;

import io.mailbox.connector.api.ErrorCode;
import io.mailbox.connector.api.InFlightCopy;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.api.MailboxException;
import io.mailbox.connector.api.RecoverResult;
import io.mailbox.ejb.audit.AuditEntry;
import io.mailbox.ejb.audit.AuditLog;
import io.mailbox.ejb.inbox.InboxRow;
import io.mailbox.ejb.operations.MailboxOperations;
import io.mailbox.ejb.operations.MessageOperations;
import io.mailbox.ejb.operations.OutboxOperations;
import io.mailbox.ejb.outbox.OutboxRow;
import io.mailbox.ejb.outbox.OutboxStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * In-memory stand-ins for the EJB facades the admin API calls: they refuse what the kernel refuses
 * (an address that does not parse, a replay rate out of range) with its code, and record every
 * change they would have made, so a test can tell whether a refused request changed anything.
 */
final class RecordingFacades {
  final List<String> changes = new ArrayList<>();

  final MailboxOperations mailbox =
      new MailboxOperations() {
        @Override
        public RecoverResult recover(String address) {
          MailAddress.parse(address);
          changes.add("recover");
          return new RecoverResult(0, true, Map.of(), List.of());
        }

        @Override
        public List<MailMessage> peek(String address, int limit) {
          MailAddress.parse(address);
          return List.of();
        }

        @Override
        public List<InFlightCopy> inFlight(String address, int limit) {
          MailAddress.parse(address);
          return List.of();
        }

        @Override
        public String sendTestMessage(String address, String body) {
          MailAddress.parse(address);
          changes.add("sendTestMessage");
          return "m-1";
        }

        @Override
        public int purge(String address) {
          MailAddress.parse(address);
          changes.add("purge");
          return 0;
        }

        @Override
        public ReplayResult replay(
            String address, List<String> keys, int perSecond, IntConsumer progress) {
          MailAddress.parse(address);
          if (perSecond < 1 || perSecond > 1000) {
            throw new MailboxException(ErrorCode.INVALID_POLICY, "rate " + perSecond);
          }
          changes.add("replay");
          return new ReplayResult(keys.size(), 0, 0, keys.size(), 0);
        }

        @Override
        public List<MailMessage> parked(String address, int limit) {
          MailAddress.parse(address);
          return List.of();
        }

        @Override
        public int purgeParked(String address, String key) {
          MailAddress.parse(address);
          changes.add("purgeParked");
          return 0;
        }
      };

  final MessageOperations messages =
      new MessageOperations() {
        @Override
        public java.util.Optional<MailMessage> find(String address, String key) {
          MailAddress.parse(address);
          requireKey(key);
          return java.util.Optional.empty();
        }

        @Override
        public MoveResult move(String address, String key, String target) {
          if (MailAddress.parse(address).equals(MailAddress.parse(target))) {
            throw new MailboxException(ErrorCode.INVALID_REQUEST, "same address");
          }
          requireKey(key);
          changes.add("move");
          return new MoveResult(false, null, false);
        }

        @Override
        public int delete(String address, String key) {
          MailAddress.parse(address);
          requireKey(key);
          changes.add("delete");
          return 0;
        }

        private void requireKey(String key) {
          if (key == null || key.isBlank()) {
            throw new MailboxException(ErrorCode.INVALID_REQUEST, "no key");
          }
        }
      };

  final OutboxOperations outbox =
      new OutboxOperations() {
        @Override
        public List<OutboxRow> rows(OutboxStatus status, int limit) {
          return List.of();
        }

        @Override
        public int releaseOutbox(List<String> ids, boolean retry) {
          changes.add("releaseOutbox");
          return 0;
        }

        @Override
        public List<InboxRow> parkedInbox(int limit) {
          return List.of();
        }

        @Override
        public int releaseInbox(List<InboxRow> rows, boolean retry) {
          changes.add("releaseInbox");
          return 0;
        }
      };

  final AuditLog audit =
      new AuditLog() {
        @Override
        public List<AuditEntry> recent(int limit) {
          return List.of();
        }
      };
}
