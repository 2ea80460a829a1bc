/**
 * The {@code file:} transport: a mail folder on disk, one JSON file per message in a per-recipient
 * folder, written atomically (temp file, fsync, rename), so other tools and agents can exchange
 * messages with the application through plain files.
 */
package io.mailbox.connector.provider.file;
