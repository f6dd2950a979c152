package io.fleetkit.api.rollouts;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The observed part of a {@link Rollout} (the fields of Argo Rollouts' {@code RolloutStatus} that FleetKit keeps).
 * The {@code abort} and {@code promoteFull} flags, and clearing {@code pauseConditions}, are how users act on a
 * rollout (abort, retry, promote).
 *
 * @param currentPodHash the pod template hash of the desired version
 * @param stableRs the pod template hash of the stable version; empty before the first version is stable
 * @param currentStepIndex canary: the step being worked on; {@code null} for blue-green
 * @param controllerPause the controller paused the rollout (as opposed to {@code spec.paused})
 * @param canaryWeight the share of traffic the canary (or, for blue-green, the new version behind the active
 *     Service) receives, in percent
 * @param activeSelector blue-green: the hash the active Service selects
 * @param previewSelector blue-green: the hash the preview Service selects
 * @param scaleUpPreviewCheckPoint blue-green: the preview was scaled to full size after the pause
 * @param analysisRun the running step or pre-promotion analysis run; empty for none
 * @param backgroundAnalysisRun the running background (or post-promotion) analysis run; empty for none
 * @param lastProgressTime when the update last made progress (for {@code progressDeadlineSeconds})
 * @param canaryWeightHash canary with traffic routing: the pod template hash the canary weight was last applied to
 *     (Argo's {@code status.canary.weights.canary.podTemplateHash}); empty when none
 */
public record RolloutStatus(RolloutPhase phase, String message, long observedGeneration, String currentPodHash,
    String stableRs, @Nullable Integer currentStepIndex, List<PauseCondition> pauseConditions,
    boolean controllerPause, boolean abort, @Nullable Instant abortedAt, boolean promoteFull, int replicas,
    int updatedReplicas, int readyReplicas, int availableReplicas, int canaryWeight, String activeSelector,
    String previewSelector, boolean scaleUpPreviewCheckPoint, String analysisRun, String backgroundAnalysisRun,
    @Nullable Instant lastProgressTime, String canaryWeightHash) {
  public static final RolloutStatus EMPTY = builder().build();

  public RolloutStatus {
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(currentPodHash, "currentPodHash");
    Objects.requireNonNull(stableRs, "stableRs");
    pauseConditions = List.copyOf(pauseConditions);
    Objects.requireNonNull(activeSelector, "activeSelector");
    Objects.requireNonNull(previewSelector, "previewSelector");
    Objects.requireNonNull(analysisRun, "analysisRun");
    Objects.requireNonNull(backgroundAnalysisRun, "backgroundAnalysisRun");
    Objects.requireNonNull(canaryWeightHash, "canaryWeightHash");
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.phase = phase;
    b.message = message;
    b.observedGeneration = observedGeneration;
    b.currentPodHash = currentPodHash;
    b.stableRs = stableRs;
    b.currentStepIndex = currentStepIndex;
    b.pauseConditions = new ArrayList<>(pauseConditions);
    b.controllerPause = controllerPause;
    b.abort = abort;
    b.abortedAt = abortedAt;
    b.promoteFull = promoteFull;
    b.replicas = replicas;
    b.updatedReplicas = updatedReplicas;
    b.readyReplicas = readyReplicas;
    b.availableReplicas = availableReplicas;
    b.canaryWeight = canaryWeight;
    b.activeSelector = activeSelector;
    b.previewSelector = previewSelector;
    b.scaleUpPreviewCheckPoint = scaleUpPreviewCheckPoint;
    b.analysisRun = analysisRun;
    b.backgroundAnalysisRun = backgroundAnalysisRun;
    b.lastProgressTime = lastProgressTime;
    b.canaryWeightHash = canaryWeightHash;
    return b;
  }

  /** Whether the rollout is paused by the controller or a pause condition. */
  public boolean pausedByCondition() {
    return !pauseConditions.isEmpty();
  }

  /** The pause condition with {@code reason}, or {@code null}. */
  public @Nullable PauseCondition pauseCondition(String reason) {
    for (PauseCondition c : pauseConditions) {
      if (c.reason().equals(reason)) {
        return c;
      }
    }
    return null;
  }

  /** Builder; not thread-safe. */
  public static final class Builder {
    private RolloutPhase phase = RolloutPhase.Progressing;
    private String message = "";
    private long observedGeneration;
    private String currentPodHash = "";
    private String stableRs = "";
    private @Nullable Integer currentStepIndex;
    private List<PauseCondition> pauseConditions = new ArrayList<>();
    private boolean controllerPause;
    private boolean abort;
    private @Nullable Instant abortedAt;
    private boolean promoteFull;
    private int replicas;
    private int updatedReplicas;
    private int readyReplicas;
    private int availableReplicas;
    private int canaryWeight;
    private String activeSelector = "";
    private String previewSelector = "";
    private boolean scaleUpPreviewCheckPoint;
    private String analysisRun = "";
    private String backgroundAnalysisRun = "";
    private @Nullable Instant lastProgressTime;
    private String canaryWeightHash = "";

    private Builder() {}

    public Builder phase(RolloutPhase v) { phase = v; return this; }
    public Builder message(String v) { message = v; return this; }
    public Builder observedGeneration(long v) { observedGeneration = v; return this; }
    public Builder currentPodHash(String v) { currentPodHash = v; return this; }
    public Builder stableRs(String v) { stableRs = v; return this; }
    public Builder currentStepIndex(@Nullable Integer v) { currentStepIndex = v; return this; }
    public Builder pauseConditions(List<PauseCondition> v) { pauseConditions = new ArrayList<>(v); return this; }
    public Builder addPauseCondition(PauseCondition v) { pauseConditions.add(v); return this; }
    public Builder controllerPause(boolean v) { controllerPause = v; return this; }
    public Builder abort(boolean v) { abort = v; return this; }
    public Builder abortedAt(@Nullable Instant v) { abortedAt = v; return this; }
    public Builder promoteFull(boolean v) { promoteFull = v; return this; }
    public Builder replicas(int v) { replicas = v; return this; }
    public Builder updatedReplicas(int v) { updatedReplicas = v; return this; }
    public Builder readyReplicas(int v) { readyReplicas = v; return this; }
    public Builder availableReplicas(int v) { availableReplicas = v; return this; }
    public Builder canaryWeight(int v) { canaryWeight = v; return this; }
    public Builder activeSelector(String v) { activeSelector = v; return this; }
    public Builder previewSelector(String v) { previewSelector = v; return this; }
    public Builder scaleUpPreviewCheckPoint(boolean v) { scaleUpPreviewCheckPoint = v; return this; }
    public Builder analysisRun(String v) { analysisRun = v; return this; }
    public Builder backgroundAnalysisRun(String v) { backgroundAnalysisRun = v; return this; }
    public Builder lastProgressTime(@Nullable Instant v) { lastProgressTime = v; return this; }
    public Builder canaryWeightHash(String v) { canaryWeightHash = v; return this; }

    public RolloutStatus build() {
      return new RolloutStatus(phase, message, observedGeneration, currentPodHash, stableRs, currentStepIndex,
          pauseConditions, controllerPause, abort, abortedAt, promoteFull, replicas, updatedReplicas, readyReplicas,
          availableReplicas, canaryWeight, activeSelector, previewSelector, scaleUpPreviewCheckPoint, analysisRun,
          backgroundAnalysisRun, lastProgressTime, canaryWeightHash);
    }
  }
}
