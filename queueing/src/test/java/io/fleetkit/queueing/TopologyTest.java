package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kueue's API rules for a Topology, a flavor's topology name and a pod set's topology request. */
final class TopologyTest {
  @Test
  void topology_threeLevels_isValid() {
    Topology t = Topology.of("default", "cloud.provider.com/topology-block", "cloud.provider.com/topology-rack",
        Topology.HOSTNAME_LABEL);
    assertThat(t.lowestLevelIsHostname()).isTrue();
    assertThat(t.indexOf("cloud.provider.com/topology-rack")).isEqualTo(1);
  }

  @Test
  void topology_noLevels_isRefused() {
    assertThatThrownBy(() -> new Topology("default", List.of()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Topology default")
        .hasMessageContaining("spec.levels")
        .hasMessageContaining("Required value");
  }

  @Test
  void topology_seventeenLevels_isRefused() {
    List<String> levels = new ArrayList<>();
    for (int i = 0; i < 17; i++) {
      levels.add("example.com/level-" + i);
    }
    assertThatThrownBy(() -> new Topology("default", levels))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.levels")
        .hasMessageContaining("must have at most 16 items");
  }

  @Test
  void topology_sixteenLevels_isValid() {
    List<String> levels = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      levels.add("example.com/level-" + i);
    }
    assertThat(new Topology("default", levels).levels()).hasSize(16);
  }

  @Test
  void topology_repeatedLevel_isRefusedAsNotUnique() {
    assertThatThrownBy(() -> Topology.of("default", "block", "rack", "block"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.levels")
        .hasMessageContaining("must be unique");
  }

  @Test
  void topology_levelThatIsNoLabelKey_isRefusedNamingTheLevel() {
    assertThatThrownBy(() -> Topology.of("default", "block", "not a label!"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.levels[1].nodeLabel")
        .hasMessageContaining("not a label!");
  }

  @Test
  void topology_hostnameAboveTheLowestLevel_isRefused() {
    assertThatThrownBy(() -> Topology.of("default", Topology.HOSTNAME_LABEL, "rack"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("the kubernetes.io/hostname label can only be used at the lowest level of topology");
  }

  @Test
  void topology_badName_isRefused() {
    assertThatThrownBy(() -> Topology.of("Not_A_Name", "rack"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("metadata.name");
  }

  @Test
  void resourceFlavor_badTopologyName_isRefused() {
    assertThatThrownBy(() -> ResourceFlavor.of("tas").withTopologyName("Bad Name"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("ResourceFlavor tas")
        .hasMessageContaining("spec.topologyName");
  }

  @Test
  void resourceFlavor_withTopologyName_keepsTheRest() {
    ResourceFlavor f = new ResourceFlavor("tas", Map.of("pool", "gpu")).withTopologyName("default");
    assertThat(f.topologyName()).isEqualTo("default");
    assertThat(f.nodeLabels()).containsEntry("pool", "gpu");
    assertThat(ResourceFlavor.of("plain").topologyName()).isNull();
  }

  @Test
  void request_requiredAndPreferred_isRefused() {
    assertThatThrownBy(() -> new PodSetTopologyRequest("rack", "block", false, null, List.of()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("must not contain more than one topology annotation");
  }

  /**
   * kueue {@code tas_cache_test.go} "slice size is required when slice topology is requested": Kueue's workload
   * webhook (TASValidateWorkloadSliceSize, on by default) refuses a slice topology without a positive size before
   * the algorithm sees it.
   */
  @Test
  void request_sliceWithoutSize_isRefused() {
    assertThatThrownBy(() -> PodSetTopologyRequest.ofRequired("block").withSlices("rack", 0))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("sliceConstraints[0].size")
        .hasMessageContaining("must be greater than zero");
  }

  @Test
  void request_numericGroupName_isRefused() {
    assertThatThrownBy(() -> PodSetTopologyRequest.ofRequired("rack").withPodSetGroupName("42"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("must not be a number");
  }

  /**
   * Digits of other scripts (Arabic-Indic three and four) are not numbers in Go's {@code strconv}: a slice size
   * written with them is refused, and a group name made of them is a name, not a number.
   */
  @Test
  void fromAnnotations_nonAsciiDigits_notNumbers() {
    assertThatThrownBy(() -> PodSetTopologyRequest.fromAnnotations(Map.of(
        "kueue.x-k8s.io/podset-slice-required-topology", "rack", "kueue.x-k8s.io/podset-slice-size", "\u0663")))
        .isInstanceOf(ValidationException.class).hasMessageContaining("must be a numeric value");
    assertThat(PodSetTopologyRequest.ofRequired("rack").withPodSetGroupName("\u0663\u0664").podSetGroupName())
        .isEqualTo("\u0663\u0664");
  }

  @Test
  void fromAnnotations_none_isNull() {
    assertThat(PodSetTopologyRequest.fromAnnotations(Map.of("other", "x"))).isNull();
  }

  @Test
  void fromAnnotations_requiredWithSlices_readsBoth() {
    PodSetTopologyRequest r = PodSetTopologyRequest.fromAnnotations(Map.of(
        PodSetTopologyRequest.REQUIRED_ANNOTATION, "cloud.provider.com/topology-block",
        PodSetTopologyRequest.SLICE_REQUIRED_ANNOTATION, "cloud.provider.com/topology-rack",
        PodSetTopologyRequest.SLICE_SIZE_ANNOTATION, "4"));
    assertThat(r).isEqualTo(PodSetTopologyRequest.ofRequired("cloud.provider.com/topology-block")
        .withSlices("cloud.provider.com/topology-rack", 4));
  }

  @Test
  void fromAnnotations_unconstrainedTrue_isUnconstrained() {
    assertThat(PodSetTopologyRequest.fromAnnotations(Map.of(PodSetTopologyRequest.UNCONSTRAINED_ANNOTATION, "true")))
        .isEqualTo(PodSetTopologyRequest.ofUnconstrained());
  }

  @Test
  void fromAnnotations_sliceTopologyWithoutSize_isRefused() {
    assertThatThrownBy(() -> PodSetTopologyRequest.fromAnnotations(Map.of(
        PodSetTopologyRequest.REQUIRED_ANNOTATION, "block",
        PodSetTopologyRequest.SLICE_REQUIRED_ANNOTATION, "rack")))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining(PodSetTopologyRequest.SLICE_SIZE_ANNOTATION)
        .hasMessageContaining("must be set when");
  }

  @Test
  void fromAnnotations_groupWithoutRequiredOrPreferred_isRefused() {
    assertThatThrownBy(() -> PodSetTopologyRequest.fromAnnotations(Map.of(
        PodSetTopologyRequest.UNCONSTRAINED_ANNOTATION, "true",
        PodSetTopologyRequest.GROUP_NAME_ANNOTATION, "lws")))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("may not be set when neither");
  }

  @Test
  void fromAnnotations_twoModes_isRefused() {
    assertThatThrownBy(() -> PodSetTopologyRequest.fromAnnotations(Map.of(
        PodSetTopologyRequest.REQUIRED_ANNOTATION, "block",
        PodSetTopologyRequest.UNCONSTRAINED_ANNOTATION, "true")))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("must not contain more than one topology annotation");
  }

  @Test
  void topologyAssignment_domainWithWrongNumberOfValues_isRefused() {
    assertThatThrownBy(() -> new TopologyAssignment(List.of("block", "rack"),
        List.of(TopologyAssignment.Domain.of(1, "b1"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topology assignment: domain [b1] has 1 values for 2 levels [block, rack]");
  }
}
