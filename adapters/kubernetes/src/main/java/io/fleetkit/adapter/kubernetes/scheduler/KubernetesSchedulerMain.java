package io.fleetkit.adapter.kubernetes.scheduler;

import io.fleetkit.api.text.GoIntegers;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The container entry point of {@code deploy/kubernetes/scheduler.yaml}: runs a {@link KubernetesScheduler} with the
 * in-cluster configuration (or {@code $KUBECONFIG} / {@code ~/.kube/config} outside a cluster) until the JVM is
 * stopped. Environment:
 *
 * <ul>
 *   <li>{@code FLEETKIT_SCHEDULER_NAME}: the {@code schedulerName} pods opt in with; {@code fleetkit} by default;
 *   <li>{@code FLEETKIT_LEADER_ELECT}: {@code false} to run without leader election (a single replica only);
 *   <li>{@code POD_NAME}, {@code POD_NAMESPACE}: this replica's identity and the Lease's namespace (downward API);
 *   <li>{@code FLEETKIT_LEASE_NAME}: the Lease's name; {@value LeaderElection#DEFAULT_LEASE_NAME} by default;
 *   <li>{@code FLEETKIT_METRICS_PORT}: the port of {@code /metrics}, {@code /healthz} and {@code /readyz};
 *       {@value MetricsServer#DEFAULT_PORT} by default, {@code 0} for none.
 * </ul>
 *
 * <p>On fewer than three CPUs it sets the system property {@value #COMMON_POOL_PARALLELISM} to 2 unless it is set
 * ({@link #ensureAsyncPool()}). Its client has the scheduler's thread settings ({@link SchedulerClients}).
 */
public final class KubernetesSchedulerMain {
  /** The system property of the JDK's common fork-join pool size. */
  public static final String COMMON_POOL_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";
  private static final Logger LOG = LoggerFactory.getLogger(KubernetesSchedulerMain.class);

  private KubernetesSchedulerMain() {}

  /**
   * One WARN line at start for each weakness of the client configuration ({@link TransportSecurity#weaknesses}),
   * and the same lines for {@code /readyz}.
   */
  static List<String> transportWarnings(io.fabric8.kubernetes.client.Config config) {
    List<String> lines = TransportSecurity.weaknesses(config).stream()
        .map(w -> "insecure Kubernetes client configuration: " + w).toList();
    for (String line : lines) {
      LOG.warn("{}", line);
    }
    return lines;
  }

  public static void main(String[] args) throws InterruptedException {
    ensureAsyncPool();
    Map<String, String> env = System.getenv();
    KubernetesClient client = SchedulerClients.builder().build();
    List<String> readyzWarnings = transportWarnings(client.getConfiguration());
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    KubernetesScheduler scheduler = builder(client, env).metrics(MicrometerMetrics.of(prometheus)).build();
    int port = metricsPort(env);
    MetricsServer server = port == 0 ? null : MetricsServer.start(new InetSocketAddress(port), prometheus::scrape,
        () -> true, scheduler::isReady, readyzWarnings);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      LOG.info("shutting down");
      if (server != null) {
        server.close();
      }
      scheduler.close();
      client.close();
      stopped.countDown();
    }, "fleetkit-shutdown"));
    scheduler.start();
    stopped.await();
  }

  /**
   * Gives the JDK's common fork-join pool at least two threads unless {@value #COMMON_POOL_PARALLELISM} is set. With
   * fewer than three CPUs the pool has one thread, and {@code CompletableFuture}'s default executor is then a new
   * thread per task; the JDK HTTP client (which the Kubernetes client uses) completes every {@code sendAsync} on that
   * executor, so each binding and each Event would start and end a thread. Must run before anything uses the common
   * pool (the first statement of {@link #main}); afterwards the property is read no more.
   */
  static void ensureAsyncPool() {
    if (System.getProperty(COMMON_POOL_PARALLELISM) == null && Runtime.getRuntime().availableProcessors() < 3) {
      System.setProperty(COMMON_POOL_PARALLELISM, "2");
    }
  }

  /** The scheduler {@link #main} runs, configured from {@code env}. */
  static KubernetesScheduler.Builder builder(KubernetesClient client, Map<String, String> env) {
    KubernetesScheduler.Builder b = KubernetesScheduler.builder(client)
        .schedulerName(orDefault(env.get("FLEETKIT_SCHEDULER_NAME"), KubernetesScheduler.DEFAULT_SCHEDULER_NAME));
    String identity = orDefault(env.get("POD_NAME"), orDefault(env.get("HOSTNAME"), "fleetkit-scheduler"));
    if (!"false".equalsIgnoreCase(env.get("FLEETKIT_LEADER_ELECT"))) {
      String namespace = orDefault(env.get("POD_NAMESPACE"), "fleetkit-system");
      LeaderElection le = LeaderElection.of(namespace, identity);
      String lease = env.get("FLEETKIT_LEASE_NAME");
      if (lease != null && !lease.isEmpty()) {
        le = new LeaderElection(namespace, lease, identity, le.leaseDuration(), le.renewDeadline(), le.retryPeriod());
      }
      b.leaderElection(le);
    } else {
      b.identity(identity);
    }
    return b;
  }

  /**
   * {@code FLEETKIT_METRICS_PORT}, or the default.
   *
   * @throws IllegalArgumentException naming the variable when it is not a port number
   */
  static int metricsPort(Map<String, String> env) {
    String v = env.get("FLEETKIT_METRICS_PORT");
    if (v == null || v.isEmpty()) {
      return MetricsServer.DEFAULT_PORT;
    }
    try {
      int p = GoIntegers.parseInt32(v.trim()); // ASCII digits only
      if (p < 0 || p > 65535) {
        throw new NumberFormatException();
      }
      return p;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("FLEETKIT_METRICS_PORT \"" + v + "\" must be a port number 0..65535");
    }
  }

  private static String orDefault(@Nullable String value, String fallback) {
    return value == null || value.isEmpty() ? fallback : value;
  }
}
