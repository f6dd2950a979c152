package io.fleetkit.api.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ReplicaSetTest {

  @Test
  void builder_defaults_oneReplica() {
    ReplicaSet rs = ReplicaSet.builder().name("web-abc").matchLabels(Map.of("app", "web"))
        .podSpec(DeploymentTest.WEB).build();
    assertThat(rs.apiVersion()).isEqualTo("apps/v1");
    assertThat(rs.kind()).isEqualTo("ReplicaSet");
    assertThat(rs.spec().replicas()).isEqualTo(1);
    assertThat(rs.spec().minReadySeconds()).isZero();
    assertThat(rs.status()).isEqualTo(ReplicaSetStatus.EMPTY);
  }

  @Test
  void selectorWithExpressions_matchingTemplate_accepted() {
    LabelSelector sel = new LabelSelector(Map.of(), List.of(new LabelSelectorRequirement("tier",
        LabelSelectorOperator.In, List.of("front", "edge"))));
    ReplicaSet rs = ReplicaSet.builder().name("web").selector(sel)
        .template(PodTemplateSpec.of(Map.of("tier", "edge"), DeploymentTest.WEB)).replicas(3).build();
    assertThat(rs.spec().replicas()).isEqualTo(3);
  }

  @Test
  void withStatusOf_takesOnlyStatus() {
    ReplicaSet rs = ReplicaSet.builder().name("web").matchLabels(Map.of("app", "web"))
        .podSpec(DeploymentTest.WEB).build();
    ReplicaSetStatus st = new ReplicaSetStatus(2, 2, 1, 1, 4);
    ReplicaSet merged = rs.withStatusOf(rs.withSpec(rs.spec().withReplicas(9)).withStatus(st));
    assertThat(merged.spec().replicas()).isEqualTo(1);
    assertThat(merged.status()).isEqualTo(st);
  }

  @Test
  void validate_negativeAndMismatch_allReported() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> ReplicaSet.builder()
        .name("web").replicas(-3).minReadySeconds(-1).selector(LabelSelector.of(Map.of("app", "web")))
        .template(PodTemplateSpec.of(Map.of(), DeploymentTest.WEB.toBuilder().activeDeadlineSeconds(5L).build()))
        .build());
    assertThat(e.violations()).extracting(Violation::field).containsExactly(
        "spec.replicas", "spec.minReadySeconds", "spec.template.metadata.labels",
        "spec.template.spec.activeDeadlineSeconds");
    assertThat(e.violations().get(3).rule()).isEqualTo("Forbidden: activeDeadlineSeconds in ReplicaSet is not"
        + " Supported");
  }
}
