package io.fleetkit.autoscale.vpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.DaemonSetStatus;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The updater's replica groups: pods grouped by their managing controller, with the controller's configured replicas.
 * Cases of kubernetes/autoscaler (master 55c37cd5) {@code vertical-pod-autoscaler/pkg/updater/restriction/
 * pods_restriction_factory_test.go}: TestEvictReplicatedByReplicaSet, TestEvictReplicatedByStatefulSet,
 * TestEvictReplicatedByDaemonSet and TestEvictReplicatedByJob, each with its controller object in a store and five
 * pods it manages (upstream's {@code GetCreatorMaps} over them, minReplicas 2, tolerance 0.5): every pod may be
 * evicted at first, then the first two evictions succeed and the other three fail. The other cases are FleetKit's,
 * from the same function's rules (no controller, too few replicas, a controller gone or without replicas, a rollout's
 * two ReplicaSets).
 */
final class ReplicaGroupsTest {
  private static final int MIN = 2;
  private final ObjectStore store = ObjectStore.inMemory();

  @AfterEach
  void close() {
    store.close();
  }

  private static PodSpec podSpec(RestartPolicy restart) {
    return PodSpec.builder().restartPolicy(restart).container("app", "nginx:1", ResourceList.EMPTY).build();
  }

  private static ReplicaSet replicaSet(String name, int replicas) {
    return ReplicaSet.builder().namespace("default").name(name).replicas(replicas).matchLabels(Map.of("app", name))
        .podSpec(podSpec(RestartPolicy.Always)).build();
  }

