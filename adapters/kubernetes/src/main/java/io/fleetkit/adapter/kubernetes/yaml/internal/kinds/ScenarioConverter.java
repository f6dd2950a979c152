package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.KindConverter;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.simulation.FaultType;
import io.fleetkit.api.simulation.LoadPattern;
import io.fleetkit.api.simulation.RatePoint;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFault;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.api.simulation.WorkloadLoad;
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
 * {@code seconds,requestsPerSecond} rows (a header row and {@code #} comments are skipped).
 */
public final class ScenarioConverter implements KindConverter<GenericKubernetesResource, Scenario> {
  private static final Set<String> SPEC_FIELDS = Set.of("duration", "seed", "sampleInterval", "features", "loads",
      "faults");
  private static final Set<String> FEATURE_FIELDS = Set.of("horizontalPodAutoscaler", "clusterAutoscaler",
      "storage");
  private static final Set<String> LOAD_FIELDS = Set.of("target", "cpuPerRequest", "memoryPerRequest", "constant",
      "step", "diurnal", "spike", "csv");
  private static final Set<String> TARGET_FIELDS = Set.of("kind", "namespace", "name");
  private static final Set<String> FAULT_FIELDS = Set.of("at", "nodeFailure", "zoneFailure", "recoverAfter");
  private static final List<String> SHAPES = List.of("constant", "step", "diurnal", "spike", "csv");

  @Override
  public String apiVersion() {
    return Scenario.API_VERSION;
  }

  @Override
  public String kind() {
    return Scenario.KIND;
  }

  @Override
  public boolean namespaced() {
    return false;
  }

  @Override
  public Class<GenericKubernetesResource> fabric8Type() {
    return GenericKubernetesResource.class;
  }

  @Override
  public Class<Scenario> coreType() {
    return Scenario.class;
  }

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
    ScenarioFeatures features = new ScenarioFeatures(flag(f, "horizontalPodAutoscaler", ctx),
        flag(f, "clusterAutoscaler", ctx), flag(f, "storage", ctx));
    List<WorkloadLoad> loads = new ArrayList<>();
    List<Object> rawLoads = Untyped.list(spec, "loads", "spec.loads", ctx);
    for (int i = 0; i < rawLoads.size(); i++) {
      WorkloadLoad l = load(Untyped.asMap(rawLoads.get(i), "spec.loads[" + i + "]", ctx), "spec.loads[" + i + "]",
          meta, ctx);
      if (l != null) {
        loads.add(l);
      }
    }
    List<ScenarioFault> faults = new ArrayList<>();
    List<Object> rawFaults = Untyped.list(spec, "faults", "spec.faults", ctx);
    for (int i = 0; i < rawFaults.size(); i++) {
      ScenarioFault fault = fault(Untyped.asMap(rawFaults.get(i), "spec.faults[" + i + "]", ctx),
          "spec.faults[" + i + "]", ctx);
      if (fault != null) {
        faults.add(fault);
      }
    }
    if (ctx.hasErrors()) {
      return null;
    }
    ScenarioSpec s = new ScenarioSpec(duration, seed == null ? 0 : seed, interval, loads, faults, features);
    return ctx.build("", () -> new Scenario(meta, s));
  }

  private static boolean flag(Map<String, Object> m, String key, DocumentContext ctx) {
    Boolean b = Untyped.bool(m, key, "spec.features." + key, ctx);
    return b == null || b;
  }

  private static void known(Map<String, Object> m, Set<String> fields, String path, DocumentContext ctx) {
    for (String k : m.keySet()) {
      if (!fields.contains(k)) {
        ctx.error(path + "." + k, "is not a field of " + path + " (fields: " + new java.util.TreeSet<>(fields) + ")",
            null);
      }
    }
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
        yield r == null ? null : LoadPattern.constant(r);
      }
      case "step" -> {
        Map<String, Object> s = Untyped.map(m, "step", sp, ctx);
        known(s, Set.of("before", "after", "at"), sp, ctx);
        yield LoadPattern.step(number(s, "before", sp, ctx), number(s, "after", sp, ctx), duration(s, "at", sp, ctx));
      }
      case "spike" -> {
        Map<String, Object> s = Untyped.map(m, "spike", sp, ctx);
        known(s, Set.of("base", "peak", "at", "length"), sp, ctx);
        yield LoadPattern.spike(number(s, "base", sp, ctx), number(s, "peak", sp, ctx), duration(s, "at", sp, ctx),
            duration(s, "length", sp, ctx));
      }
      case "diurnal" -> {
        Map<String, Object> s = Untyped.map(m, "diurnal", sp, ctx);
        known(s, Set.of("trough", "peak", "peakAt", "period"), sp, ctx);
        Duration period = s.containsKey("period") ? duration(s, "period", sp, ctx) : LoadPattern.DAY;
        yield LoadPattern.diurnal(number(s, "trough", sp, ctx), number(s, "peak", sp, ctx),
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
        double seconds = Double.parseDouble(cells[0].strip());
        double rate = Double.parseDouble(cells[1].strip());
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
    String node = Untyped.string(m, "nodeFailure", "", p + ".nodeFailure", ctx);
    String zone = Untyped.string(m, "zoneFailure", "", p + ".zoneFailure", ctx);
    if (node.isEmpty() == zone.isEmpty()) {
      ctx.error(p, "must have exactly one of nodeFailure (a node name) or zoneFailure (a zone)", null);
      return null;
    }
    Duration recover = m.containsKey("recoverAfter") ? duration(m, "recoverAfter", p, ctx) : null;
    return new ScenarioFault(at, node.isEmpty() ? FaultType.ZoneFailure : FaultType.NodeFailure,
        node.isEmpty() ? zone : node, recover);
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
      m.put(f.type() == FaultType.NodeFailure ? "nodeFailure" : "zoneFailure", f.target());
      if (f.recoverAfter() != null) {
        m.put("recoverAfter", NodePoolConverter.duration(f.recoverAfter()));
      }
      faults.add(m);
    }
    Untyped.put(spec, "faults", faults);
    return GenericKinds.resource(in, spec, null);
  }
}
