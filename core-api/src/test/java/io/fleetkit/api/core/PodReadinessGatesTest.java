package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.spi.UpdateChecks;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.readinessGates}: the builder, kubernetes {@code validateReadinessGates}
 * ({@code pkg/apis/core/validation/validation.go}: each {@code conditionType} a qualified name, reported on
 * {@code spec.readinessGates[i].conditionType} with {@code IsQualifiedName}'s messages; no duplicate check) and
 * {@code ValidatePodUpdate}'s rule that leaves them out of the updatable fields (immutable).
 */
final class PodReadinessGatesTest {
  private static Pod.Builder pod(String... gates) {
    Pod.Builder b = Pod.builder().namespace("ns").name("web").container("c", "img", ResourceList.EMPTY);
    for (String g : gates) {
      b.readinessGate(g);
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
  void builder_keepsGatesInOrder_toBuilderCopiesThem_nullBecomesEmpty() {
    Pod p = pod("example.com/feature-1", "lb.example.com/registered").build();
    assertThat(p.spec().readinessGates()).containsExactly("example.com/feature-1", "lb.example.com/registered");
    assertThat(p.spec().toBuilder().build().readinessGates()).isEqualTo(p.spec().readinessGates());
    assertThat(p.spec().toBuilder().readinessGates(List.of("a")).build().readinessGates()).containsExactly("a");
    assertThat(pod().build().spec().readinessGates()).isEmpty();
    PodSpec s = p.spec();
    PodSpec decoded = new PodSpec(s.containers(), s.initContainers(), s.overhead(), s.priority(),
        s.priorityClassName(), s.preemptionPolicy(), s.nodeSelector(), s.affinity(), s.tolerations(),
        s.topologySpreadConstraints(), s.schedulerName(), s.nodeName(), s.volumes(), s.restartPolicy(),
        s.terminationGracePeriodSeconds(), s.activeDeadlineSeconds(), s.hostname(), s.subdomain(), s.resources(),
        s.schedulingGates(), s.resourceClaims(), null);
    assertThat(decoded.readinessGates()).as("stored before the field existed").isEmpty();
    assertThat(s.withNodeName("n1").readinessGates()).isEqualTo(s.readinessGates());
  }

  @Test
  void create_conditionTypeNotAQualifiedName_namedWithPathAndValue() {
    assertThat(violations(() -> pod("example.com/ok", "Bad Type!", "a/b/c").build()))
        .extracting(Violation::field, Violation::value)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.readinessGates[1].conditionType", "Bad Type!"),
            org.assertj.core.groups.Tuple.tuple("spec.readinessGates[2].conditionType", "a/b/c"));
    // IsQualifiedName's two messages for an empty name, as upstream reports them
    assertThat(violations(() -> pod("").build())).hasSize(2).allSatisfy(v ->
        assertThat(v.field()).isEqualTo("spec.readinessGates[0].conditionType"))
        .anySatisfy(v -> assertThat(v.rule()).isEqualTo("name part must be non-empty"));
    assertThatThrownBy(() -> pod("a b").build()).isInstanceOf(ValidationException.class)
        .hasMessageContaining("Pod ns/web").hasMessageContaining("spec.readinessGates[0].conditionType")
        .hasMessageContaining("a b");
  }

  @Test
  void create_duplicatesAndKubeletConditionTypes_accepted_asUpstream() {
    assertThatCode(() -> pod("example.com/x", "example.com/x").build()).doesNotThrowAnyException();
    assertThatCode(() -> pod(PodCondition.READY, PodCondition.CONTAINERS_READY).build()).doesNotThrowAnyException();
  }

  @Test
  void workloadTemplate_gatesValidatedUnderTheTemplatePath() {
    assertThat(violations(() -> io.fleetkit.api.apps.Deployment.builder().namespace("ns").name("d")
        .template(PodTemplateSpec.of(java.util.Map.of("app", "d"),
            PodSpec.builder().container("c", "img", ResourceList.EMPTY).readinessGate("Bad!").build()))
        .selector(io.fleetkit.api.labels.LabelSelector.of(java.util.Map.of("app", "d"))).build()))
        .extracting(Violation::field).contains("spec.template.spec.readinessGates[0].conditionType");
  }

  @Test
  void update_addingRemovingOrChangingGates_forbidden_keepingThem_allowed() {
    Pod old = pod("example.com/a").build();
    assertThatCode(() -> UpdateChecks.update(old, pod("example.com/a").build(), false)).doesNotThrowAnyException();
    for (Pod updated : List.of(pod().build(), pod("example.com/a", "example.com/b").build(),
        pod("example.com/z").build())) {
      assertThat(violations(() -> UpdateChecks.update(old, updated, false))).singleElement().satisfies(v -> {
        assertThat(v.field()).isEqualTo("spec");
        assertThat(v.rule()).startsWith("Forbidden: " + UpdateChecks.POD_UPDATABLE).contains("readinessGates");
      });
    }
  }

  @Test
  void store_keepsGates_andRefusesAnUpdateOfThem() {
    try (ObjectStore store = ObjectStore.inMemory()) {
      Pod created = store.create(pod("example.com/a").build());
      assertThat(store.require(Pod.class, "ns", "web").spec().readinessGates()).containsExactly("example.com/a");
      Pod changed = created.withSpec(created.spec().toBuilder().readinessGates(List.of()).build());
      assertThatThrownBy(() -> store.update(changed)).isInstanceOf(ValidationException.class)
          .hasMessageContaining("readinessGates");
    }
  }
}
