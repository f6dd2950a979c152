package io.fleetkit.observability.events;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Records events into an {@link ObjectStore} through a {@link CorrelatingEventRecorder} (client-go's correlation,
 * then create or series update). Writes happen on the caller's thread; a failed write is logged at debug level and
 * dropped, never thrown.
 *
 * <p>{@link #deleteExpired()} deletes events last seen more than the time to live ago (kube-apiserver's
 * {@code --event-ttl}, default 1 hour); call it periodically. Thread-safe.
 */
public final class StoreEventRecorder implements EventRecorder {
  /** kube-apiserver's default {@code --event-ttl}. */
  public static final Duration DEFAULT_TTL = Duration.ofHours(1);

  private final ObjectStore store;
  private final Clock clock;
  private final CorrelatingEventRecorder recorder;
  private final Duration ttl;

  private StoreEventRecorder(ObjectStore store, Clock clock, CorrelatingEventRecorder recorder, Duration ttl) {
    this.store = store;
    this.clock = clock;
    this.recorder = recorder;
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
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("event recorder: ttl " + ttl + " must be positive");
    }
    return new StoreEventRecorder(store, clock, CorrelatingEventRecorder.create(new StoreSink(store), clock,
        reportingController, reportingInstance, correlator), ttl);
  }

  @Override
  public void event(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason,
      String action, String note) {
    recorder.event(regarding, related, type, reason, action, note);
  }

  /** The store side of the sink: create, and series updates that retry on conflicts. */
  private static final class StoreSink implements EventSink {
    private final ObjectStore store;

    StoreSink(ObjectStore store) {
      this.store = store;
    }

    @Override
    public Event create(Event event) {
      return store.create(event);
    }

    @Override
    public @Nullable Event update(Event event) {
      String ns = event.metadata().namespace();
      String name = event.metadata().name();
      for (int attempt = 0; attempt < 3; attempt++) {
        var current = store.get(Event.class, ns, name);
        if (current.isEmpty()) {
          return null;
        }
        try {
          return store.update(current.get().withSeries(event.series()).withNote(event.note()));
        } catch (ConflictException | NotFoundException e) {
          // raced with another writer or the TTL clean-up: read again
        }
      }
      throw new ConflictException("event " + ns + "/" + name + ": series update kept conflicting");
    }
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
    return "StoreEventRecorder{" + recorder + "}";
  }
}
