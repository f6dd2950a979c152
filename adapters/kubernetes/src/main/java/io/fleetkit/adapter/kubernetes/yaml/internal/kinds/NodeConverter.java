package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ContainerImageBuilder;
import io.fabric8.kubernetes.api.model.NodeAddressBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeSpecBuilder;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.ContainerImage;
import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeAddress;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.NodeSpec;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * core/v1 Node. FleetKit's {@code status.gpus} (GPU devices for GPU-aware placement) is not a Kubernetes field; it
 * travels in fabric8's additional properties of the node status, as a list of maps with {@code id}, {@code model},
 * {@code memoryMiB}, {@code numaNode} and {@code interconnectGroup}.
 */
public final class NodeConverter extends AbstractKindConverter<io.fabric8.kubernetes.api.model.Node, Node> {
  public NodeConverter() {
    super(Node.API_VERSION, Node.KIND, false, io.fabric8.kubernetes.api.model.Node.class, Node.class);
  }
  static final String GPUS = "gpus";

  @Override
  public @Nullable Node toCore(io.fabric8.kubernetes.api.model.Node in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    var s = in.getSpec() == null ? new io.fabric8.kubernetes.api.model.NodeSpec() : in.getSpec();
    List<Taint> taints = Fabric8Scheduling.list(s.getTaints(), "spec.taints", ctx, Fabric8Scheduling::taint);
    List<String> podCIDRs = s.getPodCIDRs() != null && !s.getPodCIDRs().isEmpty()
        ? Values.stringList(s.getPodCIDRs(), "spec.podCIDRs", ctx)
        : s.getPodCIDR() == null || s.getPodCIDR().isEmpty() ? List.of() : List.of(s.getPodCIDR());
    NodeSpec spec = ctx.build("spec", () -> new NodeSpec(Values.boolOr(s.getUnschedulable(), false), taints,
        Values.orEmpty(s.getProviderID()), podCIDRs));
    NodeStatus status = status(in.getStatus(), ctx);
    if (spec == null || status == null) {
      return null;
    }
    return ctx.buildWarned("", () -> new Node(meta, spec, status), Node::warnings);
  }

  private static @Nullable NodeStatus status(io.fabric8.kubernetes.api.model.@Nullable NodeStatus st,
      DocumentContext ctx) {
    if (st == null) {
      return NodeStatus.EMPTY;
    }
    ResourceList capacity = Values.resources(st.getCapacity(), "status.capacity", ctx);
    ResourceList allocatable = Values.resources(st.getAllocatable(), "status.allocatable", ctx);
    List<NodeCondition> conditions = Fabric8Scheduling.list(st.getConditions(), "status.conditions", ctx,
        NodeConverter::condition);
    List<NodeAddress> addresses = Fabric8Scheduling.list(st.getAddresses(), "status.addresses", ctx,
        (a, p, c) -> c.build(p, () -> new NodeAddress(Values.required(a.getType(), p + ".type", c),
            Values.required(a.getAddress(), p + ".address", c))));
    List<GpuDevice> gpus = gpus(st.getAdditionalProperties(), "status.gpus", ctx);
    List<ContainerImage> images = Fabric8Scheduling.list(st.getImages(), "status.images", ctx,
        (im, p, c) -> c.build(p, () -> new ContainerImage(Values.stringList(im.getNames(), p + ".names", c),
            Values.longOr(im.getSizeBytes(), 0))));
    return ctx.build("status", () -> new NodeStatus(capacity, allocatable, conditions, gpus, addresses, images));
  }

  private static @Nullable NodeCondition condition(io.fabric8.kubernetes.api.model.NodeCondition c, String p,
      DocumentContext ctx) {
    String type = Values.required(c.getType(), p + ".type", ctx);
    ConditionStatus status = Values.requiredEnum(ConditionStatus.class, c.getStatus(), p + ".status", ctx);
    var heartbeat = Values.instant(c.getLastHeartbeatTime(), p + ".lastHeartbeatTime", ctx);
    var transition = Values.instant(c.getLastTransitionTime(), p + ".lastTransitionTime", ctx);
    if (status == null) {
      return null;
    }
    return ctx.build(p, () -> new NodeCondition(type, status, Values.orEmpty(c.getReason()),
        Values.orEmpty(c.getMessage()), heartbeat, transition));
  }

