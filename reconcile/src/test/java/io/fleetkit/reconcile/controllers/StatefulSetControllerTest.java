package io.fleetkit.reconcile.controllers;

import static io.fleetkit.reconcile.controllers.StatefulSetHarness.burst;
import static io.fleetkit.reconcile.controllers.StatefulSetHarness.newStatefulSet;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetUpdateStrategy;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.reconcile.GarbageCollector;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.controllers.StatefulSetHarness.Invariant;
import io.fleetkit.reconcile.controllers.internal.ControllerHistory;
import io.fleetkit.reconcile.controllers.internal.StatefulSetPods;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The StatefulSet controller in stepping mode. The parameterized scenarios are ported from upstream
 * {@code pkg/controller/statefulset/stateful_set_control_test.go} {@code TestStatefulSetControl} (CreatesPods,
 * ScalesUp, ScalesDown, ReplacesPods, RecreatesFailedPod, RecreatesSucceededPod, RecreatesPVCForPendingPod), each
 * run "Monotonic" (OrderedReady, {@code assertMonotonicInvariants}) and "Burst" (Parallel,
 * {@code assertBurstInvariants}), with the Retain claim policy.
 */
final class StatefulSetControllerTest {

  static Stream<Arguments> modes() {
    return Stream.of(
        Arguments.of("Monotonic", false, (Invariant) StatefulSetHarness::monotonicInvariants),
        Arguments.of("Burst", true, (Invariant) StatefulSetHarness::burstInvariants));
  }

  private static StatefulSet set(int replicas, boolean burst) {
    StatefulSet s = newStatefulSet(replicas);
    return burst ? burst(s) : s;
  }

