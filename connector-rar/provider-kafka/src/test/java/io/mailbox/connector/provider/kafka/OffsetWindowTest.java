package io.mailbox.connector.provider.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class OffsetWindowTest {

  @Test
  void nothingHandedOutNothingToCommit() {
    assertThat(new OffsetWindow(7).committable()).isEmpty();
  }

  @Test
  void theCommitStopsAtTheLowestUnsettledRecord() {
    OffsetWindow window = new OffsetWindow(10);
    window.handedOut(10);
    window.handedOut(11);
    window.handedOut(12);

    window.settled(11);
    window.settled(12);
    assertThat(window.committable()).isEmpty(); // 10 is still out: never commit past it

    window.settled(10);
    assertThat(window.committable()).hasValue(13);
  }

  @Test
  void aCommittedOffsetIsNotOfferedAgain() {
    OffsetWindow window = new OffsetWindow(0);
    window.handedOut(0);
    window.handedOut(1);
    window.settled(0);
    assertThat(window.committable()).hasValue(1);
    window.committed(1);

    assertThat(window.committable()).isEmpty();
    window.settled(1);
    assertThat(window.committable()).hasValue(2);
  }

  @Test
  void settledButNotCommittedRecordsAreCounted() {
    OffsetWindow window = new OffsetWindow(0);
    window.handedOut(0);
    window.handedOut(1);
    window.handedOut(2);
    window.settled(0);
    window.settled(2);

    assertThat(window.unsettledCount()).isEqualTo(1);
    assertThat(window.settledNotCommitted()).isEqualTo(2);
    window.committed(1);
    assertThat(window.settledNotCommitted()).isEqualTo(1);
  }

  @Test
  void aRecordHandedOutAgainAfterARetryIsTrackedOnce() {
    OffsetWindow window = new OffsetWindow(5);
    window.handedOut(5);
    window.handedOut(5); // the retry of an unhandled record
    window.settled(5);

    assertThat(window.committable()).hasValue(6);
  }

  @Test
  void farAboveItsStartTheWindowStillCommitsUpToTheLowestUnsettled() {
    // Two records stay out while 10,000 around them are handed out and settled; once the first is
    // settled the lowest is far above where the bits start, and they are counted from it instead.
    OffsetWindow window = new OffsetWindow(100);
    for (long offset = 100; offset < 10_100; offset++) {
      window.handedOut(offset);
      if (offset != 100 && offset != 6_000) {
        window.settled(offset);
      }
    }
    assertThat(window.committable()).isEmpty(); // 100 is still out
    assertThat(window.settledNotCommitted()).isEqualTo(9_998);

    window.settled(100);
    assertThat(window.committable()).hasValue(6_000);
    window.committed(6_000);
    window.handedOut(10_100);
    window.settled(6_000);
    assertThat(window.committable()).hasValue(10_100); // 10,100 is out
    window.settled(10_100);
    assertThat(window.committable()).hasValue(10_101);
    assertThat(window.unsettledCount()).isZero();
  }

  @Test
  void behavesAsASortedSetOfUnsettledOffsets() {
    // Random hand-outs (mostly in order, some again after a retry, a few below the window's
    // start), settlements in any order and commits, against the plain model.
    Random random = new Random(17);
    OffsetWindow window = new OffsetWindow(1_000);
    TreeSet<Long> model = new TreeSet<>();
    List<Long> out = new ArrayList<>();
    long next = 1_000;
    long committed = 1_000;
    for (int step = 0; step < 200_000; step++) {
      int action = random.nextInt(10);
      if (action < 4) {
        // Mostly the next offset; sometimes one handed out before (a retry), and now and then a
        // jump (a compacted topic), sometimes wider than the bits are kept for.
        int kind = random.nextInt(1_000);
        long offset =
            kind < 20
                ? next - 1 - random.nextInt(20)
                : kind == 20 ? next + random.nextInt(3 * OffsetWindow.MAX_BITS) : next;
        if (offset < 0) {
          continue;
        }
        window.handedOut(offset);
        model.add(offset);
        out.add(offset);
        next = Math.max(next, offset + 1);
      } else if (action == 7 && random.nextInt(20) == 0) {
        long never = next + random.nextInt(5); // never handed out: changes nothing
        window.settled(never);
      } else if (action < 8 && !out.isEmpty()) {
        long offset =
            random.nextInt(8) == 0
                ? out.remove(random.nextInt(out.size()))
                : out.remove(out.size() > 30 ? random.nextInt(30) : 0);
        window.settled(offset);
        model.remove(offset);
      } else if (action == 8) {
        long upTo = model.isEmpty() ? next : model.first();
        OptionalLong expected = upTo > committed ? OptionalLong.of(upTo) : OptionalLong.empty();
        assertThat(window.committable()).as("step %d", step).isEqualTo(expected);
        if (expected.isPresent()) {
          window.committed(upTo);
          committed = upTo;
        }
      } else {
        assertThat(window.unsettledCount()).isEqualTo(model.size());
        assertThat(window.settledNotCommitted())
            .isEqualTo(Math.max(0, next - committed - model.size()));
      }
    }
  }

  @Test
  void anEmptyWindowFollowsAJumpOfAnySize() {
    OffsetWindow window = new OffsetWindow(0);
    window.handedOut(0);
    window.settled(0);
    long far = (1L << 33) + 5; // a compacted topic's next record, far past the last
    window.handedOut(far);
    window.handedOut(far + 1);
    window.settled(far + 1);
    assertThat(window.committable()).hasValue(far); // far is still out
    window.settled(far);
    assertThat(window.committable()).hasValue(far + 2);
  }

  @Test
  void unsettledRecordsFarApartAreKeptAndTheWindowReturnsToBits() {
    OffsetWindow window = new OffsetWindow(10);
    window.handedOut(10); // stays out while the offsets jump by more than the bits are kept for
    long far = 10 + 3L * OffsetWindow.MAX_BITS;
    window.handedOut(far);
    window.handedOut(far + 1);
    window.settled(far);
    assertThat(window.committable()).isEmpty(); // 10 is still out: nothing past it
    assertThat(window.unsettledCount()).isEqualTo(2);

    window.settled(10);
    assertThat(window.committable()).hasValue(far + 1);
    window.settled(far + 1);
    assertThat(window.committable()).hasValue(far + 2);

    window.handedOut(far + 2);
    window.handedOut(far + 3);
    window.settled(far + 3);
    assertThat(window.committable()).hasValue(far + 2);
    assertThat(window.unsettledCount()).isEqualTo(1);
  }
}
