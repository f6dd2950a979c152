package io.fleetkit.observability.events;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records events into an {@link ObjectStore}, as client-go's recorder and sink do: each event is built like
 * {@code makeEvent} (named {@code <regarding name>.<hex unix nanos>}, in the regarded object's namespace or
 * {@code default}), passed through an {@link EventCorrelator}, and then created, or, for a repeat, written as an
 * update of the stored event's series (re-created when the stored one is gone, as upstream's PATCH-404-CREATE).
 * Writes happen on the caller's thread; a failed write is logged at debug level and dropped, never thrown.
 *
 * <p>{@link #deleteExpired()} deletes events last seen more than the time to live ago (kube-apiserver's
 * {@code --event-ttl}, default 1 hour); call it periodically. Thread-safe.
 */
public final class StoreEventRecorder implements EventRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(StoreEventRecorder.class);
  /** kube-apiserver's default {@code --event-ttl}. */
  public static final Duration DEFAULT_TTL = Duration.ofHours(1);

  private final ObjectStore store;
  private final Clock clock;
  private final String controller;
  private final String instance;
  private final EventCorrelator correlator;
  private final Duration ttl;
  private final AtomicLong lastNanos = new AtomicLong();

  private StoreEventRecorder(ObjectStore store, Clock clock, String controller, String instance,
      EventCorrelator correlator, Duration ttl) {
    this.store = store;
    this.clock = clock;
    this.controller = controller;
    this.instance = instance;
    this.correlator = correlator;
    this.ttl = ttl;
  }

  /**
   * A recorder with client-go's correlator defaults and a 1-hour time to live.
   *
   * @param reportingController who reports, e.g. {@code fleetkit.io/scheduler}
   * @param reportingInstance which replica, e.g. {@code fleetkit.io/scheduler-host1}
   */
  public static StoreEventRecorder create(ObjectStore store, Clock clock, String reportingController,
      String reportingInstance) {
    return create(store, clock, reportingController, reportingInstance, EventCorrelator.create(clock), DEFAULT_TTL);
  }

  /**
   * A recorder with its own correlator and time to live.
   *
   * @throws IllegalArgumentException if the controller or instance is empty, or {@code ttl} is not positive
   */
  public static StoreEventRecorder create(ObjectStore store, Clock clock, String reportingController,
      String reportingInstance, EventCorrelator correlator, Duration ttl) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(correlator, "correlator");
    if (Objects.requireNonNull(reportingController, "reportingController").isEmpty()
        || Objects.requireNonNull(reportingInstance, "reportingInstance").isEmpty()) {
      throw new IllegalArgumentException("event recorder: reportingController \"" + reportingController
          + "\" and reportingInstance \"" + reportingInstance + "\" must not be empty");
    }
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("event recorder: ttl " + ttl + " must be positive");
    }
    return new StoreEventRecorder(store, clock, reportingController, reportingInstance, correlator, ttl);
  }

  @Override
  public void event(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason,
      String action, String note) {
    Event e;
    try {
      e = make(regarding, related, type, reason, action, note);
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

  private Event make(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason,
      String action, String note) {
    Instant now = clock.instant();
    String ns = regarding.namespace().isEmpty() ? "default" : regarding.namespace();
    long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    // unique names even when the clock does not move between two events
    long n = lastNanos.updateAndGet(prev -> Math.max(prev + 1, nanos));
    return new Event(ObjectMeta.of(ns, regarding.name() + "." + Long.toHexString(n)), now, null, controller,
        instance, action, reason, regarding, related, EventCorrelator.truncate(note), type, 0, null, null);
  }

  private void write(Event event, boolean update) {
    try {
      Event stored;
      if (update) {
        stored = updateSeries(event);
      } else {
        stored = store.create(event);
      }
      correlator.updateState(stored);
    } catch (RuntimeException ex) {
      LOG.debug("writing event {} about {} failed: {}", event.reason(), event.regarding(), ex.toString());
    }
  }

  private Event updateSeries(Event event) {
    String ns = event.metadata().namespace();
    String name = event.metadata().name();
    for (int attempt = 0; attempt < 3; attempt++) {
      var current = store.get(Event.class, ns, name);
      if (current.isEmpty()) {
        // upstream: a PATCH answered 404 is re-sent as a CREATE without resourceVersion
        return store.create(event.withMetadata(event.metadata().withResourceVersion("")));
      }
      try {
        return store.update(current.get().withSeries(event.series()).withNote(event.note()));
      } catch (ConflictException | NotFoundException e) {
        // raced with another writer or the TTL clean-up: read again
      }
    }
    throw new ConflictException("event " + ns + "/" + name + ": series update kept conflicting");
  }

  /**
   * Deletes the events last observed (series' last observation, else event time) more than the time to live ago.
   *
   * @return how many were deleted
   */
  public int deleteExpired() {
    Instant cutoff = clock.instant().minus(ttl);
    int n = 0;
    for (Event e : store.list(Event.class).items()) {
      Instant last = e.series() != null ? e.series().lastObservedTime() : e.eventTime();
      if (last.isBefore(cutoff)) {
        try {
          store.delete(Event.class, e.metadata().namespace(), e.metadata().name());
          n++;
        } catch (NotFoundException ignored) {
          // already gone
        }
      }
    }
    return n;
  }

  @Override
  public String toString() {
    return "StoreEventRecorder{" + controller + "/" + instance + "}";
  }
}
