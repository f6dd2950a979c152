package io.fleetkit.api.events;

import java.time.Instant;
import java.util.Objects;

/**
 * How often an event repeated (events.k8s.io/v1 EventSeries); set only from the second occurrence on.
 *
 * @param count the number of occurrences, at least 2
 * @param lastObservedTime when it was last seen
 */
public record EventSeries(int count, Instant lastObservedTime) {
  public EventSeries {
    Objects.requireNonNull(lastObservedTime, "lastObservedTime");
    if (count < 2) {
      throw new IllegalArgumentException("event series: count " + count + " must be at least 2");
    }
  }
}
