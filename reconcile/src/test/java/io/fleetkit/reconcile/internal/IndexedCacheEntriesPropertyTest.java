package io.fleetkit.reconcile.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.reconcile.Lister;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The cache's writes through its entries: an update found by namespace and name replaces the object in the entry the
 * maps and postings share and marks each posting once per batch of changes, and {@link IndexedCache#removeAt} removes
 * by namespace and name. Against a map of the objects: the same answers from {@code put}, {@code remove} and
 * {@code removeAt}, and after every batch the same lists, index lists and gets, when one key is written many times
 * between two reads, keys move between index values and come back, are removed and created again in one batch, and
 * the reads build some indexes late (from the entries) and leave others unbuilt.
 */
final class IndexedCacheEntriesPropertyTest {
  private static final Comparator<Pod> LISTING = Comparator.<Pod, String>comparing(p -> p.metadata().namespace())
      .thenComparing(p -> p.metadata().name());
  private static final String[] NAMESPACES = {"", "a", "b"};

  @Property(tries = 100)
  void writesThroughEntries_readAsTheObjects(@ForAll @IntRange(min = 1, max = 200) int steps, @ForAll long seed) {
    Random r = new Random(seed);
    IndexedCache<Pod> c = new IndexedCache<>(Map.of("by-app", p -> List.of(p.metadata().labels().get("app"))));
    Map<String, Pod> all = new HashMap<>();
    int version = 0;
    boolean readIndexes = r.nextBoolean(); // else only from step 50: the indexes are built from the entries then
    for (int step = 0; step < steps; step++) {
      int burst = 1 + r.nextInt(r.nextInt(4) == 0 ? 30 : 4);
      String hot = "p" + r.nextInt(6); // written again and again in this batch
      for (int w = 0; w < burst; w++) {
        String ns = NAMESPACES[r.nextInt(NAMESPACES.length)];
        String name = r.nextBoolean() ? hot : "p" + r.nextInt(10);
        String key = IndexedCache.key(ns, name);
        Pod held = all.get(key);
        int op = r.nextInt(10);
        if (op < 2 && held != null) {
          assertThat(c.remove(key)).isSameAs(all.remove(key));
        } else if (op < 4) { // by namespace and name, from another version of the object (or of none)
          Pod other = IndexedCacheIncrementalOrderPropertyTest.pod(ns, name, "x", "", ++version);
          assertThat(c.removeAt(other.metadata())).isSameAs(all.remove(key));
        } else if (op < 8 && held != null) { // a status-like write
          OwnerReference ref = held.metadata().controllerRef();
          Pod p = IndexedCacheIncrementalOrderPropertyTest.pod(ns, name, held.metadata().labels().get("app"), ref == null ? "" : ref.uid(), ++version);
          assertThat(c.put(p)).isSameAs(all.put(key, p));
        } else { // a create, or a move to another label and owner
          Pod p = IndexedCacheIncrementalOrderPropertyTest.pod(ns, name, "a" + r.nextInt(3), r.nextInt(3) == 0 ? "" : "u" + r.nextInt(2), ++version);
          assertThat(c.put(p)).isSameAs(all.put(key, p));
        }
      }
      for (String ns : NAMESPACES) {
        for (int i = 0; i < 10; i++) {
          String name = "p" + i;
          assertThat(c.get(ns, name).orElse(null)).isSameAs(all.get(IndexedCache.key(ns, name)));
        }
      }
      if (r.nextInt(3) == 0) {
        continue; // no read: the changes pile up for the next one
      }
      assertListed(c.list(), all, p -> true);
      if (readIndexes || step >= 50) {
        String ns = NAMESPACES[1 + r.nextInt(NAMESPACES.length - 1)];
        String uid = "u" + r.nextInt(2);
        String app = "a" + r.nextInt(3);
        assertListed(c.list(ns), all, p -> p.metadata().namespace().equals(ns));
        assertListed(c.byIndex(Lister.CONTROLLER_INDEX, uid), all,
            p -> p.metadata().controllerRef() != null && p.metadata().controllerRef().uid().equals(uid));
        assertListed(c.byIndex(Lister.LABEL_INDEX, "app=" + app), all,
            p -> p.metadata().labels().get("app").equals(app));
        assertListed(c.byIndex("by-app", app), all, p -> p.metadata().labels().get("app").equals(app));
      }
      assertThat(c.size()).isEqualTo(all.size());
    }
  }

  private static void assertListed(List<Pod> actual, Map<String, Pod> all, Predicate<Pod> wanted) {
    List<Pod> expected = new ArrayList<>(all.values().stream().filter(wanted).sorted(LISTING).toList());
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      assertThat(actual.get(i)).as("element %d (%s)", i, expected.get(i).metadata().key()).isSameAs(expected.get(i));
    }
  }
}
