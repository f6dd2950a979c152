package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.AdmissionCheck;
import io.fleetkit.queueing.AdmissionCheckController;
import io.fleetkit.queueing.AdmissionCheckState;
import io.fleetkit.queueing.AdmissionChecks;
import io.fleetkit.queueing.CheckState;
import io.fleetkit.queueing.CheckVerdict;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.PodSetUpdate;
import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.Workload;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission check states of the pending and reserved workloads that have checks ({@code status.admissionChecks},
 * kept as {@code pkg/workload/admissionchecks.go} and the workload controller's {@code reconcileSyncAdmissionChecks}
 * keep them), the check controllers by controller name (Kueue's {@code pkg/controller/admissionchecks}, here behind
 * {@link AdmissionCheckController}) and the reserved workloads still waiting for theirs. Validates the states a
 * controller or a caller writes with Kueue's webhook rules. What a state means for the workload (admitted, evicted,
 * deactivated) is the scheduler's. Not thread-safe; the engine serializes calls.
 */
final class AdmissionCheckStates {
  private static final Logger LOG = LoggerFactory.getLogger(AdmissionCheckStates.class);

  private final Clock clock;
  private final QueueRegistry registry;
  /** The check controllers by controller name. */
  private final Map<String, AdmissionCheckController> checkControllers = new HashMap<>();
  /** Check states of pending and reserved workloads that have checks. */
  private final Map<String, WorkloadCheckStates> checkStates = new HashMap<>();
  /**
   * Reserved workloads whose checks are not all ready, in reservation order: the only ones a cycle asks the check
   * controllers about (so that queues without checks cost nothing per cycle).
   */
  private final LinkedHashSet<String> awaitingChecks = new LinkedHashSet<>();

  /**
   * @param controllers the admission check controllers, at most one per controller name
   * @throws IllegalArgumentException if two controllers have the same controller name
   */
  AdmissionCheckStates(Clock clock, QueueRegistry registry, List<AdmissionCheckController> controllers) {
    this.clock = clock;
    this.registry = registry;
    for (AdmissionCheckController c : controllers) {
      if (checkControllers.putIfAbsent(c.controllerName(), c) != null) {
        throw new IllegalArgumentException("admission engine: a controller for admission checks of "
            + c.controllerName() + " is already registered");
      }
    }
  }

  /**
   * Kueue's {@code reconcileSyncAdmissionChecks}: the workload's check states become exactly the checks that apply
   * to it (with a reservation, those of its flavors; without, those of every flavor of the queue).
   */
  void sync(String key, CqState cq, @Nullable QuotaReservation reservation) {
    WorkloadCheckStates wc = checkStates.get(key);
    List<AdmissionCheckState> current = wc == null ? List.of() : wc.states;
    List<AdmissionCheckState> next = AdmissionChecks.syncStates(current,
        AdmissionChecks.checksForWorkload(cq.spec, reservation), clock.instant());
    if (next == null) {
      return;
    }
    if (next.isEmpty()) {
      checkStates.remove(key);
      return;
    }
    if (wc == null) {
      wc = new WorkloadCheckStates();
      checkStates.put(key, wc);
    }
    wc.states = next;
  }

  /** The check states of {@code key}; empty if it has none. */
  List<AdmissionCheckState> states(String key) {
    WorkloadCheckStates wc = checkStates.get(key);
    return wc == null ? List.of() : wc.states;
  }

  /** The checks of {@code key}, or {@code null} if it has none. */
  @Nullable WorkloadCheckStates get(String key) {
    return checkStates.get(key);
  }

  boolean has(String key) {
    return checkStates.containsKey(key);
  }

  /** Forgets the checks of a workload that left the engine. */
  void forget(String key) {
    checkStates.remove(key);
  }

  /** Resets the checks of an evicted workload ({@link AdmissionChecks#resetOnEviction}); it is no longer admitted. */
  void reset(String key, Instant now) {
    WorkloadCheckStates wc = checkStates.get(key);
    if (wc != null) {
      wc.states = AdmissionChecks.resetOnEviction(wc.states, now);
      wc.admitted = false;
    }
  }

  /** Marks every check of a restored admitted workload Ready at {@code at}, and the workload admitted. */
  void restoredReady(String key, Instant at) {
    WorkloadCheckStates wc = checkStates.get(key);
    if (wc != null) {
      List<AdmissionCheckState> ready = new ArrayList<>();
      for (AdmissionCheckState st : wc.states) {
        ready.add(st.withState(CheckState.READY).withLastTransitionTime(at));
      }
      wc.states = List.copyOf(ready);
      wc.admitted = true;
    }
  }

  /** Marks reserved workload {@code key} as waiting for its checks. */
  void await(String key) {
    awaitingChecks.add(key);
  }

  /** Marks {@code key} as no longer waiting for its checks (admitted, evicted or released). */
  void stopAwaiting(String key) {
    awaitingChecks.remove(key);
  }

  /** Whether some reserved workload waits for its checks. */
  boolean anyAwaiting() {
    return !awaitingChecks.isEmpty();
  }

