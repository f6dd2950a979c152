package io.fleetkit.reconcile.controllers;

import static io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType.Delete;
import static io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType.Retain;
import static io.fleetkit.reconcile.controllers.StatefulSetHarness.burst;
import static io.fleetkit.reconcile.controllers.StatefulSetHarness.newStatefulSet;
import static io.fleetkit.reconcile.controllers.StatefulSetHarness.withPolicy;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetPersistentVolumeClaimRetentionPolicy;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.reconcile.GarbageCollector;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.controllers.StatefulSetHarness.Invariant;
import io.fleetkit.reconcile.controllers.internal.StatefulSetClaimOwnership;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code TestStatefulSetControl}'s scenarios under each claim retention policy, as upstream's
 * {@code runTestOverPVCRetentionPolicies} runs them, from kubernetes
 * {@code pkg/controller/statefulset/stateful_set_control_test.go} (the version with
 * TestStatefulSetControlWithStartOrdinal and RecreatesPVCForPendingPod, read through the code index; its commit was not
 * recorded there): CreatesPods, ScalesUp, ScalesDown, ReplacesPods, RecreatesFailedPod, RecreatesSucceededPod and
 * RecreatesPVCForPendingPod, each Monotonic and Burst, under Retain, ScaleDownOnly, SetDeleteOnly, Delete and the
 * unset policy ("nullPolicy", Retain by default). After every sync the invariants include upstream's
 * {@code checkClaimInvariants} (the owner references a running and ready pod's claims must have). ScalesDown runs a
 * garbage collector where upstream's driver deletes the claims referencing deleted pods by hand. Also run under the
 * five policies, as upstream does: TestStatefulSetControlOnDeleteUpdate (6 cases) and
 * TestStatefulSetControlRollingUpdateWithPartition (4 cases).
 */
final class StatefulSetRetentionPolicyTest {

  static Stream<Arguments> runs() {
    List<Arguments> out = new ArrayList<>();
    for (String policy : List.of("Retain", "ScaleDownOnly", "SetDeleteOnly", "Delete", "nullPolicy")) {
      out.add(Arguments.of("Monotonic/" + policy, false, policy,
          (Invariant) StatefulSetHarness::monotonicInvariants));
      out.add(Arguments.of("Burst/" + policy, true, policy, (Invariant) StatefulSetHarness::burstInvariants));
    }
    return out.stream();
  }

  /** Upstream's {@code pvcDeletePolicyString} read backwards; nullPolicy is the builder's default. */
  private static StatefulSet set(int replicas, boolean burst, String policy) {
    StatefulSet s = newStatefulSet(replicas);
    s = burst ? burst(s) : s;
    return switch (policy) {
      case "Retain" -> withPolicy(s, StatefulSetPersistentVolumeClaimRetentionPolicy.of(Retain, Retain));
      case "ScaleDownOnly" -> withPolicy(s, StatefulSetPersistentVolumeClaimRetentionPolicy.of(Retain, Delete));
      case "SetDeleteOnly" -> withPolicy(s, StatefulSetPersistentVolumeClaimRetentionPolicy.of(Delete, Retain));
      case "Delete" -> withPolicy(s, StatefulSetPersistentVolumeClaimRetentionPolicy.of(Delete, Delete));
      case "nullPolicy" -> s;
      default -> throw new IllegalArgumentException(policy);
    };
  }

  private static PersistentVolumeClaimRetentionPolicyType whenScaled(StatefulSet set) {
    return set.spec().persistentVolumeClaimRetentionPolicy().whenScaled();
  }

  // upstream: CreatesPods
  @ParameterizedTest(name = "{0}")
  @MethodSource("runs")
  void createsPods(String name, boolean burst, String policy, Invariant inv) {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(set(3, burst, policy));
      h.scaleUp(inv);
      StatefulSet s = h.set();
      assertThat(s.status().replicas()).isEqualTo(3);
      assertThat(s.status().readyReplicas()).isEqualTo(3);
      assertThat(s.status().updatedReplicas()).isEqualTo(3);
    }
  }

  // upstream: ScalesUp
  @ParameterizedTest(name = "{0}")
  @MethodSource("runs")
  void scalesUp(String name, boolean burst, String policy, Invariant inv) {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(set(3, burst, policy));
      h.scaleUp(inv);
      h.scale(4);
      h.scaleUp(inv);
      StatefulSet s = h.set();
      assertThat(s.status().replicas()).isEqualTo(4);
      assertThat(s.status().readyReplicas()).isEqualTo(4);
      assertThat(s.status().updatedReplicas()).isEqualTo(4);
    }
  }

  // upstream: ScalesDown (its driver deletes the claims of deleted pods that reference them: the collector here)
  @ParameterizedTest(name = "{0}")
  @MethodSource("runs")
  void scalesDown(String name, boolean burst, String policy, Invariant inv) {
    try (StatefulSetHarness h = new StatefulSetHarness();
         GarbageCollector gc = GarbageCollector.builder(h.store).watch(StatefulSet.class)
             .watch(ControllerRevision.class).watch(Pod.class).watch(PersistentVolumeClaim.class).stepping()
             .clock(h.clock).build()) {
      gc.start().join();
      h.store.create(set(3, burst, policy));
      h.scaleUp(inv);
      h.scale(0);
      h.scaleDown(inv);
      gc.runUntilIdle();
      StatefulSet s = h.set();
      assertThat(s.status().replicas()).isZero();
      assertThat(s.status().readyReplicas()).isZero();
      assertThat(s.status().updatedReplicas()).isZero();
      assertThat(h.claims()).as("whenScaled %s", whenScaled(s)).hasSize(whenScaled(s) == Retain ? 3 : 0);
      inv.check(h);
    }
  }

  // upstream: ReplacesPods
  @ParameterizedTest(name = "{0}")
  @MethodSource("runs")
  void replacesPods(String name, boolean burst, String policy, Invariant inv) {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(set(5, burst, policy));
      h.scaleUp(inv);
      assertThat(h.set().status().replicas()).isEqualTo(5);
      for (Pod pod : h.pods()) {
        for (PersistentVolumeClaim c : h.claims()) {
          assertThat(StatefulSetClaimOwnership.hasOwnerRef(c.metadata().ownerReferences(), pod.metadata().uid()))
              .as("unexpected owner reference to %s on %s", pod.metadata().name(), c.metadata().name()).isFalse();
        }
      }
      for (int i = 0; i < 5; i += 2) {
        h.store.delete(Pod.class, "default", "foo-" + i);
      }
      h.scaleUp(StatefulSetHarness::burstInvariants);
      assertThat(h.set().status().replicas()).isEqualTo(5);
      assertThat(h.claims()).as("in-range claims are never the pod's").hasSize(5);
    }
  }

  // upstream: RecreatesFailedPod, RecreatesSucceededPod
  @ParameterizedTest(name = "{0}")
  @MethodSource("runs")
  void recreatesTerminalPod(String name, boolean burst, String policy, Invariant inv) {
    for (PodPhase terminal : List.of(PodPhase.Failed, PodPhase.Succeeded)) {
      try (StatefulSetHarness h = new StatefulSetHarness()) {
        h.store.create(set(3, burst, policy));
        h.controller.runUntilIdle();
        inv.check(h);
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
  @MethodSource("runs")
  void recreatesPvcForPendingPod(String name, boolean burst, String policy, Invariant inv) {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(set(3, burst, policy));
      h.controller.runUntilIdle();
      inv.check(h);
      h.store.delete(PersistentVolumeClaim.class, "default", "datadir-foo-0");
      h.controller.controller().enqueue(ObjectKey.of("default", "foo"));
      h.controller.runUntilIdle();
      inv.check(h); // every pod's claim exists again
      PersistentVolumeClaim claim = h.store.require(PersistentVolumeClaim.class, "default", "datadir-foo-0");
      boolean setDelete = h.set().spec().persistentVolumeClaimRetentionPolicy().whenDeleted() == Delete;
      assertThat(StatefulSetClaimOwnership.hasOwnerRef(claim.metadata().ownerReferences(),
          h.set().metadata().uid())).as("the recreated claim gets the policy's references").isEqualTo(setDelete);
    }
  }

  static Stream<Arguments> policies() {
    return Stream.of("Retain", "ScaleDownOnly", "SetDeleteOnly", "Delete", "nullPolicy").map(Arguments::of);
  }

  private static List<String> images(int n, int fooFrom) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(i >= fooFrom ? "foo" : StatefulSetHarness.ORIGINAL_IMAGE);
    }
    return out;
  }

  /** A case of TestStatefulSetControlOnDeleteUpdate or ...RollingUpdateWithPartition (partition 2). */
  private record UpdateCase(String name, boolean burst, int initial, int replicas, List<String> afterUpdate,
      List<String> afterRestart) {}

  private static final List<UpdateCase> ON_DELETE = List.of(
      new UpdateCase("monotonic image update", false, 3, 3, images(3, 3), images(3, 0)),
      new UpdateCase("monotonic image update and scale up", false, 3, 5, images(5, 3), images(5, 0)),
      new UpdateCase("monotonic image update and scale down", false, 5, 3, images(3, 3), images(3, 0)),
      new UpdateCase("burst image update", true, 3, 3, images(3, 3), images(3, 0)),
      new UpdateCase("burst image update and scale up", true, 3, 5, images(5, 3), images(5, 0)),
      new UpdateCase("burst image update and scale down", true, 5, 3, images(3, 3), images(3, 0)));

  private static final List<UpdateCase> PARTITION = List.of(
      new UpdateCase("monotonic image update", false, 3, 3, images(3, 2), null),
      new UpdateCase("monotonic image update and scale up", false, 3, 5, images(5, 2), null),
      new UpdateCase("burst image update", true, 3, 3, images(3, 2), null),
      new UpdateCase("burst image update and scale up", true, 3, 5, images(5, 2), null));

  private static void assertNoPodReference(StatefulSetHarness h, String when) {
    for (PersistentVolumeClaim c : h.claims()) {
      assertThat(c.metadata().ownerReferences()).as("%s: unexpected pod reference on %s", when, c.metadata().name())
          .noneMatch(r -> r.name().startsWith("foo-"));
    }
  }

  /**
   * TestStatefulSetControlOnDeleteUpdate under each policy: after the update (which scales down in two cases) and
   * after a scale-down to 0 no claim references a pod (the collector has removed the condemned pods' claims), and the
   * restart brings every pod on the new image.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("policies")
  void onDeleteUpdate_underPolicy(String policy) {
    for (UpdateCase c : ON_DELETE) {
      try (StatefulSetHarness h = new StatefulSetHarness();
           GarbageCollector gc = GarbageCollector.builder(h.store).watch(StatefulSet.class)
               .watch(ControllerRevision.class).watch(Pod.class).watch(PersistentVolumeClaim.class).stepping()
               .clock(h.clock).build()) {
        gc.start().join();
        Invariant inv = c.burst() ? StatefulSetHarness::burstInvariants : StatefulSetHarness::monotonicInvariants;
        h.store.create(StatefulSetHarness.withStrategy(set(c.initial(), c.burst(), policy),
            io.fleetkit.api.apps.StatefulSetUpdateStrategy.ON_DELETE));
        h.scaleUp(inv);
        h.update(s -> StatefulSetHarness.withImage(s.withReplicas(c.replicas()), "foo"));
        h.updateUntilSettled(StatefulSetHarness::updateInvariants);
        gc.runUntilIdle();
        assertThat(h.images()).as("%s validateUpdate", c.name()).isEqualTo(c.afterUpdate());
        assertNoPodReference(h, c.name() + " after the update");
        h.scale(0);
        h.scaleDown(inv);
        gc.runUntilIdle();
        assertNoPodReference(h, c.name() + " after the scale-down");
        h.scale(c.replicas());
        h.scaleUp(inv);
        assertThat(h.images()).as("%s validateRestart", c.name()).isEqualTo(c.afterRestart());
      }
    }
  }

  /** TestStatefulSetControlRollingUpdateWithPartition under each policy (partition 2). */
  @ParameterizedTest(name = "{0}")
  @MethodSource("policies")
  void rollingUpdateWithPartition_underPolicy(String policy) {
    for (UpdateCase c : PARTITION) {
      try (StatefulSetHarness h = new StatefulSetHarness()) {
        Invariant inv = c.burst() ? StatefulSetHarness::burstInvariants : StatefulSetHarness::monotonicInvariants;
        h.store.create(StatefulSetHarness.withPartition(set(c.initial(), c.burst(), policy), 2));
        h.scaleUp(inv);
        h.update(s -> StatefulSetHarness.withImage(s.withReplicas(c.replicas()), "foo"));
        h.updateUntilSettled(StatefulSetHarness::updateInvariants);
        assertThat(h.images()).as(c.name()).isEqualTo(c.afterUpdate());
      }
    }
  }
}
