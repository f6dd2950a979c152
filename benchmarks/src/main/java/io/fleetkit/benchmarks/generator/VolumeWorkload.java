package io.fleetkit.benchmarks.generator;

import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimStatus;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.PersistentVolumeSource;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.PersistentVolumeStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.StorageClassSpec;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;

/**
 * scheduler_perf's SchedulingCSIPVs (test/integration/scheduler_perf/config/volumes): nodes with 39 attachable CSI
 * volumes each, and pods with one claim each. {@code bound}: every claim is bound to its own pre-created CSI volume,
 * as upstream's {@code pv-csi.yaml} + {@code pvc.yaml}; {@code provision}: every claim is unbound, of a
 * WaitForFirstConsumer class, and provisioned when its pod is scheduled.
 */
public final class VolumeWorkload {
  /** The CSI driver of the volumes (and the provisioner of the class). */
  public static final String DRIVER = "ebs.csi.aws.com";
  /** The WaitForFirstConsumer class of the claims. */
  public static final String CLASS = "csi-wffc";
  /** upstream's {@code node-with-csi-limits}: 39 attachable volumes. */
  public static final int ATTACHABLE = 39;
  private static final ResourceList POD = ResourceList.builder().put("cpu", "100m").put("memory", "500Mi").build();

  private VolumeWorkload() {}

  /** node-default.yaml plus {@code attachable-volumes-csi-<driver>: 39}, zones round robin. */
  public static List<Node> nodes(int count) {
    ResourceList alloc = ResourceList.builder().put("cpu", "4").put("memory", "32Gi").put("pods", "110")
        .put("attachable-volumes-csi-" + DRIVER, Integer.toString(ATTACHABLE)).build();
    List<String> zones = PerfWorkloads.zones(3);
    List<Node> nodes = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String name = "node-" + i;
      nodes.add(Node.builder().name(name).label(PerfWorkloads.HOSTNAME, name)
          .label(PerfWorkloads.ZONE, zones.get(i % zones.size())).capacity(alloc).allocatable(alloc).ready()
          .build());
    }
    return nodes;
  }

  /** Creates the class and, for pods {@code from..from+count-1}, their claims (and volumes when {@code bound}). */
  public static List<Pod> create(ObjectStore store, String prefix, int count, boolean bound) {
    if (store.get(StorageClass.class, "", CLASS).isEmpty()) {
      store.create(StorageClass.of(ObjectMeta.of(CLASS), StorageClassSpec.builder().provisioner(DRIVER)
          .volumeBindingMode(VolumeBindingMode.WaitForFirstConsumer).build()));
    }
    List<Pod> pods = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String name = prefix + i;
      String pvName = "pv-" + name;
      ObjectMeta.Builder meta = ObjectMeta.builder().namespace("default").name("pvc-" + name);
      PersistentVolumeClaimSpec.Builder spec = PersistentVolumeClaimSpec.builder().storage("1Gi")
          .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName(CLASS);
      if (bound) {
        meta.annotation(StorageAnnotations.BIND_COMPLETED, "yes");
        spec.volumeName(pvName);
      }
      PersistentVolumeClaim claim = store.create(PersistentVolumeClaim.of(meta.build(), spec.build()));
      if (bound) {
        store.updateStatus(claim.withStatus(PersistentVolumeClaimStatus.bound(
            List.of(PersistentVolumeAccessMode.ReadWriteOnce), ResourceList.builder().put("storage", "1Gi").build())));
        store.create(new PersistentVolume(ObjectMeta.of(pvName), PersistentVolumeSpec.builder().storage("1Gi")
            .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName(CLASS)
            .claimRef(ClaimReference.to(claim)).source(PersistentVolumeSource.Csi.of(DRIVER, pvName)).build(),
            PersistentVolumeStatus.of(PersistentVolumePhase.Bound)));
      }
      pods.add(Pod.builder().namespace("default").name(name)
          .container("pause", "registry.k8s.io/pause:3.10", POD, POD)
          .volume(Volume.persistentVolumeClaim("vol", "pvc-" + name)).build());
    }
    return pods;
  }
}
