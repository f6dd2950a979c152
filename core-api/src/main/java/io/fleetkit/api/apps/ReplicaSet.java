package io.fleetkit.api.apps;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.internal.WorkloadChecks;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A replica set (apps/v1): keeps {@code replicas} pods matching its selector. Immutable; the canonical constructor
 * validates and throws one {@link io.fleetkit.api.ValidationException} listing every violation.
 */
public record ReplicaSet(ObjectMeta metadata, ReplicaSetSpec spec, ReplicaSetStatus status)
    implements ApiObject<ReplicaSet> {
  public static final String API_VERSION = "apps/v1";
  public static final String KIND = "ReplicaSet";

  /**
   * Set while a copy is built whose checked parts (the metadata's name, namespace and labels; the spec) are the
   * very objects of an already validated replica set (a status write, a new resourceVersion): the canonical constructor
   * then skips the checks, whose answer cannot differ (the status is not checked), which matters for the status
   * writes of the workload controllers.
   */
  private static final ThreadLocal<@Nullable Boolean> VALIDATED_PARTS = new ThreadLocal<>();

  public ReplicaSet {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    if (VALIDATED_PARTS.get() == null) {
      Violations v = Violations.forObject(KIND, metadata);
      v.objectMeta(metadata, true);
      v.nonNegative("spec.replicas", spec.replicas());
      v.nonNegative("spec.minReadySeconds", spec.minReadySeconds());
      WorkloadChecks.selectorAndTemplate(spec.selector(), spec.template(), "deployment", v);
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
  public ReplicaSet withMetadata(ObjectMeta newMetadata) {
    if (newMetadata.name() == metadata.name() && newMetadata.namespace() == metadata.namespace()
        && newMetadata.labels() == metadata.labels()) {
      return copy(newMetadata, spec, status); // what the checks read of metadata is unchanged (a new version)
    }
    return new ReplicaSet(newMetadata, spec, status);
  }

  @Override
  public ReplicaSet withStatusOf(ReplicaSet other) {
    return copy(metadata, spec, other.status);
  }

  public ReplicaSet withSpec(ReplicaSetSpec newSpec) {
    return new ReplicaSet(metadata, newSpec, status);
  }

  public ReplicaSet withStatus(ReplicaSetStatus newStatus) {
    return copy(metadata, spec, newStatus); // the status is not checked; metadata and spec were
  }

  /** A ReplicaSet from the metadata and spec of a validated one (the same objects) and any status: no checks again. */
  private static ReplicaSet copy(ObjectMeta metadata, ReplicaSetSpec spec, ReplicaSetStatus status) {
    VALIDATED_PARTS.set(Boolean.TRUE);
    try {
      return new ReplicaSet(metadata, spec, status);
    } finally {
      VALIDATED_PARTS.set(null);
    }
  }

  /** Mutable builder (namespace {@code default}, 1 replica); not thread-safe. */
  public static final class Builder {
    private ObjectMeta.Builder meta = ObjectMeta.builder().namespace("default");
    private int replicas = 1;
    private @Nullable LabelSelector selector;
    private @Nullable PodTemplateSpec template;
    private @Nullable Map<String, String> matchLabels;
    private @Nullable PodSpec podSpec;
    private int minReadySeconds;
    private ReplicaSetStatus status = ReplicaSetStatus.EMPTY;

    private Builder() {}

    public Builder metadata(ObjectMeta v) { meta = v.toBuilder(); return this; }
    public Builder name(String v) { meta.name(v); return this; }
    public Builder namespace(String v) { meta.namespace(v); return this; }
    public Builder label(String k, String v) { meta.label(k, v); return this; }
    public Builder ownerReference(OwnerReference v) { meta.ownerReference(v); return this; }
    public Builder replicas(int v) { replicas = v; return this; }
    public Builder selector(LabelSelector v) { selector = v; return this; }
    public Builder template(PodTemplateSpec v) { template = v; return this; }
    /** Shorthand for the selector's matchLabels and the template's labels (see Deployment.Builder). */
    public Builder matchLabels(Map<String, String> v) { matchLabels = Map.copyOf(v); return this; }
    public Builder podSpec(PodSpec v) { podSpec = v; return this; }
    public Builder minReadySeconds(int v) { minReadySeconds = v; return this; }
    public Builder status(ReplicaSetStatus v) { status = v; return this; }

    public ReplicaSet build() {
      return new ReplicaSet(meta.build(), new ReplicaSetSpec(replicas, Templates.selector(selector, matchLabels),
          Templates.template(template, matchLabels, podSpec), minReadySeconds), status);
    }
  }
}
