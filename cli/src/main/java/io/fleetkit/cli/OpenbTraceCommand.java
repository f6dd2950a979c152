package io.fleetkit.cli;

import io.fleetkit.lab.gpu.AllocationBound;
import io.fleetkit.lab.gpu.OpenbCsv;
import io.fleetkit.lab.gpu.ReplayResult;
import io.fleetkit.lab.gpu.TraceFormatException;
import io.fleetkit.lab.gpu.TraceNode;
import io.fleetkit.lab.gpu.TracePod;
import io.fleetkit.lab.gpu.TraceReplay;
import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import io.fleetkit.traces.OpenbTraces;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code fleetkit trace openb --policy NAME [--trace NAME | --nodes CSV --pods CSV] [--seed N] [--inflate 1.3]
 * [--output table|json]}: replays an openb trace under the FGD paper's protocol and prints the GPU allocation ratio
 * (%) at each whole arrival percentage and at the end, and the fragmentation ratio. Without files it replays the
 * traces bundled in {@code fleetkit-traces}: the GPU node list and pod list {@code --trace} (default
 * {@code default}).
 */
@Command(name = "openb", mixinStandardHelpOptions = true,
    description = {"Replay an Alibaba openb GPU trace under each GPU placement policy.",
        "The FGD paper's protocol: GPU nodes only, pods shuffled by seed, resampled to --inflate x GPU capacity, no"
            + " deletions, no retries. Without --nodes/--pods it replays the bundled trace (the paper's 1213 GPU"
            + " nodes and the pod list named by --trace).",
        "Policies: BestFit, DotProduct, GpuPacking, GpuClustering, Random, FGD, FgdBalanced, GapFill (ours),"
            + " ModelGapFill (ours), AdaptiveGapFill (ours), ReservingGapFill (ours, best on every trace).",
        "ReservingGapFill turns shares away (unschedulable) to keep free GPUs for whole-GPU pods."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:replayed", "1:a trace file could not be loaded", "2:bad command line"})
public final class OpenbTraceCommand implements Callable<Integer> {
  enum Output { table, json }

  @Spec
  private CommandSpec spec;

  @Option(names = "--nodes", paramLabel = "CSV",
      description = "Node list file (sn,cpu_milli,...; .csv or .csv.gz). Default: the bundled GPU node list.")
  private @Nullable Path nodes;

  @Option(names = "--pods", paramLabel = "CSV",
      description = "Pod list file (name,cpu_milli,...; .csv or .csv.gz). Default: the bundled list of --trace.")
  private @Nullable Path pods;

  @Option(names = "--trace", paramLabel = "NAME",
      description = "Bundled pod list: ${COMPLETION-CANDIDATES} (default: default).",
      completionCandidates = BundledTraces.class)
  private @Nullable String trace;

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

  @Option(names = "--report", paramLabel = "FILE.html",
      description = "Also replay every policy (same seed and inflation) and write their allocation against the "
          + "arrived demand, with the provable bound, as one self-contained HTML page.")
  private @Nullable Path report;

  @Override
  public Integer call() {
    GpuPolicy p;
    try {
      p = GpuPolicy.of(policy);
    } catch (IllegalArgumentException e) {
      // GpuPolicy names the option's value a "GPU policy"; here it is the trace replay's --policy.
      throw new CommandLine.ParameterException(spec.commandLine(),
          "trace " + e.getMessage().replaceFirst("^GPU ", ""));
    }
    if (!(inflate > 0)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--inflate must be positive, got " + inflate);
    }
    if (trace != null && pods != null) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--trace " + trace + " and --pods " + pods + " both name a pod list; give one");
    }
    if (report != null) {
      Path dir = report.toAbsolutePath().getParent();
      if (dir != null && !Files.isDirectory(dir)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--report " + report + ": directory " + dir
            + " does not exist");
      }
    }
    String podList = trace == null ? "default" : trace;
    if (pods == null && !OpenbTraces.POD_LISTS.contains(podList)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--trace: no bundled openb pod list named \""
          + podList + "\" (bundled: " + String.join(", ", OpenbTraces.POD_LISTS) + ")");
    }
    List<TraceNode> ns;
    List<TracePod> ps;
    try {
      ns = nodes != null ? OpenbCsv.loadNodes(nodes) : bundledNodes();
      ps = pods != null ? OpenbCsv.loadPods(pods) : bundledPods(podList);
    } catch (TraceFormatException e) {
      spec.commandLine().getErr().println(e.getMessage());
      spec.commandLine().getErr().flush();
      return 1;
    }
    ReplayResult r;
    try {
      r = TraceReplay.run(ns, ps, p, seed, inflate);
    } catch (IllegalArgumentException e) {
      // no GPU node, duplicate node names, an inflation too large to replay: the message says which
      spec.commandLine().getErr().println(e.getMessage());
      spec.commandLine().getErr().flush();
      return 1;
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(output == Output.json ? json(r) : table(r));
    out.flush();
    if (report != null) {
      List<ReplayResult> all = new java.util.ArrayList<>();
      for (GpuPolicy each : GpuPolicy.values()) {
        all.add(each == p ? r : TraceReplay.run(ns, ps, each, seed, inflate));
      }
      Map<Integer, Double> bound = new java.util.TreeMap<>();
      for (int x = 10; x <= ReplayResult.MAX_PERCENT; x += 10) {
        try {
          bound.put(x, AllocationBound.atArrival(ns, ps, seed, inflate, x));
        } catch (IllegalArgumentException e) {
          // no arrival event in that bucket (past the inflation): no bound there
        }
      }
      try {
        Files.writeString(report, OpenbReport.render(pods != null ? pods.getFileName().toString() : podList, seed,
            inflate, all, bound));
      } catch (IOException e) {
        spec.commandLine().getErr().println("--report " + report + ": cannot write: " + e.getMessage());
        spec.commandLine().getErr().flush();
        return 1;
      }
    }
    return 0;
  }

  private static List<TraceNode> bundledNodes() {
    try (InputStream in = OpenbTraces.openNodes("gpu_node")) {
      return OpenbCsv.loadNodes(OpenbTraces.nodeFileName("gpu_node"), in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<TracePod> bundledPods(String name) {
    try (InputStream in = OpenbTraces.openPods(name)) {
      return OpenbCsv.loadPods(OpenbTraces.podFileName(name), in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The bundled pod list names, for the help text. */
  static final class BundledTraces implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return OpenbTraces.POD_LISTS.iterator();
    }
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
