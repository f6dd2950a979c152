package io.fleetkit.api.core;

import io.fleetkit.api.Violation;
import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.LegacyIpWarnings;
import io.fleetkit.api.internal.PodSpecChecks;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.net.IpText;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.SchedulingValidation;
import io.fleetkit.api.scheduling.Taint;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A node (core/v1, cluster-scoped): a machine pods are placed on. Immutable; the canonical constructor validates
 * and throws one {@link io.fleetkit.api.ValidationException} listing every violation.
 *
 * <p>Build with {@link #builder()}: {@code Node.builder().name("n1").label("zone", "a").capacity(resources)
 * .taint(taint).build()}.
 */
public record Node(ObjectMeta metadata, NodeSpec spec, NodeStatus status) implements ApiObject<Node> {
  public static final String API_VERSION = "v1";
  public static final String KIND = "Node";
  /**
   * The label that takes a node out of external load balancers' backends ({@code v1.LabelNodeExcludeBalancers}):
   * present with any value but one that parses as false.
   */
  public static final String LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS =
      "node.kubernetes.io/exclude-from-external-load-balancers";

  /**
   * Set while a copy is built whose validated parts (metadata name, namespace and labels; spec taints; status
   * capacity, allocatable, GPUs and images) are the very objects of an already validated node (see {@link #copy}): the
   * canonical constructor then skips the checks, which matters for the status posts of thousands of kubelets.
   */
  private static final ThreadLocal<@Nullable Boolean> VALIDATED_PARTS = new ThreadLocal<>();

  public Node {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    if (VALIDATED_PARTS.get() == null) {
      validate(metadata, spec, status);
    }
  }

