package io.fleetkit.api.events;

import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A recorder that passes events to another and, when that one throws, logs the failure at DEBUG and returns, so that
 * a faulty recorder supplied by an embedder never aborts the controller that records. Made by
 * {@link EventRecorder#bestEffort(EventRecorder)}.
 */
final class BestEffortEventRecorder implements EventRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);

  private final EventRecorder delegate;

  BestEffortEventRecorder(EventRecorder delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  @Override
  public void event(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason,
      String action, String note) {
    try {
      delegate.event(regarding, related, type, reason, action, note);
    } catch (RuntimeException e) {
      LOG.debug("event recorder failed for {} on {}: {}", reason, regarding, e.toString());
    }
  }

  @Override
  public String toString() {
    return "bestEffort(" + delegate + ")";
  }
}
