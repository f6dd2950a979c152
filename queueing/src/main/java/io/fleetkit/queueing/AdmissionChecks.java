package io.fleetkit.queueing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's admission-check rules as pure functions (its {@code pkg/workload/admissionchecks.go}, {@code
 * pkg/util/admissioncheck}, and the check parts of {@code pkg/workload/workload.go}, {@code evict.go} and the workload
 * controller). The {@link AdmissionEngine} decides with them; they are public so that check controllers and tests
 * can use the same rules. Stateless and thread-safe.
 */
public final class AdmissionChecks {
  /** Reason of {@code Admitted=True}. */
  public static final String REASON_ADMITTED = "Admitted";
  /** Reason of {@code Admitted=False} without a quota reservation (Kueue's {@code NoReservation}). */
  public static final String REASON_NO_RESERVATION = "NoReservation";
  /** Reason of {@code Admitted=False} with quota but not every check ready (Kueue's {@code UnsatisfiedChecks}). */
  public static final String REASON_UNSATISFIED_CHECKS = "UnsatisfiedAdmissionChecks";
  /** Kueue's {@code Admitted=False} reason while a pod set waits for its delayed topology assignment. */
  public static final String REASON_PENDING_DELAYED_TOPOLOGY = "PendingDelayedTopologyRequests";
  /** The eviction reason after a {@link CheckState#RETRY} check (Kueue's {@code WorkloadEvictedByAdmissionCheck}). */
  public static final String EVICTED_BY_ADMISSION_CHECK = "AdmissionCheck";
  /**
   * The start of the message of a workload deactivated by a Rejected check (Kueue's workload controller: {@code The
   * workload is deactivated due to} and the checks' message).
   */
  public static final String DEACTIVATED_PREFIX = "The workload is deactivated due to ";
  /** The scheduler's message for a pending workload with a Retry or Rejected check. */
  public static final String FAILED_CHECKS = "The workload has failed admission checks";

  private AdmissionChecks() {}

  /**
   * Kueue's {@code NewAdmissionChecks}: every check of {@code cq} with the flavors it applies to, in name order; a
   * check of {@code spec.admissionChecks}, or a strategy rule without flavors, applies to every flavor of the queue.
   */
  public static Map<String, Set<String>> checksByFlavor(ClusterQueue cq) {
    Map<String, Set<String>> out = new TreeMap<>();
    Set<String> all = Set.copyOf(cq.flavorNames());
    for (String name : cq.admissionChecks()) {
      out.put(name, all);
    }
    for (AdmissionCheckStrategyRule r : cq.admissionChecksStrategy()) {
      out.put(r.name(), r.onFlavors().isEmpty() ? all : Set.copyOf(r.onFlavors()));
    }
    return out;
  }

  /**
   * Kueue's {@code admissionChecksForAdmission}: the checks that apply to a workload whose reservation uses {@code
   * flavors}, those with at least one of them.
   */
  public static Set<String> checksForFlavors(Map<String, Set<String>> checks, Set<String> flavors) {
    Set<String> out = new TreeSet<>();
    for (Map.Entry<String, Set<String>> e : checks.entrySet()) {
      for (String f : e.getValue()) {
        if (flavors.contains(f)) {
          out.add(e.getKey());
          break;
        }
      }
    }
    return out;
  }

  /**
   * Kueue's {@code AdmissionChecksForWorkload}: with a reservation, the checks of any of its flavors; without one,
   * only the checks that apply to every flavor of the queue.
   */
  public static Set<String> checksForWorkload(ClusterQueue cq, @Nullable QuotaReservation reservation) {
    return checksForWorkload(checksByFlavor(cq), Set.copyOf(cq.flavorNames()), reservation);
  }

  /**
   * As {@link #checksForWorkload(ClusterQueue, QuotaReservation)}, for the checks {@code checks} of a queue with the
   * flavors {@code queueFlavors}.
   */
  public static Set<String> checksForWorkload(Map<String, Set<String>> checks, Set<String> queueFlavors,
      @Nullable QuotaReservation reservation) {
    if (reservation != null) {
      return checksForFlavors(checks, flavorsOf(reservation));
    }
    Set<String> out = new TreeSet<>();
    for (Map.Entry<String, Set<String>> e : checks.entrySet()) {
      if (e.getValue().containsAll(queueFlavors)) {
        out.add(e.getKey());
      }
    }
    return out;
  }

