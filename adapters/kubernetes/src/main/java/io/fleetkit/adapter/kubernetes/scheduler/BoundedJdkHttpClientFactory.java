package io.fleetkit.adapter.kubernetes.scheduler;

import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * fabric8's JDK HTTP client factory with a fixed number of executor threads for the JDK HTTP client (one per CPU, at
 * least two) instead of fabric8's unbounded cached thread pool. The JDK client hands every step of every exchange
 * (sending the headers, reading the answer, each WebSocket frame) to its executor. With one request in flight per
 * binding thread and per Event being posted, the cached pool grows to one thread per request (about 100 for the
 * scheduler's defaults), and each hand-off wakes one of them; a few threads that stay busy do the same work with
 * fewer wake-ups. The executor's tasks do not block (the JDK client's I/O is asynchronous), so a fixed pool cannot
 * stall it. Idle threads end after 30 seconds.
 *
 * <p>{@link KubernetesSchedulerMain} builds its client with it. An embedder does the same:
 *
 * <pre>{@code
 * KubernetesClient client = new KubernetesClientBuilder()
 *     .withHttpClientFactory(new BoundedJdkHttpClientFactory())
 *     .build();
 * }</pre>
 *
 * <p>Everything else (TLS, authentication, proxies, timeouts, fabric8's interceptors and retries) is fabric8's
 * {@link JdkHttpClientFactory}'s.
 */
public final class BoundedJdkHttpClientFactory extends JdkHttpClientFactory {
  /** How long an idle executor thread lives. */
  static final Duration KEEP_ALIVE = Duration.ofSeconds(30);
  private static final AtomicInteger CLIENTS = new AtomicInteger();

  private final int threads;

  /** One executor thread per CPU, at least two. */
  public BoundedJdkHttpClientFactory() {
    this(Math.max(2, Runtime.getRuntime().availableProcessors()));
  }

  /**
   * {@code threads} executor threads.
   *
   * @throws IllegalArgumentException if {@code threads} is less than 1
   */
  public BoundedJdkHttpClientFactory(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("bounded JDK HTTP client factory: threads " + threads
          + " must be at least 1");
    }
    this.threads = threads;
  }

  /** The executor threads of each client this factory builds. */
  public int threads() {
    return threads;
  }

  @Override
  protected java.net.http.HttpClient.Builder createNewHttpClientBuilder() {
    int client = CLIENTS.incrementAndGet();
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, KEEP_ALIVE.toMillis(),
        TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "fleetkit-k8s-http-" + client + "-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    executor.allowCoreThreadTimeOut(true);
    return java.net.http.HttpClient.newBuilder().executor(executor);
  }
}
