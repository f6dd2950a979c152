package io.fleetkit.storage.scheduling;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeSource;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.StorageClassSpec;
import io.fleetkit.api.storage.TopologySelectorLabelRequirement;
import io.fleetkit.api.storage.TopologySelectorTerm;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.storage.PersistentVolumeController;
import io.fleetkit.storage.TopologyLabels;
import io.fleetkit.storage.provision.InMemoryProvisioner;
import io.fleetkit.storage.provision.VolumeProvisioner;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** A store, a PV controller with provisioners, and a scheduler with the storage plugins, on a manual clock. */
final class StorageCluster implements AutoCloseable {
  static final String ZONAL = "zonal.csi.fleetkit.io";
  final ManualClock clock = ManualClock.atEpoch2026();
  final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
  final PersistentVolumeController controller;
  final Scheduler scheduler;

  StorageCluster(VolumeProvisioner... provisioners) {
    this(Map.of(), provisioners);
  }

  StorageCluster(Map<String, Object> dataLocalityArgs, VolumeProvisioner... provisioners) {
    PersistentVolumeController.Builder b = PersistentVolumeController.builder(store).clock(clock);
    for (VolumeProvisioner p : provisioners) {
      b.provisioner(p);
    }
    controller = b.build();
    SchedulerProfile profile = StoragePlugins.enableIn(DefaultPlugins.profile()).toBuilder()
        .pluginArgs(DataLocalityPlugin.NAME, dataLocalityArgs).build();
    scheduler = Scheduler.builder().clock(clock).parallelism(1)
        .registry(StoragePlugins.registry(PluginRegistry.defaults(), controller)).profile(profile).build();
  }

  static InMemoryProvisioner zonal(String... zoneCapacity) {
    Map<String, String> caps = new java.util.LinkedHashMap<>();
    for (int i = 0; i < zoneCapacity.length; i += 2) {
      caps.put(zoneCapacity[i], zoneCapacity[i + 1]);
    }
    return InMemoryProvisioner.withZones(ZONAL, caps);
  }

  Node node(String name, String zone, Map<String, String> extraAllocatable, Map<String, String> labels) {
    ResourceList.Builder alloc = ResourceList.builder().put("cpu", "4").put("memory", "8Gi").put("pods", "110");
    extraAllocatable.forEach(alloc::put);
    Node.Builder nb = Node.builder().name(name).labels(labels).label(TopologyLabels.ZONE, zone)
        .label("kubernetes.io/hostname", name).capacity(alloc.build()).ready();
    Node n = nb.build();
    store.create(n);
    scheduler.addNode(n);
    return n;
  }

  Node node(String name, String zone) {
    return node(name, zone, Map.of(), Map.of());
  }

  void storageClass(String name, String provisioner, VolumeBindingMode mode, String... allowedZones) {
    StorageClassSpec.Builder b = StorageClassSpec.builder().provisioner(provisioner).volumeBindingMode(mode);
    if (allowedZones.length > 0) {
      b.allowedTopology(TopologySelectorTerm.of(
          TopologySelectorLabelRequirement.of(TopologyLabels.ZONE, allowedZones)));
    }
    StorageClass sc = StorageClass.of(ObjectMeta.of(name), b.build());
    store.create(sc);
    scheduler.addObject(sc);
  }

  /** A static CSI volume, pinned to {@code zone} by node affinity when not null, made Available. */
  PersistentVolume pv(String name, String size, String cls, String zone,
      UnaryOperator<PersistentVolumeSpec.Builder> spec) {
    PersistentVolumeSpec.Builder b = PersistentVolumeSpec.builder().storage(size)
        .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName(cls)
        .source(PersistentVolumeSource.Csi.of("static.csi.fleetkit.io", name));
    if (zone != null) {
      b.nodeAffinity(TopologyLabels.affinity(TopologyLabels.ZONE, zone));
    }
    store.create(PersistentVolume.of(ObjectMeta.of(name), spec.apply(b).build()));
    controller.syncVolume(name);
    return volume(name);
  }

  PersistentVolume pv(String name, String size, String cls, String zone) {
    return pv(name, size, cls, zone, b -> b);
  }

  PersistentVolumeClaim pvc(String name, String size, String cls) {
    return store.create(PersistentVolumeClaim.of(ObjectMeta.of("default", name),
        PersistentVolumeClaimSpec.builder().storage(size).accessMode(PersistentVolumeAccessMode.ReadWriteOnce)
            .storageClassName(cls).build()));
  }

  static Pod pod(String name, String... claims) {
    Pod.Builder b = Pod.builder().namespace("default").name(name).uid(name)
        .container("c", "img", ResourceList.builder().put("cpu", "100m").build());
    for (String c : claims) {
      b.volume(Volume.persistentVolumeClaim(c, c));
    }
    return b.build();
  }

  ScheduleResult schedule(Pod pod) {
    scheduler.addPod(pod);
    List<ScheduleResult> results = scheduler.runUntilIdle();
    return results.get(results.size() - 1);
  }

  PersistentVolume volume(String name) {
    return store.require(PersistentVolume.class, "", name);
  }

  PersistentVolumeClaim claim(String name) {
    return store.require(PersistentVolumeClaim.class, "default", name);
  }

  @Override
  public void close() {
    scheduler.close();
    store.close();
  }
}
