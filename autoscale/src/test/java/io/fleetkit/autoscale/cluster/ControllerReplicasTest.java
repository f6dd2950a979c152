package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.core.ReplicationControllerStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Upstream's {@code controllerReplicasCalculator} for a ReplicationController's evicted pods: at most
 * {@code spec.replicas - status.replicas} of them are still to be recreated.
 */
final class ControllerReplicasTest {

  @Test
  void notRecreated_replicationController_keepsOnlyTheMissingCount() {
    try (ObjectStore store = ObjectStore.inMemory()) {
      ReplicationController rc = store.create(ReplicationController.builder().namespace("ns").name("frontend")
          .replicas(3).template(Map.of("app", "frontend"),
              PodSpec.builder().container("app", "nginx:1", ResourceList.EMPTY).build()).build());
      rc = store.updateStatus(rc.withStatus(new ReplicationControllerStatus(2, 2, 2, 2, 1, List.of())));
      OwnerReference ref = OwnerReference.controllerOf(rc);
      List<Pod> evicted = List.of(pod("a", ref), pod("b", ref), pod("c", ref));

      assertThat(ControllerReplicas.notRecreated(evicted, store)).extracting(p -> p.metadata().name())
          .containsExactly("a");
    }
  }

  @Test
  void notRecreated_replicationControllerGone_keepsEveryPod() {
    try (ObjectStore store = ObjectStore.inMemory()) {
      OwnerReference ref = new OwnerReference("v1", "ReplicationController", "gone", "uid-1", true, true);
      assertThat(ControllerReplicas.notRecreated(List.of(pod("a", ref), pod("b", ref)), store)).hasSize(2);
    }
  }

  private static Pod pod(String name, OwnerReference owner) {
    return Pod.builder().metadata(ObjectMeta.builder().namespace("ns").name(name).ownerReference(owner).build())
        .container("app", "nginx:1", ResourceList.EMPTY).build();
  }
}
