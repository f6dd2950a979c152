package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.traces.OpenbTraces;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class OpenbTraceCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return CliHarness.run(out, err, args);
  }

  /** Writes a bundled list to {@code dir} as a {@code .csv.gz} file, as a user's own file would be. */
  private static Path copy(InputStream in, Path dir, String name) throws IOException {
    try (in; OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve(name)))) {
      in.transferTo(out);
    }
    return dir.resolve(name);
  }

  @Test
  void traceOpenb_bundledDefaultFgdJson_printsPolicySeedAndAllocationPercentages() {
    int code = run("trace", "openb", "--policy", "FGD", "--seed", "42", "--output", "json");
    assertThat(code).as(err.toString()).isZero();
    String json = out.toString();
    assertThat(json).startsWith("{\"policy\":\"FGD\",\"seed\":42,\"allocation\":{");
    assertThat(json).contains("\"80\":", "\"90\":", "\"100\":", "\"final\":", "\"fragmentationRatio\":{");
    double at100 = Double.parseDouble(json.replaceAll("(?s).*?\"allocation\":\\{.*?\"100\":([0-9.]+).*", "$1"));
    assertThat(at100).isBetween(94.0, 96.5);
  }

  @Test
  void traceOpenb_gapfillLowerCaseOnBundledDefault_beatsFgdOfTheSameSeed() {
    assertThat(run("trace", "openb", "--policy", "gapfill", "--output", "json")).as(err.toString()).isZero();
    String gapFill = out.toString();
    out.getBuffer().setLength(0);
    assertThat(run("trace", "openb", "--policy", "fgd", "--output", "json")).isZero();
    String fgd = out.toString();
    assertThat(at100(gapFill)).isGreaterThan(at100(fgd));
  }

  private static double at100(String json) {
    return Double.parseDouble(json.replaceAll("(?s).*?\"allocation\":\\{.*?\"100\":([0-9.]+).*", "$1"));
  }

  @Test
  void traceOpenb_explicitGzFiles_sameResultAsTheBundledTrace(@TempDir Path dir) throws IOException {
    Path nodes = copy(OpenbTraces.openNodes("gpu_node"), dir, "nodes.csv.gz");
    Path pods = copy(OpenbTraces.openPods("gpushare40"), dir, "pods.csv.gz");
    assertThat(run("trace", "openb", "--nodes", nodes.toString(), "--pods", pods.toString(), "--policy", "BestFit",
        "--output", "json")).as(err.toString()).isZero();
    String explicit = out.toString().replaceAll(",\"millis\":\\d+", "");
    out.getBuffer().setLength(0);
    assertThat(run("trace", "openb", "--trace", "gpushare40", "--policy", "BestFit", "--output", "json")).isZero();
    assertThat(out.toString().replaceAll(",\"millis\":\\d+", "")).isEqualTo(explicit);
  }

  @Test
  void traceOpenb_bundledTraceByName_table_listsArrivalRowsAndFinal() {
    int code = run("trace", "openb", "--trace", "gpushare40", "--policy", "bestfit", "--inflate", "1.0");
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("policy BestFit, seed 42", "arrival%", "final");
  }

  @Test
  void traceOpenb_unknownBundledTrace_exitTwoListingTheBundledOnes() {
    int code = run("trace", "openb", "--trace", "gpuspec99", "--policy", "FGD");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("no bundled openb pod list named \"gpuspec99\"",
        "bundled: default, multigpu20, multigpu50, gpushare20", "gpuspec25", "cpu250");
  }

  @Test
  void traceOpenb_traceAndPodsBoth_exitTwo() {
    int code = run("trace", "openb", "--trace", "default", "--pods", "p.csv", "--policy", "FGD");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("both name a pod list");
  }

  @Test
  void traceOpenb_badCsv_exitOneNamingFileAndLine(@TempDir Path dir) throws Exception {
    Path nodes = Files.writeString(dir.resolve("n.csv"), "sn,cpu_milli,memory_mib,gpu,model\nn1,1000,10,-2,T4\n");
    int code = run("trace", "openb", "--nodes", nodes.toString(), "--pods", nodes.toString(), "--policy", "FGD");
    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).contains(nodes + ":2: gpu -2 must not be negative");
  }

  @Test
  void traceOpenb_unknownPolicy_exitTwo() {
    int code = run("trace", "openb", "--nodes", "n.csv", "--pods", "p.csv", "--policy", "Tetris");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("trace policy \"Tetris\" is unknown");
  }

  @Test
  void traceOpenb_report_drawsEveryPolicyAndTheBound(@TempDir Path dir) throws IOException {
    Path page = dir.resolve("openb.html");
    int code = run("trace", "openb", "--policy", "FGD", "--report", page.toString());
    assertThat(code).as(err.toString()).isZero();
    String html = Files.readString(page);
    for (io.fleetkit.scheduler.plugins.gpu.GpuPolicy p : io.fleetkit.scheduler.plugins.gpu.GpuPolicy.values()) {
      assertThat(html).contains("<polyline class=\"series\" data-name=\"" + p.displayName() + "\"");
    }
    assertThat(html).contains("<polyline class=\"bound\"").doesNotContain("<script", "http://", "https://");
    // the bound at 100% of arrived demand is at least every policy's allocation there (96.97 in the docs)
    String row = html.replaceAll("(?s).*<tr><th>bound</th>((?:<td>[^<]*</td>){10}).*", "$1");
    double bound100 = Double.parseDouble(row.replaceAll(".*<td>([0-9.]+)</td>$", "$1"));
    assertThat(bound100).isBetween(96.0, 98.0);
  }

  @Test
  void traceOpenb_reportToAMissingDirectory_exitsTwoNamingTheDirectory(@TempDir Path dir) {
    Path page = dir.resolve("no/such/dir/openb.html");
    int code = run("trace", "openb", "--trace", "gpushare40", "--policy", "BestFit", "--report", page.toString());
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("--report " + page + ": directory " + dir.resolve("no/such/dir")
        + " does not exist");
    assertThat(out.toString()).isEmpty();
  }
}
