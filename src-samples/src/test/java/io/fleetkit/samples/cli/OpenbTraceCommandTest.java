package io.fleetkit.samples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

final class OpenbTraceCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = new CommandLine(new FleetKitCli());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  /** {@code ${fleetkit.shared.dir}/data/openb}, or the nearest {@code shared/data/openb} above it. */
  private static Path openb() {
    Path p = Path.of(System.getProperty("fleetkit.shared.dir", "../shared")).toAbsolutePath().normalize();
    if (Files.isDirectory(p.resolve("data/openb"))) {
      return p.resolve("data/openb");
    }
    for (Path q = p.getParent(); q != null; q = q.getParent()) {
      if (Files.isDirectory(q.resolve("shared/data/openb"))) {
        return q.resolve("shared/data/openb");
      }
    }
    throw new IllegalStateException("no openb data above " + p);
  }

  @Test
  void traceOpenb_fgdJson_printsPolicySeedAndAllocationPercentages() {
    Path d = openb();
    int code = run("trace", "openb", "--nodes", d.resolve("openb_node_list_gpu_node.csv").toString(), "--pods",
        d.resolve("openb_pod_list_default.csv").toString(), "--policy", "FGD", "--seed", "42", "--output", "json");
    assertThat(code).as(err.toString()).isZero();
    String json = out.toString();
    assertThat(json).startsWith("{\"policy\":\"FGD\",\"seed\":42,\"allocation\":{");
    assertThat(json).contains("\"80\":", "\"90\":", "\"100\":", "\"final\":", "\"fragmentationRatio\":{");
    double at100 = Double.parseDouble(json.replaceAll("(?s).*?\"allocation\":\\{.*?\"100\":([0-9.]+).*", "$1"));
    assertThat(at100).isBetween(94.0, 96.5);
  }

  @Test
  void traceOpenb_table_listsArrivalRowsAndFinal() {
    Path d = openb();
    int code = run("trace", "openb", "--nodes", d.resolve("openb_node_list_gpu_node.csv").toString(), "--pods",
        d.resolve("openb_pod_list_gpushare40.csv").toString(), "--policy", "bestfit", "--inflate", "1.0");
    assertThat(code).isZero();
    assertThat(out.toString()).contains("policy BestFit, seed 42", "arrival%", "final");
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
}
