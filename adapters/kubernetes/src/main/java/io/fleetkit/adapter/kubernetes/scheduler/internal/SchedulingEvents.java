package io.fleetkit.adapter.kubernetes.scheduler.internal;

import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts events.k8s.io/v1 Events about pods, as kube-scheduler does: {@code Scheduled} (Normal, action
 * {@code Binding}), {@code FailedScheduling} (Warning, action {@code Scheduling}, the diagnosis as the note) and, on
 * preemption victims, {@code Preempted} (Normal, action {@code Preempting}).
 * Events are best effort: they are posted from one background thread, and a failure is logged, never thrown. A
 * FailedScheduling event that repeats the previous note for the same pod within {@code repeatInterval} is not
 * posted again (kube's event recorder aggregates those too). Thread-safe.
 */
public final class SchedulingEvents implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulingEvents.class);
  public static final String REASON_SCHEDULED = "Scheduled";
  public static final String REASON_FAILED = "FailedScheduling";
  public static final String REASON_PREEMPTED = "Preempted";
  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private record Last(String note, Instant at) {}

  private final KubernetesClient client;
  private final String controller;
  private final String instance;
  private final Clock clock;
  private final Duration repeatInterval;
  private final Map<String, Last> lastFailure = new ConcurrentHashMap<>();
  private final ExecutorService executor;
  private final AtomicLong sequence = new AtomicLong();

  /**
   * @param controller {@code reportingController} (the scheduler name)
   * @param instance {@code reportingInstance} (this replica's identity)
   */
  public SchedulingEvents(KubernetesClient client, String controller, String instance, Clock clock,
      Duration repeatInterval) {
    this.client = Objects.requireNonNull(client, "client");
    this.controller = Objects.requireNonNull(controller, "controller");
    this.instance = Objects.requireNonNull(instance, "instance");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.repeatInterval = Objects.requireNonNull(repeatInterval, "repeatInterval");
    this.executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "fleetkit-k8s-events");
      t.setDaemon(true);
      return t;
    });
  }

  /** Queues a {@code Scheduled} event for the pod ({@code uid} may be empty when unknown). */
  public void scheduled(String namespace, String name, String uid, String nodeName) {
    lastFailure.remove(namespace + "/" + name);
    post(namespace, name, uid, "Normal", REASON_SCHEDULED, "Binding",
        "Successfully assigned " + namespace + "/" + name + " to " + nodeName);
  }

  /** Queues a {@code FailedScheduling} event, unless it repeats the last one for this pod recently. */
  public void failed(String namespace, String name, String uid, String message) {
    Instant now = clock.instant();
    String key = namespace + "/" + name;
    Last last = lastFailure.get(key);
    if (last != null && last.note().equals(message) && now.isBefore(last.at().plus(repeatInterval))) {
      return;
    }
    lastFailure.put(key, new Last(message, now));
    post(namespace, name, uid, "Warning", REASON_FAILED, "Scheduling", message);
  }

  /** Queues a {@code Preempted} event (Normal, action {@code Preempting}) on a preemption victim. */
  public void preempted(String namespace, String name, String uid, String preemptorKey, String nodeName) {
    post(namespace, name, uid, "Normal", REASON_PREEMPTED, "Preempting",
        "Preempted by pod " + preemptorKey + (nodeName.isEmpty() ? "" : " on node " + nodeName));
  }

  /** Forgets the repeat-suppression state of a deleted pod. */
  public void podDeleted(String key) {
    lastFailure.remove(key);
  }

  private void post(String namespace, String name, String uid, String type, String reason, String action,
      String note) {
    Instant now = clock.instant();
    Event event = new EventBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name + "." + Long.toHexString(now.toEpochMilli()) + Long.toHexString(sequence.incrementAndGet()))
        .endMetadata()
        .withEventTime(new MicroTime(MICRO_TIME.format(now)))
        .withReportingController(controller)
        .withReportingInstance(instance)
        .withType(type)
        .withReason(reason)
        .withAction(action)
        .withNote(note.length() > 1024 ? note.substring(0, 1021) + "..." : note)
        .withRegarding(new ObjectReferenceBuilder().withApiVersion("v1").withKind("Pod").withNamespace(namespace)
            .withName(name).withUid(uid.isEmpty() ? null : uid).build())
        .build();
    try {
      executor.execute(() -> {
        try {
          client.events().v1().events().inNamespace(namespace).resource(event).create();
        } catch (RuntimeException e) {
          LOG.debug("posting {} event for pod {}/{} failed: {}", reason, namespace, name, e.toString());
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      LOG.debug("not posting {} event for pod {}/{}: closed", reason, namespace, name);
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
