package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scenarios of kubernetes {@code test/integration/garbagecollector/garbage_collector_test.go} (commit
 * 42da270d0c33ce6ba6d9d8379db6d71a78a4d9a6), with a Gadget in the ReplicationController's place and Parts as its
 * pods. A reference is built as upstream's {@code {UID, Name}} (not a controller, {@code blockOwnerDeletion} unset)
 * unless the case sets {@code BlockOwnerDeletion}. Upstream's delete options are the store's {@link DeleteOptions}
 * as upstream sends them ({@code getOrphanOptions} and {@code getNonOrphanOptions} set {@code orphanDependents},
 * the foreground cases {@code propagationPolicy: Foreground}). The collector runs stepping, to idle, where upstream
 * polls.
 */
final class GarbageCollectorUpstreamTest {
  /** Upstream's {@code getOrphanOptions()} and {@code getNonOrphanOptions()}. */
  private static final DeleteOptions ORPHAN_OPTIONS = DeleteOptions.DEFAULT.withOrphanDependents(true);
  private static final DeleteOptions NON_ORPHAN_OPTIONS = DeleteOptions.DEFAULT.withOrphanDependents(false);

  private static final PodSpec WORK = PodSpec.builder().restartPolicy(RestartPolicy.Never)
      .container("work", "busybox", ResourceList.EMPTY).build();

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().build();

  @AfterEach
  void closeStore() {
    store.close();
  }

  private GarbageCollector collector() {
    GarbageCollector gc = GarbageCollector.builder(store).watch(Gadget.class, "test.fleetkit.io/v1", "Gadget")
        .watch(Part.class).stepping().clock(clock).build();
    gc.start().join();
    return gc;
  }

  private static OwnerReference ref(ApiObject<?> owner) {
    return ref(owner, false);
  }

  private static OwnerReference ref(ApiObject<?> owner, boolean blockOwnerDeletion) {
    return new OwnerReference(owner.apiVersion(), owner.kind(), owner.metadata().name(), owner.metadata().uid(),
        false, blockOwnerDeletion);
  }

  private Part pod(String name, List<String> finalizers, OwnerReference... refs) {
    ObjectMeta.Builder m = ObjectMeta.of("ns", name).toBuilder().finalizers(finalizers);
    for (OwnerReference r : refs) {
      m.ownerReference(r);
    }
    return store.create(new Part(m.build(), 0, ""));
  }

  private List<String> podNames() {
    return store.list(Part.class).items().stream().map(p -> p.metadata().name()).toList();
  }

  /** TestCascadingDeletion. */
  @Test
  void cascadingDeletion() {
    Gadget toBeDeleted = store.create(Gadget.of("ns", "test.rc.1", 1));
    Gadget remaining = store.create(Gadget.of("ns", "test.rc.2", 1));
    pod("test.pod.1", List.of(), ref(toBeDeleted)); // cascadingly deleted
    pod("test.pod.3", List.of(), ref(toBeDeleted), ref(remaining)); // a valid reference left
    pod("test.pod.2", List.of()); // no owner
    assertThat(store.list(Gadget.class).items()).hasSize(2);
    assertThat(store.list(Part.class).items()).hasSize(3);
    try (GarbageCollector gc = collector()) {
      gc.runUntilIdle();
      store.delete(Gadget.class, "ns", "test.rc.1", NON_ORPHAN_OPTIONS); // getNonOrphanOptions
      gc.runUntilIdle();
      assertThat(store.get(Part.class, "ns", "test.pod.1")).isEmpty();
      assertThat(store.get(Part.class, "ns", "test.pod.2")).isPresent();
      assertThat(store.get(Part.class, "ns", "test.pod.3")).isPresent();
    }
  }

  /** TestCreateWithNonExistentOwner. */
  @Test
  void createWithNonExistentOwner() {
    pod("test.pod.1", List.of(),
        new OwnerReference("test.fleetkit.io/v1", "Gadget", "test.rc.1", "doesn't matter", false, false));
    assertThat(store.list(Part.class).items()).hasSize(1);
    try (GarbageCollector gc = collector()) {
      gc.runUntilIdle();
      assertThat(store.get(Part.class, "ns", "test.pod.1")).isEmpty();
    }
  }

