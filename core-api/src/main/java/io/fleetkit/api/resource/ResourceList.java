package io.fleetkit.api.resource;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * STUB (to be replaced by the hot-path implementation): an immutable map from resource name to quantity.
 *
 * <p>Public contract: {@link #EMPTY}, {@link #of(Map)}, {@link #builder()}, {@link #get(String)} (zero when absent),
 * {@link #milliCpu()}, {@link #memoryBytes()}, {@link #asMap()}, {@link #add}, {@link #max}, {@link #isEmpty()}.
 */
public final class ResourceList {
  public static final ResourceList EMPTY = new ResourceList(Map.of());
  private final Map<String, Quantity> values;

  private ResourceList(Map<String, Quantity> values) {
    this.values = values;
  }

  public static ResourceList of(Map<String, Quantity> values) {
    return new ResourceList(Map.copyOf(values));
  }

  public static Builder builder() {
    return new Builder();
  }

  public Quantity get(String name) {
    return values.getOrDefault(name, Quantity.ZERO);
  }

  public boolean has(String name) {
    return values.containsKey(name);
  }

  public long milliCpu() {
    return get(ResourceNames.CPU).milliValue();
  }

  public long memoryBytes() {
    return get(ResourceNames.MEMORY).value();
  }

  public Map<String, Quantity> asMap() {
    return values;
  }

  public boolean isEmpty() {
    return values.isEmpty();
  }

  public ResourceList add(ResourceList o) {
    Map<String, Quantity> m = new LinkedHashMap<>(values);
    o.values.forEach((k, v) -> m.merge(k, v, Quantity::add));
    return of(m);
  }

  public ResourceList max(ResourceList o) {
    Map<String, Quantity> m = new LinkedHashMap<>(values);
    o.values.forEach((k, v) -> m.merge(k, v, (a, b) -> a.compareTo(b) >= 0 ? a : b));
    return of(m);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResourceList r && r.values.equals(values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  @Override
  public String toString() {
    return values.toString();
  }

  /** Mutable builder; not thread-safe. */
  public static final class Builder {
    private final Map<String, Quantity> m = new LinkedHashMap<>();

    public Builder put(String name, Quantity q) {
      m.put(Objects.requireNonNull(name), Objects.requireNonNull(q));
      return this;
    }

    public Builder put(String name, String quantity) {
      return put(name, Quantity.parse(quantity));
    }

    public ResourceList build() {
      return of(m);
    }
  }
}
