package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.events.Event;
import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code AnalysisRun<Phase>} events the Rollout controller records on a Rollout when one of its current analysis
 * runs changes phase (Argo Rollouts' {@code emitAnalysisRunStatusChanges} in {@code rollout/analysis.go}): Warning
 * for Failed and Error, Normal otherwise, note {@code <Type> Analysis Run '<name>' Status New: '<phase>' Previous:
 * '<phase>'}, where the type is {@value #STEP}, {@value #BACKGROUND}, {@value #PRE_PROMOTION} or
 * {@value #POST_PROMOTION}.
 *
 * <p>Argo compares the run's phase with the one its Rollout status recorded for that type
 * ({@code RolloutAnalysisRunStatus}). A FleetKit Rollout status records the runs' names only, so the phase last seen
 * for each rollout and type is kept here, in memory: an event is recorded when the run of a type is seen first
 * (Previous {@code NoPreviousStatus}) or when the same run is seen in another phase; a new run of a type whose last run
 * had another name is recorded silently, as in Argo. A run not yet started (Pending, Argo's empty phase) records
 * nothing and is remembered with the empty phase. A controller that restarts has seen nothing, and records the phase it
 * first sees of each current run with {@code NoPreviousStatus}, as Argo does for a run its status does not record.
 * Thread-safe; one per reconciler, used only when the controller records events.
 */
final class AnalysisRunEvents {
  /** Argo's {@code RolloutTypeStepLabel}. */
  static final String STEP = "Step";
  /** Argo's {@code RolloutTypeBackgroundRunLabel}. */
  static final String BACKGROUND = "Background";
  /** Argo's {@code RolloutTypePrePromotionLabel}. */
  static final String PRE_PROMOTION = "PrePromotion";
  /** Argo's {@code RolloutTypePostPromotionLabel}. */
  static final String POST_PROMOTION = "PostPromotion";
  /** The action of the events; Argo's recorder has none. */
  static final String ACTION = "Analysis";

  private record Seen(String run, String phase) {}

  /** By {@code namespace/rollout}, then type. */
  private final Map<String, Map<String, Seen>> seen = new ConcurrentHashMap<>();

  /** The reason of a run in {@code phase}: {@code AnalysisRun} and the phase. */
  static String reason(AnalysisPhase phase) {
    return "AnalysisRun" + phase.name();
  }

  /** Argo's phase string: empty for a run not yet started. */
  static String argoPhase(AnalysisPhase phase) {
    return phase == AnalysisPhase.Pending ? "" : phase.name();
  }

  /** Argo's note. */
  static String note(String type, String run, String phase, String previous) {
    return type + " Analysis Run '" + run + "' Status New: '" + phase + "' Previous: '" + previous + "'";
  }

  /**
   * {@code run} is the current run of {@code type} in sync {@code s}: records the event of its phase change, if any,
   * as an event of the sync's writes (recorded whatever becomes of the status, since the phase seen is remembered at
   * once), and remembers the phase.
   */
  void observe(RolloutSync s, String type, AnalysisRun run) {
    String phase = argoPhase(run.status().phase());
    String name = run.metadata().name();
    Seen prev = seen.computeIfAbsent(s.r.metadata().key(), k -> new ConcurrentHashMap<>())
        .put(type, new Seen(name, phase));
    if (phase.isEmpty() || (prev != null && (!prev.run().equals(name) || prev.phase().equals(phase)))) {
      return;
    }
    AnalysisPhase p = run.status().phase();
    s.now(p == AnalysisPhase.Failed || p == AnalysisPhase.Error ? Event.WARNING : Event.NORMAL, reason(p), ACTION,
        note(type, name, phase, prev == null ? "NoPreviousStatus" : prev.phase()));
  }

  /**
   * The rollout's status no longer records a run of {@code type} (Argo sets it to nil: the step run when its step
   * completes).
   */
  void forget(String rolloutKey, String type) {
    Map<String, Seen> m = seen.get(rolloutKey);
    if (m != null) {
      m.remove(type);
    }
  }

  /** The rollout has a new template (Argo's {@code resetRolloutStatus}) or is gone: nothing of it is kept. */
  void forget(String rolloutKey) {
    seen.remove(rolloutKey);
  }
}
