package io.fleetkit.networking.dns;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The order in which {@link Forwarder} tries its upstreams for one query, CoreDNS's {@code forward} option
 * {@code policy random|round_robin|sequential} ({@code plugin/forward/policy.go}).
 */
public enum ForwardPolicy {
  /** A random order for each query (two upstreams: swapped half the time); CoreDNS's default. */
  RANDOM,
  /** The n-th query starts at upstream {@code n mod size}, then the others in configured order. */
  ROUND_ROBIN,
  /** The configured order, always. */
  SEQUENTIAL;

  /**
   * The policy named {@code text} as the Corefile spells it ({@code random}, {@code round_robin},
   * {@code sequential}; any case).
   *
   * @throws IllegalArgumentException for any other text, naming the three values
   */
  public static ForwardPolicy parse(String text) {
    Objects.requireNonNull(text, "text");
    for (ForwardPolicy p : values()) {
      if (p.name().equalsIgnoreCase(text)) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown policy '" + text + "': must be random, round_robin or sequential");
  }

  /** The Corefile spelling. */
  public String corefileName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The order to try {@code upstreams} in.
   *
   * @param robin for {@link #ROUND_ROBIN}, this query's count (the first query is 1, as CoreDNS's counter after its
   *     first increment)
   * @param random for {@link #RANDOM}
   */
  <T> List<T> order(List<T> upstreams, long robin, RandomGenerator random) {
    int n = upstreams.size();
    switch (this) {
      case SEQUENTIAL -> {
        return upstreams;
      }
      case ROUND_ROBIN -> {
        int i = (int) Math.floorMod(robin, (long) n);
        List<T> out = new ArrayList<>(n);
        out.add(upstreams.get(i));
        out.addAll(upstreams.subList(0, i));
        out.addAll(upstreams.subList(i + 1, n));
        return out;
      }
      default -> {
        if (n == 1) {
          return upstreams;
        }
        if (n == 2) {
          return random.nextBoolean() ? List.of(upstreams.get(1), upstreams.get(0)) : upstreams;
        }
        List<T> out = new ArrayList<>(upstreams);
        for (int i = n - 1; i > 0; i--) { // Fisher-Yates: every order equally likely, as Go's rand.Perm
          int j = random.nextInt(i + 1);
          T t = out.get(i);
          out.set(i, out.get(j));
          out.set(j, t);
        }
        return out;
      }
    }
  }
}
