package io.fleetkit.reconcile.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
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
 * The cache's index lists, built incrementally from the last list and the keys that joined, left or got another
 * object since, against sorting and filtering every object afresh. Namespaces are chosen so that the text order of
 * {@code namespace/name} differs from the listing order ({@code "a-b/x"} sorts before {@code "a/x"} as text), cluster-
 * scoped names are mixed in, keys are deleted and created again between reads, and bursts of writes go past the point
 * where a list is rebuilt afresh instead.
 */
final class IndexedCacheIncrementalOrderPropertyTest {
  /** Listing order written independently of the cache: namespace, then name. */
  private static final Comparator<Pod> LISTING = Comparator.<Pod, String>comparing(p -> p.metadata().namespace())
      .thenComparing(p -> p.metadata().name());
  private static final String[] NAMESPACES = {"", "a", "a-b", "a0", "b"};

  /** A pod of namespace {@code ns} labelled {@code app}, owned by ReplicaSet {@code ownerUid} unless empty. */
  static Pod pod(String ns, String name, String app, String ownerUid, int version) {
    Pod.Builder b = Pod.builder().namespace(ns).name(name).label("app", app)
        .annotation("version", String.valueOf(version)).container("c", "img", ResourceList.ofCpuMemory(100, 0));
    if (!ownerUid.isEmpty()) {
      b.ownerReference(new OwnerReference("apps/v1", "ReplicaSet", "rs-" + ownerUid, ownerUid, true, true));
    }
    return b.build();
  }

  @Property(tries = 80)
  void incrementalLists_equalTheObjectsSortedAfresh(@ForAll @IntRange(min = 1, max = 300) int steps,
      @ForAll long seed) {
    Random r = new Random(seed);
    IndexedCache<Pod> c = new IndexedCache<>(Map.of());
    Map<String, Pod> all = new HashMap<>();
    int version = 0;
    for (int step = 0; step < steps; step++) {
      int burst = r.nextInt(8) == 0 ? 1 + r.nextInt(40) : 1; // sometimes many writes between two reads
      for (int w = 0; w < burst; w++) {
        int op = r.nextInt(10);
        if (op < 3 && !all.isEmpty()) {
          String key = new ArrayList<>(all.keySet()).get(r.nextInt(all.size()));
          assertThat(c.remove(key)).isSameAs(all.remove(key));
        } else if (op < 6 && !all.isEmpty()) { // a status-like write: same labels and owner, another object
          Pod old = new ArrayList<>(all.values()).get(r.nextInt(all.size()));
          OwnerReference ref = old.metadata().controllerRef();
          Pod p = pod(old.metadata().namespace(), old.metadata().name(), old.metadata().labels().get("app"),
              ref == null ? "" : ref.uid(), ++version);
          assertThat(c.put(p)).isSameAs(all.put(p.metadata().key(), p));
        } else { // a create, a create again after a delete, or a relabel / re-own
          Pod p = pod(NAMESPACES[r.nextInt(NAMESPACES.length)], "p" + r.nextInt(25) + (r.nextBoolean() ? "" : "-x"),
              "a" + r.nextInt(2), r.nextInt(3) == 0 ? "" : "u" + r.nextInt(2), ++version);
          assertThat(c.put(p)).isSameAs(all.put(p.metadata().key(), p));
        }
      }
      if (r.nextInt(3) == 0) {
        continue; // no read: changes pile up for the next one
      }
      String ns = NAMESPACES[1 + r.nextInt(NAMESPACES.length - 1)];
      String uid = "u" + r.nextInt(2);
      String app = "a" + r.nextInt(2);
      assertListed(c.list(), all, p -> true);
      assertListed(c.list(ns), all, p -> p.metadata().namespace().equals(ns));
      assertListed(c.byIndex(Lister.NAMESPACE_INDEX, ""), all, p -> p.metadata().namespace().isEmpty());
      assertListed(c.byIndex(Lister.CONTROLLER_INDEX, uid), all,
          p -> p.metadata().controllerRef() != null && p.metadata().controllerRef().uid().equals(uid));
      assertListed(c.byIndex(Lister.LABEL_INDEX, "app=" + app), all, p -> p.metadata().labels().get("app")
          .equals(app));
      assertListed(c.list(ns, LabelSelector.of(Map.of("app", app))), all,
          p -> p.metadata().namespace().equals(ns) && p.metadata().labels().get("app").equals(app));
      assertThat(c.size()).isEqualTo(all.size());
    }
  }

  @Property(tries = 300)
  void keyOrder_isNamespaceThenName(@ForAll @IntRange(min = 0, max = 4) int nsA, @ForAll @IntRange(min = 0, max = 4)
      int nsB, @ForAll("names") String nameA, @ForAll("names") String nameB) {
    String a = IndexedCache.key(NAMESPACES[nsA], nameA);
    String b = IndexedCache.key(NAMESPACES[nsB], nameB);
    int expected = NAMESPACES[nsA].equals(NAMESPACES[nsB]) ? nameA.compareTo(nameB)
        : NAMESPACES[nsA].compareTo(NAMESPACES[nsB]);
    assertThat(Integer.signum(IndexedCache.compareKeys(a, b))).as("%s vs %s", a, b)
        .isEqualTo(Integer.signum(expected));
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<String> names() {
    return net.jqwik.api.Arbitraries.strings().withChars("ab-0.z").ofMinLength(1).ofMaxLength(5);
  }

  private static void assertListed(List<Pod> actual, Map<String, Pod> all, Predicate<Pod> wanted) {
    List<Pod> expected = all.values().stream().filter(wanted).sorted(LISTING).toList();
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      assertThat(actual.get(i)).as("element %d (%s)", i, expected.get(i).metadata().key()).isSameAs(expected.get(i));
    }
  }
}
