package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.autoscaling.ResourceSliceTemplate;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.scheduling.Taint;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A machine shape the provisioner may launch (a Karpenter instance type with one offering): what it offers, the
 * labels its nodes carry (architecture, zone, capacity type...), its taints, its price, and the DRA devices every node
 * of the type has, as {@link ResourceSliceTemplate}s (those of a NodePool's {@code spec.template.resourceSlices}: one
 * node-local slice per template, {@link #resourceSlicesFor}).
 *
 * @param capacity allocatable resources of a node of this type, including {@code pods}
 * @param pricePerHour finite and not negative
 * @param resourceSlices the device templates of a node of this type; no two of one driver and pool
 */
public record InstanceType(String name, ResourceList capacity, Map<String, String> labels, List<Taint> taints,
    double pricePerHour, List<ResourceSliceTemplate> resourceSlices) {
  /** A node name to check the device templates' slices with. */
  private static final String PROBE_NODE = "node";

  public InstanceType {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(capacity, "capacity");
    labels = Map.copyOf(labels);
    taints = List.copyOf(taints);
    resourceSlices = List.copyOf(resourceSlices);
    if (name.isEmpty()) {
      throw new IllegalArgumentException("instance type: name must not be empty");
    }
    if (!(pricePerHour >= 0) || Double.isInfinite(pricePerHour)) {
      throw new IllegalArgumentException("instance type " + name + ": pricePerHour " + pricePerHour
          + " must be a finite number greater than or equal to 0");
    }
    if (capacity.pods() <= 0) {
      throw new IllegalArgumentException("instance type " + name + ": capacity.pods must be positive, was "
          + capacity.pods());
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < resourceSlices.size(); i++) {
      ResourceSliceTemplate t = resourceSlices.get(i);
      if (!seen.add(t.driver() + "\n" + t.pool())) {
        throw new IllegalArgumentException("instance type " + name + ": resourceSlices[" + i + "]: driver "
            + t.driver() + " pool \"" + t.pool() + "\" is listed twice; a driver's pools must be unique");
      }
      try {
        t.sliceFor(PROBE_NODE);
      } catch (ValidationException e) {
        throw new IllegalArgumentException("instance type " + name + ": resourceSlices[" + i + "]: "
            + e.getMessage(), e);
      }
    }
  }

  /** A type without DRA devices. */
  public InstanceType(String name, ResourceList capacity, Map<String, String> labels, List<Taint> taints,
      double pricePerHour) {
    this(name, capacity, labels, taints, pricePerHour, List.of());
  }

  /** A type without labels, taints or DRA devices. */
  public static InstanceType of(String name, ResourceList capacity, double pricePerHour) {
    return new InstanceType(name, capacity, Map.of(), List.of(), pricePerHour, List.of());
  }

  /** This type with more device templates. */
  public InstanceType withResourceSlices(ResourceSliceTemplate... more) {
    List<ResourceSliceTemplate> all = new ArrayList<>(resourceSlices);
    all.addAll(List.of(more));
    return new InstanceType(name, capacity, labels, taints, pricePerHour, all);
  }

  /**
   * The node-local ResourceSlices a node of this type named {@code nodeName} has, one per device template
   * ({@link ResourceSliceTemplate#sliceFor}); empty for a type without devices.
   */
  public List<ResourceSlice> resourceSlicesFor(String nodeName) {
    return ResourceSliceTemplate.slicesFor(resourceSlices, nodeName);
  }
}
