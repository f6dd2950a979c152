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

  @Test
  void builder_defaults_retainClaimsOrdinalsFromZero() {
    StatefulSet s = StatefulSet.builder().name("db").matchLabels(Map.of("app", "db")).podSpec(DeploymentTest.WEB)
        .build();
    assertThat(s.spec().persistentVolumeClaimRetentionPolicy())
        .isEqualTo(StatefulSetPersistentVolumeClaimRetentionPolicy.RETAIN);
    assertThat(s.spec().persistentVolumeClaimRetentionPolicy().whenDeleted())
        .isEqualTo(PersistentVolumeClaimRetentionPolicyType.Retain);
    assertThat(s.spec().persistentVolumeClaimRetentionPolicy().whenScaled())
        .isEqualTo(PersistentVolumeClaimRetentionPolicyType.Retain);
    assertThat(s.spec().ordinals()).isEqualTo(StatefulSetOrdinals.DEFAULT);
    assertThat(s.spec().startOrdinal()).isZero();
    assertThat(s.spec().endOrdinal()).isZero();
  }

  @Test
  void ordinalRange_startThreeReplicasTwo_threeAndFour() {
    StatefulSet s = StatefulSet.builder().name("db").replicas(2).startOrdinal(3).matchLabels(Map.of("app", "db"))
        .podSpec(DeploymentTest.WEB).build();
    assertThat(s.spec().startOrdinal()).isEqualTo(3);
    assertThat(s.spec().endOrdinal()).isEqualTo(4);
    assertThat(s.spec().inOrdinalRange(2)).isFalse();
    assertThat(s.spec().inOrdinalRange(3)).isTrue();
    assertThat(s.spec().inOrdinalRange(4)).isTrue();
    assertThat(s.spec().inOrdinalRange(5)).isFalse();
    assertThat(s.spec().withReplicas(0).inOrdinalRange(3)).as("no replicas: nothing in range").isFalse();
  }

  /*
   * kubernetes pkg/apis/apps/validation/validation_test.go at commit afd5df58bd7dcb7b8c3f00e2065936bd0c508b77,
   * TestValidateStatefulSet: the cases of persistentVolumeClaimRetentionPolicy and ordinals.start. Upstream's
   * mkStatefulSet is "abc" in "default" selecting a=b. "empty PersistentVolumeClaimRetentionPolicy" and "invalid
   * PersistentVolumeClaimRetentionPolicy" validate upstream's internal type (empty or unknown strings); here the enum
   * admits neither, so those two are checked where a manifest is read (the kubernetes adapter's StatefulSetYamlTest).
   */
  private static StatefulSet.Builder mkStatefulSet() {
    return StatefulSet.builder().name("abc").namespace("default").matchLabels(Map.of("a", "b"))
        .podSpec(DeploymentTest.WEB);
  }

  @Test
  void validate_upstreamSuccessCases_pvcPolicyAndOrdinalsStart() {
    // "PVC policy [enable StatefulSetAutoDeletePVC]"
    StatefulSet pvcPolicy = mkStatefulSet().persistentVolumeClaimRetentionPolicy(
        PersistentVolumeClaimRetentionPolicyType.Delete, PersistentVolumeClaimRetentionPolicyType.Retain).build();
    assertThat(pvcPolicy.spec().persistentVolumeClaimRetentionPolicy().whenDeleted())
        .isEqualTo(PersistentVolumeClaimRetentionPolicyType.Delete);
    assertThat(pvcPolicy.spec().persistentVolumeClaimRetentionPolicy().whenScaled())
        .isEqualTo(PersistentVolumeClaimRetentionPolicyType.Retain);
    // "ordinals.start positive value"
    StatefulSet positive = mkStatefulSet().replicas(3).startOrdinal(2).build();
    assertThat(positive.spec().ordinals().start()).isEqualTo(2);
  }

  @Test
  void validate_upstreamErrorCase_invalidOrdinalsStart() {
    // "invalid ordinals.start": replicas 3, start -2 -> one error on spec.ordinals.start
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> mkStatefulSet().replicas(3).startOrdinal(-2).build());
    assertThat(e.violations()).extracting(Violation::field).containsExactly("spec.ordinals.start");
    assertThat(e.getMessage()).contains("StatefulSet default/abc").contains("spec.ordinals.start")
        .contains("must be greater than or equal to 0").contains("-2");
  }

  @Test
  void validate_lastOrdinalBeyondInt_refusedNamingStartAndReplicas() {
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> mkStatefulSet().replicas(2).startOrdinal(Integer.MAX_VALUE).build());
    assertThat(e.violations()).extracting(Violation::field).containsExactly("spec.ordinals.start");
    assertThat(e.getMessage()).contains("plus spec.replicas must not exceed 2147483648");
    assertThat(mkStatefulSet().replicas(1).startOrdinal(Integer.MAX_VALUE).build().spec().endOrdinal())
        .as("the last ordinal may be Integer.MAX_VALUE").isEqualTo(Integer.MAX_VALUE);
  }
}
