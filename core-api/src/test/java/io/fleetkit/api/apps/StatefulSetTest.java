package io.fleetkit.api.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.resource.ResourceList;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class StatefulSetTest {
  private static final ResourceList STORAGE = ResourceList.builder().put("storage", "10Gi").build();

  @Test
  void builder_defaults_orderedReadyRollingUpdate() {
    StatefulSet s = StatefulSet.builder().name("db").serviceName("db").matchLabels(Map.of("app", "db"))
        .podSpec(DeploymentTest.WEB).volumeClaimTemplate(ClaimTemplate.of("data", "fast", STORAGE)).build();
    assertThat(s.apiVersion()).isEqualTo("apps/v1");
    assertThat(s.kind()).isEqualTo("StatefulSet");
    assertThat(s.spec().replicas()).isEqualTo(1);
    assertThat(s.spec().podManagementPolicy()).isEqualTo(PodManagementPolicy.OrderedReady);
    assertThat(s.spec().updateStrategy().type()).isEqualTo(StatefulSetUpdateStrategyType.RollingUpdate);
    assertThat(s.spec().updateStrategy().rollingUpdate()).isEqualTo(RollingUpdateStatefulSetStrategy.DEFAULT);
    assertThat(s.spec().revisionHistoryLimit()).isEqualTo(10);
    assertThat(s.podName(2)).isEqualTo("db-2");
    assertThat(s.spec().volumeClaimTemplates().get(0).claimName("db", 2)).isEqualTo("data-db-2");
    assertThat(s.spec().volumeClaimTemplates().get(0).accessModes()).containsExactly("ReadWriteOnce");
  }

  @Test
  void withStatusOf_takesOnlyStatus() {
    StatefulSet s = StatefulSet.builder().name("db").matchLabels(Map.of("app", "db"))
        .podSpec(DeploymentTest.WEB).build();
    StatefulSetStatus st = new StatefulSetStatus(1, 3, 3, 3, 3, 3, "db-1", "db-1", null);
    StatefulSet merged = s.withStatusOf(s.withSpec(s.spec().withReplicas(3)).withStatus(st));
    assertThat(merged.spec().replicas()).isEqualTo(1);
    assertThat(merged.status()).isEqualTo(st);
  }

  @Test
  void validate_manyViolations_allReported() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> StatefulSet.builder()
        .name("db").replicas(-1).matchLabels(Map.of("app", "db")).podSpec(DeploymentTest.WEB)
        .updateStrategy(new StatefulSetUpdateStrategy(StatefulSetUpdateStrategyType.RollingUpdate,
            new RollingUpdateStatefulSetStrategy(-1, IntOrPercent.ZERO)))
        .volumeClaimTemplate(ClaimTemplate.of("data", null, STORAGE))
        .volumeClaimTemplate(ClaimTemplate.of("data", null, ResourceList.builder().put("storage", "-1").build()))
        .build());
    assertThat(e.violations()).extracting(Violation::field).containsExactly(
        "spec.replicas",
        "spec.updateStrategy.rollingUpdate.partition",
        "spec.updateStrategy.rollingUpdate.maxUnavailable",
        "spec.volumeClaimTemplates[1].metadata.name",
        "spec.volumeClaimTemplates[1].spec.resources.requests.storage");
    assertThat(e.violations().get(2).rule()).isEqualTo("cannot be 0");
  }

  @Test
  void validate_onDeleteWithRollingUpdate_rejected() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> StatefulSet.builder()
        .name("db").matchLabels(Map.of("app", "db")).podSpec(DeploymentTest.WEB)
        .updateStrategy(new StatefulSetUpdateStrategy(StatefulSetUpdateStrategyType.OnDelete,
            RollingUpdateStatefulSetStrategy.DEFAULT))
        .build());
    assertThat(e.violations()).extracting(Violation::rule)
        .containsExactly("only allowed for updateStrategy 'RollingUpdate'");
  }

  @Test
  void validate_emptySelector_statefulsetWording() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> StatefulSet.builder()
        .name("db").podSpec(DeploymentTest.WEB).build());
    assertThat(e.violations()).extracting(Violation::rule).containsExactly("empty selector is invalid for statefulset");
  }
}
