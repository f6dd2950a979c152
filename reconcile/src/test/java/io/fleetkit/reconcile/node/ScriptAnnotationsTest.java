package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The {@code simulate.fleetkit.io/*} numbers are ASCII whole numbers, as every number FleetKit reads. */
final class ScriptAnnotationsTest {
  private static Pod pod(String key, String value) {
    return Pod.builder().namespace("ns").name("web-0").annotation(key, value)
        .spec(PodSpec.builder().container("app", "img", ResourceList.ofCpuMemory(100, 0)).build()).build();
  }

  @Test
  void script_asciiSeconds_read() {
    Pod p = pod(HealthSource.EXIT_AFTER, " 30 ");
    assertThat(HealthSource.fromAnnotations().script(p, p.spec().containers().get(0), 0).exitAfter())
        .isEqualTo(Duration.ofSeconds(30));
  }

  /** Long.parseLong read "\u0663\u0660" (Arabic-Indic 30) as 30 seconds. */
  @Test
  void script_digitsOfAnotherScript_refusedNamingPodAndAnnotation() {
    Pod p = pod(HealthSource.EXIT_AFTER, "\u0663\u0660");
    assertThatThrownBy(() -> HealthSource.fromAnnotations().script(p, p.spec().containers().get(0), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pod ns/web-0: annotation " + HealthSource.EXIT_AFTER
            + " \"\u0663\u0660\" must be a non-negative integer");
  }
}
