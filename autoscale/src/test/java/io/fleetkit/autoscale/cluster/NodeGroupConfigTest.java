package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.resources;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.autoscaling.NodePoolAutoscalingOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pool's own autoscaling settings completed with the autoscaler's, ported from kubernetes/autoscaler
 * {@code cluster-autoscaler/cloudprovider/clusterapi/clusterapi_nodegroup_test.go} TestNodeGroupGetOptions (branch
 * cluster-autoscaler-release-1.37, commit a16f0ae8; upstream runs each case for a MachineSet and a MachineDeployment,
 * here one NodePool): upstream's defaults (thresholds 0.1 and 0.2, unneeded 1 s, unready 1 min, provision 15 min) and
 * the cases' settings, read through {@link NodeGroupConfig} as the autoscaler reads them (upstream's
 * {@code DelegatingNodeGroupConfigProcessor}). The case "keep defaults on unparsable options values" is a deviation:
 * FleetKit's settings are typed, and a manifest with an unparsable value is refused naming the field (the YAML reader's
 * test), so no pool with one exists. Upstream's defaults set {@code MaxNodeStartupTime} 35 min, and its "return
 * specified options" case {@code maxnodestartuptime} 35 min; both are asserted.
 */
final class NodeGroupConfigTest {
  private static final AutoscalerOptions DEFAULTS = AutoscalerOptions.defaults().withScaleDownUtilizationThreshold(0.1)
      .withScaleDownGpuUtilizationThreshold(0.2).withScaleDownUnneededTime(Duration.ofSeconds(1))
      .withScaleDownUnreadyTime(Duration.ofMinutes(1)).withMaxNodeProvisionTime(Duration.ofMinutes(15))
      .withMaxNodeStartupTime(Duration.ofMinutes(35));

  private static NodeGroupConfig config(NodePoolAutoscalingOptions own) {
    NodePool pool = NodePool.builder().name("ng").capacity(resources(1000, 1024, 110)).minSize(1).maxSize(10)
        .autoscalingOptions(own).build();
    return NodeGroupConfig.of(DEFAULTS, List.of(pool));
  }

  private static void assertOptions(NodeGroupConfig c, double threshold, double gpuThreshold, Duration unneeded,
      Duration unready, Duration provision, Duration startup) {
    assertThat(c.scaleDownUtilizationThreshold("ng", false)).isEqualTo(threshold);
    assertThat(c.scaleDownUtilizationThreshold("ng", true)).isEqualTo(gpuThreshold);
    assertThat(c.scaleDownUnneededTime("ng", true)).isEqualTo(unneeded);
    assertThat(c.scaleDownUnneededTime("ng", false)).isEqualTo(unready);
    assertThat(c.maxNodeProvisionTime("ng")).isEqualTo(provision);
    assertThat(c.maxNodeStartupTime("ng")).isEqualTo(startup);
  }

  @Test
  void returnProvidedDefaultsOnEmptyMetadata() {
    NodeGroupConfig c = config(NodePoolAutoscalingOptions.NONE);
    assertThat(c.allDefaults()).isTrue();
    assertOptions(c, 0.1, 0.2, Duration.ofSeconds(1), Duration.ofMinutes(1), Duration.ofMinutes(15),
        Duration.ofMinutes(35));
  }

  @Test
  void returnSpecifiedOptions() {
    assertOptions(config(NodePoolAutoscalingOptions.builder().scaleDownGpuUtilizationThreshold(0.6)
            .scaleDownUtilizationThreshold(0.7).scaleDownUnneededTime(Duration.ofHours(1))
            .scaleDownUnreadyTime(Duration.ofMinutes(30)).maxNodeProvisionTime(Duration.ofMinutes(60))
            .maxNodeStartupTime(Duration.ofMinutes(35)).build()),
        0.7, 0.6, Duration.ofHours(1), Duration.ofMinutes(30), Duration.ofMinutes(60), Duration.ofMinutes(35));
  }

  @Test
  void completePartialOptionsSpecsWithDefaults() {
    assertOptions(config(NodePoolAutoscalingOptions.builder().scaleDownGpuUtilizationThreshold(0.1)
            .scaleDownUnneededTime(Duration.ofMinutes(1)).build()),
        0.1, 0.1, Duration.ofMinutes(1), Duration.ofMinutes(1), Duration.ofMinutes(15), Duration.ofMinutes(35));
  }

  @Test
  void otherPoolsAndNodesOutsidePools_takeTheDefaults() {
    NodeGroupConfig c = config(NodePoolAutoscalingOptions.builder().scaleDownUtilizationThreshold(0.9).build());
    assertThat(c.scaleDownUtilizationThreshold("other", false)).isEqualTo(0.1);
    assertThat(c.scaleDownUtilizationThreshold(null, false)).isEqualTo(0.1);
    assertThat(c.maxNodeProvisionTime(null)).isEqualTo(Duration.ofMinutes(15));
  }

  @Test
  void outOfRangeSettings_areRefusedNamingTheField() {
    assertThatThrownBy(() -> config(NodePoolAutoscalingOptions.builder().scaleDownUtilizationThreshold(1.5).build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.autoscalingOptions.scaleDownUtilizationThreshold")
        .hasMessageContaining("must be between 0 and 1");
    assertThatThrownBy(() -> config(NodePoolAutoscalingOptions.builder()
        .maxNodeProvisionTime(Duration.ofMinutes(-1)).build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.autoscalingOptions.maxNodeProvisionTime");
  }
}
