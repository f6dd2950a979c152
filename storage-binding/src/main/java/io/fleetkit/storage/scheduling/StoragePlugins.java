package io.fleetkit.storage.scheduling;

import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.storage.PersistentVolumeController;
import java.util.ArrayList;
import java.util.List;
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
   * {@code profile} with VolumeRestrictions, NodeVolumeLimits, VolumeBinding and VolumeZone (weight 1) where kube's
   * default profile has them, and DataLocality (score, weight 1) at the end, each unless already enabled; the other
   * plugins keep their order and weights. Each volume plugin goes right after the last plugin of the profile that
   * kube's default profile ({@link DefaultPlugins#kubeDefaultNames()}) places before it, so on kube's default profile
   * they run after NodeResourcesFit and before PodTopologySpread, as in kube-scheduler (which matters for the plugin
   * a node's Filter rejection is reported from: the first that rejects).
   */
  public static SchedulerProfile enableIn(SchedulerProfile profile) {
    List<String> kube = DefaultPlugins.kubeDefaultNames();
    List<SchedulerProfile.PluginRef> plugins = new ArrayList<>(profile.plugins());
    for (String name : new String[] {VolumeRestrictionsPlugin.NAME, NodeVolumeLimitsPlugin.NAME,
        VolumeBindingPlugin.NAME, VolumeZonePlugin.NAME}) {
      if (enabled(plugins, name)) {
        continue;
      }
      int rank = kube.indexOf(name);
      int at = 0;
      for (int i = 0; i < plugins.size(); i++) {
        int r = kube.indexOf(plugins.get(i).name());
        if (r >= 0 && r < rank) {
          at = i + 1;
        }
      }
      plugins.add(at, new SchedulerProfile.PluginRef(name, 1));
    }
    if (!enabled(plugins, DataLocalityPlugin.NAME)) {
      plugins.add(new SchedulerProfile.PluginRef(DataLocalityPlugin.NAME, 1));
    }
    return profile.withPlugins(plugins);
  }

  private static boolean enabled(List<SchedulerProfile.PluginRef> plugins, String name) {
    for (SchedulerProfile.PluginRef p : plugins) {
      if (p.name().equals(name)) {
        return true;
      }
    }
    return false;
  }
}
