package io.fleetkit.storage;

import static io.fleetkit.storage.Fixtures.RWO;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Claims racing for volumes on real threads: the store's optimistic concurrency lets each volume bind once. */
final class BindingRaceTest {

  @Property(tries = 40)
  void syncClaim_claimsRacingForVolumes_eachVolumeBindsExactlyOneClaim(
      @ForAll @IntRange(min = 2, max = 4) int claims, @ForAll @IntRange(min = 1, max = 2) int volumes)
      throws Exception {
    try (ObjectStore store = ObjectStore.inMemory()) {
      PersistentVolumeController controller = PersistentVolumeController.builder(store).build();
      for (int v = 0; v < volumes; v++) {
        store.create(PersistentVolume.of(ObjectMeta.of("pv-" + v),
            PersistentVolumeSpec.builder().storage("1Gi").accessMode(RWO).build()));
        controller.syncVolume("pv-" + v);
      }
      for (int c = 0; c < claims; c++) {
        store.create(Fixtures.pvc("ns", "claim-" + c, "1Gi", b -> b.accessModes(List.of(RWO)).storageClassName("")));
      }
      CyclicBarrier start = new CyclicBarrier(claims);
      ExecutorService pool = Executors.newFixedThreadPool(claims);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < claims; c++) {
          String name = "claim-" + c;
          done.add(pool.submit(() -> {
            start.await();
            controller.syncClaim("ns", name);
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get(10, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }

      List<PersistentVolumeClaim> bound = store.list(PersistentVolumeClaim.class).items().stream()
          .filter(c -> !c.spec().volumeName().isEmpty()).toList();
      assertThat(bound).hasSize(Math.min(claims, volumes));
      Set<String> usedVolumes = new HashSet<>();
      for (PersistentVolumeClaim c : bound) {
        assertThat(usedVolumes.add(c.spec().volumeName())).as("volume bound twice").isTrue();
        assertThat(c.status().phase()).isEqualTo(PersistentVolumeClaimPhase.Bound);
        PersistentVolume pv = store.require(PersistentVolume.class, "", c.spec().volumeName());
        assertThat(pv.spec().claimRef()).isEqualTo(ClaimReference.to(c));
      }
      for (PersistentVolume pv : store.list(PersistentVolume.class).items()) {
        ClaimReference ref = pv.spec().claimRef();
        if (ref != null) {
          assertThat(store.require(PersistentVolumeClaim.class, ref.namespace(), ref.name()).spec().volumeName())
              .isEqualTo(pv.metadata().name());
        }
      }
    }
  }
}
