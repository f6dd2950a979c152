package io.fleetkit.api.framework;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What PostFilter (preemption) did: a status, the nominated node if any, and the victims it evicted (as
 * {@code namespace/name}).
 */
public record PostFilterResult(Status status, @Nullable String nominatedNodeName, List<String> victims) {
  public PostFilterResult {
    victims = List.copyOf(victims);
  }

  public static PostFilterResult of(Status status) {
    return new PostFilterResult(status, null, List.of());
  }
}
