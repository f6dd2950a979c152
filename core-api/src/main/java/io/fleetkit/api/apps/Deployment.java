package io.fleetkit.api.apps;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.internal.WorkloadChecks;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A deployment (apps/v1): keeps {@code replicas} pods of a template running through replica sets and rolls them
 * over when the template changes. Immutable; the canonical constructor validates and throws one
 * {@link io.fleetkit.api.ValidationException} listing every violation.
 */
public record Deployment(ObjectMeta metadata, DeploymentSpec spec, DeploymentStatus status)
    implements ApiObject<Deployment> {
  public static final String API_VERSION = "apps/v1";
  public static final String KIND = "Deployment";

  /**
   * Set while a copy is built whose checked parts (the metadata's name, namespace and labels; the spec) are the
   * very objects of an already validated deployment (a status write, a new resourceVersion): the canonical constructor
   * then skips the checks, whose answer cannot differ (the status is not checked), which matters for the status
   * writes of the workload controllers.
   */
  private static final ThreadLocal<@Nullable Boolean> VALIDATED_PARTS = new ThreadLocal<>();

  public Deployment {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    if (VALIDATED_PARTS.get() == null) {
      Violations v = Violations.forObject(KIND, metadata);
      v.objectMeta(metadata, true);
      v.nonNegative("spec.replicas", spec.replicas());
      WorkloadChecks.selectorAndTemplate(spec.selector(), spec.template(), "deployment", v);
      DeploymentStrategy s = spec.strategy();
      RollingUpdateDeployment ru = s.rollingUpdate();
      if (s.type() == DeploymentStrategyType.Recreate && ru != null) {
        v.add("spec.strategy.rollingUpdate", "Forbidden: may not be specified when strategy `type` is 'Recreate'",
            null);
      } else if (ru != null) {
        v.nonNegative("spec.strategy.rollingUpdate.maxUnavailable", ru.maxUnavailable());
        v.nonNegative("spec.strategy.rollingUpdate.maxSurge", ru.maxSurge());
        if (ru.maxSurge().value() == 0 && ru.maxUnavailable().value() == 0) {
          v.add("spec.strategy.rollingUpdate.maxUnavailable", "may not be 0 when `maxSurge` is 0",
              ru.maxUnavailable());
        }
        v.notMoreThan100Percent("spec.strategy.rollingUpdate.maxUnavailable", ru.maxUnavailable());
      }
      v.nonNegative("spec.minReadySeconds", spec.minReadySeconds());
      v.nonNegative("spec.revisionHistoryLimit", spec.revisionHistoryLimit());
      if (spec.progressDeadlineSeconds() < 0) {
        v.add("spec.progressDeadlineSeconds", Violations.NON_NEGATIVE, spec.progressDeadlineSeconds());
      } else if (spec.progressDeadlineSeconds() <= spec.minReadySeconds()) {
        v.add("spec.progressDeadlineSeconds", "must be greater than minReadySeconds", spec.progressDeadlineSeconds());
      }
      v.throwIfAny();
    }
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
  public Deployment withMetadata(ObjectMeta newMetadata) {
    if (newMetadata.name() == metadata.name() && newMetadata.namespace() == metadata.namespace()
        && newMetadata.labels() == metadata.labels()) {
      return copy(newMetadata, spec, status); // what the checks read of metadata is unchanged (a new version)
    }
    return new Deployment(newMetadata, spec, status);
  }

  @Override
  public Deployment withStatusOf(Deployment other) {
    return copy(metadata, spec, other.status);
  }

  public Deployment withSpec(DeploymentSpec newSpec) {
    return new Deployment(metadata, newSpec, status);
  }

  public Deployment withStatus(DeploymentStatus newStatus) {
    return copy(metadata, spec, newStatus); // the status is not checked; metadata and spec were
  }

  /** A Deployment from the metadata and spec of a validated one (the same objects) and any status: no checks again. */
  private static Deployment copy(ObjectMeta metadata, DeploymentSpec spec, DeploymentStatus status) {
    VALIDATED_PARTS.set(Boolean.TRUE);
    try {
      return new Deployment(metadata, spec, status);
    } finally {
      VALIDATED_PARTS.set(null);
    }
  }

  /** Mutable builder with Kubernetes' defaults (namespace {@code default}, 1 replica, RollingUpdate 25%/25%). */
  public static final class Builder {
    private ObjectMeta.Builder meta = ObjectMeta.builder().namespace("default");
    private int replicas = 1;
    private @Nullable LabelSelector selector;
    private @Nullable PodTemplateSpec template;
    private @Nullable Map<String, String> matchLabels;
    private @Nullable PodSpec podSpec;
    private DeploymentStrategy strategy = DeploymentStrategy.ROLLING_UPDATE;
    private int minReadySeconds;
    private int revisionHistoryLimit = DeploymentSpec.DEFAULT_REVISION_HISTORY_LIMIT;
    private int progressDeadlineSeconds = DeploymentSpec.DEFAULT_PROGRESS_DEADLINE_SECONDS;
    private boolean paused;
    private DeploymentStatus status = DeploymentStatus.EMPTY;

    private Builder() {}

    public Builder metadata(ObjectMeta v) { meta = v.toBuilder(); return this; }
    public Builder name(String v) { meta.name(v); return this; }
    public Builder namespace(String v) { meta.namespace(v); return this; }
    public Builder label(String k, String v) { meta.label(k, v); return this; }
    public Builder replicas(int v) { replicas = v; return this; }
    public Builder selector(LabelSelector v) { selector = v; return this; }
    public Builder template(PodTemplateSpec v) { template = v; return this; }
    /**
     * Shorthand: the selector's {@code matchLabels} and the template's labels, unless {@link #selector} or
     * {@link #template} are set.
     */
    public Builder matchLabels(Map<String, String> v) { matchLabels = Map.copyOf(v); return this; }
    /** The template's pod spec, with labels from {@link #matchLabels}. */
    public Builder podSpec(PodSpec v) { podSpec = v; return this; }
    public Builder strategy(DeploymentStrategy v) { strategy = v; return this; }
    public Builder minReadySeconds(int v) { minReadySeconds = v; return this; }
    public Builder revisionHistoryLimit(int v) { revisionHistoryLimit = v; return this; }
    public Builder progressDeadlineSeconds(int v) { progressDeadlineSeconds = v; return this; }
    public Builder paused(boolean v) { paused = v; return this; }
    public Builder status(DeploymentStatus v) { status = v; return this; }

    public Deployment build() {
      LabelSelector sel = Templates.selector(selector, matchLabels);
      PodTemplateSpec tpl = Templates.template(template, matchLabels, podSpec);
      return new Deployment(meta.build(), new DeploymentSpec(replicas, sel, tpl, strategy, minReadySeconds,
          revisionHistoryLimit, progressDeadlineSeconds, paused), status);
    }
  }
}
