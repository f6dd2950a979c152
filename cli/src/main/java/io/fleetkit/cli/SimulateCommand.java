package io.fleetkit.cli;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.adapter.kubernetes.yaml.ManifestException;
import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.reconcile.sim.JobSummary;
import io.fleetkit.reconcile.sim.Simulation;
import io.fleetkit.reconcile.sim.SimulationSummary;
import io.fleetkit.reconcile.sim.TimelineEvent;
import io.fleetkit.reconcile.sim.WorkloadSummary;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fleetkit simulate DIR... [--duration 30m] [--fail-node NODE@MM:SS]... [--output table|json] [--seed N]}:
 * runs the manifests through the store, the controllers, the scheduler and simulated nodes in simulated time and
 * prints the timeline and the workloads' final state.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
    description = {"Simulate Kubernetes YAML manifests (nodes and workloads) in simulated time: controllers, the",
        "scheduler and simulated kubelets run them; --fail-node kills a node at a simulated time. Prints the",
        "timeline and the final state of Deployments, StatefulSets and Jobs."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:simulated", "1:the manifests are invalid or name unknown nodes", "2:bad command line"})
public final class SimulateCommand implements Callable<Integer> {
  /** Output formats. */
  enum Format { table, json }

  /** A node failure from {@code --fail-node NODE@MM:SS}. */
  record NodeFailure(String node, Duration at) {}

  private static final Pattern FAILURE = Pattern.compile("([^@]+)@(\\d+):([0-5]\\d)");
  private static final Pattern DURATION = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?");
  /** The longest simulation accepted: the simulated clock counts nanoseconds in a long (292 years). */
  static final Duration MAX_DURATION = Duration.ofDays(36_500);

  @Spec
  private CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE|DIR", description = "Manifest files or directories.")
  private List<Path> paths;

  @Option(names = "--duration", defaultValue = "30m", converter = DurationConverter.class,
      description = "Simulated time to run, e.g. 90s, 30m, 1h30m (default: ${DEFAULT-VALUE}).")
  private Duration duration;

  @Option(names = "--fail-node", paramLabel = "NODE@MM:SS", converter = FailureConverter.class,
      description = "Kill NODE at simulated time MM:SS (repeatable).")
  private List<NodeFailure> failures = new ArrayList<>();

  @Option(names = "--output", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
  private Format output;

  @Option(names = "--seed", defaultValue = "0", description = "Seed for names and tie-breaking (default: "
      + "${DEFAULT-VALUE}).")
  private long seed;

  @Option(names = "--pod-events", defaultValue = "true", negatable = true, fallbackValue = "true",
      description = "Include per-pod events in the timeline (default: ${DEFAULT-VALUE}).")
  private boolean podEvents;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    LoadedObjects loaded;
    try {
      loaded = KubernetesYaml.load(paths);
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
    List<TimelineEvent> timeline;
    SimulationSummary summary;
    Simulation.Builder b = Simulation.builder().objects(loaded.objects()).seed(seed).podEvents(podEvents);
    for (NodeFailure f : failures) {
      b.failNode(f.node(), f.at());
    }
    try (Simulation sim = b.build()) {
      sim.runFor(duration);
      timeline = sim.timeline();
      summary = sim.summary();
    } catch (IllegalArgumentException | IllegalStateException | FleetKitException e) {
      err.println("simulate: " + e.getMessage());
      err.flush();
      return 1;
    }
    if (output == Format.json) {
      out.println(json(timeline, summary));
    } else {
      table(timeline, summary, out);
    }
    out.flush();
    return 0;
  }

  static String json(List<TimelineEvent> timeline, SimulationSummary summary) {
    List<Map<String, Object>> events = new ArrayList<>();
    for (TimelineEvent e : timeline) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("at", e.clock());
      m.put("seconds", e.at().toSeconds());
      m.put("kind", e.kind());
      m.put("object", e.object());
      m.put("message", e.message());
      events.add(m);
    }
    Map<String, Object> fin = new LinkedHashMap<>();
    fin.put("deployments", workloads(summary.deployments()));
    fin.put("statefulsets", workloads(summary.statefulSets()));
    List<Map<String, Object>> jobs = new ArrayList<>();
    for (JobSummary j : summary.jobs()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", j.name());
      m.put("succeeded", j.succeeded());
      m.put("failed", j.failed());
      jobs.add(m);
    }
    fin.put("jobs", jobs);
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("simulated", new TimelineEvent(summary.at(), "-", "-", "").clock());
    root.put("timeline", events);
    root.put("final", fin);
    return JsonMapper.builder().build().writeValueAsString(root);
  }

  private static List<Map<String, Object>> workloads(List<WorkloadSummary> ws) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (WorkloadSummary w : ws) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", w.name());
      m.put("replicas", w.replicas());
      m.put("ready", w.ready());
      out.add(m);
    }
    return out;
  }

  private static void table(List<TimelineEvent> timeline, SimulationSummary summary, PrintWriter out) {
    int kw = "EVENT".length();
    int ow = "OBJECT".length();
    for (TimelineEvent e : timeline) {
      kw = Math.max(kw, e.kind().length());
      ow = Math.max(ow, e.object().length());
    }
    String fmt = "%-8s %-" + kw + "s  %-" + ow + "s  %s%n";
    out.printf(fmt, "TIME", "EVENT", "OBJECT", "DETAILS");
    for (TimelineEvent e : timeline) {
      out.printf(fmt, e.clock(), e.kind(), e.object(), e.message());
    }
    out.printf("%nAfter %s simulated:%n", new TimelineEvent(summary.at(), "-", "-", "").clock());
    for (WorkloadSummary w : summary.deployments()) {
      out.printf("  Deployment  %s  %d/%d ready%n", w.name(), w.ready(), w.replicas());
    }
    for (WorkloadSummary w : summary.statefulSets()) {
      out.printf("  StatefulSet %s  %d/%d ready%n", w.name(), w.ready(), w.replicas());
    }
    for (JobSummary j : summary.jobs()) {
      out.printf("  Job         %s  %d succeeded, %d failed%n", j.name(), j.succeeded(), j.failed());
    }
  }

  /** Parses {@code 90s}, {@code 30m}, {@code 1h30m}. */
  static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      Matcher m = DURATION.matcher(value.trim());
      if (value.isBlank() || !m.matches() || (m.group(1) == null && m.group(2) == null && m.group(3) == null)) {
        throw new CommandLine.TypeConversionException("'" + CliText.clip(value)
            + "' is not a duration; use hours, minutes and seconds like 90s, 30m or 1h30m");
      }
      try {
        Duration d = Duration.ZERO;
        if (m.group(1) != null) {
          d = d.plusHours(Long.parseLong(m.group(1)));
        }
        if (m.group(2) != null) {
          d = d.plusMinutes(Long.parseLong(m.group(2)));
        }
        if (m.group(3) != null) {
          d = d.plusSeconds(Long.parseLong(m.group(3)));
        }
        if (d.compareTo(MAX_DURATION) > 0) {
          throw new ArithmeticException("beyond the limit");
        }
        return d;
      } catch (ArithmeticException | NumberFormatException e) {
        throw new CommandLine.TypeConversionException("'" + CliText.clip(value) + "' is too long a duration; at"
            + " most " + MAX_DURATION.toHours() + "h (about 100 years of simulated time)");
      }
    }
  }

  /** Parses {@code NODE@MM:SS}. */
  static final class FailureConverter implements CommandLine.ITypeConverter<NodeFailure> {
    @Override
    public NodeFailure convert(String value) {
      Matcher m = FAILURE.matcher(value.trim());
      if (!m.matches()) {
        throw new CommandLine.TypeConversionException("'" + CliText.clip(value)
            + "' is not NODE@MM:SS (a node name, '@', minutes, ':', two-digit seconds), e.g. node-2@05:00");
      }
      try {
        return new NodeFailure(m.group(1), Duration.ofMinutes(Long.parseLong(m.group(2)))
            .plusSeconds(Long.parseLong(m.group(3))));
      } catch (ArithmeticException | NumberFormatException e) {
        throw new CommandLine.TypeConversionException("'" + CliText.clip(value) + "': the failure time is too"
            + " large");
      }
    }
  }
}
