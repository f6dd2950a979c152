package io.fleetkit.queueing;

import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.queueing.internal.QueueScheduler;
import io.fleetkit.queueing.manifest.KueueObject;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The events Kueue's scheduler, preemptor, eviction and workload controller record about a Workload, made from what a
 * cycle or a check update of the {@link AdmissionEngine} did (kueue {@code pkg/scheduler/scheduler.go}, {@code
 * pkg/scheduler/preemption/preemption.go}, {@code pkg/workload/evict/evict.go}, {@code
 * pkg/controller/core/workload_controller.go}): type, reason (also the action, as Kueue gives both) and note as
 * Kueue's, regarding the Workload ({@code kueue.x-k8s.io/v1beta2}, no uid: the engine's workloads have none).
 *
 * <p>Within a cycle the events come in the order Kueue's components write them: the evictions of the cycle's start
 * (stopped queues, {@code waitForPodsReady} timeouts), the node replacements, the preemptions (per victim {@code
 * EvictedDueToPreempted}, {@code Preempted}, then {@code PreemptedWorkload} on the preemptor), the reservations
 * ({@code QuotaReserved}, and {@code Admitted} when no check holds the admission back), the workloads left pending
 * (by key), and last what admission checks did. Only the engine's lock holder calls it; the recorder is wrapped with
 * {@link EventRecorder#bestEffort}, so one that throws is logged at DEBUG and never reaches the engine's caller.
 */
final class AdmissionEvents {
  /** Kueue's scheduler: quota was reserved (Normal). */
  static final String QUOTA_RESERVED = "QuotaReserved";
  /** Kueue's scheduler or workload controller: the workload is admitted (Normal). */
  static final String ADMITTED = "Admitted";
  /**
   * Kueue's scheduler: the workload was tried and not admitted (Warning); the reason with the {@code
   * UnadmittedWorkloadsObservability} gate off, as the engine does not compute the gate's finer reasons.
   */
  static final String PENDING = "Pending";
  /** Kueue's scheduler: a second pass (delayed topology request, node replacement) found no placement (Warning). */
  static final String SECOND_PASS_FAILED = "SecondPassFailed";
  /** Kueue's preemptor, on the victim (Normal). */
  static final String PREEMPTED = "Preempted";
  /** Kueue's preemptor, on the preemptor (Normal). */
  static final String PREEMPTED_WORKLOAD = "PreemptedWorkload";
  /** Kueue's workload controller: a Rejected check deactivates the workload (Warning). */
  static final String ADMISSION_CHECK_REJECTED = "AdmissionCheckRejected";
  /** Kueue's eviction: {@code Evicted} then {@code DueTo} and the {@code Evicted} condition's reason (Normal). */
  static final String EVICTED_DUE_TO = "EvictedDueTo";
  /** Kueue's {@code WorkloadDeactivated}, the eviction reason of a deactivated workload. */
  static final String DEACTIVATED = "Deactivated";
  /** Kueue's {@code WorkloadEvictedByPreemption}, the eviction reason of a preempted workload. */
  static final String EVICTED_BY_PREEMPTION = "Preempted";

  private final EventRecorder recorder;
  private final Clock clock;
  private final QueueScheduler scheduler;
  /**
   * When each workload evicted since its creation was queued again (Kueue's {@code Requeued} condition's transition
   * time); a workload not here was queued at its creation. Entries go with the workload.
   */
  private final Map<String, Instant> requeuedAt = new HashMap<>();

  AdmissionEvents(EventRecorder recorder, Clock clock, QueueScheduler scheduler) {
    this.recorder = EventRecorder.bestEffort(recorder);
    this.clock = clock;
    this.scheduler = scheduler;
  }

  /** The events of one scheduling cycle. */
  void cycle(CycleResult r) {
    Instant now = clock.instant();
    for (QueueStopEviction s : r.queueStops()) {
      // a released reservation is Kueue's QuotaReserved=False status write, without an event
      if (s.kind() == QueueStopEviction.Kind.EVICTED) {
        evicted(s.workload(), s.reason(), s.message(), now);
      }
    }
    for (PodsReadyEviction p : r.podsReadyEvictions()) {
      if (p.kind() == PodsReadyEviction.Kind.EVICTED) {
        RequeueState rs = scheduler.requeueState(p.workload());
        // Kueue's workload controller sets Requeued=True once the backoff is over
        evicted(p.workload(), p.reason(), p.message(),
            rs != null && rs.requeueAt() != null && rs.requeueAt().isAfter(now) ? rs.requeueAt() : now);
      } else {
        evicted(p.workload(), p.reason(), p.message(), now);
      }
    }
    for (NodeReplacement n : r.nodeReplacements()) {
      if (n.kind() == NodeReplacement.Kind.FAILED) {
        record(n.workload(), Event.WARNING, SECOND_PASS_FAILED, n.message());
      } else if (n.kind() == NodeReplacement.Kind.EVICTED) {
        evicted(n.workload(), NodeReplacement.REASON_NODE_FAILURES, n.message(), now);
      }
    }
    for (Preemption p : r.preempted()) {
      preempted(p, now);
    }
    Set<String> admittedByChecks = new HashSet<>();
    for (CheckOutcome o : r.checks()) {
      if (o.kind() == CheckOutcome.Kind.ADMITTED) {
        admittedByChecks.add(o.workload());
      }
    }
    for (QuotaReservation q : r.admitted()) {
      record(q.workload(), Event.NORMAL, QUOTA_RESERVED, "Quota reserved in ClusterQueue " + q.clusterQueue()
          + ", wait time since queued was " + seconds(Duration.between(queuedAt(q.workload()), now)) + "s");
      requeuedAt.remove(q.workload());
      if (!admittedByChecks.contains(q.workload()) && scheduler.isAdmitted(q.workload())) {
        // Kueue's scheduler admits a workload without checks with its reservation
        record(q.workload(), Event.NORMAL, ADMITTED, "Admitted by ClusterQueue " + q.clusterQueue()
            + ", wait time since reservation was 0s");
      }
    }
    for (Map.Entry<String, String> p : new TreeMap<>(r.pending()).entrySet()) {
      // a workload holding quota is pending only in the second pass of its delayed topology request
      record(p.getKey(), Event.WARNING, scheduler.admission(p.getKey()) != null ? SECOND_PASS_FAILED : PENDING,
          p.getValue());
    }
    checks(r.checks(), now);
  }

  /** The events of what admission checks did, in a cycle or when a check's state was set. */
  void checks(List<CheckOutcome> outcomes, Instant now) {
    for (CheckOutcome o : outcomes) {
      switch (o.kind()) {
        case ADMITTED -> {
          QuotaReservation q = scheduler.admission(o.workload());
          Instant reservedAt = q != null ? q.admittedAt() : now;
          record(o.workload(), Event.NORMAL, ADMITTED, "Admitted by ClusterQueue " + o.clusterQueue()
              + ", wait time since reservation was " + seconds(Duration.between(reservedAt, now)) + "s");
        }
        case EVICTED -> evicted(o.workload(), AdmissionChecks.EVICTED_BY_ADMISSION_CHECK, o.message(), now);
        case DEACTIVATED -> {
          String checks = o.message().startsWith(AdmissionChecks.DEACTIVATED_PREFIX)
              ? o.message().substring(AdmissionChecks.DEACTIVATED_PREFIX.length()) : o.message();
          record(o.workload(), Event.WARNING, ADMISSION_CHECK_REJECTED, "Deactivated due to " + checks);
          evicted(o.workload(), DEACTIVATED + "DueTo" + AdmissionChecks.EVICTED_BY_ADMISSION_CHECK, o.message(),
              now);
        }
      }
    }
  }

  /** A deactivated workload was queued again (Kueue's {@code Requeued} reason {@code Reactivated}). */
  void reactivated(String key) {
    requeuedAt.put(key, clock.instant());
  }

  /** A workload left the engine. */
  void deleted(String key) {
    requeuedAt.remove(key);
  }

  private void preempted(Preemption p, Instant now) {
    String message = p.message();
    evicted(p.workload(), EVICTED_BY_PREEMPTION, message, now);
    String priorities = "; preemptor effective priority: " + priority(p.preemptor()) + " (base: "
        + priority(p.preemptor()) + ", boost: 0); preemptee effective priority: " + priority(p.workload())
        + " (base: " + priority(p.workload()) + ", boost: 0)";
    record(p.workload(), Event.NORMAL, PREEMPTED, message + priorities);
    record(p.preemptor(), Event.NORMAL, PREEMPTED_WORKLOAD, "Preempted workload " + p.workload()
        + " in ClusterQueue " + p.clusterQueue() + priorities);
  }

  /** Kueue's {@code reportEvictedWorkload}: reason {@code EvictedDueTo<reason>}, the eviction's message. */
  private void evicted(String key, String reason, String message, Instant requeued) {
    record(key, Event.NORMAL, EVICTED_DUE_TO + reason, message);
    requeuedAt.put(key, requeued);
  }

  private int priority(String key) {
    Workload w = scheduler.workload(key);
    return w == null ? 0 : w.priority();
  }

  private Instant queuedAt(String key) {
    Instant at = requeuedAt.get(key);
    if (at != null) {
      return at;
    }
    Workload w = scheduler.workload(key);
    return w == null ? clock.instant() : w.creationTime();
  }

  /** Go's {@code %.0f} of a duration's seconds: the nearest whole number, ties to even. */
  static String seconds(Duration d) {
    double s = d.getSeconds() + d.getNano() / 1e9;
    return new BigDecimal(s).setScale(0, RoundingMode.HALF_EVEN).toPlainString();
  }

  private void record(String key, String type, String reason, String note) {
    recorder.event(reference(key), null, type, reason, reason, note);
  }

  /** The Workload {@code key} ({@code namespace/name}) as Kueue's object. */
  static ObjectReference reference(String key) {
    int slash = key.indexOf('/');
    return new ObjectReference(KueueObject.V1BETA2, Workload.KIND, key.substring(0, slash), key.substring(slash + 1),
        "", "");
  }

  static @Nullable AdmissionEvents of(EventRecorder recorder, Clock clock, QueueScheduler scheduler) {
    return recorder == EventRecorder.NOOP ? null : new AdmissionEvents(recorder, clock, scheduler);
  }
}