  private static void validate(ObjectMeta metadata, NodeSpec spec, NodeStatus status) {
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, false);
    PodSpecChecks.resourceList(status.capacity(), "status.capacity", v);
    if (status.allocatable() != status.capacity()) {
      PodSpecChecks.resourceList(status.allocatable(), "status.allocatable", v);
    }
    if (!spec.taints().isEmpty()) {
      v.addAll(SchedulingValidation.validateTaints(spec.taints(), "spec.taints"));
    }
    if (!spec.podCIDRs().isEmpty()) {
      podCIDRs(spec.podCIDRs(), v);
    }
    List<GpuDevice> gpus = status.gpus();
    if (!gpus.isEmpty()) {
      Set<String> ids = new HashSet<>();
      for (int i = 0; i < gpus.size(); i++) {
        GpuDevice g = gpus.get(i);
        String p = "status.gpus[" + i + "]";
        if (g.id().isEmpty()) {
          v.required(p + ".id");
        } else if (!ids.add(g.id())) {
          v.add(p + ".id", Violations.DUPLICATE, g.id());
        }
        v.nonNegative(p + ".memoryMiB", g.memoryMiB());
      }
    }
    List<ContainerImage> images = status.images();
    for (int i = 0; i < images.size(); i++) {
      ContainerImage image = images.get(i);
      String p = "status.images[" + i + "]";
      if (image.names().isEmpty()) {
        v.required(p + ".names");
      }
      for (int j = 0; j < image.names().size(); j++) {
        if (image.names().get(j).isBlank()) {
          v.required(p + ".names[" + j + "]");
        }
      }
      v.nonNegative(p + ".sizeBytes", image.sizeBytes());
    }
    v.throwIfAny();
  }

  /**
   * Upstream's {@code ValidateNode} for {@code spec.podCIDRs}: each a CIDR (a legacy field,
   * {@code IsValidCIDRForLegacyField} with {@code StrictIPCIDRValidation} off: {@link IpText#isCidrSloppy}), and
   * more than one only as a dual-stack pair.
   */
  private static void podCIDRs(List<String> cidrs, Violations v) {
    boolean valid = true;
    for (int i = 0; i < cidrs.size(); i++) {
      if (!IpText.isCidrSloppy(cidrs.get(i))) {
        v.add("spec.podCIDRs[" + i + "]", IpText.INVALID_CIDR, cidrs.get(i));
        valid = false;
      }
    }
    if (valid && cidrs.size() > 1) {
      String first = cidrs.get(0);
      String second = cidrs.get(1);
      IPFamily a = IPFamily.of(first.substring(0, first.indexOf('/')));
      IPFamily b = IPFamily.of(second.substring(0, second.indexOf('/')));
      if (cidrs.size() > 2 || a == b) {
        v.add("spec.podCIDRs", "may specify no more than one CIDR for each IP family", cidrs);
      }
    }
  }

  /**
   * The API server's warnings for this node's legacy CIDR field (KEP-4858's warnings for {@code spec.podCIDRs[]},
   * {@code GetWarningsForCIDR}): each pod CIDR in a non-standard form ({@link IpText#cidrLegacyWarnings}), at
   * {@code spec.podCIDRs[i]}.
   */
  public List<Violation> warnings() {
    return new LegacyIpWarnings(Violations.describe(KIND, metadata.namespace(), metadata.name()))
        .cidrs("spec.podCIDRs", spec.podCIDRs()).warnings();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder(this);
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
  public Node withMetadata(ObjectMeta newMetadata) {
    boolean same = newMetadata.name() == metadata.name() && newMetadata.namespace() == metadata.namespace()
        && newMetadata.labels() == metadata.labels(); // what the checks read of metadata, unchanged
    return same ? copy(newMetadata, spec, status) : new Node(newMetadata, spec, status);
  }

  @Override
  public Node withStatusOf(Node other) {
    return copy(metadata, spec, other.status); // both validated
  }

  public Node withSpec(NodeSpec newSpec) {
    return new Node(metadata, newSpec, status);
  }

  public Node withStatus(NodeStatus newStatus) {
    boolean same = newStatus.capacity() == status.capacity() && newStatus.allocatable() == status.allocatable()
        && newStatus.gpus() == status.gpus()
        && newStatus.images() == status.images(); // what the checks read of status, unchanged (not conditions)
    return same ? copy(metadata, spec, newStatus) : new Node(metadata, spec, newStatus);
  }

  /** A node from parts that were validated as they are (the same objects) in a node: no checks again. */
  private static Node copy(ObjectMeta metadata, NodeSpec spec, NodeStatus status) {
    VALIDATED_PARTS.set(Boolean.TRUE);
    try {
      return new Node(metadata, spec, status);
    } finally {
      VALIDATED_PARTS.set(null);
    }
  }

  public String name() {
    return metadata.name();
  }

  public ResourceList allocatable() {
    return status.allocatable();
  }

  /** Whether the node has a {@code Ready=True} condition. */
  public boolean isReady() {
    NodeCondition c = status.condition(NodeCondition.READY);
    return c != null && c.status() == ConditionStatus.True;
  }

  /** Mutable builder; not thread-safe. */
  public static final class Builder {
    private ObjectMeta.Builder meta;
    private boolean unschedulable;
    private final List<Taint> taints;
    private String providerID;
    private List<String> podCIDRs;
    private ResourceList capacity;
    private ResourceList allocatable;
    private final List<NodeCondition> conditions;
    private final List<GpuDevice> gpus;
    private final List<NodeAddress> addresses;
    private final List<ContainerImage> images;

    private Builder() {
      meta = ObjectMeta.builder();
      taints = new ArrayList<>(0);
      providerID = "";
      podCIDRs = List.of();
      capacity = ResourceList.EMPTY;
      allocatable = ResourceList.EMPTY;
      conditions = new ArrayList<>(1);
      gpus = new ArrayList<>(0);
      addresses = new ArrayList<>(0);
      images = new ArrayList<>(0);
    }

    private Builder(Node n) {
      meta = n.metadata.toBuilder();
      unschedulable = n.spec.unschedulable();
      taints = new ArrayList<>(n.spec.taints());
      providerID = n.spec.providerID();
      podCIDRs = n.spec.podCIDRs();
      capacity = n.status.capacity();
      allocatable = n.status.allocatable();
      conditions = new ArrayList<>(n.status.conditions());
      gpus = new ArrayList<>(n.status.gpus());
      addresses = new ArrayList<>(n.status.addresses());
      images = new ArrayList<>(n.status.images());
    }

    /** Replaces all metadata set so far. */
    public Builder metadata(ObjectMeta v) { meta = v.toBuilder(); return this; }
    public Builder name(String v) { meta.name(v); return this; }
    public Builder uid(String v) { meta.uid(v); return this; }
    public Builder labels(Map<String, String> v) { meta.labels(v); return this; }
    public Builder label(String k, String v) { meta.label(k, v); return this; }
    public Builder annotation(String k, String v) { meta.annotation(k, v); return this; }
    public Builder unschedulable(boolean v) { unschedulable = v; return this; }
    public Builder taints(List<Taint> v) { taints.clear(); taints.addAll(v); return this; }
    public Builder taint(Taint v) { taints.add(v); return this; }
    public Builder providerID(String v) { providerID = v; return this; }
    /** {@code spec.podCIDRs}; kept from the node by {@link Node#toBuilder()}. */
    public Builder podCIDRs(List<String> v) { podCIDRs = List.copyOf(v); return this; }
    /** Capacity; allocatable defaults to it unless set. */
    public Builder capacity(ResourceList v) { capacity = v; return this; }
    public Builder allocatable(ResourceList v) { allocatable = v; return this; }
    public Builder conditions(List<NodeCondition> v) { conditions.clear(); conditions.addAll(v); return this; }
    public Builder condition(NodeCondition v) { conditions.add(v); return this; }
    /** Adds {@code Ready=True}. */
    public Builder ready() { conditions.add(NodeCondition.ready()); return this; }
    public Builder gpus(List<GpuDevice> v) { gpus.clear(); gpus.addAll(v); return this; }
    public Builder gpu(GpuDevice v) { gpus.add(v); return this; }
    public Builder addresses(List<NodeAddress> v) { addresses.clear(); addresses.addAll(v); return this; }
    public Builder address(NodeAddress v) { addresses.add(v); return this; }
    /** {@code status.images}: the container images present on the node. */
    public Builder images(List<ContainerImage> v) { images.clear(); images.addAll(v); return this; }
    public Builder image(ContainerImage v) { images.add(v); return this; }

    public Node build() {
      return new Node(meta.build(), new NodeSpec(unschedulable, taints, providerID, podCIDRs),
          new NodeStatus(capacity, allocatable, conditions, gpus, addresses, images));
    }
  }
}
