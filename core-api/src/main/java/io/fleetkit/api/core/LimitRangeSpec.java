package io.fleetkit.api.core;

import java.util.List;

/** The items of a {@link LimitRange}, at most one per {@link LimitType}. */
public record LimitRangeSpec(List<LimitRangeItem> limits) {
  public LimitRangeSpec {
    limits = List.copyOf(limits);
  }
}
