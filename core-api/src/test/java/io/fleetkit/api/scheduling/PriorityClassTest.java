package io.fleetkit.api.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ObjectMeta;
import org.junit.jupiter.api.Test;

final class PriorityClassTest {

  @Test
  void of_defaults_clusterScopedPreemptLowerPriority() {
    PriorityClass pc = PriorityClass.of("high", 1000);
    assertThat(pc.apiVersion()).isEqualTo("scheduling.k8s.io/v1");
    assertThat(pc.namespaced()).isFalse();
    assertThat(pc.preemptionPolicy()).isEqualTo(PreemptionPolicy.PreemptLowerPriority);
    assertThat(pc.globalDefault()).isFalse();
    assertThat(pc.status()).isNull();
    assertThat(pc.spec()).isEqualTo(new PriorityClass.Desired(1000, false, PreemptionPolicy.PreemptLowerPriority,
        ""));
  }

  @Test
  void spec_changesWithDesiredFields_notWithMetadata() {
    PriorityClass pc = PriorityClass.builder().name("batch").value(10).description("batch jobs").build();
    assertThat(pc.withMetadata(pc.metadata().withResourceVersion("7")).spec()).isEqualTo(pc.spec());
    assertThat(pc.withPreemptionPolicy(PreemptionPolicy.Never).spec()).isNotEqualTo(pc.spec());
    assertThat(pc.withSpec(pc.withGlobalDefault(true).spec()).globalDefault()).isTrue();
    assertThat(pc.withStatusOf(PriorityClass.of("x", 1))).isSameAs(pc);
  }

  @Test
  void validate_userValueTooHighAndNamespaced_bothReported() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> new PriorityClass(
        ObjectMeta.of("default", "too-high"), 2_000_000_000, false, PreemptionPolicy.PreemptLowerPriority, ""));
    assertThat(e.violations()).extracting(Violation::field).containsExactly("metadata.namespace", "value");
    assertThat(e.violations().get(1).rule())
        .isEqualTo("maximum allowed value of a user defined priority is 1000000000");
  }

  @Test
  void validate_systemClass_mayExceedUserMaximum() {
    assertThat(PriorityClass.of("system-node-critical", 2_000_001_000).value()).isEqualTo(2_000_001_000);
  }
}
