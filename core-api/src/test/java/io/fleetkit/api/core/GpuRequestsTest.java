package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class GpuRequestsTest {
  private static ResourceList rl(String... kv) {
    ResourceList.Builder b = ResourceList.builder();
    for (int i = 0; i < kv.length; i += 2) {
      b.put(kv[i], kv[i + 1]);
    }
    return b.build();
  }

  @Test
  void build_shareWithModels_readBack() {
    Pod p = Pod.builder().name("infer").annotation(GpuRequests.MODELS_ANNOTATION, "V100M16|V100M32")
        .container("c", "i", rl("cpu", "1", GpuRequests.MILLI, "470")).build();
    assertThat(GpuRequests.milli(p.effectiveRequests())).isEqualTo(470);
    assertThat(GpuRequests.whole(p.effectiveRequests())).isZero();
    assertThat(GpuRequests.acceptedModels(p.metadata())).containsExactly("V100M16", "V100M32");
    assertThat(p.spec().containers().get(0).resources().limits().get(GpuRequests.MILLI).value()).isEqualTo(470);
  }

  @Test
  void validate_milliOutOfRange_rejected() {
    assertThatThrownBy(() -> Pod.builder().name("g").container("c", "i", rl(GpuRequests.MILLI, "1000")).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.containers[0].resources.requests.fleetkit.io/gpu-milli \"1k\" must be between"
            + " 1 and 999");
    assertThatThrownBy(() -> Pod.builder().name("g").container("c", "i", rl(GpuRequests.MILLI, "0")).build())
        .isInstanceOf(ValidationException.class).hasMessageContaining("must be between 1 and 999");
  }

  @Test
  void validate_milliWithWholeGpus_rejected() {
    assertThatThrownBy(() -> Pod.builder().name("g")
        .container("c", "i", rl(GpuRequests.MILLI, "500", "nvidia.com/gpu", "1")).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("must not combine fleetkit.io/gpu-milli with nvidia.com/gpu");
  }

  @Test
  void validate_milliSummedOverContainersAboveOneDevice_rejected() {
    ValidationException e = (ValidationException) org.assertj.core.api.Assertions.catchThrowable(() ->
        Pod.builder().name("g").container("a", "i", rl(GpuRequests.MILLI, "600"))
            .container("b", "i", rl(GpuRequests.MILLI, "600")).build());
    assertThat(e.violations()).hasSize(1);
    assertThat(e.violations().get(0).rule()).contains("must sum to at most 999");
  }

  @Test
  void validate_milliRequestDifferentFromLimit_rejected() {
    assertThatThrownBy(() -> Pod.builder().name("g")
        .container("c", "i", rl(GpuRequests.MILLI, "300"), rl(GpuRequests.MILLI, "400")).build())
        .isInstanceOf(ValidationException.class).hasMessageContaining("must be equal to fleetkit.io/gpu-milli limit");
  }

  @Test
  void validate_emptyModelEntry_rejected() {
    for (String bad : List.of("V100M16||T4", "", "T4 ", "|A10")) {
      assertThatThrownBy(() -> Pod.builder().name("g").annotation(GpuRequests.MODELS_ANNOTATION, bad)
          .container("c", "i", rl(GpuRequests.MILLI, "100")).build())
          .as(bad).isInstanceOf(ValidationException.class).hasMessageContaining("gpu-models");
    }
  }

  @Test
  void assignedIds_recorded_parsed() {
    Pod p = Pod.builder().name("g").annotation(GpuRequests.IDS_ANNOTATION, "gpu0,gpu3")
        .container("c", "i", rl("nvidia.com/gpu", "2")).build();
    assertThat(GpuRequests.assignedIds(p.metadata())).containsExactly("gpu0", "gpu3");
  }
}
