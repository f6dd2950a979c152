package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

final class GarbageCollectorTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().build();

  @AfterEach
  void closeStore() {
    store.close();
  }

  private GarbageCollector stepping() {
    return GarbageCollector.builder(store).watch(Gadget.class).watch(Part.class).stepping().clock(clock).build();
  }

  @Test
  void ownerDeleted_threeLevels_cascadesInBackground() {
    Gadget top = store.create(Gadget.of("ns", "top", 1));
    Part mid1 = store.create(Part.ownedBy("ns", "mid1", top));
    Part mid2 = store.create(Part.ownedBy("ns", "mid2", top));
    store.create(Gadget.ownedBy("ns", "leaf1", mid1));
    store.create(Gadget.ownedBy("ns", "leaf2", mid2));
    Gadget bystander = store.create(Gadget.of("ns", "bystander", 1));
    store.create(Part.ownedBy("ns", "kept", bystander));
    try (GarbageCollector gc = stepping()) {
      gc.start().join();
      gc.runUntilIdle();
      assertThat(gc.deletedCount()).as("nothing is garbage while owners live").isZero();

      store.delete(Gadget.class, "ns", "top");
      gc.runUntilIdle();
      assertThat(store.list(Part.class).items()).extracting(p -> p.metadata().name()).containsExactly("kept");
      assertThat(store.list(Gadget.class).items()).extracting(g -> g.metadata().name())
          .containsExactly("bystander");
      assertThat(gc.deletedCount()).isEqualTo(4);
    }
  }

  @Test
  void dependent_createdForOwnerAlreadyGone_isDeleted() {
    Gadget owner = store.create(Gadget.of("ns", "owner", 1));
    store.delete(Gadget.class, "ns", "owner");
    // no Gadget exists when the collector starts, so the owner kind's name must be declared
    try (GarbageCollector gc = GarbageCollector.builder(store).watch(Gadget.class, "test.fleetkit.io/v1", "Gadget")
        .watch(Part.class).stepping().clock(clock).build()) {
      gc.start().join();
      store.create(Part.ownedBy("ns", "late", owner));
      gc.runUntilIdle();
      assertThat(store.get(Part.class, "ns", "late")).isEmpty();
    }
  }

  @Test
  void ownerRecreatedWithSameName_oldDependentsStillCollected() {
    Gadget first = store.create(Gadget.of("ns", "owner", 1));
    store.create(Part.ownedBy("ns", "child", first));
    try (GarbageCollector gc = stepping()) {
      gc.start().join();
      gc.runUntilIdle();
      store.delete(Gadget.class, "ns", "owner");
      store.create(Gadget.of("ns", "owner", 2)); // same name, new uid
      gc.runUntilIdle();
      assertThat(store.get(Part.class, "ns", "child")).as("matched by uid, not name").isEmpty();
    }
  }

  @Test
  void dependentUpdated_ownerReferencesKept_notCheckedAgain_changed_checked() {
    Gadget owner = store.create(Gadget.of("ns", "owner", 1));
    Part part = store.create(Part.ownedBy("ns", "part", owner));
    try (GarbageCollector gc = stepping()) {
      gc.start().join();
      assertThat(gc.runUntilIdle()).as("checked when first seen").isEqualTo(1);
      Part running = store.updateStatus(part.withPhase("Running"));
      store.update(running.withSize(5));
      // upstream's graph builder acts on added, removed or changed owner references only
      assertThat(gc.runUntilIdle()).as("updates that keep the owner references").isZero();
      Part now = store.require(Part.class, "ns", "part");
      store.update(now.withMetadata(now.metadata().toBuilder().ownerReference(new OwnerReference(
          "test.fleetkit.io/v1", "Gadget", "gone", "uid-gone", false, false)).build()));
      assertThat(gc.runUntilIdle()).as("a reference added").isPositive();
      assertThat(store.require(Part.class, "ns", "part").metadata().ownerReferences())
          .extracting(OwnerReference::name).containsExactly("owner");
    }
  }

  @Test
  void twoOwners_oneDeleted_dependentKeptWithoutDanglingReference() {
    Gadget a = store.create(Gadget.of("ns", "a", 1));
    Gadget b = store.create(Gadget.of("ns", "b", 1));
    store.create(new Part(ObjectMeta.of("ns", "shared").toBuilder()
        .ownerReference(OwnerReference.controllerOf(a))
        .ownerReference(new OwnerReference(b.apiVersion(), b.kind(), "b", b.metadata().uid(), false, false))
        .build(), 0, ""));
    try (GarbageCollector gc = stepping()) {
      gc.start().join();
      store.delete(Gadget.class, "ns", "a");
      gc.runUntilIdle();
      Part shared = store.require(Part.class, "ns", "shared");
      assertThat(shared.metadata().ownerReferences()).extracting(OwnerReference::name).containsExactly("b");
      store.delete(Gadget.class, "ns", "b");
      gc.runUntilIdle();
      assertThat(store.get(Part.class, "ns", "shared")).isEmpty();
    }
  }

  @Test
  void deleteOrphan_ownerGoesAndDependentsStayWithoutReference() {
    Gadget owner = store.create(Gadget.of("ns", "owner", 1));
    store.create(Part.ownedBy("ns", "p1", owner));
    store.create(Part.ownedBy("ns", "p2", owner));
    try (GarbageCollector gc = stepping()) {
      gc.start().join();
      Gadget marked = store.delete(Gadget.class, "ns", "owner", DeleteOptions.orphan());
      assertThat(marked.metadata().deletionTimestamp()).isNotNull();
      gc.runUntilIdle();
      assertThat(store.get(Gadget.class, "ns", "owner")).as("finalizer removed, deletion done").isEmpty();
      assertThat(store.list(Part.class).items()).hasSize(2)
          .allSatisfy(p -> assertThat(p.metadata().ownerReferences()).isEmpty());
      assertThat(gc.deletedCount()).isZero();
    }
  }

  @Test
  void deleteAgain_orphanSwitchedToForeground_beforeCollectorRuns_dependentsDeletedFirst() {
    Gadget owner = store.create(Gadget.of("ns", "owner", 1));
    store.create(Part.ownedBy("ns", "p1", owner)); // a controller reference: blocks
    try (GarbageCollector gc = stepping()) {
      gc.start().join();
      gc.runUntilIdle();
      store.delete(Gadget.class, "ns", "owner", DeleteOptions.orphan());
      Gadget switched = store.delete(Gadget.class, "ns", "owner", DeleteOptions.foreground());
      assertThat(switched.metadata().finalizers()).containsExactly(GarbageCollector.FOREGROUND_FINALIZER);
      gc.runUntilIdle();
      assertThat(store.get(Part.class, "ns", "p1")).as("deleted, not orphaned").isEmpty();
      assertThat(store.get(Gadget.class, "ns", "owner")).isEmpty();
    }
  }

  @Test
  void deleteAgain_foregroundSwitchedToOrphan_whileABlockingDependentIsHeld_dependentReleased() {
    Gadget owner = store.create(Gadget.of("ns", "owner", 1));
    Part held = store.create(Part.ownedBy("ns", "held", owner));
    store.update(held.withMetadata(held.metadata().toBuilder().finalizers(List.of("x/y")).build()));
    try (GarbageCollector gc = stepping()) {
      gc.start().join();
      gc.runUntilIdle();
      store.delete(Gadget.class, "ns", "owner", DeleteOptions.foreground());
      gc.runUntilIdle();
      assertThat(store.require(Part.class, "ns", "held").metadata().deletionTimestamp())
          .as("deleted by the collector, held by its finalizer").isNotNull();
      assertThat(store.get(Gadget.class, "ns", "owner")).as("waits for its blocking dependent").isPresent();

      store.delete(Gadget.class, "ns", "owner", DeleteOptions.orphan());
      gc.runUntilIdle();
      assertThat(store.get(Gadget.class, "ns", "owner")).as("orphaning completes at once").isEmpty();
      assertThat(store.require(Part.class, "ns", "held").metadata().ownerReferences()).isEmpty();
    }
  }

  /**
   * A dependent whose own kind orphans by default (a batch/v1 Job) is deleted by the collector with
   * {@code propagationPolicy: Background}, as upstream's {@code attemptToDeleteItem}: its pods are collected in turn,
   * not orphaned.
   */
  @Test
  void collectedJob_deletedInBackground_itsPodsCollectedToo() {
    io.fleetkit.api.core.PodSpec work = io.fleetkit.api.core.PodSpec.builder()
        .restartPolicy(io.fleetkit.api.core.RestartPolicy.Never)
        .container("c", "busybox", io.fleetkit.api.resource.ResourceList.EMPTY).build();
    Gadget owner = store.create(Gadget.of("ns", "cron", 1));
    io.fleetkit.api.batch.Job job = store.create(io.fleetkit.api.batch.Job.builder().namespace("ns").name("run")
        .podSpec(work).build());
    job = store.update(job.withMetadata(job.metadata().toBuilder().ownerReference(new OwnerReference(
        owner.apiVersion(), owner.kind(), "cron", owner.metadata().uid(), true, true)).build()));
    store.create(Part.ownedBy("ns", "pod", job));
    try (GarbageCollector gc = GarbageCollector.builder(store).watch(Gadget.class)
        .watch(io.fleetkit.api.batch.Job.class).watch(Part.class).stepping().clock(clock).build()) {
      gc.start().join();
      gc.runUntilIdle();
      store.delete(Gadget.class, "ns", "cron");
      gc.runUntilIdle();
      assertThat(store.get(io.fleetkit.api.batch.Job.class, "ns", "run")).isEmpty();
      assertThat(store.get(Part.class, "ns", "pod")).isEmpty();
    }
  }

  @Test
  void ownerKindNeverSeenNorDeclared_dependentKeptRatherThanGuessed() {
    Gadget owner = store.create(Gadget.of("ns", "owner", 1));
    store.delete(Gadget.class, "ns", "owner");
    try (GarbageCollector gc = stepping()) {
      gc.start().join();
      store.create(Part.ownedBy("ns", "late", owner));
      gc.runUntilIdle();
      assertThat(store.get(Part.class, "ns", "late")).isPresent();
    }
  }

  @Test
  void ownerOfUnwatchedKind_dependentNeverDeleted() {
    try (GarbageCollector gc = stepping()) {
      gc.start().join();
      store.create(new Part(ObjectMeta.of("ns", "p").toBuilder().ownerReference(new OwnerReference("other/v1",
          "Unknown", "x", "no-such-uid", true, true)).build(), 0, ""));
      gc.runUntilIdle();
      assertThat(store.get(Part.class, "ns", "p")).isPresent();
    }
  }

  @Test
  void builder_misuse_failsWithMessages() {
    assertThatThrownBy(() -> GarbageCollector.builder(store).build()).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("at least one kind");
    assertThatThrownBy(() -> GarbageCollector.builder(store).watch(Part.class).watch(Part.class))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("already watched");
    assertThatThrownBy(() -> GarbageCollector.builder(store).workers(1).stepping())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("workers(1)");
  }

  @Test
  @Timeout(30)
  void threaded_asyncStore_cascadeCompletes() throws Exception {
    try (ObjectStore async = ObjectStore.inMemory();
         GarbageCollector gc = GarbageCollector.builder(async).watch(Gadget.class).watch(Part.class).build()) {
      Gadget owner = async.create(Gadget.of("ns", "owner", 1));
      for (int i = 0; i < 50; i++) {
        Part p = async.create(Part.ownedBy("ns", "p" + i, owner));
        async.create(Gadget.ownedBy("ns", "g" + i, p));
      }
      gc.start().get(5, TimeUnit.SECONDS);
      async.delete(Gadget.class, "ns", "owner");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while ((!async.list(Part.class).items().isEmpty() || !async.list(Gadget.class).items().isEmpty())
          && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(async.list(Part.class).items()).isEmpty();
      assertThat(async.list(Gadget.class).items()).isEmpty();
      assertThat(gc.deletedCount()).isEqualTo(100);
    }
  }

  @Test
  void noOwnerReferences_neverTouched() {
    store.create(Gadget.of("ns", "free", 1));
    try (GarbageCollector gc = stepping()) {
      gc.start().join();
      assertThat(gc.runUntilIdle()).isZero();
      assertThat(store.list(Gadget.class).items()).extracting(g -> g.metadata().name()).isEqualTo(List.of("free"));
    }
  }
}
