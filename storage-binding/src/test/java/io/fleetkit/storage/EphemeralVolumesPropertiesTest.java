package io.fleetkit.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimTemplate;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Invariants of generic ephemeral volumes: the claim made for a volume is the pod's and no other pod's, and the
 * controller, run any number of times, leaves exactly one claim per ephemeral volume, owned by its pod.
 */
final class EphemeralVolumesPropertiesTest {
  private static final PersistentVolumeClaimSpec SPEC = PersistentVolumeClaimSpec.builder().storage("1Gi")
      .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).build();

  @Provide
  Arbitrary<String> names() {
    return Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(20);
  }

  private static Pod pod(String name, String uid, List<String> volumes) {
    Pod.Builder b = Pod.builder().namespace("ns").name(name).uid(uid).container("c", "img", ResourceList.EMPTY);
    for (String v : volumes) {
      b.volume(Volume.ephemeral(v, new PersistentVolumeClaimTemplate(Map.of("v", v), Map.of(), SPEC)));
    }
    return b.build();
  }

  @Property(tries = 200)
  void claimFor_isThePodsAndNoOtherPods(@ForAll("names") String podName, @ForAll("names") String volume,
      @ForAll("names") String uid, @ForAll("names") String otherUid) {
    Pod pod = pod(podName, uid, List.of(volume));
    PersistentVolumeClaim claim = EphemeralVolumes.claimFor(pod, pod.spec().volumes().get(0));
    assertThat(claim.metadata().name()).isEqualTo(podName + "-" + volume);
    assertThat(claim.metadata().namespace()).isEqualTo("ns");
    assertThat(claim.metadata().labels()).isEqualTo(Map.of("v", volume));
    assertThat(EphemeralVolumes.checkVolumeIsForPod(pod, claim)).isEmpty();
    Pod other = pod(podName, otherUid, List.of(volume));
    assertThat(EphemeralVolumes.checkVolumeIsForPod(other, claim).isEmpty()).isEqualTo(uid.equals(otherUid));
  }

  @Property(tries = 30)
  void syncAll_repeated_oneOwnedClaimPerEphemeralVolume(@ForAll @IntRange(min = 1, max = 4) int pods,
      @ForAll @IntRange(min = 1, max = 3) int volumesPerPod, @ForAll @IntRange(min = 1, max = 3) int syncs) {
    try (ObjectStore store = ObjectStore.inMemory()) {
      List<Pod> created = new ArrayList<>();
      for (int p = 0; p < pods; p++) {
        List<String> vols = new ArrayList<>();
        for (int v = 0; v < volumesPerPod; v++) {
          vols.add("v" + v);
        }
        created.add(store.create(pod("p" + p, "", vols)));
      }
      EphemeralVolumeController controller = EphemeralVolumeController.builder(store).build();
      for (int i = 0; i < syncs; i++) {
        assertThat(controller.syncAll()).isEmpty();
      }
      List<PersistentVolumeClaim> claims = store.list(PersistentVolumeClaim.class).items();
      assertThat(claims).hasSize(pods * volumesPerPod);
      for (Pod p : created) {
        for (Volume v : p.spec().volumes()) {
          PersistentVolumeClaim c = store.require(PersistentVolumeClaim.class, "ns", EphemeralVolumes.claimName(p, v));
          assertThat(EphemeralVolumes.checkVolumeIsForPod(p, c)).isEmpty();
        }
      }
    }
  }
}
