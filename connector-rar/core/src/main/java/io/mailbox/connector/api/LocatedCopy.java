package io.mailbox.connector.api;

import java.io.Serializable;

/**
 * One copy found by {@code locate(messageId)}: where it is and the key to act on it with.
 *
 * @param address the mailbox holding it
 * @param messageId the sender's id (the name searched for; it may repeat)
 * @param key the copy key ({@code mbx-send-id}) to settle or purge by
 * @param leaseId the current lease when in flight, else {@code null}
 * @param state queued, in flight or parked
 */
public record LocatedCopy(
    MailAddress address, String messageId, String key, String leaseId, CopyState state)
    implements Serializable {}
