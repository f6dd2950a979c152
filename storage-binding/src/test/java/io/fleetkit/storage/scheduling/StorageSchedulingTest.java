package io.fleetkit.storage.scheduling;

import static io.fleetkit.storage.scheduling.StorageCluster.ZONAL;
import static io.fleetkit.storage.scheduling.StorageCluster.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimTemplate;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.storage.EphemeralVolumes;
import io.fleetkit.storage.TopologyLabels;
import io.fleetkit.storage.provision.InMemoryProvisioner;
import io.fleetkit.storage.provision.ProvisionRequest;
import io.fleetkit.storage.provision.ProvisionResult;
import io.fleetkit.storage.provision.VolumeProvisioner;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The storage plugins inside a real scheduler: placement, binding, provisioning and the user-facing messages. */
final class StorageSchedulingTest {

  @Test
  void schedule_waitForFirstConsumerStaticVolumeInOneZone_placesPodThereAndBinds() {
    try (StorageCluster c = new StorageCluster(StorageCluster.zonal("zone-a", "100Gi", "zone-b", "100Gi"))) {
      c.node("a-1", "zone-a");
      c.node("b-1", "zone-b");
      c.storageClass("local", StorageAnnotations.NO_PROVISIONER, VolumeBindingMode.WaitForFirstConsumer);
      c.pv("pv-b", "10Gi", "local", "zone-b");
      c.pvc("data", "5Gi", "local");

      ScheduleResult r = c.schedule(pod("web", "data"));

      assertThat(r.isBound()).as(r.message()).isTrue();
      assertThat(r.nodeName()).isEqualTo("b-1");
      assertThat(c.claim("data").spec().volumeName()).isEqualTo("pv-b");
      assertThat(c.claim("data").status().phase()).isEqualTo(PersistentVolumeClaimPhase.Bound);
      assertThat(c.volume("pv-b").status().phase()).isEqualTo(PersistentVolumePhase.Bound);
    }
  }

  @Test
  void schedule_waitForFirstConsumerDynamic_provisionsInTheChosenNodesZone() {
    InMemoryProvisioner p = StorageCluster.zonal("zone-a", "0", "zone-b", "100Gi");
    try (StorageCluster c = new StorageCluster(p)) {
      c.node("a-1", "zone-a");
      c.node("b-1", "zone-b");
      c.storageClass("fast", ZONAL, VolumeBindingMode.WaitForFirstConsumer);
      c.pvc("data", "5Gi", "fast");

      ScheduleResult r = c.schedule(pod("web", "data"));

      assertThat(r.nodeName()).as(r.message()).isEqualTo("b-1");
      PersistentVolume pv = c.volume(c.claim("data").spec().volumeName());
      assertThat(pv.metadata().labels()).containsEntry(TopologyLabels.ZONE, "zone-b");
      assertThat(c.claim("data").metadata().annotations()).containsEntry(StorageAnnotations.SELECTED_NODE, "b-1");
      assertThat(p.free("zone-b")).isEqualTo(95L << 30);
    }
  }

  @Test
  void schedule_noZoneHasCapacity_saysNotEnoughFreeStorage() {
    try (StorageCluster c = new StorageCluster(StorageCluster.zonal("zone-a", "1Gi", "zone-b", "1Gi"))) {
      c.node("a-1", "zone-a");
      c.node("b-1", "zone-b");
      c.storageClass("fast", ZONAL, VolumeBindingMode.WaitForFirstConsumer);
      c.pvc("data", "5Gi", "fast");

      ScheduleResult r = c.schedule(pod("web", "data"));

      assertThat(r.isBound()).isFalse();
      assertThat(r.message()).startsWith("0/2 nodes are available: 2 node(s) did not have enough free storage.");
    }
  }

  @Test
  void schedule_allowedTopologies_restrictsProvisioningZones() {
    try (StorageCluster c = new StorageCluster(StorageCluster.zonal("zone-a", "100Gi", "zone-b", "100Gi"))) {
      c.node("a-1", "zone-a");
      c.node("a-2", "zone-a");
      c.node("b-1", "zone-b");
      c.storageClass("only-b", ZONAL, VolumeBindingMode.WaitForFirstConsumer, "zone-b");
      c.pvc("data", "5Gi", "only-b");

      ScheduleResult r = c.schedule(pod("web", "data"));

      assertThat(r.nodeName()).as(r.message()).isEqualTo("b-1");
    }
  }

