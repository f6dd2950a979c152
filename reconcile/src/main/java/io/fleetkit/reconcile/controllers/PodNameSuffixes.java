package io.fleetkit.reconcile.controllers;

import java.util.Random;
import java.util.function.Supplier;

/** Generated pod-name suffixes ({@code NAME-xxxxx}) from upstream's alphabet, seeded for reproducible runs. */
final class PodNameSuffixes {
  private static final char[] ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789".toCharArray();

  private PodNameSuffixes() {}

  /**
   * A thread-safe source of five-character suffixes, the same sequence for the same seed and controller. Upstream's
   * API server draws every generated name from one random source; here each controller has its own, and the
   * controller's name takes part in the seed, so that controllers given one seed do not all name their pods with the
   * same suffixes.
   */
  static Supplier<String> seeded(long seed, String controller) {
    Random random = new Random(seed ^ (controller.hashCode() * 0x9E3779B97F4A7C15L));
    return () -> {
      char[] s = new char[5];
      synchronized (random) {
        for (int i = 0; i < s.length; i++) {
          s[i] = ALPHANUMS[random.nextInt(ALPHANUMS.length)];
        }
      }
      return new String(s);
    };
  }
}
