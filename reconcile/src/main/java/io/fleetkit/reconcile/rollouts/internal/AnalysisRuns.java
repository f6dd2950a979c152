package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.rollouts.AnalysisArgument;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.AnalysisRunSpec;
import io.fleetkit.api.rollouts.AnalysisRunStatus;
import io.fleetkit.api.rollouts.AnalysisTemplate;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricProvider;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutAnalysis;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The rollout side of analysis (Argo Rollouts' {@code rollout/analysis.go}): an {@link AnalysisRun} made from a
 * {@link RolloutAnalysis} (its templates flattened into one list of metrics and arguments, the arguments resolved:
 * the rollout's values over the templates' defaults, substituted for {@code {{args.NAME}}}), owned by the rollout and labelled with the version's pod
 * template hash; and termination. Stateless.
 */
final class AnalysisRuns {
  /** Label on a run: the rollout it judges. */
  static final String ROLLOUT_LABEL = "rollouts.argoproj.io/rollout";

  private AnalysisRuns() {}

  /**
   * The run the rollout records as {@code current}; or, when it records none, a new run named {@code base-N} with
   * the first unused N (so that a retried update gets fresh runs).
   *
   * @throws IllegalStateException naming the template, when one is missing or an argument has no value
   */
  static AnalysisRun ensure(ObjectStore store, Rollout r, RolloutAnalysis a, String hash, String current,
      String base) {
    String ns = r.metadata().namespace();
    if (!current.isEmpty()) {
      AnalysisRun existing = store.get(AnalysisRun.class, ns, current).orElse(null);
      if (existing != null) {
        return existing;
      }
    }
    int n = 1;
    while (store.get(AnalysisRun.class, ns, base + "-" + n).isPresent()) {
      n++;
    }
    return create(store, r, a, hash, base + "-" + n);
  }

  private static AnalysisRun create(ObjectStore store, Rollout r, RolloutAnalysis a, String hash, String name) {
    String ns = r.metadata().namespace();
    List<AnalysisTemplate> templates = new ArrayList<>();
    for (String t : a.templates()) {
      templates.add(store.get(AnalysisTemplate.class, ns, t).orElseThrow(() -> new IllegalStateException(
          "AnalysisTemplate " + ns + "/" + t + " not found")));
    }
    AnalysisRunSpec spec;
    try {
      spec = runSpec(templates, a.args());
    } catch (IllegalStateException e) {
      throw new IllegalStateException("Rollout " + r.metadata().key() + ", analysis templates " + a.templates()
          + ": " + e.getMessage(), e);
    }
    AnalysisRun run = new AnalysisRun(ObjectMeta.builder().namespace(ns).name(name)
        .label(Rollout.POD_TEMPLATE_HASH_LABEL, hash).label(ROLLOUT_LABEL, r.metadata().name())
        .ownerReference(OwnerReference.controllerOf(r)).build(), spec, AnalysisRunStatus.EMPTY);
    try {
      return store.create(run);
    } catch (ConflictException e) {
      return store.require(AnalysisRun.class, ns, name);
    }
  }

  /** The metrics and arguments of several templates taken together. */
  record Flattened(List<Metric> metrics, List<AnalysisArgument> args) {
    Flattened {
      metrics = List.copyOf(metrics);
      args = List.copyOf(args);
    }
  }

  /**
   * The spec of a run of {@code templates} given {@code args} (Argo's {@code NewAnalysisRunFromTemplates}): the
   * templates {@linkplain #flatten flattened}, the arguments {@linkplain #mergeArgs merged} and substituted into the
   * metrics.
   *
   * @throws IllegalStateException with Argo's message, when flattening fails or an argument has no value
   */
  static AnalysisRunSpec runSpec(List<AnalysisTemplate> templates, List<AnalysisArgument> args) {
    Flattened flat = flatten(templates);
    List<AnalysisArgument> resolved = mergeArgs(args, flat.args());
    List<Metric> substituted = new ArrayList<>();
    for (Metric m : flat.metrics()) {
      substituted.add(substitute(m, resolved));
    }
    return new AnalysisRunSpec(substituted, resolved, false);
  }

  /**
   * The templates taken together (Argo's {@code FlattenTemplates}): their metrics in order, their arguments in order
   * of first declaration; an argument declared again keeps the value it has, or takes the later value when it had
   * none.
   *
   * @throws IllegalStateException {@code two metrics have the same name 'NAME'} when two templates hold a metric of
   *     the same name; {@code Argument `NAME` specified multiple times with different values: 'A', 'B'} when two
   *     templates give an argument different values
   */
  static Flattened flatten(List<AnalysisTemplate> templates) {
    List<Metric> metrics = new ArrayList<>();
    Set<String> metricNames = new HashSet<>();
    Map<String, AnalysisArgument> args = new LinkedHashMap<>();
    for (AnalysisTemplate t : templates) {
      for (Metric m : t.metrics()) {
        if (!metricNames.add(m.name())) {
          throw new IllegalStateException("two metrics have the same name '" + m.name() + "'");
        }
        metrics.add(m);
      }
      for (AnalysisArgument arg : t.args()) {
        AnalysisArgument prev = args.get(arg.name());
        if (prev == null || prev.value() == null) {
          args.put(arg.name(), arg);
        } else if (arg.value() != null && !arg.value().equals(prev.value())) {
          throw new IllegalStateException("Argument `" + arg.name() + "` specified multiple times with different"
              + " values: '" + prev.value() + "', '" + arg.value() + "'");
        }
      }
    }
    return new Flattened(metrics, new ArrayList<>(args.values()));
  }

  /**
   * The run's arguments (Argo's {@code MergeArgs}): the templates' arguments in order, the first template declaring a
   * name giving its default; an incoming argument with a value replaces the default of the same name; incoming
   * arguments no template declares are dropped.
   *
   * @throws IllegalStateException {@code args.NAME was not resolved} when an argument is left without a value
   */
  static List<AnalysisArgument> mergeArgs(List<AnalysisArgument> incoming, List<AnalysisArgument> templateArgs) {
    Map<String, String> args = new LinkedHashMap<>();
    for (AnalysisArgument arg : templateArgs) {
      if (!args.containsKey(arg.name())) {
        args.put(arg.name(), arg.value());
      }
    }
    for (AnalysisArgument arg : incoming) {
      if (args.containsKey(arg.name()) && arg.value() != null) {
        args.put(arg.name(), arg.value());
      }
    }
    List<AnalysisArgument> resolved = new ArrayList<>();
    for (Map.Entry<String, String> e : args.entrySet()) {
      if (e.getValue() == null) {
        throw new IllegalStateException("args." + e.getKey() + " was not resolved");
      }
      resolved.add(AnalysisArgument.of(e.getKey(), e.getValue()));
    }
    return resolved;
  }

  /**
   * {@code m} with {@code {{args.NAME}}} replaced by the arguments' values (Argo's {@code ResolveMetricArgs}) in the
   * success and failure conditions and in the Prometheus query.
   */
  static Metric substitute(Metric m, List<AnalysisArgument> args) {
    MetricProvider provider = m.provider();
    if (provider instanceof MetricProvider.Prometheus p) {
      provider = new MetricProvider.Prometheus(p.address(), resolve(p.query(), args), p.timeout());
    }
    return new Metric(m.name(), m.interval(), m.initialDelay(), m.count(), resolve(m.successCondition(), args),
        resolve(m.failureCondition(), args), m.failureLimit(), m.inconclusiveLimit(), m.consecutiveErrorLimit(),
        m.consecutiveSuccessLimit(), provider);
  }

  private static String resolve(String text, List<AnalysisArgument> args) {
    String out = text;
    for (AnalysisArgument a : args) {
      out = out.replace("{{args." + a.name() + "}}", a.value());
    }
    return out;
  }

  static @Nullable AnalysisRun get(ObjectStore store, String ns, String name) {
    return name.isEmpty() ? null : store.get(AnalysisRun.class, ns, name).orElse(null);
  }

  /** Sets {@code spec.terminate} on run {@code name} if it is still running; ignores a missing run. */
  static void terminate(ObjectStore store, String ns, String name) {
    AnalysisRun run = get(store, ns, name);
    if (run == null || run.spec().terminate() || run.status().phase().completed()) {
      return;
    }
    try {
      store.update(run.withSpec(run.spec().withTerminate(true)));
    } catch (ConflictException | NotFoundException e) {
      // it finished or went away meanwhile
    }
  }
}
