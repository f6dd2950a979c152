package io.fleetkit.api.apps;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.internal.WorkloadChecks;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A DaemonSet (apps/v1): one pod of its template on every node that should run it (by node name, node selector, node
 * affinity and taints). Immutable; the canonical constructor validates as Kubernetes' {@code ValidateDaemonSet} and
 * {@code ValidateDaemonSetSpec} and throws one {@link io.fleetkit.api.ValidationException} listing every violation,
 * each naming the object, the field path and the rule.
 */
public record DaemonSet(ObjectMeta metadata, DaemonSetSpec spec, DaemonSetStatus status)
    implements ApiObject<DaemonSet> {
  public static final String API_VERSION = "apps/v1";
  public static final String KIND = "DaemonSet";

  /** Upstream's message when neither bound of a rolling update is non-zero. */
  static final String BOTH_ZERO = "cannot be 0 when maxSurge is 0";
  /** Upstream's message when both bounds of a rolling update are non-zero. */
  static final String BOTH_SET = "may not be set when maxUnavailable is non-zero";

  public DaemonSet {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    WorkloadChecks.selectorAndTemplate(spec.selector(), spec.template(), "daemonset", v);
    v.nonNegative("spec.minReadySeconds", spec.minReadySeconds());
    updateStrategy(spec.updateStrategy(), v);
    v.nonNegative("spec.revisionHistoryLimit", spec.revisionHistoryLimit());
    status(status, v);
    v.throwIfAny();
  }

  /** Upstream's {@code ValidateDaemonSetUpdateStrategy} and {@code ValidateRollingUpdateDaemonSet}. */
  private static void updateStrategy(DaemonSetUpdateStrategy us, Violations v) {
    RollingUpdateDaemonSet ru = us.rollingUpdate();
    if (us.type() != DaemonSetUpdateStrategyType.RollingUpdate || ru == null) {
      return; // OnDelete: the rolling-update bounds are not looked at
    }
    String p = "spec.updateStrategy.rollingUpdate";
    v.nonNegative(p + ".maxUnavailable", ru.maxUnavailable());
    v.nonNegative(p + ".maxSurge", ru.maxSurge());
    v.notMoreThan100Percent(p + ".maxUnavailable", ru.maxUnavailable());
    v.notMoreThan100Percent(p + ".maxSurge", ru.maxSurge());
    boolean hasUnavailable = ru.maxUnavailable().value() != 0;
    boolean hasSurge = ru.maxSurge().value() != 0;
    if (hasUnavailable && hasSurge) {
      v.add(p + ".maxSurge", BOTH_SET, ru.maxSurge());
    } else if (!hasUnavailable && !hasSurge) {
      v.required(p + ".maxUnavailable", BOTH_ZERO);
    }
  }

  /** Upstream's {@code ValidateDaemonSetStatus}: every count, the generation and the collision count non-negative. */
  private static void status(DaemonSetStatus s, Violations v) {
    v.nonNegative("status.currentNumberScheduled", s.currentNumberScheduled());
    v.nonNegative("status.numberMisscheduled", s.numberMisscheduled());
    v.nonNegative("status.desiredNumberScheduled", s.desiredNumberScheduled());
    v.nonNegative("status.numberReady", s.numberReady());
    v.nonNegative("status.observedGeneration", s.observedGeneration());
    v.nonNegative("status.updatedNumberScheduled", s.updatedNumberScheduled());
    v.nonNegative("status.numberAvailable", s.numberAvailable());
    v.nonNegative("status.numberUnavailable", s.numberUnavailable());
    v.nonNegative("status.collisionCount", s.collisionCount());
  }

  public static Builder builder() {
    return new Builder();
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
  public DaemonSet withMetadata(ObjectMeta newMetadata) {
    return new DaemonSet(newMetadata, spec, status);
  }

  @Override
  public DaemonSet withStatusOf(DaemonSet other) {
    return new DaemonSet(metadata, spec, other.status);
  }

  public DaemonSet withSpec(DaemonSetSpec newSpec) {
    return new DaemonSet(metadata, newSpec, status);
  }

  public DaemonSet withStatus(DaemonSetStatus newStatus) {
    return new DaemonSet(metadata, spec, newStatus);
  }

  public Builder toBuilder() {
    return new Builder().metadata(metadata).selector(spec.selector()).template(spec.template())
        .updateStrategy(spec.updateStrategy()).minReadySeconds(spec.minReadySeconds())
        .revisionHistoryLimit(spec.revisionHistoryLimit()).status(status);
  }

  /**
   * Mutable builder with Kubernetes' defaults (namespace {@code default}, RollingUpdate with maxUnavailable 1,
   * revisionHistoryLimit 10). Not thread-safe.
   */
  public static final class Builder {
    private ObjectMeta.Builder meta = ObjectMeta.builder().namespace("default");
    private @Nullable LabelSelector selector;
    private @Nullable PodTemplateSpec template;
    private @Nullable Map<String, String> matchLabels;
    private @Nullable PodSpec podSpec;
    private DaemonSetUpdateStrategy updateStrategy = DaemonSetUpdateStrategy.ROLLING_UPDATE;
    private int minReadySeconds;
    private int revisionHistoryLimit = DaemonSetSpec.DEFAULT_REVISION_HISTORY_LIMIT;
    private DaemonSetStatus status = DaemonSetStatus.EMPTY;

    private Builder() {}

    public Builder metadata(ObjectMeta v) { meta = v.toBuilder(); return this; }
    public Builder name(String v) { meta.name(v); return this; }
    public Builder namespace(String v) { meta.namespace(v); return this; }
    public Builder uid(String v) { meta.uid(v); return this; }
    public Builder label(String k, String v) { meta.label(k, v); return this; }
    public Builder annotation(String k, String v) { meta.annotation(k, v); return this; }
    public Builder selector(LabelSelector v) { selector = v; return this; }
    public Builder template(PodTemplateSpec v) { template = v; return this; }
    /** Shorthand for the selector's matchLabels and the template's labels (see Deployment.Builder). */
    public Builder matchLabels(Map<String, String> v) { matchLabels = Map.copyOf(v); return this; }
    public Builder podSpec(PodSpec v) { podSpec = v; return this; }
    public Builder updateStrategy(DaemonSetUpdateStrategy v) { updateStrategy = v; return this; }
    /** RollingUpdate with at most {@code v} nodes unavailable and no surge. */
    public Builder maxUnavailable(IntOrPercent v) {
      updateStrategy = DaemonSetUpdateStrategy.rollingUpdate(RollingUpdateDaemonSet.unavailable(v));
      return this;
    }
    /** RollingUpdate with at most {@code v} nodes surging and maxUnavailable 0. */
    public Builder maxSurge(IntOrPercent v) {
      updateStrategy = DaemonSetUpdateStrategy.rollingUpdate(RollingUpdateDaemonSet.surge(v));
      return this;
    }
    public Builder onDelete() { updateStrategy = DaemonSetUpdateStrategy.ON_DELETE; return this; }
    public Builder minReadySeconds(int v) { minReadySeconds = v; return this; }
    public Builder revisionHistoryLimit(int v) { revisionHistoryLimit = v; return this; }
    public Builder status(DaemonSetStatus v) { status = v; return this; }

    /**
     * @throws io.fleetkit.api.ValidationException listing every rule the DaemonSet breaks
     */
    public DaemonSet build() {
      return new DaemonSet(meta.build(), new DaemonSetSpec(Templates.selector(selector, matchLabels),
          Templates.template(template, matchLabels, podSpec), updateStrategy, minReadySeconds,
          revisionHistoryLimit), status);
    }
  }
}
