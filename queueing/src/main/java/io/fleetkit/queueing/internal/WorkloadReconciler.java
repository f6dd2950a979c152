package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.AdmissionCheckState;
import io.fleetkit.queueing.AdmissionChecks;
import io.fleetkit.queueing.CheckOutcome;
import io.fleetkit.queueing.CheckState;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kueue's workload controller ({@code pkg/controller/core/workload_controller.go}) for workloads with quota: what their
 * check states do to them ({@code reconcileCheckBasedEviction}, {@code SyncAdmittedCondition}), what their queues'
 * stop policies do ({@code reconcileOnLocalQueueActiveState}, {@code reconcileOnClusterQueueActiveState}), the
 * PodsReady timeouts ({@code reconcileNotReadyTimeout}), and the eviction they all end in: quota released, checks
 * reset, and the workload queued again, waiting for a backoff or deactivated. Not thread-safe; the engine serializes
 * calls.
 */
final class WorkloadReconciler {
  private static final Logger LOG = LoggerFactory.getLogger(WorkloadReconciler.class);

  private final Clock clock;
  private final QueueRegistry registry;
  private final AdmittedWorkloads admitted;
  private final PendingWorkloads pending;
  private final AdmissionCheckStates checks;
  private final PodsReadyTimeouts podsReady;
  /** Forgets the unhealthy nodes of a workload that loses its quota. */
  private final Consumer<String> forgetNodes;
  /** Admission fair sharing's accounting, or {@code null} if the engine does not have it. */
  private final Supplier<@Nullable AfsAccounting> afs;
  /** What stopping queues did to workloads with quota since the last cycle, reported by the next cycle. */
  private final List<io.fleetkit.queueing.QueueStopEviction> stopEvents = new ArrayList<>();

  WorkloadReconciler(Clock clock, QueueRegistry registry, AdmittedWorkloads admitted, PendingWorkloads pending,
      AdmissionCheckStates checks, PodsReadyTimeouts podsReady, Consumer<String> forgetNodes,
      Supplier<@Nullable AfsAccounting> afs) {
    this.clock = clock;
    this.registry = registry;
    this.admitted = admitted;
    this.pending = pending;
    this.checks = checks;
    this.podsReady = podsReady;
    this.forgetNodes = forgetNodes;
    this.afs = afs;
  }

  /** What stopping queues did to workloads with quota since the last call, and forgets it. */
  List<io.fleetkit.queueing.QueueStopEviction> takeStopEvents() {
    List<io.fleetkit.queueing.QueueStopEviction> out = List.copyOf(stopEvents);
    stopEvents.clear();
    return out;
  }

  /**
   * Kueue's workload controller on queue changes ({@code reconcileOnLocalQueueActiveState}, then {@code
   * reconcileOnClusterQueueActiveState}) for every workload with quota, oldest reservation first: an admitted one is
   * evicted if its LocalQueue or ClusterQueue is {@code HoldAndDrain}; one whose checks are not all Ready loses its
   * reservation if either queue is stopped, its LocalQueue was removed or its ClusterQueue is terminating.
   */
  void enforceStops() {
    for (AdmittedWorkload w : admitted.oldestFirst()) {
      enforceStop(w);
    }
  }

  /** {@link #enforceStops} for one workload with quota. */
  void enforceStop(AdmittedWorkload w) {
    io.fleetkit.queueing.QueueStopEviction e = registry.stopVerdict(w, isAdmitted(w.key()));
    if (e == null) {
      return;
    }
    evict(w);
    checks.stopAwaiting(w.key());
    pending.unparkTree(w.cq);
    stopEvents.add(e);
    LOG.debug("{} {}: {}", e.kind(), w.key(), e.message());
  }

  /** Kueue's eviction of a workload with quota: its quota released, its checks reset, queued again. */
  void evict(AdmittedWorkload v) {
    forgetNodes.accept(v.key());
    admitted.remove(v.key());
    checks.reset(v.key(), clock.instant());
    podsReady.notAdmitted(v.key());
    pending.enqueue(new PendingWorkload(v.workload, admitted.nextSequence()), v.cq);
  }