  /** {@code n} Running pods named {@code prefix-i} managed by {@code owner}. */
  private List<Pod> pods(@Nullable OwnerReference owner, String prefix, int n) {
    List<Pod> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ObjectMeta.Builder m = ObjectMeta.builder().namespace("default").name(prefix + "-" + i);
      if (owner != null) {
        m.ownerReference(owner);
      }
      out.add(store.create(Pod.builder().metadata(m.build()).container("app", "nginx:1", ResourceList.EMPTY)
          .status(PodStatus.of(PodPhase.Running)).build()));
    }
    return out;
  }

  private OwnerReference owner(ApiObject<?> created) {
    return OwnerReference.controllerOf(created);
  }

  static Stream<Arguments> upstreamPerKind() {
    Function<ObjectStore, ApiObject<?>> rs = s -> s.create(replicaSet("rs", 5));
    Function<ObjectStore, ApiObject<?>> ss = s -> s.create(StatefulSet.builder().namespace("default").name("ss")
        .replicas(5).matchLabels(Map.of("app", "ss")).podSpec(podSpec(RestartPolicy.Always)).build());
    Function<ObjectStore, ApiObject<?>> ds = s -> {
      DaemonSet d = s.create(DaemonSet.builder().namespace("default").name("ds").matchLabels(Map.of("app", "ds"))
          .podSpec(podSpec(RestartPolicy.Always)).build());
      return s.updateStatus(d.withStatus(new DaemonSetStatus(5, 0, 5, 5, 5, 5, 0, 1, null, List.of())));
    };
    Function<ObjectStore, ApiObject<?>> job = s -> s.create(Job.builder().namespace("default").name("job")
        .parallelism(5).podSpec(podSpec(RestartPolicy.Never)).build());
    Function<ObjectStore, ApiObject<?>> rc = s -> s.create(io.fleetkit.api.core.ReplicationController.builder()
        .namespace("default").name("rc").replicas(5).template(Map.of("app", "rc"), podSpec(RestartPolicy.Always))
        .build());
    return Stream.of(Arguments.of("TestEvictReplicatedByController (a ReplicationController)", rc),
        Arguments.of("TestEvictReplicatedByReplicaSet", rs),
        Arguments.of("TestEvictReplicatedByStatefulSet", ss),
        Arguments.of("TestEvictReplicatedByDaemonSet (status.numberReady 5)", ds),
        Arguments.of("TestEvictReplicatedByJob (its live pods)", job));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("upstreamPerKind")
  void of_upstreamPerKind_everyPodEvictableThenTwoEvictionsSucceed(String name,
      Function<ObjectStore, ApiObject<?>> controller) {
    List<Pod> pods = pods(owner(controller.apply(store)), "pod", 5);
    ReplicaGroups groups = ReplicaGroups.of(store, pods, MIN, 0.5);

    for (Pod p : pods) {
      assertThat(groups.of(p)).as(p.metadata().name()).isNotNull();
      assertThat(groups.of(p).canEvict(p)).as(p.metadata().name()).isTrue();
    }
    List<Boolean> evicted = new ArrayList<>();
    for (Pod p : pods) {
      PodsEvictionRestriction r = groups.of(p);
      boolean can = r.canEvict(p);
      if (can) {
        r.recordEviction(p);
      }
      evicted.add(can);
    }
    assertThat(evicted).containsExactly(true, true, false, false, false);
  }

  @Test
  void of_podsWithoutController_leftAlone() {
    List<Pod> pods = pods(null, "bare", 3);

    ReplicaGroups groups = ReplicaGroups.of(store, pods, MIN, 0.5);

    assertThat(groups.isEmpty()).isTrue();
    assertThat(groups.of(pods.get(0))).isNull();
  }

  @Test
  void of_groupBelowMinReplicas_leftAloneWhileAnotherGroupIsNot() {
    List<Pod> old = pods(owner(store.create(replicaSet("old", 1))), "old", 1);
    List<Pod> current = pods(owner(store.create(replicaSet("new", 4))), "new", 4);
    List<Pod> all = new ArrayList<>(old);
    all.addAll(current);

    ReplicaGroups groups = ReplicaGroups.of(store, all, MIN, 0.5);

    assertThat(groups.of(old.get(0))).isNull();
    assertThat(groups.of(current.get(0))).isNotNull();
  }

  @Test
  void of_rolloutsTwoReplicaSets_eachItsOwnTolerance() {
    List<Pod> old = pods(owner(store.create(replicaSet("old", 4))), "old", 4);
    List<Pod> current = pods(owner(store.create(replicaSet("new", 4))), "new", 4);
    List<Pod> all = new ArrayList<>(old);
    all.addAll(current);
    ReplicaGroups groups = ReplicaGroups.of(store, all, MIN, 0.5);

    int evicted = 0;
    for (Pod p : all) {
      PodsEvictionRestriction r = groups.of(p);
      if (r.canEvict(p)) {
        r.recordEviction(p);
        evicted++;
      }
    }

    // half of each ReplicaSet's 4, where one group of 8 pods with the Deployment's 4 replicas would allow 2 in all
    assertThat(evicted).isEqualTo(4);
    assertThat(groups.of(old.get(0))).isNotSameAs(groups.of(current.get(0)));
  }

  @Test
  void of_controllerGoneOrWithoutReplicas_leftAlone() {
    // a ReplicaSet that is not in the store
    OwnerReference goneRef = new OwnerReference("apps/v1", ReplicaSet.KIND, "gone", "uid-gone", true, true);
    List<Pod> orphans = pods(goneRef, "gone", 3);
    List<Pod> scaledToZero = pods(owner(store.create(replicaSet("zero", 0))), "zero", 3);
    DaemonSet notReady = store.create(DaemonSet.builder().namespace("default").name("ds")
        .matchLabels(Map.of("app", "ds")).podSpec(podSpec(RestartPolicy.Always)).build()); // numberReady 0
    List<Pod> daemons = pods(owner(notReady), "ds", 3);
    List<Pod> all = new ArrayList<>(orphans);
    all.addAll(scaledToZero);
    all.addAll(daemons);

    ReplicaGroups groups = ReplicaGroups.of(store, all, MIN, 0.5);

    assertThat(groups.isEmpty()).isTrue();
  }

  @Test
  void of_otherControllerKind_noConfiguredReplicas_podsDisruptableWhileRunning() {
    OwnerReference custom = new OwnerReference("example.com/v1", "Custom", "c", "uid-c", true, true);
    List<Pod> pods = pods(custom, "c", 3);

    ReplicaGroups groups = ReplicaGroups.of(store, pods, MIN, 0.5);

    // upstream's getReplicaCount answers 0 for a kind it does not know: tolerance 0, and more pods up than 0
    PodsEvictionRestriction r = groups.of(pods.get(0));
    assertThat(r).isNotNull();
    for (Pod p : pods) {
      assertThat(r.canEvict(p)).isTrue();
      r.recordEviction(p);
    }
  }
}
