package io.fleetkit.api.autoscaling;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.internal.PodSpecChecks;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * FleetKit's own kind ({@code fleetkit.io/v1alpha1}, cluster-scoped): a group of identical nodes the autoscaler
 * may grow and shrink between {@code minSize} and {@code maxSize}, with a start-up delay and a price.
 */
public record NodePool(ObjectMeta metadata, NodePoolSpec spec, NodePoolStatus status)
    implements ApiObject<NodePool> {
  public static final String API_VERSION = "fleetkit.io/v1alpha1";
  public static final String KIND = "NodePool";
  /** The label FleetKit puts on every node of a pool, naming the pool. */
  public static final String POOL_LABEL = "fleetkit.io/node-pool";
  /**
   * The node label naming the type of a node's GPUs ({@code a100}, {@code h100}, ...), set on a pool's template for
   * the nodes it launches (upstream cluster-autoscaler's cloud provider {@code GPULabel}): the cluster autoscaler's
   * per-type GPU limits ({@code --gpu-total}) count a node's {@code nvidia.com/gpu} under this label's value, and the
   * simulator names the devices it lists on a GPU node after it.
   */
  public static final String GPU_LABEL = "fleetkit.io/accelerator";

  public NodePool {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, false);
    v.nonNegative("spec.minSize", spec.minSize());
    if (spec.maxSize() < spec.minSize()) {
      v.add("spec.maxSize", "must be greater than or equal to minSize " + spec.minSize(), spec.maxSize());
    }
    if (spec.startupDelay().isNegative()) {
      v.add("spec.startupDelay", Violations.NON_NEGATIVE, spec.startupDelay());
    }
    if (!(spec.pricePerHour() >= 0) || Double.isInfinite(spec.pricePerHour())) {
      v.add("spec.pricePerHour", "must be a finite number greater than or equal to 0", spec.pricePerHour());
    }
    NodeTemplate t = spec.template();
    v.labels("spec.template.labels", t.labels());
    PodSpecChecks.resourceList(t.capacity(), "spec.template.capacity", v);
    if (t.allocatable() != t.capacity()) {
      PodSpecChecks.resourceList(t.allocatable(), "spec.template.allocatable", v);
    }
    ResourceSliceTemplate.check(v, "spec.template.resourceSlices", t.resourceSlices());
    spec.autoscalingOptions().check("spec.autoscalingOptions", v);
    v.nonNegative("status.currentSize", status.currentSize());
    v.throwIfAny();
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
    return false;
  }

  @Override
  public NodePool withMetadata(ObjectMeta newMetadata) {
    return new NodePool(newMetadata, spec, status);
  }

  @Override
  public NodePool withStatusOf(NodePool other) {
    return new NodePool(metadata, spec, other.status);
  }

  public NodePool withSpec(NodePoolSpec newSpec) {
    return new NodePool(metadata, newSpec, status);
  }

  public NodePool withStatus(NodePoolStatus newStatus) {
    return new NodePool(metadata, spec, newStatus);
  }

  /** Mutable builder; defaults: minSize 0, maxSize 0, no start-up delay, free. Not thread-safe. */
  public static final class Builder {
    private ObjectMeta.Builder meta = ObjectMeta.builder();
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final List<Taint> taints = new ArrayList<>();
    private ResourceList capacity = ResourceList.EMPTY;
    private ResourceList allocatable = ResourceList.EMPTY;
    private final List<GpuDevice> gpus = new ArrayList<>();
    private final List<ResourceSliceTemplate> resourceSlices = new ArrayList<>();
    private int minSize;
    private int maxSize;
    private Duration startupDelay = Duration.ZERO;
    private double pricePerHour;
    private boolean zeroOrMaxNodeScaling;
    private NodePoolAutoscalingOptions autoscalingOptions = NodePoolAutoscalingOptions.NONE;
    private NodePoolStatus status = NodePoolStatus.EMPTY;

    private Builder() {}

    public Builder metadata(ObjectMeta v) { meta = v.toBuilder(); return this; }
    public Builder name(String v) { meta.name(v); return this; }
    /** Replaces the node template set so far. */
    public Builder template(NodeTemplate t) {
      labels.clear();
      labels.putAll(t.labels());
      taints.clear();
      taints.addAll(t.taints());
      capacity = t.capacity();
      allocatable = t.allocatable();
      gpus.clear();
      gpus.addAll(t.gpus());
      resourceSlices.clear();
      resourceSlices.addAll(t.resourceSlices());
      return this;
    }
    /** A label every node of the pool gets. */
    public Builder nodeLabel(String k, String v) { labels.put(k, v); return this; }
    public Builder nodeTaint(Taint v) { taints.add(v); return this; }
    public Builder capacity(ResourceList v) { capacity = v; return this; }
    public Builder allocatable(ResourceList v) { allocatable = v; return this; }
    public Builder gpu(GpuDevice v) { gpus.add(v); return this; }
    /** DRA devices every node of the pool has ({@link NodeTemplate#resourceSlices}). */
    public Builder resourceSlice(ResourceSliceTemplate v) { resourceSlices.add(Objects.requireNonNull(v, "resourceSlice")); return this; }
    public Builder minSize(int v) { minSize = v; return this; }
    public Builder maxSize(int v) { maxSize = v; return this; }
    public Builder startupDelay(Duration v) { startupDelay = v; return this; }
    public Builder pricePerHour(double v) { pricePerHour = v; return this; }
    /** Whether the pool's nodes are removed all together or not at all ({@link NodePoolSpec#zeroOrMaxNodeScaling}). */
    public Builder zeroOrMaxNodeScaling(boolean v) { zeroOrMaxNodeScaling = v; return this; }
    /** The pool's own cluster-autoscaler settings ({@link NodePoolSpec#autoscalingOptions}). */
    public Builder autoscalingOptions(NodePoolAutoscalingOptions v) { autoscalingOptions = v; return this; }
    public Builder status(NodePoolStatus v) { status = v; return this; }

    public NodePool build() {
      NodeTemplate t = new NodeTemplate(labels, taints, capacity, allocatable, gpus, resourceSlices);
      return new NodePool(meta.build(), new NodePoolSpec(t, minSize, maxSize, startupDelay, pricePerHour,
          zeroOrMaxNodeScaling, autoscalingOptions), status);
    }
  }
}
