package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The store's label index never changes what a list by selector returns: after random creates, label changes,
 * status updates, deletes (with and without finalizers) and finalizer removals over two namespaces, every list by
 * selector equals the namespace's full list filtered by {@link LabelSelector#matches}, in the same order; and every
 * get, list and list by selector returns exactly the objects the writes returned last (a model kept beside the
 * store), so an update that keeps the labels, which replaces the object in place, is seen by every read path.
 */
final class ObjectStoreLabelIndexPropertyTest {
  private static final List<String> NAMESPACES = List.of("a", "a0", "b");
  private static final List<String> KEYS = List.of("app", "tier", "x");
  private static final List<String> VALUES = List.of("1", "2", "3");

  enum OpType { CREATE, RELABEL, STATUS, DELETE, DELETE_FINALIZED, FINALIZE }

  record Op(OpType type, String namespace, String name, Map<String, String> labels) {}

  @Provide
  Arbitrary<Map<String, String>> labels() {
    return Arbitraries.maps(Arbitraries.of(KEYS), Arbitraries.of(VALUES)).ofMaxSize(3);
  }

  @Provide
  Arbitrary<List<Op>> operations() {
    Arbitrary<Op> op = Combinators.combine(Arbitraries.of(OpType.class), Arbitraries.of(NAMESPACES),
        Arbitraries.of("p", "q", "r", "s", "t"), labels()).as(Op::new);
    return op.list().ofMaxSize(60);
  }

  @Provide
  Arbitrary<List<LabelSelector>> selectors() {
    Arbitrary<LabelSelectorRequirement> req = Combinators.combine(Arbitraries.of(KEYS),
        Arbitraries.of(LabelSelectorOperator.class), Arbitraries.of(VALUES).list().ofMinSize(1)
            .ofMaxSize(2)).as((k, o, v) -> new LabelSelectorRequirement(k, o,
                o == LabelSelectorOperator.In || o == LabelSelectorOperator.NotIn
                    ? v : List.of()));
    Arbitrary<LabelSelector> s = Combinators.combine(labels(), req.list().ofMaxSize(2)).as(LabelSelector::new);
    return s.list().ofMinSize(1).ofMaxSize(8);
  }

  @Property(tries = 300)
  void listBySelector_equalsFilteredFullList(@ForAll("operations") List<Op> ops,
      @ForAll("selectors") List<LabelSelector> selectors) {
    ObjectStore store = ObjectStore.builder().directDelivery().build();
    for (Op op : ops) {
      try {
        apply(store, op);
      } catch (RuntimeException e) {
        // not found / already exists: the sequence goes on
      }
      for (LabelSelector sel : selectors) {
        for (String ns : NAMESPACES) {
          List<String> expected = new ArrayList<>();
          for (Widget w : store.list(Widget.class, ns).items()) {
            if (sel.matches(w.metadata().labels())) {
              expected.add(w.metadata().key());
            }
          }
          List<String> actual = store.list(Widget.class, ns, sel).items().stream()
              .map(w -> w.metadata().key()).toList();
          assertThat(actual).as("list %s in %s after %s", sel, ns, op).isEqualTo(expected);
        }
      }
    }
  }

  @Property(tries = 300)
  void everyRead_returnsTheLastWrittenObjects(@ForAll("operations") List<Op> ops,
      @ForAll("selectors") List<LabelSelector> selectors) {
    ObjectStore store = ObjectStore.builder().directDelivery().build();
    // the model: the objects of the store's events (direct delivery: applied before each write returns)
    TreeMap<String, Widget> model = new TreeMap<>(); // "namespace/name" sorts as the store lists (no '/' in names)
    store.watch(Widget.class, store.resourceVersion(), event -> {
      if (event.type() == WatchEventType.DELETED) {
        model.remove(event.object().metadata().key());
      } else {
        model.put(event.object().metadata().key(), event.object());
      }
    });
    for (Op op : ops) {
      try {
        apply(store, op);
      } catch (RuntimeException e) {
        // not found / already exists: the sequence goes on
      }
      for (String ns : NAMESPACES) {
        for (String name : List.of("p", "q", "r", "s", "t")) {
          assertThat(store.get(Widget.class, ns, name)).as("get %s/%s after %s", ns, name, op)
              .isEqualTo(java.util.Optional.ofNullable(model.get(ns + "/" + name)));
        }
      }
      for (String ns : NAMESPACES) {
        List<Widget> expected = model.values().stream().filter(w -> w.metadata().namespace().equals(ns)).toList();
        assertThat(store.list(Widget.class, ns).items()).as("list of %s after %s", ns, op)
            .containsExactlyElementsOf(expected);
        for (LabelSelector sel : selectors) {
          assertThat(store.list(Widget.class, ns, sel).items()).as("list %s in %s after %s", sel, ns, op)
              .containsExactlyElementsOf(expected.stream().filter(w -> sel.matches(w.metadata().labels()))
                  .toList());
        }
      }
      assertThat(store.list(Widget.class, "").items()).as("list of all after %s", op)
          .containsExactlyElementsOf(model.values());
    }
  }

  private static void apply(ObjectStore store, Op op) {
    switch (op.type()) {
      case CREATE -> store.create(new Widget(ObjectMeta.builder().namespace(op.namespace()).name(op.name())
          .labels(new TreeMap<>(op.labels())).build(), 1, ""));
      case RELABEL -> {
        Widget w = store.require(Widget.class, op.namespace(), op.name());
        store.update(w.withMetadata(w.metadata().withLabels(op.labels())));
      }
      case STATUS -> {
        Widget w = store.require(Widget.class, op.namespace(), op.name());
        store.updateStatus(w.withPhase(w.phase() + "x"));
      }
      case DELETE -> store.delete(Widget.class, op.namespace(), op.name(), DeletePreconditions.NONE);
      case DELETE_FINALIZED -> {
        Widget w = store.require(Widget.class, op.namespace(), op.name());
        store.update(w.withMetadata(w.metadata().toBuilder().finalizers(List.of("f")).build()));
        store.delete(Widget.class, op.namespace(), op.name(), DeletePreconditions.NONE);
      }
      case FINALIZE -> {
        Widget w = store.require(Widget.class, op.namespace(), op.name());
        store.update(w.withMetadata(w.metadata().toBuilder().finalizers(List.of()).labels(op.labels()).build()));
      }
    }
  }
}
