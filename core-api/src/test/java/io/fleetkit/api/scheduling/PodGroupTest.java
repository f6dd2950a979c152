package io.fleetkit.api.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.resource.ResourceList;
import org.junit.jupiter.api.Test;

final class PodGroupTest {

  @Test
  void of_minimal_pendingAndNamespaced() {
    PodGroup g = PodGroup.of("ml", "gang-a", 8);
    assertThat(g.apiVersion()).isEqualTo("scheduling.x-k8s.io/v1alpha1");
    assertThat(g.kind()).isEqualTo("PodGroup");
    assertThat(g.namespaced()).isTrue();
    assertThat(g.spec().minMember()).isEqualTo(8);
    assertThat(g.spec().scheduleTimeoutSeconds()).isNull();
    assertThat(g.spec().minResources().isEmpty()).isTrue();
    assertThat(g.status().phase()).isEqualTo(PodGroupPhase.Pending);
  }

  @Test
  void builder_andWithStatusOf() {
    PodGroup g = PodGroup.builder().name("gang").minMember(4).scheduleTimeoutSeconds(30)
        .minResources(ResourceList.builder().put("nvidia.com/gpu", "32").build()).build();
    PodGroupStatus running = new PodGroupStatus(PodGroupPhase.Running, 4, 4, 0, 0, null);
    PodGroup merged = g.withStatusOf(g.withSpec(PodGroupSpec.of(1)).withStatus(running));
    assertThat(merged.spec().minMember()).isEqualTo(4);
    assertThat(merged.spec().scheduleTimeoutSeconds()).isEqualTo(30);
    assertThat(merged.status()).isEqualTo(running);
  }

  @Test
  void validate_minMemberZeroAndNegativeTimeout_bothReported() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> PodGroup.builder().name("g")
        .minMember(0).scheduleTimeoutSeconds(-1).build());
    assertThat(e.violations()).extracting(Violation::field, Violation::rule).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.minMember", "must be greater than or equal to 1"),
        org.assertj.core.groups.Tuple.tuple("spec.scheduleTimeoutSeconds", "must be greater than or equal to 0"));
  }
}
