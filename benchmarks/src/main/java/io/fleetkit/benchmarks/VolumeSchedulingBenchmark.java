package io.fleetkit.benchmarks;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.benchmarks.generator.VolumeWorkload;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.storage.PersistentVolumeController;
import io.fleetkit.storage.provision.InMemoryProvisioner;
import io.fleetkit.storage.scheduling.StoragePlugins;
import java.util.List;
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
 * A SchedulingCSIPVs-like run (kube's scheduler_perf volumes suite, CI floor 100 pods/s at 5000 nodes): as many
 * nodes as init pods and measured pods, each pod with its own claim, scheduled with the default profile plus
 * FleetKit's storage plugins (VolumeBinding, VolumeZone, NodeVolumeLimits with 39 attachable CSI volumes per node,
 * DataLocality). {@code mode=bound}: claims pre-bound to CSI volumes (upstream's shape); {@code mode=provision}:
 * WaitForFirstConsumer claims provisioned in PreBind by an in-memory provisioner. Each invocation builds the
 * cluster and schedules the init pods (not measured), then schedules the measured pods (measured): pods/s =
 * measured pods * 1e6 / score (us/op).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class VolumeSchedulingBenchmark {
  /** kube's CI floor for SchedulingCSIPVs at 5000 nodes, pods/s. */
  public static final int KUBE_FLOOR = 100;

  @Param({"500", "5000"})
  public int nodes;

  @Param({"bound", "provision"})
  public String mode;

  private ObjectStore store;
  private Scheduler scheduler;
  private List<Pod> measured;

  @Setup(Level.Iteration)
  public void setUp() {
    ManualClock clock = ManualClock.atEpoch2026();
    store = ObjectStore.builder().clock(clock).directDelivery().build();
    boolean bound = mode.equals("bound");
    PersistentVolumeController controller = PersistentVolumeController.builder(store).clock(clock)
        .provisioner(InMemoryProvisioner.unlimited(VolumeWorkload.DRIVER)).build();
    scheduler = Scheduler.builder().clock(clock).seed(42)
        .registry(StoragePlugins.registry(PluginRegistry.defaults(), controller))
        .profile(StoragePlugins.enableIn(DefaultPlugins.profile())).build();
    for (Node n : VolumeWorkload.nodes(nodes)) {
      scheduler.addNode(n);
    }
    List<Pod> init = VolumeWorkload.create(store, "init-", nodes, bound);
    measured = VolumeWorkload.create(store, "measured-", nodes, bound);
    int placed = scheduleAll(init);
    if (placed != init.size()) {
      throw new IllegalStateException("SchedulingCSIPVs " + mode + ": only " + placed + " of " + init.size()
          + " init pods were bound");
    }
  }

  @TearDown(Level.Iteration)
  public void tearDown() {
    scheduler.close();
    store.close();
  }

  /** Schedules the measured pods; returns how many were bound. */
  @Benchmark
  public int schedule() {
    int placed = scheduleAll(measured);
    if (placed != measured.size()) {
      throw new IllegalStateException("SchedulingCSIPVs " + mode + ": only " + placed + " of " + measured.size()
          + " measured pods were bound");
    }
    return placed;
  }

  private int scheduleAll(List<Pod> pods) {
    for (Pod p : pods) {
      scheduler.addPod(p);
    }
    int placed = 0;
    for (ScheduleResult r : scheduler.runUntilIdle()) {
      if (r.isBound()) {
        placed++;
      }
    }
    return placed;
  }
}
