package io.fleetkit.api.autoscaling;

import io.fleetkit.api.Violations;
import io.fleetkit.api.Violations.NameRule;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;

/**
 * A HorizontalPodAutoscaler ({@code autoscaling/v2}): sets the replica count of its target from metrics.
 *
 * <p>The constructor checks the rules of Kubernetes' {@code autoscaling/validation} and reports every violation at
 * once: {@code minReplicas} at least 1, {@code maxReplicas} at least 1 and at least {@code minReplicas}, a target
 * reference with kind and name, each metric with exactly the source its type names, utilization targets only for
 * Resource and ContainerResource metrics, positive target values, policies with a value above zero and a period
 * in 1..1800 s, stabilization windows in 0..3600 s.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken.
 */
public record HorizontalPodAutoscaler(ObjectMeta metadata, HorizontalPodAutoscalerSpec spec,
    HorizontalPodAutoscalerStatus status) implements ApiObject<HorizontalPodAutoscaler> {
  public static final String API_VERSION = "autoscaling/v2";
  public static final String KIND = "HorizontalPodAutoscaler";

  public HorizontalPodAutoscaler {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    validate(metadata, spec, status);
  }

  /** A new HPA with an empty status. */
  public static HorizontalPodAutoscaler of(ObjectMeta metadata, HorizontalPodAutoscalerSpec spec) {
    return new HorizontalPodAutoscaler(metadata, spec, HorizontalPodAutoscalerStatus.EMPTY);
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
  public HorizontalPodAutoscaler withMetadata(ObjectMeta m) {
    return new HorizontalPodAutoscaler(m, spec, status);
  }

  public HorizontalPodAutoscaler withSpec(HorizontalPodAutoscalerSpec s) {
    return new HorizontalPodAutoscaler(metadata, s, status);
  }

  public HorizontalPodAutoscaler withStatus(HorizontalPodAutoscalerStatus s) {
    return new HorizontalPodAutoscaler(metadata, spec, s);
  }

  @Override
  public HorizontalPodAutoscaler withStatusOf(HorizontalPodAutoscaler other) {
    return withStatus(other.status);
  }

  private static void validate(ObjectMeta metadata, HorizontalPodAutoscalerSpec spec,
      HorizontalPodAutoscalerStatus status) {
    Violations v = Violations.forObject(KIND, metadata);
    v.nameAndNamespace(metadata, true, NameRule.DNS1123_SUBDOMAIN);
    if (spec.minReplicas() < 1) {
      v.add("spec.minReplicas", "must be greater than or equal to 1", spec.minReplicas());
    }
    if (spec.maxReplicas() < 1) {
      v.add("spec.maxReplicas", "must be greater than 0", spec.maxReplicas());
    }
    if (spec.maxReplicas() < spec.minReplicas()) {
      v.add("spec.maxReplicas", "must be greater than or equal to `minReplicas`", spec.maxReplicas());
    }
    AutoscalingRules.crossVersionObjectReference(v, "spec.scaleTargetRef", spec.scaleTargetRef());
    AutoscalingRules.metrics(v, "spec.metrics", spec.metrics());
    HorizontalPodAutoscalerBehavior behavior = spec.behavior();
    if (behavior != null) {
      AutoscalingRules.behavior(v, "spec.behavior", behavior);
    }
    v.nonNegative("status.currentReplicas", status.currentReplicas());
    v.nonNegative("status.desiredReplicas", status.desiredReplicas());
    v.throwIfAny();
  }
}
