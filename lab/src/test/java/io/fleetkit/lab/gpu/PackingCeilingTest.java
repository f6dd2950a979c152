package io.fleetkit.lab.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fewest devices a set of shares needs (configuration LP) and the packing ceiling of a replay built on it
 * (docs/gpu-benchmarks.md, "Why not 96.3% on default").
 */
final class PackingCeilingTest {
  private static List<TracePod> shares(int... milli) {
    List<TracePod> out = new ArrayList<>();
    for (int m : milli) {
      out.add(new TracePod("s" + out.size(), 1000, 0, 1, m, List.of()));
    }
    return out;
  }

  @Test
  void minDevices_handBuiltCases() {
    assertThat(ConfigurationBound.minDevices(shares())).isZero();
    assertThat(ConfigurationBound.minDevices(shares(470, 470, 470, 470))).isEqualTo(2);
    // 0.19 fills the 0.81's gap exactly; 0.20 does not fit it
    assertThat(ConfigurationBound.minDevices(shares(810, 190))).isEqualTo(1);
    assertThat(ConfigurationBound.minDevices(shares(810, 200))).isEqualTo(2);
    // two 0.65 pods cannot share a device, whatever the volume says (1.94 GPU)
    assertThat(ConfigurationBound.minDevices(shares(650, 650, 320, 320))).isEqualTo(2);
    assertThat(ConfigurationBound.minDevices(shares(650, 650, 330, 330))).isEqualTo(2);
    assertThat(ConfigurationBound.minDevices(shares(650, 650, 360))).isEqualTo(3);
  }

  @Test
  void minDevices_wholeGpuPod_isRefused() {
    assertThatThrownBy(() -> ConfigurationBound.minDevices(List.of(new TracePod("w", 1000, 0, 2, 1000, List.of()))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("w").hasMessageContaining("share");
  }

  @Test
  void ceiling_defaultTraceSeed42_GapFill_aboveItsAllocation_belowTheBound() {
    List<TraceNode> nodes = TraceBenchmarkTest.nodes();
    List<TracePod> pods = TraceBenchmarkTest.pods("default");
    double ceiling = PackingCeiling.atCapacity(nodes, pods, GpuPolicy.GAP_FILL, 42);
    assertThat(ceiling).isCloseTo(96.2745, within(0.001));
    assertThat(ceiling)
        .isGreaterThanOrEqualTo(TraceBenchmarkTest.replay("default", GpuPolicy.GAP_FILL, 42).allocationAt(100));
    assertThat(ceiling).isLessThanOrEqualTo(AllocationBound.atArrival(nodes, pods, 42, 1.3, 100));
  }
}
