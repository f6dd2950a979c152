package io.fleetkit.reconcile.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.Lister;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

final class IndexedCacheTest {
  private static Pod pod(String ns, String name, String app, String ownerUid) {
    Pod.Builder b = Pod.builder().namespace(ns).name(name).label("app", app)
        .container("c", "img", ResourceList.ofCpuMemory(100, 0));
    if (!ownerUid.isEmpty()) {
      b.ownerReference(new OwnerReference("apps/v1", "ReplicaSet", "rs-" + ownerUid, ownerUid, true, true));
    }
    return b.build();
  }

  private static List<String> keys(List<Pod> pods) {
    return pods.stream().map(p -> p.metadata().key()).toList();
  }

  @Test
  void list_sortedByNamespaceThenName_notByKeyText() {
    IndexedCache<Pod> c = new IndexedCache<>(Map.of());
    c.put(pod("a-b", "c", "x", ""));
    c.put(pod("a", "z", "x", ""));
    c.put(pod("a", "b", "x", ""));
    // as text "a-b/c" sorts before "a/b"; listing order is namespace "a" before "a-b"
    assertThat(keys(c.list())).containsExactly("a/b", "a/z", "a-b/c");
    assertThat(keys(c.list("", LabelSelector.of(Map.of("app", "x"))))).containsExactly("a/b", "a/z", "a-b/c");
  }

  @Test
  void controllerIndex_findsOwnedPodsAndFollowsOwnerChanges() {
    IndexedCache<Pod> c = new IndexedCache<>(Map.of());
    c.put(pod("ns", "p2", "x", "u1"));
    c.put(pod("ns", "p1", "x", "u1"));
    c.put(pod("ns", "p3", "x", "u2"));
    c.put(pod("ns", "orphan", "x", ""));
    assertThat(keys(c.byIndex(Lister.CONTROLLER_INDEX, "u1"))).containsExactly("ns/p1", "ns/p2");
    c.put(pod("ns", "p1", "y", "u2")); // released and adopted by u2, relabelled
    assertThat(keys(c.byIndex(Lister.CONTROLLER_INDEX, "u1"))).containsExactly("ns/p2");
    assertThat(keys(c.byIndex(Lister.CONTROLLER_INDEX, "u2"))).containsExactly("ns/p1", "ns/p3");
    assertThat(keys(c.byIndex(Lister.LABEL_INDEX, "app=y"))).containsExactly("ns/p1");
    assertThat(keys(c.byIndex(Lister.LABEL_INDEX, "app=x"))).containsExactly("ns/orphan", "ns/p2", "ns/p3");
    c.remove("ns/p2");
    assertThat(c.byIndex(Lister.CONTROLLER_INDEX, "u1")).isEmpty();
    assertThat(c.indexNames()).contains(Lister.CONTROLLER_INDEX);
  }

  @Property(tries = 50)
  void everyRead_equalsTheSortedFilteredObjects(@ForAll @IntRange(min = 1, max = 200) int n,
      @ForAll long seed) {
    Random r = new Random(seed);
    IndexedCache<Pod> c = new IndexedCache<>(Map.of());
    List<Pod> all = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Pod p = pod("ns" + r.nextInt(3), "p" + r.nextInt(50), "a" + r.nextInt(4), r.nextBoolean() ? "u" + r.nextInt(3)
          : "");
      c.put(p);
      all.removeIf(o -> o.metadata().key().equals(p.metadata().key()));
      all.add(p);
      if (r.nextInt(5) == 0) {
        Pod gone = all.remove(r.nextInt(all.size()));
        c.remove(gone.metadata().key());
      }
    }
    Comparator<Pod> order = Comparator.comparing((Pod p) -> p.metadata().namespace())
        .thenComparing(p -> p.metadata().name());
    List<Pod> sorted = new ArrayList<>(all);
    Collections.sort(sorted, order);
    assertThat(c.list()).containsExactlyElementsOf(sorted);
    assertThat(c.list("ns1")).containsExactlyElementsOf(sorted.stream()
        .filter(p -> p.metadata().namespace().equals("ns1")).toList());
    assertThat(c.list("ns0", LabelSelector.of(Map.of("app", "a2")))).containsExactlyElementsOf(sorted.stream()
        .filter(p -> p.metadata().namespace().equals("ns0") && p.metadata().labels().get("app").equals("a2"))
        .toList());
    assertThat(c.byIndex(Lister.CONTROLLER_INDEX, "u1")).containsExactlyElementsOf(sorted.stream()
        .filter(p -> p.metadata().controllerRef() != null && p.metadata().controllerRef().uid().equals("u1"))
        .toList());
  }
}
