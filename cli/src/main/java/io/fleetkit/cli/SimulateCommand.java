package io.fleetkit.cli;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.adapter.kubernetes.yaml.ManifestException;
import io.fleetkit.adapter.kubernetes.yaml.ManifestLocation;
import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.simulation.FaultType;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFault;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.api.time.GoDurations;
import io.fleetkit.api.time.InvalidGoDurationException;
import io.fleetkit.admission.Admission;
import io.fleetkit.cluster.Cluster;
import io.fleetkit.networking.ClusterNetworking;
import io.fleetkit.networking.ServiceSummary;
import io.fleetkit.simulator.JobSummary;
import io.fleetkit.simulator.LoadOutcome;
import io.fleetkit.simulator.PendingPodSummary;
import io.fleetkit.simulator.RolloutSummary;
import io.fleetkit.simulator.Simulation;
import io.fleetkit.simulator.SimulationSummary;
import io.fleetkit.simulator.SummaryGroups;
import io.fleetkit.simulator.TimelineEvent;
import io.fleetkit.simulator.WorkloadSummary;
import io.fleetkit.simulator.ClusterSimulation;
import io.fleetkit.simulator.HtmlReport;
import io.fleetkit.simulator.Progress;
import io.fleetkit.simulator.RunComparison;
import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import io.fleetkit.simulator.SimulationRun;
import io.fleetkit.simulator.TimeSeries;
import io.fleetkit.store.etcd.EtcdStoreBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fleetkit simulate DIR... [--duration 30m] [--fail-node NODE@TIME]... [--apply FILE@TIME]...
 * [--output table|json] [--seed N] [--report FILE.html] [--quiet] [--store memory|etcd://HOST:PORT|etcds://HOST:PORT [--etcd-ca ..]]}: runs the manifests through the store, the
 * controllers, the scheduler and simulated nodes in simulated time and prints the timeline and the workloads' final
 * state (Deployments, StatefulSets, Jobs, Rollouts). {@code --apply} creates or updates the objects of a file at a
 * simulated time, e.g. a new image version to roll out. With a
 * {@code simulation.fleetkit.io/v1 Scenario} among the manifests (or {@code --report}) it runs the whole-cluster
 * {@link ClusterSimulation}: load, HPA, cluster autoscaler, faults, cost and time series ({@code "series"} in JSON);
 * {@code --gpu-policy} picks the GPU placement policy; {@code --compare-gpu-policy} runs the scenario a second
 * time under another policy, {@code --compare-with FILE} runs a second scenario (FILE's, see {@link CompareWith})
 * on the same manifests, and both show the two runs side by side ({@link RunComparison}).
 * Manifests with Namespaces, ResourceQuotas or LimitRanges run through the standard admission chain: a workload
 * whose pod creates a quota refuses shows {@code FailedCreate} (the denial as message) in the timeline, an object
 * refused outright shows {@code Rejected}.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true,
    description = {"Simulate Kubernetes YAML manifests (nodes and workloads) in simulated time.",
        "Controllers, the scheduler and simulated kubelets run them; --fail-node kills a node at a simulated time;"
            + " --apply creates or updates the objects of a file at a simulated time (e.g. a new version to roll"
            + " out). Prints the timeline and the final state of Deployments, StatefulSets, Jobs and Rollouts. A"
            + " Scenario manifest (simulation.fleetkit.io/v1) adds load, autoscaling, faults and cost; --report"
            + " writes an HTML report; --compare-with FILE runs FILE's Scenario too and shows both runs side by"
            + " side."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:simulated", "1:the manifests (or a file to apply) are invalid or name unknown nodes",
        "2:bad command line (including a --compare-with file that is missing, invalid or holds no single"
            + " Scenario)"})
public final class SimulateCommand implements Callable<Integer> {
  /** Output formats. */
  enum Format { table, json }

  /** A node failure from {@code --fail-node NODE@TIME}; {@code given} is the option's value as typed. */
  record NodeFailure(String node, Duration at, String given) {}

  /** What the two runs of a comparison differ in, as the table output's heading names it. */
  enum Compared {
    GPU_POLICY("GPU policy"), SCENARIO("Scenario");

    private final String heading;

    Compared(String heading) {
      this.heading = heading;
    }
  }

  /** A file to apply from {@code --apply FILE@TIME}; {@code given} is the option's value as typed. */
  record TimedApply(Path file, Duration at, String given) {}

  private static final Pattern FAILURE = Pattern.compile("([^@]+)@([^@]+)");
  /** The file is everything before the last {@code @} (a path may hold one). */
  private static final Pattern APPLY = Pattern.compile("(.+)@([^@]+)");
  /** A simulated time of {@code --fail-node} and {@code --apply}, as their help and errors name its forms. */
  static final String TIME_FORMS = "MM:SS, H:MM:SS as the timeline prints it, or a duration such as 90s, 15h or 1h30m";
  private static final Pattern MINUTES_SECONDS = Pattern.compile("(\\d+):([0-5]\\d)");
  private static final Pattern HOURS_MINUTES_SECONDS = Pattern.compile("(\\d+):([0-5]\\d):([0-5]\\d)");
  /** The longest simulation accepted: the simulated clock counts nanoseconds in a long (292 years). */
  static final Duration MAX_DURATION = Duration.ofDays(36_500);

  @Spec
  private CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE|DIR", description = "Manifest files or directories.")
  private List<Path> paths;

  @Option(names = "--duration", defaultValue = "30m", converter = DurationConverter.class,
      description = "Simulated time to run, e.g. 90s, 30m, 1h30m (default: ${DEFAULT-VALUE}).")
  private Duration duration;

  @Option(names = "--fail-node", paramLabel = "NODE@TIME", converter = FailureConverter.class,
      description = "Kill NODE at simulated TIME (" + TIME_FORMS + "), e.g. node-2@05:00 or node-2@15h (repeatable).")
  private List<NodeFailure> failures = new ArrayList<>();

  @Option(names = "--apply", paramLabel = "FILE@TIME", converter = ApplyConverter.class,
      description = "Create or update the objects in FILE at simulated TIME (as --fail-node), through the store like "
          + "kubectl apply (repeatable), e.g. a Rollout with a new image.")
  private List<TimedApply> applies = new ArrayList<>();

  @Option(names = "--output", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE}).")
  private Format output;

  @Option(names = "--seed", defaultValue = "0", description = "Seed for names and tie-breaking (default: "
      + "${DEFAULT-VALUE}).")
  private long seed;

  @Option(names = "--pod-events", defaultValue = "true", negatable = true, fallbackValue = "true",
      description = "Include per-pod events in the timeline (default: ${DEFAULT-VALUE}).")
  private boolean podEvents;

  @Option(names = "--report", paramLabel = "FILE.html",
      description = "Also write a self-contained HTML report (charts, summary, event table) to FILE.html.")
  private Path report;

  @Option(names = "--gpu-policy", paramLabel = "POLICY",
      description = "Schedule GPUs with this placement policy (BestFit, DotProduct, GpuPacking, GpuClustering, "
          + "Random, FGD, FgdBalanced, GapFill, ModelGapFill, AdaptiveGapFill, ReservingGapFill), in place of the "
          + "Scenario's spec.scheduler.gpuPolicy.")
  private String gpuPolicy;

  @Option(names = "--compare-gpu-policy", paramLabel = "POLICY",
      description = {"Run the scenario a second time with this GPU placement policy and show both: a table of "
          + "figures (pending pods, GPUs requested, used and stranded, latency, cost, Jobs), \"comparison\" in "
          + "JSON, and a comparison section with overlaid charts in the --report.",
          "--duration, --seed, --fail-node and --apply apply to both runs."})
  private String compareGpuPolicy;

  @Option(names = CompareWith.OPTION, paramLabel = "FILE.yaml",
      description = {"Run a second time with the Scenario of FILE (exactly one, nothing else) in place of the"
          + " manifests' own, on the same other manifests, and show both as --compare-gpu-policy does, labelled by"
          + " the scenarios' metadata.name; both must run as long and sample as often. Not with"
          + " --compare-gpu-policy.",
          "--duration, --seed, --fail-node, --apply and --gpu-policy apply to both runs."})
  private Path compareWith;

  @Option(names = "--quiet", description = "No progress on stderr (progress is shown only when stderr is a terminal) "
      + "and no warnings of manifest fields FleetKit does not model.")
  private boolean quiet;

  @Option(names = "--metrics", paramLabel = "FILE",
      description = "Write the final metrics (scheduler, controllers, work queues; with a Scenario also the HPA and "
          + "cluster autoscaler) to FILE in Prometheus text format; with --compare-gpu-policy or --compare-with, "
          + "those of the first run.")
  private Path metricsFile;

  @CommandLine.Mixin
  private StoreOptions storeOptions = new StoreOptions();

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (compareWith != null && compareGpuPolicy != null) {
      err.println("simulate: " + CompareWith.OPTION + " and --compare-gpu-policy cannot be given together: a"
          + " comparison has two runs; give a second scenario or a second GPU policy (a FILE's Scenario may set"
          + " spec.scheduler.gpuPolicy)");
      err.flush();
      return 2;
    }
    Simulation.@Nullable StoreFactory storeFactory;
    try {
      storeFactory = storeFactory(storeOptions);
    } catch (IllegalArgumentException | IllegalStateException e) {
      err.println("simulate: " + CliText.clipLine(String.valueOf(e.getMessage())));
      err.flush();
      return 2;
    }
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
    if (!quiet) {
      ManifestWarnings.print(loaded, err);
    }
    List<LoadedObjects> applied = new ArrayList<>();
    for (TimedApply a : applies) {
      LoadedObjects l = loadApplied(a, err);
      if (l == null) {
        return 1;
      }
      if (!quiet) {
        ManifestWarnings.print(l, err);
      }
      applied.add(l);
    }
    List<Scenario> scenarios = loaded.ofType(Scenario.class);
    if (scenarios.size() > 1) {
      err.println("simulate: " + scenarios.size() + " Scenario objects among the manifests; give one");
      err.flush();
      return 1;
    }
    LoadedObjects otherLoaded = null;
    if (compareWith != null) {
      otherLoaded = CompareWith.load(compareWith, quiet, err);
      if (otherLoaded == null) {
        return 2;
      }
    }
    if (!scenarios.isEmpty() || report != null || gpuPolicy != null || compareGpuPolicy != null
        || otherLoaded != null) {
      return runScenario(loaded, applied, scenarios.isEmpty() ? null : scenarios.get(0), otherLoaded, storeFactory,
          out, err);
    }
    if (!timesWithin(duration, err)) {
      return 2;
    }
    List<TimelineEvent> timeline;
    SimulationSummary summary;
    MetricsFile metrics = MetricsFile.of(metricsFile);
    Simulation.Builder b;
    try {
      b = Simulation.builder().objects(loaded.objects()).seed(seed).podEvents(podEvents).metrics(metrics.registry());
      for (int i = 0; i < applies.size(); i++) {
        b.apply(applies.get(i).at(), applied.get(i).objects(), applies.get(i).file().toString());
      }
    } catch (IllegalArgumentException e) { // e.g. Kueue's objects without a Scenario
      err.println(CliText.clipLine("simulate: " + e.getMessage()));
      err.flush();
      return 1;
    }
    if (storeFactory != null) {
      b.store(storeFactory);
    }
    for (NodeFailure f : failures) {
      b.failNode(f.node(), f.at());
    }
    if (Cluster.usesTenancy(loaded.objects())) {
      b.admission(Admission::withServiceAccounts); // as `schedule` does: quotas and limit ranges apply
    }
    boolean networking = !loaded.ofType(Service.class).isEmpty();
    if (networking) {
      // their warnings (SyncLoadBalancerFailed, ...) on the timeline
      ClusterNetworking.defaults().simulatedControllers(b.warningEvents()).forEach(b::controller);
    }
    List<ServiceSummary> services;
    try (Simulation sim = b.build()) {
      sim.runFor(duration);
      timeline = sim.timeline();
      summary = sim.summary();
      services = networking ? ServiceSummary.of(sim.store().list(Service.class).items(),
          sim.store().list(EndpointSlice.class).items()) : List.of();
    } catch (IllegalArgumentException | IllegalStateException | FleetKitException e) {
      err.println("simulate: " + e.getMessage());
      err.flush();
      return 1;
    }
    if (!metrics.write(err)) {
      return 1;
    }
    if (output == Format.json) {
      out.println(json(timeline, summary, services));
    } else {
      table(timeline, summary, out);
      services(services, out);
    }
    out.flush();
    return 0;
  }

  /**
   * The store of {@code --store}: {@code null} for the in-memory default, else an etcd store in direct mode under
   * a new prefix, so that every run starts empty and is as reproducible as in memory. The options are checked here,
   * before anything runs.
   *
   * @throws IllegalArgumentException naming the option at fault (see {@link StoreOptions#etcd()})
   * @throws IllegalStateException if the etcd settings do not suit the endpoints (credentials in clear to a remote
   *     host)
   */
  static Simulation.@Nullable StoreFactory storeFactory(StoreOptions options) {
    options.check(); // every file and pairing checked once, before the simulation starts
    if (!options.isEtcd()) {
      return null;
    }
    return (clock, uids, admission) -> {
      EtcdStoreBuilder b = options.etcd().prefix("/fleetkit-sim/" + UUID.randomUUID()).clock(clock)
          .uidGenerator(uids).directDelivery();
      if (!admission.isEmpty()) {
        b.admission(admission);
      }
      return b.build();
    };
  }

  /**
   * The scenario run: the loaded Scenario (or a plain one) with the command line's overrides; with
   * {@code --compare-gpu-policy}, or {@code --compare-with} ({@code otherGiven}, FILE's Scenario), a second run
   * with the same overrides and the two side by side.
   */
  private int runScenario(LoadedObjects loaded, List<LoadedObjects> applied, @Nullable Scenario given,
      @Nullable LoadedObjects otherLoaded, Simulation.@Nullable StoreFactory storeFactory, PrintWriter out,
      PrintWriter err) {
    @Nullable ManifestLocation givenAt = given == null ? null : loaded.locationOf(given).orElse(null);
    @Nullable Scenario otherGiven = otherLoaded == null ? null : otherLoaded.ofType(Scenario.class).get(0);
    @Nullable ManifestLocation otherAt = otherGiven == null ? null : otherLoaded.locationOf(otherGiven).orElse(null);
    CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
    boolean durationSet = parsed.hasMatchedOption("--duration");
    boolean seedSet = parsed.hasMatchedOption("--seed");
    String policy;
    String otherPolicy;
    try {
      policy = gpuPolicy == null ? null : GpuPolicy.of(gpuPolicy).displayName();
      otherPolicy = compareGpuPolicy == null ? null : GpuPolicy.of(compareGpuPolicy).displayName();
    } catch (IllegalArgumentException e) {
      err.println(CliText.clipLine("simulate: --gpu-policy/--compare-gpu-policy: " + e.getMessage()));
      err.flush();
      return 2;
    }
    if (!failedNodesKnown(loaded, err)) {
      return 1;
    }
    Scenario scenario;
    try {
      scenario = withGpuPolicy(withOverrides(given, durationSet, seedSet), policy);
    } catch (IllegalArgumentException | FleetKitException e) {
      err.println("simulate: " + e.getMessage());
      err.flush();
      return 1;
    }
    if (!timesWithin(scenario.spec().duration(), err)) {
      return 2;
    }
    if (!quiet) {
      lateFaults(given, givenAt, scenario.spec().duration(), err);
    }
    // The second run, if any: FILE's scenario with the same overrides, or this one under the other GPU policy.
    Scenario other = null;
    Compared compared = null;
    List<String> labels = List.of();
    String otherPrefix = "";
    if (otherGiven != null) {
      otherPrefix = CompareWith.OPTION + " " + compareWith + ": ";
      try {
        other = withGpuPolicy(withOverrides(otherGiven, durationSet, seedSet), policy);
      } catch (IllegalArgumentException | FleetKitException e) {
        err.println(CliText.clipLine("simulate: " + otherPrefix + e.getMessage()));
        err.flush();
        return 2;
      }
      if (!sameSamples(scenario, other, "simulate: " + otherPrefix, err)) {
        return 2;
      }
      compared = Compared.SCENARIO;
      labels = CompareWith.labels(scenario, givenAt == null ? null : givenAt.source(), paths, other, compareWith);
    }
    List<ApiObject<?>> objects = new ArrayList<>();
    for (ApiObject<?> o : loaded.objects()) {
      if (!(o instanceof Scenario)) {
        objects.add(o);
      }
    }
    boolean showProgress = !quiet && Terminals.stderrIsTerminal();
    SimulationRun run;
    RunComparison comparison = null;
    MetricsFile metrics = MetricsFile.of(metricsFile);
    String failing = "";
    try {
      if (otherPolicy != null) {
        other = withGpuPolicy(scenario, otherPolicy);
        compared = Compared.GPU_POLICY;
        labels = List.of(policyLabel(scenario), policyLabel(other));
      }
      // both built before either runs, so a second scenario that does not fit the manifests fails at once
      ClusterSimulation first = simulation(objects, applied, scenario, storeFactory, metrics.registry(), showProgress,
          err);
      ClusterSimulation second = null;
      if (other != null) {
        failing = otherPrefix;
        second = simulation(objects, applied, other, storeFactory, MetricsRegistry.NOOP, showProgress, err);
        failing = "";
      }
      run = first.run();
      if (second != null) {
        failing = otherPrefix;
        comparison = new RunComparison(labels.get(0), run, labels.get(1), second.run());
      }
    } catch (ValidationException e) {
      // the scenario against the manifests: each broken rule at its line in the scenario's file, when it has one
      ManifestLocation at = failing.isEmpty() ? givenAt : otherAt;
      for (Violation v : e.violations()) {
        err.println(CliText.clipLine("simulate: " + (at == null ? failing + v
            : (failing.isEmpty() ? "" : CompareWith.OPTION + " ") + at.problem(v))));
      }
      err.flush();
      return 1;
    } catch (IllegalArgumentException | IllegalStateException | FleetKitException e) {
      err.println(CliText.clipLine("simulate: " + failing + e.getMessage()));
      err.flush();
      return 1;
    } finally {
      if (showProgress) {
        err.print("\r\033[K");
        err.flush();
      }
    }
    if (!metrics.write(err)) {
      return 1;
    }
    if (report != null) {
      try {
        Path parent = report.toAbsolutePath().getParent();
        if (parent != null) {
          Files.createDirectories(parent);
        }
        Files.writeString(report, comparison == null ? HtmlReport.render(run) : HtmlReport.render(comparison),
            StandardCharsets.UTF_8);
      } catch (IOException e) {
        err.println("simulate: cannot write the report " + report + ": " + e.getMessage());
        err.flush();
        return 1;
      }
    }
    if (output == Format.json) {
      out.println(comparison == null ? json(run) : json(comparison, compared));
    } else {
      table(run.timeline(), run.summary(), out);
      services(run.services(), out);
      loads(out, run.loads());
      run.series("cumulative cost").ifPresentOrElse(c -> out.printf("  Cost        %.2f $ in total%n", c.last()),
          () -> out.printf("  Cost        %s%n", SimulationRun.NO_PRICE));
      if (comparison != null) {
        comparisonTable(comparison, compared, out);
      }
      if (report != null) {
        out.printf("%nReport: %s%n", report);
      }
    }
    out.flush();
    return 0;
  }

  /** {@code s} with {@code policy} as its GPU policy; {@code s} itself when {@code policy} is null. */
  private static Scenario withGpuPolicy(Scenario s, @Nullable String policy) {
    return policy == null ? s
        : new Scenario(s.metadata(), s.spec().withScheduler(s.spec().scheduler().withGpuPolicy(policy)));
  }

  /**
   * Whether the two scenarios are sampled at the same times (as long a run, the same interval), as a comparison's
   * charts need; prints why not, after {@code prefix}, when they are not.
   */
  private static boolean sameSamples(Scenario first, Scenario second, String prefix, PrintWriter err) {
    ScenarioSpec a = first.spec();
    ScenarioSpec b = second.spec();
    if (a.duration().equals(b.duration()) && a.sampleInterval().equals(b.sampleInterval())) {
      return true;
    }
    err.println(CliText.clipLine(prefix + "scenario " + second.metadata().name() + " runs "
        + GoDurations.format(b.duration()) + " sampled every " + GoDurations.format(b.sampleInterval())
        + ", scenario " + first.metadata().name() + " runs " + GoDurations.format(a.duration()) + " sampled every "
        + GoDurations.format(a.sampleInterval()) + "; the two runs of a comparison must be sampled at the same"
        + " times (--duration sets both durations; give both the same spec.sampleInterval)"));
    err.flush();
    return false;
  }

  /** One scenario's simulation with the command line's applies, store, metrics registry and progress. */
  private ClusterSimulation simulation(List<ApiObject<?>> objects, List<LoadedObjects> applied, Scenario scenario,
      Simulation.@Nullable StoreFactory storeFactory, MetricsRegistry metrics, boolean showProgress,
      PrintWriter err) {
    ClusterSimulation.Builder b = ClusterSimulation.builder().objects(objects).scenario(scenario)
        .podEvents(podEvents).metrics(metrics);
    for (int i = 0; i < applies.size(); i++) {
      b.apply(applies.get(i).at(), applied.get(i).objects(), applies.get(i).file().toString());
    }
    if (storeFactory != null) {
      b.store(storeFactory);
    }
    if (showProgress) {
      b.progress(p -> progress(p, err));
    }
    return b.build();
  }

  /** The GPU policy a scenario runs, as a comparison labels it. */
  private static String policyLabel(Scenario s) {
    return s.spec().scheduler().hasGpuPolicy() ? s.spec().scheduler().gpuPolicy() : "no GPU policy";
  }

  private static void comparisonTable(RunComparison c, Compared compared, PrintWriter out) {
    int w = "FIGURE".length();
    for (RunComparison.Row r : c.rows()) {
      w = Math.max(w, r.figure().length());
    }
    int a = Math.max(12, c.label().length());
    String fmt = "  %-" + w + "s  %" + a + "s  %s%n";
    out.printf("%n%s %s compared with %s:%n", compared.heading, c.label(), c.otherLabel());
    out.printf(fmt, "FIGURE", c.label().toUpperCase(java.util.Locale.ROOT), c.otherLabel().toUpperCase(
        java.util.Locale.ROOT));
    for (RunComparison.Row r : c.rows()) {
      out.printf(fmt, r.figure(), figure(r.value(), r.unit()), figure(r.otherValue(), r.unit()));
    }
  }

  private static String figure(double v, String unit) {
    return (v == Math.rint(v) ? Long.toString((long) v) : String.format(java.util.Locale.ROOT, "%.2f", v)) + " "
        + unit;
  }

  /** Loads the file of one {@code --apply}; prints the problems and returns null when it cannot. */
  private static @Nullable LoadedObjects loadApplied(TimedApply a, PrintWriter err) {
    LoadedObjects l;
    try {
      l = KubernetesYaml.load(List.of(a.file()));
    } catch (ManifestException e) {
      for (ManifestProblem p : e.problems()) {
        err.println(CliText.clipLine("--apply " + a.given() + ": " + p));
      }
      err.flush();
      return null;
    } catch (IllegalArgumentException | FleetKitException e) {
      err.println(CliText.clipLine("--apply " + a.given() + ": " + e.getMessage()));
      err.flush();
      return null;
    }
    if (!l.ofType(Scenario.class).isEmpty()) {
      err.println(CliText.clipLine("--apply " + a.given() + ": a Scenario cannot be applied during a run; give it"
          + " with the manifests"));
      err.flush();
      return null;
    }
    if (l.objects().isEmpty()) {
      err.println(CliText.clipLine("--apply " + a.given() + ": no objects in " + a.file()));
      err.flush();
      return null;
    }
    return l;
  }

  /**
   * Whether every {@code --fail-node} names a node of the manifests; prints the first that does not, naming the
   * option as given (a scenario run takes the failures as faults of its own, which the user did not write).
   */
  private boolean failedNodesKnown(LoadedObjects loaded, PrintWriter err) {
    Set<String> nodes = new TreeSet<>();
    for (Node n : loaded.ofType(Node.class)) {
      nodes.add(n.name());
    }
    for (NodeFailure f : failures) {
      if (!nodes.contains(f.node())) {
        err.println(CliText.clipLine("simulate: --fail-node " + f.given() + ": no node " + f.node()
            + " among the manifests (nodes: " + String.join(", ", nodes) + ")"));
        err.flush();
        return false;
      }
    }
    return true;
  }

  /**
   * Warns of the faults of the Scenario {@code given} (written at {@code at}) that fall after the end of a run of
   * {@code d}, as {@code --duration} shorter than the Scenario's leaves them: they do not happen. A warning, not an
   * error: running the first hours of a day on purpose is what the option is for.
   */
  private static void lateFaults(@Nullable Scenario given, @Nullable ManifestLocation at, Duration d,
      PrintWriter err) {
    if (given == null) {
      return;
    }
    List<ScenarioFault> faults = given.spec().faults();
    for (int i = 0; i < faults.size(); i++) {
      if (faults.get(i).at().compareTo(d) > 0) {
        String field = "spec.faults[" + i + "].at";
        err.println(CliText.clipLine("Warning: " + (at == null ? "" : at.source() + ":" + at.lineOf(field) + ": ")
            + "Scenario " + given.metadata().name() + ": " + field + ": " + TimelineEvent.clock(faults.get(i).at())
            + " is after the end of the run (" + TimelineEvent.clock(d) + "); the fault does not happen"));
      }
    }
    err.flush();
  }

  /**
   * Whether every {@code --fail-node} and {@code --apply} falls within a run of {@code d}; prints the first that does
   * not.
   */
  private boolean timesWithin(Duration d, PrintWriter err) {
    for (NodeFailure f : failures) {
      if (f.at().compareTo(d) > 0) {
        err.println(CliText.clipLine("simulate: --fail-node " + f.given() + ": "
            + TimelineEvent.clock(f.at()) + " is after the end of the run (" + TimelineEvent.clock(d)
            + "); the node would never fail"));
        err.flush();
        return false;
      }
    }
    for (TimedApply a : applies) {
      if (a.at().compareTo(d) > 0) {
        err.println(CliText.clipLine("simulate: --apply " + a.given() + ": "
            + TimelineEvent.clock(a.at()) + " is after the end of the run (" + TimelineEvent.clock(d)
            + "); it would never be applied"));
        err.flush();
        return false;
      }
    }
    return true;
  }

  /** {@code given} (or an empty scenario) with --duration, --seed and --fail-node applied. */
  private Scenario withOverrides(@Nullable Scenario given, boolean durationSet, boolean seedSet) {
    ScenarioSpec s = given == null
        ? new ScenarioSpec(duration, seed, ScenarioSpec.DEFAULT_SAMPLE_INTERVAL, List.of(), List.of(),
            ScenarioFeatures.ALL)
        : given.spec();
    List<ScenarioFault> faults = new ArrayList<>(s.faults());
    for (NodeFailure f : failures) {
      faults.add(new ScenarioFault(f.at(), FaultType.NodeFailure, f.node(), null));
    }
    Duration d = durationSet || given == null ? duration : s.duration();
    Duration interval = s.sampleInterval();
    if (given == null && d.compareTo(Duration.ofMinutes(30)) <= 0) {
      interval = Duration.ofSeconds(Math.max(1, d.toSeconds() / 60)); // about 60 samples for a short run
    }
    ScenarioSpec merged = new ScenarioSpec(d, seedSet || given == null ? seed : s.seed(), interval, s.loads(), faults,
        s.features(), s.queues(), s.jobStreams(), s.queueScalers(), s.nodeStartup(), s.scheduler(), s.cohorts(),
        s.waitForPodsReady(), s.clusterAutoscaler(), s.provisioner());
    ObjectMeta meta = given == null ? ObjectMeta.builder().name("command-line").build() : given.metadata();
    return new Scenario(meta, merged);
  }

  private static void progress(Progress p, PrintWriter err) {
    if (p.wallNanos() < 1_000_000_000L) {
      return; // runs shorter than a second show nothing
    }
    err.printf("\rsimulated %s of %s, %.1f s wall, %.0f events/s\033[K",
        TimelineEvent.clock(p.simulated()), TimelineEvent.clock(p.total()),
        p.wallNanos() / 1e9, p.eventsPerSecond());
    err.flush();
  }

  static String json(SimulationRun run) {
    return JsonMapper.builder().build().writeValueAsString(jsonTree(run));
  }

  /**
   * The first run's JSON with {@code "comparison"}: both labels ({@code "label"}, {@code "otherLabel"}; for two GPU
   * policies also as {@code "gpuPolicy"}, {@code "otherGpuPolicy"}), the figures of both runs and the second run's
   * JSON ({@code "other"}, the same shape).
   */
  static String json(RunComparison c, Compared compared) {
    Map<String, Object> root = jsonTree(c.run());
    Map<String, Object> cmp = new LinkedHashMap<>();
    if (compared == Compared.GPU_POLICY) {
      cmp.put("gpuPolicy", c.label());
      cmp.put("otherGpuPolicy", c.otherLabel());
    }
    cmp.put("label", c.label());
    cmp.put("otherLabel", c.otherLabel());
    List<Map<String, Object>> figures = new ArrayList<>();
    for (RunComparison.Row r : c.rows()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("figure", r.figure());
      m.put("unit", r.unit());
      m.put("value", r.value());
      m.put("otherValue", r.otherValue());
      figures.add(m);
    }
    cmp.put("figures", figures);
    cmp.put("other", jsonTree(c.other()));
    root.put("comparison", cmp);
    return JsonMapper.builder().build().writeValueAsString(root);
  }

  private static Map<String, Object> jsonTree(SimulationRun run) {
    Map<String, Object> root = root(run.timeline(), run.summary());
    @SuppressWarnings("unchecked")
    Map<String, Object> fin = (Map<String, Object>) root.get("final");
    fin.put("services", serviceItems(run.services()));
    List<Map<String, Object>> loads = new ArrayList<>();
    for (LoadOutcome l : run.loads()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("target", l.target());
      m.put("requests", Math.round(l.requests()));
      m.put("unservedRequests", Math.round(l.unserved()));
      m.put("worstMinute", l.worstMinute() == null ? null : l.worstMinute().toSeconds());
      m.put("worstMinuteUnservedRequests", Math.round(l.worstMinuteUnserved()));
      loads.add(m);
    }
    fin.put("loads", loads);
    Map<String, Object> series = new LinkedHashMap<>();
    List<Long> seconds = new ArrayList<>();
    for (Duration t : run.sampleTimes()) {
      seconds.add(t.toSeconds());
    }
    series.put("seconds", seconds);
    List<Map<String, Object>> items = new ArrayList<>();
    for (TimeSeries t : run.series()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", t.name());
      m.put("chart", t.chart());
      m.put("unit", t.unit());
      m.put("values", t.values());
      items.add(m);
    }
    series.put("items", items);
    root.put("scenario", run.scenario());
    root.put("seed", run.seed());
    root.put("series", series);
    return root;
  }

  /** How many pending pods the table names before it counts the rest. */
  static final int MAX_PENDING_LINES = 10;

  static String json(List<TimelineEvent> timeline, SimulationSummary summary) {
    return json(timeline, summary, List.of());
  }

  /** With {@code final.services}: each Service's cluster IP and its endpoints, all and ready. */
  static String json(List<TimelineEvent> timeline, SimulationSummary summary, List<ServiceSummary> services) {
    Map<String, Object> root = root(timeline, summary);
    @SuppressWarnings("unchecked")
    Map<String, Object> fin = (Map<String, Object>) root.get("final");
    fin.put("services", serviceItems(services));
    return JsonMapper.builder().build().writeValueAsString(root);
  }

  private static List<Map<String, Object>> serviceItems(List<ServiceSummary> services) {
    List<Map<String, Object>> items = new ArrayList<>();
    for (ServiceSummary s : services) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", s.name());
      m.put("clusterIP", s.clusterIP());
      m.put("endpoints", s.endpoints());
      m.put("ready", s.ready());
      if (!s.loadBalancer().isEmpty()) {
        m.put("loadBalancer", s.loadBalancer());
      }
      items.add(m);
    }
    return items;
  }

  private static void services(List<ServiceSummary> services, PrintWriter out) {
    for (ServiceSummary s : services) {
      out.printf("  Service %s  %s  %d/%d endpoints ready%s%n", s.name(), s.clusterIP().isEmpty() ? "-" : s.clusterIP(),
          s.ready(), s.endpoints(), s.loadBalancer().isEmpty() ? "" : "  load balancer "
              + String.join(", ", s.loadBalancer()));
    }
  }

  private static Map<String, Object> root(List<TimelineEvent> timeline, SimulationSummary summary) {
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
      m.put("status", j.status());
      m.put("succeeded", j.succeeded());
      m.put("failed", j.failed());
      jobs.add(m);
    }
    fin.put("jobs", jobs);
    List<Map<String, Object>> rollouts = new ArrayList<>();
    for (RolloutSummary r : summary.rollouts()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", r.name());
      m.put("phase", r.phase());
      m.put("step", r.step());
      m.put("steps", r.steps());
      m.put("stableRevision", r.stableRevision());
      m.put("canaryWeight", r.canaryWeight());
      m.put("stableWeight", 100 - r.canaryWeight());
      m.put("aborted", r.aborted());
      m.put("message", r.message());
      rollouts.add(m);
    }
    fin.put("rollouts", rollouts);
    List<Map<String, Object>> pending = new ArrayList<>();
    for (PendingPodSummary p : summary.pending()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", p.name());
      m.put("reason", p.reason());
      m.put("message", p.message());
      pending.add(m);
    }
    fin.put("pending", pending);
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("simulated", TimelineEvent.clock(summary.at()));
    root.put("timeline", events);
    root.put("final", fin);
    return root;
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

  /** The end-of-run lines of one workload kind: one per workload, or one for many ({@link SummaryGroups}). */
  private static void workloads(PrintWriter out, String kind, List<WorkloadSummary> workloads) {
    String grouped = SummaryGroups.workloads(kind, workloads);
    if (grouped != null) {
      out.printf("  %-11s %s%n", kind, grouped);
      return;
    }
    for (WorkloadSummary w : workloads) {
      out.printf("  %-11s %s  %d/%d ready%n", kind, w.name(), w.ready(), w.replicas());
    }
  }

  /** The loads' lines: one per load, or their sum and those beyond capacity for many ({@link SummaryGroups}). */
  private static void loads(PrintWriter out, List<LoadOutcome> loads) {
    SummaryGroups.Loads grouped = SummaryGroups.loads(loads);
    if (grouped != null) {
      out.printf("  Load        on %d workloads: %s%s%n", grouped.count(), grouped.all().summary(),
          grouped.missedClause());
    }
    for (LoadOutcome l : grouped == null ? loads : grouped.listed()) {
      out.printf("  Load        %s  %s%n", l.target(), l.summary());
    }
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
    out.printf("%nAfter %s simulated:%n", TimelineEvent.clock(summary.at()));
    workloads(out, "Deployment", summary.deployments());
    workloads(out, "StatefulSet", summary.statefulSets());
    String jobs = SummaryGroups.jobs(summary.jobs());
    if (jobs != null) {
      out.printf("  Job         %s%n", jobs);
    } else {
      for (JobSummary j : summary.jobs()) {
        out.printf("  Job         %s  %s, %d succeeded, %d failed%n", j.name(), j.status(), j.succeeded(), j.failed());
      }
    }
    for (RolloutSummary r : summary.rollouts()) {
      out.printf("  Rollout     %s  %s%s, canary weight %d%%, stable %s%s%s%n", r.name(), r.phase(),
          r.stepProgress() == null ? "" : ", step " + r.stepProgress(), r.canaryWeight(), r.stableRevision(),
          r.aborted() ? ", aborted" : "", r.message().isEmpty() ? "" : ": " + r.message());
    }
    List<PendingPodSummary> pending = summary.pending();
    for (int i = 0; i < Math.min(pending.size(), MAX_PENDING_LINES); i++) {
      PendingPodSummary p = pending.get(i);
      out.printf("  Pending     %s  %s%n", p.name(), p.reason().isEmpty() ? "(the scheduler has not reported on it)"
          : CliText.clipLine(p.reason() + ": " + p.message()));
    }
    if (pending.size() > MAX_PENDING_LINES) {
      out.printf("  ... and %d more pending pods (--output json lists them all)%n", pending.size() - MAX_PENDING_LINES);
    }
  }

  /**
   * Parses a Go duration ({@code 90s}, {@code 30m}, {@code 1h30m}, {@code 1.5h}) with core-api's
   * {@link GoDurations}; a negative one is refused, and one longer than {@link #MAX_DURATION}.
   */
  static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      String text = value.trim();
      Duration d;
      try {
        d = GoDurations.parse(text);
      } catch (InvalidGoDurationException e) {
        if (e.outOfRange() && !text.startsWith("-")) {
          throw tooLong(value);
        }
        throw notADuration(value);
      }
      if (d.isNegative()) {
        throw notADuration(value);
      }
      if (d.compareTo(MAX_DURATION) > 0) {
        throw tooLong(value);
      }
      return d;
    }

    private static CommandLine.TypeConversionException notADuration(String value) {
      return new CommandLine.TypeConversionException("'" + CliText.clip(value)
          + "' is not a duration; use a Go duration such as 90s, 30m, 1h30m or 1.5h");
    }

    private static CommandLine.TypeConversionException tooLong(String value) {
      return new CommandLine.TypeConversionException("'" + CliText.clip(value) + "' is too long a duration; at"
          + " most " + MAX_DURATION.toHours() + "h (about 100 years of simulated time)");
    }
  }

  /**
   * Parses the simulated time of {@code value}'s {@code text} ({@link #TIME_FORMS}); {@code form} and {@code example}
   * name the option's value in the error.
   */
  static Duration simulatedTime(String value, String text, String form, String example) {
    String t = text.trim();
    Duration d = null;
    try {
      Matcher hms = HOURS_MINUTES_SECONDS.matcher(t);
      Matcher ms = MINUTES_SECONDS.matcher(t);
      if (hms.matches()) {
        d = Duration.ofHours(Long.parseLong(hms.group(1))).plusMinutes(Long.parseLong(hms.group(2)))
            .plusSeconds(Long.parseLong(hms.group(3)));
      } else if (ms.matches()) {
        d = Duration.ofMinutes(Long.parseLong(ms.group(1))).plusSeconds(Long.parseLong(ms.group(2)));
      } else if (!t.isEmpty() && (Character.isDigit(t.charAt(0)) || t.charAt(0) == '.')) {
        d = GoDurations.parse(t);
      }
    } catch (InvalidGoDurationException e) {
      if (e.outOfRange()) {
        throw tooLate(value);
      }
    } catch (ArithmeticException | NumberFormatException e) {
      throw tooLate(value);
    }
    if (d == null) {
      throw new CommandLine.TypeConversionException("'" + CliText.clip(value) + "' is not " + form + " (TIME: "
          + TIME_FORMS + "), e.g. " + example);
    }
    if (d.compareTo(MAX_DURATION) > 0) {
      throw tooLate(value);
    }
    return d;
  }

  private static CommandLine.TypeConversionException tooLate(String value) {
    return new CommandLine.TypeConversionException("'" + CliText.clip(value) + "': the time is past the longest run ("
        + MAX_DURATION.toHours() + "h)");
  }

  /** Parses {@code FILE@TIME}; the file must be readable. */
  static final class ApplyConverter implements CommandLine.ITypeConverter<TimedApply> {
    private static final String FORM = "FILE@TIME";
    private static final String EXAMPLE = "web-v3.yaml@02:00";

    @Override
    public TimedApply convert(String value) {
      Matcher m = APPLY.matcher(value.trim());
      if (!m.matches()) {
        throw new CommandLine.TypeConversionException("'" + CliText.clip(value) + "' is not " + FORM
            + " (a manifest file, '@', TIME: " + TIME_FORMS + "), e.g. " + EXAMPLE);
      }
      Duration at = simulatedTime(value, m.group(2), FORM, EXAMPLE);
      Path file;
      try {
        file = Path.of(m.group(1));
      } catch (java.nio.file.InvalidPathException e) {
        throw new CommandLine.TypeConversionException("'" + CliText.clip(value) + "': not a file name: "
            + e.getReason());
      }
      if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
        throw new CommandLine.TypeConversionException("'" + CliText.clip(value) + "': " + CliText.clip(m.group(1))
            + " is not a readable file");
      }
      return new TimedApply(file, at, value.trim());
    }
  }

  /** Parses {@code NODE@TIME}. */
  static final class FailureConverter implements CommandLine.ITypeConverter<NodeFailure> {
    private static final String FORM = "NODE@TIME";
    private static final String EXAMPLE = "node-2@05:00";

    @Override
    public NodeFailure convert(String value) {
      Matcher m = FAILURE.matcher(value.trim());
      if (!m.matches()) {
        throw new CommandLine.TypeConversionException("'" + CliText.clip(value) + "' is not " + FORM
            + " (a node name, '@', TIME: " + TIME_FORMS + "), e.g. " + EXAMPLE);
      }
      return new NodeFailure(m.group(1), simulatedTime(value, m.group(2), FORM, EXAMPLE), value.trim());
    }
  }
}
