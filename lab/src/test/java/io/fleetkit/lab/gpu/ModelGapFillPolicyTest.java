package io.fleetkit.lab.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ModelGapFill's figures pinned on two openb traces, seed 42 at 100% arrival (one replay each): gpuspec20, where a
 * fifth of the pods name their GPU model (FGD 94.58, GapFill 94.30 on this seed), and cpu250, where GapFill falls
 * behind FGD. The 10-seed means of every trace are in docs/gpu-benchmarks.md ({@code PolicyTable} prints them).
 */
final class ModelGapFillPolicyTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource({"gpuspec20, 94.78", "cpu250, 93.18"})
  void modelGapFill_seed42_pinned(String trace, double expected) {
    ReplayResult r = TraceReplay.run(TraceBenchmarkTest.nodes(), TraceBenchmarkTest.pods(trace),
        GpuPolicy.MODEL_GAP_FILL, 42);
    assertThat(r.policy()).isEqualTo("ModelGapFill");
    assertThat(r.allocationAt(100)).as("ModelGapFill on %s, seed 42", trace).isCloseTo(expected, within(0.005));
  }
}
