package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants of {@link ControllerRefManager#claim(List)} over random pods (orphan, controlled by the controller or by
 * another; matching or not; being deleted or not; in the controller's namespace or not), the controller alive or
 * being deleted: afterwards the claimed pods are exactly those the store shows controlled by it that match; a live
 * controller controls no pod that does not match; another controller's pods and pods being deleted are never
 * written; a second claim writes nothing and claims the same pods. (The adoption recheck is covered by
 * {@link ControllerRefManagerTest}; here it always allows.)
 */
final class ControllerRefManagerPropertyTest {
  private static final LabelSelector SELECTOR = LabelSelector.of(Map.of("app", "web"));
  private static final PodSpec SPEC = PodSpec.builder().container("c", "nginx", ResourceList.EMPTY).build();

  /** owner: 0 none, 1 this controller, 2 another. */
  record Shape(int owner, boolean matching, boolean deleting, boolean otherNamespace) {}

  @Provide
  Arbitrary<List<Shape>> pods() {
    return Combinators.combine(Arbitraries.integers().between(0, 2), Arbitraries.of(true, false),
        Arbitraries.integers().between(0, 4).map(i -> i == 0), Arbitraries.integers().between(0, 4).map(i -> i == 0))
        .as(Shape::new).list().ofMaxSize(12);
  }

  @Property(tries = 200)
  void claim_leavesExactlyTheMatchingPodsControlled_andIsIdempotent(@ForAll("pods") List<Shape> shapes,
      @ForAll boolean controllerDeleting) {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build()) {
      ReplicaSet rs = ReplicaSet.builder().namespace("ns").name("web").matchLabels(Map.of("app", "web"))
          .podSpec(SPEC).build();
      rs = rs.withMetadata(rs.metadata().toBuilder().uid("rs-uid")
          .deletionTimestamp(controllerDeleting ? clock.now() : null).build());
      OwnerReference mine = OwnerReference.controllerOf(rs);
      OwnerReference theirs = new OwnerReference("apps/v1", "ReplicaSet", "other", "other-uid", true, true);
      List<Pod> pods = new ArrayList<>();
      for (int i = 0; i < shapes.size(); i++) {
        Shape s = shapes.get(i);
        String ns = s.otherNamespace() ? "elsewhere" : "ns";
        ObjectMeta.Builder m = ObjectMeta.builder().namespace(ns).name("p" + i)
            .label("app", s.matching() ? "web" : "db");
        if (s.owner() > 0) {
          m.ownerReference(s.owner() == 1 ? mine : theirs);
        }
        if (s.deleting()) {
          m.finalizer("test/hold");
        }
        store.create(Pod.of(m.build(), SPEC));
        if (s.deleting()) {
          store.delete(Pod.class, ns, "p" + i);
        }
        pods.add(store.require(Pod.class, ns, "p" + i));
      }
      ControllerRefManager.Claim<Pod> claim = new ControllerRefManager<>(store, rs, SELECTOR, () -> null, List.of()).claim(pods);

      assertThat(claim.errors()).isEmpty();
      List<String> controlledMatching = new ArrayList<>();
      for (int i = 0; i < pods.size(); i++) {
        Pod was = pods.get(i);
        Pod now = store.require(Pod.class, was.metadata().namespace(), was.metadata().name());
        Shape s = shapes.get(i);
        OwnerReference ref = now.metadata().controllerRef();
        boolean mineNow = ref != null && ref.uid().equals("rs-uid");
        boolean matches = SELECTOR.matches(now.metadata().labels());
        if (mineNow && matches) {
          controlledMatching.add(now.metadata().key());
        }
        if (mineNow && !controllerDeleting) {
          assertThat(matches).as("a live controller controls only matching pods").isTrue();
        }
        if (s.owner() == 2 || (s.deleting() && s.owner() == 0)) {
          assertThat(now.metadata().resourceVersion()).as("untouched: %s", s).isEqualTo(was.metadata()
              .resourceVersion());
        }
        if (s.owner() == 0 && mineNow) {
          assertThat(s.otherNamespace() || controllerDeleting || s.deleting()).as("adopted only if allowed")
              .isFalse();
        }
      }
      assertThat(claim.claimed()).extracting(p -> p.metadata().key())
          .containsExactlyInAnyOrderElementsOf(controlledMatching);

      List<Pod> current = new ArrayList<>();
      for (Pod p : pods) {
        current.add(store.require(Pod.class, p.metadata().namespace(), p.metadata().name()));
      }
      ControllerRefManager.Claim<Pod> again = new ControllerRefManager<>(store, rs, SELECTOR, () -> null, List.of())
          .claim(current);
      assertThat(again.claimed()).extracting(p -> p.metadata().key())
          .containsExactlyInAnyOrderElementsOf(controlledMatching);
      for (Pod p : current) {
        assertThat(store.require(Pod.class, p.metadata().namespace(), p.metadata().name()).metadata()
            .resourceVersion()).as("no write the second time").isEqualTo(p.metadata().resourceVersion());
      }
    }
  }
}
