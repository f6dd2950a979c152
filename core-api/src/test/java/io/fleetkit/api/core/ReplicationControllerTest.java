package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.ResourceList;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The builder's v1 defaulting, after Kubernetes' {@code SetDefaults_ReplicationController}. */
final class ReplicationControllerTest {
  static final PodSpec POD = PodSpec.builder().container("web", "nginx", ResourceList.builder().build()).build();

  @Test
  void builder_emptySelectorAndLabels_defaultFromTemplate() {
    ReplicationController rc = ReplicationController.builder().name("web").template(Map.of("app", "web"), POD)
        .build();
    assertThat(rc.apiVersion()).isEqualTo("v1");
    assertThat(rc.kind()).isEqualTo("ReplicationController");
    assertThat(rc.spec().replicas()).isEqualTo(1);
    assertThat(rc.spec().selector()).isEqualTo(Map.of("app", "web"));
    assertThat(rc.metadata().labels()).isEqualTo(Map.of("app", "web"));
    assertThat(rc.template().labels()).isEqualTo(Map.of("app", "web"));
  }

  @Test
  void builder_givenSelectorAndLabels_kept() {
    ReplicationController rc = ReplicationController.builder().name("web").label("team", "a")
        .selector(Map.of("app", "web")).template(Map.of("app", "web", "v", "1"), POD).replicas(3).build();
    assertThat(rc.spec().selector()).isEqualTo(Map.of("app", "web"));
    assertThat(rc.metadata().labels()).isEqualTo(Map.of("team", "a"));
    assertThat(rc.withSpec(rc.spec().withReplicas(0)).spec().replicas()).isZero();
  }

  // upstream pkg/registry/core/replicationcontroller/strategy.go: v1 orphans dependents by default
  @Test
  void defaultGarbageCollectionPolicy_orphansDependents() {
    ReplicationController rc = ReplicationController.builder().name("web").template(Map.of("app", "web"), POD)
        .build();
    assertThat(io.fleetkit.api.store.spi.DeletionFinalizers.defaultPolicy(rc))
        .isEqualTo(io.fleetkit.api.store.spi.GarbageCollectionPolicy.ORPHAN_DEPENDENTS);
  }
}
