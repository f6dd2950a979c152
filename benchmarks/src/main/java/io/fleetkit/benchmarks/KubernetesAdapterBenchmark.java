package io.fleetkit.benchmarks;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fleetkit.adapter.kubernetes.scheduler.BoundedJdkHttpClientFactory;
import io.fleetkit.adapter.kubernetes.scheduler.KubernetesScheduler;
import io.fleetkit.adapter.kubernetes.scheduler.SchedulerClients;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.benchmarks.impl.StubApiServer;
import io.fleetkit.benchmarks.impl.ThreadCpu;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The Kubernetes adapter end to end: {@link KubernetesScheduler} with its informers, queue and {@code pods/binding}
 * requests over HTTP, against {@link StubApiServer} (a stand-in API server answering each request after
 * {@code latencyMs}). Each measured operation puts {@code adapterPods} pending pods into the server at once (a burst
 * of creations by other clients, which reach the scheduler through its pod informer's watch) and ends when the server
 * has bound every one of them; pods/s = {@code adapterPods} / score. Nodes: 100 of 32 CPU, pods of 100m, so every pod
 * fits. The pods are put in directly rather than created over HTTP so that the load generator does not take the
 * machine's CPU from the scheduler (on 2 cores it would: each creation costs JSON both ways); their JSON is written
 * before the measurement ({@link StubApiServer#stagePodsLike}, from one template pod's text rather than by building
 * and serialising every pod, whose code the JIT compiler would still be compiling during the measured bursts), so
 * that the measured burst is their watch events alone.
 *
 * <p>The server, its client and the scheduler live for the whole fork, as a scheduler does in a cluster: between
 * iterations the server deletes the bound pods (delete events through the watch, outside the measurement) and the
 * next iteration starts once the scheduler's cache is empty again. {@code freshEachIteration=true} builds all three
 * anew for every iteration instead (the set-up before 2026-12-02): each new client brings a new Jackson mapper whose
 * bean (de)serializers hold new {@code MethodHandle}s, which the JVM customises and the JIT compiles again, so that
 * the JIT compiler never settles (3-4 s of compiler CPU per 4,000 pods).
 *
 * <p>The fork runs with the JDK's common fork-join pool at two threads, as {@code KubernetesSchedulerMain} starts the
 * scheduler on fewer than three CPUs: with one, the JDK HTTP client completes every response on a new thread. The
 * stand-in's sockets have {@code TCP_NODELAY}, as a real API server's have: with Nagle's algorithm on (the JDK HTTP
 * server's default, used before) every answer waited about 40 ms for the client's delayed ACK, which capped the
 * adapter near 700 pods/s whatever the latency (see {@link StubApiServer}). The client watches over WebSocket,
 * fabric8's default.
 *
 * <p>Printed after every iteration: the process's CPU time per pod during the operation, split into the stand-in
 * server's share (the CPU of its threads, read per native thread: request parsing and handling, watch streaming; and
 * the burst of creations put into it; all of which a real API server would spend on another machine) and the rest
 * (the scheduler side: informers, queue, engine, binding, events, the HTTP client, JIT, GC), and the CPU per native
 * thread ({@link ThreadCpu}). "handlers alone" is the server's own count (handling and answering requests, streaming
 * watch events; not reading the requests), plus the burst of creations. Then the requests the server answered during
 * the operation (bindings and Events; a watch's opening request too).
 *
 * <p>Checked after every iteration (the run fails otherwise): the server bound every pod (none lost), refused no
 * binding as already bound (none bound twice), and received one {@code Scheduled} Event per pod, the adapter having
 * dropped none (the Events still in flight when the last binding lands are waited for outside the measurement).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// Twenty warm-ups, as SchedulingThroughputBenchmark: after five, the JIT still compiled fabric8's, Jackson's and the
// HTTP client's code during every measured iteration (about 150 methods and 0.5-1.5 s of compiler CPU per 4,000 pods),
// and the CPU per pod kept falling until about the twentieth iteration (docs/benchmarks.md, session 18).
@Warmup(iterations = 20)
@Measurement(iterations = 4)
// The common pool's size as KubernetesSchedulerMain sets it on fewer than three CPUs (see KubernetesScheduler).
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-Djava.util.concurrent.ForkJoinPool.common.parallelism=2"})
public class KubernetesAdapterBenchmark {
  public static final int NODES = 100;
  private static final String NS = "default";
  /** Every pod of a burst: pending for this scheduler, one container requesting 100m CPU and 64Mi. */
  private static final Pod POD = new PodBuilder()
      .withNewMetadata().withName("template").withNamespace(NS).endMetadata()
      .withNewSpec().withSchedulerName(KubernetesScheduler.DEFAULT_SCHEDULER_NAME)
      .addNewContainer().withName("main").withImage("pause")
      .withNewResources().addToRequests("cpu", new Quantity("100m"))
      .addToRequests("memory", new Quantity("64Mi")).endResources()
      .endContainer().endSpec().build();

  /** The API server's latency per request, ms. */
  @Param({"0", "1", "5", "20"})
  public int latencyMs;

  /** Pods created and bound per operation. */
  @Param({"4000"})
  public int adapterPods;

  /** The adapter's binding threads ({@code KubernetesScheduler.Builder.bindParallelism}). */
  @Param({"32"})
  public int bindParallelism;

  /**
   * Whether the client watches over chunked HTTP ({@code onlyHttpWatches}) rather than WebSocket, fabric8's default.
   */
  @Param({"false"})
  public boolean httpWatches;

  /**
   * The client's thread settings: {@code scheduler} is {@link SchedulerClients} (what {@code KubernetesSchedulerMain}
   * builds its client with: the JDK HTTP client and fabric8's task executor on one thread per CPU each),
   * {@code http-only} the JDK HTTP client's alone ({@link BoundedJdkHttpClientFactory}), {@code fabric8} fabric8's
   * defaults (unbounded cached thread pools for both).
   */
  @Param({"scheduler"})
  public String httpClient;

  /** Whether the server, client and scheduler are built anew for every iteration rather than once per fork. */
  @Param({"false"})
  public boolean freshEachIteration;

  private StubApiServer server;
  private KubernetesScheduler scheduler;
  private static int iteration;
  private ThreadCpu threadsStart;
  private ThreadCpu threadsEnd;
  private long cpuStart;
  private long cpuEnd;
  private long serverCpuStart;
  private long serverCpuEnd;
  private long loadCpuStart;
  private long loadCpuEnd;
  private int boundBefore;
  private int twiceBefore;
  private long eventsBefore;
  private long droppedBefore;
  private long requestsStart;
  private long requestsEnd;

  @Setup(Level.Trial)
  public void startCluster() {
    if (!freshEachIteration) {
      start();
    }
  }

  @TearDown(Level.Trial)
  public void stopCluster() {
    if (!freshEachIteration) {
      stop();
    }
  }

  private void start() {
    server = switch (httpClient) {
      case "scheduler" -> new StubApiServer(SchedulerClients::configure);
      case "http-only" -> new StubApiServer(b -> b.withHttpClientFactory(new BoundedJdkHttpClientFactory()));
      case "fabric8" -> new StubApiServer();
      default -> throw new IllegalArgumentException("httpClient \"" + httpClient
          + "\" is not scheduler, http-only or fabric8");
    };
    for (int i = 0; i < NODES; i++) {
      String name = "node-" + i;
      Map<String, Quantity> cap = Map.of("cpu", new Quantity("32"), "memory", new Quantity("256Gi"),
          "pods", new Quantity("110"));
      server.addNode(new NodeBuilder()
          .withNewMetadata().withName(name).addToLabels("kubernetes.io/hostname", name).endMetadata()
          .withNewStatus().withCapacity(cap).withAllocatable(cap).endStatus().build());
    }
    server.latency(Duration.ofMillis(latencyMs));
    server.client().getConfiguration().setOnlyHttpWatches(httpWatches);
    scheduler = KubernetesScheduler.builder(server.client())
        .bindParallelism(bindParallelism)
        .loopPeriod(Duration.ofMillis(10))
        .syncTimeout(Duration.ofSeconds(60))
        .build()
        .start();
  }

  private void stop() {
    scheduler.close();
    server.close();
  }

  @Setup(Level.Iteration)
  public void setUp() {
    if (freshEachIteration) {
      start();
    }
    int it = iteration++;
    List<String> names = new ArrayList<>(adapterPods);
    for (int i = 0; i < adapterPods; i++) {
      names.add("p-" + it + "-" + i);
    }
    server.stagePodsLike(POD, NS, names);
    boundBefore = server.bound();
    twiceBefore = server.secondBindings();
    eventsBefore = server.eventsCreated();
    droppedBefore = scheduler.droppedEvents();
  }

  @Benchmark
  public int createAndBind() throws InterruptedException {
    threadsStart = ThreadCpu.snapshot();
    cpuStart = processCpuNanos();
    serverCpuStart = server.cpuNanos();
    loadCpuStart = server.loadCpuNanos();
    requestsStart = server.requests();
    server.addStaged();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
    while (server.bound() - boundBefore < adapterPods) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("only " + (server.bound() - boundBefore) + " of " + adapterPods
            + " pods bound after 300 s");
      }
      Thread.sleep(1);
    }
    cpuEnd = processCpuNanos();
    threadsEnd = ThreadCpu.snapshot();
    serverCpuEnd = server.cpuNanos();
    loadCpuEnd = server.loadCpuNanos();
    requestsEnd = server.requests();
    return server.bound() - boundBefore;
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  @TearDown(Level.Iteration)
  public void tearDown() throws InterruptedException {
    Thread.sleep(50); // let any stray second binding arrive before checking
    if (iteration == 1) {
      System.out.printf("%nwatches over WebSocket: %d%n", server.webSocketWatches());
    }
    long process = cpuEnd - cpuStart;
    Map<String, Long> byThread = threadsEnd.msSince(threadsStart);
    // The split a reader needs: the stand-in server runs in this JVM, a real API server would not. Its share is the
    // CPU of its threads (request parsing, handling, watch streaming; read per native thread, so the JDK HTTP
    // server's own work counts too) and of the burst of creations put into it.
    long serverThreads = 0;
    for (String name : StubApiServer.THREAD_NAMES) {
      serverThreads += byThread.getOrDefault(name, 0L) * 1_000_000L;
    }
    long stub = serverThreads + (loadCpuEnd - loadCpuStart);
    System.out.printf("%ncpu per pod: process %.0f us, stand-in server %.0f us (handlers alone %.0f us),"
        + " scheduler side %.0f us%n", process / 1e3 / adapterPods, stub / 1e3 / adapterPods,
        (serverCpuEnd - serverCpuStart) / 1e3 / adapterPods, (process - stub) / 1e3 / adapterPods);
    System.out.println("cpu ms by thread: " + byThread);
    // A binding and a Scheduled Event per pod: about twice adapterPods when every Event is posted (the Events still
    // in flight or waiting when the last binding lands are posted after the operation and not counted here).
    System.out.println("requests answered during the operation: " + (requestsEnd - requestsStart));
    int bound = server.bound() - boundBefore;
    int twice = server.secondBindings() - twiceBefore;
    long events = awaitScheduledEvents();
    long dropped = scheduler.droppedEvents() - droppedBefore;
    System.out.println("Scheduled Events created: " + events + ", dropped by the adapter: " + dropped);
    if (freshEachIteration) {
      stop();
    } else {
      emptyCluster();
    }
    if (bound != adapterPods) {
      throw new IllegalStateException("pods lost: " + bound + " of " + adapterPods + " bound");
    }
    if (twice != 0) {
      throw new IllegalStateException(twice + " binding requests for pods already bound");
    }
    if (dropped != 0 || events != adapterPods) {
      throw new IllegalStateException("Scheduled Events: " + events + " created for " + adapterPods
          + " pods bound, " + dropped + " dropped by the adapter");
    }
  }

  /**
   * The Events the server received for this iteration's pods: those still in flight or queued when the last binding
   * landed arrive after the measurement, so this waits (up to 30 s) for one per pod, and no more than that arrives
   * in 50 ms more.
   */
  private long awaitScheduledEvents() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (server.eventsCreated() - eventsBefore < adapterPods && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    Thread.sleep(50);
    return server.eventsCreated() - eventsBefore;
  }

  /** Deletes the iteration's pods in the server and waits until the scheduler's cache holds none. */
  private void emptyCluster() throws InterruptedException {
    server.deletePods();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (podsInCache() > 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(podsInCache() + " pods still in the scheduler's cache 120 s after their"
            + " deletion");
      }
      Thread.sleep(10);
    }
  }

  private int podsInCache() {
    int n = 0;
    for (int i = 0; i < NODES; i++) {
      n += scheduler.scheduler().nodeInfo("node-" + i).map(NodeInfo::podCount).orElse(0);
    }
    return n;
  }
}
