package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.simulation.FaultType;
import io.fleetkit.api.simulation.JobArrival;
import io.fleetkit.api.simulation.JobStream;
import io.fleetkit.api.simulation.QueueScaler;
import io.fleetkit.api.simulation.LoadPattern;
import io.fleetkit.api.simulation.NodeStartup;
import io.fleetkit.api.simulation.RatePoint;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioAdmissionFairSharing;
import io.fleetkit.api.simulation.ScenarioAutoscaler;
import io.fleetkit.api.simulation.ScenarioCheckController;
import io.fleetkit.api.simulation.ScenarioFairSharing;
import io.fleetkit.api.simulation.ScenarioCohort;
import io.fleetkit.api.simulation.ScenarioPodsReady;
import io.fleetkit.api.simulation.ScenarioProvisioner;
import io.fleetkit.api.simulation.ScenarioFault;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioQueue;
import io.fleetkit.api.simulation.ScenarioScheduler;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.api.simulation.WorkloadLoad;
import io.fleetkit.api.text.GoFloats;
import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import java.util.Arrays;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * simulation.fleetkit.io/v1 Scenario (see {@link Scenario} for the shape). Unknown fields are errors, so a typo
 * in a what-if never silently simulates something else. Durations are Go durations; {@code cpuPerRequest} and
 * {@code memoryPerRequest} are quantities per request/s; a CSV load is inline text of
 * {@code seconds,requestsPerSecond} rows (a header row and {@code #} comments are skipped);
 * {@code clusterAutoscaler} is read by {@link ScenarioAutoscalerYaml}, {@code provisioner} by
 * {@link ScenarioProvisionerYaml}.
 */
public final class ScenarioConverter extends AbstractKindConverter<GenericKubernetesResource, Scenario> {
  public ScenarioConverter() {
    super(Scenario.API_VERSION, Scenario.KIND, false, GenericKubernetesResource.class, Scenario.class);
  }
  private static final Set<String> SPEC_FIELDS = Set.of("duration", "seed", "sampleInterval", "features", "loads",
      "faults", "queues", "cohorts", "jobStreams", "queueScalers", "nodeStartup", "scheduler", "waitForPodsReady",
      "clusterAutoscaler", "provisioner", "fairSharing", "admissionFairSharing", "admissionCheckControllers");
  private static final Set<String> FEATURE_FIELDS = Set.of("horizontalPodAutoscaler", "clusterAutoscaler",
      "storage", "verticalPodAutoscaler", "queueAdmission", "queueScaling", "provisioner", "networking",
      "admission", "rollouts", "podGarbageCollector", "dynamicResources");
  private static final Set<String> QUEUE_FIELDS = Set.of("name", "namespaces", "cohort", "flavor", "quota");
  private static final Set<String> COHORT_FIELDS = Set.of("name", "parent", "flavor", "quota", "borrowingLimit",
      "lendingLimit");
  private static final Set<String> STREAM_FIELDS = Set.of("name", "namespace", "queue", "csv", "trace", "first",
      "timeScale", "poisson");
  private static final Set<String> POISSON_FIELDS = Set.of("perHour", "pods", "requests", "runFor");
  private static final Set<String> SCALER_FIELDS = Set.of("target", "perReplica", "activation", "minReplicas",
      "maxReplicas", "pollingInterval", "cooldown");
  private static final Set<String> LOAD_FIELDS = Set.of("target", "cpuPerRequest", "memoryPerRequest", "constant",
      "step", "diurnal", "spike", "csv");
  private static final Set<String> TARGET_FIELDS = Set.of("kind", "namespace", "name");
  /** The rule of a load's rates (as Scenario states its other numbers'). */
  private static final String RATE_RULE = "must be a finite number greater than or equal to 0";
  private static final Set<String> FAULT_FIELDS = Set.of("at", "nodeFailure", "zoneFailure", "gpuDeviceFault",
      "devices", "apiSlowness", "kubeletRestart", "capacityStockout", "zone", "recoverAfter", "spotInterruption",
      "nodes", "notice");
  private static final List<String> FAULT_KINDS = List.of("nodeFailure", "zoneFailure", "gpuDeviceFault",
      "apiSlowness", "kubeletRestart", "capacityStockout", "spotInterruption");
  private static final Set<String> STARTUP_FIELDS = Set.of("pool", "provision", "boot", "driver", "imagePull");
  private static final List<String> SHAPES = List.of("constant", "step", "diurnal", "spike", "csv");

  @Override
  public @Nullable Scenario toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    Map<String, Object> spec = GenericKinds.section(in, "spec", ctx);
    known(spec, SPEC_FIELDS, "spec", ctx);
    String durationText = Untyped.string(spec, "duration", "", "spec.duration", ctx);
    if (durationText.isEmpty()) {
      ctx.error("spec.duration", "is required", null);
    }
    Duration duration = NodePoolConverter.duration(durationText, "spec.duration", ctx);
    Long seed = Untyped.integer(spec, "seed", "spec.seed", ctx);
    String sample = Untyped.string(spec, "sampleInterval", "", "spec.sampleInterval", ctx);
    Duration interval = sample.isEmpty() ? ScenarioSpec.DEFAULT_SAMPLE_INTERVAL
        : NodePoolConverter.duration(sample, "spec.sampleInterval", ctx);
    Map<String, Object> f = Untyped.map(spec, "features", "spec.features", ctx);
    known(f, FEATURE_FIELDS, "spec.features", ctx);
    Boolean prov = Untyped.bool(f, "provisioner", "spec.features.provisioner", ctx);
    boolean provisioner = prov != null && prov;
    // the cluster autoscaler is on unless switched off, or unless the provisioner replaces it
    Boolean ca = Untyped.bool(f, "clusterAutoscaler", "spec.features.clusterAutoscaler", ctx);
    ScenarioFeatures features = new ScenarioFeatures(flag(f, "horizontalPodAutoscaler", ctx),
        ca == null ? !provisioner : ca, flag(f, "storage", ctx), flag(f, "verticalPodAutoscaler", ctx),
        flag(f, "queueAdmission", ctx), flag(f, "queueScaling", ctx), provisioner, flag(f, "networking", ctx),
        flag(f, "admission", ctx), flag(f, "rollouts", ctx), flag(f, "podGarbageCollector", ctx),
        flag(f, "dynamicResources", ctx));
    List<WorkloadLoad> loads = Untyped.entries(spec, "loads", "spec.loads", ctx, (m, p, c) -> load(m, p, meta, c));
    List<ScenarioFault> faults = Untyped.entries(spec, "faults", "spec.faults", ctx, ScenarioConverter::fault);
    List<ScenarioQueue> queues = Untyped.entries(spec, "queues", "spec.queues", ctx, ScenarioConverter::queue);
    List<ScenarioCohort> cohorts = Untyped.entries(spec, "cohorts", "spec.cohorts", ctx, ScenarioConverter::cohort);
    List<JobStream> streams = Untyped.entries(spec, "jobStreams", "spec.jobStreams", ctx, ScenarioConverter::stream);
    List<QueueScaler> scalers = Untyped.entries(spec, "queueScalers", "spec.queueScalers", ctx,
        ScenarioConverter::scaler);
    List<NodeStartup> startup = new ArrayList<>();
    List<Object> rawStartup = Untyped.list(spec, "nodeStartup", "spec.nodeStartup", ctx);
    for (int i = 0; i < rawStartup.size(); i++) {
      String p = "spec.nodeStartup[" + i + "]";
      Map<String, Object> m = Untyped.asMap(rawStartup.get(i), p, ctx);
      known(m, STARTUP_FIELDS, p, ctx);
      String pool = Values.required(Untyped.string(m, "pool", "", p + ".pool", ctx), p + ".pool", ctx);
      startup.add(new NodeStartup(pool, duration(m, "provision", p, ctx), duration(m, "boot", p, ctx),
          duration(m, "driver", p, ctx), duration(m, "imagePull", p, ctx)));
    }
    ScenarioScheduler scheduler = scheduler(Untyped.map(spec, "scheduler", "spec.scheduler", ctx), ctx);
    ScenarioPodsReady podsReady = spec.containsKey("waitForPodsReady")
        ? podsReady(Untyped.map(spec, "waitForPodsReady", "spec.waitForPodsReady", ctx), ctx) : null;
    ScenarioAutoscaler autoscaler = spec.containsKey("clusterAutoscaler") ? ScenarioAutoscalerYaml.read(
        Untyped.map(spec, "clusterAutoscaler", ScenarioAutoscalerYaml.PATH, ctx), ctx) : null;
    ScenarioProvisioner provisionerOptions = spec.containsKey("provisioner") ? ScenarioProvisionerYaml.read(
        Untyped.map(spec, "provisioner", ScenarioProvisionerYaml.PATH, ctx), ctx) : null;
    ScenarioFairSharing fairSharing = spec.containsKey("fairSharing") ? ScenarioKueueYaml.fairSharing(
        Untyped.map(spec, "fairSharing", ScenarioKueueYaml.FAIR_SHARING, ctx), ctx) : null;
    ScenarioAdmissionFairSharing admissionFairSharing = spec.containsKey("admissionFairSharing")
        ? ScenarioKueueYaml.admissionFairSharing(Untyped.map(spec, "admissionFairSharing",
            ScenarioKueueYaml.ADMISSION_FAIR_SHARING, ctx), ctx) : null;
    List<ScenarioCheckController> checkControllers = ScenarioKueueYaml.controllers(spec, ctx);
    if (ctx.hasErrors()) {
      return null;
    }
    ScenarioSpec s = new ScenarioSpec(duration, seed == null ? 0 : seed, interval, loads, faults, features, queues,
        streams, scalers, startup, scheduler, cohorts, podsReady, autoscaler, provisionerOptions, fairSharing,
        admissionFairSharing, checkControllers);
    return ctx.build("", () -> new Scenario(meta, s));
  }

  /**
   * {@code spec.waitForPodsReady}, Kueue's Configuration field: {@code timeout}, {@code blockAdmission}, {@code
   * recoveryTimeout} and {@code requeuingStrategy} ({@code timestamp} Eviction or Creation, {@code backoffLimitCount},
   * {@code backoffBaseSeconds}, {@code backoffMaxSeconds}), each with Kueue's default.
   */
  private static @Nullable ScenarioPodsReady podsReady(Map<String, Object> m, DocumentContext ctx) {
    String p = "spec.waitForPodsReady";
    known(m, Set.of("timeout", "blockAdmission", "recoveryTimeout", "requeuingStrategy"), p, ctx);
    String timeoutText = Untyped.string(m, "timeout", "", p + ".timeout", ctx);
    Duration timeout = timeoutText.isEmpty() ? ScenarioPodsReady.DEFAULT_TIMEOUT
        : NodePoolConverter.duration(timeoutText, p + ".timeout", ctx);
    Boolean block = Untyped.bool(m, "blockAdmission", p + ".blockAdmission", ctx);
    String recoveryText = Untyped.string(m, "recoveryTimeout", "", p + ".recoveryTimeout", ctx);
    Duration recovery = recoveryText.isEmpty() ? null
        : NodePoolConverter.duration(recoveryText, p + ".recoveryTimeout", ctx);
    String rp = p + ".requeuingStrategy";
    Map<String, Object> r = Untyped.map(m, "requeuingStrategy", rp, ctx);
    known(r, Set.of("timestamp", "backoffLimitCount", "backoffBaseSeconds", "backoffMaxSeconds"), rp, ctx);
    String timestamp = Untyped.string(r, "timestamp", "Eviction", rp + ".timestamp", ctx);
    if (!timestamp.equals("Eviction") && !timestamp.equals("Creation")) {
      ctx.error(rp + ".timestamp", "must be Eviction or Creation", timestamp);
    }
    Integer limitInt = Untyped.int32(r, "backoffLimitCount", rp + ".backoffLimitCount", ctx);
    Integer baseInt = Untyped.int32(r, "backoffBaseSeconds", rp + ".backoffBaseSeconds", ctx);
    Integer maxInt = Untyped.int32(r, "backoffMaxSeconds", rp + ".backoffMaxSeconds", ctx);
    if (ctx.hasErrors()) {
      return null;
    }
    return new ScenarioPodsReady(timeout, block != null && block, recovery, timestamp.equals("Creation"), limitInt,
        baseInt == null ? ScenarioPodsReady.DEFAULT_BACKOFF_BASE_SECONDS : baseInt,
        maxInt == null ? ScenarioPodsReady.DEFAULT_BACKOFF_MAX_SECONDS : maxInt);
  }

  /**
   * {@code spec.scheduler}: {@code profile} (default {@value ScenarioScheduler#DEFAULT_PROFILE}) and
   * {@code gpuPolicy}, a {@link GpuPolicy} by any of its names, kept as its display name.
   */
  private static ScenarioScheduler scheduler(Map<String, Object> m, DocumentContext ctx) {
    known(m, Set.of("profile", "gpuPolicy"), "spec.scheduler", ctx);
    String profile = Untyped.string(m, "profile", ScenarioScheduler.DEFAULT_PROFILE, "spec.scheduler.profile", ctx);
    if (!ScenarioScheduler.PROFILES.contains(profile)) {
      ctx.error("spec.scheduler.profile", "must be one of " + String.join(", ", ScenarioScheduler.PROFILES),
          profile);
    }
    String policy = Untyped.string(m, "gpuPolicy", "", "spec.scheduler.gpuPolicy", ctx);
    if (!policy.isEmpty()) {
      try {
        policy = GpuPolicy.of(policy).displayName();
      } catch (IllegalArgumentException e) {
        ctx.error("spec.scheduler.gpuPolicy", "must be one of " + String.join(", ",
            Arrays.stream(GpuPolicy.values()).map(GpuPolicy::displayName).toList())
            + " (names are matched ignoring case, dashes and underscores)", policy);
      }
    }
    return new ScenarioScheduler(profile, policy);
  }

  private static @Nullable ScenarioQueue queue(Map<String, Object> m, String p, DocumentContext ctx) {
    known(m, QUEUE_FIELDS, p, ctx);
    String name = Values.required(Untyped.string(m, "name", "", p + ".name", ctx), p + ".name", ctx);
    List<String> namespaces = Untyped.stringList(m, "namespaces", p + ".namespaces", ctx);
    String cohort = Untyped.string(m, "cohort", "", p + ".cohort", ctx);
    Map<String, Object> fl = Untyped.map(m, "flavor", p + ".flavor", ctx);
    known(fl, Set.of("name", "nodeLabels", "nodeTaints", "tolerations"), p + ".flavor", ctx);
    String flavor = Untyped.string(fl, "name", "default", p + ".flavor.name", ctx);
    Map<String, String> labels = Untyped.stringMap(fl, "nodeLabels", p + ".flavor.nodeLabels", ctx);
    List<Taint> taints = UntypedScheduling.taints(fl, "nodeTaints", p + ".flavor.nodeTaints", ctx);
    List<Toleration> tolerations = UntypedScheduling.tolerations(fl, "tolerations", p + ".flavor.tolerations", ctx);
    ResourceList quota = Untyped.resources(m, "quota", p + ".quota", ctx);
    if (ctx.hasErrors()) {
      return null;
    }
    return new ScenarioQueue(name, namespaces, cohort.isEmpty() ? null : cohort, flavor, labels, quota)
        .withFlavorTaints(taints, tolerations);
  }

  /**
   * A {@code spec.cohorts} entry: {@code name}, {@code parent}, {@code flavor: {name: ..}} (only the name: the queues
   * define a flavor's nodes), and the resource lists {@code quota}, {@code borrowingLimit} and {@code lendingLimit}.
   */
  private static @Nullable ScenarioCohort cohort(Map<String, Object> m, String p, DocumentContext ctx) {
    known(m, COHORT_FIELDS, p, ctx);
    String name = Values.required(Untyped.string(m, "name", "", p + ".name", ctx), p + ".name", ctx);
    String parent = Untyped.string(m, "parent", "", p + ".parent", ctx);
    Map<String, Object> fl = Untyped.map(m, "flavor", p + ".flavor", ctx);
    known(fl, Set.of("name"), p + ".flavor", ctx);
    String flavor = Untyped.string(fl, "name", ScenarioCohort.DEFAULT_FLAVOR, p + ".flavor.name", ctx);
    ResourceList quota = Untyped.resources(m, "quota", p + ".quota", ctx);
    ResourceList borrowing = Untyped.resources(m, "borrowingLimit", p + ".borrowingLimit", ctx);
    ResourceList lending = Untyped.resources(m, "lendingLimit", p + ".lendingLimit", ctx);
    if (ctx.hasErrors()) {
      return null;
    }
    return new ScenarioCohort(name, parent.isEmpty() ? null : parent, flavor, quota, borrowing, lending);
  }

  private static @Nullable JobStream stream(Map<String, Object> m, String p, DocumentContext ctx) {
    known(m, STREAM_FIELDS, p, ctx);
    String name = Values.required(Untyped.string(m, "name", "", p + ".name", ctx), p + ".name", ctx);
    String ns = Untyped.string(m, "namespace", "default", p + ".namespace", ctx);
    String queue = Untyped.string(m, "queue", "", p + ".queue", ctx);
    Long first = Untyped.integer(m, "first", p + ".first", ctx);
    Double scale = Untyped.number(m, "timeScale", p + ".timeScale", ctx);
    List<String> sources = new ArrayList<>();
    for (String k : List.of("csv", "trace", "poisson")) {
      if (m.containsKey(k)) {
        sources.add(k);
      }
    }
    if (sources.size() != 1) {
      ctx.error(p, "must have exactly one of [csv, trace, poisson]" + (sources.isEmpty() ? "" : ", not " + sources),
          null);
      return null;
    }
    int n = first == null ? 0 : (int) Math.min(Integer.MAX_VALUE, first);
    double ts = scale == null ? 1 : scale;
    switch (sources.get(0)) {
      case "csv" -> {
        try {
          List<JobArrival> jobs = JobStream.parsePodList(Untyped.string(m, "csv", "", p + ".csv", ctx), ts, n);
          if (jobs.isEmpty()) {
            ctx.error(p + ".csv", "must have at least one pod row after the header", null);
            return null;
          }
          return ctx.hasErrors() ? null : JobStream.of(name, ns, queue, jobs);
        } catch (IllegalArgumentException e) {
          ctx.error(p + ".csv", e.getMessage(), null);
          return null;
        }
      }
      case "trace" -> {
        String trace = Values.required(Untyped.string(m, "trace", "", p + ".trace", ctx), p + ".trace", ctx);
        return ctx.hasErrors() ? null : JobStream.trace(name, ns, queue, trace, n, ts);
      }
      default -> {
        String pp = p + ".poisson";
        Map<String, Object> po = Untyped.map(m, "poisson", pp, ctx);
        known(po, POISSON_FIELDS, pp, ctx);
        double perHour = number(po, "perHour", pp, ctx);
        Long pods = Untyped.integer(po, "pods", pp + ".pods", ctx);
        ResourceList req = Untyped.resources(po, "requests", pp + ".requests", ctx);
        Duration runFor = duration(po, "runFor", pp, ctx);
        if (ctx.hasErrors()) {
          return null;
        }
        return JobStream.poisson(name, ns, queue, perHour, new JobArrival(Duration.ZERO, "",
            pods == null ? 1 : (int) Math.min(Integer.MAX_VALUE, pods), req, runFor));
      }
    }
  }

  private static @Nullable QueueScaler scaler(Map<String, Object> m, String p, DocumentContext ctx) {
    known(m, SCALER_FIELDS, p, ctx);
    Map<String, Object> t = Untyped.map(m, "target", p + ".target", ctx);
    known(t, Set.of("namespace", "name"), p + ".target", ctx);
    String ns = Untyped.string(t, "namespace", "default", p + ".target.namespace", ctx);
    String name = Values.required(Untyped.string(t, "name", "", p + ".target.name", ctx), p + ".target.name", ctx);
    double perReplica = number(m, "perReplica", p, ctx);
    Double activation = Untyped.number(m, "activation", p + ".activation", ctx);
    Integer min = Untyped.int32(m, "minReplicas", p + ".minReplicas", ctx);
    Integer max = Untyped.int32(m, "maxReplicas", p + ".maxReplicas", ctx);
    Duration poll = m.containsKey("pollingInterval") ? duration(m, "pollingInterval", p, ctx)
        : QueueScaler.DEFAULT_POLLING_INTERVAL;
    Duration cool = m.containsKey("cooldown") ? duration(m, "cooldown", p, ctx) : QueueScaler.DEFAULT_COOLDOWN;
    if (ctx.hasErrors()) {
      return null;
    }
    return new QueueScaler(ns, name, perReplica, activation == null ? 0 : activation, min == null ? 0 : min,
        max == null ? QueueScaler.DEFAULT_MAX_REPLICAS : max, poll, cool);
  }

  private static boolean flag(Map<String, Object> m, String key, DocumentContext ctx) {
    Boolean b = Untyped.bool(m, key, "spec.features." + key, ctx);
    return b == null || b;
  }

  private static void known(Map<String, Object> m, Set<String> fields, String path, DocumentContext ctx) {
    Untyped.known(m, fields, path, ctx);
  }

  private static @Nullable WorkloadLoad load(Map<String, Object> m, String p, ObjectMeta meta, DocumentContext ctx) {
    known(m, LOAD_FIELDS, p, ctx);
    Map<String, Object> t = Untyped.map(m, "target", p + ".target", ctx);
    known(t, TARGET_FIELDS, p + ".target", ctx);
    String kind = Untyped.string(t, "kind", "Deployment", p + ".target.kind", ctx);
    String ns = Untyped.string(t, "namespace", "default", p + ".target.namespace", ctx);
    String name = Values.required(Untyped.string(t, "name", "", p + ".target.name", ctx), p + ".target.name", ctx);
    double cpu = perRequest(m, "cpuPerRequest", p, ctx, true);
    double mem = perRequest(m, "memoryPerRequest", p, ctx, false);
    List<String> shapes = new ArrayList<>();
    for (String s : SHAPES) {
      if (m.containsKey(s)) {
        shapes.add(s);
      }
    }
    if (shapes.size() != 1) {
      ctx.error(p, "must have exactly one of " + SHAPES + (shapes.isEmpty() ? "" : ", not " + shapes), null);
      return null;
    }
    String shape = shapes.get(0);
    String sp = p + "." + shape;
    LoadPattern pattern = switch (shape) {
      case "constant" -> {
        Double r = Untyped.number(m, "constant", sp, ctx);
        yield r == null ? null : LoadPattern.constant(rate(r, sp, ctx));
      }
      case "step" -> {
        Map<String, Object> s = Untyped.map(m, "step", sp, ctx);
        known(s, Set.of("before", "after", "at"), sp, ctx);
        yield LoadPattern.step(rate(s, "before", sp, ctx), rate(s, "after", sp, ctx), duration(s, "at", sp, ctx));
      }
      case "spike" -> {
        Map<String, Object> s = Untyped.map(m, "spike", sp, ctx);
        known(s, Set.of("base", "peak", "at", "length"), sp, ctx);
        yield LoadPattern.spike(rate(s, "base", sp, ctx), rate(s, "peak", sp, ctx), duration(s, "at", sp, ctx),
            duration(s, "length", sp, ctx));
      }
      case "diurnal" -> {
        Map<String, Object> s = Untyped.map(m, "diurnal", sp, ctx);
        known(s, Set.of("trough", "peak", "peakAt", "period"), sp, ctx);
        Duration period = s.containsKey("period") ? duration(s, "period", sp, ctx) : LoadPattern.DAY;
        yield LoadPattern.diurnal(rate(s, "trough", sp, ctx), rate(s, "peak", sp, ctx),
            duration(s, "peakAt", sp, ctx), period);
      }
      default -> csv(Untyped.string(m, "csv", "", sp, ctx), sp, ctx);
    };
    if (pattern == null || ctx.hasErrors()) {
      return null;
    }
    return new WorkloadLoad(kind, ns, name, pattern, cpu, mem);
  }

  private static double number(Map<String, Object> m, String key, String p, DocumentContext ctx) {
    Double d = Untyped.number(m, key, p + "." + key, ctx);
    if (d == null) {
      ctx.error(p + "." + key, "is required", null);
      return 0;
    }
    return d;
  }

  /** A required rate at {@code key}: {@link #rate(double, String, DocumentContext)} of its number. */
  private static double rate(Map<String, Object> m, String key, String p, DocumentContext ctx) {
    return rate(number(m, key, p, ctx), p + "." + key, ctx);
  }

  /**
   * {@code r} requests/s when it is a finite number, at least 0, as {@link LoadPattern} takes it; else reported
   * naming {@code path}, and 0 (the document is refused, so the 0 is never used).
   */
  private static double rate(double r, String path, DocumentContext ctx) {
    if (!(r >= 0) || r == Double.POSITIVE_INFINITY) {
      ctx.error(path, RATE_RULE, r);
      return 0;
    }
    return r;
  }

  private static Duration duration(Map<String, Object> m, String key, String p, DocumentContext ctx) {
    return NodePoolConverter.duration(Untyped.string(m, key, "", p + "." + key, ctx), p + "." + key, ctx);
  }

  /** Millicores (cpu) or bytes (memory) per request/s. */
  private static double perRequest(Map<String, Object> m, String key, String p, DocumentContext ctx, boolean milli) {
    if (!m.containsKey(key)) {
      return 0;
    }
    Quantity q = Values.quantity(Untyped.string(m, key, "", p + "." + key, ctx), p + "." + key, ctx);
    if (q == null) {
      return 0;
    }
    return milli ? q.toBigDecimal().doubleValue() * 1000 : q.toBigDecimal().doubleValue();
  }

  private static @Nullable LoadPattern csv(String text, String p, DocumentContext ctx) {
    List<RatePoint> points = new ArrayList<>();
    String[] lines = text.split("\\R");
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] cells = line.split(",");
      if (cells.length != 2) {
        ctx.error(p + " row " + (i + 1), "must be seconds,requestsPerSecond", line);
        continue;
      }
      try {
        double seconds = GoFloats.parseFloat(cells[0].strip());
        double rate = GoFloats.parseFloat(cells[1].strip());
        if (!Double.isFinite(seconds)) {
          // Math.round would make NaN 0 s and an infinity the longest duration
          ctx.error(p + " row " + (i + 1), "seconds must be a finite number", cells[0].strip());
          continue;
        }
        if (!Double.isFinite(rate)) {
          ctx.error(p + " row " + (i + 1), "requestsPerSecond must be a finite number", cells[1].strip());
          continue;
        }
        if (rate < 0) {
          ctx.error(p + " row " + (i + 1) + " requestsPerSecond", RATE_RULE, cells[1].strip());
          continue;
        }
        points.add(new RatePoint(Duration.ofMillis(Math.round(seconds * 1000)), rate));
      } catch (NumberFormatException e) {
        if (points.isEmpty() && i == firstContentLine(lines)) {
          continue; // a header row
        }
        ctx.error(p + " row " + (i + 1), "must be two numbers seconds,requestsPerSecond", line);
      }
    }
    return LoadPattern.csv(points);
  }

  private static int firstContentLine(String[] lines) {
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i].strip();
      if (!l.isEmpty() && !l.startsWith("#")) {
        return i;
      }
    }
    return -1;
  }

  private static @Nullable ScenarioFault fault(Map<String, Object> m, String p, DocumentContext ctx) {
    known(m, FAULT_FIELDS, p, ctx);
    if (!m.containsKey("at")) {
      ctx.error(p + ".at", "is required", null);
    }
    Duration at = duration(m, "at", p, ctx);
    List<String> kinds = new ArrayList<>();
    for (String k : FAULT_KINDS) {
      if (m.containsKey(k)) {
        kinds.add(k);
      }
    }
    if (kinds.size() != 1) {
      ctx.error(p, "must have exactly one of nodeFailure (a node name), zoneFailure (a zone), gpuDeviceFault (a node "
          + "name), apiSlowness (a latency), kubeletRestart (a node name), capacityStockout (a NodePool name) or "
          + "spotInterruption (a NodePool name)"
          + (kinds.isEmpty() ? "" : ", not " + kinds), null);
      return null;
    }
    String kind = kinds.get(0);
    if (m.containsKey("devices") && !kind.equals("gpuDeviceFault")) {
      ctx.error(p + ".devices", "is only for gpuDeviceFault", null);
    }
    if (m.containsKey("zone") && !kind.equals("capacityStockout")) {
      ctx.error(p + ".zone", "is only for capacityStockout (a zoneFailure names its zone itself)", null);
    }
    for (String field : List.of("nodes", "notice")) {
      if (m.containsKey(field) && !kind.equals("spotInterruption")) {
        ctx.error(p + "." + field, "is only for spotInterruption", null);
      }
    }
    Duration recover = m.containsKey("recoverAfter") ? duration(m, "recoverAfter", p, ctx) : null;
    if (kind.equals("spotInterruption")) {
      String pool = Untyped.string(m, kind, "", p + "." + kind, ctx);
      Integer nodes = Untyped.int32(m, "nodes", p + ".nodes", ctx);
      Duration notice = m.containsKey("notice") ? duration(m, "notice", p, ctx) : ScenarioFault.DEFAULT_SPOT_NOTICE;
      // a recoverAfter is kept, for the scenario's validation to reject by name
      return new ScenarioFault(at, FaultType.SpotInterruption, pool, recover, 0, null, null, nodes == null ? 1 : nodes,
          notice);
    }
    if (kind.equals("apiSlowness")) {
      Duration latency = duration(m, "apiSlowness", p, ctx);
      return ScenarioFault.apiSlowness(at, latency, recover);
    }
    String target = Untyped.string(m, kind, "", p + "." + kind, ctx);
    if (kind.equals("gpuDeviceFault")) {
      Integer devices = Untyped.int32(m, "devices", p + ".devices", ctx);
      return ScenarioFault.gpuDeviceFault(at, target, devices == null ? 1 : devices, recover);
    }
    if (kind.equals("capacityStockout")) {
      String zone = m.containsKey("zone") ? Untyped.string(m, "zone", "", p + ".zone", ctx) : null;
      return ScenarioFault.capacityStockout(at, target, zone, recover);
    }
    FaultType type = switch (kind) {
      case "nodeFailure" -> FaultType.NodeFailure;
      case "kubeletRestart" -> FaultType.KubeletRestart;
      default -> FaultType.ZoneFailure;
    };
    return new ScenarioFault(at, type, target, recover);
  }

  @Override
  public GenericKubernetesResource toFabric8(Scenario in) {
    ScenarioSpec s = in.spec();
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("duration", NodePoolConverter.duration(s.duration()));
    spec.put("seed", s.seed());
    spec.put("sampleInterval", NodePoolConverter.duration(s.sampleInterval()));
    Map<String, Object> features = new LinkedHashMap<>();
    features.put("horizontalPodAutoscaler", s.features().horizontalPodAutoscaler());
    features.put("clusterAutoscaler", s.features().clusterAutoscaler());
    features.put("storage", s.features().storage());
    features.put("verticalPodAutoscaler", s.features().verticalPodAutoscaler());
    features.put("queueAdmission", s.features().queueAdmission());
    features.put("queueScaling", s.features().queueScaling());
    features.put("provisioner", s.features().provisioner());
    features.put("networking", s.features().networking());
    features.put("admission", s.features().admission());
    features.put("rollouts", s.features().rollouts());
    features.put("podGarbageCollector", s.features().podGarbageCollector());
    features.put("dynamicResources", s.features().dynamicResources());
    spec.put("features", features);
    List<Object> loads = new ArrayList<>();
    for (WorkloadLoad l : s.loads()) {
      Map<String, Object> m = new LinkedHashMap<>();
      Map<String, Object> target = new LinkedHashMap<>();
      target.put("kind", l.kind());
      target.put("namespace", l.namespace());
      target.put("name", l.name());
      m.put("target", target);
      if (l.cpuMilliPerRequest() != 0) {
        m.put("cpuPerRequest", Quantity.ofMilli(Math.round(l.cpuMilliPerRequest())).toString());
      }
      if (l.memoryPerRequest() != 0) {
        m.put("memoryPerRequest", Quantity.ofBytes(Math.round(l.memoryPerRequest())).toString());
      }
      LoadPattern lp = l.pattern();
      switch (lp.shape()) {
        case Constant -> m.put("constant", lp.base());
        case Step -> m.put("step", Map.of("before", lp.base(), "after", lp.peak(),
            "at", NodePoolConverter.duration(lp.at())));
        case Spike -> m.put("spike", Map.of("base", lp.base(), "peak", lp.peak(),
            "at", NodePoolConverter.duration(lp.at()), "length", NodePoolConverter.duration(lp.length())));
        case Diurnal -> m.put("diurnal", Map.of("trough", lp.base(), "peak", lp.peak(),
            "peakAt", NodePoolConverter.duration(lp.at()), "period", NodePoolConverter.duration(lp.period())));
        case Csv -> {
          StringBuilder sb = new StringBuilder();
          for (RatePoint r : lp.points()) {
            sb.append(r.at().toMillis() / 1000.0).append(',').append(r.requestsPerSecond()).append('\n');
          }
          m.put("csv", sb.toString());
        }
      }
      loads.add(m);
    }
    Untyped.put(spec, "loads", loads);
    List<Object> faults = new ArrayList<>();
    for (ScenarioFault f : s.faults()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("at", NodePoolConverter.duration(f.at()));
      switch (f.type()) {
        case NodeFailure -> m.put("nodeFailure", f.target());
        case ZoneFailure -> m.put("zoneFailure", f.target());
        case GpuDeviceFault -> {
          m.put("gpuDeviceFault", f.target());
          m.put("devices", f.devices());
        }
        case ApiSlowness -> m.put("apiSlowness", NodePoolConverter.duration(
            java.util.Objects.requireNonNull(f.latency(), "latency")));
        case KubeletRestart -> m.put("kubeletRestart", f.target());
        case SpotInterruption -> {
          m.put("spotInterruption", f.target());
          m.put("nodes", f.nodes());
          m.put("notice", NodePoolConverter.duration(java.util.Objects.requireNonNull(f.notice(), "notice")));
        }
        case CapacityStockout -> {
          m.put("capacityStockout", f.target());
          if (f.zone() != null) {
            m.put("zone", f.zone());
          }
        }
      }
      if (f.recoverAfter() != null) {
        m.put("recoverAfter", NodePoolConverter.duration(f.recoverAfter()));
      }
      faults.add(m);
    }
    Untyped.put(spec, "faults", faults);
    List<Object> queues = new ArrayList<>();
    for (ScenarioQueue q : s.queues()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", q.name());
      m.put("namespaces", q.namespaces());
      if (q.cohort() != null) {
        m.put("cohort", q.cohort());
      }
      Map<String, Object> fl = new LinkedHashMap<>();
      fl.put("name", q.flavor());
      if (!q.nodeLabels().isEmpty()) {
        fl.put("nodeLabels", new java.util.TreeMap<>(q.nodeLabels()));
      }
      Untyped.put(fl, "nodeTaints", UntypedScheduling.write(q.nodeTaints()));
      Untyped.put(fl, "tolerations", UntypedScheduling.writeTolerations(q.tolerations()));
      m.put("flavor", fl);
      Untyped.put(m, "quota", Untyped.resources(q.quota()));
      queues.add(m);
    }
    Untyped.put(spec, "queues", queues);
    List<Object> cohorts = new ArrayList<>();
    for (ScenarioCohort c : s.cohorts()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", c.name());
      if (c.parent() != null) {
        m.put("parent", c.parent());
      }
      if (!c.quota().isEmpty() || !c.flavor().equals(ScenarioCohort.DEFAULT_FLAVOR)) {
        m.put("flavor", Map.of("name", c.flavor()));
      }
      Untyped.put(m, "quota", Untyped.resources(c.quota()));
      Untyped.put(m, "borrowingLimit", Untyped.resources(c.borrowingLimit()));
      Untyped.put(m, "lendingLimit", Untyped.resources(c.lendingLimit()));
      cohorts.add(m);
    }
    Untyped.put(spec, "cohorts", cohorts);
    List<Object> streams = new ArrayList<>();
    for (JobStream js : s.jobStreams()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", js.name());
      m.put("namespace", js.namespace());
      if (!js.queue().isEmpty()) {
        m.put("queue", js.queue());
      }
      JobArrival t = js.template();
      if (t != null) {
        Map<String, Object> po = new LinkedHashMap<>();
        po.put("perHour", js.perHour());
        po.put("pods", t.pods());
        Untyped.put(po, "requests", Untyped.resources(t.requests()));
        po.put("runFor", NodePoolConverter.duration(t.runFor()));
        m.put("poisson", po);
      } else if (!js.trace().isEmpty()) {
        m.put("trace", js.trace());
        m.put("first", js.first());
        m.put("timeScale", js.timeScale());
      } else {
        StringBuilder sb = new StringBuilder(String.join(",", JobStream.COLUMNS)).append('\n');
        for (JobArrival a : js.jobs()) {
          long at = a.at().toMillis() / 1000;
          sb.append(a.name()).append(',').append(a.requests().milliCpu()).append(',')
              .append(a.requests().memoryBytes() / (1024 * 1024)).append(',')
              .append(a.requests().value(JobStream.GPU)).append(',').append(at).append(',')
              .append(at + a.runFor().toMillis() / 1000).append('\n');
        }
        m.put("csv", sb.toString());
      }
      streams.add(m);
    }
    Untyped.put(spec, "jobStreams", streams);
    List<Object> scalers = new ArrayList<>();
    for (QueueScaler q : s.queueScalers()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("target", Map.of("namespace", q.namespace(), "name", q.name()));
      m.put("perReplica", q.perReplica());
      m.put("activation", q.activation());
      m.put("minReplicas", q.minReplicas());
      m.put("maxReplicas", q.maxReplicas());
      m.put("pollingInterval", NodePoolConverter.duration(q.pollingInterval()));
      m.put("cooldown", NodePoolConverter.duration(q.cooldown()));
      scalers.add(m);
    }
    Untyped.put(spec, "queueScalers", scalers);
    List<Object> startup = new ArrayList<>();
    for (NodeStartup ns : s.nodeStartup()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("pool", ns.pool());
      m.put("provision", NodePoolConverter.duration(ns.provision()));
      m.put("boot", NodePoolConverter.duration(ns.boot()));
      m.put("driver", NodePoolConverter.duration(ns.driver()));
      m.put("imagePull", NodePoolConverter.duration(ns.imagePull()));
      startup.add(m);
    }
    Untyped.put(spec, "nodeStartup", startup);
    if (!s.scheduler().equals(ScenarioScheduler.DEFAULT)) {
      Map<String, Object> sched = new LinkedHashMap<>();
      sched.put("profile", s.scheduler().profile());
      if (s.scheduler().hasGpuPolicy()) {
        sched.put("gpuPolicy", s.scheduler().gpuPolicy());
      }
      spec.put("scheduler", sched);
    }
    ScenarioPodsReady w = s.waitForPodsReady();
    if (w != null) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("timeout", NodePoolConverter.duration(w.timeout()));
      m.put("blockAdmission", w.blockAdmission());
      if (w.recoveryTimeout() != null) {
        m.put("recoveryTimeout", NodePoolConverter.duration(w.recoveryTimeout()));
      }
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("timestamp", w.creationTimestamp() ? "Creation" : "Eviction");
      if (w.backoffLimitCount() != null) {
        r.put("backoffLimitCount", w.backoffLimitCount());
      }
      r.put("backoffBaseSeconds", w.backoffBaseSeconds());
      r.put("backoffMaxSeconds", w.backoffMaxSeconds());
      m.put("requeuingStrategy", r);
      spec.put("waitForPodsReady", m);
    }
    ScenarioKueueYaml.write(spec, s.fairSharing(), s.admissionFairSharing(), s.admissionCheckControllers());
    ScenarioAutoscaler autoscaler = s.clusterAutoscaler();
    if (autoscaler != null) {
      spec.put("clusterAutoscaler", ScenarioAutoscalerYaml.write(autoscaler)); // {} too: set, all defaults
    }
    ScenarioProvisioner provisioner = s.provisioner();
    if (provisioner != null) {
      spec.put("provisioner", ScenarioProvisionerYaml.write(provisioner)); // {} too: set, all defaults
    }
    return GenericKinds.resource(in, spec, null);
  }
}
