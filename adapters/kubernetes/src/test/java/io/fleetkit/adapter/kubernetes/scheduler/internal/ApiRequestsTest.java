package io.fleetkit.adapter.kubernetes.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ApiRequests#sendAsync}: the one retry path of the scheduler's writes (bindings wait for it through
 * {@link ApiRequests#send}, Events do not), against a server that answers 503 a given number of times, then 201.
 */
final class ApiRequestsTest {
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private final AtomicInteger requests = new AtomicInteger();
  private final HttpServer server;
  private final KubernetesClient client;

  ApiRequestsTest() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    server.createContext("/", exchange -> {
      requests.incrementAndGet();
      exchange.getRequestBody().readAllBytes();
      boolean fail = failuresLeft.getAndDecrement() > 0;
      byte[] body = (fail ? "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":503,"
          + "\"message\":\"try again\"}" : "{}").getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(fail ? 503 : 201, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
        .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort()).withOauthToken("test")
        .withRequestRetryBackoffLimit(0).build()).build();
  }

  @AfterEach
  void tearDown() {
    client.close();
    server.stop(0);
  }

  private ApiRequests api(int attempts) {
    return new ApiRequests(client, () -> true, attempts, Duration.ofMillis(20), Duration.ofMillis(40),
        Duration.ofSeconds(5));
  }

  @Test
  void sendAsync_twoTransientFailures_retriedThenOk() throws Exception {
    failuresLeft.set(2);
    ApiRequests.Outcome out = api(3).sendAsync("posting", "/api/v1/namespaces/default/things",
        b -> b.post("application/json", "{}")).get(10, TimeUnit.SECONDS);
    assertThat(out.kind()).isEqualTo(ApiRequests.Kind.OK);
    assertThat(out.code()).isEqualTo(201);
    assertThat(requests.get()).isEqualTo(3);
  }

  @Test
  void sendAsync_failuresBeyondTheAttempts_givesUpWithTheServersMessage() throws Exception {
    failuresLeft.set(5);
    ApiRequests.Outcome out = api(2).sendAsync("posting", "/api/v1/namespaces/default/things",
        b -> b.post("application/json", "{}")).get(10, TimeUnit.SECONDS);
    assertThat(out.kind()).isEqualTo(ApiRequests.Kind.GAVE_UP);
    assertThat(out.detail()).isEqualTo("HTTP 503: try again");
    assertThat(requests.get()).isEqualTo(2);
  }

  @Test
  void sendAsync_completedByTheCallerDuringTheBackoff_startsNoFurtherAttempt() throws Exception {
    failuresLeft.set(5);
    ApiRequests slow = new ApiRequests(client, () -> true, 5, Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofSeconds(5));
    CompletableFuture<ApiRequests.Outcome> f = slow.sendAsync("posting", "/api/v1/namespaces/default/things",
        b -> b.post("application/json", "{}"));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (requests.get() < 1 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    f.complete(new ApiRequests.Outcome(ApiRequests.Kind.INTERRUPTED, -1, "interrupted"));
    Thread.sleep(1200); // past the first backoff
    assertThat(requests.get()).isEqualTo(1);
  }

  @Test
  void send_notLeading_sendsNothing() {
    ApiRequests follower = new ApiRequests(client, () -> false, 3, Duration.ofMillis(20), Duration.ofMillis(40),
        Duration.ofSeconds(5));
    ApiRequests.Outcome out = follower.send("posting", "/api/v1/namespaces/default/things",
        b -> b.post("application/json", "{}"));
    assertThat(out.kind()).isEqualTo(ApiRequests.Kind.NOT_LEADER);
    assertThat(requests.get()).isZero();
  }
}