  /** The flavors a reservation uses, in any pod set and resource. */
  public static Set<String> flavorsOf(QuotaReservation reservation) {
    Set<String> out = new TreeSet<>();
    for (PodSetAssignment p : reservation.podSets()) {
      out.addAll(p.flavors().values());
    }
    return out;
  }

  /**
   * Kueue's {@code syncAdmissionCheckConditions}: the states for exactly {@code required}, kept where present, added
   * as pending (since {@code now}) where missing, sorted by name; {@code null} if nothing changes. With no required
   * checks the result is empty (and a change only if there were states).
   */
  public static @Nullable List<AdmissionCheckState> syncStates(List<AdmissionCheckState> states,
      Set<String> required, Instant now) {
    boolean changed = false;
    List<AdmissionCheckState> out = new ArrayList<>();
    for (AdmissionCheckState s : states) {
      if (required.contains(s.name())) {
        out.add(s);
      } else {
        changed = true;
      }
    }
    for (String name : required) {
      if (find(out, name) == null) {
        out.add(AdmissionCheckState.pending(name, now));
        changed = true;
      }
    }
    out.sort(Comparator.comparing(AdmissionCheckState::name));
    return changed ? List.copyOf(out) : null;
  }

  /** Kueue's {@code FindAdmissionCheck}: the state of check {@code name}, or {@code null}. */
  public static @Nullable AdmissionCheckState find(List<AdmissionCheckState> states, String name) {
    for (AdmissionCheckState s : states) {
      if (s.name().equals(name)) {
        return s;
      }
    }
    return null;
  }

  /**
   * Kueue's {@code SetAdmissionCheckState}: {@code states} with {@code update} added or replacing the state of its
   * name; the transition time moves to {@code update}'s (or, if that is the epoch, {@code now}) only when the state
   * changes, and the retry count is kept (the engine counts retries).
   */
  public static List<AdmissionCheckState> set(List<AdmissionCheckState> states, AdmissionCheckState update,
      Instant now) {
    List<AdmissionCheckState> out = new ArrayList<>(states);
    Instant at = update.lastTransitionTime().equals(Instant.EPOCH) ? now : update.lastTransitionTime();
    for (int i = 0; i < out.size(); i++) {
      AdmissionCheckState old = out.get(i);
      if (old.name().equals(update.name())) {
        Instant t = old.state() == update.state() ? old.lastTransitionTime() : at;
        out.set(i, new AdmissionCheckState(old.name(), update.state(), t, update.message(),
            update.requeueAfterSeconds(), old.retryCount(), update.podSetUpdates()));
        return List.copyOf(out);
      }
    }
    out.add(update.withLastTransitionTime(at));
    return List.copyOf(out);
  }

  /** Kueue's {@code HasAllChecksReady}: every state is {@link CheckState#READY} (true for none). */
  public static boolean allReady(List<AdmissionCheckState> states) {
    for (AdmissionCheckState s : states) {
      if (s.state() != CheckState.READY) {
        return false;
      }
    }
    return true;
  }

  /** Kueue's {@code RetryChecks} / {@code RejectedChecks}: the states in {@code state}, in their order. */
  public static List<AdmissionCheckState> inState(List<AdmissionCheckState> states, CheckState state) {
    List<AdmissionCheckState> out = new ArrayList<>();
    for (AdmissionCheckState s : states) {
      if (s.state() == state) {
        out.add(s);
      }
    }
    return out;
  }

  /** Whether any state is {@link CheckState#RETRY} or {@link CheckState#REJECTED} (Kueue's scheduler skips these). */
  public static boolean anyFailed(List<AdmissionCheckState> states) {
    for (AdmissionCheckState s : states) {
      if (s.state() == CheckState.RETRY || s.state() == CheckState.REJECTED) {
        return true;
      }
    }
    return false;
  }

