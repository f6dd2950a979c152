package io.fleetkit.reconcile.controllers;

import static io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType.Delete;
import static io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType.Retain;
import static io.fleetkit.reconcile.controllers.StatefulSetHarness.newStatefulSet;
import static io.fleetkit.reconcile.controllers.StatefulSetHarness.withPolicy;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetOrdinals;
import io.fleetkit.api.apps.StatefulSetPersistentVolumeClaimRetentionPolicy;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.reconcile.GarbageCollector;
import io.fleetkit.reconcile.controllers.internal.StatefulSetReconciler;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The retention policy end to end: the object store, the StatefulSet controller and the garbage collector (which
 * follows the owner references the controller puts on the claims; the controller never deletes a claim).
 */
final class StatefulSetClaimRetentionEndToEndTest {

  /** A harness with a collector over every kind an owner reference of a claim, pod or revision may name. */
  private static final class World implements AutoCloseable {
    final StatefulSetHarness h = new StatefulSetHarness();
    final GarbageCollector gc = GarbageCollector.builder(h.store).watch(StatefulSet.class)
        .watch(ControllerRevision.class).watch(Pod.class).watch(PersistentVolumeClaim.class).stepping()
        .clock(h.clock).build();

    World() {
      gc.start().join();
    }

    /** Controller and collector until neither has work. */
    void settle() {
      for (int i = 0; i < 100; i++) {
        // the kubelets end the deleted pods at once
        int work = h.controller.runUntilIdle() + gc.runUntilIdle() + Sim.finishTerminating(h.store);
        if (work == 0) {
          return;
        }
      }
      throw new AssertionError("did not settle");
    }

    Set<String> claimNames() {
      Set<String> out = new TreeSet<>();
      h.claims().forEach(c -> out.add(c.metadata().name()));
      return out;
    }

    List<OwnerReference> refs(String claim) {
      return h.store.require(PersistentVolumeClaim.class, "default", claim).metadata().ownerReferences();
    }

    @Override
    public void close() {
      gc.close();
      h.close();
    }
  }

  private static StatefulSet set(int replicas, PersistentVolumeClaimRetentionPolicyType whenDeleted,
      PersistentVolumeClaimRetentionPolicyType whenScaled) {
    return withPolicy(newStatefulSet(replicas), StatefulSetPersistentVolumeClaimRetentionPolicy.of(whenDeleted,
        whenScaled));
  }

  @Test
  void whenScaledDelete_scaleDown_condemnedClaimsCollectedOthersKept() {
    try (World w = new World()) {
      w.h.store.create(set(3, Retain, Delete));
      w.h.scaleUp(StatefulSetHarness::monotonicInvariants);
      assertThat(w.refs("datadir-foo-2")).as("a live pod's claim has no owner under whenDeleted: Retain").isEmpty();
      w.h.scale(1);
      w.h.scaleDown(StatefulSetHarness::monotonicInvariants);
      w.settle();
      assertThat(w.claimNames()).containsExactly("datadir-foo-0");
      assertThat(w.refs("datadir-foo-0")).isEmpty();

      // scaled up again: fresh claims, the pods come back
      w.h.scale(3);
      w.h.scaleUp(StatefulSetHarness::monotonicInvariants);
      w.settle();
      assertThat(w.claimNames()).containsExactly("datadir-foo-0", "datadir-foo-1", "datadir-foo-2");
      assertThat(w.h.pods()).hasSize(3);
    }
  }

  @Test
  void whenDeletedDelete_setDeleted_allClaimsCollected() {
    try (World w = new World()) {
      w.h.store.create(set(3, Delete, Retain));
      w.h.scaleUp(StatefulSetHarness::monotonicInvariants);
      StatefulSet live = w.h.set();
      for (String claim : w.claimNames()) {
        assertThat(w.refs(claim)).singleElement().satisfies(r -> {
          assertThat(r.uid()).isEqualTo(live.metadata().uid());
          assertThat(r.kind()).isEqualTo("StatefulSet");
          assertThat(r.controller()).isTrue();
        });
      }
      w.h.store.delete(StatefulSet.class, "default", "foo", DeletePreconditions.NONE);
      w.settle();
      assertThat(w.h.store.list(Pod.class, "default").items()).isEmpty();
      assertThat(w.h.claims()).isEmpty();
      assertThat(w.h.store.list(ControllerRevision.class, "default").items()).isEmpty();
    }
  }

