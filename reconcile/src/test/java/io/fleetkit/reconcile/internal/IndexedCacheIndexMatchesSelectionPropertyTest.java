package io.fleetkit.reconcile.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.Lister;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link IndexedCache#indexMatchesSelection}, which keeps an equal answer while the postings involved keep their
 * members, against comparing the index list with the selection every time ({@link Lister}'s default). Pods move
 * between owners, namespaces and label values, get status-like writes (same labels and owner), are deleted and
 * created again (a posting that empties is dropped and a new one made); the queries repeat the same few owners and
 * selectors, so that kept answers are read again and again.
 */
final class IndexedCacheIndexMatchesSelectionPropertyTest {
  private static final String[] NAMESPACES = {"a", "b"};

  private static Pod pod(String ns, String name, String app, String hash, String ownerUid, int version) {
    Pod.Builder b = Pod.builder().namespace(ns).name(name).label("app", app).label("hash", hash)
        .annotation("version", String.valueOf(version)).container("c", "img", ResourceList.ofCpuMemory(100, 0));
    if (!ownerUid.isEmpty()) {
      b.ownerReference(new OwnerReference("apps/v1", "ReplicaSet", "rs-" + ownerUid, ownerUid, true, true));
    }
    return b.build();
  }

  @Property(tries = 150)
  void keptAnswers_equalComparingTheListsEveryTime(@ForAll @IntRange(min = 1, max = 300) int steps,
      @ForAll long seed) {
    Random r = new Random(seed);
    IndexedCache<Pod> c = new IndexedCache<>(Map.of());
    Map<String, Pod> all = new HashMap<>();
    int version = 0;
    for (int step = 0; step < steps; step++) {
      int burst = r.nextInt(6) == 0 ? 1 + r.nextInt(r.nextBoolean() ? 10 : 40) : 1; // past what postings remember
      for (int w = 0; w < burst; w++) {
        int op = r.nextInt(10);
        if (op < 2 && !all.isEmpty()) {
          String key = new ArrayList<>(all.keySet()).get(r.nextInt(all.size()));
          c.remove(key);
          all.remove(key);
        } else if (op < 6 && !all.isEmpty()) { // a status-like write: same labels and owner, another object
          Pod old = new ArrayList<>(all.values()).get(r.nextInt(all.size()));
          Pod p = old.withMetadata(old.metadata().toBuilder().annotation("version", String.valueOf(++version))
              .build());
          c.put(p);
          all.put(p.metadata().key(), p);
        } else { // a create, a create again after a delete, or a relabel / re-own / move
          Pod p = pod(NAMESPACES[r.nextInt(NAMESPACES.length)], "p" + r.nextInt(12), "a" + r.nextInt(2),
              "h" + r.nextInt(2), r.nextInt(4) == 0 ? "" : "u" + r.nextInt(3), ++version);
          c.put(p);
          all.put(p.metadata().key(), p);
        }
      }
      for (int q = 0; q < 3; q++) {
        String ns = NAMESPACES[r.nextInt(NAMESPACES.length)];
        String uid = "u" + r.nextInt(3);
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("app", "a" + r.nextInt(2));
        if (r.nextBoolean()) {
          labels.put("hash", "h" + r.nextInt(2));
        }
        LabelSelector selector = LabelSelector.of(labels);
        boolean expected = Lister.sameObjects(c.byIndex(Lister.CONTROLLER_INDEX, uid), c.list(ns, selector));
        assertThat(c.indexMatchesSelection(Lister.CONTROLLER_INDEX, uid, ns, selector))
            .as("step %d: owner %s, %s in %s", step, uid, labels, ns).isEqualTo(expected);
        // and against the objects themselves, not the cache's own lists
        List<Pod> owned = all.values().stream().filter(p -> p.metadata().controllerRef() != null
            && p.metadata().controllerRef().uid().equals(uid)).toList();
        List<Pod> selected = all.values().stream().filter(p -> p.metadata().namespace().equals(ns)
            && selector.matches(p.metadata().labels())).toList();
        assertThat(expected).isEqualTo(new java.util.HashSet<>(owned).equals(new java.util.HashSet<>(selected)));
      }
    }
  }
}