  /**
   * Kueue's {@code GetMaxRetryTime}: the latest {@code lastTransitionTime + requeueAfterSeconds} of the {@link
   * CheckState#RETRY} states that set a delay (states changed at the epoch, Kueue's zero time, are skipped), or
   * {@code null} for none.
   */
  public static @Nullable Instant maxRetryTime(List<AdmissionCheckState> states) {
    Instant max = null;
    for (AdmissionCheckState s : states) {
      if (s.requeueAfterSeconds() == null || s.lastTransitionTime().equals(Instant.EPOCH)
          || s.state() != CheckState.RETRY) {
        continue;
      }
      Instant t = s.lastTransitionTime().plus(Duration.ofSeconds(s.requeueAfterSeconds()));
      if (max == null || t.isAfter(max)) {
        max = t;
      }
    }
    return max;
  }

  /**
   * Kueue's {@code resetChecksOnEviction}: every state not pending becomes pending since {@code now}, with message
   * {@code Reset to Pending after eviction. Previously: Retry}; a Retry one counts one more retry; the requeue delay is
   * kept, the pod set updates dropped.
   */
  public static List<AdmissionCheckState> resetOnEviction(List<AdmissionCheckState> states, Instant now) {
    List<AdmissionCheckState> out = new ArrayList<>(states.size());
    for (AdmissionCheckState s : states) {
      if (s.state() == CheckState.PENDING) {
        out.add(s);
        continue;
      }
      Integer retries = s.state() == CheckState.RETRY ? (s.retryCount() == null ? 0 : s.retryCount()) + 1 : null;
      out.add(new AdmissionCheckState(s.name(), CheckState.PENDING, now,
          "Reset to Pending after eviction. Previously: " + s.state().apiName(), s.requeueAfterSeconds(), retries,
          List.of()));
    }
    return List.copyOf(out);
  }

  /**
   * Kueue's {@code buildAdmissionChecksMessage}: {@code AdmissionCheck in Retry state: "a"} or {@code AdmissionChecks
   * in Retry state: "a" (message); "b"}, checks in name order.
   */
  public static String message(List<AdmissionCheckState> checks, CheckState state) {
    List<AdmissionCheckState> sorted = new ArrayList<>(checks);
    sorted.sort(Comparator.comparing(AdmissionCheckState::name));
    List<String> parts = new ArrayList<>();
    for (AdmissionCheckState c : sorted) {
      parts.add(c.message().isEmpty() ? "\"" + c.name() + "\"" : "\"" + c.name() + "\" (" + c.message() + ")");
    }
    return (sorted.size() > 1 ? "AdmissionChecks" : "AdmissionCheck") + " in " + state.apiName() + " state: "
        + String.join("; ", parts);
  }

  /**
   * Kueue's {@code FilterForController}: the names of the states whose check (looked up in {@code checks}) is
   * evaluated by {@code controllerName}, in the states' order; states of unknown checks are skipped.
   */
  public static List<String> forController(List<AdmissionCheckState> states, Map<String, AdmissionCheck> checks,
      String controllerName) {
    List<String> out = new ArrayList<>();
    for (AdmissionCheckState s : states) {
      AdmissionCheck c = checks.get(s.name());
      if (c != null && c.controllerName().equals(controllerName)) {
        out.add(s.name());
      }
    }
    return out;
  }

  /**
   * Kueue's {@code IndexerByConfigFunction}: the name of the configuration {@code check} uses, if {@code
   * controllerName} evaluates it and its parameters reference an object of {@code apiGroup}/{@code kind}; else
   * {@code null}.
   */
  public static @Nullable String configName(@Nullable AdmissionCheck check, String controllerName, String apiGroup,
      String kind) {
    if (check == null || !check.controllerName().equals(controllerName) || check.parameters() == null
        || check.parameters().checkFor(apiGroup, kind) != null) {
      return null;
    }
    return check.parameters().name();
  }

