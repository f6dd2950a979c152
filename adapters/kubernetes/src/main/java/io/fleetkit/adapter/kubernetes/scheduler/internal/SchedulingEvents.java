package io.fleetkit.adapter.kubernetes.scheduler.internal;

import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.api.model.events.v1.EventSeriesBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.observability.events.CorrelatingEventRecorder;
import io.fleetkit.observability.events.EventCorrelator;
import io.fleetkit.observability.events.EventSink;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts events.k8s.io/v1 Events about pods, as kube-scheduler does: {@code Scheduled} (Normal, action
 * {@code Binding}), {@code FailedScheduling} (Warning, action {@code Scheduling}, the diagnosis as the note) and, on
 * preemption victims, {@code Preempted} (Normal, action {@code Preempting}). Every event goes through FleetKit's
 * {@link CorrelatingEventRecorder}, so repeats become a growing {@code series} on one Event and spam is dropped as
 * client-go's correlator does. Events are best effort: they are posted from one background thread, and a failure
 * is logged, never thrown. Thread-safe.
 */
public final class SchedulingEvents implements EventRecorder, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulingEvents.class);
  public static final String REASON_SCHEDULED = EventRecorder.SCHEDULED;
  public static final String REASON_FAILED = EventRecorder.FAILED_SCHEDULING;
  public static final String REASON_PREEMPTED = EventRecorder.PREEMPTED;
  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final KubernetesClient client;
  private final ExecutorService executor;
  private final CorrelatingEventRecorder recorder;

  /**
   * @param controller {@code reportingController} (the scheduler name)
   * @param instance {@code reportingInstance} (this replica's identity)
   */
  public SchedulingEvents(KubernetesClient client, String controller, String instance, Clock clock) {
    this.client = Objects.requireNonNull(client, "client");
    this.executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "fleetkit-k8s-events");
      t.setDaemon(true);
      return t;
    });
    this.recorder = CorrelatingEventRecorder.create(new ApiSink(), clock, controller, instance,
        EventCorrelator.create(clock));
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

  private static io.fabric8.kubernetes.api.model.ObjectReference toFabric8(ObjectReference r) {
    return new ObjectReferenceBuilder().withApiVersion(r.apiVersion()).withKind(r.kind())
        .withNamespace(r.namespace().isEmpty() ? null : r.namespace()).withName(r.name())
        .withUid(r.uid().isEmpty() ? null : r.uid())
        .withFieldPath(r.fieldPath().isEmpty() ? null : r.fieldPath()).build();
  }

  private static MicroTime micro(Instant t) {
    return new MicroTime(MICRO_TIME.format(t));
  }

  /** Posts to the API server from the background thread; answers at once with the event as sent. */
  private final class ApiSink implements EventSink {
    @Override
    public Event create(Event e) {
      var event = new EventBuilder()
          .withNewMetadata().withNamespace(e.metadata().namespace()).withName(e.metadata().name()).endMetadata()
          .withEventTime(micro(e.eventTime()))
          .withReportingController(e.reportingController())
          .withReportingInstance(e.reportingInstance())
          .withType(e.type())
          .withReason(e.reason())
          .withAction(e.action())
          .withNote(e.note())
          .withRegarding(toFabric8(e.regarding()))
          .withRelated(e.related() == null ? null : toFabric8(e.related()))
          .withSeries(e.series() == null ? null : new EventSeriesBuilder().withCount(e.series().count())
              .withLastObservedTime(micro(e.series().lastObservedTime())).build())
          .build();
      post(e, () -> client.events().v1().events().inNamespace(e.metadata().namespace()).resource(event).create());
      return e;
    }

    @Override
    public Event update(Event e) {
      // kube's events recorder: a strategic-merge PATCH of the series; 404 means the Event expired, so CREATE.
      // The patch body is an Event holding only its name and series (the resource form sends it without a GET).
      var patch = new EventBuilder()
          .withNewMetadata().withNamespace(e.metadata().namespace()).withName(e.metadata().name()).endMetadata()
          .withSeries(new EventSeriesBuilder().withCount(e.series().count())
              .withLastObservedTime(micro(e.series().lastObservedTime())).build())
          .build();
      post(e, () -> {
        try {
          client.events().v1().events().inNamespace(e.metadata().namespace()).resource(patch)
              .patch(PatchContext.of(PatchType.STRATEGIC_MERGE));
        } catch (KubernetesClientException ex) {
          if (ex.getCode() != 404) {
            throw ex;
          }
          create(e.withMetadata(e.metadata().withResourceVersion("")));
        }
      });
      return e;
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
        LOG.debug("not posting {} event about {}: closed", e.reason(), e.regarding());
      }
    }
  }

  /** Posts the queued events (waiting up to 2 seconds) and stops the thread. Idempotent. */
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
