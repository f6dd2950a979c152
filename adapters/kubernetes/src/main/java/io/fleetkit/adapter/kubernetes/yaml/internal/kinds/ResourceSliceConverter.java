package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.dra.CounterSet;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceAttribute;
import io.fleetkit.api.resource.dra.DeviceCounterConsumption;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import io.fleetkit.api.scheduling.NodeSelector;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * resource.k8s.io/v1 ResourceSlice, as a driver publishes it and {@code kubectl get resourceslices -o yaml} prints
 * it: the driver, the pool ({@code generation} and {@code resourceSliceCount} always printed), one of
 * {@code nodeName}, {@code nodeSelector}, {@code allNodes} and {@code perDeviceNodeSelection}, the counter sets
 * ({@code sharedCounters}: {@code name}, {@code counters} with {@code value}s) and the devices with their attributes
 * (one of {@code int}, {@code bool}, {@code string} and {@code version} each), capacities ({@code value}), taints
 * ({@code key}, {@code value}, {@code effect} None, NoSchedule or NoExecute, {@code timeAdded}),
 * {@code consumesCounters} and, with per-device node selection, their own {@code nodeName}, {@code nodeSelector} or
 * {@code allNodes}. Counter compatibility groups, binding conditions, multiple allocations, capacity request policies
 * and
 * list-valued attributes are refused: FleetKit does not model them.
 */
public final class ResourceSliceConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice, ResourceSlice> {
  public ResourceSliceConverter() {
    super(ResourceSlice.API_VERSION, ResourceSlice.KIND, false,
        io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice.class, ResourceSlice.class);
  }

  @Override
  public @Nullable ResourceSlice toCore(io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    var s = in.getSpec();
    if (s == null) {
      ctx.error("spec", "is required", null);
      return null;
    }
    DraYaml.unsupported(s.getPartitionTypeAttribute(), "spec.partitionTypeAttribute", "partition types", ctx);
    DraYaml.unsupported(s.getSkipNodeOperations(), "spec.skipNodeOperations", "node operations", ctx);
    var p = s.getPool();
    ResourcePool pool = p == null ? new ResourcePool("", 0, 0) : new ResourcePool(Values.orEmpty(p.getName()),
        Values.longOr(p.getGeneration(), 0), Values.longOr(p.getResourceSliceCount(), 0));
    NodeSelector selector = Fabric8Scheduling.nodeSelector(s.getNodeSelector(), "spec.nodeSelector", ctx);
    List<Device> devices = Fabric8Scheduling.list(s.getDevices(), "spec.devices", ctx, ResourceSliceConverter::device);
    List<CounterSet> counterSets = Fabric8Scheduling.list(s.getSharedCounters(), "spec.sharedCounters", ctx,
        (c, cp, cx) -> new CounterSet(Values.orEmpty(c.getName()),
            counters(c.getCounters(), cp + ".counters", cx)));
    if (ctx.hasErrors()) {
      return null;
    }
    var spec = new ResourceSliceSpec(Values.orEmpty(s.getDriver()), pool, s.getNodeName(), selector,
        Values.boolOr(s.getAllNodes(), false), devices, Values.boolOr(s.getPerDeviceNodeSelection(), false),
        counterSets);
    return ctx.build("", () -> new ResourceSlice(meta, spec));
  }

  /** One device of a slice (or of a NodePool's device template) at path {@code p}; null when reported as bad. */
  static @Nullable Device device(io.fabric8.kubernetes.api.model.resource.v1.Device d, String p,
      DocumentContext ctx) {
    List<DeviceCounterConsumption> consumption = Fabric8Scheduling.list(d.getConsumesCounters(),
        p + ".consumesCounters", ctx, (c, cp, cx) -> {
          DraYaml.unsupported(c.getCompatibilityGroups(), cp + ".compatibilityGroups", "counter compatibility groups",
              cx);
          return new DeviceCounterConsumption(Values.orEmpty(c.getCounterSet()),
              counters(c.getCounters(), cp + ".counters", cx));
        });
    NodeSelector deviceSelector = Fabric8Scheduling.nodeSelector(d.getNodeSelector(), p + ".nodeSelector", ctx);
    DraYaml.unsupported(d.getBindingConditions(), p + ".bindingConditions", "binding conditions", ctx);
    DraYaml.unsupported(d.getBindingFailureConditions(), p + ".bindingFailureConditions", "binding conditions", ctx);
    DraYaml.unsupported(d.getBindsToNode(), p + ".bindsToNode", "binding conditions", ctx);
    DraYaml.unsupported(d.getAllowMultipleAllocations(), p + ".allowMultipleAllocations",
        "consumable capacity (multiple allocations of a device)", ctx);
    DraYaml.unsupported(d.getNodeAllocatableResources(), p + ".nodeAllocatableResources",
        "node allocatable resources of devices", ctx);
    Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
    if (d.getAttributes() != null) {
      d.getAttributes().forEach((name, a) -> {
        DeviceAttribute v = attribute(a, p + ".attributes[" + name + "]", ctx);
        if (v != null) {
          attributes.put(name, v);
        }
      });
    }
    Map<String, Quantity> capacity = new LinkedHashMap<>();
    if (d.getCapacity() != null) {
      d.getCapacity().forEach((name, c) -> {
        String cp = p + ".capacity[" + name + "]";
        if (c == null) {
          ctx.error(cp, "must not be null", null);
          return;
        }
        DraYaml.unsupported(c.getRequestPolicy(), cp + ".requestPolicy", "capacity request policies", ctx);
        Quantity q = Values.quantity(c.getValue() == null ? null : c.getValue().toString(), cp + ".value", ctx);
        if (q != null) {
          capacity.put(name, q);
        }
      });
    }
    return new Device(Values.orEmpty(d.getName()), attributes, capacity,
        DraYaml.taints(d.getTaints(), p + ".taints", ctx), consumption, d.getNodeName(), deviceSelector,
        Values.boolOr(d.getAllNodes(), false));
  }

