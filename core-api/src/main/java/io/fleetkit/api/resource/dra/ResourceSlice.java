package io.fleetkit.api.resource.dra;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A ResourceSlice ({@code resource.k8s.io/v1}, cluster-scoped): part of a driver's pool of devices.
 *
 * <p>The constructor checks Kubernetes' rules ({@code ValidateResourceSlice}): the name is a DNS-1123 subdomain,
 * the driver a DNS subdomain of at most 63 characters, the pool name set, its generation not negative and its slice
 * count greater than zero, exactly one of {@code nodeName}, {@code nodeSelector} and {@code allNodes}, at most 128
 * devices (64 when a device has taints) with unique DNS-label names, attribute and capacity names that are qualified
 * names, and at most 16 taints per device, each with a label-name key and a label value. It throws
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
    int selections = (spec.nodeName() != null ? 1 : 0) + (spec.nodeSelector() != null ? 1 : 0)
        + (spec.allNodes() ? 1 : 0);
    if (selections == 0) {
      v.required("spec", "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required");
    } else if (selections > 1) {
      v.add("spec", "Invalid value: {`nodeName`, `nodeSelector`, `allNodes`}: exactly one of `nodeName`, "
          + "`nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set", null);
    }
    if (spec.nodeName() != null) {
      v.dnsSubdomain("spec.nodeName", spec.nodeName());
    }
    if (spec.nodeSelector() != null && spec.nodeSelector().nodeSelectorTerms().size() != 1) {
      v.add("spec.nodeSelector.nodeSelectorTerms", "must have exactly one node selector term",
          spec.nodeSelector().nodeSelectorTerms().size());
    }
    int maxDevices = spec.devices().stream().anyMatch(d -> !d.taints().isEmpty()) ? MAX_DEVICES_WITH_TAINTS
        : MAX_DEVICES;
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
    }
    v.throwIfAny();
  }
}
