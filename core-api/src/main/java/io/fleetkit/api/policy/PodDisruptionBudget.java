package io.fleetkit.api.policy;

import io.fleetkit.api.Violations;
import io.fleetkit.api.Violations.NameRule;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A PodDisruptionBudget ({@code policy/v1}): limits how many of a set of pods voluntary disruptions (evictions,
 * drains, preemption) may take down at once.
 *
 * <p>The constructor checks the rules of Kubernetes' {@code policy/validation} and reports every violation at once:
 * exactly one of {@code minAvailable} and {@code maxUnavailable}, neither negative nor above 100%, a valid
 * selector, non-negative status counts.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken.
 */
public record PodDisruptionBudget(ObjectMeta metadata, PodDisruptionBudgetSpec spec, PodDisruptionBudgetStatus status)
    implements ApiObject<PodDisruptionBudget> {
  public static final String API_VERSION = "policy/v1";
  public static final String KIND = "PodDisruptionBudget";

  public PodDisruptionBudget {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    validate(metadata, spec, status);
  }

  /** A new budget with an empty status. */
  public static PodDisruptionBudget of(ObjectMeta metadata, PodDisruptionBudgetSpec spec) {
    return new PodDisruptionBudget(metadata, spec, PodDisruptionBudgetStatus.EMPTY);
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public PodDisruptionBudget withMetadata(ObjectMeta m) {
    return new PodDisruptionBudget(m, spec, status);
  }

  public PodDisruptionBudget withSpec(PodDisruptionBudgetSpec s) {
    return new PodDisruptionBudget(metadata, s, status);
  }

  public PodDisruptionBudget withStatus(PodDisruptionBudgetStatus s) {
    return new PodDisruptionBudget(metadata, spec, s);
  }

  @Override
  public PodDisruptionBudget withStatusOf(PodDisruptionBudget other) {
    return withStatus(other.status);
  }

  private static void validate(ObjectMeta metadata, PodDisruptionBudgetSpec spec, PodDisruptionBudgetStatus status) {
    Violations v = Violations.forObject(KIND, metadata);
    v.nameAndNamespace(metadata, true, NameRule.DNS1123_SUBDOMAIN);
    IntOrPercent min = spec.minAvailable();
    IntOrPercent max = spec.maxUnavailable();
    if (min != null && max != null) {
      v.add("spec", "minAvailable and maxUnavailable cannot be both set",
          "minAvailable: " + min + ", maxUnavailable: " + max);
    } else if (min == null && max == null) {
      v.required("spec", "one of minAvailable or maxUnavailable must be set");
    }
    intOrPercent(v, "spec.minAvailable", min);
    intOrPercent(v, "spec.maxUnavailable", max);
    v.labelSelector("spec.selector", spec.selector());
    v.nonNegative("status.disruptionsAllowed", status.disruptionsAllowed());
    v.nonNegative("status.currentHealthy", status.currentHealthy());
    v.nonNegative("status.desiredHealthy", status.desiredHealthy());
    v.nonNegative("status.expectedPods", status.expectedPods());
    v.throwIfAny();
  }

  /**
   * Upstream's {@code ValidatePositiveIntOrPercent} and {@code IsNotMoreThan100Percent}. (Written here rather than
   * in {@link Violations} because this kind's {@link IntOrPercent} is not {@code io.fleetkit.api.meta.IntOrPercent}.)
   */
  private static void intOrPercent(Violations v, String field, @Nullable IntOrPercent value) {
    if (value == null) {
      return;
    }
    if (value.value() < 0) {
      v.add(field, Violations.NON_NEGATIVE, value);
    } else if (value.percent() && value.value() > 100) {
      v.add(field, "must not be greater than 100%", value);
    }
  }
}