  // upstream: CreatesPods
  @ParameterizedTest(name = "{0}")
  @MethodSource("modes")
  void createsPods_threeReplicas_allReadyAndUpdatedWithIndexLabels(String mode, boolean burst, Invariant inv) {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(set(3, burst));
      h.scaleUp(inv);
      StatefulSet s = h.set();
      assertThat(s.status().replicas()).isEqualTo(3);
      assertThat(s.status().readyReplicas()).isEqualTo(3);
      assertThat(s.status().updatedReplicas()).isEqualTo(3);
      assertThat(h.pods()).extracting(p -> p.metadata().name()).containsExactly("foo-0", "foo-1", "foo-2");
      for (Pod p : h.pods()) {
        assertThat(p.metadata().labels()).containsEntry(WorkloadLabels.POD_INDEX,
            Integer.toString(StatefulSetPods.ordinal(p)));
      }
    }
  }

  // upstream: ScalesUp
  @ParameterizedTest(name = "{0}")
  @MethodSource("modes")
  void scalesUp_threeToFour_fourReady(String mode, boolean burst, Invariant inv) {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(set(3, burst));
      h.scaleUp(inv);
      h.scale(4);
      h.scaleUp(inv);
      StatefulSet s = h.set();
      assertThat(s.status().replicas()).isEqualTo(4);
      assertThat(s.status().readyReplicas()).isEqualTo(4);
      assertThat(s.status().updatedReplicas()).isEqualTo(4);
    }
  }

  // upstream: ScalesDown
  @ParameterizedTest(name = "{0}")
  @MethodSource("modes")
  void scalesDown_toZero_noPodsClaimsRetained(String mode, boolean burst, Invariant inv) {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(set(3, burst));
      h.scaleUp(inv);
      h.scale(0);
      h.scaleDown(inv);
      StatefulSet s = h.set();
      assertThat(s.status().replicas()).isZero();
      assertThat(s.status().readyReplicas()).isZero();
      assertThat(s.status().updatedReplicas()).isZero();
      assertThat(h.pods()).isEmpty();
      assertThat(h.claims()).extracting(c -> c.metadata().name())
          .containsExactlyInAnyOrder("datadir-foo-0", "datadir-foo-1", "datadir-foo-2");
    }
  }

  // upstream: ReplacesPods
  @ParameterizedTest(name = "{0}")
  @MethodSource("modes")
  void replacesPods_evenOrdinalsDeleted_recreatedWithSameClaims(String mode, boolean burst, Invariant inv) {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(set(5, burst));
      h.scaleUp(inv);
      for (PersistentVolumeClaim c : h.claims()) {
        assertThat(c.metadata().ownerReferences()).as("Retain: no owner on %s", c.metadata().name()).isEmpty();
      }
      for (int i = 0; i < 5; i += 2) {
        h.store.delete(Pod.class, "default", "foo-" + i);
      }
      h.scaleUp(StatefulSetHarness::burstInvariants);
      assertThat(h.set().status().replicas()).isEqualTo(5);
      assertThat(h.claims()).hasSize(5);
      assertThat(h.pods()).extracting(p -> p.spec().volumes().stream().filter(v -> v.claim() != null)
          .findFirst().orElseThrow().claim().claimName())
          .containsExactly("datadir-foo-0", "datadir-foo-1", "datadir-foo-2", "datadir-foo-3", "datadir-foo-4");
    }
  }

  // upstream: RecreatesFailedPod, RecreatesSucceededPod
  @ParameterizedTest(name = "{0}")
  @MethodSource("modes")
  void recreatesTerminalPod_failedOrSucceeded_newPodSameName(String mode, boolean burst, Invariant inv) {
    for (PodPhase terminal : List.of(PodPhase.Failed, PodPhase.Succeeded)) {
      try (StatefulSetHarness h = new StatefulSetHarness()) {
        h.store.create(set(3, burst));
        h.controller.runUntilIdle();
        Pod first = h.pods().get(0);
        h.store.updateStatus(first.withStatus(first.status().withPhase(terminal)));
        h.controller.runUntilIdle();
        Pod again = h.store.require(Pod.class, "default", "foo-0");
        assertThat(again.metadata().uid()).as(terminal.name()).isNotEqualTo(first.metadata().uid());
        assertThat(again.status().phase()).isEqualTo(PodPhase.Pending);
        inv.check(h);
      }
    }
  }

  // upstream: RecreatesPVCForPendingPod
  @ParameterizedTest(name = "{0}")
  @MethodSource("modes")
  void recreatesClaim_pendingPodClaimDeleted_claimCreatedAgain(String mode, boolean burst, Invariant inv) {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(set(3, burst));
      h.controller.runUntilIdle();
      assertThat(h.pods().get(0).status().phase()).isEqualTo(PodPhase.Pending);
      h.store.delete(PersistentVolumeClaim.class, "default", "datadir-foo-0");
      h.controller.controller().enqueue(io.fleetkit.reconcile.ObjectKey.of("default", "foo"));
      h.controller.runUntilIdle();
      assertThat(h.store.get(PersistentVolumeClaim.class, "default", "datadir-foo-0")).isPresent();
    }
  }

  @Test
  void orderedReady_scaleUp_createsOneAtATimeWaitingForReady() {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(newStatefulSet(3));
      h.controller.runUntilIdle();
      assertThat(h.pods()).extracting(p -> p.metadata().name()).containsExactly("foo-0");
      assertThat(h.claims()).extracting(c -> c.metadata().name()).containsExactly("datadir-foo-0");
      Sim.run(h.store, h.pods().get(0), "n");
      h.controller.runUntilIdle();
      assertThat(h.pods()).as("running but not ready: wait").hasSize(1);
      Sim.ready(h.store, h.clock, h.pods().get(0), "n");
      h.controller.runUntilIdle();
      assertThat(h.pods()).extracting(p -> p.metadata().name()).containsExactly("foo-0", "foo-1");
    }
  }

  @Test
  void orderedReady_scaleDown_deletesHighestOrdinalFirstOneAtATime() {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(newStatefulSet(3));
      h.scaleUp(StatefulSetHarness::monotonicInvariants);
      h.scale(1);
      h.controller.runUntilIdle();
      // foo-2 terminates first; the set waits until it is gone before it deletes foo-1
      assertThat(h.pods()).extracting(p -> p.metadata().name() + (p.metadata().deletionTimestamp() != null
          ? " terminating" : "")).containsExactly("foo-0", "foo-1", "foo-2 terminating");
      Sim.finishTerminating(h.store);
      h.controller.runUntilIdle();
      assertThat(h.pods()).extracting(p -> p.metadata().name() + (p.metadata().deletionTimestamp() != null
          ? " terminating" : "")).containsExactly("foo-0", "foo-1 terminating");
      Sim.finishTerminating(h.store);
      h.controller.runUntilIdle();
      assertThat(h.pods()).extracting(p -> p.metadata().name()).containsExactly("foo-0");
      Pod zero = h.pods().get(0);
      // make foo-0 unready and scale up: foo-1 must wait for it
      h.store.updateStatus(zero.withStatus(zero.status().withPhase(PodPhase.Pending)));
      h.scale(3);
      h.controller.runUntilIdle();
      assertThat(h.pods()).hasSize(1);
    }
  }

  @Test
  void parallel_scaleUp_createsAllAtOnce() {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(burst(newStatefulSet(4)));
      h.controller.runUntilIdle();
      assertThat(h.pods()).extracting(p -> p.metadata().name()).containsExactly("foo-0", "foo-1", "foo-2", "foo-3");
      assertThat(h.claims()).hasSize(4);
    }
  }

  @Test
  void newPod_identity_hostnameSubdomainOwnerAndRevision() {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      StatefulSet created = h.store.create(newStatefulSet(1));
      h.controller.runUntilIdle();
      Pod p = h.pods().get(0);
      assertThat(p.metadata().annotations()).containsEntry(WorkloadLabels.HOSTNAME, "foo-0")
          .containsEntry(WorkloadLabels.SUBDOMAIN, "governingsvc");
      assertThat(p.metadata().labels()).containsEntry(WorkloadLabels.STATEFULSET_POD_NAME, "foo-0")
          .containsEntry("foo", "bar");
      OwnerReference ref = p.metadata().controllerRef();
      assertThat(ref).isNotNull();
      assertThat(ref.uid()).isEqualTo(created.metadata().uid());
      StatefulSet s = h.set();
      assertThat(p.metadata().labels()).containsEntry(WorkloadLabels.CONTROLLER_REVISION_HASH,
          s.status().updateRevision());
      assertThat(s.status().updateRevision()).startsWith("foo-");
      assertThat(s.status().currentRevision()).isEqualTo(s.status().updateRevision());
      assertThat(p.spec().volumes()).extracting(v -> v.name()).containsExactly("home", "datadir");
    }
  }

  @Test
  void rollingUpdate_waitsForEachPodReadyAndGoesFromHighestOrdinal() {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(newStatefulSet(3));
      h.scaleUp(StatefulSetHarness::monotonicInvariants);
      String oldRevision = h.set().status().currentRevision();
      h.update(s -> StatefulSetHarness.withImage(s, "foo"));
      h.controller.runUntilIdle();
      assertThat(h.pods().get(2).metadata().deletionTimestamp()).as("foo-2 terminating").isNotNull();
      Sim.finishTerminating(h.store);
      h.controller.runUntilIdle();
      assertThat(h.pods()).extracting(p -> p.metadata().name()).containsExactly("foo-0", "foo-1", "foo-2");
      assertThat(h.images()).containsExactly("nginx", "nginx", "foo");
      assertThat(h.set().status().currentRevision()).isEqualTo(oldRevision);
      assertThat(h.set().status().updatedReplicas()).isEqualTo(1);
      assertThat(h.set().status().currentReplicas()).isEqualTo(2);
      h.controller.runUntilIdle();
      assertThat(h.images()).as("foo-2 not ready yet: wait").containsExactly("nginx", "nginx", "foo");
      h.advancePods();
      h.advancePods();
      h.controller.runUntilIdle();
      assertThat(h.pods().get(1).metadata().deletionTimestamp()).as("foo-1 terminating").isNotNull();
      Sim.finishTerminating(h.store);
      h.controller.runUntilIdle();
      assertThat(h.images()).containsExactly("nginx", "foo", "foo");
      h.updateUntilSettled(StatefulSetHarness::updateInvariants);
      StatefulSet s = h.set();
      assertThat(h.images()).containsExactly("foo", "foo", "foo");
      assertThat(s.status().currentRevision()).isEqualTo(s.status().updateRevision()).isNotEqualTo(oldRevision);
      assertThat(s.status().currentReplicas()).isEqualTo(3);
    }
  }

  @Test
  void onDelete_templateChange_onlyDeletedPodsGetNewRevision() {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(StatefulSetHarness.withStrategy(newStatefulSet(3), StatefulSetUpdateStrategy.ON_DELETE));
      h.scaleUp(StatefulSetHarness::monotonicInvariants);
      h.update(s -> StatefulSetHarness.withImage(s, "foo"));
      h.updateUntilSettled(StatefulSetHarness::updateInvariants);
      assertThat(h.images()).containsExactly("nginx", "nginx", "nginx");
      h.store.delete(Pod.class, "default", "foo-1");
      h.updateUntilSettled(StatefulSetHarness::updateInvariants);
      assertThat(h.images()).containsExactly("nginx", "foo", "nginx");
      assertThat(h.set().status().updatedReplicas()).isEqualTo(1);
    }
  }

  @Test
  void partition_podBelowPartitionDeleted_recreatedAtCurrentRevision() {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(StatefulSetHarness.withPartition(newStatefulSet(3), 2));
      h.scaleUp(StatefulSetHarness::monotonicInvariants);
      h.update(s -> StatefulSetHarness.withImage(s, "foo"));
      h.updateUntilSettled(StatefulSetHarness::updateInvariants);
      assertThat(h.images()).containsExactly("nginx", "nginx", "foo");
      h.store.delete(Pod.class, "default", "foo-0");
      h.updateUntilSettled(StatefulSetHarness::updateInvariants);
      assertThat(h.images()).containsExactly("nginx", "nginx", "foo");
      StatefulSet s = h.set();
      assertThat(s.status().currentReplicas()).isEqualTo(2);
      assertThat(s.status().updatedReplicas()).isEqualTo(1);
      assertThat(s.status().currentRevision()).isNotEqualTo(s.status().updateRevision());
    }
  }

  @Test
  void orphanMemberPod_matchingSelector_isAdopted() {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      StatefulSet set = burst(newStatefulSet(1)); // OrderedReady fixes identity only once the pod is ready
      // the orphan has its claim volumes: a pod's volumes cannot be changed by an update (ValidatePodUpdate), so
      // only its identity (labels and annotations) is repaired
      h.store.create(StatefulSetPods.updateStorage(set, Pod.builder().namespace("default").name("foo-0")
          .label("foo", "bar").spec(set.spec().template().spec()).build()));
      StatefulSet created = h.store.create(set);
      h.controller.runUntilIdle();
      Pod p = h.store.require(Pod.class, "default", "foo-0");
      assertThat(p.metadata().controllerRef()).isNotNull();
      assertThat(p.metadata().controllerRef().uid()).isEqualTo(created.metadata().uid());
      assertThat(StatefulSetPods.identityMatches(h.set(), p)).isTrue();
    }
  }

  @Test
  void revisions_templateChanges_ownedControllerRevisionsNamedInStatusAndPodLabels() {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(newStatefulSet(2));
      h.scaleUp(StatefulSetHarness::monotonicInvariants);
      StatefulSet s = h.set();
      ControllerRevision first = h.store.require(ControllerRevision.class, "default", s.status().updateRevision());
      assertThat(first.revision()).isEqualTo(1);
      assertThat(first.data()).isEqualTo(s.spec().template());
      assertThat(first.metadata().controllerRef().uid()).isEqualTo(s.metadata().uid());
      assertThat(first.metadata().labels()).containsEntry("foo", "bar")
          .containsKey(ControllerHistory.HASH_LABEL);
      assertThat(s.status().collisionCount()).isZero();
      assertThat(h.pods()).allSatisfy(p -> assertThat(StatefulSetPods.revision(p))
          .isEqualTo(first.metadata().name()));

      h.update(spec -> StatefulSetHarness.withImage(spec, "foo"));
      h.updateUntilSettled(StatefulSetHarness::updateInvariants);

      s = h.set();
      ControllerRevision second = h.store.require(ControllerRevision.class, "default", s.status().updateRevision());
      assertThat(second.revision()).isEqualTo(2);
      assertThat(second.metadata().name()).isNotEqualTo(first.metadata().name()).startsWith("foo-");
      assertThat(s.status().currentRevision()).isEqualTo(second.metadata().name());
      assertThat(h.revisions()).hasSize(2);
    }
  }

  @Test
  void garbageCollector_setDeleted_itsRevisionsAndPodsDeleted() {
    try (StatefulSetHarness h = new StatefulSetHarness();
         GarbageCollector gc = GarbageCollector.builder(h.store).watch(StatefulSet.class)
             .watch(ControllerRevision.class).watch(Pod.class).stepping().clock(h.clock).build()) {
      gc.start().join();
      h.store.create(newStatefulSet(2));
      h.scaleUp(StatefulSetHarness::monotonicInvariants);
      h.update(spec -> StatefulSetHarness.withImage(spec, "foo"));
      h.updateUntilSettled(StatefulSetHarness::updateInvariants);
      gc.runUntilIdle();
      assertThat(h.store.list(ControllerRevision.class, "default").items()).hasSize(2);

      h.store.delete(StatefulSet.class, "default", "foo", DeletePreconditions.NONE);
      h.controller.runUntilIdle();
      gc.runUntilIdle();
      Sim.finishTerminating(h.store); // the kubelets end the pods the collector deleted

      assertThat(h.store.list(ControllerRevision.class, "default").items()).isEmpty();
      assertThat(h.store.list(Pod.class, "default").items()).isEmpty();
    }
  }

  /** Upstream's addPod for an orphan: every set whose selector matches it is queued, whatever the pod's name. */
  @Test
  void orphanPod_matchingSelector_queuesTheSet() {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      StatefulSet created = h.store.create(burst(newStatefulSet(0)));
      h.controller.runUntilIdle();
      h.store.create(Pod.builder().namespace("default").name("stray").label("foo", "bar")
          .spec(created.spec().template().spec()).build());
      assertThat(Sim.drain(h.controller.controller())).containsExactly(ObjectKey.of(created));
      h.controller.runUntilIdle();
      assertThat(h.store.require(Pod.class, "default", "stray").metadata().controllerRef())
          .as("not a member: not adopted").isNull();
    }
  }
}