  /**
   * TestStressingCascadingDeletion, its four groups of 10 collections (an RC and 3 pods each). The RCs are Jobs here:
   * upstream's test relies on the v1 ReplicationController's default policy (OrphanDependents), and the batch/v1 Job
   * is FleetKit's kind with that default. Groups: 1, created without finalizers and deleted without options (the
   * kind's default orphans: pods remain); 2, created with the orphan finalizer and deleted without options (pods
   * remain); 3, created with the orphan finalizer and deleted with {@code OrphanDependents=false} (the finalizer is
   * taken away, the RC goes at once and its pods are collected); 4, created without finalizers and deleted with
   * {@code OrphanDependents=true} (pods remain). Every RC goes; the pods of groups 1, 2 and 4 remain.
   */
  @Test
  void stressingCascadingDeletion() {
    try (GarbageCollector gc = GarbageCollector.builder(store).watch(Job.class, Job.API_VERSION, Job.KIND)
        .watch(Part.class).stepping().clock(clock).build()) {
      gc.start().join();
      for (int i = 0; i < 10; i++) {
        setupRcPods("collection1-" + i, List.of(), DeleteOptions.DEFAULT, gc);
        setupRcPods("collection2-" + i, List.of(GarbageCollector.ORPHAN_FINALIZER), DeleteOptions.DEFAULT, gc);
        setupRcPods("collection3-" + i, List.of(GarbageCollector.ORPHAN_FINALIZER), NON_ORPHAN_OPTIONS, gc);
        setupRcPods("collection4-" + i, List.of(), ORPHAN_OPTIONS, gc);
      }
      gc.runUntilIdle();
      assertThat(store.list(Job.class).items()).as("remaining RCs").isEmpty();
      assertThat(podNames()).as("remaining pods").hasSize(10 * 3 * 3)
          .allMatch(n -> n.contains("collection1-") || n.contains("collection2-") || n.contains("collection4-"));
      assertThat(store.list(Part.class).items()).as("orphaned pods name no owner")
          .allSatisfy(p -> assertThat(p.metadata().ownerReferences()).isEmpty());
    }
  }

  private void setupRcPods(String suffix, List<String> initialFinalizers, DeleteOptions options,
      GarbageCollector gc) {
    Job rc = store.create(Job.builder().namespace("ns").name("test.rc." + suffix).podSpec(WORK).build());
    if (!initialFinalizers.isEmpty()) {
      rc = store.update(rc.withMetadata(rc.metadata().toBuilder().finalizers(initialFinalizers).build()));
    }
    for (int j = 0; j < 3; j++) {
      pod("test.pod." + suffix + "-" + j, List.of(), ref(rc));
    }
    gc.runUntilIdle(); // upstream waits for the collector to see the pods before orphaning
    store.delete(Job.class, "ns", rc.metadata().name(), options);
  }

  /** TestOrphaning. */
  @Test
  void orphaning() {
    Gadget toBeDeleted = store.create(Gadget.of("ns", "test.rc.1", 1));
    for (int i = 0; i < 3; i++) {
      pod("test.pod.1" + i, List.of(), ref(toBeDeleted));
    }
    try (GarbageCollector gc = collector()) {
      gc.runUntilIdle();
      store.delete(Gadget.class, "ns", "test.rc.1", ORPHAN_OPTIONS); // getOrphanOptions
      gc.runUntilIdle();
      assertThat(store.list(Gadget.class).items()).isEmpty();
      assertThat(store.list(Part.class).items()).hasSize(3)
          .allSatisfy(p -> assertThat(p.metadata().ownerReferences()).isEmpty());
    }
  }

  /** TestSolidOwnerDoesNotBlockWaitingOwner. */
  @Test
  void solidOwnerDoesNotBlockWaitingOwner() {
    Gadget toBeDeleted = store.create(Gadget.of("ns", "test.rc.1", 1));
    Gadget remaining = store.create(Gadget.of("ns", "test.rc.2", 1));
    pod("pod", List.of(), ref(toBeDeleted, true), ref(remaining));
    try (GarbageCollector gc = collector()) {
      gc.runUntilIdle();
      store.delete(Gadget.class, "ns", "test.rc.1", DeleteOptions.foreground());
      gc.runUntilIdle();
      assertThat(store.get(Gadget.class, "ns", "test.rc.1")).isEmpty();
      Part pod = store.require(Part.class, "ns", "pod");
      assertThat(pod.metadata().ownerReferences()).extracting(OwnerReference::name).containsExactly("test.rc.2");
    }
  }

