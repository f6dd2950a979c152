package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link HostSelection#selectHost(long[], int, long, SplittableRandom, int[])}, told the highest total, picks what
 * {@link HostSelection#selectHost(long[], int, SplittableRandom)} finds by itself, with the same draws from the seeded
 * generator, for totals with many ties, few ties and none.
 */
final class SelectHostKnownMaxPropertiesTest {

  @Property(tries = 500)
  void knownMax_sameChoiceAndDraws(@ForAll @Size(min = 1, max = 300) long[] raw,
      @ForAll @IntRange(min = 1, max = 6) int distinct, @ForAll @LongRange(min = 1) long seed,
      @ForAll boolean anyValues) {
    long[] totals = new long[raw.length];
    for (int i = 0; i < raw.length; i++) {
      totals[i] = anyValues ? raw[i] : Math.floorMod(raw[i], distinct) * 37L; // few distinct values: many ties
    }
    for (int k = 1; k <= totals.length; k = k * 2 + 1) {
      long max = Long.MIN_VALUE;
      for (int i = 0; i < k; i++) {
        max = Math.max(max, totals[i]);
      }
      SplittableRandom known = new SplittableRandom(seed);
      SplittableRandom found = new SplittableRandom(seed);
      assertThat(HostSelection.selectHost(totals, k, max, known, new int[k]))
          .isEqualTo(HostSelection.selectHost(totals, k, found));
      assertThat(known.nextLong()).as("the same number of draws").isEqualTo(found.nextLong());
    }
  }
}
