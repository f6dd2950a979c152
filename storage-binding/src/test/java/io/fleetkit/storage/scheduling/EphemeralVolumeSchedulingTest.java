package io.fleetkit.storage.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimTemplate;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.StorageClassSpec;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.StoreScheduler;
import io.fleetkit.storage.EphemeralVolumeController;
import io.fleetkit.storage.PersistentVolumeController;
import io.fleetkit.storage.TopologyLabels;
import io.fleetkit.storage.provision.InMemoryProvisioner;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A generic ephemeral volume end to end on one store: the scheduler parks the pod until the ephemeral volume
 * controller created its claim, then (WaitForFirstConsumer) has it provisioned in the chosen node's zone and binds
 * the pod; a claim of that name the pod does not own keeps the pod pending with upstream's message.
 */
final class EphemeralVolumeSchedulingTest {
  private static final ResourceList CAP = ResourceList.builder().put("cpu", "4").put("memory", "8Gi")
      .put("pods", "110").build();

  private static Pod pod() {
    return Pod.builder().namespace("default").name("web").container("app", "nginx", ResourceList.EMPTY)
        .volume(Volume.ephemeral("scratch", new PersistentVolumeClaimTemplate(Map.of("app", "web"), Map.of(),
            PersistentVolumeClaimSpec.builder().storage("10Gi").accessMode(PersistentVolumeAccessMode.ReadWriteOnce)
                .storageClassName("fast").build())))
        .build();
  }

  private static void cluster(ObjectStore store) {
    for (String zone : List.of("zone-a", "zone-b")) {
      store.create(Node.builder().name("n-" + zone).label(TopologyLabels.ZONE, zone).capacity(CAP).ready().build());
    }
    store.create(StorageClass.of(ObjectMeta.of("fast"), StorageClassSpec.builder().provisioner("mem.io")
        .volumeBindingMode(VolumeBindingMode.WaitForFirstConsumer).build()));
  }

  private static Scheduler scheduler(ManualClock clock, ObjectStore store, PersistentVolumeController volumes) {
    return Scheduler.builder().clock(clock).parallelism(1).store(store)
        .registry(StoragePlugins.registry(PluginRegistry.defaults(), volumes))
        .profile(StoragePlugins.enableIn(DefaultPlugins.profile())).build();
  }

  @Test
  void ephemeralVolume_podWaitsForTheClaim_thenClaimProvisionedAndPodBound() {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      InMemoryProvisioner p = InMemoryProvisioner.withZones("mem.io", Map.of("zone-a", "0", "zone-b", "1Ti"));
      PersistentVolumeController volumes = PersistentVolumeController.builder(store).clock(clock).provisioner(p)
          .build();
      EphemeralVolumeController ephemeral = EphemeralVolumeController.builder(store).build();
      cluster(store);
      Pod created = store.create(pod());

      try (Scheduler scheduler = scheduler(clock, store, volumes);
          StoreScheduler attached = StoreScheduler.attach(scheduler, store,
              List.of(PersistentVolume.class, PersistentVolumeClaim.class, StorageClass.class))) {
        scheduler.runUntilIdle();
        assertThat(scheduler.pending()).singleElement().satisfies(pp -> {
          assertThat(pp.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
          assertThat(pp.message()).contains(
              "waiting for ephemeral volume controller to create the persistentvolumeclaim \"web-scratch\"");
        });

        clock.advance(Duration.ofSeconds(1));
        assertThat(ephemeral.syncAll()).isEmpty();
        volumes.syncAll(); // WaitForFirstConsumer: the claim stays pending for the scheduler
        clock.advance(Duration.ofSeconds(10)); // past the pod's backoff
        scheduler.runUntilIdle();
        assertThat(scheduler.pending()).isEmpty();
      }

      Pod pod = store.require(Pod.class, "default", "web");
      PersistentVolumeClaim claim = store.require(PersistentVolumeClaim.class, "default", "web-scratch");
      assertThat(pod.spec().nodeName()).isEqualTo("n-zone-b");
      assertThat(claim.status().phase()).isEqualTo(PersistentVolumeClaimPhase.Bound);
      assertThat(claim.metadata().ownerReferences()).containsExactly(OwnerReference.controllerOf(created));
      assertThat(claim.metadata().labels()).isEqualTo(Map.of("app", "web"));
      assertThat(store.require(PersistentVolume.class, "", claim.spec().volumeName()).metadata().labels())
          .containsEntry(TopologyLabels.ZONE, "zone-b");
    }
  }

  @Test
  void ephemeralVolume_claimOfThatNameNotOwned_podStaysPendingWithUpstreamsMessage() {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      PersistentVolumeController volumes = PersistentVolumeController.builder(store).clock(clock)
          .provisioner(InMemoryProvisioner.unlimited("mem.io")).build();
      cluster(store);
      store.create(PersistentVolumeClaim.of(ObjectMeta.of("default", "web-scratch"), PersistentVolumeClaimSpec
          .builder().storage("1Gi").accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName("fast")
          .build()));
      store.create(pod());
      assertThat(EphemeralVolumeController.builder(store).build().syncAll()).singleElement().asString()
          .endsWith("PVC default/web-scratch was not created for pod default/web (pod is not owner)");

      try (Scheduler scheduler = scheduler(clock, store, volumes);
          StoreScheduler attached = StoreScheduler.attach(scheduler, store,
              List.of(PersistentVolume.class, PersistentVolumeClaim.class, StorageClass.class))) {
        scheduler.runUntilIdle();
        assertThat(scheduler.pending()).singleElement().satisfies(pp -> {
          assertThat(pp.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
          assertThat(pp.message())
              .contains("PVC default/web-scratch was not created for pod default/web (pod is not owner)");
        });
      }
      assertThat(store.require(Pod.class, "default", "web").spec().nodeName()).isEmpty();
      assertThat(store.require(PersistentVolumeClaim.class, "default", "web-scratch").metadata().ownerReferences())
          .isEmpty();
    }
  }
}