  @Test
  void schedule_twoBoundClaimsInDifferentZones_isUnschedulableSayingSo() {
    try (StorageCluster c = new StorageCluster()) {
      c.node("a-1", "zone-a");
      c.node("b-1", "zone-b");
      c.storageClass("std", StorageAnnotations.NO_PROVISIONER, VolumeBindingMode.Immediate);
      c.pv("pv-a", "1Gi", "std", "zone-a", b -> b.claimRef(io.fleetkit.api.core.ClaimReference.of("default",
          "checkpoints")));
      c.pv("pv-b", "1Gi", "std", "zone-b", b -> b.claimRef(io.fleetkit.api.core.ClaimReference.of("default",
          "dataset")));
      c.pvc("checkpoints", "1Gi", "std");
      c.pvc("dataset", "1Gi", "std");
      c.controller.syncAll();
      assertThat(c.claim("checkpoints").spec().volumeName()).isEqualTo("pv-a");
      assertThat(c.claim("dataset").spec().volumeName()).isEqualTo("pv-b");

      ScheduleResult r = c.schedule(pod("trainer", "checkpoints", "dataset"));

      assertThat(r.isBound()).isFalse();
      assertThat(r.message()).startsWith("0/2 nodes are available: pod's bound persistent volumes are in different"
          + " zones, no node can reach them all").contains("checkpoints -> volume pv-a in zone zone-a")
          .contains("dataset -> volume pv-b in zone zone-b");
    }
  }

  @Test
  void schedule_twoPodsForOneStaticVolume_secondFindsNoVolume() {
    try (StorageCluster c = new StorageCluster()) {
      c.node("a-1", "zone-a");
      c.storageClass("local", StorageAnnotations.NO_PROVISIONER, VolumeBindingMode.WaitForFirstConsumer);
      c.pv("only", "10Gi", "local", "zone-a");
      c.pvc("first", "1Gi", "local");
      c.pvc("second", "1Gi", "local");

      assertThat(c.schedule(pod("p1", "first")).isBound()).isTrue();
      ScheduleResult r = c.schedule(pod("p2", "second"));

      assertThat(r.isBound()).isFalse();
      assertThat(r.message()).startsWith(
          "0/1 nodes are available: 1 node(s) didn't find available persistent volumes to bind.");
      assertThat(c.volume("only").spec().claimRef().name()).isEqualTo("first");
    }
  }

