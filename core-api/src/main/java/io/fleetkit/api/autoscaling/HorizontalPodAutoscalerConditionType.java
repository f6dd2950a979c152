package io.fleetkit.api.autoscaling;

/**
 * The conditions an HPA reports, spelled as in {@code autoscaling/v2}. Reasons as in Kubernetes: AbleToScale
 * (SucceededGetScale, FailedGetScale, FailedUpdateScale, SucceededRescale, ReadyForNewScale, ScaleUpStabilized,
 * ScaleDownStabilized), ScalingActive (ValidMetricFound, ScalingDisabled, InvalidSelector, AmbiguousSelector,
 * FailedGet*Metric, InvalidMetricSourceType), ScalingLimited (DesiredWithinRange, TooManyReplicas, TooFewReplicas,
 * ScaleUpLimit, ScaleDownLimit).
 */
public enum HorizontalPodAutoscalerConditionType {
  /** Whether the HPA can fetch and update the target's scale. */
  AbleToScale,
  /** Whether the HPA can compute a replica count from its metrics. */
  ScalingActive,
  /** Whether the wanted count was capped by min/max replicas or a scaling policy. */
  ScalingLimited
}