  /**
   * Kueue's {@code ConfigHelper.ConfigForAdmissionCheck}: the configuration object of {@code apiGroup}/{@code kind}
   * that check {@code checkName} refers to, looked up with {@code configs} by name.
   *
   * @throws IllegalArgumentException naming the check: when {@code checks} has no check of that name, its parameters
   *     reference is missing ({@value AdmissionCheck#MISSING_PARAMETERS}) or bad ({@link
   *     AdmissionCheck.Parameters#checkFor}, ending in {@value AdmissionCheck#BAD_PARAMETERS}), or {@code configs}
   *     has no object of the referenced name
   */
  public static <T> T configFor(Map<String, AdmissionCheck> checks, String checkName, String apiGroup, String kind,
      java.util.function.Function<String, @Nullable T> configs) {
    AdmissionCheck check = checks.get(checkName);
    String prefix = "AdmissionCheck " + checkName + ": spec.parameters: ";
    if (check == null) {
      throw new IllegalArgumentException("AdmissionCheck " + checkName + ": not found");
    }
    if (check.parameters() == null) {
      throw new IllegalArgumentException(prefix + AdmissionCheck.MISSING_PARAMETERS);
    }
    String bad = check.parameters().checkFor(apiGroup, kind);
    if (bad != null) {
      throw new IllegalArgumentException(prefix + bad);
    }
    T config = configs.apply(check.parameters().name());
    if (config == null) {
      throw new IllegalArgumentException(prefix + kind + " \"" + check.parameters().name() + "\" not found");
    }
    return config;
  }

  /** The outcome of {@link #syncAdmitted}. */
  public record AdmittedSync(@Nullable AdmittedCondition condition, boolean changed,
      @Nullable Integer accumulatedPastExecutionTimeSeconds) {}

  /**
   * Kueue's {@code SyncAdmittedCondition} (with its default gates: unadmitted-workload observability on, explicit
   * status off): the {@code Admitted} condition for a workload whose {@code QuotaReserved} condition is {@code
   * quotaReserved} ({@code null}: absent) and whose checks are {@code states}. Without either condition nothing is
   * set. When an admitted workload stops being admitted, the seconds it was admitted are added to {@code
   * pastSeconds}.
   */
  public static AdmittedSync syncAdmitted(@Nullable Boolean quotaReserved, List<AdmissionCheckState> states,
      @Nullable AdmittedCondition admitted, @Nullable Integer pastSeconds, Instant now) {
    return syncAdmitted(quotaReserved, states, false, admitted, pastSeconds, now);
  }

  /**
   * As {@link #syncAdmitted(Boolean, List, AdmittedCondition, Integer, Instant)}, for a reservation where {@code
   * topologyPending} tells whether a pod set waits for its delayed topology assignment ({@link
   * QuotaReservation#topologyPending()}): with every check Ready such a workload is not admitted, reason {@value
   * #REASON_PENDING_DELAYED_TOPOLOGY}.
   */
  public static AdmittedSync syncAdmitted(@Nullable Boolean quotaReserved, List<AdmissionCheckState> states,
      boolean topologyPending, @Nullable AdmittedCondition admitted, @Nullable Integer pastSeconds, Instant now) {
    Objects.requireNonNull(states, "states");
    if (quotaReserved == null && admitted == null) {
      return new AdmittedSync(null, false, pastSeconds);
    }
    boolean reserved = Boolean.TRUE.equals(quotaReserved);
    boolean ready = allReady(states);
    boolean status = reserved && ready && !topologyPending;
    String reason;
    String message;
    if (!reserved) {
      reason = REASON_NO_RESERVATION;
      message = "The workload has no reservation";
    } else if (!ready) {
      reason = REASON_UNSATISFIED_CHECKS;
      message = "The workload has not all checks ready";
    } else if (topologyPending) {
      reason = REASON_PENDING_DELAYED_TOPOLOGY;
      message = "There are pending delayed topology requests";
    } else {
      reason = REASON_ADMITTED;
      message = "The workload is admitted";
    }
    boolean isAdmitted = admitted != null && admitted.status();
    Integer past = pastSeconds;
    if (isAdmitted && !status) {
      int d = (int) Duration.between(admitted.lastTransitionTime(), now).getSeconds();
      past = past == null ? d : past + d;
    }
    Instant transition = admitted != null && admitted.status() == status ? admitted.lastTransitionTime() : now;
    AdmittedCondition next = new AdmittedCondition(status, reason, message, transition);
    boolean changed = admitted == null || admitted.status() != status || !admitted.reason().equals(reason)
        || !admitted.message().equals(message);
    return new AdmittedSync(next, changed, past);
  }

  /** Every check name of {@code states}, in order. */
  static Set<String> names(List<AdmissionCheckState> states) {
    Set<String> out = new LinkedHashSet<>();
    for (AdmissionCheckState s : states) {
      out.add(s.name());
    }
    return out;
  }
}
