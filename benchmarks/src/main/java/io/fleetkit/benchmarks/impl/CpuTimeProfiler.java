package io.fleetkit.benchmarks.impl;

import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Reports, per iteration, the CPU time the benchmark's measured operations spent ({@link CpuTime}): {@code ·thread-cpu}
 * (the benchmark thread) and {@code ·process-cpu} (every thread), in ms per iteration. Enable with
 * {@code -prof io.fleetkit.benchmarks.impl.CpuTimeProfiler}.
 */
public final class CpuTimeProfiler implements InternalProfiler {
  @Override
  public String getDescription() {
    return "CPU time of the measured operations (thread and process), ms per iteration";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    CpuTime.drain();
  }

  @Override
  public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
      IterationResult result) {
    long[] sums = CpuTime.drain();
    return List.of(new ScalarResult("thread-cpu", sums[0] / 1e6, "ms", AggregationPolicy.AVG),
        new ScalarResult("process-cpu", sums[1] / 1e6, "ms", AggregationPolicy.AVG));
  }
}
