package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.events.Event;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutPhase;
import io.fleetkit.api.rollouts.RolloutStatus;
import io.fleetkit.api.time.GoDurations;
import org.jspecify.annotations.Nullable;

/**
 * The events the Rollout controller records on the Rollout, with Argo Rollouts' reasons and notes
 * ({@code utils/conditions/conditions.go}; recorded where {@code rollout/sync.go} and {@code rollout/canary.go} call
 * {@code recorder.Eventf} and {@code Warnf}). Each is recorded on a transition, never again for the same one: a
 * ReplicaSet created or scaled and a Service switched when the write is made, the others when the status that makes
 * the change is written (Argo's {@code sendStateChangeEvents} after {@code persistRolloutStatus}), so a reconcile that
 * changes nothing records nothing.
 */
final class RolloutEvents {
  /** {@code RolloutUpdatedReason}: the rollout has a new current template (Normal). */
  static final String ROLLOUT_UPDATED = "RolloutUpdated";
  /** {@code NewReplicaSetReason}: the ReplicaSet of a new template was created (Normal). */
  static final String NEW_REPLICA_SET = "NewReplicaSetCreated";
  /** {@code ScalingReplicaSetReason}: a ReplicaSet's replicas were changed (Normal). */
  static final String SCALING_REPLICA_SET = "ScalingReplicaSet";
  /** {@code RolloutStepCompletedReason}: a canary step completed (Normal). */
  static final String STEP_COMPLETED = "RolloutStepCompleted";
  /** {@code RolloutPausedReason}: a pause condition was added (Normal). */
  static final String PAUSED = "RolloutPaused";
  /** {@code RolloutResumedReason}: the pause conditions were cleared by the controller, not by an abort (Normal). */
  static final String RESUMED = "RolloutResumed";
  /** {@code RolloutAbortedReason}: the update was aborted (Warning). */
  static final String ABORTED = "RolloutAborted";
  /** {@code RolloutCompletedReason}: the current template became stable (Normal). */
  static final String COMPLETED = "RolloutCompleted";
  /** {@code switchServiceSelector}: a Service was pointed at another version (Normal). */
  static final String SWITCH_SERVICE = "SwitchService";
  /** {@code syncRolloutStatusCanary}: the template went back to the stable one, the steps are skipped (Normal). */
  static final String SKIP_STEPS = "SkipSteps";

  /** The note of {@link #PAUSED} or {@link #RESUMED}; {@code reason} is the first pause condition's. */
  static String pauseNote(String change, String reason) {
    return change.equals(PAUSED) ? "Rollout is paused (" + reason + ")" : "Rollout is resumed";
  }

  /** One event of a sync, held until the sync's status write. */
  record Pending(boolean onStatusWrite, String type, String reason, String action, String note) { }

  private RolloutEvents() {}

  /** {@code RolloutUpdatedMessage}. */
  static String rolloutUpdated(int revision) {
    return "Rollout updated to revision " + revision;
  }

  /** {@code NewReplicaSetDetailedMessage}. */
  static String newReplicaSet(String name, int revision) {
    return "Created ReplicaSet " + name + " (revision " + revision + ")";
  }

  /** {@code ScalingReplicaSetMessage}, {@code up} when {@code to} is more than {@code from}. */
  static String scaled(String name, int revision, int from, int to) {
    return "Scaled " + (to > from ? "up" : "down") + " ReplicaSet " + name + " (revision " + revision + ") from "
        + from + " to " + to;
  }

  /** {@code switchServiceSelector}'s note. */
  static String switchedService(String service, String from, String to) {
    return "Switched selector for service '" + service + "' from '" + from + "' to '" + to + "'";
  }

  /** {@code RolloutStepCompletedMessage}: {@code completed} is the 1-based number of the step just done. */
  static String stepCompleted(int completed, int steps, CanaryStep step) {
    return "Rollout step " + completed + "/" + steps + " completed (" + stepString(step) + ")";
  }

  /** Argo's {@code CanaryStepString} ({@code utils/rollout/rolloututil.go}). */
  static String stepString(CanaryStep step) {
    if (step instanceof CanaryStep.SetWeight w) {
      return "setWeight: " + w.weight();
    } else if (step instanceof CanaryStep.Pause p) {
      return p.duration() == null ? "pause" : "pause: " + GoDurations.format(p.duration());
    } else if (step instanceof CanaryStep.Analysis) {
      return "analysis";
    } else if (step instanceof CanaryStep.SetCanaryScale c) {
      if (c.weight() != null) {
        return "setCanaryScale{weight: " + c.weight() + "}";
      } else if (c.matchTrafficWeight()) {
        return "setCanaryScale{matchTrafficWeight: true}";
      } else if (c.replicas() != null) {
        return "setCanaryScale{replicas: " + c.replicas() + "}";
      }
      return "invalid";
    } else if (step instanceof CanaryStep.SetHeaderRoute h) {
      return "setHeaderRoute: " + h.name();
    } else if (step instanceof CanaryStep.SetMirrorRoute m) {
      return "setMirrorRoute: " + m.name();
    }
    return "invalid";
  }

  /**
   * The events of the status {@code next} written over {@code prev}, in Argo's order: aborted
   * ({@code calculateRolloutConditions}), then completed ({@code promoteStable}). Paused and resumed are
   * {@link RolloutSync#pauseEvents}'.
   *
   * @param revision the revision of the current ReplicaSet
   * @param abortReason why this sync aborted, or {@code null} (a user's abort carries no reason, as in Argo)
   */
  static void statusChanged(RolloutSync s, Rollout r, RolloutStatus prev, RolloutStatus next, int revision,
      @Nullable String abortReason) {
    // the Progressing condition set to RolloutAborted: an abort the controller has not yet made Degraded
    if (next.abort() && !(prev.abort() && prev.phase() == RolloutPhase.Degraded)) {
      s.onStatusWrite(Event.WARNING, ABORTED, "Abort", "Rollout aborted update to revision " + revision
          + (abortReason == null ? "" : ": " + abortReason));
    }
    if (!next.stableRs().isEmpty() && !next.stableRs().equals(prev.stableRs())
        && next.stableRs().equals(next.currentPodHash())) {
      s.onStatusWrite(Event.NORMAL, COMPLETED, "Promote", "Rollout completed update to revision " + revision + " ("
          + next.currentPodHash() + "): " + completedReason(r, prev));
    }
  }

  /**
   * Argo's {@code sendStateChangeEvents}: {@link #PAUSED} when the first pause condition appears, {@link #RESUMED}
   * when the last goes unless the rollout is aborted (an abort clears them too); {@code null} otherwise.
   */
  static @Nullable String stateChange(RolloutStatus prev, RolloutStatus next) {
    boolean prevPaused = !prev.pauseConditions().isEmpty();
    boolean paused = !next.pauseConditions().isEmpty();
    if (prevPaused == paused) {
      return null;
    }
    if (paused) {
      return PAUSED;
    }
    return next.abort() || next.abortedAt() != null ? null : RESUMED;
  }

  /** Argo's {@code shouldFullPromote} reasons, for the promotions FleetKit makes. */
  private static String completedReason(Rollout r, RolloutStatus prev) {
    if (prev.stableRs().isEmpty()) {
      return "Initial deploy";
    }
    if (prev.promoteFull()) {
      return "Full promotion requested";
    }
    if (r.canary() != null) {
      return "Completed all " + r.canary().steps().size() + " canary steps";
    }
    return "Completed blue-green update";
  }
}