  /** The reserved workloads waiting for their checks, in reservation order, a copy. */
  List<String> awaiting() {
    return List.copyOf(awaitingChecks);
  }

  /**
   * The reserved workloads whose checks are not all ready, in reservation order; those that no longer hold quota, have
   * no checks or were admitted stop waiting.
   */
  List<AdmittedWorkload> reservedAwaiting(Function<String, @Nullable AdmittedWorkload> admitted) {
    List<AdmittedWorkload> reserved = new ArrayList<>();
    for (Iterator<String> it = awaitingChecks.iterator(); it.hasNext(); ) {
      String key = it.next();
      AdmittedWorkload w = admitted.apply(key);
      WorkloadCheckStates wc = checkStates.get(key);
      if (w == null || wc == null || wc.admitted) {
        it.remove();
      } else {
        reserved.add(w);
      }
    }
    return reserved;
  }

  /**
   * Asks the check controllers about every pending check of reserved workload {@code w} and records their verdicts; a
   * check without a controller is left alone (set from outside), a controller that fails leaves its check pending with
   * the failure as its message.
   */
  void ask(AdmittedWorkload w, Instant now) {
    WorkloadCheckStates wc = checkStates.get(w.key());
    for (AdmissionCheckState st : wc.states) {
      if (st.state() != CheckState.PENDING) {
        continue;
      }
      AdmissionCheck check = registry.admissionCheck(st.name());
      AdmissionCheckController controller = check == null ? null : checkControllers.get(check.controllerName());
      if (controller == null) {
        continue; // set from outside, with setCheckState
      }
      AdmissionCheckState next;
      try {
        CheckVerdict v = controller.evaluate(check, w.workload, w.admission, st);
        Integer requeue = v.requeueAfter() == null ? null : (int) v.requeueAfter().getSeconds();
        next = new AdmissionCheckState(st.name(), v.state(), now, v.message(), requeue, st.retryCount(),
            v.podSetUpdates());
        validateState(w.workload, next, st);
      } catch (RuntimeException e) {
        LOG.debug("admission check {} of {}: controller {} failed: {}", st.name(), w.key(),
            check.controllerName(), e.toString());
        next = st.withMessage("admission check controller " + check.controllerName() + " failed: "
            + e.getMessage());
      }
      wc.states = AdmissionChecks.set(wc.states, next, now);
    }
  }

  /**
   * Checks that every update names a check of {@code key} and follows Kueue's webhook rules; returns the workload's
   * checks, or {@code null} if it has none (and so {@code updates} is empty).
   *
   * @throws IllegalArgumentException if an update names no check of the workload
   * @throws io.fleetkit.api.ValidationException if an update breaks a webhook rule
   */
  @Nullable WorkloadCheckStates validate(String key, Workload wl, List<AdmissionCheckState> updates) {
    WorkloadCheckStates wc = checkStates.get(key);
    for (AdmissionCheckState state : updates) {
      AdmissionCheckState old = wc == null ? null : AdmissionChecks.find(wc.states, state.name());
      if (old == null) {
        throw new IllegalArgumentException("Workload " + key + ": status.admissionChecks[name=" + state.name()
            + "]: the workload has no such admission check (its checks: "
            + (wc == null ? "none" : names(wc.states)) + ")");
      }
      validateState(wl, state, old);
    }
    return wc;
  }

  private static String names(List<AdmissionCheckState> states) {
    List<String> out = new ArrayList<>();
    for (AdmissionCheckState s : states) {
      out.add(s.name());
    }
    return String.join(", ", out);
  }

  /**
   * Kueue's webhook rules for a check state: every pod set update names a pod set of the workload, its labels and
   * node selector are valid labels and its annotation keys qualified names; a Ready check's updates do not change
   * while it stays Ready.
   */
  private static void validateState(Workload wl, AdmissionCheckState st, @Nullable AdmissionCheckState old) {
    io.fleetkit.api.Violations v = new io.fleetkit.api.Violations(Workload.KIND, wl.namespace(), wl.name());
    List<String> podSets = new ArrayList<>();
    for (PodSet ps : wl.podSets()) {
      podSets.add(ps.name());
    }
    String base = "status.admissionChecks[name=" + st.name() + "].podSetUpdates";
    for (int i = 0; i < st.podSetUpdates().size(); i++) {
      PodSetUpdate u = st.podSetUpdates().get(i);
      String p = base + "[" + i + "]";
      if (!podSets.contains(u.name())) {
        v.add(p + ".name", "supported values: \"" + String.join("\", \"", new java.util.TreeSet<>(podSets)) + "\"",
            u.name());
      }
      v.labels(p + ".labels", u.labels());
      v.labels(p + ".nodeSelector", u.nodeSelector());
      for (String k : new java.util.TreeSet<>(u.annotations().keySet())) {
        v.qualifiedName(p + ".annotations", k);
      }
    }
    if (old != null && old.state() == CheckState.READY && st.state() == CheckState.READY
        && !old.podSetUpdates().equals(st.podSetUpdates())) {
      v.add(base, "field is immutable", st.podSetUpdates().size() + " update(s)");
    }
    v.throwIfAny();
  }
}
