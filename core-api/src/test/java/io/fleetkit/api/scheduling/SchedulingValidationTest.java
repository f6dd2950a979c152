package io.fleetkit.api.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.Violation;
import io.fleetkit.api.labels.LabelSelector;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class SchedulingValidationTest {

  private static List<String> fields(List<Violation> vs) {
    return vs.stream().map(Violation::field).toList();
  }

  @Test
  void validateTaints_badKeyValueAndDuplicate_flagged() {
    List<Violation> v = SchedulingValidation.validateTaints(List.of(
        Taint.of("ok", "v", TaintEffect.NoSchedule),
        Taint.of("bad key", "-v", TaintEffect.NoSchedule),
        Taint.of("ok", "other", TaintEffect.NoSchedule),
        Taint.of("ok", "v", TaintEffect.NoExecute)), "spec.taints");
    assertThat(fields(v)).containsExactly("spec.taints[1].key", "spec.taints[1].value", "spec.taints[2]");
    assertThat(v.get(2).rule()).isEqualTo("Duplicate value: taints must be unique by key and effect pair");
    assertThat(v.get(2).value()).isEqualTo("ok=other:NoSchedule");
  }

  @Test
  void validateTolerations_upstreamRules() {
    List<Violation> v = SchedulingValidation.validateTolerations(List.of(
        Toleration.exists("", null),
        new Toleration("", TolerationOperator.Equal, "", null, null),
        new Toleration("k", TolerationOperator.Exists, "", TaintEffect.NoSchedule, 30L),
        new Toleration("k", TolerationOperator.Exists, "v", null, null),
        new Toleration("k", TolerationOperator.Equal, "bad value", TaintEffect.NoExecute, 30L),
        new Toleration("bad key", TolerationOperator.Exists, "", null, null)), "spec.tolerations");
    assertThat(fields(v)).containsExactly(
        "spec.tolerations[1].operator",
        "spec.tolerations[2].effect",
        "spec.tolerations[3].operator",
        "spec.tolerations[4].operator",
        "spec.tolerations[5].key");
    assertThat(v.get(0).rule())
        .isEqualTo("operator must be Exists when `key` is empty, which means \"match all values and all keys\"");
    assertThat(v.get(1).rule()).isEqualTo("effect must be 'NoExecute' when `tolerationSeconds` is set");
    assertThat(v.get(2).rule()).isEqualTo("value must be empty when `operator` is 'Exists'");
    assertThat(v.get(3).rule()).startsWith("a valid label must be an empty string");
  }

  @Test
  void validateNodeSelector_noTermsAndBadRequirements_flagged() {
    assertThat(SchedulingValidation.validateNodeSelector(new NodeSelector(List.of()), "a")).singleElement()
        .satisfies(x -> assertThat(x.rule()).isEqualTo("must have at least one node selector term"));
    NodeSelector s = new NodeSelector(List.of(new NodeSelectorTerm(
        List.of(new NodeSelectorRequirement("k", NodeSelectorOperator.In, List.of()),
            new NodeSelectorRequirement("k", NodeSelectorOperator.Exists, List.of("x")),
            new NodeSelectorRequirement("k", NodeSelectorOperator.Gt, List.of("1", "2")),
            new NodeSelectorRequirement("bad key", NodeSelectorOperator.Exists, List.of())),
        List.of(new NodeSelectorRequirement("metadata.name", NodeSelectorOperator.In, List.of("a", "b")),
            new NodeSelectorRequirement("metadata.name", NodeSelectorOperator.Exists, List.of("n")),
            new NodeSelectorRequirement("spec.x", NodeSelectorOperator.NotIn, List.of("n")),
            new NodeSelectorRequirement("metadata.name", NodeSelectorOperator.In, List.of("Bad_Name"))))));
    List<Violation> v = SchedulingValidation.validateNodeSelector(s, "r");
    String t = "r.nodeSelectorTerms[0]";
    assertThat(fields(v)).containsExactly(
        t + ".matchExpressions[0].values", t + ".matchExpressions[1].values", t + ".matchExpressions[2].values",
        t + ".matchExpressions[3].key",
        t + ".matchFields[0].values", t + ".matchFields[1].operator", t + ".matchFields[2].key",
        t + ".matchFields[3].values[0]");
    assertThat(v.get(2).rule()).isEqualTo("must be specified single value when `operator` is 'Lt' or 'Gt'");
    assertThat(v.get(4).rule())
        .isEqualTo("must be only one value when `operator` is 'In' or 'NotIn' for node field selector");
    assertThat(v.get(6).rule()).isEqualTo("not a valid field selector key");
  }

  @Test
  void validateAffinity_weightsTopologyKeyAndSelectors_flagged() {
    NodeSelectorTerm okTerm = new NodeSelectorTerm(
        List.of(new NodeSelectorRequirement("zone", NodeSelectorOperator.In, List.of("a"))), List.of());
    PodAffinityTerm noKey = PodAffinityTerm.of(LabelSelector.of(Map.of("app", "web")), "");
    PodAffinityTerm badNs = new PodAffinityTerm(LabelSelector.EVERYTHING, List.of("Bad_NS"), "zone", null,
        List.of(), List.of());
    Affinity a = new Affinity(
        new NodeAffinity(null, List.of(new PreferredSchedulingTerm(0, okTerm), new PreferredSchedulingTerm(100, okTerm),
            new PreferredSchedulingTerm(101, okTerm))),
        new PodAffinity(List.of(noKey), List.of(new WeightedPodAffinityTerm(50, badNs))),
        new PodAffinity(List.of(), List.of(new WeightedPodAffinityTerm(-1, PodAffinityTerm.of(null, "zone")))));
    List<Violation> v = SchedulingValidation.validateAffinity(a, "spec.affinity");
    assertThat(fields(v)).containsExactly(
        "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight",
        "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[2].weight",
        "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey",
        "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey",
        "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey",
        "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespaces[0]",
        "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight");
    assertThat(v.get(0).rule()).isEqualTo("must be in the range 1-100");
    assertThat(v.get(2).rule()).isEqualTo("can not be empty");
    assertThat(SchedulingValidation.validateAffinity(null, "x")).isEmpty();
  }

  @Test
  void validateTopologySpreadConstraints_upstreamRules() {
    LabelSelector sel = LabelSelector.of(Map.of("app", "web"));
    TopologySpreadConstraint ok = TopologySpreadConstraint.of(1, "zone", UnsatisfiableConstraintAction.DoNotSchedule,
        sel);
    assertThat(SchedulingValidation.validateTopologySpreadConstraints(List.of(ok), "c")).isEmpty();
    List<Violation> v = SchedulingValidation.validateTopologySpreadConstraints(List.of(
        TopologySpreadConstraint.of(0, "", UnsatisfiableConstraintAction.ScheduleAnyway, sel),
        new TopologySpreadConstraint(1, "zone", UnsatisfiableConstraintAction.DoNotSchedule, sel, 0,
            NodeInclusionPolicy.Honor, NodeInclusionPolicy.Ignore, List.of("app")),
        new TopologySpreadConstraint(1, "host", UnsatisfiableConstraintAction.ScheduleAnyway, sel, 2,
            NodeInclusionPolicy.Honor, NodeInclusionPolicy.Ignore, List.of()),
        ok), "spec.topologySpreadConstraints");
    String p = "spec.topologySpreadConstraints";
    assertThat(fields(v)).containsExactly(
        p + "[0].maxSkew", p + "[0].topologyKey",
        p + "[1].{topologyKey, whenUnsatisfiable}", p + "[1].minDomains", p + "[1].matchLabelKeys[0]",
        p + "[2].minDomains");
    assertThat(v.get(0).rule()).isEqualTo("must be greater than zero");
    assertThat(v.get(2).value()).isEqualTo("{zone, DoNotSchedule}");
    assertThat(v.get(4).rule()).isEqualTo("exists in both matchLabelKeys and labelSelector");
    assertThat(v.get(5).rule()).isEqualTo("can only use minDomains if whenUnsatisfiable=DoNotSchedule, not "
        + "ScheduleAnyway");
  }
}
