package io.mailbox.ejb.outbox;

/**
 * What one sweep did.
 *
 * @param scanned rows examined
 * @param published rows published and marked sent
 * @param retried failed publishes that will be retried
 * @param failed rows failed for good (max attempts or invalid)
 * @param blocked rows skipped because their key was blocked, they were backing off or held by
 *     another relay
 * @param overlaps claims lost after publishing, or fenced before it
 * @param lapEnded whether the sweep reached the end of the pending set
 */
public record SweepResult(
    int scanned,
    int published,
    int retried,
    int failed,
    int blocked,
    int overlaps,
    boolean lapEnded) {}
