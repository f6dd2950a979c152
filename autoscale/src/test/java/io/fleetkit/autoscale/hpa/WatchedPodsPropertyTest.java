package io.fleetkit.autoscale.hpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link WatchedPods} kept from the watch equals listing the store: after random creates, relabels, status changes
 * and deletions of pods in two namespaces, interleaved with lists by selectors (equality terms, set terms, the empty
 * selector), every list equals {@code store.list(Pod.class, namespace, selector)}, and a list asked again with no
 * change to its pods is the same instance.
 */
final class WatchedPodsPropertyTest {
  private static final List<String> NAMESPACES = List.of("a", "b");
  private static final List<LabelSelector> SELECTORS = List.of(
      LabelSelector.of(Map.of("app", "web")),
      LabelSelector.of(Map.of("app", "db")),
      LabelSelector.of(Map.of("app", "web", "tier", "front")),
      expression("tier", LabelSelectorOperator.In, "front", "back"),
      expression("app", LabelSelectorOperator.NotIn, "web"),
      expression("tier", LabelSelectorOperator.Exists),
      LabelSelector.EVERYTHING);

  private static LabelSelector expression(String key, LabelSelectorOperator op, String... values) {
    return new LabelSelector(Map.of(), List.of(new LabelSelectorRequirement(key, op, List.of(values))));
  }

  /** One step: 0 create or replace, 1 relabel, 2 status change, 3 delete, 4 list. */
  record Step(int action, int namespace, int pod, int labels, int selector) {}

  @Provide
  Arbitrary<List<Step>> steps() {
    return Combinators.combine(Arbitraries.integers().between(0, 4), Arbitraries.integers().between(0, 1),
        Arbitraries.integers().between(0, 7), Arbitraries.integers().between(0, 5),
        Arbitraries.integers().between(0, SELECTORS.size() - 1)).as(Step::new).list().ofMinSize(1).ofMaxSize(80);
  }

  private static Map<String, String> labels(int i) {
    Map<String, String> out = new LinkedHashMap<>();
    switch (i) {
      case 0 -> out.put("app", "web");
      case 1 -> {
        out.put("app", "web");
        out.put("tier", "front");
      }
      case 2 -> out.put("app", "db");
      case 3 -> {
        out.put("app", "db");
        out.put("tier", "back");
      }
      case 4 -> out.put("tier", "front");
      default -> { } // no labels
    }
    return out;
  }

  private static Pod pod(String namespace, String name, Map<String, String> labels) {
    return Pod.builder().metadata(ObjectMeta.builder().namespace(namespace).name(name).labels(labels).build())
        .container("app", "img:1", ResourceList.EMPTY).build();
  }

  /** The case jqwik shrank to: a pod created and deleted between two reads leaves the same list instance. */
  @Example
  void podCreatedAndDeletedBetweenReads_sameListInstance() {
    ObjectStore store = ObjectStore.builder().directDelivery().build();
    try (WatchedPods watched = new WatchedPods(store)) {
      String ns = NAMESPACES.get(0);
      store.create(pod(ns, "p0", labels(0)));
      List<Pod> first = watched.list(ns, SELECTORS.get(0));
      assertThat(first).hasSize(1);
      store.create(pod(ns, "p2", labels(0)));
      store.delete(Pod.class, ns, "p2");
      assertThat(watched.list(ns, SELECTORS.get(0))).isSameAs(first);
    }
  }

