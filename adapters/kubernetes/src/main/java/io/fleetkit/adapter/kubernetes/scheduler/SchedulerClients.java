package io.fleetkit.adapter.kubernetes.scheduler;

import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fleetkit.adapter.kubernetes.scheduler.internal.WatchEventSerialization;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fabric8 client settings the scheduler runs on ({@link KubernetesSchedulerMain} builds its client with them): the
 * JDK HTTP client on a fixed executor ({@link BoundedJdkHttpClientFactory}) and fabric8's task executor (which runs
 * the informers' watch-event decoding and event handlers, and watch and informer bookkeeping) on a fixed pool of one
 * thread per CPU, at least two, instead of fabric8's unbounded cached pool. fabric8 runs each informer's and each
 * watch's tasks one after another ({@code SerialExecutor}), so a few threads keep the order of every stream; a thread
 * that finds the next task queued takes it without the hand-off and wake-up that every task of the cached pool costs.
 * Only for a client whose event handlers do not block for long (the scheduler's do not): a handler that blocks holds
 * one of the few threads. And fabric8's serialization with a one-pass read of watch events
 * ({@code WatchEventSerialization}: the same objects as fabric8's own read, without its second pass over a tree).
 *
 * <pre>{@code
 * try (KubernetesClient client = SchedulerClients.builder().build();
 *      KubernetesScheduler scheduler = KubernetesScheduler.builder(client).build()) {
 *   scheduler.start();
 *   ...
 * }
 * }</pre>
 */
public final class SchedulerClients {
  private static final AtomicInteger CLIENTS = new AtomicInteger();

  private SchedulerClients() {}

  /**
   * A client builder (configuration from the environment, as fabric8's default, unless set on it) with the scheduler's
   * HTTP client factory and task executor.
   */
  public static KubernetesClientBuilder builder() {
    return configure(new KubernetesClientBuilder());
  }

  /**
   * Sets the scheduler's HTTP client factory, task executor and serialization on {@code builder}; returns it. Each
   * client built gets its own task pool, shut down when the client is closed (as fabric8's default pool is). The
   * serialization is fabric8's default with a one-pass read of watch events (the informers' pod and node events),
   * which gives the same objects; a serialization set on the builder after this call replaces it.
   */
  public static KubernetesClientBuilder configure(KubernetesClientBuilder builder) {
    int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
    return builder.withHttpClientFactory(new BoundedJdkHttpClientFactory(threads))
        .withKubernetesSerialization(new WatchEventSerialization())
        .withTaskExecutorSupplier(new KubernetesClientBuilder.ExecutorSupplier() {
          @Override
          public Executor get() {
            return taskPool(threads);
          }

          @Override
          public void onClose(Executor executor) {
            ((ExecutorService) executor).shutdownNow();
          }
        });
  }

  private static ExecutorService taskPool(int threads) {
    int client = CLIENTS.incrementAndGet();
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor tasks = new ThreadPoolExecutor(threads, threads,
        BoundedJdkHttpClientFactory.KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "fleetkit-k8s-tasks-" + client + "-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    tasks.allowCoreThreadTimeOut(true);
    return tasks;
  }
}
