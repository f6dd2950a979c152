package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.queueing.FlavorFungibility.Preference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Kueue's {@code isPreferred} must be a strict order for both preferences, or the flavor the assigner keeps would
 * depend on the order it tries equally good flavors in more than "the first of equals wins": never preferred to
 * itself, never both ways, and transitive. And whatever the preference, a flavor that does not fit never beats one
 * that does something, and one without preemption candidates never beats one that fits or can preempt.
 */
final class FlavorPreferencePropertiesTest {
  @Provide
  Arbitrary<int[]> mode() {
    return Arbitraries.integers().between(Assignment.NO_FIT, Assignment.FIT).flatMap(m ->
        Arbitraries.integers().between(0, 4).map(b -> new int[] {m, b}));
  }

  private static boolean pref(int[] a, int[] b, Preference p) {
    return FlavorAssigner.isPreferred(a[0], a[1], b[0], b[1], p);
  }

  @Property
  void isPreferredIsAStrictOrder(@ForAll("mode") int[] a, @ForAll("mode") int[] b, @ForAll("mode") int[] c,
      @ForAll Preference p) {
    assertThat(pref(a, a, p)).isFalse();
    assertThat(pref(a, b, p) && pref(b, a, p)).isFalse();
    if (pref(a, b, p) && pref(b, c, p)) {
      assertThat(pref(a, c, p)).isTrue();
    }
  }

  @Property
  void noFitAndNoCandidatesRankBelowTheRestWhateverThePreference(@ForAll("mode") int[] a, @ForAll("mode") int[] b,
      @ForAll Preference p) {
    if (a[0] == Assignment.NO_FIT && b[0] != Assignment.NO_FIT) {
      assertThat(pref(a, b, p)).isFalse();
      assertThat(pref(b, a, p)).isTrue();
    }
    if (a[0] == Assignment.NO_CANDIDATES && b[0] > Assignment.NO_CANDIDATES) {
      assertThat(pref(a, b, p)).isFalse();
    }
  }
}