  @Property(tries = 100)
  void watchedLists_equalTheStoresLists(@ForAll("steps") List<Step> steps) {
    ObjectStore store = ObjectStore.builder().directDelivery().build();
    try (WatchedPods watched = new WatchedPods(store)) {
      Map<String, List<Pod>> last = new LinkedHashMap<>();
      for (Step s : steps) {
        String ns = NAMESPACES.get(s.namespace());
        String name = "p" + s.pod();
        Pod current = store.get(Pod.class, ns, name).orElse(null);
        switch (s.action()) {
          case 0 -> {
            if (current == null) {
              store.create(pod(ns, name, labels(s.labels())));
            }
          }
          case 1 -> {
            if (current != null) {
              store.update(current.withMetadata(current.metadata().toBuilder().labels(labels(s.labels())).build()));
            }
          }
          case 2 -> {
            if (current != null) {
              store.updateStatus(current.withStatus(PodStatus.of(
                  current.status().phase() == PodPhase.Running ? PodPhase.Pending : PodPhase.Running)));
            }
          }
          case 3 -> {
            if (current != null) {
              store.delete(Pod.class, ns, name);
            }
          }
          default -> {
            LabelSelector selector = SELECTORS.get(s.selector());
            List<Pod> got = watched.list(ns, selector);
            assertThat(got).isEqualTo(store.list(Pod.class, ns, selector).items());
            // the label sets kept from the watch are those of the pods listed
            assertThat(new java.util.HashSet<>(watched.labelSets(ns, selector, got))).isEqualTo(
                got.stream().map(p -> p.metadata().labels()).collect(java.util.stream.Collectors.toSet()));
            String k = ns + " " + selector;
            List<Pod> before = last.get(k);
            if (before != null && before.equals(got)) {
              assertThat(got).as("unchanged pods: the same list").isSameAs(before);
            }
            last.put(k, got);
          }
        }
        // every selector asked so far still agrees with the store, and is the list handed out last while equal
        for (String ns2 : NAMESPACES) {
          for (LabelSelector selector : SELECTORS) {
            String k2 = ns2 + " " + selector;
            List<Pod> before = last.get(k2);
            if (before != null) {
              List<Pod> now = watched.list(ns2, selector);
              assertThat(now).isEqualTo(store.list(Pod.class, ns2, selector).items());
              if (before.equals(now)) {
                assertThat(now).as("unchanged pods: the same list").isSameAs(before);
              }
              last.put(k2, now);
            }
          }
        }
      }
    }
  }

  /**
   * Lists found by selector instance: asked with the kept selectors, with equal ones made per read, and with one
   * instance in both namespaces, between random writes, every answer is the store's list for that namespace.
   */
  @Property(tries = 100)
  void listsBySelectorInstance_equalTheStoresLists(@ForAll("steps") List<Step> steps) {
    ObjectStore store = ObjectStore.builder().directDelivery().build();
    try (WatchedPods watched = new WatchedPods(store)) {
      for (Step s : steps) {
        String ns = NAMESPACES.get(s.namespace());
        String name = "p" + s.pod();
        Pod current = store.get(Pod.class, ns, name).orElse(null);
        if (s.action() == 0 && current == null) {
          store.create(pod(ns, name, labels(s.labels())));
        } else if (s.action() == 1 && current != null) {
          store.update(current.withMetadata(current.metadata().toBuilder().labels(labels(s.labels())).build()));
        } else if (s.action() == 3 && current != null) {
          store.delete(Pod.class, ns, name);
        }
        LabelSelector kept = SELECTORS.get(s.selector());
        LabelSelector fresh = new LabelSelector(kept.matchLabels(), kept.matchExpressions());
        for (String ns2 : NAMESPACES) {
          List<Pod> expected = store.list(Pod.class, ns2, kept).items();
          assertThat(watched.list(ns2, kept)).isEqualTo(expected);
          assertThat(watched.list(ns2, fresh)).isEqualTo(expected);
          assertThat(watched.list(ns2, kept)).isEqualTo(expected);
        }
      }
    }
  }

  @Example
  void list_unchangedPods_sameInstance_changedPod_newList() {
    ObjectStore store = ObjectStore.builder().directDelivery().build();
    WatchedPods watched = new WatchedPods(store);
    store.create(pod("a", "p0", labels(0)));
    store.create(pod("a", "p1", labels(2)));
    LabelSelector web = SELECTORS.get(0);
    List<Pod> first = watched.list("a", web);
    assertThat(first).extracting(p -> p.metadata().name()).containsExactly("p0");
    store.create(pod("b", "p0", labels(0))); // another namespace
    Pod db = store.require(Pod.class, "a", "p1");
    store.updateStatus(db.withStatus(PodStatus.of(PodPhase.Running))); // a pod the selector does not match
    assertThat(watched.list("a", web)).isSameAs(first);
    Pod p0 = store.require(Pod.class, "a", "p0");
    store.updateStatus(p0.withStatus(PodStatus.of(PodPhase.Running)));
    List<Pod> second = watched.list("a", web);
    assertThat(second).isNotSameAs(first).containsExactly(store.require(Pod.class, "a", "p0"));
    watched.close();
    assertThatThrownBy(() -> watched.list("a", web)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }
}
