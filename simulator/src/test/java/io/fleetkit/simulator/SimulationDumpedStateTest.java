package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A simulation started from a cluster's dump ({@code examples/real-cluster-dump}, as {@code kubectl get -o yaml}
 * prints it): the dumped objects are created although they carry a resourceVersion, and a dumped pod stays owned by
 * its dumped ReplicaSet (and that by its Deployment) under the uids the store gives them, rather than being
 * orphaned and replaced.
 */
final class SimulationDumpedStateTest {
  private static List<ApiObject<?>> dump() {
    return KubernetesYaml.load(List.of(Examples.cluster().resolveSibling("real-cluster-dump"))).objects();
  }

  @Test
  void simulate_dumpedCluster_keepsTheDumpedPodsOwnedAndCreatesNoOthers() {
    try (Simulation sim = Simulation.builder().objects(dump()).build()) {
      sim.runFor(Duration.ofMinutes(10));

      ReplicaSet rs = sim.store().require(ReplicaSet.class, "storefront", "web-5d9c8f7b6c");
      Deployment dep = sim.store().require(Deployment.class, "storefront", "web");
      assertThat(sim.store().list(ReplicaSet.class, "storefront").items()).hasSize(1);
      assertThat(rs.metadata().uid()).isNotEqualTo("99999999-8888-7777-6666-555555555555"); // the store's own
      assertThat(rs.metadata().ownerReferences()).extracting(OwnerReference::uid)
          .containsExactly(dep.metadata().uid());
      List<Pod> pods = sim.store().list(Pod.class, "storefront").items();
      assertThat(pods).extracting(p -> p.metadata().name())
          .containsExactlyInAnyOrder("web-5d9c8f7b6c-abcde", "web-5d9c8f7b6c-fghij");
      assertThat(pods).allSatisfy(p -> assertThat(p.metadata().ownerReferences()).extracting(OwnerReference::uid)
          .containsExactly(rs.metadata().uid()));
      assertThat(pods).allSatisfy(p -> assertThat(p.isReady()).as(p.metadata().name()).isTrue());
      assertThat(sim.timeline()).noneMatch(e -> e.kind().equals("Rejected"));
    }
  }

  @Test
  void ownersFirst_putsOwnersBeforeWhatTheyOwn_andKeepsTheRestInOrder() {
    ConfigMap a = withMeta(ConfigMap.of("default", "a", Map.of()), "uid-a", List.of("uid-c"));
    ConfigMap b = withMeta(ConfigMap.of("default", "b", Map.of()), "", List.of());
    ConfigMap c = withMeta(ConfigMap.of("default", "c", Map.of()), "uid-c", List.of("uid-d"));
    ConfigMap d = withMeta(ConfigMap.of("default", "d", Map.of()), "uid-d", List.of("uid-elsewhere"));

    assertThat(DumpedState.ownersFirst(List.of(a, b, c, d))).extracting(o -> o.metadata().name())
        .containsExactly("d", "c", "a", "b");
    assertThat(DumpedState.ownersFirst(List.of(b))).containsExactly(b);
    ConfigMap loop1 = withMeta(ConfigMap.of("default", "l1", Map.of()), "uid-1", List.of("uid-2"));
    ConfigMap loop2 = withMeta(ConfigMap.of("default", "l2", Map.of()), "uid-2", List.of("uid-1"));
    assertThat(DumpedState.ownersFirst(List.of(loop1, loop2))).hasSize(2);
  }

  @Test
  void prepare_clearsTheResourceVersionAndPointsOwnersAtTheirNewUids() {
    DumpedState state = new DumpedState();
    ConfigMap owner = withMeta(ConfigMap.of("default", "o", Map.of()), "dumped-o", List.of());
    state.created(owner, owner.withMetadata(owner.metadata().toBuilder().uid("uid-00000007").build()));
    ConfigMap owned = withMeta(ConfigMap.of("default", "x", Map.of()), "dumped-x", List.of("dumped-o", "gone"));
    owned = owned.withMetadata(owned.metadata().toBuilder().resourceVersion("42").build());

    ApiObject<?> ready = state.prepare(owned);
    assertThat(ready.metadata().resourceVersion()).isEmpty();
    assertThat(ready.metadata().ownerReferences()).extracting(OwnerReference::uid)
        .containsExactly("uid-00000007", "gone");
    ConfigMap plain = ConfigMap.of("default", "p", Map.of());
    assertThat(state.prepare(plain)).isSameAs(plain);
  }

  private static ConfigMap withMeta(ConfigMap cm, String uid, List<String> ownerUids) {
    ObjectMeta.Builder m = cm.metadata().toBuilder().uid(uid).ownerReferences(ownerUids.stream()
        .map(u -> new OwnerReference("v1", "ConfigMap", "owner-" + u, u, false, false)).toList());
    return cm.withMetadata(m.build());
  }

}
