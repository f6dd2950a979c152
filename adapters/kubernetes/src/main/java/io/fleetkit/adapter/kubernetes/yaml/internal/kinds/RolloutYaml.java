package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.rollouts.AnalysisArgument;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricProvider;
import io.fleetkit.api.rollouts.RolloutAnalysis;
import io.fleetkit.api.time.GoDurations;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The parts of Argo Rollouts' kinds that several converters share, read from and written to untyped maps:
 * durations ({@code 30s}, {@code 5m}, {@code 1h30m}, or whole seconds), int-or-percent, pod templates and Job
 * specs (through fabric8's models), analysis references, arguments and metrics.
 */
final class RolloutYaml {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  /** Go's {@code strconv.Atoi} digits: an optional sign and ASCII digits. */
  private static final Pattern WHOLE_SECONDS = Pattern.compile("[+-]?[0-9]+");
  private static final JobConverter JOBS = new JobConverter();

  private RolloutYaml() {}

  /**
   * Argo's {@code DurationString}: whole seconds (a YAML integer or ASCII digits, as Go's {@code strconv.Atoi} reads
   * them) or a Go duration, read by {@link Values#duration}; {@code null} when absent or (reported) refused.
   */
  static @Nullable Duration duration(Map<String, Object> m, String key, String path, DocumentContext ctx) {
    Object v = m.get(key);
    if (v == null) {
      return null;
    }
    // a YAML integer as written (one past a long's range too: it is refused as too long, not wrapped round to a
    // negative number); a YAML float as written, which no whole-seconds or Go duration reading takes
    String s = v instanceof Number ? v.toString() : String.valueOf(v).trim();
    // Argo's time.Duration(n) * time.Second for whole seconds; past Go's longest it is refused, not wrapped round
    return Values.duration(WHOLE_SECONDS.matcher(s).matches() ? s + "s" : s, s, path, ctx);
  }

  /** Whether the YAML scalar was an integer (of any size), not a float. */
  private static boolean isInteger(Number n) {
    return n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte
        || n instanceof BigInteger;
  }

  /** Argo's spelling of {@code d}: Go's ({@link GoDurations#format}), {@code 30s}, {@code 5m0s}, {@code 1h0m0s}. */
  static @Nullable String duration(@Nullable Duration d) {
    return d == null ? null : GoDurations.format(d);
  }

  static @Nullable IntOrPercent intOrPercent(Map<String, Object> m, String key, IntOrPercent dflt, String path,
      DocumentContext ctx) {
    Object v = m.get(key);
    if (v == null) {
      return dflt;
    }
    if (v instanceof Number n) {
      // Kubernetes' IntOrString holds an int32: a larger integer is refused, not wrapped round, and so is a fraction
      String text = n.toString(); // an integer's digits, whatever its size
      if (!isInteger(n)) {
        ctx.error(path, "must be an integer or a percentage such as \"25%\"", text);
        return dflt;
      }
      BigInteger whole = new BigInteger(text);
      if (whole.bitLength() > 31) {
        ctx.error(path, whole.signum() > 0 ? "must be at most " + Integer.MAX_VALUE + ", the largest 32-bit integer"
            : "must be at least " + Integer.MIN_VALUE + ", the smallest 32-bit integer", text);
        return dflt;
      }
      return Values.intOrPercent(new IntOrString(whole.intValueExact()), dflt, path, ctx);
    }
    return Values.intOrPercent(new IntOrString(String.valueOf(v)), dflt, path, ctx);
  }

  static Object intOrPercent(IntOrPercent v) {
    return v.percent() ? v.value() + "%" : (Object) v.value();
  }

  static @Nullable PodTemplateSpec template(Map<String, Object> spec, String path, DocumentContext ctx) {
    Object t = spec.get("template");
    if (t == null) {
      ctx.error(path, "is required", null);
      return null;
    }
    var f8 = SERIALIZATION.convertValue(t, io.fabric8.kubernetes.api.model.PodTemplateSpec.class);
    return PodSpecs.template(f8, path, ctx);
  }

  static Object template(PodTemplateSpec t) {
    return SERIALIZATION.convertValue(PodSpecs.template(t), Map.class);
  }

  static io.fleetkit.api.labels.@Nullable LabelSelector selector(Map<String, Object> spec, String path,
      DocumentContext ctx) {
    Object v = spec.get("selector");
    if (v == null) {
      ctx.error(path, "is required", null);
      return null;
    }
    return io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Selectors.untyped(v, path, ctx);
  }

  static Object selector(io.fleetkit.api.labels.LabelSelector s) {
    return io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Selectors.untyped(s);
  }

  static @Nullable JobSpec jobSpec(Object spec, String namespace, String path, DocumentContext ctx) {
    var f8spec = SERIALIZATION.convertValue(spec, io.fabric8.kubernetes.api.model.batch.v1.JobSpec.class);
    var job = new io.fabric8.kubernetes.api.model.batch.v1.Job();
    job.setMetadata(new ObjectMetaBuilder().withName("analysis").withNamespace(namespace).build());
    job.setSpec(f8spec);
    Job core = JOBS.toCore(job, ctx);
    return core == null ? null : core.spec();
  }

  static Object jobSpec(JobSpec s, String namespace) {
    Job j = new Job(ObjectMeta.of(namespace, "analysis"), s, JobStatus.EMPTY);
    return SERIALIZATION.convertValue(JOBS.toFabric8(j).getSpec(), Map.class);
  }

  static List<AnalysisArgument> args(Map<String, Object> m, String path, DocumentContext ctx) {
    List<AnalysisArgument> out = new ArrayList<>();
    List<Object> list = Untyped.list(m, "args", path, ctx);
    for (int i = 0; i < list.size(); i++) {
      Map<String, Object> a = Untyped.asMap(list.get(i), path + "[" + i + "]", ctx);
      String name = Untyped.string(a, "name", "", path + "[" + i + "].name", ctx);
      Object v = a.get("value");
      out.add(new AnalysisArgument(name, v == null ? null : String.valueOf(v)));
    }
    return out;
  }

  static @Nullable List<Object> args(List<AnalysisArgument> args) {
    if (args.isEmpty()) {
      return null;
    }
    List<Object> out = new ArrayList<>();
    for (AnalysisArgument a : args) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", a.name());
      Untyped.put(m, "value", a.value());
      out.add(m);
    }
    return out;
  }

  static @Nullable RolloutAnalysis analysis(Map<String, Object> parent, String key, String path,
      DocumentContext ctx) {
    if (!parent.containsKey(key)) {
      return null;
    }
    Map<String, Object> m = Untyped.map(parent, key, path, ctx);
    List<String> templates = new ArrayList<>();
    List<Object> list = Untyped.list(m, "templates", path + ".templates", ctx);
    for (int i = 0; i < list.size(); i++) {
      Map<String, Object> t = Untyped.asMap(list.get(i), path + ".templates[" + i + "]", ctx);
      templates.add(Untyped.string(t, "templateName", "", path + ".templates[" + i + "].templateName", ctx));
    }
    return new RolloutAnalysis(templates, args(m, path + ".args", ctx),
        Untyped.int32(m, "startingStep", path + ".startingStep", ctx));
  }

  static @Nullable Map<String, Object> analysis(@Nullable RolloutAnalysis a) {
    if (a == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    List<Object> templates = new ArrayList<>();
    for (String t : a.templates()) {
      templates.add(Map.of("templateName", t));
    }
    m.put("templates", templates);
    Untyped.put(m, "args", args(a.args()));
    Untyped.put(m, "startingStep", a.startingStep());
    return m;
  }

  static List<Metric> metrics(Map<String, Object> spec, String namespace, String path, DocumentContext ctx) {
    List<Metric> out = new ArrayList<>();
    List<Object> list = Untyped.list(spec, "metrics", path, ctx);
    for (int i = 0; i < list.size(); i++) {
      String p = path + "[" + i + "]";
      Map<String, Object> m = Untyped.asMap(list.get(i), p, ctx);
      Map<String, Object> prov = Untyped.map(m, "provider", p + ".provider", ctx);
      MetricProvider provider = provider(prov, namespace, p + ".provider", ctx);
      if (provider == null) {
        continue;
      }
      Integer failureLimit = Untyped.int32(m, "failureLimit", p + ".failureLimit", ctx);
      Integer inconclusiveLimit = Untyped.int32(m, "inconclusiveLimit", p + ".inconclusiveLimit", ctx);
      Integer errorLimit = Untyped.int32(m, "consecutiveErrorLimit", p + ".consecutiveErrorLimit", ctx);
      Integer successLimit = Untyped.int32(m, "consecutiveSuccessLimit", p + ".consecutiveSuccessLimit", ctx);
      Integer count = Untyped.int32(m, "count", p + ".count", ctx);
      out.add(new Metric(Untyped.string(m, "name", "", p + ".name", ctx),
          duration(m, "interval", p + ".interval", ctx), duration(m, "initialDelay", p + ".initialDelay", ctx),
          count == null ? 0 : count, Untyped.string(m, "successCondition", "", p + ".successCondition", ctx),
          Untyped.string(m, "failureCondition", "", p + ".failureCondition", ctx),
          failureLimit == null ? 0 : failureLimit, inconclusiveLimit == null ? 0 : inconclusiveLimit,
          errorLimit == null ? Metric.DEFAULT_CONSECUTIVE_ERROR_LIMIT : errorLimit,
          successLimit == null ? 0 : successLimit, provider));
    }
    return out;
  }

  private static @Nullable MetricProvider provider(Map<String, Object> prov, String namespace, String p,
      DocumentContext ctx) {
    if (prov.size() != 1) {
      ctx.error(p, prov.isEmpty() ? "must specify one of job, prometheus, simulated"
          : "may specify only one of job, prometheus, simulated", prov.keySet());
      return null;
    }
    String type = prov.keySet().iterator().next();
    Map<String, Object> body = Untyped.map(prov, type, p + "." + type, ctx);
    switch (type) {
      case "job" -> {
        JobSpec spec = jobSpec(body.getOrDefault("spec", Map.of()), namespace, p + ".job.spec", ctx);
        return spec == null ? null : new MetricProvider.Job(spec);
      }
      case "prometheus" -> {
        Integer timeout = Untyped.int32(body, "timeout", p + ".prometheus.timeout", ctx);
        return new MetricProvider.Prometheus(Untyped.string(body, "address", "", p + ".prometheus.address", ctx),
            Untyped.string(body, "query", "", p + ".prometheus.query", ctx),
            timeout == null ? null : Duration.ofSeconds(timeout));
      }
      case "simulated" -> {
        return new MetricProvider.Simulated(Untyped.string(body, "metric", "", p + ".simulated.metric", ctx));
      }
      default -> {
        ctx.error(p + "." + type, "is not a supported provider: supported are job, prometheus, simulated", null);
        return null;
      }
    }
  }

  static List<Object> metrics(List<Metric> metrics, String namespace) {
    List<Object> out = new ArrayList<>();
    for (Metric m : metrics) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("name", m.name());
      Untyped.put(o, "interval", duration(m.interval()));
      Untyped.put(o, "initialDelay", duration(m.initialDelay()));
      Untyped.put(o, "count", m.count() == 0 ? null : m.count());
      Untyped.put(o, "successCondition", Values.emptyToNull(m.successCondition()));
      Untyped.put(o, "failureCondition", Values.emptyToNull(m.failureCondition()));
      Untyped.put(o, "failureLimit", m.failureLimit() == 0 ? null : m.failureLimit());
      Untyped.put(o, "inconclusiveLimit", m.inconclusiveLimit() == 0 ? null : m.inconclusiveLimit());
      Untyped.put(o, "consecutiveErrorLimit", m.consecutiveErrorLimit() == Metric.DEFAULT_CONSECUTIVE_ERROR_LIMIT
          ? null : m.consecutiveErrorLimit());
      Untyped.put(o, "consecutiveSuccessLimit", m.consecutiveSuccessLimit() == 0 ? null
          : m.consecutiveSuccessLimit());
      Map<String, Object> body = new LinkedHashMap<>();
      if (m.provider() instanceof MetricProvider.Job j) {
        body.put("spec", jobSpec(j.spec(), namespace));
      } else if (m.provider() instanceof MetricProvider.Prometheus p) {
        body.put("address", p.address());
        body.put("query", p.query());
        Untyped.put(body, "timeout", p.timeout() == null ? null : p.timeout().getSeconds());
      } else if (m.provider() instanceof MetricProvider.Simulated s) {
        body.put("metric", s.metric());
      }
      o.put("provider", Map.of(m.provider().fieldName(), body));
      out.add(o);
    }
    return out;
  }
}
