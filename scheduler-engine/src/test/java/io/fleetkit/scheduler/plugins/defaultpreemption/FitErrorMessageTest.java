package io.fleetkit.scheduler.plugins.defaultpreemption;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.framework.Status;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** kube's {@code FitError.Error()} formatting of the per-node reasons. */
final class FitErrorMessageTest {
  @Test
  void format_countsEveryReasonAndAbsentNodes_sorted() {
    Map<String, Status> m = new LinkedHashMap<>();
    m.put("n1", Status.unschedulable("Insufficient memory", "Insufficient cpu"));
    m.put("n2", Status.unschedulable("Insufficient cpu"));
    assertThat(FitErrorMessage.format(5, m, "Preemption is not helpful for scheduling")).isEqualTo(
        "0/5 nodes are available: 1 Insufficient memory, 2 Insufficient cpu, "
            + "3 Preemption is not helpful for scheduling.");
  }

  @Test
  void format_noReasons_endsAfterColon() {
    assertThat(FitErrorMessage.format(0, Map.of(), "x")).isEqualTo("0/0 nodes are available:");
  }
}
