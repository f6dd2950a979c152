package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.store.ObjectStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The store's objects an autoscaler simulation's plugins read besides nodes and pods, by kind. */
final class SimulationObjects {
  private SimulationObjects() {}

  /** The budgets, priority classes and DRA objects ({@link #dra}) of {@code store}. */
  static Map<Class<?>, List<?>> all(ObjectStore store) {
    Map<Class<?>, List<?>> objects = new HashMap<>();
    objects.put(PodDisruptionBudget.class, store.list(PodDisruptionBudget.class).items());
    objects.put(PriorityClass.class, store.list(PriorityClass.class).items());
    objects.putAll(dra(store));
    return objects;
  }

  /**
   * The store's ResourceClaims, ResourceSlices and DeviceClasses by kind, for a simulation's DRA state; empty when the
   * store has none of them (then no pod can have its claims allocated, and the simulation need not track them).
   */
  static Map<Class<?>, List<?>> dra(ObjectStore store) {
    List<DeviceClass> classes = store.list(DeviceClass.class).items();
    List<ResourceSlice> slices = store.list(ResourceSlice.class).items();
    List<ResourceClaim> claims = store.list(ResourceClaim.class).items();
    if (classes.isEmpty() && slices.isEmpty() && claims.isEmpty()) {
      return Map.of();
    }
    return Map.of(DeviceClass.class, classes, ResourceSlice.class, slices, ResourceClaim.class, claims);
  }
}