  @Test
  void retain_scaleDownThenDelete_claimsKeptWithoutOwners() {
    try (World w = new World()) {
      w.h.store.create(newStatefulSet(3)); // the default policy: Retain, Retain
      w.h.scaleUp(StatefulSetHarness::monotonicInvariants);
      w.h.scale(1);
      w.h.scaleDown(StatefulSetHarness::monotonicInvariants);
      w.settle();
      assertThat(w.claimNames()).containsExactly("datadir-foo-0", "datadir-foo-1", "datadir-foo-2");
      w.h.store.delete(StatefulSet.class, "default", "foo", DeletePreconditions.NONE);
      w.settle();
      assertThat(w.h.store.list(Pod.class, "default").items()).isEmpty();
      assertThat(w.claimNames()).containsExactly("datadir-foo-0", "datadir-foo-1", "datadir-foo-2");
      for (String claim : w.claimNames()) {
        assertThat(w.refs(claim)).isEmpty();
      }
    }
  }

  @Test
  void deleteBoth_scaleDownThenDelete_everyClaimCollectedAtItsTime() {
    try (World w = new World()) {
      w.h.store.create(set(3, Delete, Delete));
      w.h.scaleUp(StatefulSetHarness::monotonicInvariants);
      w.h.scale(2);
      w.h.scaleDown(StatefulSetHarness::monotonicInvariants);
      w.settle();
      assertThat(w.claimNames()).containsExactly("datadir-foo-0", "datadir-foo-1");
      w.h.store.delete(StatefulSet.class, "default", "foo", DeletePreconditions.NONE);
      w.settle();
      assertThat(w.h.claims()).isEmpty();
    }
  }

  @Test
  void whenScaledDeleteOnly_setDeleted_liveClaimsKept() {
    try (World w = new World()) {
      w.h.store.create(set(2, Retain, Delete));
      w.h.scaleUp(StatefulSetHarness::monotonicInvariants);
      w.h.store.delete(StatefulSet.class, "default", "foo", DeletePreconditions.NONE);
      w.settle();
      assertThat(w.h.store.list(Pod.class, "default").items()).isEmpty();
      assertThat(w.claimNames()).as("the pods went with the set, not by scale-down")
          .containsExactly("datadir-foo-0", "datadir-foo-1");
    }
  }

  @Test
  void policyChangedToRetain_referencesRemoved_setDeletionKeepsClaims() {
    try (World w = new World()) {
      w.h.store.create(set(2, Delete, Retain));
      w.h.scaleUp(StatefulSetHarness::monotonicInvariants);
      assertThat(w.refs("datadir-foo-0")).hasSize(1);
      w.h.update(s -> s.withPersistentVolumeClaimRetentionPolicy(StatefulSetPersistentVolumeClaimRetentionPolicy
          .RETAIN));
      w.settle();
      assertThat(w.refs("datadir-foo-0")).isEmpty();
      assertThat(w.refs("datadir-foo-1")).isEmpty();
      w.h.store.delete(StatefulSet.class, "default", "foo", DeletePreconditions.NONE);
      w.settle();
      assertThat(w.claimNames()).containsExactly("datadir-foo-0", "datadir-foo-1");
    }
  }