  /** Counters by name ({@code Counter.value}); a malformed quantity is reported. */
  private static Map<String, Quantity> counters(@Nullable Map<String, Counter> in, String path, DocumentContext ctx) {
    Map<String, Quantity> out = new LinkedHashMap<>();
    if (in == null) {
      return out;
    }
    in.forEach((name, c) -> {
      String cp = path + "[" + name + "]";
      if (c == null) {
        ctx.error(cp, "must not be null", null);
        return;
      }
      Quantity q = Values.quantity(c.getValue() == null ? null : c.getValue().toString(), cp + ".value", ctx);
      if (q != null) {
        out.put(name, q);
      }
    });
    return out;
  }

  private static @Nullable Map<String, Counter> counters(Map<String, Quantity> in) {
    Map<String, Counter> out = new TreeMap<>();
    in.forEach((name, q) -> out.put(name, new Counter(new io.fabric8.kubernetes.api.model.Quantity(q.toString()))));
    return Values.emptyToNull(out);
  }

  private static @Nullable DeviceAttribute attribute(io.fabric8.kubernetes.api.model.resource.v1.@Nullable
      DeviceAttribute a, String p, DocumentContext ctx) {
    if (a == null) {
      ctx.error(p, "must not be null", null);
      return null;
    }
    DraYaml.unsupported(a.getInts(), p + ".ints", "list-valued attributes", ctx);
    DraYaml.unsupported(a.getBools(), p + ".bools", "list-valued attributes", ctx);
    DraYaml.unsupported(a.getStrings(), p + ".strings", "list-valued attributes", ctx);
    DraYaml.unsupported(a.getVersions(), p + ".versions", "list-valued attributes", ctx);
    int set = (a.getInt() == null ? 0 : 1) + (a.getBool() == null ? 0 : 1) + (a.getString() == null ? 0 : 1)
        + (a.getVersion() == null ? 0 : 1);
    if (set != 1) {
      ctx.error(p, "exactly one value must be specified (int, bool, string or version)", set + " set");
      return null;
    }
    if (a.getInt() != null) {
      return DeviceAttribute.ofInt(a.getInt());
    }
    if (a.getBool() != null) {
      return DeviceAttribute.ofBool(a.getBool());
    }
    if (a.getString() != null) {
      if (a.getString().length() > DeviceAttribute.MAX_VALUE_LENGTH) {
        ctx.error(p + ".string", "Too long: may not be more than " + DeviceAttribute.MAX_VALUE_LENGTH + " bytes",
            a.getString());
      }
      return DeviceAttribute.ofString(a.getString());
    }
    return DeviceAttribute.ofVersion(a.getVersion());
  }

  @Override
  public io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice toFabric8(ResourceSlice in) {
    ResourceSliceSpec s = in.spec();
    var spec = new io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceSpec();
    spec.setDriver(s.driver());
    spec.setPool(new io.fabric8.kubernetes.api.model.resource.v1.ResourcePool(s.pool().generation(),
        s.pool().name(), s.pool().resourceSliceCount()));
    spec.setNodeName(s.nodeName());
    spec.setNodeSelector(Fabric8Scheduling.nodeSelector(s.nodeSelector()));
    spec.setAllNodes(s.allNodes() ? Boolean.TRUE : null);
    spec.setPerDeviceNodeSelection(s.perDeviceNodeSelection() ? Boolean.TRUE : null);
    spec.setDevices(Fabric8Scheduling.out(s.devices(), ResourceSliceConverter::device));
    spec.setSharedCounters(Fabric8Scheduling.out(s.sharedCounters(), c -> {
      var f = new io.fabric8.kubernetes.api.model.resource.v1.CounterSet();
      f.setName(c.name());
      f.setCounters(counters(c.counters()));
      return f;
    }));
    var out = new io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice();
    out.setApiVersion(apiVersion());
    out.setKind(kind());
    out.setMetadata(Fabric8Meta.toFabric8(in.metadata()));
    out.setSpec(spec);
    return out;
  }

  /** The device as fabric8's model writes it. */
  static io.fabric8.kubernetes.api.model.resource.v1.Device device(Device d) {
    var out = new io.fabric8.kubernetes.api.model.resource.v1.Device();
    out.setName(d.name());
    Map<String, io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute> attributes = new TreeMap<>();
    d.attributes().forEach((name, a) -> {
      var f = new io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute();
      f.setInt(a.integer());
      f.setBool(a.bool());
      f.setString(a.string());
      f.setVersion(a.version());
      attributes.put(name, f);
    });
    out.setAttributes(Values.emptyToNull(attributes));
    Map<String, DeviceCapacity> capacity = new TreeMap<>();
    d.capacity().forEach((name, q) -> {
      var c = new DeviceCapacity();
      c.setValue(new io.fabric8.kubernetes.api.model.Quantity(q.toString()));
      capacity.put(name, c);
    });
    out.setCapacity(Values.emptyToNull(capacity));
    out.setTaints(DraYaml.taints(d.taints()));
    out.setConsumesCounters(Fabric8Scheduling.out(d.consumesCounters(), c -> {
      var f = new io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption();
      f.setCounterSet(c.counterSet());
      f.setCounters(counters(c.counters()));
      return f;
    }));
    out.setNodeName(d.nodeName());
    out.setNodeSelector(Fabric8Scheduling.nodeSelector(d.nodeSelector()));
    out.setAllNodes(d.allNodes() ? Boolean.TRUE : null);
    return out;
  }
}
