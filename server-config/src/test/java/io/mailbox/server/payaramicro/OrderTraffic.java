package io.mailbox.server.payaramicro;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The example's customers: clients that place orders ({@code POST /orders-app/api/orders}) until
 * stopped, remembering every order answered 2xx with {@code "committed":true} and every other
 * answer by status. Each order carries its own {@code Idempotency-Key}, and a client sends the same
 * order again, with the same key, until it is answered 2xx — after a 503, a 500, no answer — as a
 * careful client would: the example must never place it twice. A 503 with Retry-After is obeyed
 * (capped at 5 s); a 503 without it is recorded as -503, no answer at all as 0, a 2xx naming
 * another order than the key as -2.
 */
final class OrderTraffic implements AutoCloseable {
  private static final Pattern ORDER_ID = Pattern.compile("\"orderId\":\"([^\"]+)\"");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** A 2xx that named another order than the one its key asked for. */
  static final int WRONG_ORDER = -2;

  private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
  private final List<Integer> refusals = new ArrayList<>();
  private final AtomicInteger replayed = new AtomicInteger();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final ExecutorService clients;

  private final int notes;

  /**
   * Starts {@code count} clients. Each sends its requests to the servers in {@code bases} in turn,
   * as a load balancer would: a server that went away costs its share of requests (recorded as no
   * answer) and the others take the rest.
   */
  OrderTraffic(int count, List<String> bases) {
    this(count, bases, 0);
  }

  /** As above, each order with {@code notes} {@code orders.noted.v1} events behind its own. */
  OrderTraffic(int count, List<String> bases, int notes) {
    this.notes = notes;
    clients = Executors.newFixedThreadPool(count);
    for (int i = 0; i < count; i++) {
      int first = i;
      clients.execute(() -> placeOrdersUntilStopped(bases, first));
    }
  }

  /**
   * Places orders from {@code clients} clients on {@code base} until {@code orders} are
   * acknowledged or {@code within} has passed, then stops them; the caller checks the count.
   */
  static OrderTraffic until(int orders, int clients, String base, Duration within)
      throws InterruptedException {
    OrderTraffic traffic = new OrderTraffic(clients, List.of(base));
    try {
      java.time.Instant deadline = java.time.Instant.now().plus(within);
      while (traffic.acknowledged().size() < orders && java.time.Instant.now().isBefore(deadline)) {
        Thread.sleep(200);
      }
    } finally {
      traffic.close();
    }
    return traffic;
  }

  /** Orders answered 2xx with committed:true so far. */
  Set<String> acknowledged() {
    return acknowledged;
  }

  /** Retries answered with an order that had committed already ({@code "replayed":true}). */
  int replayed() {
    return replayed.get();
  }

  /** Every other answer so far: status → count (0 = no answer, -503 = 503 without Retry-After). */
  TreeMap<Integer, Integer> refusalsByStatus() {
    synchronized (refusals) {
      var byStatus = new TreeMap<Integer, Integer>();
      refusals.forEach(status -> byStatus.merge(status, 1, Integer::sum));
      return byStatus;
    }
  }

  /** Stops the clients and waits for the requests in flight. */
  @Override
  public void close() throws InterruptedException {
    stop.set(true);
    clients.shutdown();
    if (!clients.awaitTermination(60, TimeUnit.SECONDS)) {
      throw new AssertionError("order clients did not stop within 60 s");
    }
  }

  private void placeOrdersUntilStopped(List<String> bases, int first) {
    String key = UUID.randomUUID().toString();
    for (int turn = first; !stop.get(); turn++) {
      String base = bases.get(turn % bases.size());
      try {
        HttpResponse<String> response =
            HTTP.send(
                HttpRequest.newBuilder(
                        URI.create(
                            base + "/orders-app/api/orders?item=t&quantity=1&notes=" + notes))
                    .header("Idempotency-Key", key)
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher id = ORDER_ID.matcher(response.body());
        if (response.statusCode() / 100 == 2
            && response.body().contains("\"committed\":true")
            && id.find()) {
          if (!id.group(1).equals(key)) {
            record(WRONG_ORDER);
            continue;
          }
          acknowledged.add(key);
          if (response.body().contains("\"replayed\":true")) {
            replayed.incrementAndGet();
          }
          key = UUID.randomUUID().toString(); // the next order
          continue;
        }
        var retryAfter = response.headers().firstValue("Retry-After");
        boolean unhelpful503 = response.statusCode() == 503 && retryAfter.isEmpty();
        record(unhelpful503 ? -503 : response.statusCode());
        retryAfter.ifPresent(
            seconds -> sleep(Math.min(5_000, 1_000L * Long.parseLong(seconds.strip()))));
      } catch (IOException | InterruptedException noAnswer) {
        record(0);
        sleep(50);
      }
    }
  }

  private void record(int status) {
    synchronized (refusals) {
      refusals.add(status);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
