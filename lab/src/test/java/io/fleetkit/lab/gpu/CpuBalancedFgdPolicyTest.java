package io.fleetkit.lab.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Our policy FgdBalanced against FGD at 100% arrival (the paper's protocol). The figures are 10-seed means (default
 * 95.69 against our FGD's 95.29; docs/gpu-benchmarks.md, printed by {@code PolicyTable}); the fast tests replay the
 * full traces on a few seeds, pin FgdBalanced's exact allocation there, so that any change in its placements shows,
 * and check its lead on the same seeds: on default (seeds 42 and 43) at least 95.6% and 0.3 point above our FGD and
 * the published FGD mean; on the four other traces (seed 42) no worse than our FGD and the published FGD mean.
 * FgdBalanced does not reach 96.0% on default (GapFill does, see GapFillPolicyTest).
 * {@code -Dfleetkit.gpu.allSeeds=true} runs the 10-seed bars as well (about two minutes).
 */
final class CpuBalancedFgdPolicyTest {
  @Test
  void fgdBalanced_defaultTrace_seeds42And43_beatsFgdByMoreThanNoise() {
    double ours = (TraceBenchmarkTest.pinned("default", GpuPolicy.FGD_BALANCED, 42, 95.70)
        + TraceBenchmarkTest.pinned("default", GpuPolicy.FGD_BALANCED, 43, 95.69)) / 2;
    double fgd = (TraceBenchmarkTest.replay("default", GpuPolicy.FGD, 42).allocationAt(100)
        + TraceBenchmarkTest.replay("default", GpuPolicy.FGD, 43).allocationAt(100)) / 2;
    assertThat(ours).isGreaterThanOrEqualTo(fgd + 0.3);
    assertThat(ours).isGreaterThan(TraceBenchmarkTest.publishedMean("default", "FGD", 100) + 0.3);
    assertThat(ours).isGreaterThanOrEqualTo(95.6);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"multigpu20, 95.59", "multigpu50, 97.25", "gpushare40, 94.24", "gpushare100, 87.06"})
  void fgdBalanced_otherTraces_seed42_pinned_noWorseThanFgd(String trace, double expected) {
    double ours = TraceBenchmarkTest.pinned(trace, GpuPolicy.FGD_BALANCED, 42, expected);
    assertThat(ours).as("FgdBalanced on %s vs our FGD, seed 42", trace)
        .isGreaterThanOrEqualTo(TraceBenchmarkTest.replay(trace, GpuPolicy.FGD, 42).allocationAt(100));
    assertThat(ours).as("FgdBalanced on %s vs published FGD", trace)
        .isGreaterThanOrEqualTo(TraceBenchmarkTest.publishedMean(trace, "FGD", 100));
  }

  @Test
  @EnabledIfSystemProperty(named = "fleetkit.gpu.allSeeds", matches = "true")
  void fgdBalanced_defaultTrace_tenSeeds_beatsFgdByMoreThanNoise() {
    double ours = TraceBenchmarkTest.ourMean("default", GpuPolicy.FGD_BALANCED, 100);
    double fgd = TraceBenchmarkTest.ourMean("default", GpuPolicy.FGD, 100);
    assertThat(ours).isGreaterThanOrEqualTo(fgd + 0.3);
    assertThat(ours).isGreaterThan(TraceBenchmarkTest.publishedMean("default", "FGD", 100) + 0.3);
    assertThat(ours).isGreaterThanOrEqualTo(95.6);
  }

  @ParameterizedTest
  @EnabledIfSystemProperty(named = "fleetkit.gpu.allSeeds", matches = "true")
  @ValueSource(strings = {"multigpu20", "multigpu50", "gpushare40", "gpushare100"})
  void fgdBalanced_otherTraces_tenSeeds_noWorseThanFgd(String trace) {
    double ours = TraceBenchmarkTest.ourMean(trace, GpuPolicy.FGD_BALANCED, 100);
    assertThat(ours).as("FgdBalanced on %s", trace)
        .isGreaterThanOrEqualTo(TraceBenchmarkTest.ourMean(trace, GpuPolicy.FGD, 100));
    assertThat(ours).as("FgdBalanced on %s vs published FGD", trace)
        .isGreaterThanOrEqualTo(TraceBenchmarkTest.publishedMean(trace, "FGD", 100));
  }
}
