package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.internal.IndexedCache;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@code ControllerRefManager.claimCandidates} against upstream's definition: the pods of the namespace that the
 * ReplicaSet controls or its selector matches, in listing order, each once; both when the two index reads agree
 * (the usual case, taken as is) and when they differ (merged).
 */
final class ClaimCandidatesPropertyTest {
  private static final String UID = "rs-uid";
  private static final LabelSelector SELECTOR = new LabelSelector(Map.of("app", "web"), List.of());

  /** A pod: its namespace (0: "ns", 1: "other"), its controller (0 none, 1 this ReplicaSet, 2 another), labels. */
  record PodShape(int namespace, int controller, boolean matching) {}

  @Provide
  Arbitrary<List<PodShape>> pods() {
    Arbitrary<PodShape> one = Arbitraries.integers().between(0, 9).flatMap(kind -> kind < 6
        ? Arbitraries.just(new PodShape(0, 1, true)) // mostly: controlled and selected
        : Arbitraries.integers().between(0, 1).flatMap(ns -> Arbitraries.integers().between(0, 2)
            .flatMap(c -> Arbitraries.of(true, false).map(m -> new PodShape(ns, c, m)))));
    return one.list().ofMaxSize(30);
  }

  @Property(tries = 300)
  void claimCandidates_controlledOrSelectedInListingOrder(@ForAll("pods") List<PodShape> shapes) {
    IndexedCache<Pod> cache = new IndexedCache<>(Map.of());
    for (int i = 0; i < shapes.size(); i++) {
      PodShape s = shapes.get(i);
      ObjectMeta.Builder meta = ObjectMeta.builder().namespace(s.namespace() == 0 ? "ns" : "other")
          .name("p-" + i).label("app", s.matching() ? "web" : "db");
      if (s.controller() > 0) {
        meta.ownerReference(new OwnerReference("apps/v1", "ReplicaSet", "web", s.controller() == 1 ? UID : "x",
            true, true));
      }
      cache.put(Pod.builder().metadata(meta.build()).container("app", "img:1", ResourceList.EMPTY).build());
    }
    List<Pod> expected = new ArrayList<>();
    for (Pod p : cache.list("ns")) {
      OwnerReference c = p.metadata().controllerRef();
      if ((c != null && c.uid().equals(UID)) || SELECTOR.matches(p.metadata().labels())) {
        expected.add(p);
      }
    }
    assertThat(ControllerRefManager.claimCandidates(cache, "ns", UID, SELECTOR)).containsExactlyElementsOf(expected);
  }
}
