package io.mailbox.connector.provider.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The group-commit rules, with a batch writer we control instead of a database. */
class GroupCommitTest {
  private final ExecutorService callers = Executors.newFixedThreadPool(8);

  @AfterEach
  void stop() {
    callers.shutdownNow();
  }

  @Test
  void aLoneCallerIsWrittenAloneAndGetsItsOwnResult() {
    List<List<String>> batches = new CopyOnWriteArrayList<>();
    GroupCommit<String, String> group =
        new GroupCommit<>(
            batch -> {
              batches.add(List.copyOf(batch));
              return batch.stream().map(String::toUpperCase).toList();
            },
            10);

    assertThat(group.submit("a")).isEqualTo("A");
    assertThat(group.submit("b")).isEqualTo("B");
    assertThat(batches).containsExactly(List.of("a"), List.of("b"));
  }

  @Test
  void postsIssuedWhileABatchCommitsShareTheNextTransactionAndEachWaitsForIt() throws Exception {
    CountDownLatch firstBatchWriting = new CountDownLatch(1);
    CountDownLatch releaseFirstBatch = new CountDownLatch(1);
    List<List<Integer>> batches = new CopyOnWriteArrayList<>();
    GroupCommit<Integer, Integer> group =
        new GroupCommit<>(
            batch -> {
              batches.add(List.copyOf(batch));
              if (batches.size() == 1) {
                firstBatchWriting.countDown();
                releaseFirstBatch.await();
              }
              return batch.stream().map(i -> i * 10).toList();
            },
            100);

    Future<Integer> first = callers.submit(() -> group.submit(0));
    assertThat(firstBatchWriting.await(5, TimeUnit.SECONDS)).isTrue();
    List<Future<Integer>> others = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      int item = i;
      others.add(callers.submit(() -> group.submit(item)));
    }
    awaitQueued(group, 6);
    // Nobody returns before the transaction holding its item committed.
    Thread.sleep(100);
    assertThat(first.isDone()).isFalse();
    assertThat(others).noneMatch(Future::isDone);
    assertThat(group.items()).isZero();

    releaseFirstBatch.countDown();
    assertThat(first.get(5, TimeUnit.SECONDS)).isZero();
    for (int i = 0; i < others.size(); i++) {
      assertThat(others.get(i).get(5, TimeUnit.SECONDS)).isEqualTo((i + 1) * 10);
    }
    assertThat(batches).hasSize(2);
    assertThat(batches.get(1)).containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6);
    assertThat(group.batches()).isEqualTo(2);
    assertThat(group.items()).isEqualTo(7);
  }

  @Test
  void aFailedBatchFailsEveryPostInItAndTheNextBatchStillWorks() throws Exception {
    CountDownLatch firstBatchWriting = new CountDownLatch(1);
    CountDownLatch releaseFirstBatch = new CountDownLatch(1);
    List<List<String>> batches = new CopyOnWriteArrayList<>();
    GroupCommit<String, Boolean> group =
        new GroupCommit<>(
            batch -> {
              batches.add(List.copyOf(batch));
              if (batches.size() == 1) {
                firstBatchWriting.countDown();
                releaseFirstBatch.await();
              }
              if (batch.contains("poison")) {
                throw new java.sql.SQLException("constraint violated", "23505");
              }
              return batch.stream().map(s -> true).toList();
            },
            100);

    Future<Boolean> blocker = callers.submit(() -> group.submit("first"));
    assertThat(firstBatchWriting.await(5, TimeUnit.SECONDS)).isTrue();
    Future<Boolean> innocent = callers.submit(() -> group.submit("innocent"));
    Future<Boolean> poison = callers.submit(() -> group.submit("poison"));
    awaitQueued(group, 2);
    releaseFirstBatch.countDown();

    assertThat(blocker.get(5, TimeUnit.SECONDS)).isTrue();
    for (Future<Boolean> failed : List.of(innocent, poison)) {
      assertThatThrownBy(() -> failed.get(5, TimeUnit.SECONDS))
          .hasCauseInstanceOf(GroupCommit.GroupCommitFailure.class)
          .hasRootCauseInstanceOf(java.sql.SQLException.class);
    }
    assertThat(batches.get(1)).containsExactlyInAnyOrder("innocent", "poison");
    assertThat(group.submit("after")).isTrue();
  }

  @Test
  void aBatchNeverExceedsItsLimit() throws Exception {
    CountDownLatch firstBatchWriting = new CountDownLatch(1);
    CountDownLatch releaseFirstBatch = new CountDownLatch(1);
    List<Integer> sizes = new CopyOnWriteArrayList<>();
    GroupCommit<Integer, Integer> group =
        new GroupCommit<>(
            batch -> {
              sizes.add(batch.size());
              if (sizes.size() == 1) {
                firstBatchWriting.countDown();
                releaseFirstBatch.await();
              }
              return batch;
            },
            3);

    Future<Integer> first = callers.submit(() -> group.submit(0));
    assertThat(firstBatchWriting.await(5, TimeUnit.SECONDS)).isTrue();
    List<Future<Integer>> others = new ArrayList<>();
    for (int i = 1; i <= 7; i++) {
      int item = i;
      others.add(callers.submit(() -> group.submit(item)));
    }
    awaitQueued(group, 7);
    releaseFirstBatch.countDown();
    first.get(5, TimeUnit.SECONDS);
    for (Future<Integer> other : others) {
      other.get(5, TimeUnit.SECONDS);
    }
    assertThat(sizes).allMatch(size -> size <= 3);
    assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(8);
  }

  @Test
  void itemsSubmittedTogetherShareBatchesInOrderAndReturnOnceAllCommitted() {
    List<List<Integer>> batches = new CopyOnWriteArrayList<>();
    GroupCommit<Integer, Integer> group =
        new GroupCommit<>(
            batch -> {
              batches.add(List.copyOf(batch));
              return batch.stream().map(i -> -i).toList();
            },
            3);

    List<Integer> results = group.submitAll(List.of(1, 2, 3, 4, 5, 6, 7));

    assertThat(results).containsExactly(-1, -2, -3, -4, -5, -6, -7);
    assertThat(batches).containsExactly(List.of(1, 2, 3), List.of(4, 5, 6), List.of(7));
    assertThat(group.batches()).isEqualTo(3);
  }

  @Test
  void aFailedBatchInsideASubmitAllSaysHowManyOfTheItemsCommitted() {
    GroupCommit<Integer, Integer> group =
        new GroupCommit<>(
            batch -> {
              if (batch.contains(5)) {
                throw new java.sql.SQLException("disk full", "53100");
              }
              return batch;
            },
            3);

    assertThatThrownBy(() -> group.submitAll(List.of(1, 2, 3, 4, 5, 6, 7)))
        .isInstanceOfSatisfying(
            GroupCommit.GroupCommitFailure.class,
            failure -> {
              // Batches [1,2,3] and [7] committed; [4,5,6] failed as a whole.
              assertThat(failure.committed()).isEqualTo(4);
              assertThat(failure.submitted()).isEqualTo(7);
            })
        .hasRootCauseInstanceOf(java.sql.SQLException.class);
  }

  private static void awaitQueued(GroupCommit<?, ?> group, int items) {
    io.mailbox.connector.testsupport.Eventually.await(
        items + " items are queued",
        java.time.Duration.ofSeconds(5),
        () -> group.queued() >= items);
  }
}
