package io.fleetkit.reconcile.controllers;

import static io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType.Delete;
import static io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType.Retain;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetPersistentVolumeClaimRetentionPolicy;
import io.fleetkit.api.apps.StatefulSetStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.controllers.StatefulSetHarness.Invariant;
import io.fleetkit.reconcile.controllers.internal.StatefulSetPods;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * API failures during StatefulSet syncs, ported from upstream {@code pkg/controller/statefulset/
 * stateful_set_control_test.go} (the version with the {@code MaxUnavailableStatefulSet} tests, read through the code
 * index): TestStatefulSetControl's {@code RecreatesFailedPod}, {@code RecreatesSucceededPod},
 * {@code RecreatesFailedPodWithDeleteFailure}, {@code RecreatesSucceededPodWithDeleteFailure},
 * {@code CreatePodFailure}, {@code UpdatePodFailure}, {@code UpdateSetStatusFailure} and
 * {@code NewRevisionDeletePodFailure}, each Monotonic and Burst, and {@code TestStatefulSetControlScaleDownDeleteError}
 * under the four retention policies and none. Upstream's fake object manager fails the request made after
 * {@code after} others, once ({@code SetCreateStatefulPodError(err, after)} and its siblings); {@link FailingWrites}
 * does the same in front of the store the controller writes to. Where upstream checks that a sync returned the
 * error, the port checks the Warning events the failure leaves (the pod control's {@code Failed<Verb>} and the
 * controller's {@code BackOff}); the controller retries with backoff, so the clock moves a second between syncs.
 */
final class StatefulSetApiFailuresTest {
  private static final String API_ERROR = "API server failed";

  /** The controller's view of the store: the chosen request fails once, after {@code after} others of its kind. */
  static final class FailingWrites extends ForwardingObjectStore {
    enum Op { CREATE, UPDATE, UPDATE_STATUS, DELETE }

    private final Map<String, int[]> requests = new HashMap<>();
    private String failing;
    private int after;

    FailingWrites(ObjectStore delegate) {
      super(delegate);
    }

    void failAfter(Op op, Class<?> kind, int after) {
      this.failing = key(op, kind);
      this.after = after;
    }

    int requests(Op op, Class<?> kind) {
      return requests.getOrDefault(key(op, kind), new int[1])[0];
    }

    private static String key(Op op, Class<?> kind) {
      return op + " " + kind.getSimpleName();
    }

    private void request(Op op, Class<?> kind) {
      String k = key(op, kind);
      int made = requests.computeIfAbsent(k, x -> new int[1])[0]++;
      if (k.equals(failing) && made >= after) {
        failing = null;
        throw new FleetKitException(API_ERROR);
      }
    }

    @Override
    public <T extends ApiObject<T>> T create(T object) {
      request(Op.CREATE, object.getClass());
      return super.create(object);
    }

    @Override
    public <T extends ApiObject<T>> T update(T object) {
      request(Op.UPDATE, object.getClass());
      return super.update(object);
    }

    @Override
    public <T extends ApiObject<T>> T updateStatus(T object) {
      request(Op.UPDATE_STATUS, object.getClass());
      return super.updateStatus(object);
    }

    @Override
    public <T extends ApiObject<T>> T delete(Class<T> kind, String namespace, String name, DeleteOptions options) {
      request(Op.DELETE, kind);
      return super.delete(kind, namespace, name, options);
    }
  }

  private final FailingWrites[] view = new FailingWrites[1];

  private StatefulSetHarness harness(boolean burst, StatefulSet set) {
    StatefulSetHarness h = new StatefulSetHarness(s -> view[0] = new FailingWrites(s));
    h.store.create(burst ? StatefulSetHarness.burst(set) : set);
    return h;
  }

  private static Invariant invariants(boolean burst) {
    return burst ? StatefulSetHarness::burstInvariants : StatefulSetHarness::monotonicInvariants;
  }

  /**
   * Syncs, plays the kubelet and lets a second pass between rounds (the backoff of a failed sync), checking the
   * invariants after each sync, until {@code done}.
   */
  private static void converge(StatefulSetHarness h, Invariant invariant, BooleanSupplier done) {
    for (int i = 0; i < 200; i++) {
      h.controller.runUntilIdle();
      invariant.check(h);
      if (done.getAsBoolean()) {
        return;
      }
      advanceOne(h);
      h.clock.advance(Duration.ofSeconds(1));
    }
    throw new AssertionError("did not converge: " + h.set().status() + ", events " + h.events);
  }

  /**
   * As upstream's {@code scaleUpStatefulSetControl}, one pod moves one step per round (the lowest ordinal first here,
   * where upstream picks at random): Pending to Running, or Running to Ready; pods being deleted go first.
   */
  private static void advanceOne(StatefulSetHarness h) {
    if (Sim.finishTerminating(h.store) > 0) {
      return;
    }
    for (Pod p : h.pods()) {
      if (p.status().phase() == PodPhase.Pending) {
        Sim.run(h.store, p, "node-" + StatefulSetPods.ordinal(p));
        return;
      }
      if (p.status().phase() == PodPhase.Running && !p.isReady()) {
        Sim.ready(h.store, h.clock, p, p.spec().nodeName());
        return;
      }
    }
  }

  private static boolean scaledUp(StatefulSetHarness h) {
    StatefulSet set = h.set();
    return set.status().readyReplicas() == set.spec().replicas() && h.pods().size() == set.spec().replicas();
  }

  private static void assertStatus(StatefulSetHarness h, int replicas, int ready, int updated) {
    StatefulSetStatus status = h.set().status();
    assertThat(status.replicas()).as("replicas").isEqualTo(replicas);
    assertThat(status.readyReplicas()).as("readyReplicas").isEqualTo(ready);
    assertThat(status.updatedReplicas()).as("updatedReplicas").isEqualTo(updated);
  }

  /** The controller's BackOff event: the sync failed with the injected error. */
  private static void assertSyncFailed(StatefulSetHarness h) {
    assertThat(h.events).anyMatch(e -> e.startsWith("Warning BackOff: ") && e.endsWith(API_ERROR));
  }

  private void sync(StatefulSetHarness h) {
    h.clock.advance(Duration.ofSeconds(1));
    assertThat(h.controller.controller().runOnce()).as("a sync ran").isTrue();
  }

  static Stream<Arguments> recreates() {
    List<Arguments> out = new ArrayList<>();
    for (PodPhase phase : List.of(PodPhase.Failed, PodPhase.Succeeded)) {
      for (boolean deleteFailure : List.of(false, true)) {
        for (boolean burst : List.of(false, true)) {
          out.add(Arguments.of("Recreates" + phase + "Pod" + (deleteFailure ? "WithDeleteFailure" : "") + "/"
              + (burst ? "Burst" : "Monotonic"), phase, deleteFailure, burst));
        }
      }
    }
    return out.stream();
  }

  /**
   * Upstream's {@code recreatesPod}: one sync creates the pods; the first turns terminal; (a sync whose delete fails;)
   * a sync deletes it; the next deletes nothing more and creates its replacement, a new pod not yet running.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("recreates")
  void recreatesPod(String name, PodPhase terminal, boolean deleteFailure, boolean burst) {
    try (StatefulSetHarness h = harness(burst, StatefulSetHarness.newStatefulSet(3))) {
      Invariant invariant = invariants(burst);
      int deletes = 0;
      sync(h);
      invariant.check(h);
      assertThat(view[0].requests(FailingWrites.Op.DELETE, Pod.class)).isEqualTo(deletes);
      Pod first = h.pods().get(0);
      h.store.updateStatus(first.withStatus(first.status().withPhase(terminal)));

      if (deleteFailure) {
        view[0].failAfter(FailingWrites.Op.DELETE, Pod.class, 0);
        deletes++;
        sync(h);
        assertSyncFailed(h);
        assertThat(h.events).contains("Warning FailedDelete: delete Pod foo-0 in StatefulSet foo failed error: "
            + API_ERROR);
        invariant.check(h);
        assertThat(view[0].requests(FailingWrites.Op.DELETE, Pod.class)).isEqualTo(deletes);
      }

      deletes++; // the pod is deleted
      sync(h);
      invariant.check(h);
      assertThat(view[0].requests(FailingWrites.Op.DELETE, Pod.class)).isEqualTo(deletes);
      assertThat(h.store.get(Pod.class, "default", "foo-0")).as("deleted, not yet recreated").isEmpty();

      sync(h); // no more deletions; the replacement is created
      invariant.check(h);
      assertThat(view[0].requests(FailingWrites.Op.DELETE, Pod.class)).isEqualTo(deletes);
      Pod recreated = h.store.require(Pod.class, "default", "foo-0");
      assertThat(recreated.metadata().uid()).isNotEqualTo(first.metadata().uid());
      assertThat(recreated.status().phase()).isEqualTo(PodPhase.Pending);
      assertThat(view[0].requests(FailingWrites.Op.CREATE, Pod.class)).isEqualTo(burst ? 3 + 1 : 2);
    }
  }

  /** Upstream's {@code CreatePodFailure}: the third pod create fails; the sync fails, and the set still converges. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(booleans = {false, true})
  void createPodFailure(boolean burst) {
    try (StatefulSetHarness h = harness(burst, StatefulSetHarness.newStatefulSet(3))) {
      view[0].failAfter(FailingWrites.Op.CREATE, Pod.class, 2);
      converge(h, invariants(burst), () -> scaledUp(h));
      assertThat(h.events).contains("Warning FailedCreate: create Pod foo-2 in StatefulSet foo failed error: "
          + API_ERROR);
      assertSyncFailed(h);
      assertStatus(h, 3, 3, 3);
      assertThat(view[0].requests(FailingWrites.Op.CREATE, Pod.class)).isEqualTo(4);
    }
  }

  /**
   * Upstream's {@code UpdatePodFailure}: after a good scale-up, a pod's identity is changed (upstream renames it to
   * {@code goo-0}; here its pod-name label says {@code goo-0}) and the update that restores it fails: the sync fails.
   * Not upstream: the next sync restores it.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(booleans = {false, true})
  void updatePodFailure(boolean burst) {
    try (StatefulSetHarness h = harness(burst, StatefulSetHarness.newStatefulSet(3))) {
      converge(h, invariants(burst), () -> scaledUp(h));
      assertStatus(h, 3, 3, 3);
      view[0].failAfter(FailingWrites.Op.UPDATE, Pod.class, 0);
      Pod pod = h.pods().get(0);
      Map<String, String> labels = new HashMap<>(pod.metadata().labels());
      labels.put(WorkloadLabels.STATEFULSET_POD_NAME, "goo-0");
      h.store.update(pod.withMetadata(pod.metadata().toBuilder().labels(labels).build()));

      h.controller.runUntilIdle();
      assertThat(h.events).contains("Warning FailedUpdate: update Pod foo-0 in StatefulSet foo failed error: "
          + API_ERROR);
      assertSyncFailed(h);

      h.clock.advance(Duration.ofSeconds(1));
      h.controller.runUntilIdle();
      assertThat(h.events).contains("Normal SuccessfulUpdate: update Pod foo-0 in StatefulSet foo successful");
      assertThat(StatefulSetPods.identityMatches(h.set(), h.pods().get(0))).isTrue();
    }
  }

  /** Upstream's {@code UpdateSetStatusFailure}: the third status write fails; the set still converges. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(booleans = {false, true})
  void updateSetStatusFailure(boolean burst) {
    try (StatefulSetHarness h = harness(burst, StatefulSetHarness.newStatefulSet(3))) {
      view[0].failAfter(FailingWrites.Op.UPDATE_STATUS, StatefulSet.class, 2);
      converge(h, invariants(burst), () -> scaledUp(h));
      assertSyncFailed(h);
      assertStatus(h, 3, 3, 3);
    }
  }

  /**
   * Upstream's {@code NewRevisionDeletePodFailure}: a new revision, and the rolling update's delete fails; the status
   * keeps 3 current replicas and names the new revision; when the delete works, 2 replicas are current.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(booleans = {false, true})
  void newRevisionDeletePodFailure(boolean burst) {
    try (StatefulSetHarness h = harness(burst, StatefulSetHarness.newStatefulSet(3))) {
      Invariant invariant = invariants(burst);
      converge(h, invariant, () -> scaledUp(h));
      assertThat(h.set().status().replicas()).isEqualTo(3);

      view[0].failAfter(FailingWrites.Op.DELETE, Pod.class, 0);
      h.update(s -> StatefulSetHarness.withImage(s, "nginx-new"));
      sync(h); // one sync, as upstream's one UpdateStatefulSet call
      assertThat(h.events).contains("Warning FailedDelete: delete Pod foo-2 in StatefulSet foo failed error: "
          + API_ERROR);
      assertSyncFailed(h);
      invariant.check(h);
      StatefulSetStatus status = h.set().status();
      assertThat(status.currentReplicas()).as("a failed deletion does not change currentReplicas").isEqualTo(3);
      assertThat(status.currentRevision()).as("a new revision").isNotEqualTo(status.updateRevision());

      sync(h);
      assertThat(h.set().status().currentReplicas()).as("the deletion counts").isEqualTo(2);
      invariant.check(h);
    }
  }

  static Stream<Arguments> policies() {
    return Stream.of("Retain", "ScaleDownOnly", "SetDeleteOnly", "Delete", "nullPolicy").map(Arguments::of);
  }

  /**
   * Upstream's {@code TestStatefulSetControlScaleDownDeleteError}: scaling 3 to 0, the third delete fails; the sync
   * fails, and the scale-down completes.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("policies")
  void scaleDownDeleteError(String policy) {
    StatefulSet set = StatefulSetHarness.newStatefulSet(3);
    set = switch (policy) {
      case "Retain" -> StatefulSetHarness.withPolicy(set, StatefulSetPersistentVolumeClaimRetentionPolicy.of(Retain,
          Retain));
      case "ScaleDownOnly" -> StatefulSetHarness.withPolicy(set,
          StatefulSetPersistentVolumeClaimRetentionPolicy.of(Retain, Delete));
      case "SetDeleteOnly" -> StatefulSetHarness.withPolicy(set,
          StatefulSetPersistentVolumeClaimRetentionPolicy.of(Delete, Retain));
      case "Delete" -> StatefulSetHarness.withPolicy(set, StatefulSetPersistentVolumeClaimRetentionPolicy.of(Delete,
          Delete));
      default -> set;
    };
    try (StatefulSetHarness h = harness(false, set)) {
      converge(h, StatefulSetHarness::monotonicInvariants, () -> scaledUp(h));
      view[0].failAfter(FailingWrites.Op.DELETE, Pod.class, 2);
      h.scale(0);
      converge(h, StatefulSetHarness::monotonicInvariants, () -> h.pods().isEmpty()
          && h.set().status().replicas() == 0);
      assertThat(h.events).contains("Warning FailedDelete: delete Pod foo-0 in StatefulSet foo failed error: "
          + API_ERROR);
      assertSyncFailed(h);
      assertStatus(h, 0, 0, 0);
      assertThat(view[0].requests(FailingWrites.Op.DELETE, Pod.class)).isEqualTo(4);
    }
  }
}
