package io.fleetkit.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.StorageClassSpec;
import io.fleetkit.api.storage.TopologySelectorLabelRequirement;
import io.fleetkit.api.storage.TopologySelectorTerm;
import io.fleetkit.storage.provision.InMemoryProvisioner;
import io.fleetkit.storage.provision.ProvisionRequest;
import io.fleetkit.storage.provision.ProvisionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class InMemoryProvisionerTest {
  private final InMemoryProvisioner p = InMemoryProvisioner.withZones("mem.io",
      Map.of("zone-a", "10Gi", "zone-b", "20Gi"));
  private final StorageClass any = StorageClass.of(ObjectMeta.of("any"), StorageClassSpec.of("mem.io"));
  private final StorageClass onlyA = StorageClass.of(ObjectMeta.of("only-a"), StorageClassSpec.builder()
      .provisioner("mem.io").allowedTopology(TopologySelectorTerm.of(
          TopologySelectorLabelRequirement.of(TopologyLabels.ZONE, "zone-a"))).build());

  private static PersistentVolumeClaim claim(String size) {
    return Fixtures.pvc("ns", "c", size, b -> b.accessModes(List.of(Fixtures.RWO)));
  }

  @Test
  void provision_immediate_picksAllowedZoneWithMostFreeAndPinsTheVolume() {
    ProvisionResult r = p.provision(new ProvisionRequest(claim("5Gi"), any, "pv-1", null));

    PersistentVolume pv = ((ProvisionResult.Provisioned) r).volume();
    assertThat(pv.metadata().labels()).containsEntry(TopologyLabels.ZONE, "zone-b");
    assertThat(VolumeMatching.nodeAffinityMatches(pv, "n", Map.of(TopologyLabels.ZONE, "zone-b"))).isTrue();
    assertThat(VolumeMatching.nodeAffinityMatches(pv, "n", Map.of(TopologyLabels.ZONE, "zone-a"))).isFalse();
    assertThat(p.free("zone-b")).isEqualTo(15L << 30);

    PersistentVolume inA = ((ProvisionResult.Provisioned) p.provision(
        new ProvisionRequest(claim("5Gi"), onlyA, "pv-2", null))).volume();
    assertThat(inA.metadata().labels()).containsEntry(TopologyLabels.ZONE, "zone-a");
  }

  @Test
  void provision_selectedNodeZoneFull_failsNamingZoneAndSizes() {
    var node = Fixtures.node("n-a", Map.of(TopologyLabels.ZONE, "zone-a"));
    ProvisionResult r = p.provision(new ProvisionRequest(claim("11Gi"), any, "pv-1", node));

    assertThat(r).isInstanceOf(ProvisionResult.Failed.class);
    assertThat(((ProvisionResult.Failed) r).message()).contains("insufficient capacity in zone zone-a")
        .contains("requested 11Gi");
    assertThat(p.hasCapacity(any, node, Quantity.parse("11Gi"))).isFalse();
    assertThat(p.hasCapacity(any, node, Quantity.parse("10Gi"))).isTrue();
  }

  @Test
  void delete_provisionedVolume_returnsCapacity() {
    PersistentVolume pv = ((ProvisionResult.Provisioned) p.provision(
        new ProvisionRequest(claim("10Gi"), onlyA, "pv-1", null))).volume();
    assertThat(p.free("zone-a")).isZero();

    assertThat(p.delete(pv)).isEmpty();
    assertThat(p.free("zone-a")).isEqualTo(10L << 30);
    assertThat(p.delete(pv)).get().asString().contains("was not provisioned by mem.io");
  }

  @Test
  void setCapacity_unlimited_isRejected() {
    assertThatThrownBy(() -> InMemoryProvisioner.unlimited("x.io").setCapacity("z", "1Gi"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("unlimited");
  }

  @Test
  void provisionerNameThatIsNoCsiDriverName_volumesGetAValidDriver() {
    InMemoryProvisioner local = InMemoryProvisioner.unlimited("example.com/local");
    assertThat(local.driver()).isEqualTo("example.com.local");
    assertThat(InMemoryProvisioner.unlimited("kubernetes.io/aws-ebs").driver()).isEqualTo("kubernetes.io.aws-ebs");
    assertThat(InMemoryProvisioner.unlimited("ebs.csi.aws.com").driver()).isEqualTo("ebs.csi.aws.com");
    assertThat(InMemoryProvisioner.unlimited("Example.COM//Local_").driver()).isEqualTo("example.com.local");
    StorageClass sc = StorageClass.of(ObjectMeta.of("local"), StorageClassSpec.of("example.com/local"));

    ProvisionResult r = local.provision(new ProvisionRequest(claim("1Gi"), sc, "pv-1", null));

    assertThat(r).isInstanceOf(ProvisionResult.Provisioned.class);
    PersistentVolume pv = ((ProvisionResult.Provisioned) r).volume();
    assertThat(pv.spec().source()).isEqualTo(io.fleetkit.api.core.PersistentVolumeSource.Csi.of("example.com.local",
        "pv-1"));
    assertThat(local.volumeCount()).isEqualTo(1);
  }

  @Test
  void volumeThatCannotBeMade_failsWithoutHoldingCapacity() {
    // a claim name that is no valid volume name: the volume is refused, and nothing is held for it
    ProvisionResult r = p.provision(new ProvisionRequest(claim("1Gi"), onlyA, "Bad_Name", null));

    assertThat(r).isInstanceOf(ProvisionResult.Failed.class);
    assertThat(((ProvisionResult.Failed) r).message()).contains("Bad_Name");
    assertThat(p.volumeCount()).isZero();
    assertThat(p.free("zone-a")).isEqualTo(10L << 30);
    assertThat(p.provision(new ProvisionRequest(claim("1Gi"), onlyA, "pv-ok", null)))
        .isInstanceOf(ProvisionResult.Provisioned.class);
  }
}
