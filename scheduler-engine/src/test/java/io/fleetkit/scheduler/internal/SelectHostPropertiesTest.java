package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link HostSelection#selectHost(long[], int, SplittableRandom)} against kube's selectHost written as one pass (the
 * highest total, ties counted, one draw among the tied nodes in order): the same position and the same draws from the
 * seeded generator, for totals with many ties, few ties and none.
 */
final class SelectHostPropertiesTest {

  @Property(tries = 500)
  void sameChoiceAndDrawsAsOnePass(@ForAll @Size(min = 1, max = 300) long[] raw,
      @ForAll @IntRange(min = 1, max = 6) int distinct, @ForAll @LongRange(min = 1) long seed) {
    long[] totals = new long[raw.length];
    for (int i = 0; i < raw.length; i++) {
      totals[i] = Math.floorMod(raw[i], distinct) * 37L; // few distinct values: ties are common
    }
    for (int k = 1; k <= totals.length; k = k * 2 + 1) {
      SplittableRandom mine = new SplittableRandom(seed);
      SplittableRandom reference = new SplittableRandom(seed);
      assertThat(HostSelection.selectHost(totals, k, mine)).isEqualTo(onePass(totals, k, reference));
      assertThat(mine.nextLong()).as("the same number of draws").isEqualTo(reference.nextLong());
    }
  }

  @Property(tries = 200)
  void anyValues(@ForAll @Size(min = 1, max = 64) long[] totals, @ForAll @LongRange(min = 1) long seed) {
    SplittableRandom mine = new SplittableRandom(seed);
    SplittableRandom reference = new SplittableRandom(seed);
    assertThat(HostSelection.selectHost(totals, totals.length, mine)).isEqualTo(onePass(totals, totals.length,
        reference));
    assertThat(mine.nextLong()).isEqualTo(reference.nextLong());
  }

  /** The one-pass form: maximum, first position and tie count together, then the draw's position from the first. */
  private static int onePass(long[] t, int k, SplittableRandom random) {
    long max = t[0];
    int first = 0;
    int count = 1;
    for (int i = 1; i < k; i++) {
      long v = t[i];
      if (v > max) {
        max = v;
        first = i;
        count = 1;
      } else if (v == max) {
        count++;
      }
    }
    if (count == 1) {
      return first;
    }
    int pick = random.nextInt(count);
    for (int i = first; i < k; i++) {
      if (t[i] == max && pick-- == 0) {
        return i;
      }
    }
    throw new AssertionError("unreachable");
  }
}
