package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.NamespaceSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random sequences of deletes, updates of {@code metadata.finalizers} and {@code spec.finalizers} (which an update
 * must keep) and finalize writes on one namespace: a write removes it exactly when it leaves the namespace marked
 * with both lists empty (except the first deletion, which only marks, as upstream's), a marked namespace is
 * Terminating, and an update never changes {@code spec.finalizers}.
 */
final class NamespaceFinalizersPropertyTest {

  enum Op { DELETE, ADD_METADATA, CLEAR_METADATA, UPDATE_SPEC, FINALIZE_ONE, FINALIZE_ALL }

  @Provide
  Arbitrary<List<Op>> ops() {
    return Arbitraries.of(Op.class).list().ofMaxSize(12);
  }

  @Property(tries = 300)
  void removedExactlyWhenMarkedAndBothListsEmpty(@ForAll("ops") List<Op> ops) {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      store.create(new Namespace(Namespace.of("a").metadata(), new NamespaceSpec(List.of("example.com/x")),
          Namespace.of("a").status()));
      for (Op op : ops) {
        Optional<Namespace> before = store.get(Namespace.class, "", "a");
        if (before.isEmpty()) {
          return;
        }
        Namespace ns = before.get();
        Namespace after = apply(store, ns, op);
        if (after == null) { // refused: nothing changed
          assertThat(store.require(Namespace.class, "", "a")).isEqualTo(ns);
          continue;
        }
        boolean gone = store.get(Namespace.class, "", "a").isEmpty();
        boolean releasable = after.metadata().deletionTimestamp() != null && after.metadata().finalizers().isEmpty()
            && after.spec().finalizers().isEmpty();
        assertThat(gone).as("%s on %s gave %s", op, ns, after).isEqualTo(releasable
            && (op != Op.DELETE || ns.metadata().deletionTimestamp() != null));
        if (!gone) {
          Namespace now = store.require(Namespace.class, "", "a");
          assertThat(now.metadata().deletionTimestamp() == null || now.status().phase() == NamespacePhase.Terminating)
              .isTrue();
          if (op == Op.UPDATE_SPEC || op == Op.ADD_METADATA || op == Op.CLEAR_METADATA) {
            assertThat(now.spec()).as("an update keeps spec.finalizers").isEqualTo(ns.spec());
          }
        }
      }
    }
  }

  private static @org.jspecify.annotations.Nullable Namespace apply(ObjectStore store, Namespace ns, Op op) {
    switch (op) {
      case DELETE:
        return store.delete(Namespace.class, "", "a");
      case ADD_METADATA:
        try {
          return store.update(ns.withMetadata(ns.metadata().toBuilder().finalizer("example.com/hold").build()));
        } catch (ValidationException refused) { // no new finalizers on an object being deleted
          assertThat(ns.metadata().deletionTimestamp()).isNotNull();
          return null;
        }
      case CLEAR_METADATA:
        return store.update(ns.withMetadata(ns.metadata().toBuilder().finalizers(List.of()).build()));
      case UPDATE_SPEC:
        return store.update(ns.withSpec(NamespaceSpec.EMPTY));
      case FINALIZE_ONE: {
        List<String> rest = new ArrayList<>(ns.spec().finalizers());
        if (!rest.isEmpty()) {
          rest.remove(0);
        }
        return store.finalizeNamespace(ns.withSpec(new NamespaceSpec(rest)));
      }
      case FINALIZE_ALL:
        return store.finalizeNamespace(ns.withSpec(NamespaceSpec.EMPTY));
      default:
        throw new AssertionError(op);
    }
  }
}
