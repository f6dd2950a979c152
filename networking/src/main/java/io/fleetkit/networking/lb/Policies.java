package io.fleetkit.networking.lb;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The {@link BalancingPolicy} implementations. */
final class Policies {
  private Policies() {}

  private static void requireCandidates(List<ProxyEndpoint> c) {
    if (c.isEmpty()) {
      throw new IllegalArgumentException("no usable endpoint to pick from");
    }
  }

  static final class RoundRobin implements BalancingPolicy {
    private final AtomicLong next = new AtomicLong();

    @Override
    public ProxyEndpoint pick(List<ProxyEndpoint> candidates) {
      requireCandidates(candidates);
      return candidates.get((int) Math.floorMod(next.getAndIncrement(), (long) candidates.size()));
    }
  }

  static final class Uniform implements BalancingPolicy {
    private final SplittableRandom random;

    Uniform(long seed) {
      random = new SplittableRandom(seed);
    }

    @Override
    public synchronized ProxyEndpoint pick(List<ProxyEndpoint> candidates) {
      requireCandidates(candidates);
      return candidates.get(random.nextInt(candidates.size()));
    }
  }

  static final class LeastRequest implements BalancingPolicy {
    private final SplittableRandom random;
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

    LeastRequest(long seed) {
      random = new SplittableRandom(seed);
    }

    @Override
    public ProxyEndpoint pick(List<ProxyEndpoint> candidates) {
      requireCandidates(candidates);
      ProxyEndpoint chosen;
      synchronized (this) {
        ProxyEndpoint a = candidates.get(random.nextInt(candidates.size()));
        ProxyEndpoint b = candidates.get(random.nextInt(candidates.size()));
        chosen = load(b) < load(a) ? b : a;
      }
      inFlight.computeIfAbsent(chosen.toString(), k -> new AtomicInteger()).incrementAndGet();
      return chosen;
    }

    private int load(ProxyEndpoint e) {
      AtomicInteger n = inFlight.get(e.toString());
      return n == null ? 0 : n.get();
    }

    @Override
    public void finished(ProxyEndpoint endpoint) {
      AtomicInteger n = inFlight.get(endpoint.toString());
      if (n != null) {
        n.updateAndGet(v -> Math.max(0, v - 1));
      }
    }
  }

  /** nginx's smooth weighted round robin: deterministic, and interleaves rather than bursts. */
  static final class Weighted implements BalancingPolicy {
    private final Map<String, Integer> weights;
    private final int defaultWeight;
    private final Map<String, Long> current = new HashMap<>();
    private final RoundRobin fallback = new RoundRobin();

    Weighted(Map<String, Integer> weights, int defaultWeight) {
      weights.forEach((k, v) -> {
        if (v < 0) {
          throw new IllegalArgumentException("weight of endpoint " + k + " must not be negative: " + v);
        }
      });
      if (defaultWeight < 0) {
        throw new IllegalArgumentException("default weight must not be negative: " + defaultWeight);
      }
      this.weights = Map.copyOf(weights);
      this.defaultWeight = defaultWeight;
    }

    int weightOf(ProxyEndpoint e) {
      return weights.getOrDefault(e.address(), defaultWeight);
    }

    @Override
    public synchronized ProxyEndpoint pick(List<ProxyEndpoint> candidates) {
      requireCandidates(candidates);
      long total = 0;
      ProxyEndpoint best = null;
      long bestValue = Long.MIN_VALUE;
      for (ProxyEndpoint e : candidates) {
        int w = weightOf(e);
        if (w == 0) {
          continue;
        }
        total += w;
        long v = current.getOrDefault(e.toString(), 0L) + w;
        current.put(e.toString(), v);
        if (v > bestValue) {
          bestValue = v;
          best = e;
        }
      }
      if (best == null) {
        return fallback.pick(candidates);
      }
      current.put(best.toString(), bestValue - total);
      return best;
    }
  }
}
