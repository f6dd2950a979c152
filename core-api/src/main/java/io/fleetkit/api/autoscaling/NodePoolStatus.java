package io.fleetkit.api.autoscaling;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The observed part of a node pool.
 *
 * @param currentSize nodes of the pool that exist now, ready or starting
 * @param lastScaleTime when the pool last changed size; {@code null} if never
 */
public record NodePoolStatus(int currentSize, @Nullable Instant lastScaleTime) {
  public static final NodePoolStatus EMPTY = new NodePoolStatus(0, null);
}
