package io.fleetkit.adapter.kubernetes.scheduler.internal;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.observability.events.CorrelatingEventRecorder;
import io.fleetkit.observability.events.EventCorrelator;
import io.fleetkit.observability.events.EventSink;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts events.k8s.io/v1 Events about pods, as kube-scheduler does: {@code Scheduled} (Normal, action
 * {@code Binding}), {@code FailedScheduling} (Warning, action {@code Scheduling}, the diagnosis as the note) and, on
 * preemption victims, {@code Preempted} (Normal, action {@code Preempting}). Every event goes through FleetKit's
 * {@link CorrelatingEventRecorder}, so repeats become a growing {@code series} on one Event and spam is dropped as
 * client-go's correlator does.
 *
 * <p>Events are best effort, as client-go's event broadcaster makes them: the caller never waits for the API server,
 * nor for the correlator. The caller takes the event's time and hands a compact record to a queue; this class's one
 * events thread (named {@value #THREAD_NAME}) builds each Event, correlates it, writes its JSON and starts its request,
 * as client-go's broadcaster correlates and records on its own goroutine what the recorder handed it through a
 * channel. A request is asynchronous ({@link ApiRequests#sendAsync}); at most {@value #POSTERS} are in flight, and
 * the events thread waits for one of them to end before it starts another. At most {@value #MAX_QUEUED} events wait
 * beyond those in flight (client-go's {@code maxQueuedEvents}); further ones are dropped and counted
 * ({@link #dropped()}). A bound of requests in flight rather than of threads, so that at the API server's latency
 * the Events keep pace with the bindings (one {@code Scheduled} Event per pod bound) instead of being dropped. A
 * failed post is logged, never thrown. A request is retried on 429, 5xx and connection failures as the scheduler's
 * other writes are ({@link ApiRequests}); a success's body is not read. Thread-safe.
 */
public final class SchedulingEvents implements EventRecorder, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulingEvents.class);
  public static final String REASON_SCHEDULED = EventRecorder.SCHEDULED;
  public static final String REASON_FAILED = EventRecorder.FAILED_SCHEDULING;
  public static final String REASON_PREEMPTED = EventRecorder.PREEMPTED;
  /** The events thread's name. */
  public static final String THREAD_NAME = "fleetkit-events";

  /** Events waiting to be posted beyond which new ones are dropped (client-go's {@code maxQueuedEvents}). */
  public static final int MAX_QUEUED = 1000;
  /**
   * Event requests in flight at once (each holds an HTTP/1.1 connection while it is answered). Twice the default
   * {@code bindParallelism}: one {@code Scheduled} Event per binding at the same latency needs as many in flight as
   * bindings, and the rest absorbs bursts and retries.
   */
  public static final int POSTERS = 64;
  private static final String MERGE_PATCH = "application/merge-patch+json";

  private final Clock clock;
  private final ApiRequests api;
  private final CorrelatingEventRecorder recorder;
  private final AtomicLong dropped = new AtomicLong();
  /** Events handed over and not yet ended: waiting, being correlated, or in flight. */
  private final AtomicInteger accepted = new AtomicInteger();
  /** Places in flight. */
  private final Semaphore places = new Semaphore(POSTERS);
  /** Events handed over by callers, in order; bounded by {@link #accepted}. */
  private final LinkedBlockingQueue<Recorded> queue = new LinkedBlockingQueue<>();
  private final Thread thread;
  /** Whether the event the events thread is recording was handed to the sink; the events thread's own. */
  private boolean posted;
  private volatile boolean closed;

  /**
   * Starts the events thread.
   *
   * @param controller {@code reportingController} (the scheduler name)
   * @param instance {@code reportingInstance} (this replica's identity)
   */
  public SchedulingEvents(KubernetesClient client, String controller, String instance, Clock clock) {
    Objects.requireNonNull(client, "client");
    this.clock = Objects.requireNonNull(clock, "clock");
    // Events are posted whether or not this replica leads (a replica that does not lead makes none).
    this.api = new ApiRequests(client, () -> true, 3, Duration.ofMillis(100), Duration.ofSeconds(1),
        Duration.ofSeconds(10));
    this.recorder = CorrelatingEventRecorder.create(new ApiSink(), clock, controller, instance,
        EventCorrelator.create(clock));
    this.thread = new Thread(this::run, THREAD_NAME);
    thread.setDaemon(true);
    thread.start();
  }

  /** Events dropped because {@value #MAX_QUEUED} were already waiting to be posted. */
  public long dropped() {
    return dropped.get();
  }

  @Override
  public void event(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason,
      String action, String note) {
    hand(new Recorded(regarding, related, type, reason, action, note, clock.instant()));
  }

  private static ObjectReference pod(String namespace, String name, String uid) {
    return new ObjectReference("v1", "Pod", namespace, name, uid, "");
  }

  /** Records a {@code Scheduled} event for the pod ({@code uid} may be empty when unknown). */
  public void scheduled(String namespace, String name, String uid, String nodeName) {
    event(pod(namespace, name, uid), null, Event.NORMAL, REASON_SCHEDULED, "Binding",
        "Successfully assigned " + namespace + "/" + name + " to " + nodeName);
  }

  /** Records a {@code FailedScheduling} event; repeats count up one Event's series. */
  public void failed(String namespace, String name, String uid, String message) {
    event(pod(namespace, name, uid), null, Event.WARNING, REASON_FAILED, "Scheduling", message);
  }

  /** Records a {@code Preempted} event (Normal, action {@code Preempting}) on a preemption victim. */
  public void preempted(String namespace, String name, String uid, String preemptorKey, String nodeName) {
    event(pod(namespace, name, uid), null, Event.NORMAL, REASON_PREEMPTED, "Preempting",
        "Preempted by pod " + preemptorKey + (nodeName.isEmpty() ? "" : " on node " + nodeName));
  }

  /** Queues {@code r} for the events thread, or drops it when {@value #MAX_QUEUED} wait beyond those in flight. */
  private void hand(Recorded r) {
    if (closed) {
      LOG.debug("not posting {} event about {}: closed", r.reason(), r.regarding());
      return;
    }
    if (accepted.incrementAndGet() > POSTERS + MAX_QUEUED) {
      accepted.decrementAndGet();
      if (dropped.incrementAndGet() % MAX_QUEUED == 1) {
        LOG.warn("{} events waiting to be posted; dropping {} event about {} ({} dropped so far)", MAX_QUEUED,
            r.reason(), r.regarding(), dropped.get());
      }
      return;
    }
    queue.add(r);
  }

  /** The events thread: builds, correlates and starts each event's request in the order they were handed over. */
  private void run() {
    try {
      while (true) {
        Recorded r = queue.take();
        places.acquire();
        posted = false;
        try {
          recorder.eventAt(r.at(), r.regarding(), r.related(), r.type(), r.reason(), r.action(), r.note());
        } catch (RuntimeException e) {
          LOG.debug("recording {} event about {} failed: {}", r.reason(), r.regarding(), e.toString());
        }
        if (!posted) { // the spam filter dropped it, or it could not be built
          places.release();
          ended();
        }
      }
    } catch (InterruptedException e) {
      // close(): the events still waiting are dropped
    }
  }

  /** An event's life ended: its request ended, or it was not posted. */
  private void ended() {
    if (accepted.decrementAndGet() == 0 && closed) {
      synchronized (this) {
        notifyAll();
      }
    }
  }

  /** Writes for the recorder, on the events thread: starts the request in the place the thread holds. */
  private final class ApiSink implements EventSink {
    @Override
    public Event create(Event e) {
      start(e, () -> createNow(e));
      return e;
    }

    @Override
    public Event update(Event e) {
      // kube's events recorder: a PATCH of the series; 404 means the Event expired, so CREATE. client-go sends it as
      // a strategic merge patch; for a body holding only the series (an object, no lists) a JSON merge patch is the
      // same change, and every API server and stand-in accepts it.
      start(e, () -> {
        String body = RequestBodies.seriesPatch(e);
        return api.sendAsync("patching event " + e.metadata().name(),
            path(e.metadata().namespace(), e.metadata().name()), b -> b.patch(MERGE_PATCH, body))
            .thenCompose(out -> {
              if (out.code() == 404) {
                return createNow(e.withMetadata(e.metadata().withResourceVersion("")));
              }
              logFailure(e, out);
              return CompletableFuture.completedFuture(out);
            });
      });
      return e;
    }

    private CompletableFuture<ApiRequests.Outcome> createNow(Event e) {
      String body = RequestBodies.event(e);
      return api.sendAsync("posting event " + e.metadata().name(), path(e.metadata().namespace(), ""),
          b -> b.post("application/json", body)).whenComplete((out, t) -> logFailure(e, out));
    }

    private void logFailure(Event e, ApiRequests.@Nullable Outcome out) {
      if (out != null && !out.ok()) {
        LOG.debug("posting {} event about {} failed: {} {}", e.reason(), e.regarding(), out.kind(), out.detail());
      }
    }

    /** Starts {@code call}; its place in flight is handed on when it ends. */
    private void start(Event e, Supplier<CompletableFuture<ApiRequests.Outcome>> call) {
      posted = true;
      CompletableFuture<ApiRequests.Outcome> f;
      try {
        f = call.get();
      } catch (RuntimeException ex) {
        f = CompletableFuture.failedFuture(ex);
      }
      f.whenComplete((out, t) -> {
        if (t != null) {
          LOG.debug("posting {} event about {} failed: {}", e.reason(), e.regarding(), t.toString());
        }
        places.release();
        ended();
      });
    }
  }

  /** An event as its caller handed it over, with the time it happened. */
  private record Recorded(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason,
      String action, String note, Instant at) {}

  /** {@code /apis/events.k8s.io/v1/namespaces/NS/events[/NAME]}. */
  private static String path(String namespace, String name) {
    return "/apis/events.k8s.io/v1/namespaces/" + URLEncoder.encode(namespace, StandardCharsets.UTF_8) + "/events"
        + (name.isEmpty() ? "" : "/" + URLEncoder.encode(name, StandardCharsets.UTF_8));
  }

  /**
   * Stops taking events and waits up to 2 seconds for the queued and in-flight ones to be posted; then stops the
   * events thread (those still waiting are dropped; requests in flight end on their own). Idempotent.
   */
  @Override
  public void close() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    closed = true;
    synchronized (this) {
      try {
        for (long left = deadline - System.nanoTime(); accepted.get() > 0 && left > 0;
            left = deadline - System.nanoTime()) {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    thread.interrupt();
    queue.clear();
  }
}
