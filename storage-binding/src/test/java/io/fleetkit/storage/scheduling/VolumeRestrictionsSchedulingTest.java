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
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.StoreScheduler;
import io.fleetkit.storage.PersistentVolumeController;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * VolumeRestrictions inside a whole scheduler fed by a store, with every storage plugin: a ReadWriteOncePod claim is
 * used by one pod at a time, and the queueing hints retry a parked pod only for the events that can help it.
 */
final class VolumeRestrictionsSchedulingTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  /** A store with two nodes and a class of pre-made volumes, and a scheduler with the storage plugins on it. */
  private final class Cluster implements AutoCloseable {
    final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
    final PersistentVolumeController volumes = PersistentVolumeController.builder(store).clock(clock).build();
    final Scheduler scheduler;
    final StoreScheduler attached;

    Cluster() {
      ResourceList cap = ResourceList.builder().put("cpu", "4").put("memory", "8Gi").put("pods", "110").build();
      for (String n : List.of("n1", "n2")) {
        store.create(Node.builder().name(n).capacity(cap).ready().build());
      }
      store.create(StorageClass.of(ObjectMeta.of("manual"), StorageClassSpec.builder()
          .provisioner(StorageAnnotations.NO_PROVISIONER).volumeBindingMode(VolumeBindingMode.Immediate).build()));
      scheduler = Scheduler.builder().clock(clock).parallelism(1).store(store)
          .registry(StoragePlugins.registry(PluginRegistry.defaults(), volumes))
          .profile(StoragePlugins.enableIn(DefaultPlugins.profile())).build();
      attached = StoreScheduler.attach(scheduler, store,
          List.of(PersistentVolume.class, PersistentVolumeClaim.class, StorageClass.class));
    }

    /** An available volume and a claim of {@code mode} that binds to it. */
    void boundClaim(String name, PersistentVolumeAccessMode mode) {
      store.create(PersistentVolume.of(ObjectMeta.of("pv-" + name), PersistentVolumeSpec.builder().storage("10Gi")
          .accessMode(mode).storageClassName("manual")
          .source(PersistentVolumeSource.Csi.of("static.csi.fleetkit.io", "pv-" + name)).build()));
      claim(name, mode);
      volumes.syncAll();
      assertThat(store.require(PersistentVolumeClaim.class, "default", name).status().phase())
          .isEqualTo(PersistentVolumeClaimPhase.Bound);
    }

    void claim(String name, PersistentVolumeAccessMode mode) {
      store.create(PersistentVolumeClaim.of(ObjectMeta.of("default", name), PersistentVolumeClaimSpec.builder()
          .storage("10Gi").accessMode(mode).storageClassName("manual").build()));
    }

    String nodeOf(String pod) {
      return store.require(Pod.class, "default", pod).spec().nodeName();
    }

    PendingPod pending() {
      assertThat(scheduler.pending()).hasSize(1);
      return scheduler.pending().get(0);
    }

    /** Lets any backoff pass, then schedules until idle. */
    void settle() {
      scheduler.runUntilIdle();
      clock.advance(Duration.ofSeconds(15));
      scheduler.runUntilIdle();
    }

    @Override
    public void close() {
      attached.close();
      scheduler.close();
      store.close();
    }
  }

  @Test
  void twoPodsShareAReadWriteOncePodClaim_secondWaitsUntilTheFirstIsDeleted() {
    try (Cluster c = new Cluster()) {
      c.boundClaim("data", PersistentVolumeAccessMode.ReadWriteOncePod);
      c.store.create(StorageCluster.pod("first", "data"));
      c.store.create(StorageCluster.pod("bystander"));
      c.settle();
      assertThat(c.nodeOf("first")).isNotEmpty();
      assertThat(c.nodeOf("bystander")).isNotEmpty();

      c.store.create(StorageCluster.pod("second", "data"));
      c.settle();

      assertThat(c.nodeOf("second")).isEmpty();
      PendingPod p = c.pending();
      assertThat(p.podKey()).isEqualTo("default/second");
      assertThat(p.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
      assertThat(p.message()).startsWith("0/2 nodes are available: 2 "
          + VolumeRestrictionsPlugin.REASON_READ_WRITE_ONCE_POD_CONFLICT + ".");
      int attempts = p.attempts();

      // a deleted pod that mounts no such claim does not help (isSchedulableAfterPodDeleted says QueueSkip)
      c.store.delete(Pod.class, "default", "bystander", io.fleetkit.api.store.DeleteOptions.gracePeriod(0));
      c.settle();
      assertThat(c.pending().queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
      assertThat(c.pending().attempts()).isEqualTo(attempts);

      c.store.delete(Pod.class, "default", "first");
      c.settle();
      assertThat(c.nodeOf("second")).as("first terminating: the claim is still in use").isEmpty();
      c.store.delete(Pod.class, "default", "first", io.fleetkit.api.store.DeleteOptions.gracePeriod(0)); // gone
      c.settle();

      assertThat(c.nodeOf("second")).isNotEmpty();
      assertThat(c.scheduler.pending()).isEmpty();
    }
  }

  @Test
  void readWriteManyClaim_bothPodsRun() {
    try (Cluster c = new Cluster()) {
      c.boundClaim("shared", PersistentVolumeAccessMode.ReadWriteMany);
      c.store.create(StorageCluster.pod("first", "shared"));
      c.store.create(StorageCluster.pod("second", "shared"));

      c.settle();

      assertThat(c.nodeOf("first")).isNotEmpty();
      assertThat(c.nodeOf("second")).isNotEmpty();
    }
  }

  @Test
  void missingClaim_podWaitsUntilThatClaimIsCreated() {
    try (Cluster c = new Cluster()) {
      c.store.create(StorageCluster.pod("web", "later"));
      c.settle();

      PendingPod p = c.pending();
      assertThat(p.queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
      assertThat(p.message()).isEqualTo("0/2 nodes are available: persistentvolumeclaim \"later\" not found. "
          + "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
      int attempts = p.attempts();

      // another claim of the namespace is created: isSchedulableAfterPersistentVolumeClaimAdded says QueueSkip
      c.boundClaim("unrelated", PersistentVolumeAccessMode.ReadWriteOnce);
      c.settle();
      assertThat(c.pending().queue()).isEqualTo(PendingPod.Queue.UNSCHEDULABLE);
      assertThat(c.pending().attempts()).isEqualTo(attempts);

      c.boundClaim("later", PersistentVolumeAccessMode.ReadWriteOncePod);
      c.settle();

      assertThat(c.nodeOf("web")).isNotEmpty();
      assertThat(c.scheduler.pending()).isEmpty();
    }
  }
}
