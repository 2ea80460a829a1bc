/**
 * The transactional outbox: events written as rows in the caller's JTA transaction, relayed to
 * their addresses afterwards by claim, fence, publish and mark, one row at a time.
 */
package io.mailbox.ejb.outbox;