  /** TestNonBlockingOwnerRefDoesNotBlock: pod1 without blockOwnerDeletion, pod2 with it false, both held. */
  @Test
  void nonBlockingOwnerRefDoesNotBlock() {
    Gadget toBeDeleted = store.create(Gadget.of("ns", "test.rc.1", 1));
    pod("pod1", List.of("x/y"), ref(toBeDeleted));
    pod("pod2", List.of("x/y"), new OwnerReference(toBeDeleted.apiVersion(), toBeDeleted.kind(), "test.rc.1",
        toBeDeleted.metadata().uid(), false, false));
    try (GarbageCollector gc = collector()) {
      gc.runUntilIdle();
      store.delete(Gadget.class, "ns", "test.rc.1", DeleteOptions.foreground());
      gc.runUntilIdle();
      assertThat(store.get(Gadget.class, "ns", "test.rc.1")).isEmpty();
      assertThat(store.list(Part.class).items()).hasSize(2);
    }
  }

  /** TestBlockingOwnerRefDoesBlock. */
  @Test
  void blockingOwnerRefDoesBlock() {
    Gadget toBeDeleted = store.create(Gadget.of("ns", "test.rc.1", 1));
    pod("pod", List.of("x/y"), ref(toBeDeleted, true));
    try (GarbageCollector gc = collector()) {
      gc.runUntilIdle();
      store.delete(Gadget.class, "ns", "test.rc.1", DeleteOptions.foreground());
      gc.runUntilIdle();
      clock.advance(java.time.Duration.ofSeconds(30)); // upstream sleeps 30 s
      gc.runUntilIdle();
      assertThat(store.get(Gadget.class, "ns", "test.rc.1")).isPresent();
      assertThat(store.list(Part.class).items()).hasSize(1);

      // beyond upstream: once the held pod goes, the owner's deletion completes
      Part held = store.require(Part.class, "ns", "pod");
      assertThat(held.metadata().deletionTimestamp()).as("the collector deleted it; its finalizer holds it")
          .isNotNull();
      store.update(held.withMetadata(held.metadata().toBuilder().finalizers(List.of()).build()));
      gc.runUntilIdle();
      assertThat(store.get(Part.class, "ns", "pod")).isEmpty();
      assertThat(store.get(Gadget.class, "ns", "test.rc.1")).isEmpty();
    }
  }

  /**
   * Not upstream: a foreground deletion three levels deep. The middle owners have dependents, so they are deleted in
   * the foreground too; every object is removed only after the objects that block it.
   */
  @Test
  void foreground_threeLevels_ownersOutliveTheirBlockingDependents() {
    Gadget top = store.create(Gadget.of("ns", "top", 1));
    Part mid = store.create(Part.ownedBy("ns", "mid", top)); // controller references block
    store.create(Gadget.ownedBy("ns", "leaf", mid));
    Gadget bystander = store.create(Gadget.of("ns", "bystander", 1));
    store.create(Part.ownedBy("ns", "kept", bystander));
    List<String> removed = new ArrayList<>();
    try (GarbageCollector gc = collector();
         var watch = store.watch(Gadget.class, store.resourceVersion(), e -> {
           if (e.type() == io.fleetkit.api.store.WatchEventType.DELETED) {
             removed.add(e.object().metadata().name());
           }
         });
         var partWatch = store.watch(Part.class, store.resourceVersion(), e -> {
           if (e.type() == io.fleetkit.api.store.WatchEventType.DELETED) {
             removed.add(e.object().metadata().name());
           }
         })) {
      gc.runUntilIdle();
      Gadget marked = store.delete(Gadget.class, "ns", "top", DeleteOptions.foreground());
      assertThat(marked.metadata().deletionTimestamp()).isNotNull();
      assertThat(marked.metadata().finalizers()).contains(GarbageCollector.FOREGROUND_FINALIZER);
      gc.runUntilIdle();
      assertThat(removed).containsExactly("leaf", "mid", "top");
      assertThat(podNames()).containsExactly("kept");
      assertThat(store.list(Gadget.class).items()).extracting(g -> g.metadata().name()).containsExactly("bystander");
    }
  }
}
