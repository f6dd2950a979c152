package io.fleetkit.benchmarks;

import io.fleetkit.autoscale.vpa.ContainerUsageState;
import io.fleetkit.autoscale.vpa.VpaRecommender;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The VPA recommender over {@code containers} containers with {@code days} days of history, one cpu and one memory
 * sample per container every {@code sampleMinutes} minutes (the metrics-server resolution is one minute), from a
 * seeded random diurnal workload.
 *
 * <ul>
 *   <li>{@link #recommend}: target, lower and upper bound for every container from the prebuilt histograms (what
 *       the recommender does each minute).</li>
 *   <li>{@link #ingestAndRecommend}: feeding the whole history into fresh histograms, then recommending (a cold
 *       start from 8 days of stored samples).</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class VpaRecommendationBenchmark {
  @Param({"10000"})
  public int containers;

  @Param({"8"})
  public int days;

  @Param({"1"})
  public int sampleMinutes;

  private ContainerUsageState[] states;
  private int effectiveContainers;

  /**
   * Builds the history once per trial. In-process runs (fork 0: the build's smoke test, which only checks that the
   * benchmark runs) use 1% of the containers so that the build stays fast.
   */
  @Setup(Level.Trial)
  public void setUp(BenchmarkParams params) {
    effectiveContainers = params.getForks() == 0 ? Math.max(1, containers / 100) : containers;
    states = ingest(effectiveContainers, days, sampleMinutes);
  }

  /** Builds the usage states: container {@code c} idles at a base load with a daily peak and random noise. */
  static ContainerUsageState[] ingest(int containers, int days, int sampleMinutes) {
    ContainerUsageState[] out = new ContainerUsageState[containers];
    Instant start = Instant.parse("2026-01-01T00:00:00Z");
    int samples = days * 24 * 60 / sampleMinutes;
    for (int c = 0; c < containers; c++) {
      SplittableRandom rnd = new SplittableRandom(42L * 1_000_003L + c);
      ContainerUsageState s = new ContainerUsageState(start);
      double baseCores = 0.05 + rnd.nextDouble() * 2.0;
      double baseBytes = 64e6 + rnd.nextDouble() * 4e9;
      Instant t = start;
      Duration step = Duration.ofMinutes(sampleMinutes);
      for (int i = 0; i < samples; i++) {
        double dayPhase = ((i * sampleMinutes) % 1440) / 1440.0;
        double diurnal = 1.0 + 0.6 * Math.sin(2 * Math.PI * dayPhase);
        double cores = baseCores * diurnal * (0.8 + 0.4 * rnd.nextDouble());
        s.addCpuSample(t, (long) (cores * 1000), (long) (baseCores * 1000));
        s.addMemorySample(t, (long) (baseBytes * (0.9 + 0.2 * rnd.nextDouble())));
        t = t.plus(step);
      }
      out[c] = s;
    }
    return out;
  }

  @Benchmark
  public void recommend(Blackhole bh) {
    for (ContainerUsageState s : states) {
      bh.consume(VpaRecommender.DEFAULT.estimate(s, 1));
    }
  }

  @Benchmark
  public void ingestAndRecommend(Blackhole bh) {
    for (ContainerUsageState s : ingest(effectiveContainers, days, sampleMinutes)) {
      bh.consume(VpaRecommender.DEFAULT.estimate(s, 1));
    }
  }
}
