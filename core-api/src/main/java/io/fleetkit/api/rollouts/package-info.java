/**
 * Progressive delivery kinds in the shape of Argo Rollouts' {@code argoproj.io/v1alpha1}:
 * {@link io.fleetkit.api.rollouts.Rollout} (a pod template rolled out by a canary with steps or by blue-green),
 * {@link io.fleetkit.api.rollouts.AnalysisTemplate} (metrics that judge a version) and
 * {@link io.fleetkit.api.rollouts.AnalysisRun} (one judgement in progress, with its measurements). Records are
 * immutable and validated on construction; thread-safe.
 */
@NullMarked
package io.fleetkit.api.rollouts;

import org.jspecify.annotations.NullMarked;
