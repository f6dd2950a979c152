package io.fleetkit.api.autoscaling;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How an HPA scales in one direction. Kubernetes fills unset fields from per-direction defaults
 * ({@code pkg/apis/autoscaling/v2/defaults.go}); here {@link #scaleUpBuilder()} and {@link #scaleDownBuilder()}
 * start from those defaults, and {@link #DEFAULT_SCALE_UP} / {@link #DEFAULT_SCALE_DOWN} are them:
 *
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th></th><th>stabilizationWindowSeconds</th><th>selectPolicy</th><th>policies</th></tr>
 *   <tr><td>scaleUp</td><td>0</td><td>Max</td><td>Pods 4 per 15 s; Percent 100 per 15 s</td></tr>
 *   <tr><td>scaleDown</td><td>unset: the controller's {@value #DEFAULT_SCALE_DOWN_STABILIZATION_SECONDS} s</td>
 *     <td>Max</td><td>Percent 100 per 15 s</td></tr>
 * </table>
 *
 * <p>Rules (window in 0..3600, at least one policy) are checked by {@link HorizontalPodAutoscaler}.
 *
 * @param stabilizationWindowSeconds how far back recommendations are considered; {@code null} leaves it to the
 *     controller (Kubernetes' {@code --horizontal-pod-autoscaler-downscale-stabilization}, 300 s), as upstream
 *     does for scale-down so that the flag keeps working
 */
public record HPAScalingRules(@Nullable Integer stabilizationWindowSeconds, ScalingPolicySelect selectPolicy,
    List<HPAScalingPolicy> policies) {
  /** The controller's default scale-down stabilization window, used when the window is unset. */
  public static final int DEFAULT_SCALE_DOWN_STABILIZATION_SECONDS = 300;

  /** Scale-up defaults: no stabilization; the larger of +4 pods and +100% per 15 s. */
  public static final HPAScalingRules DEFAULT_SCALE_UP = new HPAScalingRules(0, ScalingPolicySelect.Max,
      List.of(HPAScalingPolicy.pods(4, 15), HPAScalingPolicy.percent(100, 15)));

  /** Scale-down defaults: the controller's window; down to 0% (any amount) per 15 s. */
  public static final HPAScalingRules DEFAULT_SCALE_DOWN = new HPAScalingRules(null, ScalingPolicySelect.Max,
      List.of(HPAScalingPolicy.percent(100, 15)));

  public HPAScalingRules {
    Objects.requireNonNull(selectPolicy, "selectPolicy");
    policies = List.copyOf(policies);
  }

  /** The stabilization window, or {@code controllerDefault} when unset. */
  public int stabilizationWindowSecondsOr(int controllerDefault) {
    Integer w = stabilizationWindowSeconds;
    return w != null ? w : controllerDefault;
  }

  /** The longest policy period, how long a scale event counts against the limits; 0 without policies. */
  public int longestPolicyPeriodSeconds() {
    return policies.stream().mapToInt(HPAScalingPolicy::periodSeconds).max().orElse(0);
  }

  /** A builder starting from the scale-up defaults. */
  public static Builder scaleUpBuilder() {
    return new Builder(DEFAULT_SCALE_UP);
  }

  /** A builder starting from the scale-down defaults. */
  public static Builder scaleDownBuilder() {
    return new Builder(DEFAULT_SCALE_DOWN);
  }

  /**
   * Mutable builder: fields not set keep the defaults it started from; policies added replace the default
   * policies as a whole, as in Kubernetes. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable Integer stabilizationWindowSeconds;
    private ScalingPolicySelect selectPolicy;
    private final List<HPAScalingPolicy> defaultPolicies;
    private @Nullable List<HPAScalingPolicy> policies;

    private Builder(HPAScalingRules defaults) {
      stabilizationWindowSeconds = defaults.stabilizationWindowSeconds;
      selectPolicy = defaults.selectPolicy;
      defaultPolicies = defaults.policies;
    }

    public Builder stabilizationWindowSeconds(@Nullable Integer v) { stabilizationWindowSeconds = v; return this; }
    public Builder selectPolicy(ScalingPolicySelect v) { selectPolicy = v; return this; }

    /** Replaces the policies (an empty list is kept as written, and rejected by validation). */
    public Builder policies(List<HPAScalingPolicy> v) {
      policies = new ArrayList<>(v);
      return this;
    }

    /** Adds a policy; the first one added replaces the default policies. */
    public Builder policy(HPAScalingPolicy v) {
      List<HPAScalingPolicy> p = policies;
      if (p == null) {
        p = new ArrayList<>();
        policies = p;
      }
      p.add(v);
      return this;
    }

    public HPAScalingRules build() {
      List<HPAScalingPolicy> p = policies;
      return new HPAScalingRules(stabilizationWindowSeconds, selectPolicy, p != null ? p : defaultPolicies);
    }
  }
}
