package io.fleetkit.storage.scheduling;

import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.storage.PersistentVolumeController;
import java.util.Objects;

/**
 * Wires the storage plugins into a scheduler: {@link #registry} adds them to a plugin registry against a
 * {@link PersistentVolumeController} (whose store they read and bind into), {@link #enableIn} turns them on in a
 * profile.
 *
 * <pre>{@code
 * PersistentVolumeController pvc = PersistentVolumeController.builder(store).provisioner(p).build();
 * Scheduler s = Scheduler.builder()
 *     .registry(StoragePlugins.registry(PluginRegistry.defaults(), pvc))
 *     .profile(StoragePlugins.enableIn(DefaultPlugins.profile()))
 *     .build();
 * }</pre>
 */
public final class StoragePlugins {
  private StoragePlugins() {}

  /**
   * {@code base} plus VolumeRestrictions, VolumeBinding, VolumeZone, NodeVolumeLimits and DataLocality.
   *
   * @throws IllegalArgumentException if {@code base} already has one of those names
   */
  public static PluginRegistry registry(PluginRegistry base, PersistentVolumeController controller) {
    Objects.requireNonNull(controller, "controller");
    return base.toBuilder()
        .register(VolumeRestrictionsPlugin.NAME, VolumeRestrictionsPlugin.factory(controller.store()))
        .register(VolumeBindingPlugin.NAME, VolumeBindingPlugin.factory(controller))
        .register(VolumeZonePlugin.NAME, VolumeZonePlugin.factory(controller.store()))
        .register(NodeVolumeLimitsPlugin.NAME, NodeVolumeLimitsPlugin.factory(controller.store()))
        .register(DataLocalityPlugin.NAME, DataLocalityPlugin.factory(controller.store()))
        .build();
  }

  /**
   * {@code profile} with VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone (filters, in the order of
   * kube's default profile, which has them) and DataLocality (score, weight 1) appended unless already enabled; other
   * plugins keep their order and weights.
   */
  public static SchedulerProfile enableIn(SchedulerProfile profile) {
    SchedulerProfile.Builder b = profile.toBuilder();
    for (String name : new String[] {VolumeRestrictionsPlugin.NAME, NodeVolumeLimitsPlugin.NAME, VolumeBindingPlugin.NAME, VolumeZonePlugin.NAME,
        DataLocalityPlugin.NAME}) {
      if (profile.plugins().stream().noneMatch(p -> p.name().equals(name))) {
        b.plugin(name, 1);
      }
    }
    return b.build();
  }
}
