package io.fleetkit.simulator;

import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceTaint;
import io.fleetkit.api.resource.dra.DeviceTaintEffect;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.DeviceTaintSelector;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.store.ObjectStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * GPU devices of a node that are Dynamic Resource Allocation devices (published in ResourceSlices local to the node)
 * turning unhealthy and healthy again, the way an operator or a health monitor takes them out of service in
 * Kubernetes: one DeviceTaintRule per failed device with the NoExecute taint {@value #TAINT_KEY}, added now, so that
 * the allocator stops handing the device out and the device taint eviction controller evicts the pods using it (those
 * whose claims do not tolerate the taint). Healing deletes the rules.
 *
 * <p>The failed devices are the node's first {@code devices} ones, by slice name and then device order. Stateless.
 */
final class DraDeviceFaults {
  /** The key of the taint the rules add. */
  static final String TAINT_KEY = "fleetkit.io/device-unhealthy";

  private DraDeviceFaults() {}

  /** A device published for one node. */
  private record NodeDevice(ResourceSlice slice, Device device) {}

  /** How many DRA devices the slices in {@code objects} publish for node {@code nodeName}. */
  static int count(Collection<? extends ApiObject<?>> objects, String nodeName) {
    List<ResourceSlice> slices = new ArrayList<>();
    for (ApiObject<?> o : objects) {
      if (o instanceof ResourceSlice s) {
        slices.add(s);
      }
    }
    return devices(slices, nodeName).size();
  }

  private static List<NodeDevice> devices(List<ResourceSlice> slices, String nodeName) {
    List<ResourceSlice> local = new ArrayList<>();
    for (ResourceSlice s : slices) {
      if (nodeName.equals(s.spec().nodeName())) {
        local.add(s);
      }
    }
    local.sort(Comparator.comparing(s -> s.metadata().name()));
    List<NodeDevice> out = new ArrayList<>();
    for (ResourceSlice s : local) {
      for (Device d : s.spec().devices()) {
        out.add(new NodeDevice(s, d));
      }
    }
    return out;
  }

  private static String ruleName(NodeDevice d) {
    return "gpu-fault-" + d.slice().spec().pool().name() + "-" + d.device().name();
  }

  /**
   * Taints {@code devices} DRA devices of {@code nodeName} NoExecute from {@code now}.
   *
   * @return the names of the rules it created, in order (empty when the node publishes no DRA device)
   */
  static List<String> fail(ObjectStore store, String nodeName, int devices, Instant now) {
    List<NodeDevice> all = devices(store.list(ResourceSlice.class).items(), nodeName);
    List<String> rules = new ArrayList<>();
    for (NodeDevice d : all.subList(0, Math.min(devices, all.size()))) {
      String name = ruleName(d);
      store.create(DeviceTaintRule.of(name, DeviceTaintSelector.device(d.slice().spec().driver(),
          d.slice().spec().pool().name(), d.device().name()),
          new DeviceTaint(TAINT_KEY, "", DeviceTaintEffect.NO_EXECUTE, now)));
      rules.add(name);
    }
    return rules;
  }

  /** Deletes the rules {@link #fail} created. */
  static void heal(ObjectStore store, List<String> rules) {
    for (String r : rules) {
      try {
        store.delete(DeviceTaintRule.class, "", r);
      } catch (NotFoundException e) {
        // removed by hand meanwhile: healthy already
      }
    }
  }
}
