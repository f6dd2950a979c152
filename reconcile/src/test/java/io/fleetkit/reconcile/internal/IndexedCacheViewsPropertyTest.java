package io.fleetkit.reconcile.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.Lister;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The cache's kept index lists and its remembered selector answers against filtering every object afresh, read
 * between random writes: creations, status-like updates (a new object with the same labels and owner), relabels,
 * owner changes and deletions; gets by namespace and name against the objects as written. Answers are compared by identity, so a list that kept an object's old version fails.
 */
final class IndexedCacheViewsPropertyTest {
  private static final Comparator<String> ORDER = IndexedCache.KEY_ORDER;

  private static Pod pod(String ns, String name, String app, String tier, String ownerUid, int version) {
    Pod.Builder b = Pod.builder().namespace(ns).name(name).label("app", app).label("tier", tier)
        .annotation("version", String.valueOf(version)).container("c", "img", ResourceList.ofCpuMemory(100, 0));
    if (!ownerUid.isEmpty()) {
      b.ownerReference(new OwnerReference("apps/v1", "ReplicaSet", "rs-" + ownerUid, ownerUid, true, true));
    }
    return b.build();
  }

  @Property(tries = 60)
  void readsBetweenWrites_areTheCurrentObjects(@ForAll @IntRange(min = 1, max = 150) int steps,
      @ForAll long seed) {
    Random r = new Random(seed);
    IndexedCache<Pod> c = new IndexedCache<>(Map.of());
    TreeMap<String, Pod> all = new TreeMap<>(ORDER);
    int version = 0;
    for (int step = 0; step < steps; step++) {
      int op = r.nextInt(10);
      if (op < 2 && !all.isEmpty()) {
        String key = new ArrayList<>(all.keySet()).get(r.nextInt(all.size()));
        c.remove(key);
        all.remove(key);
      } else if (op < 6 && !all.isEmpty()) { // update: same labels and owner (a status write), a new object
        Pod old = new ArrayList<>(all.values()).get(r.nextInt(all.size()));
        OwnerReference ref = old.metadata().controllerRef();
        Pod p = pod(old.metadata().namespace(), old.metadata().name(), old.metadata().labels().get("app"),
            old.metadata().labels().get("tier"), ref == null ? "" : ref.uid(), ++version);
        c.put(p);
        all.put(p.metadata().key(), p);
      } else { // create, or relabel / re-own an existing name
        Pod p = pod("ns" + r.nextInt(2), "p" + r.nextInt(30), "a" + r.nextInt(3), "t" + r.nextInt(2),
            r.nextInt(3) == 0 ? "" : "u" + r.nextInt(3), ++version);
        c.put(p);
        all.put(p.metadata().key(), p);
      }
      int reads = r.nextInt(3); // zero to two reads of each kind, so that kept answers are asked for again
      for (int i = 0; i < reads; i++) {
        String ns = "ns" + r.nextInt(2);
        String app = "a" + r.nextInt(3);
        String tier = "t" + r.nextInt(2);
        String uid = "u" + r.nextInt(3);
        assertSame(c.byIndex(Lister.CONTROLLER_INDEX, uid), all, p -> p.metadata().controllerRef() != null
            && p.metadata().controllerRef().uid().equals(uid));
        assertSame(c.byIndex(Lister.LABEL_INDEX, "app=" + app), all, p -> p.metadata().labels().get("app")
            .equals(app));
        assertSame(c.list(ns), all, p -> p.metadata().namespace().equals(ns));
        assertSame(c.list(ns, LabelSelector.of(Map.of("app", app))), all,
            p -> p.metadata().namespace().equals(ns) && p.metadata().labels().get("app").equals(app));
        assertSame(c.list(ns, LabelSelector.of(Map.of("app", app, "tier", tier))), all,
            p -> p.metadata().namespace().equals(ns) && p.metadata().labels().get("app").equals(app)
                && p.metadata().labels().get("tier").equals(tier));
        assertSame(c.list("", LabelSelector.of(Map.of("tier", tier))), all,
            p -> p.metadata().labels().get("tier").equals(tier));
        assertSame(c.list(ns, LabelSelector.EVERYTHING), all, p -> p.metadata().namespace().equals(ns));
        String name = "p" + r.nextInt(30); // a get by namespace and name: the current object, or none
        assertThat(c.get(ns, name).orElse(null)).as("get %s/%s", ns, name).isSameAs(all.get(ns + "/" + name));
      }
    }
  }

  @Property(tries = 20)
  void unchangedPosting_isTheSameList(@ForAll long seed) {
    Random r = new Random(seed);
    IndexedCache<Pod> c = new IndexedCache<>(Map.of());
    for (int i = 0; i < 20; i++) {
      c.put(pod("ns", "p" + i, "a" + r.nextInt(2), "t", "u" + r.nextInt(2), i));
    }
    LabelSelector sel = LabelSelector.of(Map.of("app", "a0"));
    List<Pod> owned = c.byIndex(Lister.CONTROLLER_INDEX, "u0");
    List<Pod> selected = c.list("ns", sel);
    c.put(pod("other", "x", "a1", "t", "u1", 99)); // in neither answer
    assertThat(c.byIndex(Lister.CONTROLLER_INDEX, "u0")).isSameAs(owned);
    assertThat(c.list("ns", sel)).isSameAs(selected);
    c.put(pod("ns", "p100", "a0", "t", "u0", 100)); // in both
    assertThat(c.byIndex(Lister.CONTROLLER_INDEX, "u0")).isNotSameAs(owned).hasSize(owned.size() + 1);
    assertThat(c.list("ns", sel)).isNotSameAs(selected).hasSize(selected.size() + 1);
  }

  @Property(tries = 20)
  void updatesBetweenReads_fewAndMany_giveTheNewObjects(@ForAll @IntRange(min = 1, max = 20) int updates,
      @ForAll long seed) {
    Random r = new Random(seed);
    IndexedCache<Pod> c = new IndexedCache<>(Map.of());
    TreeMap<String, Pod> all = new TreeMap<>(ORDER);
    for (int i = 0; i < 30; i++) {
      Pod p = pod("ns", "p" + i, "a", "t", "u0", 0);
      c.put(p);
      all.put(p.metadata().key(), p);
    }
    LabelSelector sel = LabelSelector.of(Map.of("app", "a", "tier", "t"));
    for (int round = 0; round < 3; round++) {
      assertSame(c.byIndex(Lister.CONTROLLER_INDEX, "u0"), all, p -> true);
      assertSame(c.list("ns", sel), all, p -> true);
      for (int i = 0; i < updates; i++) { // status-like writes, some to the same pod twice
        String name = "p" + r.nextInt(30);
        Pod p = pod("ns", name, "a", "t", "u0", 1 + r.nextInt(1000));
        c.put(p);
        all.put(p.metadata().key(), p);
      }
    }
    assertSame(c.byIndex(Lister.CONTROLLER_INDEX, "u0"), all, p -> true);
    assertSame(c.list("ns", sel), all, p -> true);
  }

  private static void assertSame(List<Pod> actual, TreeMap<String, Pod> all, Predicate<Pod> wanted) {
    List<Pod> expected = all.values().stream().filter(wanted).toList();
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      assertThat(actual.get(i)).as("element %d (%s)", i, expected.get(i).metadata().key()).isSameAs(expected.get(i));
    }
  }
}
