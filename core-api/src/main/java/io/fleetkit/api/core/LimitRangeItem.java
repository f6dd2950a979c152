package io.fleetkit.api.core;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One item of a {@link LimitRange}: bounds and defaults for one {@link LimitType}. Checked by {@link LimitRange}.
 *
 * @param defaultLimit the limits given to containers that set none (Kubernetes' field {@code default})
 * @param defaultRequest the requests given to containers that set none
 * @param maxLimitRequestRatio the largest allowed limit/request ratio per resource, kept exactly (a ratio such as
 *     {@code memory: 1.5} is not a memory amount, so it is not held in a {@link ResourceList})
 */
public record LimitRangeItem(LimitType type, ResourceList max, ResourceList min, ResourceList defaultLimit,
    ResourceList defaultRequest, Map<String, Quantity> maxLimitRequestRatio) {
  public LimitRangeItem {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(max, "max");
    Objects.requireNonNull(min, "min");
    Objects.requireNonNull(defaultLimit, "defaultLimit");
    Objects.requireNonNull(defaultRequest, "defaultRequest");
    maxLimitRequestRatio = Collections.unmodifiableMap(new TreeMap<>(maxLimitRequestRatio));
  }

  /** An item of {@code type} with nothing set; fill it with the {@code withX} methods. */
  public static LimitRangeItem of(LimitType type) {
    ResourceList e = ResourceList.EMPTY;
    return new LimitRangeItem(type, e, e, e, e, Map.of());
  }

  /**
   * This item with the API server's defaults ({@code SetDefaults_LimitRangeItem}), applied to type Container only:
   * a missing {@code default} takes {@code max}, a missing {@code defaultRequest} takes {@code default}, then
   * {@code min}. Manifests get them when read; items built in code get them only from this method.
   */
  public LimitRangeItem defaulted() {
    if (type != LimitType.Container) {
      return this;
    }
    ResourceList dflt = fill(defaultLimit, max);
    ResourceList dreq = fill(fill(defaultRequest, dflt), min);
    return dflt.equals(defaultLimit) && dreq.equals(defaultRequest) ? this
        : new LimitRangeItem(type, max, min, dflt, dreq, maxLimitRequestRatio);
  }

  /** {@code base} plus the entries of {@code from} it lacks. */
  private static ResourceList fill(ResourceList base, ResourceList from) {
    ResourceList.Builder b = null;
    for (String n : from.names()) {
      if (!base.has(n)) {
        if (b == null) {
          b = ResourceList.builder();
          base.asMap().forEach(b::put);
        }
        b.put(n, from.get(n));
      }
    }
    return b == null ? base : b.build();
  }

  public LimitRangeItem withMax(ResourceList r) {
    return new LimitRangeItem(type, r, min, defaultLimit, defaultRequest, maxLimitRequestRatio);
  }

  public LimitRangeItem withMin(ResourceList r) {
    return new LimitRangeItem(type, max, r, defaultLimit, defaultRequest, maxLimitRequestRatio);
  }

  public LimitRangeItem withDefaultLimit(ResourceList r) {
    return new LimitRangeItem(type, max, min, r, defaultRequest, maxLimitRequestRatio);
  }

  public LimitRangeItem withDefaultRequest(ResourceList r) {
    return new LimitRangeItem(type, max, min, defaultLimit, r, maxLimitRequestRatio);
  }

  public LimitRangeItem withMaxLimitRequestRatio(Map<String, Quantity> r) {
    return new LimitRangeItem(type, max, min, defaultLimit, defaultRequest, r);
  }
}
