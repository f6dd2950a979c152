package io.fleetkit.store.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.admission.Admission;
import io.fleetkit.api.admission.ConcurrentCreates;
import io.fleetkit.api.admission.QuotaAssertions;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two stores on one etcd prefix, each with its own standard admission chain (two FleetKit processes sharing a
 * cluster state): creating pods concurrently from both, they never pass a ResourceQuota together, because admission
 * into a shared store charges each quota by a compare-and-set of its status in etcd.
 */
@ExtendWith(LiveEtcd.class)
final class EtcdSharedQuotaTest {

  @Test
  void twoStoresCreatingConcurrently_neverPassTheQuota_andTheStatusCountsTheStoredPods() throws Exception {
    String prefix = "/fleetkit-test/" + UUID.randomUUID();
    int hardPods = 5;
    int hardMilliCpu = 1000;
    try (ObjectStore a = EtcdStore.builder(LiveEtcd.endpoint()).prefix(prefix).admission(Admission.standard())
        .build();
        ObjectStore b = EtcdStore.builder(LiveEtcd.endpoint()).prefix(prefix).admission(Admission.standard())
            .build()) {
      assertThat(a.sharedWithOtherProcesses()).isTrue();
      a.create(Namespace.of("team"));
      a.create(ResourceQuota.of("team", "compute", ResourceList.builder().put("pods", String.valueOf(hardPods))
          .put("requests.cpu", hardMilliCpu + "m").build()));
      ObjectStore[] stores = {a, b};
      int attempts = 16;
      List<Pod> pods = new ArrayList<>();
      for (int i = 0; i < attempts; i++) {
        pods.add(pod("p-" + i, 100));
      }
      int denied = ConcurrentCreates.run(4, pods, (i, pod) -> stores[i % 2].create(pod),
          e -> assertThat(e.rule()).startsWith("exceeded quota: compute, requested: "));

      List<Pod> stored = QuotaAssertions.assertWithinQuotaAndCounted(b, "team", "compute");
      // 16 creates of 100m against 5 pods and 1000m: exactly 5 admitted, by the two stores together.
      assertThat(stored).hasSize(hardPods);
      assertThat(denied).isEqualTo(attempts - hardPods);
      assertThat(a.list(Pod.class, "team").items()).isEqualTo(stored); // one state, seen by both
    }
  }

  private static Pod pod(String name, int milliCpu) {
    ResourceList requests = ResourceList.builder().put("cpu", milliCpu + "m").build();
    return Pod.of(ObjectMeta.of("team", name), PodSpec.builder().container(Container.of("c", "img", requests))
        .build());
  }
}
