package io.fleetkit.adapter.kubernetes.scheduler;

import static io.fleetkit.adapter.kubernetes.scheduler.MockCluster.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fleetkit.adapter.kubernetes.scheduler.internal.SchedulingEvents;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pace of the scheduler's Event posting against an API server that answers every request after 50 ms: one
 * {@code Scheduled} Event per pod bound, as kube-scheduler posts them (client-go's event broadcaster posts each on a
 * goroutine of its own), none dropped while fewer than {@link SchedulingEvents#MAX_QUEUED} wait, at most
 * {@link SchedulingEvents#POSTERS} requests in flight, and the caller never waits for an answer. A fixed set of
 * posting threads, each waiting for its answer, would keep only that many requests in flight and fail here.
 */
final class SchedulingEventsPacingTest {
  private static final int LATENCY_MS = 50;

  /** Holds every answer until the test opens it. */
  private final CountDownLatch gate = new CountDownLatch(1);
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private final AtomicInteger received = new AtomicInteger();
  private final Set<String> regarding = ConcurrentHashMap.newKeySet();
  private final ExecutorService handlers = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "slow-api-server");
    t.setDaemon(true);
    return t;
  });
  private final HttpServer server;
  private final KubernetesClient client;

  SchedulingEventsPacingTest() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
    server.setExecutor(handlers);
    server.createContext("/", exchange -> {
      int now = inFlight.incrementAndGet();
      maxInFlight.accumulateAndGet(now, Math::max);
      try {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        if (!gate.await(30, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the test never opened the gate");
        }
        Thread.sleep(LATENCY_MS);
        int at = body.indexOf("\"name\":\"p-", body.indexOf("\"regarding\""));
        regarding.add(body.substring(at, body.indexOf('"', at + 8)));
        received.incrementAndGet();
        byte[] answer = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(201, answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(answer);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        inFlight.decrementAndGet();
        exchange.close();
      }
    });
    server.start();
    client = SchedulerClients.configure(new KubernetesClientBuilder().withConfig(new ConfigBuilder()
        .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort()).withOauthToken("test")
        .withRequestRetryBackoffLimit(0).build())).build();
  }

  @AfterEach
  void tearDown() {
    client.close();
    server.stop(0);
    handlers.shutdownNow();
  }

  @Test
  void scheduled_burstBeyondThePostersAtLatency_everyEventPostedWithoutBlockingTheCaller() {
    int pods = SchedulingEvents.POSTERS * 6; // six rounds of answers: within the queue, beyond the posters
    try (SchedulingEvents events = new SchedulingEvents(client, "fleetkit", "test", Clock.systemUTC())) {
      // No answer comes until the gate opens: a caller that waited for one would never get past this loop.
      for (int i = 0; i < pods; i++) {
        events.scheduled("default", "p-" + i, "uid-" + i, "n1");
      }
      await("the posters' requests at the API server", () -> inFlight.get() == SchedulingEvents.POSTERS);
      assertThat(received.get()).isZero();
      gate.countDown();
      await("every Scheduled event at the API server", () -> received.get() == pods);
      assertThat(events.dropped()).isZero();
    }
    assertThat(regarding).hasSize(pods);
    assertThat(maxInFlight.get()).as("requests in flight at once").isEqualTo(SchedulingEvents.POSTERS);
  }
}
