package io.fleetkit.queueing.controller.internal;

import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.AdmissionCheckState;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.CheckOutcome;
import io.fleetkit.queueing.CycleResult;
import io.fleetkit.queueing.Preemption;
import io.fleetkit.queueing.Workload;
import io.fleetkit.queueing.controller.QueueLabels;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's side of the {@link AdmissionEngine}: which Job workloads it submitted, which preempted Jobs may
 * still run (their suspension not yet written), and why pending ones wait. Every method holds the book's lock, so a
 * decision (submit, run cycles, read the outcome) is atomic with respect to other Jobs' reconciles.
 *
 * <p>Cycles run at once after each change (a submit, a release), or, with {@code deferCycles} (a stepping
 * controller, as in a simulation), once per round: the changes of every Job reconciled in the round are made first,
 * and {@link #flush()} then runs the cycles, as Kueue's scheduler runs its cycles apart from the job reconciler with
 * every workload created meanwhile among the heads. A Job whose reconcile needs those cycles' outcome waits for them
 * ({@link #sync} returns {@code null}) and is handed back by {@link #flush()}.
 *
 * <p>Start gate: while a preempted Job may still run (not yet suspended, or still counting active pods), no admitted
 * Job is started; its key waits and is handed back for requeueing when the last preempted Job has stopped. With the
 * engine never over-committing, this keeps the running Jobs within quota at every instant.
 */
final class AdmissionBook {
  private static final Logger LOG = LoggerFactory.getLogger(AdmissionBook.class);

  /** What the engine says about one Job's workload after the cycles. */
  /**
   * @param admission the workload's quota reservation, or {@code null}
   * @param admitted whether the engine admits it (quota and every admission check ready)
   * @param checks its admission check states
   * @param waitReason without quota: the condition reason of its wait ({@code Pending}, {@code Preempted}, or {@code
   *     AdmissionCheck} after a Retry check evicted it)
   * @param stopReason with no quota: the condition reason of a Job that cannot run ({@code Deactivated}, {@code
   *     FailedToStart}), or {@code null}
   */
  record View(@Nullable QuotaReservation admission, boolean admitted, List<AdmissionCheckState> checks,
      String waitReason, String message, boolean mayStart, @Nullable String stopReason) {}

  /** What a {@link #sync} wrote to the engine's copy of a Job's workload (Kueue's job reconciler's workload writes). */
  enum WorkloadWrite {
    /** The Job had no workload; one was submitted (Kueue's {@code CreatedWorkload}). */
    CREATED,
    /**
     * The Job's pod sets changed while its workload waited; the workload was submitted again with them (Kueue's
     * {@code updateWorkloadToMatchJob}). A changed queue name alone is not counted: Kueue moves the workload
     * without this write.
     */
    UPDATED,
    /** The workload's priority was changed to follow the Job's priority-class label (Kueue's {@code UpdateWorkloadPriority}). */
    PRIORITY
  }

  /** An admission to restore from a Job's annotation. */
  record Restored(Workload workload, AdmissionRecord admission, Map<String, Integer> admittedCounts,
      Map<String, io.fleetkit.queueing.TopologyAssignment> topologyAssignments, Instant admittedAt) {}

  private final AdmissionEngine engine;
  private final int maxCycles;
  private final Map<String, Workload> submitted = new HashMap<>();
  private final Set<String> evicting = new HashSet<>();
  private final Set<String> waitingToStart = new LinkedHashSet<>();
  private final Map<String, String> reasons = new HashMap<>();
  private final Set<String> preempted = new HashSet<>();
  /** Workloads {@code waitForPodsReady} evicted, waiting in their queue again (after their backoff). */
  private final Set<String> podsReadyEvicted = new HashSet<>();
  /** Workloads evicted for node failures (no replacement, or a second failed node) that have not got quota again. */
  private final Set<String> nodeFailureEvicted = new HashSet<>();
  /** Workloads a Retry admission check evicted, waiting in their queue again. */
  private final Set<String> checkEvicted = new HashSet<>();
  /** Jobs whose admission-check pod set updates conflict (Kueue finishes their workloads, reason FailedToStart). */
  private final Map<String, String> failedToStart = new HashMap<>();
  /**
   * The message of each workload's latest eviction (Kueue's {@code Evicted} condition message) since its Job last
   * started; the Job's reconcile takes it as the note of its {@code Stopped} event.
   */
  private final Map<String, String> evictions = new HashMap<>();
  private boolean restored;
  /** Whether the engine's inputs changed (submit, delete) since the last cycles; only then are cycles run. */
  private boolean dirty;
  /** Whether cycles wait for {@link #flush()} instead of running after each change. */
  private final boolean deferCycles;
  /** With {@code deferCycles}: the Jobs whose reconcile waits for the round's cycles, in the order they came. */
  private final Set<String> awaiting = new LinkedHashSet<>();
  /**
   * With {@code deferCycles}: the Jobs the last {@link #flush()} handed back; their next sync reads the cycles'
   * outcome as it is rather than waiting for another round (the checks, backoffs and node failures it would have
   * the cycles look at again were looked at by those cycles).
   */
  private final Set<String> served = new HashSet<>();

  AdmissionBook(AdmissionEngine engine, int maxCycles) {
    this(engine, maxCycles, false);
  }

  /**
   * @param deferCycles whether cycles wait for {@link #flush()} (once per round) instead of running after each change
   */
  AdmissionBook(AdmissionEngine engine, int maxCycles, boolean deferCycles) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.maxCycles = maxCycles;
    this.deferCycles = deferCycles;
  }

  synchronized boolean restored() {
    return restored;
  }

  /**
   * Records the annotated admissions as admitted in the engine, and the Jobs that failed to start (key → message),
   * once; returns the keys of the admissions restored.
   */
  synchronized Set<String> restore(List<Restored> admissions, Map<String, String> failed) {
    Set<String> out = new LinkedHashSet<>();
    if (restored) {
      return out;
    }
    restored = true;
    failedToStart.putAll(failed);
    for (Restored r : admissions) {
      String key = r.workload().key();
      try {
        if (engine.admission(key).isEmpty()) {
          engine.assumeAdmitted(r.workload(), r.admission().clusterQueue(), r.admission().flavors(),
              r.admittedCounts(), r.topologyAssignments(), r.admittedAt());
        }
        submitted.put(key, r.workload());
        out.add(key);
      } catch (IllegalArgumentException e) {
        // left unrestored: the Job's reconcile finds it annotated but not admitted and suspends it
        LOG.debug("queue admission: cannot restore {}: {}", key, e.getMessage());
      }
    }
    return out;
  }

  /**
   * Sets the reclaimable pods a Job's status gives its workload (Kueue's job reconciler writes them into the
   * Workload's status), if the engine knows the workload; when they change, cycles run at once: the quota they free
   * may admit another workload, and a pending workload asks for fewer pods. A set the engine refuses (a count going
   * down while the workload holds quota) is logged and left as it was.
   */
  synchronized void reclaimable(String key, Map<String, Integer> counts, Set<String> changed) {
    if (!submitted.containsKey(key)) {
      return;
    }
    try {
      if (engine.setReclaimablePods(key, counts)) {
        dirty = true;
        cyclesAfterChange(changed);
      }
    } catch (io.fleetkit.api.FleetKitException | IllegalArgumentException e) {
      LOG.debug("queue admission: reclaimable pods of {} left as they were: {}", key, e.getMessage());
    }
  }

  /**
   * Submits {@code wl} unless it is already pending or admitted (a pending one whose spec changed is resubmitted),
   * runs admission cycles, and reports the workload's state. Keys of other Jobs whose state changed are added to
   * {@code changed}. With {@code deferCycles}, when cycles are due the workload waits for them instead: the result is
   * {@code null} and {@link #flush()} hands the key back.
   *
   * @throws IllegalArgumentException if the engine rejects the workload
   */
  synchronized @Nullable View sync(Workload wl, Set<String> changed) {
    return sync(wl, changed, java.util.EnumSet.noneOf(WorkloadWrite.class));
  }

  /**
   * As {@link #sync(Workload, Set)}, adding to {@code writes} what it wrote to the Job's workload: {@link
   * WorkloadWrite#CREATED} when the Job had none, {@link WorkloadWrite#UPDATED} when its pod sets changed while it
   * waited, {@link WorkloadWrite#PRIORITY} when only its priority followed the Job's label.
   */
  synchronized @Nullable View sync(Workload wl, Set<String> changed, Set<WorkloadWrite> writes) {
    String key = wl.key();
    String failed = failedToStart.get(key);
    if (failed != null) {
      return new View(null, false, List.of(), QueueLabels.REASON_PENDING, failed, false, QueueLabels.REASON_FAILED_TO_START);
    }
    if (submitted.containsKey(key)) {
      String deactivated = engine.deactivated(key).orElse(null);
      if (deactivated != null) {
        return new View(null, false, List.of(), QueueLabels.REASON_PENDING, deactivated, false, QueueLabels.REASON_DEACTIVATED);
      }
    }
    Workload old = submitted.get(key);
    boolean known = old != null;
    if (old != null) {
      old = syncPriority(old, wl, writes);
    }
    boolean podSetsChanged = false;
    if (old != null && !old.equals(wl) && engine.admission(key).isEmpty()) {
      podSetsChanged = !old.podSets().equals(wl.podSets());
      engine.delete(key);
      submitted.remove(key);
      old = null;
    }
    if (old == null) {
      if (engine.admission(key).isEmpty()) {
        engine.submit(wl);
        dirty = true;
        if (!known) {
          writes.add(WorkloadWrite.CREATED);
        } else if (podSetsChanged) {
          writes.add(WorkloadWrite.UPDATED);
        }
      }
      submitted.put(key, wl);
    }
    if (writes.contains(WorkloadWrite.UPDATED)) {
      writes.remove(WorkloadWrite.PRIORITY); // Kueue writes the Job's whole workload spec once
    }
    // (a Job the last flush handed back has had the cycles look at these)
    boolean served = this.served.remove(key);
    if (engine.admission(key).isPresent() && !engine.isAdmitted(key) && !served) {
      dirty = true; // its admission checks are asked again
    }
    if (engine.admission(key).isEmpty() && podsReadyEvicted.contains(key) && !served) {
      dirty = true; // its backoff may have passed
    }
    if (engine.nodeFailuresDue() && !served) {
      dirty = true; // a node has been not Ready for the node failure delay: the next cycle handles its workloads
    }
    if (engine.admission(key).isPresent() && !engine.unhealthyNodes(key).isEmpty() && !served) {
      dirty = true; // a node failed for it (its pods there stopped, a taint): the next cycle replaces them
    }
    if (dirty) {
      if (deferCycles) {
        if (!served) {
          awaiting.add(key);
          return null;
        }
        // handed back and changed again since (another Job's release): it reads the engine as it is now, and the
        // round's next flush hands it back again if the cycles change its state
      } else {
        cycles(changed);
      }
    }
    QuotaReservation a = engine.admission(key).orElse(null);
    List<AdmissionCheckState> checks = engine.admissionChecks(key);
    if (a != null) {
      boolean others = evicting.size() > (evicting.contains(key) ? 1 : 0);
      return new View(a, engine.isAdmitted(key), checks, QueueLabels.REASON_PENDING, "", !others, null);
    }
    String deactivated = engine.deactivated(key).orElse(null);
    if (deactivated != null) {
      return new View(null, false, checks, QueueLabels.REASON_PENDING, deactivated, false, QueueLabels.REASON_DEACTIVATED);
    }
    io.fleetkit.queueing.QueueBlocker blocker = engine.queueBlocker(key).orElse(null);
    if (blocker != null) {
      // Kueue's getQueueBlocker: a stopped, inactive or missing queue is the reason, whatever evicted the workload
      return new View(null, false, checks, blocker.reason(), blocker.message(), false, null);
    }
    String message = reasons.getOrDefault(key, "waiting for quota");
    String wait = podsReadyEvicted.contains(key) ? QueueLabels.REASON_PODS_READY_TIMEOUT
        : nodeFailureEvicted.contains(key) ? QueueLabels.REASON_NODE_FAILURES
        : checkEvicted.contains(key) ? QueueLabels.REASON_ADMISSION_CHECK
        : preempted.contains(key) ? QueueLabels.REASON_PREEMPTED
        : message.equals(io.fleetkit.queueing.WaitForPodsReady.MESSAGE_WAITING_FOR_PODS_READY)
            ? QueueLabels.REASON_WAITING_FOR_PODS_READY : QueueLabels.REASON_PENDING;
    return new View(null, false, checks, wait, message, false, null);
  }

  /**
   * The engine's workload of a Job the controller submitted (with its current priority), or {@code null}.
   */
  synchronized @Nullable Workload current(String key) {
    return submitted.containsKey(key) ? engine.workload(key).orElse(null) : null;
  }

  /**
   * Gives the engine's workload {@code wl}'s priority if it differs (Kueue's job reconciler updating the Workload's
   * priority); a change the engine refuses (Kueue's rules while quota is reserved) is logged and left as it was.
   * Returns the submitted workload with the engine's priority now; a change made adds {@link WorkloadWrite#PRIORITY}
   * to {@code writes}.
   */
  private Workload syncPriority(Workload old, Workload wl, Set<WorkloadWrite> writes) {
    String key = wl.key();
    Workload now = engine.workload(key).orElse(null);
    if (now == null) {
      return old;
    }
    if (!now.priorityInfo().equals(wl.priorityInfo())) {
      try {
        if (engine.updatePriority(key, wl.priorityInfo())) {
          dirty = true;
          writes.add(WorkloadWrite.PRIORITY);
          now = engine.workload(key).orElse(now);
        }
      } catch (io.fleetkit.api.FleetKitException | IllegalArgumentException e) {
        LOG.debug("queue admission: priority of {} left as it was: {}", key, e.getMessage());
      }
    }
    Workload out = old.withPriority(now.priorityInfo());
    submitted.put(key, out);
    return out;
  }

  /**
   * Applies {@code change} to the engine's queues (its ClusterQueues, LocalQueues or Cohorts) atomically with the
   * controller's decisions; the next sync runs admission cycles.
   */
  synchronized void queues(java.util.function.Consumer<AdmissionEngine> change) {
    change.accept(engine);
    dirty = true;
  }

  /**
   * A node was added or changed ({@code node}) or deleted ({@code node == null}): the engine learns it, and the next
   * sync runs admission cycles (whose second pass replaces the node's pods, or evicts their workloads).
   *
   * @return the keys of the workloads with quota placed on the node before the change
   */
  synchronized List<String> node(String name, io.fleetkit.api.core.@Nullable Node node) {
    List<String> on = engine.workloadsOn(name);
    if (node == null) {
      engine.removeNode(name);
    } else {
      engine.putNode(node);
    }
    dirty = true;
    return on;
  }

  /**
   * The Job's pod set updates conflict (Kueue: its workload is finished with reason {@code FailedToStart}): its
   * quota is released and the Job is kept suspended, with {@code message}, until it is deleted, finished or
   * unlabelled.
   */
  synchronized void failedToStart(String key, String message, Set<String> changed) {
    failedToStart.put(key, message);
    if (submitted.remove(key) != null) {
      engine.delete(key);
      dirty = true;
      cyclesAfterChange(changed);
    }
    stoppedLocked(key, changed);
  }

  /**
   * Forgets a Job (finished, deleted or no longer managed): its quota is released and cycles run.
   *
   * @return whether the Job had a workload
   */
  synchronized boolean forget(String key, Set<String> changed) {
    failedToStart.remove(key);
    evictions.remove(key);
    boolean known = submitted.remove(key) != null;
    reasons.remove(key);
    preempted.remove(key);
    checkEvicted.remove(key);
    podsReadyEvicted.remove(key);
    nodeFailureEvicted.remove(key);
    waitingToStart.remove(key);
    awaiting.remove(key);
    if (known) {
      engine.delete(key);
      dirty = true;
      cyclesAfterChange(changed);
    }
    stoppedLocked(key, changed);
    return known;
  }

  /**
   * Takes the message of the workload's latest eviction since its Job last started, or {@code null} if it was not
   * evicted since (or the message was taken).
   */
  synchronized @Nullable String takeEviction(String key) {
    return evictions.remove(key);
  }

  /** The Job is suspended and has no active pods (or never ran): it no longer counts as possibly running. */
  synchronized void stopped(String key, Set<String> changed) {
    stoppedLocked(key, changed);
  }

  private void stoppedLocked(String key, Set<String> changed) {
    if (evicting.remove(key) && evicting.isEmpty()) {
      changed.addAll(waitingToStart);
      waitingToStart.clear();
    }
  }

  /** The Job is being stopped although admitted (to change flavors): it counts as possibly running. */
  synchronized void stopping(String key) {
    evicting.add(key);
  }

  /**
   * The admitted Job found the start gate closed. If the Job itself is {@code stopped} (suspended, no active pods)
   * it no longer counts as possibly running: it may have been preempted and admitted again in one round of cycles,
   * and waiting for its own eviction would wait forever. Returns whether the gate is open now (the Job may start);
   * otherwise the Job waits and is handed back when the last eviction is written.
   */
  synchronized boolean waitToStart(String key, boolean stopped, Set<String> changed) {
    if (stopped) {
      evicting.remove(key);
    }
    if (evicting.isEmpty()) {
      waitingToStart.remove(key);
      changed.addAll(waitingToStart);
      waitingToStart.clear();
      return true;
    }
    waitingToStart.add(key);
    return false;
  }

  /**
   * The Job was written started with {@code admission}: whether the engine still holds exactly that admission (if
   * not, it was preempted meanwhile and stays evicting until its suspension is written).
   */
  synchronized boolean started(String key, QuotaReservation admission, Set<String> changed) {
    waitingToStart.remove(key);
    QuotaReservation now = engine.admission(key).orElse(null);
    if (now == null || !AdmissionRecord.of(now).equals(AdmissionRecord.of(admission))) {
      return false;
    }
    evictions.remove(key);
    stoppedLocked(key, changed);
    return true;
  }

  /**
   * Reports whether the admitted Job's pods are all ready ({@code waitForPodsReady}) and returns how long until its
   * PodsReady timeout passes, if one runs. A timeout that has passed runs cycles (which evict the workload); pods
   * that became ready run them too with {@code blockAdmission} (a head may be admitted now).
   */
  synchronized java.util.Optional<java.time.Duration> podsReady(String key, boolean ready, Set<String> changed) {
    io.fleetkit.queueing.WaitForPodsReady cfg = engine.waitForPodsReady().orElse(null);
    if (cfg == null || engine.admission(key).isEmpty()) {
      return java.util.Optional.empty();
    }
    boolean wasReady = engine.podsReady(key).map(io.fleetkit.queueing.PodsReadyCondition::status).orElse(false);
    boolean nowReady = engine.setPodsReady(key, ready).status();
    java.util.Optional<java.time.Duration> left = engine.podsReadyTimeout(key)
        .map(io.fleetkit.queueing.WaitForPodsReady.Timeout::recheckAfter);
    if (left.isPresent() && left.get().isZero() || cfg.blockAdmission() && nowReady && !wasReady) {
      dirty = true;
      if (deferCycles) {
        awaiting.add(key); // its eviction, if the timeout passed, is the round's cycles'
      } else {
        cycles(changed);
      }
    }
    return left;
  }

  /** Whether the Job waits for the round's cycles ({@code deferCycles}); {@link #flush()} hands it back. */
  synchronized boolean awaitingCycles(String key) {
    return awaiting.contains(key);
  }

  /**
   * Ends a round: runs the cycles the round's changes made due (until the engine is idle, as {@link #sync} would
   * have) and returns the keys of the Jobs to reconcile again: those waiting for the cycles, then those whose state
   * the cycles changed. Nothing to do returns an empty set.
   */
  synchronized Set<String> flush() {
    served.clear();
    if (!dirty && awaiting.isEmpty()) {
      return Set.of();
    }
    Set<String> out = new LinkedHashSet<>(awaiting);
    awaiting.clear();
    if (dirty) {
      cycles(out);
    }
    served.addAll(out);
    return out;
  }

  /** After a change: the cycles now, or, with {@code deferCycles}, at the round's {@link #flush()}. */
  private void cyclesAfterChange(Set<String> changed) {
    if (!deferCycles) {
      cycles(changed);
    }
  }

  /**
   * Runs cycles until the engine is idle; records outcomes of the controller's workloads. The engine can oscillate:
   * a reclaiming head preempts a borrowing workload, and in the next cycle an older head of the reclaiming queue is
   * tried instead of it, fails, and the victim is admitted again into the freed quota. When a cycle repeats an
   * earlier one, the loop stops after the next cycle that preempts nothing, leaving the victim admitted; the next
   * submit or release tries again. Without this, the Jobs would be stopped and started forever.
   */
  private void cycles(Set<String> changed) {
    dirty = false;
    Map<String, String> previous = null;
    Set<List<List<String>>> seen = new HashSet<>();
    boolean oscillating = false;
    for (int i = 0; i < maxCycles; i++) {
      CycleResult r = engine.schedule();
      if (r.progressed()) {
        List<List<String>> signature = List.of(r.admitted().stream().map(QuotaReservation::workload).toList(),
            r.preempted().stream().map(Preemption::workload).toList());
        if (!seen.add(signature) && !oscillating) {
          oscillating = true;
          LOG.debug("queue admission: the engine repeats cycle {}; stopping after its next admission", signature);
        }
      }
      for (QuotaReservation a : r.admitted()) {
        if (submitted.containsKey(a.workload())) {
          reasons.remove(a.workload());
          preempted.remove(a.workload());
          checkEvicted.remove(a.workload());
          podsReadyEvicted.remove(a.workload());
          nodeFailureEvicted.remove(a.workload());
          changed.add(a.workload());
        }
      }
      for (Preemption p : r.preempted()) {
        if (submitted.containsKey(p.workload())) {
          evicting.add(p.workload());
          preempted.add(p.workload());
          checkEvicted.remove(p.workload());
          reasons.put(p.workload(), p.message());
          evictions.put(p.workload(), p.message());
          changed.add(p.workload());
        }
      }
      for (CheckOutcome o : r.checks()) {
        if (!submitted.containsKey(o.workload())) {
          continue;
        }
        changed.add(o.workload());
        if (o.kind() != CheckOutcome.Kind.ADMITTED) {
          // its quota is gone: until its suspension is written it may still run
          evicting.add(o.workload());
          checkEvicted.add(o.workload());
          reasons.put(o.workload(), o.message());
          evictions.put(o.workload(), o.message());
        }
      }
      for (io.fleetkit.queueing.PodsReadyEviction ev : r.podsReadyEvictions()) {
        if (submitted.containsKey(ev.workload())) {
          // its quota is gone: until its suspension is written it may still run
          evicting.add(ev.workload());
          podsReadyEvicted.add(ev.workload());
          reasons.put(ev.workload(), ev.message());
          evictions.put(ev.workload(), ev.message());
          changed.add(ev.workload());
        }
      }
      for (io.fleetkit.queueing.NodeReplacement x : r.nodeReplacements()) {
        if (submitted.containsKey(x.workload()) && x.kind() == io.fleetkit.queueing.NodeReplacement.Kind.EVICTED) {
          // its quota is gone: until its suspension is written it may still run
          evicting.add(x.workload());
          nodeFailureEvicted.add(x.workload());
          reasons.put(x.workload(), x.message());
          evictions.put(x.workload(), x.message());
          changed.add(x.workload());
        }
      }
      for (io.fleetkit.queueing.QueueStopEviction x : r.queueStops()) {
        if (submitted.containsKey(x.workload())) {
          // its quota is gone (a queue was stopped): until its suspension is written it may still run
          evicting.add(x.workload());
          if (x.kind() == io.fleetkit.queueing.QueueStopEviction.Kind.EVICTED) {
            evictions.put(x.workload(), x.message());
          }
          changed.add(x.workload());
        }
      }
      for (Map.Entry<String, String> e : r.pending().entrySet()) {
        String k = e.getKey();
        if (submitted.containsKey(k) && !preempted.contains(k) && !checkEvicted.contains(k)
            && !podsReadyEvicted.contains(k) && !nodeFailureEvicted.contains(k)
            && !e.getValue().equals(reasons.put(k, e.getValue()))) {
          changed.add(k);
        }
      }
      if (!r.progressed() && (r.pending().isEmpty() || r.pending().equals(previous))
          || oscillating && r.preempted().isEmpty()) {
        return;
      }
      previous = r.pending();
    }
  }
}
