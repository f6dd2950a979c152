package io.fleetkit.adapter.kubernetes.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.scheduling.PodGroup;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class LiveConverterTest {

  private static PodBuilder livePod() {
    return new PodBuilder()
        .withNewMetadata().withName("web").withNamespace("prod").withUid("u-1").withResourceVersion("42")
        .addToLabels("app", "web").endMetadata()
        .withNewSpec().withSchedulerName("fleetkit")
        .addNewContainer().withName("c").withImage("nginx")
        .withNewResources().addToRequests("cpu", new Quantity("250m")).endResources().endContainer()
        .endSpec();
  }

  @Test
  void toCore_livePodWithServiceAccountTokenVolume_keepsOnlyModelledVolumes() {
    var pod = livePod().editSpec()
        .addNewVolume().withName("kube-api-access").withNewProjected().endProjected().endVolume()
        .addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName("data-web").endPersistentVolumeClaim()
        .endVolume()
        .endSpec().build();

    Pod core = LiveConverter.toCore(Pod.KIND, pod);

    assertThat(core).isNotNull();
    assertThat(core.metadata().key()).isEqualTo("prod/web");
    assertThat(core.metadata().uid()).isEqualTo("u-1");
    assertThat(core.spec().schedulerName()).isEqualTo("fleetkit");
    assertThat(core.spec().volumes()).hasSize(1);
    assertThat(core.spec().volumes().get(0).source()).isInstanceOf(VolumeSource.PersistentVolumeClaim.class);
  }

  @Test
  void toCore_invalidObject_isSkippedAsNull() {
    var pod = livePod().editSpec().withTerminationGracePeriodSeconds(-5L).endSpec().build();
    Pod core = LiveConverter.toCore(Pod.KIND, pod);
    assertThat(core).isNull();
  }

  @Test
  void toCore_podGroupFromGenericResource_readsMinMember() {
    var pg = new GenericKubernetesResourceBuilder().withApiVersion("scheduling.x-k8s.io/v1alpha1")
        .withKind("PodGroup").withNewMetadata().withName("g").withNamespace("ml").endMetadata()
        .addToAdditionalProperties("spec", Map.of("minMember", 4)).build();
    PodGroup core = LiveConverter.toCore(PodGroup.KIND, pg);
    assertThat(core).isNotNull();
    assertThat(core.spec().minMember()).isEqualTo(4);
    assertThat(LiveConverter.key(pg)).isEqualTo("ml/g");
  }

  @Test
  void toCore_unknownKind_failsNamingTheKnownKinds() {
    assertThatThrownBy(() -> LiveConverter.toCore("Lease", livePod().build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"Lease\"").hasMessageContaining("PodGroup");
  }
}
