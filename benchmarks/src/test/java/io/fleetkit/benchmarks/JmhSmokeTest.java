package io.fleetkit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;

/** Runs every benchmark once, briefly, in-process: benchmarks must never rot. The figures are not checked. */
final class JmhSmokeTest {
  @Test
  void everyBenchmark_runsOnce_andReports(@TempDir Path dir) throws Exception {
    // Another JMH run on the machine (a developer's benchmark) must not fail the build.
    System.setProperty("jmh.ignoreLock", "true");
    Path json = dir.resolve("jmh.json");
    Collection<RunResult> results = BenchmarkMain.run("io.fleetkit.benchmarks.*", true, "500", json);
    assertThat(results).hasSizeGreaterThanOrEqualTo(PerfCaseCount.WORKLOADS + 2);
    assertThat(Files.size(json)).isPositive();
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    BenchmarkMain.report(results, new PrintStream(buf, true, StandardCharsets.UTF_8));
    String report = buf.toString(StandardCharsets.UTF_8);
    assertThat(report).contains("SchedulingBasic").contains("FleetKit").contains("faster");
  }

  private static final class PerfCaseCount {
    static final int WORKLOADS = io.fleetkit.benchmarks.generator.PerfCase.NAMES.size();
  }
}