  /**
   * Kueue's {@code reconcileCheckBasedEviction} and {@code SyncAdmittedCondition} for a workload with reserved quota:
   * a Rejected check deactivates it, else a Retry check evicts it, else all checks Ready admit it.
   */
  @Nullable CheckOutcome react(String key, Instant now) {
    AfsAccounting afs = this.afs.get();
    AdmittedWorkload w = admitted.get(key);
    WorkloadCheckStates wc = checks.get(key);
    if (w == null || wc == null) {
      return null;
    }
    List<AdmissionCheckState> rejected = AdmissionChecks.inState(wc.states, CheckState.REJECTED);
    if (!rejected.isEmpty()) {
      String message = AdmissionChecks.DEACTIVATED_PREFIX + AdmissionChecks.message(rejected, CheckState.REJECTED);
      release(w, now);
      pending.deactivate(w.workload, w.cq, message);
      if (afs != null) {
        afs.gone(w.workload);
      }
      LOG.debug("deactivated {}: {}", key, message);
      return new CheckOutcome(key, w.cq.name, CheckOutcome.Kind.DEACTIVATED, message);
    }
    List<AdmissionCheckState> retry = AdmissionChecks.inState(wc.states, CheckState.RETRY);
    if (!retry.isEmpty()) {
      String message = "Evicted due to " + AdmissionChecks.message(retry, CheckState.RETRY);
      Instant notBefore = AdmissionChecks.maxRetryTime(wc.states);
      release(w, now);
      // Kueue's GetQueueOrderTimestamp: a workload evicted by a check is ordered by the time of its eviction
      PendingWorkload p = new PendingWorkload(w.workload, admitted.nextSequence(), now);
      if (notBefore != null && notBefore.isAfter(now)) {
        pending.backoff(p, w.cq, notBefore);
      } else {
        pending.enqueue(p, w.cq);
      }
      LOG.debug("evicted {}: {}", key, message);
      return new CheckOutcome(key, w.cq.name, CheckOutcome.Kind.EVICTED, message);
    }
    if (!wc.admitted && AdmissionChecks.allReady(wc.states) && !w.admission.topologyPending()) {
      wc.admitted = true;
      podsReady.admitted(key, now);
      if (afs != null) {
        afs.admitted(w, admitted.values(), this::isAdmitted, now);
      }
      return new CheckOutcome(key, w.cq.name, CheckOutcome.Kind.ADMITTED, "The workload is admitted");
    }
    return null;
  }

  /** Releases a reserved workload's quota and resets its checks (Kueue's eviction). */
  private void release(AdmittedWorkload w, Instant now) {
    forgetNodes.accept(w.key());
    admitted.remove(w.key());
    checks.reset(w.key(), now);
    podsReady.notAdmitted(w.key());
    pending.unparkTree(w.cq);
  }

