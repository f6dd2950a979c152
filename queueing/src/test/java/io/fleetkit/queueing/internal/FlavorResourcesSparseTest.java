package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link FlavorResources#nonZero} and {@link FlavorResources#valuesAt}, the sparse form usages are kept in: the
 * indices are exactly those of the values other than zero, ascending, and the pair gives the dense array back.
 */
final class FlavorResourcesSparseTest {
  @Provide
  Arbitrary<long[]> dense() {
    Arbitrary<Long> v = Arbitraries.oneOf(Arbitraries.just(0L), Arbitraries.longs().between(-5000, 5000));
    return v.array(long[].class).ofMaxSize(12);
  }

  @Property(tries = 300)
  void nonZero_anyArray_givesTheDenseArrayBack(@ForAll("dense") long[] dense) {
    int[] frs = FlavorResources.nonZero(dense);
    long[] values = FlavorResources.valuesAt(dense, frs);
    long[] back = new long[dense.length];
    for (int i = 0; i < frs.length; i++) {
      assertThat(values[i]).isNotZero();
      if (i > 0) {
        assertThat(frs[i]).isGreaterThan(frs[i - 1]);
      }
      back[frs[i]] = values[i];
    }
    assertThat(back).containsExactly(dense);
  }

  @Test
  void nonZero_mixedArray_keepsIndexOrder() {
    long[] dense = {0, 3000, 0, 0, -1, 7};
    int[] frs = FlavorResources.nonZero(dense);
    assertThat(frs).containsExactly(1, 4, 5);
    assertThat(FlavorResources.valuesAt(dense, frs)).containsExactly(3000, -1, 7);
  }
}
