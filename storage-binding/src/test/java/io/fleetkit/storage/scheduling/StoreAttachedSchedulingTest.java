package io.fleetkit.storage.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeSource;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.StorageClassSpec;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.StoreScheduler;
import io.fleetkit.storage.PersistentVolumeController;
import io.fleetkit.storage.TopologyLabels;
import io.fleetkit.storage.provision.InMemoryProvisioner;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The whole loop on one embedded store: scheduler fed by the store, binding pods and their claims into it. */
final class StoreAttachedSchedulingTest {

  @Test
  void attach_podWithWaitForFirstConsumerClaim_podAndClaimBoundInTheStore() {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      InMemoryProvisioner p = InMemoryProvisioner.withZones("mem.io", Map.of("zone-a", "0", "zone-b", "1Ti"));
      PersistentVolumeController volumes = PersistentVolumeController.builder(store).clock(clock).provisioner(p)
          .build();
      ResourceList cap = ResourceList.builder().put("cpu", "4").put("memory", "8Gi").put("pods", "110").build();
      for (String zone : List.of("zone-a", "zone-b")) {
        store.create(Node.builder().name("n-" + zone).label(TopologyLabels.ZONE, zone).capacity(cap).ready().build());
      }
      store.create(StorageClass.of(ObjectMeta.of("fast"), StorageClassSpec.builder().provisioner("mem.io")
          .volumeBindingMode(VolumeBindingMode.WaitForFirstConsumer).build()));
      store.create(PersistentVolumeClaim.of(ObjectMeta.of("default", "data"), PersistentVolumeClaimSpec.builder()
          .storage("10Gi").accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName("fast").build()));
      store.create(StorageCluster.pod("web", "data"));
      volumes.syncAll();

      try (Scheduler scheduler = Scheduler.builder().clock(clock).parallelism(1).store(store)
          .registry(StoragePlugins.registry(PluginRegistry.defaults(), volumes))
          .profile(StoragePlugins.enableIn(DefaultPlugins.profile())).build();
          StoreScheduler attached = StoreScheduler.attach(scheduler, store,
              List.of(PersistentVolume.class, PersistentVolumeClaim.class, StorageClass.class))) {
        scheduler.runUntilIdle();
        assertThat(attached.scheduler()).isSameAs(scheduler);
      }

      Pod pod = store.require(Pod.class, "default", "web");
      PersistentVolumeClaim claim = store.require(PersistentVolumeClaim.class, "default", "data");
      assertThat(pod.spec().nodeName()).isEqualTo("n-zone-b");
      assertThat(claim.status().phase()).isEqualTo(PersistentVolumeClaimPhase.Bound);
      assertThat(store.require(PersistentVolume.class, "", claim.spec().volumeName()).metadata().labels())
          .containsEntry(TopologyLabels.ZONE, "zone-b");
    }
  }

  /**
   * A pod whose Immediate claim is unbound is parked by VolumeBinding; the claim's binding (a PersistentVolumeClaim
   * update) retries it, as upstream VolumeBinding's {@code EventsToRegister} (PVC, PV, StorageClass add/update), with
   * no node write. Without the claims and volumes fed to the scheduler it waits for the 5-minute flush.
   */
  @ParameterizedTest(name = "storage kinds fed: {0}")
  @ValueSource(booleans = {true, false})
  void attach_podWaitingForImmediateClaim_retriedWhenTheClaimBinds(boolean storageKindsFed) {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      PersistentVolumeController volumes = PersistentVolumeController.builder(store).clock(clock).build();
      ResourceList cap = ResourceList.builder().put("cpu", "4").put("memory", "8Gi").put("pods", "110").build();
      Node node = store.create(Node.builder().name("n1").label(TopologyLabels.ZONE, "zone-a").capacity(cap).ready()
          .build());
      store.create(StorageClass.of(ObjectMeta.of("manual"), StorageClassSpec.builder()
          .provisioner(StorageAnnotations.NO_PROVISIONER).volumeBindingMode(VolumeBindingMode.Immediate).build()));
      store.create(PersistentVolumeClaim.of(ObjectMeta.of("default", "data"), PersistentVolumeClaimSpec.builder()
          .storage("10Gi").accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName("manual").build()));
      store.create(StorageCluster.pod("web", "data"));
      volumes.syncAll();
      List<Class<? extends ApiObject<?>>> kinds = storageKindsFed
          ? List.of(PersistentVolume.class, PersistentVolumeClaim.class, StorageClass.class) : List.of();

      try (Scheduler scheduler = Scheduler.builder().clock(clock).parallelism(1).store(store)
          .registry(StoragePlugins.registry(PluginRegistry.defaults(), volumes))
          .profile(StoragePlugins.enableIn(DefaultPlugins.profile())).build();
          StoreScheduler attached = StoreScheduler.attach(scheduler, store, kinds)) {
        scheduler.runUntilIdle();
        assertThat(scheduler.pending()).singleElement().satisfies(p -> {
          assertThat(p.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
          assertThat(p.message()).contains("unbound immediate PersistentVolumeClaims");
        });

        clock.advance(Duration.ofSeconds(5));
        store.create(PersistentVolume.of(ObjectMeta.of("pv-1"), PersistentVolumeSpec.builder().storage("10Gi")
            .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName("manual")
            .source(PersistentVolumeSource.Csi.of("static.csi.fleetkit.io", "pv-1")).build()));
        volumes.syncAll();
        assertThat(store.require(PersistentVolumeClaim.class, "default", "data").status().phase())
            .isEqualTo(PersistentVolumeClaimPhase.Bound);
        scheduler.runUntilIdle();

        String boundTo = store.require(Pod.class, "default", "web").spec().nodeName();
        if (storageKindsFed) {
          assertThat(boundTo).isEqualTo("n1");
          assertThat(scheduler.pending()).isEmpty();
        } else {
          assertThat(boundTo).isEmpty();
          assertThat(scheduler.pending()).singleElement().extracting(PendingPod::queue)
              .isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
          clock.advance(Duration.ofMinutes(5));
          scheduler.runUntilIdle();
          assertThat(store.require(Pod.class, "default", "web").spec().nodeName()).isEqualTo("n1");
        }
        // no node write was needed
        assertThat(store.require(Node.class, "", "n1").metadata().resourceVersion())
            .isEqualTo(node.metadata().resourceVersion());
      }
    }
  }
}
