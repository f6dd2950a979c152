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
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
 * <p>Events are best effort, as client-go's event broadcaster makes them: the caller only queues an event (building
 * and sending it happen on {@value #POSTERS} posting threads, so a slow API server never holds up scheduling), at
 * most {@value #MAX_QUEUED} wait (client-go's {@code maxQueuedEvents}) and further ones are dropped and counted
 * ({@link #dropped()}), and a failed post is logged, never thrown. A request is retried on 429, 5xx and connection
 * failures as the scheduler's other writes are ({@link ApiRequests}); a success's body is not read. Thread-safe.
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
  /** Threads posting events: requests in flight at once, so that the API server's latency does not cap the rate. */
  public static final int POSTERS = 16;
  private static final String MERGE_PATCH = "application/merge-patch+json";

  private final KubernetesClient client;
  private final ApiRequests api;
  private final ThreadPoolExecutor executor;
  private final CorrelatingEventRecorder recorder;
  private final AtomicLong dropped = new AtomicLong();

  /**
   * @param controller {@code reportingController} (the scheduler name)
   * @param instance {@code reportingInstance} (this replica's identity)
   */
  public SchedulingEvents(KubernetesClient client, String controller, String instance, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    // Events are posted whether or not this replica leads (a replica that does not lead makes none).
    this.api = new ApiRequests(client, () -> true, 3, Duration.ofMillis(100), Duration.ofSeconds(1),
        Duration.ofSeconds(10));
    AtomicInteger threads = new AtomicInteger();
    this.executor = new ThreadPoolExecutor(POSTERS, POSTERS, 30, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(MAX_QUEUED), r -> {
          Thread t = new Thread(r, "fleetkit-k8s-events-" + threads.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    this.executor.allowCoreThreadTimeOut(true);
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

  /** Queues the API requests; answers at once with the event as sent. */
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
        ApiRequests.Outcome out = api.send("patching event " + e.metadata().name(),
            path(e.metadata().namespace(), e.metadata().name()), b -> b.patch(MERGE_PATCH, body));
        if (out.code() == 404) {
          createNow(e.withMetadata(e.metadata().withResourceVersion("")));
        } else {
          logFailure(e, out);
        }
      });
      return e;
    }

    private void createNow(Event e) {
      String body = eventJson(client.getKubernetesSerialization(), e);
      logFailure(e, api.send("posting event " + e.metadata().name(), path(e.metadata().namespace(), ""),
          b -> b.post("application/json", body)));
    }

    private void logFailure(Event e, ApiRequests.Outcome out) {
      if (!out.ok()) {
        LOG.debug("posting {} event about {} failed: {} {}", e.reason(), e.regarding(), out.kind(), out.detail());
      }
    }

    private void post(Event e, Runnable call) {
      try {
        executor.execute(() -> {
          try {
            call.run();
          } catch (RuntimeException ex) {
            LOG.debug("posting {} event about {} failed: {}", e.reason(), e.regarding(), ex.toString());
          }
        });
      } catch (RejectedExecutionException ex) {
        if (executor.isShutdown()) {
          LOG.debug("not posting {} event about {}: closed", e.reason(), e.regarding());
        } else if (dropped.incrementAndGet() % MAX_QUEUED == 1) {
          LOG.warn("{} events waiting to be posted; dropping {} event about {} ({} dropped so far)", MAX_QUEUED,
              e.reason(), e.regarding(), dropped.get());
        }
      }
    }
  }

  /** {@code /apis/events.k8s.io/v1/namespaces/NS/events[/NAME]}. */
  private static String path(String namespace, String name) {
    return "/apis/events.k8s.io/v1/namespaces/" + URLEncoder.encode(namespace, StandardCharsets.UTF_8) + "/events"
        + (name.isEmpty() ? "" : "/" + URLEncoder.encode(name, StandardCharsets.UTF_8));
  }

  /** Posts the queued events (waiting up to 2 seconds) and stops the posting threads. Idempotent. */
  @Override
  public void close() {
    executor.shutdown();
    try {
      executor.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    executor.shutdownNow();
  }
}
