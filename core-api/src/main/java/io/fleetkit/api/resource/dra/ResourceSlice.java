package io.fleetkit.api.resource.dra;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * A ResourceSlice ({@code resource.k8s.io/v1}, cluster-scoped): part of a driver's pool of devices.
 *
 * <p>The constructor checks Kubernetes' rules ({@code ValidateResourceSlice}): the name is a DNS-1123 subdomain,
 * the driver a DNS subdomain of at most 63 characters, the pool name set, its generation not negative and its slice
 * count greater than zero, exactly one of {@code nodeName}, {@code nodeSelector}, {@code allNodes} and
 * {@code perDeviceNodeSelection} (then each device has exactly one of its own, else none), devices or
 * {@code sharedCounters} but not both, at most 8 counter sets with unique DNS-label names and 1 to 32 counters each,
 * at most 2 counter consumptions per device with 1 to 32 counters, at most 128 devices (64 when a device has taints
 * or consumes counters) with unique DNS-label names, attribute and capacity names that are qualified names, and at
 * most 16 taints per device, each with a label-name key and a label value. It throws
 * {@link io.fleetkit.api.ValidationException} when a rule is broken.
 */
public record ResourceSlice(ObjectMeta metadata, ResourceSliceSpec spec) implements ApiObject<ResourceSlice> {
  public static final String API_VERSION = "resource.k8s.io/v1";
  public static final String KIND = "ResourceSlice";
  /** Kubernetes' {@code ResourceSliceMaxDevices}. */
  public static final int MAX_DEVICES = 128;
  /**
   * Kubernetes' {@code ResourceSliceMaxDevicesWithTaintsOrConsumesCounters}: the limit when a device of the slice has
   * taints.
   */
  public static final int MAX_DEVICES_WITH_TAINTS = 64;

  public ResourceSlice {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    validate(metadata, spec);
  }

