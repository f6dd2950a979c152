package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A machine shape the provisioner may launch (a Karpenter instance type with one offering): what it offers, the
 * labels its nodes carry (architecture, zone, capacity type...), its taints and its price.
 *
 * @param capacity allocatable resources of a node of this type, including {@code pods}
 * @param pricePerHour finite and not negative
 */
public record InstanceType(String name, ResourceList capacity, Map<String, String> labels, List<Taint> taints,
    double pricePerHour) {
  public InstanceType {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(capacity, "capacity");
    labels = Map.copyOf(labels);
    taints = List.copyOf(taints);
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
  }

  /** A type without labels or taints. */
  public static InstanceType of(String name, ResourceList capacity, double pricePerHour) {
    return new InstanceType(name, capacity, Map.of(), List.of(), pricePerHour);
  }
}
