package io.fleetkit.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.apps.ClaimTemplate;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class StatefulSetClaimsTest {
  private static StatefulSet set(ClaimTemplate... templates) {
    StatefulSet.Builder b = StatefulSet.builder().namespace("ml").name("trainer").replicas(3)
        .matchLabels(Map.of("app", "trainer")).serviceName("trainer")
        .podSpec(PodSpec.builder().container("c", "img", ResourceList.EMPTY).volume(Volume.emptyDir("scratch"))
            .volume(Volume.emptyDir("data")).build());
    for (ClaimTemplate t : templates) {
      b.volumeClaimTemplate(t);
    }
    return b.build();
  }

  private static final ClaimTemplate DATA = new ClaimTemplate("data", "fast", List.of("ReadWriteOnce"),
      ResourceList.builder().put("storage", "10Gi").build(), Map.of("tier", "hot"));
  private static final ClaimTemplate CKPT = ClaimTemplate.of("ckpt", null,
      ResourceList.builder().put("storage", "1Gi").build());

  @Test
  void claimsFor_ordinal_namesTemplateSetOrdinalWithLabelsAndSpec() {
    List<PersistentVolumeClaim> claims = StatefulSetClaims.claimsFor(set(DATA, CKPT), 2);

    assertThat(claims).extracting(c -> c.metadata().name()).containsExactly("data-trainer-2", "ckpt-trainer-2");
    PersistentVolumeClaim data = claims.get(0);
    assertThat(data.metadata().namespace()).isEqualTo("ml");
    assertThat(data.metadata().labels()).containsEntry("tier", "hot").containsEntry("app", "trainer");
    assertThat(data.spec().storageClassName()).isEqualTo("fast");
    assertThat(data.spec().accessModes()).containsExactly(PersistentVolumeAccessMode.ReadWriteOnce);
    assertThat(data.requestedStorage().toString()).isEqualTo("10Gi");
    assertThat(claims.get(1).spec().storageClassName()).as("default class").isNull();
  }

  @Test
  void claimsFor_sameOrdinalTwice_sameClaims() {
    assertThat(StatefulSetClaims.claimsFor(set(DATA), 0)).isEqualTo(StatefulSetClaims.claimsFor(set(DATA), 0));
    assertThat(StatefulSetClaims.claimName(DATA, set(DATA), 7)).isEqualTo("data-trainer-7");
  }

  @Test
  void withClaimVolumes_templateNamedLikeAVolume_replacesItWithTheClaim() {
    StatefulSet s = set(DATA);
    PodSpec spec = StatefulSetClaims.withClaimVolumes(s.spec().template().spec(), s, 1);

    assertThat(spec.volumes()).extracting(Volume::name).containsExactly("scratch", "data");
    assertThat(spec.volumes().get(1).claim().claimName()).isEqualTo("data-trainer-1");
  }

  @Test
  void claimsFor_negativeOrdinalOrBadMode_failsNamingTheValue() {
    assertThatThrownBy(() -> StatefulSetClaims.claimsFor(set(DATA), -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ordinal -1 must not be negative");
    ClaimTemplate bad = new ClaimTemplate("x", null, List.of("RWO"),
        ResourceList.builder().put("storage", "1Gi").build(), Map.of());
    assertThatThrownBy(() -> StatefulSetClaims.claimsFor(set(bad), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("accessModes value \"RWO\"");
  }
}