  /**
   * Kueue's {@code reconcileNotReadyTimeout} for every admitted workload, oldest admission first: one whose PodsReady
   * timeout (or recovery timeout) has passed is deactivated if it was requeued {@code backoffLimitCount} times
   * already, else evicted (its quota released, its checks reset) and queued again once its backoff, {@code
   * backoffBaseSeconds * 2^(count-1)} up to {@code backoffMaxSeconds}, has passed.
   */
  List<io.fleetkit.queueing.PodsReadyEviction> evictNotReady(Instant now) {
    if (!podsReady.watching()) {
      return List.of();
    }
    List<AdmittedWorkload> candidates = new ArrayList<>();
    for (String key : podsReady.admittedKeys()) {
      AdmittedWorkload w = admitted.get(key);
      if (w != null) {
        candidates.add(w);
      }
    }
    List<io.fleetkit.queueing.PodsReadyEviction> out = new ArrayList<>();
    for (AdmittedWorkload w : AdmittedWorkloads.oldestFirst(candidates)) {
      String key = w.key();
      PodsReadyTimeouts.Expiry expiry = podsReady.expire(key, now);
      if (expiry == null) {
        continue;
      }
      release(w, now);
      if (expiry.deactivates()) {
        String message = AdmissionChecks.DEACTIVATED_PREFIX
            + io.fleetkit.queueing.WaitForPodsReady.MESSAGE_REQUEUING_LIMIT;
        pending.deactivate(w.workload, w.cq, message);
        LOG.debug("deactivated {}: {}", key, message);
        out.add(new io.fleetkit.queueing.PodsReadyEviction(key, w.cq.name,
            io.fleetkit.queueing.PodsReadyEviction.Kind.DEACTIVATED,
            io.fleetkit.queueing.WaitForPodsReady.REASON_DEACTIVATED_REQUEUING_LIMIT, expiry.timeout().cause(),
            message));
        continue;
      }
      String message = "Exceeded the PodsReady timeout " + key;
      pending.backoff(new PendingWorkload(w.workload, admitted.nextSequence(),
          podsReady.queueOrderTime(w.workload, now)), w.cq, java.util.Objects.requireNonNull(expiry.requeueAt()));
      LOG.debug("evicted {}: {}", key, message);
      out.add(new io.fleetkit.queueing.PodsReadyEviction(key, w.cq.name,
          io.fleetkit.queueing.PodsReadyEviction.Kind.EVICTED,
          io.fleetkit.queueing.WaitForPodsReady.REASON_PODS_READY_TIMEOUT, expiry.timeout().cause(), message));
    }
    return out;
  }

  /**
   * Sets whether all pods of a workload with quota are ready (as Kueue's job reconciler does) and returns its new
   * {@code PodsReady} condition.
   *
   * @throws IllegalArgumentException if the workload holds no quota
   */
  io.fleetkit.queueing.PodsReadyCondition setPodsReady(String key, boolean ready) {
    if (!admitted.contains(key)) {
      throw new IllegalArgumentException("Workload " + key
          + ": has no quota reserved; PodsReady is set only for workloads with quota");
    }
    io.fleetkit.queueing.PodsReadyCondition before = podsReady.podsReady(key);
    io.fleetkit.queueing.PodsReadyCondition now = podsReady.setPodsReady(key, isAdmitted(key), ready, clock.instant());
    if (!now.equals(before)) {
      admitted.get(key).cq.workloadUpdated();
    }
    return now;
  }

  /**
   * Applies check state {@code updates}, already validated, to the checks {@code wc} of {@code key} (as a check
   * controller writes the Workload's status) and reacts to them.
   */
  @Nullable CheckOutcome setCheckStates(String key, WorkloadCheckStates wc, List<AdmissionCheckState> updates) {
    Instant now = clock.instant();
    List<AdmissionCheckState> before = wc.states;
    for (AdmissionCheckState state : updates) {
      wc.states = AdmissionChecks.set(wc.states, state, now);
    }
    AdmittedWorkload holding = admitted.get(key);
    if (holding != null && !before.equals(wc.states)) {
      holding.cq.workloadUpdated();
    }
    if (wc.admitted && !AdmissionChecks.allReady(wc.states)) {
      wc.admitted = false; // Kueue's SyncAdmittedCondition: "check lost"
      podsReady.notAdmitted(key);
    }
    if (admitted.contains(key) && !wc.admitted) {
      checks.await(key);
    }
    CqState waiting = pending.queueOf(key);
    if (waiting != null && !admitted.contains(key)) {
      pending.unpark(waiting); // a pending workload whose failed check changed may be considered again
    }
    return react(key, now);
  }

  /**
   * Whether the workload has quota reserved, every check that applies to it is Ready and no pod set waits for its
   * delayed topology assignment.
   */
  boolean isAdmitted(String key) {
    AdmittedWorkload w = admitted.get(key);
    return w != null && AdmissionChecks.allReady(checks.states(key)) && !w.admission.topologyPending();
  }
}
