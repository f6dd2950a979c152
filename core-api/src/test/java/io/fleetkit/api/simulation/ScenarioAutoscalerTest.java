package io.fleetkit.api.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ScenarioAutoscalerTest {
  private static Scenario scenario(ScenarioFeatures features, ScenarioAutoscaler ca) {
    return new Scenario(ObjectMeta.builder().name("what-if").build(), new ScenarioSpec(Duration.ofHours(1), 1,
        ScenarioSpec.DEFAULT_SAMPLE_INTERVAL, List.of(), List.of(), features).withClusterAutoscaler(ca));
  }

  private static Scenario scenario(ScenarioAutoscaler ca) {
    return scenario(ScenarioFeatures.ALL, ca);
  }

  @Test
  void everyOption_kept_andAbsentMeansUnset() {
    ScenarioAutoscaler ca = ScenarioAutoscaler.builder().expander("least-nodes,least-waste")
        .scaleDownUtilizationThreshold(0.0).scaleDownGpuUtilizationThreshold(1.0)
        .scaleDownUnneededTime(Duration.ofMinutes(2)).scaleDownDelayAfterAdd(Duration.ZERO)
        .scaleDownDelayAfterDelete(Duration.ofSeconds(30)).scaleDownDelayAfterFailure(Duration.ofMinutes(1))
        .maxNodeProvisionTime(Duration.ofMinutes(5)).balanceSimilarNodeGroups(true)
        .balancingIgnoreLabels(List.of("example.com/rack")).coresTotal(8L, 64L)
        .memoryTotal(Quantity.parse("1Gi"), Quantity.parse("256Gi")).maxNodesTotal(20)
        .nodeDeleteDelayAfterTaint(Duration.ofSeconds(30)).cordonNodeBeforeTerminating(false).build();
    Scenario s = scenario(ca);
    assertThat(s.spec().clusterAutoscaler()).isEqualTo(ca);
    assertThat(ca.expanderChain()).containsExactly("least-nodes", "least-waste");
    assertThat(ca.toBuilder().build()).isEqualTo(ca);
    assertThat(ScenarioAutoscaler.DEFAULTS.expanderChain()).containsExactly("least-waste");
    assertThat(ScenarioAutoscaler.DEFAULTS.scaleDownUnneededTime()).isNull();
    assertThat(ScenarioAutoscaler.DEFAULTS.nodeDeleteDelayAfterTaint()).isNull();
    assertThat(ScenarioAutoscaler.DEFAULTS.cordonNodeBeforeTerminating()).isNull();
    assertThat(ca.nodeDeleteDelayAfterTaint()).isEqualTo(Duration.ofSeconds(30));
    assertThat(ca.cordonNodeBeforeTerminating()).isFalse();
    assertThat(scenario(ScenarioAutoscaler.DEFAULTS).spec().withClusterAutoscaler(null).clusterAutoscaler()).isNull();
    // a max of 0 is no limit, so any min goes with it
    assertThat(scenario(ScenarioAutoscaler.builder().coresTotal(8L, 0L).build()).spec().clusterAutoscaler())
        .isNotNull();
  }

  @Test
  void withTheClusterAutoscalerOff_refusedNamingTheBlockAndTheSwitch() {
    assertThatThrownBy(() -> scenario(ScenarioFeatures.builder().clusterAutoscaler(false).build(),
        ScenarioAutoscaler.DEFAULTS))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.clusterAutoscaler \"set\" ")
        .hasMessageContaining("needs spec.features.clusterAutoscaler: true");
    assertThatThrownBy(() -> scenario(ScenarioFeatures.ALL.withProvisioner(), ScenarioAutoscaler.DEFAULTS))
        .hasMessageContaining("the provisioner runs instead");
  }

  @Test
  void expanders_unknownTwiceOrAfterRandom_refusedWithTheKnownOnes() {
    assertThatThrownBy(() -> scenario(ScenarioAutoscaler.builder().expander("priority").build()))
        .hasMessageContaining("spec.clusterAutoscaler.expander")
        .hasMessageContaining("must be one of least-waste, most-pods, least-nodes, price, random")
        .hasMessageContaining("priority");
    assertThatThrownBy(() -> scenario(ScenarioAutoscaler.builder().expander("most-pods,").build()))
        .hasMessageContaining("spec.clusterAutoscaler.expander").hasMessageContaining("must be one of");
    assertThatThrownBy(() -> scenario(ScenarioAutoscaler.builder().expander("price,most-pods,price").build()))
        .hasMessageContaining("must not name an expander more than once");
    assertThatThrownBy(() -> scenario(ScenarioAutoscaler.builder().expander("random,least-waste").build()))
        .hasMessageContaining("must not have an expander after random")
        .hasMessageContaining("least-waste would never be used");
    // random last is fine, as are spaces after the commas
    assertThat(scenario(ScenarioAutoscaler.builder().expander("price, random").build()).spec().clusterAutoscaler()
        .expanderChain()).containsExactly("price", "random");
  }

  @Test
  void thresholdsOutsideZeroToOne_refused() {
    for (double bad : new double[] {-0.1, 1.01, Double.NaN}) {
      assertThatThrownBy(() -> scenario(ScenarioAutoscaler.builder().scaleDownUtilizationThreshold(bad).build()))
          .hasMessageContaining("spec.clusterAutoscaler.scaleDownUtilizationThreshold")
          .hasMessageContaining("must be between 0 and 1");
    }
    assertThatThrownBy(() -> scenario(ScenarioAutoscaler.builder().scaleDownGpuUtilizationThreshold(2.0).build()))
        .hasMessageContaining("spec.clusterAutoscaler.scaleDownGpuUtilizationThreshold");
  }

  @Test
  void negativeDurations_eachNamed() {
    Duration neg = Duration.ofSeconds(-1);
    assertThatThrownBy(() -> scenario(ScenarioAutoscaler.builder().scaleDownUnneededTime(neg)
        .scaleDownDelayAfterAdd(neg).scaleDownDelayAfterDelete(neg).scaleDownDelayAfterFailure(neg)
        .maxNodeProvisionTime(neg).nodeDeleteDelayAfterTaint(neg).build()))
        .hasMessageContaining("spec.clusterAutoscaler.scaleDownUnneededTime \"-1s\" must be greater")
        .hasMessageContaining("spec.clusterAutoscaler.scaleDownDelayAfterAdd \"-1s\" must be greater")
        .hasMessageContaining("spec.clusterAutoscaler.scaleDownDelayAfterDelete \"-1s\" must be greater")
        .hasMessageContaining("spec.clusterAutoscaler.scaleDownDelayAfterFailure \"-1s\" must be greater")
        .hasMessageContaining("spec.clusterAutoscaler.maxNodeProvisionTime \"-1s\" must be greater")
        .hasMessageContaining("spec.clusterAutoscaler.nodeDeleteDelayAfterTaint \"-1s\" must be greater")
        .hasMessageContaining("must be greater than or equal to 0");
  }

  @Test
  void totals_negativeOrMinAboveMax_refused() {
    assertThatThrownBy(() -> scenario(ScenarioAutoscaler.builder().coresTotal(65L, 64L).build()))
        .hasMessageContaining("spec.clusterAutoscaler.coresTotal.min")
        .hasMessageContaining("must not be more than coresTotal.max 64");
    assertThatThrownBy(() -> scenario(ScenarioAutoscaler.builder().coresTotal(-1L, null).build()))
        .hasMessageContaining("spec.clusterAutoscaler.coresTotal.min");
    assertThatThrownBy(() -> scenario(ScenarioAutoscaler.builder()
        .memoryTotal(Quantity.parse("2Gi"), Quantity.parse("1Gi")).build()))
        .hasMessageContaining("spec.clusterAutoscaler.memoryTotal.min")
        .hasMessageContaining("must not be more than memoryTotal.max 1Gi");
    assertThatThrownBy(() -> scenario(ScenarioAutoscaler.builder().memoryTotal(null, Quantity.parse("-1Gi")).build()))
        .hasMessageContaining("spec.clusterAutoscaler.memoryTotal.max");
    assertThatThrownBy(() -> scenario(ScenarioAutoscaler.builder().maxNodesTotal(-3).build()))
        .hasMessageContaining("spec.clusterAutoscaler.maxNodesTotal");
  }

  @Test
  void balancingIgnoreLabels_mustBeLabelKeys() {
    assertThatThrownBy(() -> scenario(ScenarioAutoscaler.builder().balancingIgnoreLabels(List.of("ok", "not ok"))
        .build()))
        .hasMessageContaining("spec.clusterAutoscaler.balancingIgnoreLabels[1]");
  }

  private static ScenarioAutoscaler gpu(ScenarioAutoscaler.GpuTotal... limits) {
    return ScenarioAutoscaler.builder().gpuTotal(List.of(limits)).build();
  }

  @Test
  void gpuTotal_kept_inOrder_andMaxZeroIsNoMaximum() {
    ScenarioAutoscaler ca = gpu(new ScenarioAutoscaler.GpuTotal("h100", 0, 16),
        new ScenarioAutoscaler.GpuTotal("a100", 4, 0));
    assertThat(scenario(ca).spec().clusterAutoscaler().gpuTotal()).extracting(ScenarioAutoscaler.GpuTotal::type)
        .containsExactly("h100", "a100");
    assertThat(ca.toBuilder().build()).isEqualTo(ca);
    assertThat(ScenarioAutoscaler.DEFAULTS.gpuTotal()).isEmpty();
  }

  @Test
  void gpuTotal_minAboveMax_refusedNamingTheEntry() {
    assertThatThrownBy(() -> scenario(gpu(new ScenarioAutoscaler.GpuTotal("a100", 0, 8),
        new ScenarioAutoscaler.GpuTotal("h100", 9, 8))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.clusterAutoscaler.gpuTotal[1].min \"9\"")
        .hasMessageContaining("must not be more than gpuTotal[1].max 8")
        .message().doesNotContain("gpuTotal[0]");
  }

  @Test
  void gpuTotal_negative_refusedNamingTheField() {
    assertThatThrownBy(() -> scenario(gpu(new ScenarioAutoscaler.GpuTotal("a100", -1, -2))))
        .hasMessageContaining("spec.clusterAutoscaler.gpuTotal[0].min \"-1\" must be greater than or equal to 0")
        .hasMessageContaining("spec.clusterAutoscaler.gpuTotal[0].max \"-2\" must be greater than or equal to 0");
  }

  @Test
  void gpuTotal_blankOrNotALabelValue_refusedNamingTheType() {
    for (String blank : new String[] {"", "  "}) {
      assertThatThrownBy(() -> scenario(gpu(new ScenarioAutoscaler.GpuTotal(blank, 0, 8))))
          .hasMessageContaining("spec.clusterAutoscaler.gpuTotal[0].type")
          .hasMessageContaining("Required value: the GPU type, as nodes carry it in their fleetkit.io/accelerator "
              + "label");
    }
    assertThatThrownBy(() -> scenario(gpu(new ScenarioAutoscaler.GpuTotal("nvidia/a100", 0, 8))))
        .hasMessageContaining("spec.clusterAutoscaler.gpuTotal[0].type \"nvidia/a100\"")
        .hasMessageContaining("(a GPU type is a value of the fleetkit.io/accelerator label)");
  }

  @Test
  void gpuTotal_typeTwice_refusedAsDuplicate() {
    assertThatThrownBy(() -> scenario(gpu(new ScenarioAutoscaler.GpuTotal("a100", 0, 8),
        new ScenarioAutoscaler.GpuTotal("h100", 0, 8), new ScenarioAutoscaler.GpuTotal("a100", 1, 2))))
        .hasMessageContaining("spec.clusterAutoscaler.gpuTotal[2].type \"a100\"")
        .hasMessageContaining("Duplicate value: each GPU type takes one entry");
  }
}
