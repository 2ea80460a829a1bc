package io.mailbox.benchmarks;

import io.mailbox.connector.api.Delivery;
import io.mailbox.connector.api.FetchOptions;
import io.mailbox.connector.api.MailAddress;
import io.mailbox.connector.api.MailMessage;
import io.mailbox.connector.kernel.MailboxProvider;
import io.mailbox.connector.kernel.MailboxSubscriber;
import io.mailbox.connector.provider.mem.MemoryProvider;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One message through the {@code mem:} kernel per operation, against the cheapest in-process hand
 * over there is ({@link ArrayBlockingQueue} offer then poll) as the baseline.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class KernelBenchmark {
  private static final MailAddress QUEUE = MailAddress.parse("mem:bench@kernel/queue");
  private static final MailAddress TOPIC = MailAddress.parse("mem:bench@kernel/topic");

  private final ArrayBlockingQueue<MailMessage> baseline = new ArrayBlockingQueue<>(1024);
  private final MailMessage message =
      MailMessage.to(QUEUE).id("order-1").body("{\"order\":1}").header("type", "placed").build();
  private final MailMessage broadcast =
      MailMessage.to(TOPIC).id("order-1").body("{\"order\":1}").header("type", "placed").build();
  private MailboxProvider provider;
  private long received;

  @Setup(Level.Trial)
  public void start() {
    provider = MailboxProvider.of(MemoryProvider.isolated());
    provider.start();
    CompletionStage<Void> done = CompletableFuture.completedFuture(null);
    MailboxSubscriber counting =
        copy -> {
          received++;
          return done;
        };
    provider.subscribe(TOPIC, counting);
  }

  @TearDown(Level.Trial)
  public void stop() {
    provider.stop(true);
  }

  /** The baseline: hand one object over through a bounded queue and take it back. */
  @Benchmark
  public MailMessage arrayBlockingQueueOfferPoll() {
    baseline.offer(message);
    return baseline.poll();
  }

  /** post, then a manual-ack fetch under the default lease, then ack. */
  @Benchmark
  public boolean postFetchAck() {
    provider.post(message);
    Delivery delivery = provider.fetch(QUEUE, FetchOptions.leased()).get(0);
    return delivery.ack();
  }

  /** post, then an auto-acknowledged fetch. */
  @Benchmark
  public void postFetchAutoAck(Blackhole sink) {
    provider.post(message);
    sink.consume(provider.fetch(QUEUE, FetchOptions.autoAck()));
  }

  /** post to an address with one subscriber: delivery and settlement of the broadcast. */
  @Benchmark
  public long postToSubscriber() {
    provider.post(broadcast);
    return received;
  }
}
