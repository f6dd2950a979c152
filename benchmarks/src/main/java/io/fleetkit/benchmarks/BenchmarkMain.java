package io.fleetkit.benchmarks;

import io.fleetkit.benchmarks.generator.PerfCase;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the scheduler benchmarks and prints pods/s beside kube's CI floors and the Fenzo ratio.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar [--smoke] [--nodes 500,5000] [--include REGEX] [--out DIR]
 * </pre>
 *
 * {@code --smoke} runs one short iteration of every benchmark at 500 nodes, in-process, so that CI catches a
 * benchmark that no longer runs; its figures mean nothing.
 */
public final class BenchmarkMain {
  private BenchmarkMain() {}

  public static void main(String[] args) throws RunnerException, IOException {
    boolean smoke = false;
    String nodes = "500,5000";
    String include = "io.fleetkit.benchmarks.*";
    Path out = Path.of("benchmarks/target");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--smoke" -> smoke = true;
        case "--nodes" -> nodes = args[++i];
        case "--include" -> include = args[++i];
        case "--out" -> out = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + "; usage: [--smoke] [--nodes 500,5000] [--include REGEX] [--out DIR]");
      }
    }
    Files.createDirectories(out);
    Collection<RunResult> results = run(include, smoke, smoke ? "500" : nodes, out.resolve("jmh-results.json"));
    report(results, System.out);
  }

  /** Runs JMH and returns its results; {@code smoke} runs in-process with one short iteration. */
  public static Collection<RunResult> run(String include, boolean smoke, String nodes, Path json)
      throws RunnerException {
    ChainedOptionsBuilder opts = new OptionsBuilder().include(include)
        .param("nodes", nodes.split(","))
        .result(json.toString()).resultFormat(ResultFormatType.JSON);
    if (smoke) {
      opts.param("rounds", "1"); // FenzoComparisonBenchmark: one batch
      opts.param("feedPods", "2000"); // EventIntakeBenchmark: 0.2 s of feeding
      opts.param("replicaSets", "1000"); // ReplicaSetReconcileBenchmark: a tenth of the cluster keeps the smoke short
      opts.param("adapterPods", "200").param("latencyMs", "1"); // KubernetesAdapterBenchmark: one short case
      opts.param("pods", "1000"); // EndpointSliceSyncBenchmark: a tenth of the Service's pods
      opts.param("rollouts", "10"); // RolloutSimulationBenchmark: a tenth of the Rollouts (it was half the smoke's time)
      opts.param("clusterNodes", "100").param("pendingPods", "100"); // ClusterAutoscalerBenchmark: a tenth
      opts.param("simulatedHours", "1"); // ClusterSimulationDayBenchmark: the first hour of the 100-node day
      opts.forks(0).warmupIterations(0).measurementIterations(1).measurementTime(TimeValue.seconds(1));
    }
    return new Runner(opts.build()).run();
  }

  /** One row of the ReplicaSet table: the method, the ReplicaSet count and the reconciles/s aux counter. */
  private static String reconcileRow(RunResult r) {
    String bench = r.getParams().getBenchmark();
    String method = bench.substring(bench.lastIndexOf('.') + 1);
    org.openjdk.jmh.results.Result<?> reconciles = r.getSecondaryResults().get("reconciles");
    double perSec = reconciles != null ? reconciles.getScore() : Double.NaN;
    return String.format(Locale.ROOT, "| %s | %s | %,.0f |", method, r.getParams().getParam("replicaSets"),
        perSec);
  }

  /** Prints a markdown table: workload, nodes, measured pods, pods/s, kube floor; and the Fenzo ratio. */
  public static void report(Collection<RunResult> results, PrintStream out) {
    List<String> rows = new ArrayList<>();
    double fenzoMs = Double.NaN;
    double fleetMs = Double.NaN;
    List<String> batchRows = new ArrayList<>();
    List<String> reconcileRows = new ArrayList<>();
    for (RunResult r : results) {
      String bench = r.getParams().getBenchmark();
      double score = r.getPrimaryResult().getScore();
      if (bench.endsWith("SchedulingThroughputBenchmark.schedule")) {
        String workload = r.getParams().getParam("workload");
        int n = Integer.parseInt(r.getParams().getParam("nodes"));
        String pct = r.getParams().getParam("pct");
        PerfCase c = PerfCase.of(workload, n);
        double podsPerSec = c.measuredPods().size() / (score / 1e6);
        rows.add(String.format(Locale.ROOT, "| %s | %d | %s | %d | %,.0f | %s |", workload, c.nodes().size(),
            "0".equals(pct) ? "adaptive" : pct + "%", c.measuredPods().size(), podsPerSec,
            c.kubeFloor() == 0 ? "none" : Integer.toString(c.kubeFloor())));
      } else if (bench.endsWith("GangSchedulingBenchmark.schedule")) {
        int n = Integer.parseInt(r.getParams().getParam("nodes"));
        int pods = GangSchedulingBenchmark.pods(n);
        rows.add(String.format(Locale.ROOT, "| Gangs(%d of 4-8 pods) | %d | adaptive | %d | %,.0f | none |",
            n * 3 / 5, n, pods, pods / (score / 1e3)));
      } else if (bench.endsWith("QueueAdmissionBenchmark.admitAll")) {
        int workloads = Integer.parseInt(r.getParams().getParam("workloads"));
        batchRows.add(String.format(Locale.ROOT, "| Kueue-style admission, %s ClusterQueues, fair sharing %s | %,d "
            + "workloads | %,.0f workloads/s |", r.getParams().getParam("clusterQueues"),
            r.getParams().getParam("fairSharing"), workloads, workloads / (score / 1e3)));
      } else if (bench.endsWith("BackfillBenchmark.plan")) {
        int pending = Integer.parseInt(r.getParams().getParam("pending"));
        batchRows.add(String.format(Locale.ROOT, "| Slurm-style backfill pass, %s nodes | %,d pending jobs | %,.0f "
            + "jobs/s |", r.getParams().getParam("poolNodes"), pending, pending / (score / 1e3)));
      } else if (bench.endsWith("VolumeSchedulingBenchmark.schedule")) {
        int n = Integer.parseInt(r.getParams().getParam("nodes"));
        double podsPerSec = n / (score / 1e6);
        rows.add(String.format(Locale.ROOT, "| SchedulingCSIPVs (%s) | %d | adaptive | %d | %,.0f | %d |",
            r.getParams().getParam("mode"), n, n, podsPerSec, VolumeSchedulingBenchmark.KUBE_FLOOR));
      } else if (bench.endsWith("FenzoComparisonBenchmark.fenzo")) {
        fenzoMs = score / Integer.parseInt(r.getParams().getParam("rounds"));
      } else if (bench.endsWith("FenzoComparisonBenchmark.fleetkit")) {
        fleetMs = score / Integer.parseInt(r.getParams().getParam("rounds"));
      } else if (bench.endsWith("KubernetesAdapterBenchmark.createAndBind")) {
        int n = Integer.parseInt(r.getParams().getParam("adapterPods"));
        batchRows.add(String.format(Locale.ROOT, "| Kubernetes adapter over HTTP, %s ms per request, %s binding "
            + "threads | %,d pods | %,.0f pods/s |", r.getParams().getParam("latencyMs"),
            r.getParams().getParam("bindParallelism"), n, n / (score / 1e3)));
      } else if (bench.endsWith("EventIntakeBenchmark.feedWhileScheduling")) {
        int n = Integer.parseInt(r.getParams().getParam("feedPods"));
        batchRows.add(String.format(Locale.ROOT, "| pods added from another thread at %s/s while scheduling | %,d "
            + "pods | all bound in %,.0f ms |", r.getParams().getParam("addsPerSecond"), n, score));
      } else if (bench.contains("ReplicaSetReconcileBenchmark.")) {
        reconcileRows.add(reconcileRow(r));
      }
    }
    if (!rows.isEmpty()) {
      out.println("| workload | nodes | nodes scored | measured pods | FleetKit pods/s | kube CI floor (pods/s) |");
      out.println("|---|---|---|---|---|---|");
      rows.forEach(out::println);
    }
    if (!batchRows.isEmpty()) {
      out.println();
      out.println("| batch benchmark | size | throughput |");
      out.println("|---|---|---|");
      batchRows.forEach(out::println);
    }
    if (!reconcileRows.isEmpty()) {
      out.printf("%n| ReplicaSet benchmark | ReplicaSets | reconciles/s (one thread) |%n|---|---|---|%n");
      reconcileRows.forEach(out::println);
    }
    if (!Double.isNaN(fenzoMs) && !Double.isNaN(fleetMs)) {
      out.printf(Locale.ROOT, "%nFenzo 0.13.8: %.1f ms, FleetKit MostAllocated: %.1f ms per 10,000 placements on "
          + "1,000 hosts: FleetKit %.1fx faster%n", fenzoMs, fleetMs, fenzoMs / fleetMs);
    }
  }
}
