package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.schedulingGates}: kubernetes {@code validateSchedulingGates} (qualified names, no duplicates),
 * {@code ValidatePodCreate}'s rule that a gated pod names no node, {@code ValidatePodUpdate}'s rules that gates
 * may only be removed and that a gated pod's nodeSelector and required node affinity may only grow
 * ({@code validateOnlyDeletedSchedulingGates}, {@code validateNodeSelectorMutation},
 * {@code validateNodeAffinityMutation}), and the {@code pods/binding} refusal of a gated pod (kubernetes
 * {@code pkg/registry/core/pod/storage/storage.go}, {@code setPodNodeAndMetadata}: "pod %v has non-empty
 * .spec.schedulingGates"). The upstream table cases are in {@link PodUpdateRulesTest}.
 */
final class PodSchedulingGatesTest {
  private static Pod.Builder gated(String... gates) {
    Pod.Builder b = Pod.builder().name("foo").container("c", "img", ResourceList.EMPTY);
    for (String g : gates) {
      b.schedulingGate(g);
    }
    return b;
  }

  private static List<Violation> violations(Runnable r) {
    try {
      r.run();
    } catch (ValidationException e) {
      return e.violations();
    }
    return List.of();
  }

  @Test
  void create_badAndDuplicateGateNames_named() {
    assertThat(violations(() -> gated("example.com/foo", "Bad Name!", "example.com/foo").build()))
        .extracting(Violation::field, Violation::value)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.schedulingGates[1].name", "Bad Name!"),
            org.assertj.core.groups.Tuple.tuple("spec.schedulingGates[2].name", "example.com/foo"));
    assertThat(violations(() -> gated("a", "a").build())).singleElement()
        .satisfies(v -> assertThat(v.rule()).isEqualTo("Duplicate value"));
  }

  @Test
  void create_gatedPodWithNodeName_forbidden_andBindingAGatedPodToo() {
    assertThat(violations(() -> gated("foo").nodeName("node1").build())).singleElement().satisfies(v -> {
      assertThat(v.field()).isEqualTo("spec.nodeName");
      assertThat(v.rule()).isEqualTo("Forbidden: cannot be set until all schedulingGates have been cleared");
    });
    Pod pod = gated("foo").build();
    assertThatThrownBy(() -> pod.withNodeName("node1")).isInstanceOf(ValidationException.class)
        .hasMessageContaining("schedulingGates");
  }

  @Test
  void update_removingGates_allowed_addingOne_forbiddenNamingIt() {
    Pod old = gated("g1", "g2").build();
    assertThatCode(() -> UpdateChecks.update(old, gated("g2").build(), false)).doesNotThrowAnyException();
    assertThatCode(() -> UpdateChecks.update(old, gated().build(), false)).doesNotThrowAnyException();
    Pod added = gated("g1").build();
    assertThat(violations(() -> UpdateChecks.update(added, gated("g1", "g2").build(), false))).singleElement()
        .satisfies(v -> {
          assertThat(v.field()).isEqualTo("spec.schedulingGates[1].name");
          assertThat(v.rule()).isEqualTo("Forbidden: only deletion is allowed, but found new scheduling gate 'g2'");
        });
    assertThat(violations(() -> UpdateChecks.update(gated().build(), gated("g1").build(), false)))
        .extracting(Violation::field).contains("spec.schedulingGates[0].name");
  }

  @Test
  void update_gatedPod_mayAddNodeSelectorEntries_butNotChangeThem_anUngatedOneNeither() {
    Pod old = gated("g").nodeSelector("a", "b").build();
    assertThatCode(() -> UpdateChecks.update(old, gated("g").nodeSelector(Map.of("a", "b", "c", "d")).build(), false))
        .doesNotThrowAnyException();
    assertThat(violations(() -> UpdateChecks.update(old,
        gated("g").nodeSelector(Map.of("a", "z", "c", "d")).build(), false)))
        .extracting(Violation::field).contains("spec.nodeSelector");
    Pod ungated = gated().nodeSelector("a", "b").build();
    assertThat(violations(() -> UpdateChecks.update(ungated,
        gated().nodeSelector(Map.of("a", "b", "c", "d")).build(), false)))
        .extracting(Violation::rule).anySatisfy(r -> assertThat(r).contains("spec.nodeSelector"));
  }

  @Test
  void create_gatedPod_getsPodScheduledFalseSchedulingGated_anUngatedOneNoCondition() {
    try (io.fleetkit.api.store.ObjectStore store = io.fleetkit.api.store.ObjectStore.inMemory()) {
      Pod stored = store.create(gated("example.com/quota").build());
      assertThat(stored.status().conditions()).singleElement().satisfies(c -> {
        assertThat(c.type()).isEqualTo("PodScheduled");
        assertThat(c.status()).isEqualTo(io.fleetkit.api.meta.ConditionStatus.False);
        assertThat(c.reason()).isEqualTo("SchedulingGated");
        assertThat(c.message()).isEqualTo("Scheduling is blocked due to non-empty scheduling gates");
      });
      assertThat(store.create(Pod.builder().name("free").container("c", "img", ResourceList.EMPTY).build())
          .status().conditions()).isEmpty();
    }
  }

  @Test
  void update_gatedPodModifiesNodeSelectorEntry_onlyThatViolation_noGenericSpecOne() {
    Pod old = gated("g").nodeSelector("a", "b").build();
    assertThat(violations(() -> UpdateChecks.update(old, gated("g").nodeSelector("a", "z").build(), false)))
        .singleElement().satisfies(v -> {
          assertThat(v.field()).isEqualTo("spec.nodeSelector");
          assertThat(v.rule()).isEqualTo(
              "Invalid value: only additions to spec.nodeSelector are allowed (no mutations or deletions)");
          assertThat(v.value()).isEqualTo("{a=z}");
        });
  }

  private static final String TERMS =
      "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";

  private static NodeSelectorRequirement in(String key, String value) {
    return new NodeSelectorRequirement(key, NodeSelectorOperator.In, List.of(value));
  }

  private static Affinity required(List<List<NodeSelectorRequirement>> termExpressions) {
    return new Affinity(new NodeAffinity(new NodeSelector(termExpressions.stream()
        .map(e -> new NodeSelectorTerm(e, List.of())).toList()), List.of()), null, null);
  }

  @Test
  void update_gatedPodChangesTwoRequiredTerms_oneViolationPerTerm_inUpstreamWords() {
    Pod old = gated("g").affinity(required(List.of(List.of(in("a", "1")), List.of(in("b", "1"))))).build();
    Pod both = gated("g").affinity(required(List.of(List.of(in("a", "2")), List.of(in("c", "1"))))).build();
    assertThat(violations(() -> UpdateChecks.update(old, both, false)))
        .extracting(Violation::field, Violation::rule)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(TERMS + "[0]",
                "Invalid value: only additions are allowed (no mutations or deletions)"),
            org.assertj.core.groups.Tuple.tuple(TERMS + "[1]",
                "Invalid value: only additions are allowed (no mutations or deletions)"));
    Pod grown = gated("g").affinity(required(List.of(List.of(in("a", "1"), in("x", "1")),
        List.of(in("b", "1"), in("y", "1"))))).build();
    assertThatCode(() -> UpdateChecks.update(old, grown, false)).doesNotThrowAnyException();
    Pod oneTerm = gated("g").affinity(required(List.of(List.of(in("a", "1"))))).build();
    assertThat(violations(() -> UpdateChecks.update(old, oneTerm, false))).singleElement().satisfies(v -> {
      assertThat(v.field()).isEqualTo(TERMS);
      assertThat(v.rule()).isEqualTo(
          "Invalid value: no additions/deletions to non-empty NodeSelectorTerms list are allowed");
    });
  }

  @Test
  void update_requiredTermChangedToAnInvalidLabelValue_refusedByTheGatedPodRule() {
    // upstream's "not allow update node affinity to an invalid label-value": FleetKit checks no label values of node
    // affinity expressions (the scheduler reports them), but the change itself is a mutation of the term
    Pod old = gated("baz").affinity(required(List.of(List.of(in("expr", "bar"))))).build();
    Pod updated = gated("baz").affinity(required(List.of(List.of(in("expr", "-1"))))).build();
    assertThat(violations(() -> UpdateChecks.update(old, updated, false))).extracting(Violation::field)
        .containsExactly(TERMS + "[0]");
  }

  @Test
  void update_ungatedPodWithRequiredTerms_anyNodeAffinityChangeIsAGenericSpecChange() {
    Pod old = gated().affinity(required(List.of(List.of(in("a", "1"))))).build();
    Pod grown = gated().affinity(required(List.of(List.of(in("a", "1"), in("x", "1"))))).build();
    assertThat(violations(() -> UpdateChecks.update(old, grown, false))).singleElement().satisfies(v -> {
      assertThat(v.field()).isEqualTo("spec");
      assertThat(v.rule()).startsWith("Forbidden: pod updates may not change fields other than")
          .contains("spec.affinity");
    });
  }

  @Test
  void binding_gatedStoredPod_refusedEvenWhenTheWriteClearsTheGates() {
    Pod old = gated("g").build();
    Pod clearedAndBound = gated().nodeName("node1").build();
    assertThat(violations(() -> UpdateChecks.update(old, clearedAndBound, true))).singleElement().satisfies(v -> {
      assertThat(v.field()).isEqualTo("spec.nodeName");
      assertThat(v.rule()).isEqualTo("pod foo has non-empty .spec.schedulingGates");
      assertThat(v.value()).isEqualTo("node1");
    });
    Pod cleared = gated().build();
    assertThatCode(() -> UpdateChecks.update(old, cleared, false)).doesNotThrowAnyException();
    assertThatCode(() -> UpdateChecks.update(cleared, cleared.withNodeName("node1"), true))
        .doesNotThrowAnyException();
  }

  @Test
  void store_gatedPod_isBoundOnlyAfterAnUpdateClearedItsGates() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      Pod created = store.create(gated("g").namespace("ns").build());
      Pod clearedAndBound = created.withSpec(created.spec().toBuilder().schedulingGates(List.of()).nodeName("node1")
          .build());
      assertThatThrownBy(() -> store.updateWithStatus(clearedAndBound)).isInstanceOf(ValidationException.class)
          .hasMessageContaining("has non-empty .spec.schedulingGates");
      assertThat(store.require(Pod.class, "ns", "foo").spec().schedulingGates()).containsExactly("g");
      Pod cleared = store.update(created.withSpec(created.spec().toBuilder().schedulingGates(List.of()).build()));
      Pod bound = store.updateWithStatus(cleared.withNodeName("node1"));
      assertThat(bound.spec().nodeName()).isEqualTo("node1");
      assertThat(bound.spec().schedulingGates()).isEmpty();
    }
  }
}
