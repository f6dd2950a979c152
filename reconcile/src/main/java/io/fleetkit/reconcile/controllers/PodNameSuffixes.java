package io.fleetkit.reconcile.controllers;

import java.util.Random;
import java.util.function.Supplier;

/** Generated pod-name suffixes ({@code NAME-xxxxx}) from upstream's alphabet, seeded for reproducible runs. */
final class PodNameSuffixes {
  private static final char[] ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789".toCharArray();

  private PodNameSuffixes() {}

  /** A thread-safe source of five-character suffixes, the same sequence for the same seed. */
  static Supplier<String> seeded(long seed) {
    Random random = new Random(seed);
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
