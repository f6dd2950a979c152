package io.fleetkit.samples.cli;

import io.fleetkit.scheduler.gpu.trace.OpenbCsv;
import io.fleetkit.scheduler.gpu.trace.ReplayResult;
import io.fleetkit.scheduler.gpu.trace.TraceFormatException;
import io.fleetkit.scheduler.gpu.trace.TraceNode;
import io.fleetkit.scheduler.gpu.trace.TracePod;
import io.fleetkit.scheduler.gpu.trace.TracePolicy;
import io.fleetkit.scheduler.gpu.trace.TraceReplay;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fleetkit trace openb --nodes CSV --pods CSV --policy NAME [--seed N] [--inflate 1.3] [--output table|json]}:
 * replays an openb trace under the FGD paper's protocol and prints the GPU allocation ratio (%) at each whole
 * arrival percentage and at the end, and the fragmentation ratio.
 */
@Command(name = "openb", mixinStandardHelpOptions = true,
    description = {"Replay an Alibaba openb GPU trace (FGD paper protocol: GPU nodes only, pods shuffled by seed,",
        "resampled to --inflate x GPU capacity, no deletions, no retries).",
        "Policies: BestFit, DotProduct, GpuPacking, GpuClustering, Random, FGD, FgdPack, FgdBalanced, GapFill (ours, best)."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:replayed", "1:a trace file could not be loaded", "2:bad command line"})
public final class OpenbTraceCommand implements Callable<Integer> {
  enum Output { table, json }

  @Spec
  private CommandSpec spec;

  @Option(names = "--nodes", required = true, paramLabel = "CSV", description = "Node list (sn,cpu_milli,...).")
  private Path nodes;

  @Option(names = "--pods", required = true, paramLabel = "CSV", description = "Pod list (name,cpu_milli,...).")
  private Path pods;

  @Option(names = "--policy", required = true, paramLabel = "NAME", description = "Placement policy.")
  private String policy;

  @Option(names = "--seed", defaultValue = "42", paramLabel = "N", description = "Seed (default: ${DEFAULT-VALUE}).")
  private long seed;

  @Option(names = "--inflate", defaultValue = "1.3", paramLabel = "X",
      description = "Target GPU demand as a multiple of GPU capacity (default: ${DEFAULT-VALUE}).")
  private double inflate;

  @Option(names = "--output", defaultValue = "table", paramLabel = "table|json",
      description = "Output format (default: ${DEFAULT-VALUE}).")
  private Output output;

  @Override
  public Integer call() {
    TracePolicy p;
    try {
      p = TracePolicy.of(policy);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (!(inflate > 0)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--inflate must be positive, got " + inflate);
    }
    List<TraceNode> ns;
    List<TracePod> ps;
    try {
      ns = OpenbCsv.loadNodes(nodes);
      ps = OpenbCsv.loadPods(pods);
    } catch (TraceFormatException e) {
      spec.commandLine().getErr().println(e.getMessage());
      spec.commandLine().getErr().flush();
      return 1;
    }
    ReplayResult r = TraceReplay.run(ns, ps, p, seed, inflate);
    PrintWriter out = spec.commandLine().getOut();
    out.print(output == Output.json ? json(r) : table(r));
    out.flush();
    return 0;
  }

  private static String pct(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  static String json(ReplayResult r) {
    StringBuilder sb = new StringBuilder();
    sb.append("{\"policy\":\"").append(r.policy()).append("\",\"seed\":").append(r.seed())
        .append(",\"allocation\":{");
    appendBuckets(sb, r.allocation(), r.finalAllocation());
    sb.append("},\"fragmentationRatio\":{");
    appendBuckets(sb, r.fragmentationRatio(), r.finalFragmentationRatio());
    sb.append("},\"arrived\":").append(r.arrived()).append(",\"placed\":").append(r.placed())
        .append(",\"millis\":").append(r.nanos() / 1_000_000).append("}\n");
    return sb.toString();
  }

  private static void appendBuckets(StringBuilder sb, double[] values, double last) {
    for (int x = 0; x < values.length; x++) {
      if (!Double.isNaN(values[x])) {
        sb.append('"').append(x).append("\":").append(pct(values[x])).append(',');
      }
    }
    sb.append("\"final\":").append(pct(last));
  }

  static String table(ReplayResult r) {
    StringBuilder sb = new StringBuilder();
    sb.append("policy ").append(r.policy()).append(", seed ").append(r.seed()).append(", ").append(r.arrived())
        .append(" pods arrived, ").append(r.placed()).append(" placed, ").append(r.nanos() / 1_000_000)
        .append(" ms\n");
    sb.append(String.format(Locale.ROOT, "%-9s %12s %12s%n", "arrival%", "allocation%", "frag-ratio%"));
    double[] a = r.allocation();
    double[] f = r.fragmentationRatio();
    for (int x = 0; x < a.length; x++) {
      if (!Double.isNaN(a[x])) {
        sb.append(String.format(Locale.ROOT, "%-9d %12s %12s%n", x, pct(a[x]), pct(f[x])));
      }
    }
    sb.append(String.format(Locale.ROOT, "%-9s %12s %12s%n", "final", pct(r.finalAllocation()),
        pct(r.finalFragmentationRatio())));
    return sb.toString();
  }
}