  @Test
  void schedule_immediateClaimUnbound_isUnresolvable() {
    try (StorageCluster c = new StorageCluster()) {
      c.node("a-1", "zone-a");
      c.storageClass("std", StorageAnnotations.NO_PROVISIONER, VolumeBindingMode.Immediate);
      c.pvc("data", "1Gi", "std");

      ScheduleResult r = c.schedule(pod("web", "data"));

      assertThat(r.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
      assertThat(r.message()).contains("pod has unbound immediate PersistentVolumeClaims");
    }
  }

  /** Hands out nothing, though it claims capacity everywhere: provisioning fails only at PreBind. */
  private static final class BrokenProvisioner implements VolumeProvisioner {
    @Override
    public String name() {
      return "broken.csi.fleetkit.io";
    }

    @Override
    public ProvisionResult provision(ProvisionRequest request) {
      return ProvisionResult.failed("backend unavailable");
    }

    @Override
    public Optional<String> delete(PersistentVolume volume) {
      return Optional.empty();
    }

    @Override
    public boolean hasCapacity(StorageClass storageClass, Node node, Quantity size) {
      return true;
    }
  }

  @Test
  void schedule_secondClaimFailsToProvision_firstBindingIsRolledBack() {
    try (StorageCluster c = new StorageCluster(new BrokenProvisioner())) {
      c.node("a-1", "zone-a");
      c.storageClass("local", StorageAnnotations.NO_PROVISIONER, VolumeBindingMode.WaitForFirstConsumer);
      c.storageClass("broken", "broken.csi.fleetkit.io", VolumeBindingMode.WaitForFirstConsumer);
      c.pv("pv-local", "1Gi", "local", "zone-a");
      c.pvc("static", "1Gi", "local");
      c.pvc("dynamic", "1Gi", "broken");

      ScheduleResult r = c.schedule(pod("web", "static", "dynamic"));

      assertThat(r.isBound()).isFalse();
      assertThat(r.message()).contains("backend unavailable").contains("rolled back 1 earlier binding(s)");
      assertThat(c.claim("static").spec().volumeName()).isEmpty();
      assertThat(c.volume("pv-local").spec().claimRef()).isNull();
      assertThat(c.volume("pv-local").status().phase()).isEqualTo(PersistentVolumePhase.Available);
      assertThat(c.claim("dynamic").metadata().annotations()).doesNotContainKey(StorageAnnotations.SELECTED_NODE);
      assertThat(c.claim("dynamic").status().conditions()).extracting(cond -> cond.type())
          .contains("ProvisioningFailed");
    }
  }

  @Test
  void schedule_nodeAtAttachLimit_exceedsMaxVolumeCount() {
    try (StorageCluster c = new StorageCluster(InMemoryProvisioner.unlimited(ZONAL))) {
      c.node("small", "zone-a", Map.of(NodeVolumeLimitsPlugin.LIMIT_KEY_PREFIX + ZONAL, "1"), Map.of());
      c.storageClass("fast", ZONAL, VolumeBindingMode.WaitForFirstConsumer);
      c.pvc("one", "1Gi", "fast");
      c.pvc("two", "1Gi", "fast");

      assertThat(c.schedule(pod("p1", "one")).isBound()).isTrue();
      ScheduleResult r = c.schedule(pod("p2", "two"));

      assertThat(r.isBound()).isFalse();
      assertThat(r.message()).startsWith("0/1 nodes are available: 1 node(s) exceed max volume count.");
    }
  }

  @Test
  void schedule_nodeAtAttachLimit_anEphemeralVolumesClaimCountsToo() {
    try (StorageCluster c = new StorageCluster(InMemoryProvisioner.unlimited(ZONAL))) {
      c.node("small", "zone-a", Map.of(NodeVolumeLimitsPlugin.LIMIT_KEY_PREFIX + ZONAL, "1"), Map.of());
      c.storageClass("fast", ZONAL, VolumeBindingMode.WaitForFirstConsumer);
      c.pvc("one", "1Gi", "fast");
      Pod ephemeral = Pod.builder().namespace("default").name("p2").uid("p2")
          .container("c", "img", ResourceList.builder().put("cpu", "100m").build())
          .volume(Volume.ephemeral("scratch", PersistentVolumeClaimTemplate.of(PersistentVolumeClaimSpec.builder()
              .storage("1Gi").accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName("fast")
              .build())))
          .build();
      c.store.create(EphemeralVolumes.claimFor(ephemeral, ephemeral.spec().volumes().get(0)));

      assertThat(c.schedule(pod("p1", "one")).isBound()).isTrue();
      ScheduleResult r = c.schedule(ephemeral);

      assertThat(r.isBound()).isFalse();
      assertThat(r.message()).startsWith("0/1 nodes are available: 1 node(s) exceed max volume count.");
    }
  }

  @Test
  void schedule_boundVolumeLabelledWithZone_volumeZoneFiltersOtherZones() {
    try (StorageCluster c = new StorageCluster()) {
      c.node("a-1", "zone-a");
      c.node("b-1", "zone-b");
      c.storageClass("std", StorageAnnotations.NO_PROVISIONER, VolumeBindingMode.Immediate);
      c.pv("pv", "1Gi", "std", null, b -> b);
      PersistentVolume pv = c.volume("pv");
      c.store.update(pv.withMetadata(pv.metadata().toBuilder().label(TopologyLabels.ZONE, "zone-b").build()));
      c.pvc("data", "1Gi", "std");
      c.controller.syncAll();

      ScheduleResult r = c.schedule(pod("web", "data"));

      assertThat(r.nodeName()).as(r.message()).isEqualTo("b-1");
    }
  }

  @Test
  void schedule_datasetHint_prefersNodeThenZoneHoldingIt() {
    Map<String, Object> args = Map.of(DataLocalityPlugin.ARG_ZONES, Map.of("zone-b", "imagenet"));
    try (StorageCluster c = new StorageCluster(args)) {
      c.node("a-1", "zone-a");
      c.node("b-1", "zone-b");
      c.node("c-1", "zone-c", Map.of(), Map.of(DataLocalityPlugin.NODE_LABEL_PREFIX + "laion", "true"));
      Pod imagenet = Pod.builder().namespace("default").name("reader").uid("reader")
          .annotation(DataLocalityPlugin.DATASETS_ANNOTATION, "imagenet")
          .container("c", "img", io.fleetkit.api.resource.ResourceList.EMPTY).build();
      Pod laion = Pod.builder().namespace("default").name("reader2").uid("reader2")
          .annotation(DataLocalityPlugin.DATASETS_ANNOTATION, "laion")
          .container("c", "img", io.fleetkit.api.resource.ResourceList.EMPTY).build();

      assertThat(c.schedule(imagenet).nodeName()).isEqualTo("b-1");
      assertThat(c.schedule(laion).nodeName()).isEqualTo("c-1");
    }
  }

  @Test
  void enableIn_profile_addsStoragePluginsOnce() {
    var p = StoragePlugins.enableIn(StoragePlugins.enableIn(io.fleetkit.scheduler.DefaultPlugins.profile()));
    assertThat(p.plugins()).extracting(r -> r.name()).containsOnlyOnce(VolumeBindingPlugin.NAME,
        VolumeZonePlugin.NAME, NodeVolumeLimitsPlugin.NAME, DataLocalityPlugin.NAME);
    assertThat(List.of(p.plugins().get(p.plugins().size() - 1).name())).containsExactly(DataLocalityPlugin.NAME);
  }

  /** kube-scheduler's default MultiPoint order (default_plugins.go): the volume plugins after NodeResourcesFit. */
  @Test
  void enableIn_defaultProfile_placesVolumePluginsInKubeOrder() {
    var p = StoragePlugins.enableIn(io.fleetkit.scheduler.DefaultPlugins.profile());
    List<String> names = p.plugins().stream().map(r -> r.name()).toList();
    List<String> kube = io.fleetkit.scheduler.DefaultPlugins.kubeDefaultNames().stream()
        .filter(names::contains).toList();
    assertThat(names.subList(0, kube.size())).containsExactlyElementsOf(kube);
    assertThat(names.subList(names.indexOf("NodeResourcesFit"), names.indexOf("PodTopologySpread") + 1))
        .containsExactly("NodeResourcesFit", VolumeRestrictionsPlugin.NAME, NodeVolumeLimitsPlugin.NAME,
            VolumeBindingPlugin.NAME, VolumeZonePlugin.NAME, "PodTopologySpread");
    assertThat(names.get(names.size() - 1)).isEqualTo(DataLocalityPlugin.NAME);
    assertThat(p.percentageOfNodesToScore()).isNull();
  }

  @Test
  void enableIn_customProfile_keepsItsOrderWeightsAndArguments() {
    var custom = io.fleetkit.api.framework.SchedulerProfile.builder("custom")
        .plugin("PodTopologySpread", 5).plugin("NodeResourcesFit", 2).plugin(VolumeZonePlugin.NAME, 1)
        .percentageOfNodesToScore(50).pluginArgs("NodeResourcesFit", java.util.Map.of("scoringStrategy", "x"))
        .build();
    var p = StoragePlugins.enableIn(custom);
    // each volume plugin right after the last plugin kube places before it; VolumeZone stays where the user put it
    assertThat(p.plugins()).extracting(r -> r.name()).containsExactly("PodTopologySpread", "NodeResourcesFit",
        VolumeRestrictionsPlugin.NAME, NodeVolumeLimitsPlugin.NAME, VolumeBindingPlugin.NAME, VolumeZonePlugin.NAME,
        DataLocalityPlugin.NAME);
    assertThat(p.plugins().get(0).weight()).isEqualTo(5);
    assertThat(p.plugins().get(1).weight()).isEqualTo(2);
    assertThat(p.percentageOfNodesToScore()).isEqualTo(50);
    assertThat(p.pluginArgs()).containsKey("NodeResourcesFit");
  }
}
