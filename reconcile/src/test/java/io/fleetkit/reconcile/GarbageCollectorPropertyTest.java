package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Deletion of the first object of a random ownership graph (each object owned by up to two earlier ones, references
 * blocking or not, some objects held by a finalizer no controller removes), the collector run to idle: in the
 * foreground, and orphaning (possibly switched to from another policy by a second deletion before the collector
 * runs).
 */
final class GarbageCollectorPropertyTest {

  @Property(tries = 200)
  void foregroundDeletion_leavesOnlyWhatIsHeldOrHasALiveOwner(@ForAll @IntRange(min = 1, max = 14) int n,
      @ForAll long seed) {
    Random rnd = new Random(seed);
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      List<Gadget> objects = new ArrayList<>();
      List<List<Integer>> owners = new ArrayList<>();
      randomGraph(store, n, rnd, objects, owners);
      try (GarbageCollector gc = GarbageCollector.builder(store).watch(Gadget.class).stepping()
          .clock(ManualClock.atEpoch2026()).build()) {
        gc.start().join();
        gc.runUntilIdle();
        store.delete(Gadget.class, "ns", "g0", DeleteOptions.foreground());
        gc.runUntilIdle();
      }
      Map<String, Gadget> present = new HashMap<>();
      for (Gadget g : store.list(Gadget.class).items()) {
        present.put(g.metadata().uid(), g);
      }
      String rootUid = objects.get(0).metadata().uid();
      if (!present.containsKey(rootUid)) {
        assertThat(present.values()).as("g0, deleted in the foreground, is gone: nothing blocks it any more")
            .noneSatisfy(d -> assertThat(d.metadata().ownerReferences())
                .anyMatch(r -> r.uid().equals(rootUid) && r.blockOwnerDeletion()));
      }
      boolean[] descendant = new boolean[n];
      descendant[0] = true;
      for (int i = 1; i < n; i++) {
        for (int o : owners.get(i)) {
          descendant[i] |= descendant[o];
        }
      }
      for (int i = 0; i < n; i++) {
        Optional<Gadget> now = store.get(Gadget.class, "ns", "g" + i);
        if (!descendant[i]) {
          assertThat(now).as("g%d does not depend on g0", i).isPresent();
          assertThat(now.get().metadata().deletionTimestamp()).as("g%d untouched", i).isNull();
          continue;
        }
        if (now.isEmpty()) {
          continue;
        }
        ObjectMeta m = now.get().metadata();
        int at = i;
        if (m.deletionTimestamp() == null) {
          assertThat(m.ownerReferences()).as("g%d lives on: every owner it still names is live", i).isNotEmpty()
              .allSatisfy(r -> {
                Gadget owner = present.get(r.uid());
                assertThat(owner).as("g%d's owner %s", at, r.name()).isNotNull();
                assertThat(owner.metadata().finalizers().contains(GarbageCollector.FOREGROUND_FINALIZER)
                    && owner.metadata().deletionTimestamp() != null)
                    .as("g%d's owner %s does not wait for it", at, r.name()).isFalse();
              });
        } else if (m.finalizers().contains(GarbageCollector.FOREGROUND_FINALIZER)) {
          String uid = m.uid();
          assertThat(present.values()).as("g%d waits in the foreground: something still blocks it", i)
              .anySatisfy(d -> assertThat(d.metadata().ownerReferences())
                  .anyMatch(r -> r.uid().equals(uid) && r.blockOwnerDeletion()));
        } else {
          assertThat(m.finalizers()).as("g%d is being deleted: only the foreign finalizer holds it", i)
              .containsExactly("x/y");
        }
      }
    }
  }

  /** Creates {@code n} Gadgets g0..g(n-1), each owned by up to two earlier ones; fills {@code objects} and {@code owners}. */
  private static void randomGraph(ObjectStore store, int n, Random rnd, List<Gadget> objects,
      List<List<Integer>> owners) {
    for (int i = 0; i < n; i++) {
      ObjectMeta.Builder m = ObjectMeta.of("ns", "g" + i).toBuilder();
      List<Integer> mine = new ArrayList<>();
      int refs = i == 0 ? 0 : rnd.nextInt(3);
      for (int k = 0; k < refs; k++) {
        int o = rnd.nextInt(i);
        if (mine.contains(o)) {
          continue;
        }
        mine.add(o);
        Gadget owner = objects.get(o);
        m.ownerReference(new OwnerReference(owner.apiVersion(), owner.kind(), owner.metadata().name(),
            owner.metadata().uid(), false, rnd.nextBoolean()));
      }
      if (rnd.nextInt(5) == 0) {
        m.finalizers(List.of("x/y"));
      }
      objects.add(store.create(new Gadget(m.build(), 1, "")));
      owners.add(mine);
    }
  }

  @Property(tries = 200)
  void orphanDeletion_noDependentKeepsAReference_nothingElseDeleted(@ForAll @IntRange(min = 1, max = 14) int n,
      @ForAll long seed, @ForAll boolean switchedFromForeground) {
    Random rnd = new Random(seed);
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      List<Gadget> objects = new ArrayList<>();
      randomGraph(store, n, rnd, objects, new ArrayList<>());
      try (GarbageCollector gc = GarbageCollector.builder(store).watch(Gadget.class).stepping()
          .clock(ManualClock.atEpoch2026()).build()) {
        gc.start().join();
        gc.runUntilIdle();
        if (switchedFromForeground) {
          store.delete(Gadget.class, "ns", "g0", DeleteOptions.foreground());
        }
        Gadget marked = store.delete(Gadget.class, "ns", "g0", DeleteOptions.orphan());
        assertThat(marked.metadata().finalizers()).contains(GarbageCollector.ORPHAN_FINALIZER)
            .doesNotContain(GarbageCollector.FOREGROUND_FINALIZER);
        gc.runUntilIdle();
      }
      String rootUid = objects.get(0).metadata().uid();
      Optional<Gadget> root = store.get(Gadget.class, "ns", "g0");
      root.ifPresent(g -> assertThat(g.metadata().finalizers()).as("only the foreign finalizer holds g0")
          .containsExactly("x/y"));
      for (int i = 1; i < n; i++) {
        Gadget g = store.get(Gadget.class, "ns", "g" + i).orElseThrow(
            () -> new AssertionError("orphaning deletes nothing but the owner"));
        assertThat(g.metadata().deletionTimestamp()).as("g%d untouched", i).isNull();
        assertThat(g.metadata().ownerReferences()).as("g%d names the orphaning owner no more", i)
            .noneMatch(r -> r.uid().equals(rootUid));
        assertThat(g.metadata().ownerReferences()).as("g%d keeps its other owners", i)
            .hasSize((int) objects.get(i).metadata().ownerReferences().stream()
                .filter(r -> !r.uid().equals(rootUid)).count());
      }
    }
  }
}