  public static ResourceSlice of(String name, ResourceSliceSpec spec) {
    return new ResourceSlice(ObjectMeta.of(name), spec);
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
  public ResourceSlice withMetadata(ObjectMeta m) {
    return new ResourceSlice(m, spec);
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  @Override
  public ResourceSlice withStatusOf(ResourceSlice other) {
    return this;
  }

  private static void validate(ObjectMeta metadata, ResourceSliceSpec spec) {
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, false);
    DraChecks.driverName(v, "spec.driver", spec.driver());
    DraChecks.poolName(v, "spec.pool.name", spec.pool().name());
    v.nonNegative("spec.pool.generation", spec.pool().generation());
    if (spec.pool().resourceSliceCount() <= 0) {
      v.add("spec.pool.resourceSliceCount", Violations.POSITIVE, spec.pool().resourceSliceCount());
    }
    List<String> set = new ArrayList<>(4);
    if (spec.nodeName() != null) {
      set.add("`nodeName`");
    }
    if (spec.nodeSelector() != null) {
      set.add("`nodeSelector`");
    }
    if (spec.allNodes()) {
      set.add("`allNodes`");
    }
    if (spec.perDeviceNodeSelection()) {
      set.add("`perDeviceNodeSelection`");
    }
    if (set.isEmpty()) {
      v.required("spec", "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required");
    } else if (set.size() > 1) {
      v.add("spec", "Invalid value: {" + String.join(", ", set) + "}: exactly one of `nodeName`, `nodeSelector`, "
          + "`allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set", null);
    }
    if (spec.nodeName() != null) {
      v.dnsSubdomain("spec.nodeName", spec.nodeName());
    }
    if (spec.nodeSelector() != null && spec.nodeSelector().nodeSelectorTerms().size() != 1) {
      v.add("spec.nodeSelector.nodeSelectorTerms", "must have exactly one node selector term",
          spec.nodeSelector().nodeSelectorTerms().size());
    }
    if (!spec.sharedCounters().isEmpty() && !spec.devices().isEmpty()) {
      v.add("spec", "Invalid value: \"\": only one of `sharedCounters` or `devices` is allowed", null);
    }
    int maxDevices = spec.devices().stream().anyMatch(d -> !d.taints().isEmpty() || !d.consumesCounters().isEmpty())
        ? MAX_DEVICES_WITH_TAINTS : MAX_DEVICES;
    if (spec.devices().size() > maxDevices) {
      v.add("spec.devices", DraChecks.tooMany(maxDevices), spec.devices().size());
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < spec.devices().size(); i++) {
      Device d = spec.devices().get(i);
      String path = "spec.devices[" + i + "]";
      v.dnsLabel(path + ".name", d.name());
      if (!d.name().isEmpty() && !names.add(d.name())) {
        v.add(path + ".name", Violations.DUPLICATE, d.name());
      }
      for (String a : d.attributes().keySet()) {
        DraChecks.qualifiedName(v, path + ".attributes[" + a + "]", a);
      }
      for (String c : d.capacity().keySet()) {
        DraChecks.qualifiedName(v, path + ".capacity[" + c + "]", c);
      }
      DraChecks.taints(v, path + ".taints", d.taints());
      consumesCounters(v, path + ".consumesCounters", d.consumesCounters());
      deviceNodeSelection(v, path, d, spec.perDeviceNodeSelection());
    }
    List<CounterSet> sets = spec.sharedCounters();
    if (sets.size() > CounterSet.MAX_PER_SLICE) {
      v.add("spec.sharedCounters", DraChecks.tooMany(CounterSet.MAX_PER_SLICE), sets.size());
    }
    Set<String> setNames = new HashSet<>();
    for (int i = 0; i < sets.size(); i++) {
      CounterSet cs = sets.get(i);
      String path = "spec.sharedCounters[" + i + "]";
      counterName(v, path + ".name", cs.name());
      if (!cs.name().isEmpty() && !setNames.add(cs.name())) {
        v.add(path + ".name", Violations.DUPLICATE, cs.name());
      }
      counters(v, path + ".counters", cs.counters(), CounterSet.MAX_COUNTERS);
    }
    v.throwIfAny();
  }

  /** {@code validateDeviceCounterConsumption} for each entry, at most 2 of them, with unique counter sets. */
  private static void consumesCounters(Violations v, String field, List<DeviceCounterConsumption> consumption) {
    if (consumption.size() > DeviceCounterConsumption.MAX_PER_DEVICE) {
      v.add(field, DraChecks.tooMany(DeviceCounterConsumption.MAX_PER_DEVICE), consumption.size());
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < consumption.size(); i++) {
      DeviceCounterConsumption c = consumption.get(i);
      String path = field + "[" + i + "]";
      counterName(v, path + ".counterSet", c.counterSet());
      if (!c.counterSet().isEmpty() && !seen.add(c.counterSet())) {
        v.add(path, Violations.DUPLICATE, c.counterSet());
      }
      counters(v, path + ".counters", c.counters(), DeviceCounterConsumption.MAX_COUNTERS);
    }
  }

  private static void counterName(Violations v, String field, String name) {
    if (name.isEmpty()) {
      v.required(field);
    } else {
      v.dnsLabel(field, name);
    }
  }

  private static void counters(Violations v, String field, Map<String, Quantity> counters, int max) {
    if (counters.isEmpty()) {
      v.required(field);
      return;
    }
    if (counters.size() > max) {
      v.add(field, DraChecks.tooMany(max), counters.size());
    }
    for (String name : new TreeSet<>(counters.keySet())) {
      v.dnsLabel(field + "[" + name + "]", name);
    }
  }

  /** A device's own node selection: exactly one of its three fields with per-device node selection, else none. */
  private static void deviceNodeSelection(Violations v, String path, Device d, boolean perDevice) {
    if (!perDevice) {
      if (d.hasNodeSelection()) {
        v.add(path, "Invalid value: null: `nodeName`, `nodeSelector` and `allNodes` can only be set if "
            + "`perDeviceNodeSelection` is set to true in the ResourceSlice spec", null);
      }
      return;
    }
    List<String> set = new ArrayList<>(3);
    if (d.nodeName() != null) {
      if (d.nodeName().isEmpty()) {
        v.add(path + ".nodeName", "must not be empty", d.nodeName());
      } else {
        set.add("`nodeName`");
        v.dnsSubdomain(path + ".nodeName", d.nodeName());
      }
    }
    if (d.nodeSelector() != null) {
      set.add("`nodeSelector`");
    }
    if (d.allNodes()) {
      set.add("`allNodes`");
    }
    String rule = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
        + "`perDeviceNodeSelection` is set to true in the ResourceSlice spec";
    if (set.isEmpty()) {
      v.required(path, rule);
    } else if (set.size() > 1) {
      v.add(path, "Invalid value: {" + String.join(", ", set) + "}: " + rule, null);
    }
  }
}
