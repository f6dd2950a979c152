package io.fleetkit.observability.events;

import io.fleetkit.api.events.Event;
import org.jspecify.annotations.Nullable;

/** Where a {@link CorrelatingEventRecorder} writes events (an object store, a Kubernetes API server). */
public interface EventSink {
  /**
   * Creates {@code event}.
   *
   * @return the stored copy (its resourceVersion is remembered for later updates)
   */
  Event create(Event event);

  /**
   * Writes a repeat: the stored event named like {@code event} gets its series and note.
   *
   * @return the stored copy, or {@code null} when no such event is stored any more (it is then re-created)
   */
  @Nullable Event update(Event event);
}
