package io.fleetkit.storage;

import static io.fleetkit.storage.Fixtures.RWO;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.PersistentVolumeReclaimPolicy;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.StorageClassSpec;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.storage.provision.InMemoryProvisioner;
import io.fleetkit.storage.provision.ProvisionRequest;
import io.fleetkit.storage.provision.ProvisionResult;
import io.fleetkit.storage.provision.VolumeProvisioner;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class PersistentVolumeControllerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).build();
  private final InMemoryProvisioner zonal = InMemoryProvisioner.withZones("zonal.csi.fleetkit.io",
      Map.of("zone-a", "10Gi", "zone-b", "5Gi"));
  private final PersistentVolumeController controller = PersistentVolumeController.builder(store).clock(clock)
      .provisioner(zonal).provisioningBackoff(Duration.ofSeconds(1), Duration.ofSeconds(8)).build();

  @AfterEach
  void close() {
    store.close();
  }

  private static PersistentVolume staticPv(String name, String size, String cls) {
    return PersistentVolume.of(ObjectMeta.of(name), PersistentVolumeSpec.builder().storage(size)
        .accessMode(RWO).storageClassName(cls).build());
  }

  private PersistentVolumeClaim claim(String name, String size, String cls) {
    return store.create(Fixtures.pvc("ns", name, size, b -> b.accessModes(List.of(RWO)).storageClassName(cls)));
  }

  private PersistentVolume volume(String name) {
    return store.require(PersistentVolume.class, "", name);
  }

  private PersistentVolumeClaim claim(String name) {
    return store.require(PersistentVolumeClaim.class, "ns", name);
  }

  private void storageClass(String name, String provisioner, VolumeBindingMode mode) {
    store.create(StorageClass.of(ObjectMeta.of(name), StorageClassSpec.builder().provisioner(provisioner)
        .volumeBindingMode(mode).build()));
  }

  @Test
  void syncAll_pendingVolumeAndImmediateClaim_bindsBothSides() {
    store.create(staticPv("pv-1", "10Gi", ""));
    claim("data", "5Gi", "");

    controller.syncAll();

    PersistentVolume pv = volume("pv-1");
    PersistentVolumeClaim c = claim("data");
    assertThat(pv.status().phase()).isEqualTo(PersistentVolumePhase.Bound);
    assertThat(pv.spec().claimRef()).isEqualTo(ClaimReference.to(c));
    assertThat(pv.metadata().annotations()).containsEntry(StorageAnnotations.BOUND_BY_CONTROLLER, "yes");
    assertThat(c.spec().volumeName()).isEqualTo("pv-1");
    assertThat(c.status().phase()).isEqualTo(PersistentVolumeClaimPhase.Bound);
    assertThat(c.status().capacity().get("storage").toString()).isEqualTo("10Gi");
    assertThat(c.metadata().annotations()).containsEntry(StorageAnnotations.BIND_COMPLETED, "yes");
  }

  @Test
  void syncVolume_newVolume_becomesAvailable() {
    store.create(staticPv("pv-1", "1Gi", ""));
    controller.syncVolume("pv-1");
    assertThat(volume("pv-1").status().phase()).isEqualTo(PersistentVolumePhase.Available);
  }

  @Test
  void syncAll_claimDeletedWithRetain_volumeStaysReleased() {
    store.create(staticPv("pv-1", "1Gi", ""));
    claim("data", "1Gi", "");
    controller.syncAll();

    store.delete(PersistentVolumeClaim.class, "ns", "data");
    controller.syncAll();
    controller.syncAll();

    assertThat(volume("pv-1").status().phase()).isEqualTo(PersistentVolumePhase.Released);
    assertThat(volume("pv-1").spec().claimRef()).isNotNull();
  }

  @Test
  void syncAll_claimDeletedWithDelete_deletesStorageAndVolume() {
    storageClass("fast", zonal.name(), VolumeBindingMode.Immediate);
    claim("data", "4Gi", "fast");
    controller.syncAll();
    String pvName = claim("data").spec().volumeName();
    assertThat(pvName).startsWith("pvc-");
    assertThat(zonal.free("zone-a")).isEqualTo(6L << 30);

    store.delete(PersistentVolumeClaim.class, "ns", "data");
    controller.syncAll();

    assertThat(store.get(PersistentVolume.class, "", pvName)).isEmpty();
    assertThat(zonal.free("zone-a")).isEqualTo(10L << 30);
  }

  @Test
  void syncAll_deletePolicyOnStaticVolume_failsTheVolumeWithAMessage() {
    store.create(PersistentVolume.of(ObjectMeta.of("pv-1"), PersistentVolumeSpec.builder().storage("1Gi")
        .accessMode(RWO).persistentVolumeReclaimPolicy(PersistentVolumeReclaimPolicy.Delete).build()));
    claim("data", "1Gi", "");
    controller.syncAll();
    store.delete(PersistentVolumeClaim.class, "ns", "data");

    controller.syncAll();

    assertThat(volume("pv-1").status().phase()).isEqualTo(PersistentVolumePhase.Failed);
    assertThat(volume("pv-1").status().message())
        .isEqualTo("error getting deleter volume plugin for volume \"pv-1\": no volume plugin matched");
  }

  @Test
  void recyclePolicy_onVolumeOrClass_isRejectedAsDeprecated() {
    assertThatThrownBy(() -> PersistentVolume.of(ObjectMeta.of("pv-1"), PersistentVolumeSpec.builder()
        .storage("1Gi").accessMode(RWO).persistentVolumeReclaimPolicy(PersistentVolumeReclaimPolicy.Recycle)
        .build())).isInstanceOf(ValidationException.class).hasMessageContaining("Recycle is deprecated");
    assertThatThrownBy(() -> StorageClass.of(ObjectMeta.of("old"), StorageClassSpec.builder().provisioner("x.io")
        .reclaimPolicy(PersistentVolumeReclaimPolicy.Recycle).build()))
        .isInstanceOf(ValidationException.class).hasMessageContaining("deprecated");
  }

  @Test
  void syncAll_claimNamesVolume_bindsExactlyThatVolume() {
    store.create(staticPv("small", "1Gi", ""));
    store.create(staticPv("big", "10Gi", ""));
    store.create(Fixtures.pvc("ns", "data", "1Gi", b -> b.accessModes(List.of(RWO)).storageClassName("")
        .volumeName("big")));

    controller.syncAll();

    assertThat(claim("data").spec().volumeName()).isEqualTo("big");
    assertThat(volume("big").spec().claimRef().name()).isEqualTo("data");
    assertThat(volume("small").status().phase()).isEqualTo(PersistentVolumePhase.Available);
    // pre-bound by the user on the claim side: the claim is not marked bound-by-controller
    assertThat(claim("data").metadata().annotations()).doesNotContainKey(StorageAnnotations.BOUND_BY_CONTROLLER);
  }

  @Test
  void syncAll_volumeReservedByClaimRef_goesToThatClaimOnly() {
    store.create(staticPv("small", "1Gi", "").withSpec(staticPv("small", "1Gi", "").spec()
        .withClaimRef(ClaimReference.of("ns", "owner"))));
    claim("other", "1Gi", "");
    controller.syncAll();
    assertThat(claim("other").status().phase()).isEqualTo(PersistentVolumeClaimPhase.Pending);

    claim("owner", "1Gi", "");
    controller.syncAll();
    assertThat(claim("owner").spec().volumeName()).isEqualTo("small");
    assertThat(volume("small").spec().claimRef().uid()).isEqualTo(claim("owner").metadata().uid());
  }

  @Test
  void syncAll_boundClaimsVolumeDeleted_claimIsLost() {
    store.create(staticPv("pv-1", "1Gi", ""));
    claim("data", "1Gi", "");
    controller.syncAll();

    store.delete(PersistentVolume.class, "", "pv-1");
    controller.syncAll();

    assertThat(claim("data").status().phase()).isEqualTo(PersistentVolumeClaimPhase.Lost);
  }

  @Test
  void syncAll_waitForFirstConsumer_leavesClaimUntilANodeIsSelected() {
    storageClass("wffc", zonal.name(), VolumeBindingMode.WaitForFirstConsumer);
    store.create(staticPv("pv-1", "1Gi", "wffc"));
    claim("data", "1Gi", "wffc");

    controller.syncAll();
    assertThat(claim("data").status().phase()).isEqualTo(PersistentVolumeClaimPhase.Pending);
    assertThat(zonal.volumeCount()).isZero();

    store.create(Fixtures.node("n-b", Map.of(TopologyLabels.ZONE, "zone-b")));
    PersistentVolumeClaim c = claim("data");
    store.update(c.withMetadata(c.metadata().toBuilder().annotation(StorageAnnotations.SELECTED_NODE, "n-b")
        .build()));
    // a selected node asks for provisioning even though a static volume exists: the scheduler chose not to use it
    store.delete(PersistentVolume.class, "", "pv-1");
    controller.syncAll();

    PersistentVolume pv = volume(claim("data").spec().volumeName());
    assertThat(pv.metadata().labels()).containsEntry(TopologyLabels.ZONE, "zone-b");
    assertThat(pv.metadata().annotations()).containsEntry(StorageAnnotations.PROVISIONED_BY, zonal.name());
    assertThat(claim("data").status().phase()).isEqualTo(PersistentVolumeClaimPhase.Bound);
  }

  @Test
  void syncAll_provisioningFails_setsConditionAndRetriesWithBackoff() {
    storageClass("fast", zonal.name(), VolumeBindingMode.Immediate);
    claim("huge", "20Gi", "fast");

    controller.syncAll();
    PersistentVolumeClaim c = claim("huge");
    assertThat(c.status().phase()).isEqualTo(PersistentVolumeClaimPhase.Pending);
    assertThat(c.status().conditions()).singleElement().satisfies(cond -> {
      assertThat(cond.type()).isEqualTo(PersistentVolumeController.PROVISIONING_FAILED);
      assertThat(cond.message()).contains("failed to provision volume with StorageClass \"fast\"")
          .contains("attempt 1");
    });
    assertThat(controller.nextProvisioningAttempt("ns/huge")).contains(clock.instant().plusSeconds(1));

    zonal.setCapacity("zone-a", "100Gi");
    controller.syncAll();
    assertThat(claim("huge").status().phase()).as("still backing off").isEqualTo(PersistentVolumeClaimPhase.Pending);

    clock.advance(Duration.ofSeconds(1));
    controller.syncAll();
    assertThat(claim("huge").status().phase()).isEqualTo(PersistentVolumeClaimPhase.Bound);
    assertThat(claim("huge").status().conditions()).isEmpty();
    assertThat(controller.nextProvisioningAttempt("ns/huge")).isEmpty();
  }

  @Test
  void syncAll_provisionerThrows_failsTheAttemptAndRetriesWithBackoff() {
    boolean[] broken = {true};
    VolumeProvisioner flaky = new VolumeProvisioner() {
      @Override
      public String name() {
        return "flaky.csi.fleetkit.io";
      }

      @Override
      public ProvisionResult provision(ProvisionRequest request) {
        if (broken[0]) {
          throw new IllegalStateException("backend down");
        }
        return zonal.provision(request);
      }

      @Override
      public Optional<String> delete(PersistentVolume volume) {
        return zonal.delete(volume);
      }
    };
    PersistentVolumeController c = PersistentVolumeController.builder(store).clock(clock).provisioner(flaky)
        .provisioningBackoff(Duration.ofSeconds(1), Duration.ofSeconds(8)).build();
    storageClass("flaky", flaky.name(), VolumeBindingMode.Immediate);
    claim("data", "1Gi", "flaky");

    c.syncAll();

    assertThat(claim("data").status().phase()).isEqualTo(PersistentVolumeClaimPhase.Pending);
    assertThat(claim("data").status().conditions()).singleElement().satisfies(cond -> assertThat(cond.message())
        .contains("flaky.csi.fleetkit.io threw java.lang.IllegalStateException: backend down"));
    broken[0] = false;
    clock.advance(Duration.ofSeconds(1));
    c.syncAll();
    assertThat(claim("data").status().phase()).isEqualTo(PersistentVolumeClaimPhase.Bound);
  }

  @Test
  void provision_repeatedFailures_backoffDoublesUpToMax() {
    storageClass("fast", zonal.name(), VolumeBindingMode.Immediate);
    claim("huge", "200Gi", "fast");
    long[] expected = {1, 2, 4, 8, 8};
    for (long seconds : expected) {
      controller.syncAll();
      assertThat(controller.nextProvisioningAttempt("ns/huge")).contains(clock.instant().plusSeconds(seconds));
      clock.advance(Duration.ofSeconds(seconds));
    }
  }

  @Test
  void syncAll_claimWithoutClass_getsTheDefaultClass() {
    store.create(StorageClass.of(ObjectMeta.builder().name("standard")
        .annotation(StorageAnnotations.IS_DEFAULT_CLASS, "true").build(), StorageClassSpec.of(zonal.name())));
    store.create(Fixtures.pvc("ns", "data", "1Gi", b -> b.accessModes(List.of(RWO))));

    controller.syncAll();

    assertThat(claim("data").spec().storageClassName()).isEqualTo("standard");
    assertThat(claim("data").status().phase()).isEqualTo(PersistentVolumeClaimPhase.Bound);
  }

  @Test
  void syncAll_claimWithSelector_isNotProvisioned() {
    storageClass("fast", zonal.name(), VolumeBindingMode.Immediate);
    store.create(Fixtures.pvc("ns", "data", "1Gi", b -> b.accessModes(List.of(RWO)).storageClassName("fast")
        .selector(io.fleetkit.api.labels.LabelSelector.of(Map.of("tier", "gold")))));

    controller.syncAll();

    assertThat(claim("data").status().phase()).isEqualTo(PersistentVolumeClaimPhase.Pending);
    assertThat(zonal.volumeCount()).isZero();
  }
}
