package io.fleetkit.storage.provision;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeSource;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.labels.Validation;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.storage.TopologyLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A provisioner that hands out volumes from a capacity per zone, for tests, simulations and the CLI. Volumes are
 * CSI volumes of driver {@link #driver()} (the provisioner's name, made a CSI driver name when it is not one:
 * {@code kubernetes.io/aws-ebs} gives {@code kubernetes.io.aws-ebs}), labelled with their zone and pinned to it by node
 * affinity.
 *
 * <p>With no zone configured ({@link #unlimited}) capacity is unbounded and a volume is pinned to the selected
 * node's zone when it has one. Otherwise a volume for a selected node goes to that node's zone; an Immediate volume
 * goes to the allowed zone with the most free capacity (ties by name). Capacity is counted in bytes of the
 * claim's request and returned when a volume is deleted. Thread-safe.
 */
public final class InMemoryProvisioner implements VolumeProvisioner {
  private final String name;
  private final String driver;
  private final String topologyKey;
  private final @Nullable Map<String, Long> capacity;
  private final Map<String, Long> used = new HashMap<>();
  private final Map<String, Allocation> allocations = new HashMap<>();

  private record Allocation(String zone, long bytes) {}

  private InMemoryProvisioner(String name, String topologyKey, @Nullable Map<String, Long> capacity) {
    this.name = name;
    this.driver = driverName(name);
    this.topologyKey = topologyKey;
    this.capacity = capacity;
  }

  /** A provisioner with unbounded capacity. */
  public static InMemoryProvisioner unlimited(String name) {
    return new InMemoryProvisioner(checkName(name), TopologyLabels.ZONE, null);
  }

  /**
   * A provisioner with {@code capacityPerZone} (zone to a quantity such as {@code 100Gi}) on the
   * {@link TopologyLabels#ZONE} label.
   *
   * @throws IllegalArgumentException if a capacity is negative
   */
  public static InMemoryProvisioner withZones(String name, Map<String, String> capacityPerZone) {
    Map<String, Long> caps = new LinkedHashMap<>();
    capacityPerZone.forEach((zone, q) -> caps.put(zone, bytes("zone " + zone, Quantity.parse(q))));
    return new InMemoryProvisioner(checkName(name), TopologyLabels.ZONE, caps);
  }

  private static String checkName(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("in-memory provisioner: name must not be empty");
    }
    return name;
  }

  private static long bytes(String what, Quantity q) {
    if (q.signum() < 0) {
      throw new IllegalArgumentException("in-memory provisioner: capacity of " + what + " " + q
          + " must not be negative");
    }
    return q.value();
  }

  @Override
  public String name() {
    return name;
  }

  /** The CSI driver of this provisioner's volumes. */
  public String driver() {
    return driver;
  }

  /**
   * {@code name} when it is a CSI driver name (a DNS-1123 subdomain of at most 63 characters, upstream's
   * {@code ValidateCSIDriverName}), else {@code name} in lower case with every other character replaced by a dot,
   * dots at its ends dropped and cut to 63 characters: a StorageClass's {@code provisioner} may be any qualified name
   * ({@code example.com/local}), a CSI driver's may not.
   */
  static String driverName(String name) {
    if (name.length() <= 63 && Validation.isDNS1123Subdomain(name).isEmpty()) {
      return name;
    }
    StringBuilder b = new StringBuilder();
    for (char c : name.toLowerCase(Locale.ROOT).toCharArray()) {
      b.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ? c : '.');
    }
    String d = b.toString().replaceAll("\\.{2,}", ".").replaceAll("^[.-]+|[.-]+$", "");
    if (d.length() > 63) {
      d = d.substring(0, 63).replaceAll("[.-]+$", "");
    }
    return d.isEmpty() ? "in-memory.csi.fleetkit.io" : d;
  }

  /**
   * Sets the capacity of {@code zone} (adding the zone), e.g. after a failed provisioning, so that the retry
   * succeeds.
   *
   * @throws IllegalStateException for an {@link #unlimited} provisioner
   */
  public synchronized void setCapacity(String zone, String quantity) {
    if (capacity == null) {
      throw new IllegalStateException("in-memory provisioner " + name + ": capacity is unlimited, no zone to set");
    }
    capacity.put(zone, bytes("zone " + zone, Quantity.parse(quantity)));
  }

  /** Bytes still free in {@code zone}: {@link Long#MAX_VALUE} when unlimited, 0 for an unknown zone. */
  public synchronized long free(String zone) {
    if (capacity == null) {
      return Long.MAX_VALUE;
    }
    return capacity.getOrDefault(zone, 0L) - used.getOrDefault(zone, 0L);
  }

  /** How many volumes this provisioner holds now. */
  public synchronized int volumeCount() {
    return allocations.size();
  }

  @Override
  public synchronized ProvisionResult provision(ProvisionRequest request) {
    if (allocations.containsKey(request.volumeName())) {
      return ProvisionResult.failed("volume " + request.volumeName() + " already exists");
    }
    PersistentVolumeClaim claim = request.claim();
    long size = claim.requestedStorage().value();
    StorageClass sc = request.storageClass();
    Node node = request.selectedNode();
    String zone;
    if (node != null) {
      zone = node.metadata().labels().get(topologyKey);
      if (zone == null && capacity != null) {
        return ProvisionResult.failed("node " + node.name() + " has no " + topologyKey + " label; "
            + name + " provisions per zone");
      }
      if (zone != null && !sc.allowsTopology(Map.of(topologyKey, zone))) {
        return ProvisionResult.failed("zone " + zone + " of node " + node.name()
            + " is not in the allowedTopologies of storage class " + sc.metadata().name());
      }
    } else if (capacity == null) {
      zone = null;
    } else {
      zone = bestZone(sc, size);
      if (zone == null) {
        return ProvisionResult.failed("no zone allowed by storage class " + sc.metadata().name()
            + " has " + claim.requestedStorage() + " free");
      }
    }
    if (zone != null && capacity != null) {
      long free = free(zone);
      if (free < size) {
        return ProvisionResult.failed("insufficient capacity in zone " + zone + ": requested "
            + claim.requestedStorage() + ", free " + Math.max(0, free) + " bytes");
      }
    }
    String key = zone == null ? "" : zone;
    ObjectMeta.Builder meta = ObjectMeta.builder().name(request.volumeName());
    PersistentVolumeSpec.Builder spec = PersistentVolumeSpec.builder()
        .capacity(ResourceList.builder().put("storage", claim.requestedStorage()).build())
        .accessModes(claim.spec().accessModes())
        .persistentVolumeReclaimPolicy(sc.reclaimPolicy())
        .storageClassName(sc.metadata().name())
        .volumeMode(claim.spec().volumeMode())
        .mountOptions(sc.spec().mountOptions())
        .source(PersistentVolumeSource.Csi.of(driver, request.volumeName()));
    if (zone != null) {
      meta.label(topologyKey, zone);
      spec.nodeAffinity(TopologyLabels.affinity(topologyKey, zone));
    }
    PersistentVolume volume;
    try {
      volume = PersistentVolume.of(meta.build(), spec.build());
    } catch (ValidationException e) {
      // nothing is held for a volume that cannot be made: the next attempt starts afresh
      return ProvisionResult.failed(e.getMessage());
    }
    used.merge(key, size, Long::sum);
    allocations.put(request.volumeName(), new Allocation(key, size));
    return ProvisionResult.provisioned(volume);
  }

  private @Nullable String bestZone(StorageClass sc, long size) {
    List<String> zones = new ArrayList<>(Objects.requireNonNull(capacity).keySet());
    zones.sort(String::compareTo);
    String best = null;
    long bestFree = -1;
    for (String z : zones) {
      long f = free(z);
      if (f >= size && f > bestFree && sc.allowsTopology(Map.of(topologyKey, z))) {
        best = z;
        bestFree = f;
      }
    }
    return best;
  }

  @Override
  public synchronized Optional<String> delete(PersistentVolume volume) {
    Allocation a = allocations.remove(volume.metadata().name());
    if (a == null) {
      return Optional.of("volume " + volume.metadata().name() + " was not provisioned by " + name);
    }
    used.merge(a.zone(), -a.bytes(), Long::sum);
    return Optional.empty();
  }

  @Override
  public synchronized boolean hasCapacity(StorageClass storageClass, Node node, Quantity size) {
    if (capacity == null) {
      return true;
    }
    String zone = node.metadata().labels().get(topologyKey);
    return zone != null && free(zone) >= size.value();
  }

  @Override
  public String toString() {
    return "InMemoryProvisioner(" + name + (capacity == null ? ", unlimited" : ", " + capacity) + ")";
  }
}