  /** Upstream's PodClaimIsStale: a claim still owned by the deleted pod of that name is not reused. */
  @Test
  void whenScaledDelete_scaleUpBeforeCollection_waitsForTheStaleClaim() {
    try (World w = new World()) {
      w.h.store.create(set(2, Retain, Delete));
      w.h.scaleUp(StatefulSetHarness::monotonicInvariants);
      String oldUid = w.h.store.require(Pod.class, "default", "foo-1").metadata().uid();
      w.h.scale(1);
      w.h.scaleDown(StatefulSetHarness::monotonicInvariants); // the collector has not run
      assertThat(w.refs("datadir-foo-1")).singleElement().satisfies(r -> assertThat(r.uid()).isEqualTo(oldUid));

      w.h.scale(2);
      w.h.controller.runUntilIdle();
      assertThat(w.h.pods()).extracting(p -> p.metadata().name()).as("foo-1 waits for its old claim to go")
          .containsExactly("foo-0");

      w.gc.runUntilIdle();
      assertThat(w.claimNames()).containsExactly("datadir-foo-0");
      w.h.clock.advance(StatefulSetReconciler.STALE_CLAIM_RETRY);
      w.h.controller.runUntilIdle();
      assertThat(w.h.pods()).extracting(p -> p.metadata().name()).containsExactly("foo-0", "foo-1");
      assertThat(w.refs("datadir-foo-1")).as("a fresh claim, owned by nobody").isEmpty();
    }
  }

  /** Parallel: the ordinal with a stale claim waits, the others are created in the same pass (upstream's batches). */
  @Test
  void parallel_staleClaim_onlyThatOrdinalWaits() {
    try (World w = new World()) {
      w.h.store.create(StatefulSetHarness.burst(set(2, Retain, Delete)));
      w.h.scaleUp(StatefulSetHarness::burstInvariants);
      w.h.scale(1);
      w.h.scaleDown(StatefulSetHarness::burstInvariants); // the collector has not run: datadir-foo-1 is stale
      w.h.scale(3);
      w.h.controller.runUntilIdle();
      assertThat(w.h.pods()).extracting(p -> p.metadata().name()).containsExactly("foo-0", "foo-2");
      w.gc.runUntilIdle();
      w.h.clock.advance(StatefulSetReconciler.STALE_CLAIM_RETRY);
      w.h.controller.runUntilIdle();
      assertThat(w.h.pods()).extracting(p -> p.metadata().name()).containsExactly("foo-0", "foo-1", "foo-2");
    }
  }

  @Test
  void startMoved_whenScaledDelete_claimsOfCondemnedOrdinalsCollected() {
    try (World w = new World()) {
      w.h.store.create(set(2, Retain, Delete));
      w.h.scaleUp(StatefulSetHarness::monotonicInvariants);
      w.h.update(s -> s.withOrdinals(StatefulSetOrdinals.startingAt(2)));
      // no claim invariant on the way: a condemned pod's claims get the pod as owner only once the new range is
      // healthy (upstream fixes condemned claims after the replicas), just before the pod goes
      w.h.scaleUp(x -> { });
      w.settle();
      assertThat(w.h.pods()).extracting(p -> p.metadata().name()).containsExactly("foo-2", "foo-3");
      assertThat(w.claimNames()).containsExactly("datadir-foo-2", "datadir-foo-3");
    }
  }

  @Test
  void claimWithAnotherController_leftAloneWithWarning() {
    try (World w = new World()) {
      w.h.store.create(set(1, Delete, Retain));
      w.h.controller.runUntilIdle();
      PersistentVolumeClaim claim = w.h.store.require(PersistentVolumeClaim.class, "default", "datadir-foo-0");
      // another controller takes the claim over (say, a backup operator); the set's reference stays for now
      OwnerReference foreign = new OwnerReference("example.com/v1", "Backup", "nightly", "backup-uid", true, false);
      List<OwnerReference> refs = List.of(foreign, new OwnerReference(StatefulSet.API_VERSION, StatefulSet.KIND,
          "foo", w.h.set().metadata().uid(), false, false));
      w.h.store.update(claim.withMetadata(claim.metadata().toBuilder().ownerReferences(refs).build()));
      w.h.scaleUp(x -> { });
      assertThat(w.refs("datadir-foo-0")).as("our reference removed, none added").containsExactly(foreign);
      assertThat(w.h.events).contains("Warning " + StatefulSetReconciler.CONFLICTING_CONTROLLER
          + ": PersistentVolumeClaim datadir-foo-0 has a conflicting OwnerReference that acts as a managing"
          + " controller, the retention policy is ignored for this claim");
    }
  }
}
