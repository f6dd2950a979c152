package io.fleetkit.api.store.spi;

import static io.fleetkit.api.store.DeletionPropagation.FOREGROUND_FINALIZER;
import static io.fleetkit.api.store.DeletionPropagation.ORPHAN_FINALIZER;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletionPropagation;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants of the GC finalizers a deletion leaves ({@link DeletionFinalizers#forDeletion}), over random finalizer
 * lists (with and without the two GC finalizers, repeated or not), options and kind defaults.
 */
final class DeletionFinalizersPropertyTest {

  @Provide
  Arbitrary<List<String>> finalizers() {
    return Arbitraries.of(ORPHAN_FINALIZER, FOREGROUND_FINALIZER, "a.io/x", "b.io/y", "c.io/z").list().ofMaxSize(5);
  }

  @Provide
  Arbitrary<DeleteOptions> options() {
    Arbitrary<DeletionPropagation> policy = Arbitraries.of(DeletionPropagation.class).injectNull(0.3);
    Arbitrary<Boolean> orphan = Arbitraries.of(true, false).injectNull(0.5);
    return Combinators.combine(policy, orphan).as((p, o) -> p != null && o != null
        ? DeleteOptions.DEFAULT.withPropagationPolicy(p) : new DeleteOptions(
            io.fleetkit.api.store.DeletePreconditions.NONE, p, o));
  }

  private static List<String> after(List<String> finalizers, DeleteOptions options, GarbageCollectionPolicy policy) {
    List<String> r = DeletionFinalizers.forDeletion(finalizers, options, policy);
    return r == null ? finalizers : r;
  }

  private static List<String> others(List<String> finalizers) {
    List<String> out = new ArrayList<>();
    for (String f : finalizers) {
      if (!f.equals(ORPHAN_FINALIZER) && !f.equals(FOREGROUND_FINALIZER)) {
        out.add(f);
      }
    }
    return out;
  }

  @Property(tries = 500)
  void neverBothGcFinalizers_othersKeptInOrder_secondDeletionChangesNothing(
      @ForAll("finalizers") List<String> finalizers, @ForAll("options") DeleteOptions options,
      @ForAll GarbageCollectionPolicy policy) {
    List<String> changed = DeletionFinalizers.forDeletion(finalizers, options, policy);
    List<String> result = changed == null ? finalizers : changed;

    assertThat(result.contains(ORPHAN_FINALIZER) && result.contains(FOREGROUND_FINALIZER))
        .as("orphan and foregroundDeletion together in %s", result).isFalse();
    assertThat(others(result)).isEqualTo(others(finalizers));
    assertThat(DeletionFinalizers.forDeletion(result, options, policy)).as("idempotent").isNull();
  }

  @Property(tries = 300)
  void explicitPolicy_decidesAlone(@ForAll("finalizers") List<String> finalizers,
      @ForAll DeletionPropagation propagation, @ForAll GarbageCollectionPolicy policy) {
    List<String> result = after(finalizers, DeleteOptions.propagation(propagation), policy);

    boolean gc = policy != GarbageCollectionPolicy.UNSUPPORTED;
    assertThat(result.contains(ORPHAN_FINALIZER)).isEqualTo(gc && propagation == DeletionPropagation.ORPHAN);
    assertThat(result.contains(FOREGROUND_FINALIZER))
        .isEqualTo(gc && propagation == DeletionPropagation.FOREGROUND);
  }

  @Property(tries = 300)
  void withoutOptions_existingGcFinalizerKept_elseKindDefault(@ForAll("finalizers") List<String> finalizers,
      @ForAll GarbageCollectionPolicy policy) {
    List<String> result = after(finalizers, DeleteOptions.DEFAULT, policy);

    if (policy == GarbageCollectionPolicy.UNSUPPORTED) {
      assertThat(result).doesNotContain(ORPHAN_FINALIZER, FOREGROUND_FINALIZER);
    } else if (!finalizers.contains(ORPHAN_FINALIZER) && !finalizers.contains(FOREGROUND_FINALIZER)) {
      assertThat(result.contains(ORPHAN_FINALIZER)).isEqualTo(policy == GarbageCollectionPolicy.ORPHAN_DEPENDENTS);
      assertThat(result).doesNotContain(FOREGROUND_FINALIZER);
    } else {
      int o = finalizers.indexOf(ORPHAN_FINALIZER);
      int f = finalizers.indexOf(FOREGROUND_FINALIZER);
      String first = o >= 0 && (f < 0 || o < f) ? ORPHAN_FINALIZER : FOREGROUND_FINALIZER;
      assertThat(result).as("the first GC finalizer of %s wins", finalizers).contains(first);
    }
  }
}
