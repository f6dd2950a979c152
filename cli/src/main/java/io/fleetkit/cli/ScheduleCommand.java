package io.fleetkit.cli;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.adapter.kubernetes.yaml.ManifestException;
import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.cluster.Cluster;
import io.fleetkit.cluster.ScheduleOutcome;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fleetkit schedule FILE|DIR... [--output table|json] [--profile FILE]}: schedules every pending pod of the
 * manifests with kube-scheduler's semantics and prints where each went, which pods preemption evicted, and why the
 * others could not be placed. Fields of the manifests FleetKit does not model are warned of on stderr.
 */
@Command(name = "schedule", mixinStandardHelpOptions = true,
    description = {"Schedule the pending pods of Kubernetes YAML manifests and print where each went.",
        "Nodes, running pods, priority classes, PodDisruptionBudgets, StorageClasses, PersistentVolumes and claims"
            + " form the cluster. Pods are scheduled until no more progress is possible; the result names the volume"
            + " each claim of a placed pod is bound to."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:scheduled (some pods may be unschedulable: see the output)",
        "1:the manifests or the profile file are invalid", "2:bad command line"})
public final class ScheduleCommand implements Callable<Integer> {
  /** Output formats. */
  enum Format { table, json }

  @Spec
  private CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE|DIR", description = "Manifest files or directories.")
  private List<Path> paths;

  @Option(names = "--output", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
  private Format output;

  @Option(names = "--profile", paramLabel = "FILE",
      description = "A KubeSchedulerConfiguration YAML file with profiles (default: kube's default profile).")
  private Path profileFile;

  @Option(names = "--seed", defaultValue = "0", description = "Seed for tie-breaking (default: ${DEFAULT-VALUE}).")
  private long seed;

  @Option(names = "--metrics", paramLabel = "FILE",
      description = "Write the scheduler's final metrics (kube-scheduler's names) to FILE in Prometheus text format.")
  private Path metricsFile;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Cluster cluster;
    int bound;
    MetricsFile metrics = MetricsFile.of(metricsFile);
    try {
      // Loaded here rather than by Cluster.Builder#manifests so that the load's warnings can be printed.
      LoadedObjects loaded = KubernetesYaml.load(paths);
      ManifestWarnings.print(loaded, err);
      bound = boundPods(loaded.objects());
      Cluster.Builder b = Cluster.builder().objects(loaded.objects()).seed(seed).metrics(metrics.registry());
      if (profileFile != null) {
        b.schedulerConfiguration(profileFile);
      }
      cluster = b.build();
    } catch (ManifestException e) {
      for (ManifestProblem p : e.problems()) {
        err.println(CliText.clipLine(p.toString()));
      }
      err.flush();
      return 1;
    } catch (IllegalArgumentException | FleetKitException e) {
      err.println(CliText.clipLine(String.valueOf(e.getMessage())));
      err.flush();
      return 1;
    }
    ScheduleOutcome outcome;
    try {
      outcome = cluster.schedule();
    } catch (IllegalArgumentException | FleetKitException e) {
      err.println("schedule: " + e.getMessage());
      err.flush();
      return 1;
    }
    if (!metrics.write(err)) {
      return 1;
    }
    if (output == Format.json) {
      out.println(json(outcome, bound));
    } else {
      table(outcome, bound, out);
    }
    out.flush();
    return 0;
  }

  /** The manifests' pods that name a node already: the scheduler leaves them where they are. */
  private static int boundPods(List<ApiObject<?>> objects) {
    int n = 0;
    for (ApiObject<?> o : objects) {
      if (o instanceof Pod p && !p.spec().nodeName().isEmpty()) {
        n++;
      }
    }
    return n;
  }

  static String json(ScheduleOutcome outcome, int bound) {
    List<Map<String, Object>> placements = new ArrayList<>();
    for (ScheduleOutcome.Placement p : outcome.placements()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("pod", p.pod());
      m.put("node", p.node());
      m.put("preempted", p.preempted());
      if (!p.volumes().isEmpty()) {
        m.put("volumes", p.volumes());
      }
      placements.add(m);
    }
    List<Map<String, Object>> failed = new ArrayList<>();
    for (ScheduleOutcome.Unschedulable u : outcome.unschedulable()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("pod", u.pod());
      m.put("message", u.message());
      failed.add(m);
    }
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("placements", placements);
    root.put("unschedulable", failed);
    if (bound > 0) {
      root.put("alreadyBound", bound);
    }
    if (!outcome.rejected().isEmpty()) {
      List<Map<String, Object>> rejected = new ArrayList<>();
      for (ScheduleOutcome.Rejected r : outcome.rejected()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("object", r.object());
        m.put("message", r.message());
        rejected.add(m);
      }
      root.put("rejected", rejected);
    }
    ObjectMapper mapper = JsonMapper.builder().build();
    return mapper.writeValueAsString(root);
  }

  private static String volumes(ScheduleOutcome.Placement p) {
    List<String> parts = new ArrayList<>();
    p.volumes().forEach((claim, pv) -> parts.add(claim + "=" + pv));
    return String.join(", ", parts);
  }

  private static void table(ScheduleOutcome outcome, int bound, PrintWriter out) {
    int w = "POD".length();
    for (var p : outcome.placements()) {
      w = Math.max(w, p.pod().length());
    }
    for (var u : outcome.unschedulable()) {
      w = Math.max(w, u.pod().length());
    }
    String fmt = "%-" + w + "s  %s%n";
    out.printf(fmt, "POD", "NODE");
    for (var p : outcome.placements()) {
      out.printf(fmt, p.pod(), p.node() + (p.preempted().isEmpty() ? "" : "  (preempted " + String.join(", ",
          p.preempted()) + ")") + (p.volumes().isEmpty() ? "" : "  (volumes " + volumes(p) + ")"));
    }
    for (var u : outcome.unschedulable()) {
      out.printf(fmt, u.pod(), "<unschedulable> " + u.message());
    }
    for (var r : outcome.rejected()) {
      out.printf("rejected %s: %s%n", r.object(), r.message());
    }
    out.printf("%n%d placed, %d unschedulable%s%s%n", outcome.placements().size(), outcome.unschedulable().size(),
        outcome.rejected().isEmpty() ? "" : ", " + outcome.rejected().size() + " rejected by admission",
        bound == 0 ? "" : " (" + bound + (bound == 1 ? " pod was" : " pods were") + " on a node already)");
  }
}
