package io.fleetkit.benchmarks;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeSpec;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.networking.endpointslice.EndpointSliceController;
import io.fleetkit.networking.endpointslice.EndpointSliceReconciler;
import io.fleetkit.networking.endpointslice.SlicePlan;
import io.fleetkit.networking.endpointslice.SliceRules;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * One EndpointSlice sync of a Service with {@code pods} pods after one pod changes.
 *
 * <ul>
 *   <li>{@code syncAfterOnePodChange}: the planner ({@link EndpointSliceReconciler#plan}) gets the Service, every
 *       pod, the nodes and the current slices, and returns the writes. Before each invocation (not measured) one
 *       pod's readiness flips and the previous plan is applied to the slice set, so every invocation sees a real
 *       one-pod change.
 *   <li>{@code controllerSyncAfterOnePodChange}: the whole controller on an in-memory store (stepping mode): before
 *       each invocation one pod's readiness is written to the store (its event reaches the controller, which notes
 *       the pod's name for the Service); measured is {@code runUntilIdle()}: the sync (looking the noted pod up in
 *       the informer cache, listing the Service's slices, planning, writing the slice; the event of the controller's
 *       own write syncs nothing more).
 * </ul>
 *
 * Auxiliary counters: {@code slicesWritten} (per sync of one change it should be 1), {@code syncs} and
 * {@code cpuNanos}, the benchmark thread's CPU time in the measured calls ({@code cpuNanos / syncs} is the CPU cost
 * of a sync, which on a shared, overloaded machine is far below the wall time JMH reports).
 * {@code controllerSyncRunQueueDelay} is {@code controllerSyncAfterOnePodChange} that also reads the thread's Linux
 * scheduler statistics ({@code /proc/thread-self/schedstat}) around the sync: {@code runQueueNanos / syncs} is the
 * time the thread was runnable but waiting for a CPU, the part of the wall time that is the machine's load, not the
 * sync's work (0 where the file does not exist; the two reads add to its wall time).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 3, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class EndpointSliceSyncBenchmark {
  private static final java.lang.management.ThreadMXBean CPU =
      java.lang.management.ManagementFactory.getThreadMXBean();
  @Param({"10000"})
  public int pods;

  private Service service;
  private final List<Pod> podList = new ArrayList<>();
  private final Map<String, Node> nodes = new LinkedHashMap<>();
  private final Map<String, EndpointSlice> slices = new LinkedHashMap<>();
  private EndpointSliceReconciler planner;
  private int next;

  /** Writes per sync. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Counters {
    public long slicesWritten;
    public long syncs;
    public long cpuNanos;
    public long runQueueNanos;

    @Setup(Level.Iteration)
    public void reset() {
      slicesWritten = 0;
      syncs = 0;
      cpuNanos = 0;
      runQueueNanos = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() {
    AtomicLong names = new AtomicLong();
    planner = new EndpointSliceReconciler(100, SliceRules.CONTROLLER_NAME, true,
        () -> Long.toString(names.incrementAndGet(), 36));
    service = Service.of(ObjectMeta.builder().namespace("bench").name("web").uid("svc-uid").build(),
        ServiceSpec.builder().selector("app", "web").clusterIP("10.96.0.10").ipFamilies(List.of(IPFamily.IPv4))
            .port(ServicePort.of("http", 80, 8080)).build());
    for (int n = 0; n < 100; n++) {
      String name = "node-" + n;
      nodes.put(name, new Node(ObjectMeta.builder().name(name).label(SliceRules.LABEL_ZONE, "zone-" + (n % 3))
          .build(), NodeSpec.EMPTY, NodeStatus.EMPTY));
    }
    PodSpec.Builder spec = PodSpec.builder().container("app", "nginx:1.27", ResourceList.EMPTY);
    for (int i = 0; i < pods; i++) {
      PodStatus st = PodStatus.of(PodPhase.Running).withCondition(PodCondition.of(PodCondition.READY,
          ConditionStatus.True, "", "", null)).withPodIPs(List.of("10." + (i >> 16) + "." + ((i >> 8) & 255) + "."
          + (i & 255)));
      podList.add(new Pod(ObjectMeta.builder().namespace("bench").name("web-" + i).uid("uid-" + i)
          .label("app", "web").build(), spec.nodeName("node-" + (i % 100)).build(), st));
    }
    apply(plan());
  }

  private SlicePlan plan() {
    return planner.plan(service, podList, nodes::get, List.copyOf(slices.values()), null);
  }

  private void apply(SlicePlan p) {
    p.creates().forEach(s -> slices.put(s.metadata().name(), s));
    p.updates().forEach(s -> slices.put(s.metadata().name(), s));
    p.deletes().forEach(s -> slices.remove(s.metadata().name()));
  }

  private SlicePlan last;

  @Setup(Level.Invocation)
  public void changeOnePod() {
    if (last != null) {
      apply(last);
    }
    int i = next++ % pods;
    Pod p = podList.get(i);
    boolean wasReady = p.isReady();
    podList.set(i, new Pod(p.metadata(), p.spec(), p.status().withCondition(PodCondition.of(PodCondition.READY,
        wasReady ? ConditionStatus.False : ConditionStatus.True, "", "", null))));
  }

  /** The controller on a store with the same Service, pods and nodes. */
  @State(Scope.Thread)
  public static class ControllerState {
    @Param({"10000"})
    public int pods;

    ObjectStore store;
    EndpointSliceController controller;
    int next;
    long sliceVersion;

    @Setup(Level.Trial)
    public void setUp() {
      EndpointSliceSyncBenchmark shape = new EndpointSliceSyncBenchmark();
      shape.pods = pods;
      shape.setUp();
      store = ObjectStore.builder().directDelivery().build();
      shape.nodes.values().forEach(store::create);
      store.create(shape.service);
      shape.podList.forEach(store::create);
      controller = EndpointSliceController.builder(store).stepping().build();
      controller.start().join();
      controller.runUntilIdle();
    }

    @Setup(Level.Invocation)
    public void changeOnePod() {
      Pod p = store.require(Pod.class, "bench", "web-" + (next++ % pods));
      boolean wasReady = p.isReady();
      store.updateStatus(new Pod(p.metadata(), p.spec(), p.status().withCondition(PodCondition.of(
          PodCondition.READY, wasReady ? ConditionStatus.False : ConditionStatus.True, "", "", null))));
      sliceVersion = Long.parseLong(store.resourceVersion());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      controller.close();
      store.close();
    }
  }

  @Benchmark
  public int controllerSyncAfterOnePodChange(ControllerState st, Counters c) {
    long cpu = CPU.getCurrentThreadCpuTime();
    int syncs = st.controller.runUntilIdle();
    c.cpuNanos += CPU.getCurrentThreadCpuTime() - cpu;
    // writes since the pod's: the slice updates (the store's resource version counts every write)
    c.slicesWritten += Long.parseLong(st.store.resourceVersion()) - st.sliceVersion;
    c.syncs++;
    return syncs;
  }

  private static final java.nio.file.Path SCHEDSTAT = java.nio.file.Path.of("/proc/thread-self/schedstat");

  /** Nanoseconds this thread has waited on a run queue so far (second field of schedstat), 0 when unknown. */
  private static long runQueueWait() {
    try {
      String[] f = java.nio.file.Files.readString(SCHEDSTAT).trim().split(" ");
      return Long.parseLong(f[1]);
    } catch (java.io.IOException | RuntimeException e) {
      return 0;
    }
  }

  @Benchmark
  public int controllerSyncRunQueueDelay(ControllerState st, Counters c) {
    long wait = runQueueWait();
    long cpu = CPU.getCurrentThreadCpuTime();
    int syncs = st.controller.runUntilIdle();
    c.cpuNanos += CPU.getCurrentThreadCpuTime() - cpu;
    c.runQueueNanos += runQueueWait() - wait;
    c.slicesWritten += Long.parseLong(st.store.resourceVersion()) - st.sliceVersion;
    c.syncs++;
    return syncs;
  }

  @Benchmark
  public SlicePlan syncAfterOnePodChange(Counters c) {
    long cpu = CPU.getCurrentThreadCpuTime();
    SlicePlan p = plan();
    c.cpuNanos += CPU.getCurrentThreadCpuTime() - cpu;
    last = p;
    c.slicesWritten += p.writes();
    c.syncs++;
    return p;
  }
}