  /** GPU devices from an untyped list under {@code key} of {@code props}. */
  static List<GpuDevice> gpus(@Nullable Map<String, Object> props, String path, DocumentContext ctx) {
    if (props == null) {
      return List.of();
    }
    List<GpuDevice> out = new ArrayList<>();
    List<Object> raw = Untyped.list(props, GPUS, path, ctx);
    for (int i = 0; i < raw.size(); i++) {
      String p = path + "[" + i + "]";
      Map<String, Object> m = Untyped.asMap(raw.get(i), p, ctx);
      String id = Untyped.string(m, "id", "", p + ".id", ctx);
      String model = Untyped.string(m, "model", "", p + ".model", ctx);
      Long mem = Untyped.integer(m, "memoryMiB", p + ".memoryMiB", ctx);
      Integer numa = Untyped.int32(m, "numaNode", p + ".numaNode", ctx);
      String group = Untyped.string(m, "interconnectGroup", "", p + ".interconnectGroup", ctx);
      GpuDevice g = ctx.build(p, () -> new GpuDevice(id, model, mem == null ? 0 : mem, numa == null ? -1 : numa,
          group));
      if (g != null) {
        out.add(g);
      }
    }
    return out;
  }

  /** GPU devices as untyped maps; {@code null} when there are none. */
  static @Nullable List<Object> gpus(List<GpuDevice> gpus) {
    if (gpus.isEmpty()) {
      return null;
    }
    List<Object> out = new ArrayList<>();
    for (GpuDevice g : gpus) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", g.id());
      Untyped.put(m, "model", g.model());
      m.put("memoryMiB", g.memoryMiB());
      if (g.numaNode() != -1) {
        m.put("numaNode", g.numaNode());
      }
      Untyped.put(m, "interconnectGroup", g.interconnectGroup());
      out.add(m);
    }
    return out;
  }

  @Override
  public io.fabric8.kubernetes.api.model.Node toFabric8(Node in) {
    NodeSpec s = in.spec();
    NodeStatus st = in.status();
    var status = new NodeStatusBuilder()
        .withCapacity(Values.resources(st.capacity()))
        .withAllocatable(st.allocatable().equals(st.capacity()) ? null : Values.resources(st.allocatable()))
        .withConditions(Fabric8Scheduling.out(st.conditions(), c -> new NodeConditionBuilder().withType(c.type())
            .withStatus(c.status().name()).withReason(Values.emptyToNull(c.reason()))
            .withMessage(Values.emptyToNull(c.message()))
            .withLastHeartbeatTime(Values.instant(c.lastHeartbeatTime()))
            .withLastTransitionTime(Values.instant(c.lastTransitionTime())).build()))
        .withAddresses(Fabric8Scheduling.out(st.addresses(), a -> new NodeAddressBuilder().withType(a.type())
            .withAddress(a.address()).build()))
        .withImages(Fabric8Scheduling.out(st.images(), im -> new ContainerImageBuilder()
            .withNames(im.names()).withSizeBytes(im.sizeBytes()).build()))
        .build();
    List<Object> gpus = gpus(st.gpus());
    if (gpus != null) {
      status.setAdditionalProperty(GPUS, gpus);
    }
    return new NodeBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new NodeSpecBuilder().withUnschedulable(s.unschedulable() ? Boolean.TRUE : null)
            .withTaints(Fabric8Scheduling.out(s.taints(), Fabric8Scheduling::taint))
            .withProviderID(Values.emptyToNull(s.providerID()))
            .withPodCIDR(s.podCIDRs().isEmpty() ? null : s.podCIDRs().get(0))
            .withPodCIDRs(s.podCIDRs().isEmpty() ? null : s.podCIDRs()).build())
        .withStatus(status)
        .build();
  }

  @Override
  public java.util.Set<String> extensionFields() {
    return java.util.Set.of("status." + GPUS);
  }
}
