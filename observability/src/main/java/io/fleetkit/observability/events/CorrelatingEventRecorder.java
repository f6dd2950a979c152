package io.fleetkit.observability.events;

import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * client-go's recorder and sink logic over any {@link EventSink}: each event is built as {@code makeEvent} does
 * (named {@code <regarding name>.<hex unix nanos>}, in the regarded object's namespace or {@code default}, the note
 * cut to 1024 characters), passed through an {@link EventCorrelator}, and then created, or for a repeat written as
 * an update of the stored event's series (re-created when the stored one is gone, as upstream's PATCH 404 →
 * CREATE). A failed write is logged at debug level and dropped, never thrown. Thread-safe if the sink is.
 */
public final class CorrelatingEventRecorder implements EventRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(CorrelatingEventRecorder.class);

  private final EventSink sink;
  private final Clock clock;
  private final String controller;
  private final String instance;
  private final EventCorrelator correlator;
  private final AtomicLong lastNanos = new AtomicLong();

  private CorrelatingEventRecorder(EventSink sink, Clock clock, String controller, String instance,
      EventCorrelator correlator) {
    this.sink = sink;
    this.clock = clock;
    this.controller = controller;
    this.instance = instance;
    this.correlator = correlator;
  }

  /**
   * A recorder writing to {@code sink}.
   *
   * @param reportingController who reports, e.g. {@code fleetkit.io/scheduler}
   * @param reportingInstance which replica, e.g. {@code fleetkit.io/scheduler-host1}
   * @throws IllegalArgumentException if the controller or the instance is empty
   */
  public static CorrelatingEventRecorder create(EventSink sink, Clock clock, String reportingController,
      String reportingInstance, EventCorrelator correlator) {
    Objects.requireNonNull(sink, "sink");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(correlator, "correlator");
    if (Objects.requireNonNull(reportingController, "reportingController").isEmpty()
        || Objects.requireNonNull(reportingInstance, "reportingInstance").isEmpty()) {
      throw new IllegalArgumentException("event recorder: reportingController \"" + reportingController
          + "\" and reportingInstance \"" + reportingInstance + "\" must not be empty");
    }
    return new CorrelatingEventRecorder(sink, clock, reportingController, reportingInstance, correlator);
  }

  @Override
  public void event(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason,
      String action, String note) {
    eventAt(clock.instant(), regarding, related, type, reason, action, note);
  }

  /**
   * As {@link #event}, for an event that happened at {@code eventTime} (its {@code eventTime}, and its name's
   * nanoseconds): for a caller that takes the time where the event happens and records it later on another thread,
   * as client-go's recorder stamps an event before handing it to the broadcaster's goroutine.
   */
  public void eventAt(Instant eventTime, ObjectReference regarding, @Nullable ObjectReference related, String type,
      String reason, String action, String note) {
    Event e;
    try {
      e = make(eventTime, regarding, related, type, reason, action, note);
    } catch (RuntimeException ex) {
      LOG.debug("dropping {} event about {}: {}", reason, regarding, ex.getMessage());
      return;
    }
    EventCorrelator.Result r = correlator.correlate(e);
    if (r.skip() || r.event() == null) {
      LOG.debug("event {} about {} dropped by the spam filter", reason, regarding);
      return;
    }
    write(r.event(), r.update());
  }

  private Event make(Instant now, ObjectReference regarding, @Nullable ObjectReference related, String type,
      String reason, String action, String note) {
    String ns = regarding.namespace().isEmpty() ? "default" : regarding.namespace();
    long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    // unique names even when the clock does not move between two events
    long n = lastNanos.updateAndGet(prev -> Math.max(prev + 1, nanos));
    return new Event(ObjectMeta.of(ns, regarding.name() + "." + Long.toHexString(n)), now, null, controller,
        instance, action, reason, regarding, related, EventCorrelator.truncate(note), type, 0, null, null);
  }

  private void write(Event event, boolean update) {
    try {
      Event stored = update ? sink.update(event) : null;
      if (stored == null) {
        stored = sink.create(update ? event.withMetadata(event.metadata().withResourceVersion("")) : event);
      }
      correlator.updateState(stored);
    } catch (RuntimeException ex) {
      LOG.debug("writing event {} about {} failed: {}", event.reason(), event.regarding(), ex.toString());
    }
  }

  @Override
  public String toString() {
    return "CorrelatingEventRecorder{" + controller + "/" + instance + "}";
  }
}
