package io.fleetkit.adapter.kubernetes.scheduler;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's HTTP endpoints, as kube-scheduler serves them: {@code /metrics} (the Prometheus text format),
 * {@code /healthz} (liveness) and {@code /readyz} (readiness: informers synced). Each answers {@code 200 ok} or
 * {@code 503} with the failed check's name; other paths answer 404. Standing warnings about the configuration (an
 * API server whose certificate is not verified) follow {@code /readyz}'s first line, one {@code warning: } line
 * each, without changing its status: a probe still passes, a person or a check reading the body sees them. Runs on the JDK's HTTP server with one daemon
 * thread. Thread-safe; close it to stop.
 */
public final class MetricsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MetricsServer.class);
  /** The Prometheus text format's content type. */
  public static final String CONTENT_TYPE_004 = "text/plain; version=0.0.4; charset=utf-8";
  /** kube-scheduler's old insecure serving port, the default here (FleetKit serves plain HTTP). */
  public static final int DEFAULT_PORT = 10251;

  private final HttpServer server;
  private final ExecutorService executor;

  private MetricsServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Starts serving on {@code address} (port 0: any free port).
   *
   * @param scrape the metrics in the Prometheus text format
   * @param healthy what {@code /healthz} reports
   * @param ready what {@code /readyz} reports
   * @throws UncheckedIOException if the address cannot be bound
   */
  public static MetricsServer start(InetSocketAddress address, Supplier<String> scrape, BooleanSupplier healthy,
      BooleanSupplier ready) {
    return start(address, scrape, healthy, ready, List.of());
  }

  /**
   * As {@link #start(InetSocketAddress, Supplier, BooleanSupplier, BooleanSupplier)}, with warnings that
   * {@code /readyz} lists after its status line ({@code warning: <text>} each).
   */
  public static MetricsServer start(InetSocketAddress address, Supplier<String> scrape, BooleanSupplier healthy,
      BooleanSupplier ready, List<String> readyzWarnings) {
    List<String> warnings = List.copyOf(readyzWarnings);
    Objects.requireNonNull(scrape, "scrape");
    Objects.requireNonNull(healthy, "healthy");
    Objects.requireNonNull(ready, "ready");
    HttpServer s;
    try {
      s = HttpServer.create(Objects.requireNonNull(address, "address"), 16);
    } catch (IOException e) {
      throw new UncheckedIOException("metrics server: cannot listen on " + address + ": " + e.getMessage(), e);
    }
    ExecutorService ex = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "fleetkit-metrics-http");
      t.setDaemon(true);
      return t;
    });
    s.setExecutor(ex);
    s.createContext("/", exchange -> {
      try (exchange) {
        String path = exchange.getRequestURI().getPath();
        switch (path) {
          case "/metrics" -> send(exchange, 200, CONTENT_TYPE_004, scrape.get());
          case "/healthz", "/livez" -> check(exchange, "healthz", healthy, List.of());
          case "/readyz" -> check(exchange, "readyz", ready, warnings);
          default -> send(exchange, 404, "text/plain; charset=utf-8", "404 page not found\n");
        }
      } catch (RuntimeException e) {
        LOG.debug("metrics server: {} failed: {}", exchange.getRequestURI(), e.toString());
      }
    });
    s.start();
    LOG.info("serving /metrics, /healthz and /readyz on {}", s.getAddress());
    return new MetricsServer(s, ex);
  }

  private static void check(HttpExchange exchange, String name, BooleanSupplier ok, List<String> warnings)
      throws IOException {
    boolean passed = ok.getAsBoolean(); // asked once: the status and the body tell the same answer
    StringBuilder body = new StringBuilder(passed ? "ok" : name + " check failed");
    for (String w : warnings) {
      body.append("\nwarning: ").append(w);
    }
    send(exchange, passed ? 200 : 503, "text/plain; charset=utf-8", body.toString());
  }

  private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    boolean head = "HEAD".equals(exchange.getRequestMethod());
    exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  /** The bound port. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Stops serving. Idempotent. */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
