package io.fleetkit.api.scheduling;

import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.PodSpecChecks;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.util.Objects;

/**
 * A gang of pods that is scheduled all-or-nothing (scheduler-plugins coscheduling,
 * {@code scheduling.x-k8s.io/v1alpha1}). Pods join with the label {@code scheduling.x-k8s.io/pod-group}.
 */
public record PodGroup(ObjectMeta metadata, PodGroupSpec spec, PodGroupStatus status)
    implements ApiObject<PodGroup> {
  public static final String API_VERSION = "scheduling.x-k8s.io/v1alpha1";
  public static final String KIND = "PodGroup";

  public PodGroup {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    if (spec.minMember() < 1) {
      v.add("spec.minMember", "must be greater than or equal to 1", spec.minMember());
    }
    v.nonNegative("spec.scheduleTimeoutSeconds", spec.scheduleTimeoutSeconds());
    PodSpecChecks.resourceList(spec.minResources(), "spec.minResources", v);
    v.throwIfAny();
  }

  public static PodGroup of(String namespace, String name, int minMember) {
    return new PodGroup(ObjectMeta.of(namespace, name), PodGroupSpec.of(minMember), PodGroupStatus.PENDING);
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
  public PodGroup withMetadata(ObjectMeta newMetadata) {
    return new PodGroup(newMetadata, spec, status);
  }

  @Override
  public PodGroup withStatusOf(PodGroup other) {
    return new PodGroup(metadata, spec, other.status);
  }

  public PodGroup withSpec(PodGroupSpec newSpec) {
    return new PodGroup(metadata, newSpec, status);
  }

  public PodGroup withStatus(PodGroupStatus newStatus) {
    return new PodGroup(metadata, spec, newStatus);
  }

  /** Mutable builder (namespace {@code default}); not thread-safe. */
  public static final class Builder {
    private ObjectMeta.Builder meta = ObjectMeta.builder().namespace("default");
    private int minMember = 1;
    private @org.jspecify.annotations.Nullable Integer scheduleTimeoutSeconds;
    private ResourceList minResources = ResourceList.EMPTY;
    private PodGroupStatus status = PodGroupStatus.PENDING;

    private Builder() {}

    public Builder metadata(ObjectMeta v) { meta = v.toBuilder(); return this; }
    public Builder name(String v) { meta.name(v); return this; }
    public Builder namespace(String v) { meta.namespace(v); return this; }
    public Builder label(String k, String v) { meta.label(k, v); return this; }
    public Builder annotation(String k, String v) { meta.annotation(k, v); return this; }
    public Builder minMember(int v) { minMember = v; return this; }
    public Builder scheduleTimeoutSeconds(@org.jspecify.annotations.Nullable Integer v) {
      scheduleTimeoutSeconds = v;
      return this;
    }
    public Builder minResources(ResourceList v) { minResources = v; return this; }
    public Builder status(PodGroupStatus v) { status = v; return this; }

    public PodGroup build() {
      return new PodGroup(meta.build(), new PodGroupSpec(minMember, scheduleTimeoutSeconds, minResources), status);
    }
  }
}
