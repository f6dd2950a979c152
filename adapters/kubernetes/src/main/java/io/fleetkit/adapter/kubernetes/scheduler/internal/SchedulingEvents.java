package io.fleetkit.adapter.kubernetes.scheduler.internal;

import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.api.model.events.v1.EventSeriesBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
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
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
 * <p>Events are best effort, as client-go's event broadcaster makes them: the caller never waits for the API server.
 * client-go posts each Event on a goroutine of its own; here each is an asynchronous request ({@link
 * ApiRequests#sendAsync}), started on the caller's thread when fewer than {@value #POSTERS} are in flight, else queued
 * and started as one in flight ends. At most {@value #MAX_QUEUED} wait (client-go's {@code maxQueuedEvents}); further
 * ones are dropped and counted ({@link #dropped()}). No thread is held per request: a bound of requests in flight
 * rather than of threads, so that at the API server's latency the Events keep pace with the bindings (one
 * {@code Scheduled} Event per pod bound) instead of being dropped. A failed post is logged, never thrown. A request is
 * retried on 429, 5xx and connection failures as the scheduler's other writes are ({@link ApiRequests}); a success's
 * body is not read. Thread-safe.
 */
public final class SchedulingEvents implements EventRecorder, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulingEvents.class);
  public static final String REASON_SCHEDULED = EventRecorder.SCHEDULED;
  public static final String REASON_FAILED = EventRecorder.FAILED_SCHEDULING;
  public static final String REASON_PREEMPTED = EventRecorder.PREEMPTED;
  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  /** Events waiting to be posted beyond which new ones are dropped (client-go's {@code maxQueuedEvents}). */
  public static final int MAX_QUEUED = 1000;
  /**
   * Event requests in flight at once (each holds an HTTP/1.1 connection while it is answered). Twice the default
   * {@code bindParallelism}: one {@code Scheduled} Event per binding at the same latency needs as many in flight as
   * bindings, and the rest absorbs bursts and retries.
   */
  public static final int POSTERS = 64;
  private static final String MERGE_PATCH = "application/merge-patch+json";

  private final KubernetesClient client;
  private final ApiRequests api;
  private final CorrelatingEventRecorder recorder;
  private final AtomicLong dropped = new AtomicLong();
  /** Requests waiting for one of the {@value #POSTERS} places in flight; guarded by {@code this}. */
  private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
  /** Requests in flight; guarded by {@code this}. */
  private int inFlight;
  /** Guarded by {@code this}. */
  private boolean closed;

  /**
   * @param controller {@code reportingController} (the scheduler name)
   * @param instance {@code reportingInstance} (this replica's identity)
   */
  public SchedulingEvents(KubernetesClient client, String controller, String instance, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    // Events are posted whether or not this replica leads (a replica that does not lead makes none).
    this.api = new ApiRequests(client, () -> true, 3, Duration.ofMillis(100), Duration.ofSeconds(1),
        Duration.ofSeconds(10));
    this.recorder = CorrelatingEventRecorder.create(new ApiSink(), clock, controller, instance,
        EventCorrelator.create(clock));
  }

  /** Events dropped because {@value #MAX_QUEUED} were already waiting to be posted. */
  public long dropped() {
    return dropped.get();
  }

  @Override
  public void event(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason,
      String action, String note) {
    recorder.event(regarding, related, type, reason, action, note);
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

  /**
   * The events.k8s.io/v1 Event that {@code e} is created as. Built as maps rather than through fabric8's builders and
   * bean serializer, which cost more than the rest of the request on the client's side (an Event goes out for every
   * pod bound); the JSON is the same object (read back by fabric8, it equals the builder's).
   */
  static String eventJson(KubernetesSerialization json, Event e) {
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("apiVersion", Event.API_VERSION);
    event.put("kind", Event.KIND);
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", e.metadata().name());
    metadata.put("namespace", e.metadata().namespace());
    event.put("metadata", metadata);
    event.put("action", e.action());
    event.put("eventTime", MICRO_TIME.format(e.eventTime()));
    event.put("note", e.note());
    event.put("reason", e.reason());
    event.put("regarding", reference(e.regarding()));
    if (e.related() != null) {
      event.put("related", reference(e.related()));
    }
    event.put("reportingController", e.reportingController());
    event.put("reportingInstance", e.reportingInstance());
    if (e.series() != null) {
      event.put("series", Map.of("count", e.series().count(),
          "lastObservedTime", MICRO_TIME.format(e.series().lastObservedTime())));
    }
    event.put("type", e.type());
    return json.asJson(event);
  }

  private static Map<String, Object> reference(ObjectReference r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("apiVersion", r.apiVersion());
    if (!r.fieldPath().isEmpty()) {
      m.put("fieldPath", r.fieldPath());
    }
    m.put("kind", r.kind());
    m.put("name", r.name());
    if (!r.namespace().isEmpty()) {
      m.put("namespace", r.namespace());
    }
    if (!r.uid().isEmpty()) {
      m.put("uid", r.uid());
    }
    return m;
  }

  private static MicroTime micro(Instant t) {
    return new MicroTime(MICRO_TIME.format(t));
  }

  /** Starts or queues the API requests; answers at once with the event as sent. */
  private final class ApiSink implements EventSink {
    @Override
    public Event create(Event e) {
      post(e, () -> createNow(e));
      return e;
    }

    @Override
    public Event update(Event e) {
      // kube's events recorder: a PATCH of the series; 404 means the Event expired, so CREATE. client-go sends it as
      // a strategic merge patch; for a body holding only the series (an object, no lists) a JSON merge patch is the
      // same change, and every API server and stand-in accepts it.
      post(e, () -> {
        var patch = new EventBuilder()
            .withNewMetadata().withNamespace(e.metadata().namespace()).withName(e.metadata().name()).endMetadata()
            .withSeries(new EventSeriesBuilder().withCount(e.series().count())
                .withLastObservedTime(micro(e.series().lastObservedTime())).build())
            .build();
        String body = client.getKubernetesSerialization().asJson(patch);
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
      String body = eventJson(client.getKubernetesSerialization(), e);
      return api.sendAsync("posting event " + e.metadata().name(), path(e.metadata().namespace(), ""),
          b -> b.post("application/json", body)).whenComplete((out, t) -> logFailure(e, out));
    }

    private void logFailure(Event e, ApiRequests.@Nullable Outcome out) {
      if (out != null && !out.ok()) {
        LOG.debug("posting {} event about {} failed: {} {}", e.reason(), e.regarding(), out.kind(), out.detail());
      }
    }

    /** Starts {@code call} now if fewer than {@value #POSTERS} are in flight, else queues it, else drops it. */
    private void post(Event e, Supplier<CompletableFuture<ApiRequests.Outcome>> call) {
      Pending p = new Pending(e, call);
      synchronized (SchedulingEvents.this) {
        if (closed) {
          LOG.debug("not posting {} event about {}: closed", e.reason(), e.regarding());
          return;
        }
        if (inFlight >= POSTERS) {
          if (waiting.size() < MAX_QUEUED) {
            waiting.add(p);
          } else if (dropped.incrementAndGet() % MAX_QUEUED == 1) {
            LOG.warn("{} events waiting to be posted; dropping {} event about {} ({} dropped so far)", MAX_QUEUED,
                e.reason(), e.regarding(), dropped.get());
          }
          return;
        }
        inFlight++;
      }
      start(p);
    }

    /**
     * Runs requests that hold a place in flight: {@code p}, then, as each ends, the next one waiting. A request that
     * ended at once (e.g. not sent) hands its place on in this loop rather than from its completion, so that a long
     * queue of such requests does not nest one call per request.
     */
    private void start(Pending p) {
      for (Pending next = p; next != null; next = release()) {
        CompletableFuture<ApiRequests.Outcome> f;
        try {
          f = next.call().get();
        } catch (RuntimeException ex) {
          f = CompletableFuture.failedFuture(ex);
        }
        if (!f.isDone()) {
          Pending running = next;
          f.whenComplete((out, t) -> {
            ended(running, t);
            Pending following = release();
            if (following != null) {
              start(following);
            }
          });
          return;
        }
        ended(next, f.isCompletedExceptionally() ? f.handle((o, t) -> t).join() : null);
      }
    }

    private void ended(Pending p, @Nullable Throwable t) {
      if (t != null) {
        LOG.debug("posting {} event about {} failed: {}", p.event().reason(), p.event().regarding(), t.toString());
      }
    }

    /** Gives a place in flight that ended to the next request waiting (returned), or frees it ({@code null}). */
    private @Nullable Pending release() {
      synchronized (SchedulingEvents.this) {
        Pending next = waiting.poll();
        if (next == null) {
          inFlight--;
          SchedulingEvents.this.notifyAll();
        }
        return next;
      }
    }
  }

  /** An event's request, not yet started. */
  private record Pending(Event event, Supplier<CompletableFuture<ApiRequests.Outcome>> call) {}

  /** {@code /apis/events.k8s.io/v1/namespaces/NS/events[/NAME]}. */
  private static String path(String namespace, String name) {
    return "/apis/events.k8s.io/v1/namespaces/" + URLEncoder.encode(namespace, StandardCharsets.UTF_8) + "/events"
        + (name.isEmpty() ? "" : "/" + URLEncoder.encode(name, StandardCharsets.UTF_8));
  }

  /**
   * Stops taking events and waits up to 2 seconds for the queued and in-flight ones to be posted (those still waiting
   * then are dropped). Idempotent.
   */
  @Override
  public void close() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    synchronized (this) {
      closed = true;
      try {
        for (long left = deadline - System.nanoTime(); inFlight > 0 && left > 0; left = deadline - System.nanoTime()) {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      waiting.clear();
    }
  }
}
