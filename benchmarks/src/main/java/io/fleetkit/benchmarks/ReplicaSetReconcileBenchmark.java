package io.fleetkit.benchmarks;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.controllers.ReplicaSetController;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
 * ReplicaSet reconciles per second with many ReplicaSets on the embedded store: the existing
 * {@link ReplicaSetController} in stepping mode (the reconciles run on the benchmark thread, so the figure is
 * single-threaded) over a direct-delivery {@link ObjectStore} with {@code replicaSets} ReplicaSets of one pod each.
 *
 * <ul>
 *   <li>{@code resync}: every key enqueued, every ReplicaSet already converged: the cost of a no-op reconcile
 *       (claim pods from the cache, compare, no write), as a periodic resync pays it;</li>
 *   <li>{@code scale}: before each invocation (not measured) every ReplicaSet is scaled between 1 and 2 replicas;
 *       the invocation reconciles until idle: one pod created or deleted and the status written per ReplicaSet,
 *       plus the follow-up reconcile its own pod event causes.</li>
 * </ul>
 * The primary score is invocations/s; the auxiliary counter {@code reconciles} is reconciles/s.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class ReplicaSetReconcileBenchmark {
  private static final PodSpec SPEC = PodSpec.builder().container("app", "nginx:1.27", ResourceList.EMPTY).build();

  @Param({"10000"})
  public int replicaSets;

  private ObjectStore store;
  private ReplicaSetController controller;
  private final List<ObjectKey> keys = new ArrayList<>();
  private int nextReplicas = 2;

  /** Reconciles processed, reported per second. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Counters {
    public long reconciles;

    @Setup(Level.Iteration)
    public void reset() {
      reconciles = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() {
    ManualClock clock = ManualClock.atEpoch2026();
    store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
    controller = ReplicaSetController.builder(store).clock(clock).stepping().build();
    controller.start().join();
    for (int i = 0; i < replicaSets; i++) {
      ReplicaSet rs = store.create(ReplicaSet.builder().namespace("ns-" + (i % 100)).name("rs-" + i).replicas(1)
          .matchLabels(Map.of("app", "rs-" + i)).podSpec(SPEC).build());
      keys.add(ObjectKey.of(rs));
    }
    controller.runUntilIdle();
    int pods = store.list(Pod.class, "").items().size();
    if (pods != replicaSets) {
      throw new IllegalStateException("expected " + replicaSets + " pods after the first sync but found " + pods);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    controller.close();
    store.close();
  }

  /** Scales every ReplicaSet (for {@link #scale}); not measured. */
  @Setup(Level.Invocation)
  public void flipReplicas(org.openjdk.jmh.infra.BenchmarkParams params) {
    if (!params.getBenchmark().endsWith(".scale")) {
      return;
    }
    for (ObjectKey k : keys) {
      ReplicaSet rs = store.require(ReplicaSet.class, k.namespace(), k.name());
      store.update(rs.withSpec(rs.spec().withReplicas(nextReplicas)));
    }
    nextReplicas = nextReplicas == 2 ? 1 : 2;
  }

  /** Every key enqueued, nothing to do: no-op reconciles. */
  @Benchmark
  public int resync(Counters counters) {
    for (ObjectKey k : keys) {
      controller.controller().enqueue(k);
    }
    int n = controller.runUntilIdle();
    counters.reconciles += n;
    return n;
  }

  /** Every ReplicaSet was just scaled by one: reconcile until idle. */
  @Benchmark
  public int scale(Counters counters) {
    int n = controller.runUntilIdle();
    counters.reconciles += n;
    return n;
  }
}
