package io.fleetkit.scheduler.plugins.gpu;

import static io.fleetkit.scheduler.plugins.gpu.GpuPolicyPluginsTest.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * ReservingGapFill's whole-device reservation ({@link WholeDeviceReservation}) in the engine, on ten one-GPU nodes:
 * four devices hold a 0.2 share each (0.8 left on each), four run a whole-GPU pod, two are free. The arrived pods so
 * far ask 4.8 GPUs, 4 of them whole devices: when a 0.9 share arrives (5.7 GPUs arrived), 4 / 5.7 × (10 − 5.7) = 3.0
 * whole GPUs are expected before the cluster fills, more than the 2 free devices, so the share may only take a
 * device that already holds shares; none has room for 0.9, and it is unschedulable, with the policy's reason, like a
 * pod blocked by a reservation. A 1-GPU pod arriving next gets a free device; a 0.5 share goes beside a 0.2 one.
 * AdaptiveGapFill (no reservation) gives the 0.9 share a free device.
 */
final class GpuReservingGapFillTest {
  private static final GpuWorkload M = GpuWorkload.of(List.of(
      new GpuWorkload.Shape(1000, 1000, 1, List.of(), 4),
      new GpuWorkload.Shape(1000, 200, 1, List.of(), 4),
      new GpuWorkload.Shape(1000, 900, 1, List.of(), 1)));

  /** Ten nodes n0..n9 with one T4 each, labelled {@code slot=<name>}. */
  private static List<Node> tenOneGpuNodes() {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      nodes.add(Node.builder().name("n" + i).label("slot", "n" + i).capacity(ResourceList.builder()
          .put("cpu", Quantity.of(16)).put("memory", Quantity.ofBytes(64L << 30)).put("pods", Quantity.of(110))
          .build()).gpu(GpuDevice.of("n" + i + "-gpu0", "T4", 16384)).ready().build());
    }
    return nodes;
  }

  /** A pod of 1 core asking {@code whole} devices or a share of {@code milli}, selecting node {@code slot}. */
  private static Pod pinned(String name, int whole, int milli, String slot) {
    ResourceList.Builder r = ResourceList.builder().put("cpu", "1");
    if (whole > 0) {
      r.put(GpuRequests.WHOLE, Quantity.of(whole));
    } else {
      r.put(GpuRequests.MILLI, Quantity.of(milli));
    }
    return Pod.builder().name(name).container("c", "img", r.build()).nodeSelector("slot", slot).build();
  }

  /**
   * {@code share}-milli shares on n0..n3, then whole-GPU pods on n4..n7, each scheduled by the policy (a node
   * selector leaves it one node), so that it sees them arrive. No share is held back: no whole-GPU pod has arrived
   * before them.
   */
  private static List<Pod> placedFirst(int share) {
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      pods.add(pinned("share" + i, 0, share, "n" + i));
    }
    for (int i = 0; i < 4; i++) {
      pods.add(pinned("whole" + i, 1, 0, "n" + (4 + i)));
    }
    return pods;
  }

  /** Schedules {@code first} (each must bind), then {@code probes} one by one; returns the probes' results. */
  private static List<ScheduleResult> run(GpuPolicy policy, int share, List<Pod> probes) {
    GpuPlugins gpu = GpuPlugins.builder().policy(policy).workload(M).seed(5).build();
    List<ScheduleResult> out = new ArrayList<>();
    try (Scheduler s = Scheduler.builder().registry(gpu.registry(PluginRegistry.defaults()))
        .profile(gpu.policyOnlyProfile()).binder(gpu.binder(new GpuPluginsTest.RecordingBinder())).parallelism(1)
        .seed(3).build()) {
      tenOneGpuNodes().forEach(s::addNode);
      for (Pod p : placedFirst(share)) {
        s.addPod(p);
        assertThat(s.runUntilIdle()).singleElement().matches(ScheduleResult::isBound, "bound");
      }
      for (Pod p : probes) {
        s.addPod(p);
        List<ScheduleResult> r = s.runUntilIdle();
        assertThat(r).hasSize(1);
        out.add(r.get(0));
        if (!r.get(0).isBound()) {
          s.removePod(r.get(0).podKey());
        }
      }
    }
    return out;
  }

  @Test
  void shareWhileFreeDevicesAreShortOfTheExpectedWholeDemand_isUnschedulable_wholePodGetsTheDevice() {
    List<ScheduleResult> r = run(GpuPolicy.RESERVING_GAP_FILL, 200,
        List.of(pod("big-share", "1", 0, 900), pod("one-gpu", "1", 1, 0), pod("half", "1", 0, 500)));

    assertThat(r.get(0).isBound()).as("0.9 share: %s", r.get(0)).isFalse();
    assertThat(r.get(0).code()).isEqualTo(io.fleetkit.api.framework.Status.Code.UNSCHEDULABLE);
    assertThat(r.get(0).message()).contains(GpuScorePlugin.REASON_HELD);
    assertThat(r.get(1).isBound()).as("1-GPU pod").isTrue();
    assertThat(r.get(1).nodeName()).isIn("n8", "n9");
    // 7.2 GPUs arrived (the turned-away share counts), 5 of them whole: 5 / 7.2 x 2.8 = 1.9 expected, 1 free device
    assertThat(r.get(2).isBound()).as("0.5 share").isTrue();
    assertThat(r.get(2).nodeName()).as("a device that already holds a share").isIn("n0", "n1", "n2", "n3");
  }

  @Test
  void adaptiveGapFill_withoutTheReservation_givesTheShareAFreeDevice() {
    List<ScheduleResult> r = run(GpuPolicy.ADAPTIVE_GAP_FILL, 200, List.of(pod("big-share", "1", 0, 900)));

    assertThat(r.get(0).isBound()).isTrue();
    assertThat(r.get(0).nodeName()).isIn("n8", "n9");
  }

  @Test
  void shareWhileFreeDevicesCoverTheExpectedWholeDemand_takesAFreeDevice() {
    // the same cluster, but with 0.8 shares (0.2 left): 8.1 GPUs arrived with the probe, 4 / 8.1 x 1.9 = 0.9 whole
    // GPUs expected, fewer than the 2 free devices: no reservation, and no shared device has room for 0.9
    List<ScheduleResult> r = run(GpuPolicy.RESERVING_GAP_FILL, 800, List.of(pod("big-share", "1", 0, 900)));

    assertThat(r.get(0).isBound()).isTrue();
    assertThat(r.get(0).nodeName()).isIn("n8", "n9");
  }
}
