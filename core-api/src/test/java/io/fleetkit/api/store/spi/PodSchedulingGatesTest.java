package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.schedulingGates}: kubernetes {@code validateSchedulingGates} (qualified names, no duplicates),
 * {@code ValidatePodCreate}'s rule that a gated pod names no node, and {@code ValidatePodUpdate}'s rules that gates
 * may only be removed and that a gated pod's nodeSelector may only grow ({@code validateOnlyDeletedSchedulingGates},
 * {@code validateNodeSelectorMutation}).
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
}
