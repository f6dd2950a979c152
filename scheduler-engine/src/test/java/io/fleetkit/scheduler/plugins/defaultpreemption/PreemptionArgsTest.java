package io.fleetkit.scheduler.plugins.defaultpreemption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Argument defaults, validation (upstream {@code ValidateDefaultPreemptionArgs}) and the candidate window. */
final class PreemptionArgsTest {
  @Test
  void fromMap_empty_takesKubeDefaults() {
    assertThat(PreemptionArgs.fromMap(Map.of())).isEqualTo(new PreemptionArgs(10, 100, 0));
  }

  @Test
  void fromMap_values_areRead() {
    assertThat(PreemptionArgs.fromMap(Map.of("minCandidateNodesPercentage", 40, "minCandidateNodesAbsolute", 2L,
        "randomSeed", 7L))).isEqualTo(new PreemptionArgs(40, 2, 7));
  }

  @Test
  void fromMap_nonInteger_isRejectedNamingTheKey() {
    assertThatThrownBy(() -> PreemptionArgs.fromMap(Map.of("minCandidateNodesAbsolute", "ten")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("plugin DefaultPreemption args: minCandidateNodesAbsolute \"ten\" must be an integer, not String");
  }

  @Test
  void constructor_brokenRules_areAllReported() {
    assertThatThrownBy(() -> new PreemptionArgs(-1, -1, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("plugin DefaultPreemption args: minCandidateNodesPercentage -1 is not in valid range [0, 100];"
            + " minCandidateNodesAbsolute -1 is not in valid range [0, inf)");
    assertThatThrownBy(() -> new PreemptionArgs(0, 0, 0)).hasMessageContaining("cannot be zero at the same time");
  }

  @Test
  void numCandidates_percentageAbsoluteAndCap() {
    assertThat(PreemptionArgs.DEFAULTS.numCandidates(5000)).isEqualTo(500); // 10%
    assertThat(PreemptionArgs.DEFAULTS.numCandidates(500)).isEqualTo(100); // at least 100
    assertThat(PreemptionArgs.DEFAULTS.numCandidates(30)).isEqualTo(30); // at most all nodes
    assertThat(new PreemptionArgs(40, 1, 0).numCandidates(5)).isEqualTo(2);
    assertThat(new PreemptionArgs(100, 0, 0).numCandidates(7)).isEqualTo(7);
  }
}
