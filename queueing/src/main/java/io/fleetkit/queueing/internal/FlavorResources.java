package io.fleetkit.queueing.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Dense indices for (flavor, resource) pairs and for resource names, so that quota arithmetic runs on {@code long[]}.
 */
public final class FlavorResources {
  private final Map<String, Map<String, Integer>> index = new HashMap<>();
  private final List<String> flavorOf = new ArrayList<>();
  private final List<Integer> resourceOf = new ArrayList<>();
  private final Map<String, Integer> resourceIndex = new HashMap<>();
  private final List<String> resources = new ArrayList<>();

  /** The index of {@code (flavor, resource)}, adding it if new. */
  int add(String flavor, String resource) {
    Map<String, Integer> m = index.computeIfAbsent(flavor, f -> new HashMap<>());
    Integer i = m.get(resource);
    if (i != null) {
      return i;
    }
    int r = resourceIndex.computeIfAbsent(resource, x -> {
      resources.add(x);
      return resources.size() - 1;
    });
    int fr = flavorOf.size();
    flavorOf.add(flavor);
    resourceOf.add(r);
    m.put(resource, fr);
    return fr;
  }

  /** The index of {@code (flavor, resource)}, or -1. */
  public int of(String flavor, String resource) {
    Map<String, Integer> m = index.get(flavor);
    if (m == null) {
      return -1;
    }
    Integer i = m.get(resource);
    return i == null ? -1 : i;
  }

  public int size() {
    return flavorOf.size();
  }

  public int resourceCount() {
    return resources.size();
  }

  public String flavor(int fr) {
    return flavorOf.get(fr);
  }

  public String resource(int fr) {
    return resources.get(resourceOf.get(fr));
  }

  public int resourceIndex(int fr) {
    return resourceOf.get(fr);
  }

  public String resourceName(int r) {
    return resources.get(r);
  }

  /**
   * The flavor-resources of {@code dense} (milli-units by flavor-resource index) with a usage other than zero, in
   * index order: the sparse form a usage is kept in, with {@link #valuesAt}.
   */
  static int[] nonZero(long[] dense) {
    int n = 0;
    for (long v : dense) {
      n += v != 0 ? 1 : 0;
    }
    int[] frs = new int[n];
    n = 0;
    for (int fr = 0; fr < dense.length; fr++) {
      if (dense[fr] != 0) {
        frs[n++] = fr;
      }
    }
    return frs;
  }

  /** The values of {@code dense} at {@code frs}, in their order. */
  static long[] valuesAt(long[] dense, int[] frs) {
    long[] values = new long[frs.length];
    for (int i = 0; i < frs.length; i++) {
      values[i] = dense[frs[i]];
    }
    return values;
  }
}
