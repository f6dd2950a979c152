package io.fleetkit.api.batch;

import io.fleetkit.api.meta.ConditionStatus;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A pod condition a failed pod must have (batch/v1 {@code PodFailurePolicyOnPodConditionsPattern}), e.g.
 * {@code DisruptionTarget=True}.
 *
 * @param type the condition type (a qualified name; the Job's validation checks it)
 * @param status {@code null} only in a pattern that the Job's validation refuses ({@code Required value}); the
 *     manifest default {@code True} is applied by readers and {@link #of(String)}
 */
public record PodFailurePolicyOnPodConditionsPattern(String type, @Nullable ConditionStatus status) {
  public PodFailurePolicyOnPodConditionsPattern {
    Objects.requireNonNull(type, "type");
  }

  /** The pattern {@code type=True}, Kubernetes' default status. */
  public static PodFailurePolicyOnPodConditionsPattern of(String type) {
    return new PodFailurePolicyOnPodConditionsPattern(type, ConditionStatus.True);
  }
}
