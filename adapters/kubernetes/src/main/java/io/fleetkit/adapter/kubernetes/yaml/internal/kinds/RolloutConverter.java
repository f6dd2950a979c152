package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.rollouts.BlueGreenStrategy;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.PodTemplateMetadata;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutSpec;
import io.fleetkit.api.rollouts.RolloutStatus;
import io.fleetkit.api.rollouts.RolloutStrategy;
import io.fleetkit.api.rollouts.TrafficRouting;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code argoproj.io/v1alpha1 Rollout}: the Deployment-like fields, {@code strategy.canary} (steps
 * {@code setWeight}, {@code pause}, {@code analysis}, {@code setCanaryScale}, {@code setHeaderRoute},
 * {@code setMirrorRoute}; maxSurge/maxUnavailable; background analysis; stable/canary Services;
 * {@code trafficRouting.plugins["argoproj-labs/gatewayAPI"].httpRoute} and {@code trafficRouting.managedRoutes};
 * {@code abortScaleDownDelaySeconds}, {@code scaleDownDelaySeconds}, {@code scaleDownDelayRevisionLimit};
 * {@code canaryMetadata}, {@code stableMetadata}) and {@code strategy.blueGreen} (with the same scale-down delays;
 * {@code activeMetadata}, {@code previewMetadata}). Argo Rollouts' defaults apply. The status is not read or written: it belongs to the
 * controller.
 */
public final class RolloutConverter extends AbstractKindConverter<GenericKubernetesResource, Rollout> {
  public RolloutConverter() {
    super(Rollout.API_VERSION, Rollout.KIND, true, GenericKubernetesResource.class, Rollout.class);
  }
  static final String GATEWAY_PLUGIN = "argoproj-labs/gatewayAPI";

  @Override
  public @Nullable Rollout toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    Map<String, Object> spec = GenericKinds.section(in, "spec", ctx);
    Integer replicas = Untyped.int32(spec, "replicas", "spec.replicas", ctx);
    var selector = RolloutYaml.selector(spec, "spec.selector", ctx);
    var template = RolloutYaml.template(spec, "spec.template", ctx);
    Map<String, Object> strategy = Untyped.map(spec, "strategy", "spec.strategy", ctx);
    CanaryStrategy canary = strategy.containsKey("canary")
        ? canary(Untyped.map(strategy, "canary", "spec.strategy.canary", ctx), ctx) : null;
    BlueGreenStrategy blueGreen = strategy.containsKey("blueGreen")
        ? blueGreen(Untyped.map(strategy, "blueGreen", "spec.strategy.blueGreen", ctx), ctx) : null;
    Integer minReady = Untyped.int32(spec, "minReadySeconds", "spec.minReadySeconds", ctx);
    Integer history = Untyped.int32(spec, "revisionHistoryLimit", "spec.revisionHistoryLimit", ctx);
    Integer deadline = Untyped.int32(spec, "progressDeadlineSeconds", "spec.progressDeadlineSeconds", ctx);
    Boolean deadlineAbort = Untyped.bool(spec, "progressDeadlineAbort", "spec.progressDeadlineAbort", ctx);
    Boolean paused = Untyped.bool(spec, "paused", "spec.paused", ctx);
    if (selector == null || template == null) {
      return null;
    }
    return ctx.build("", () -> new Rollout(meta, new RolloutSpec(replicas == null ? 1 : replicas, selector,
        template, new RolloutStrategy(canary, blueGreen), minReady == null ? 0 : minReady,
        history == null ? RolloutSpec.DEFAULT_REVISION_HISTORY_LIMIT : history,
        deadline == null ? RolloutSpec.DEFAULT_PROGRESS_DEADLINE_SECONDS : deadline,
        deadlineAbort != null && deadlineAbort, paused != null && paused), RolloutStatus.EMPTY));
  }

  private static CanaryStrategy canary(Map<String, Object> c, DocumentContext ctx) {
    String p = "spec.strategy.canary";
    List<CanaryStep> steps = new ArrayList<>();
    List<Object> list = Untyped.list(c, "steps", p + ".steps", ctx);
    for (int i = 0; i < list.size(); i++) {
      CanaryStep step = step(Untyped.asMap(list.get(i), p + ".steps[" + i + "]", ctx), p + ".steps[" + i + "]", ctx);
      if (step != null) {
        steps.add(step);
      }
    }
    TrafficRouting routing = null;
    if (c.containsKey("trafficRouting")) {
      Map<String, Object> tr = Untyped.map(c, "trafficRouting", p + ".trafficRouting", ctx);
      Map<String, Object> plugins = Untyped.map(tr, "plugins", p + ".trafficRouting.plugins", ctx);
      Map<String, Object> gw = Untyped.map(plugins, GATEWAY_PLUGIN, p + ".trafficRouting.plugins." + GATEWAY_PLUGIN,
          ctx);
      String route = Untyped.string(gw, "httpRoute", "", p + ".trafficRouting.plugins." + GATEWAY_PLUGIN
          + ".httpRoute", ctx);
      List<String> managed = RolloutRoutesYaml.managedRoutes(tr, p + ".trafficRouting", ctx);
      if (route.isEmpty()) {
        ctx.error(p + ".trafficRouting", "must name an HTTPRoute: plugins: {" + GATEWAY_PLUGIN
            + ": {httpRoute: NAME}}", null);
      } else {
        routing = new TrafficRouting(route, managed);
      }
    }
    Boolean dynamic = Untyped.bool(c, "dynamicStableScale", p + ".dynamicStableScale", ctx);
    return new CanaryStrategy(steps,
        RolloutYaml.intOrPercent(c, "maxSurge", IntOrPercent.TWENTY_FIVE_PERCENT, p + ".maxSurge", ctx),
        RolloutYaml.intOrPercent(c, "maxUnavailable", IntOrPercent.TWENTY_FIVE_PERCENT, p + ".maxUnavailable", ctx),
        RolloutYaml.analysis(c, "analysis", p + ".analysis", ctx), nullIfEmpty(c, "stableService", p, ctx),
        nullIfEmpty(c, "canaryService", p, ctx), routing, dynamic != null && dynamic,
        Untyped.int32(c, "abortScaleDownDelaySeconds", p + ".abortScaleDownDelaySeconds", ctx),
        Untyped.int32(c, "minPodsPerReplicaSet", p + ".minPodsPerReplicaSet", ctx),
        Untyped.int32(c, "scaleDownDelaySeconds", p + ".scaleDownDelaySeconds", ctx),
        Untyped.int32(c, "scaleDownDelayRevisionLimit", p + ".scaleDownDelayRevisionLimit", ctx),
        podMetadata(c, "canaryMetadata", p, ctx), podMetadata(c, "stableMetadata", p, ctx));
  }

  /** Argo's {@code PodTemplateMetadata}: {@code {labels: {..}, annotations: {..}}}, other fields refused. */
  private static @Nullable PodTemplateMetadata podMetadata(Map<String, Object> m, String key, String p,
      DocumentContext ctx) {
    if (!m.containsKey(key)) {
      return null;
    }
    String at = p + "." + key;
    Map<String, Object> meta = Untyped.map(m, key, at, ctx);
    Untyped.known(meta, java.util.Set.of("labels", "annotations"), at, ctx);
    return new PodTemplateMetadata(Untyped.stringMap(meta, "labels", at + ".labels", ctx),
        Untyped.stringMap(meta, "annotations", at + ".annotations", ctx));
  }

  private static Map<String, Object> podMetadata(PodTemplateMetadata m) {
    Map<String, Object> out = new LinkedHashMap<>();
    Untyped.put(out, "labels", m.labels().isEmpty() ? null : new java.util.TreeMap<>(m.labels()));
    Untyped.put(out, "annotations", m.annotations().isEmpty() ? null : new java.util.TreeMap<>(m.annotations()));
    return out;
  }

  private static @Nullable String nullIfEmpty(Map<String, Object> m, String key, String p, DocumentContext ctx) {
    String v = Untyped.string(m, key, "", p + "." + key, ctx);
    return v.isEmpty() ? null : v;
  }

  private static @Nullable CanaryStep step(Map<String, Object> s, String p, DocumentContext ctx) {
    if (s.size() != 1) {
      ctx.error(p, "Step must have one of the following set: setWeight, setCanaryScale, analysis, pause, "
          + "setHeaderRoute or setMirrorRoute", s.keySet());
      return null;
    }
    String type = s.keySet().iterator().next();
    switch (type) {
      case "setWeight" -> {
        Integer w = Untyped.int32(s, "setWeight", p + ".setWeight", ctx);
        return w == null ? null : new CanaryStep.SetWeight(w);
      }
      case "pause" -> {
        Map<String, Object> pause = Untyped.map(s, "pause", p + ".pause", ctx);
        return new CanaryStep.Pause(RolloutYaml.duration(pause, "duration", p + ".pause.duration", ctx));
      }
      case "analysis" -> {
        var a = RolloutYaml.analysis(s, "analysis", p + ".analysis", ctx);
        return a == null ? null : new CanaryStep.Analysis(a);
      }
      case "setCanaryScale" -> {
        Map<String, Object> scs = Untyped.map(s, "setCanaryScale", p + ".setCanaryScale", ctx);
        Boolean match = Untyped.bool(scs, "matchTrafficWeight", p + ".setCanaryScale.matchTrafficWeight", ctx);
        return new CanaryStep.SetCanaryScale(Untyped.int32(scs, "replicas", p + ".setCanaryScale.replicas", ctx),
            Untyped.int32(scs, "weight", p + ".setCanaryScale.weight", ctx), match != null && match);
      }
      case "setHeaderRoute" -> {
        return RolloutRoutesYaml.headerRoute(Untyped.map(s, type, p + "." + type, ctx), p + "." + type, ctx);
      }
      case "setMirrorRoute" -> {
        return RolloutRoutesYaml.mirrorRoute(Untyped.map(s, type, p + "." + type, ctx), p + "." + type, ctx);
      }
      default -> {
        ctx.error(p + "." + type, "is not a supported step: supported are setWeight, pause, analysis, "
            + "setCanaryScale, setHeaderRoute, setMirrorRoute", null);
        return null;
      }
    }
  }

  private static BlueGreenStrategy blueGreen(Map<String, Object> b, DocumentContext ctx) {
    String p = "spec.strategy.blueGreen";
    Boolean auto = Untyped.bool(b, "autoPromotionEnabled", p + ".autoPromotionEnabled", ctx);
    Integer autoSeconds = Untyped.int32(b, "autoPromotionSeconds", p + ".autoPromotionSeconds", ctx);
    return new BlueGreenStrategy(Untyped.string(b, "activeService", "", p + ".activeService", ctx),
        nullIfEmpty(b, "previewService", p, ctx), auto == null || auto, autoSeconds == null ? 0 : autoSeconds,
        Untyped.int32(b, "scaleDownDelaySeconds", p + ".scaleDownDelaySeconds", ctx),
        Untyped.int32(b, "previewReplicaCount", p + ".previewReplicaCount", ctx),
        RolloutYaml.analysis(b, "prePromotionAnalysis", p + ".prePromotionAnalysis", ctx),
        RolloutYaml.analysis(b, "postPromotionAnalysis", p + ".postPromotionAnalysis", ctx),
        Untyped.int32(b, "abortScaleDownDelaySeconds", p + ".abortScaleDownDelaySeconds", ctx),
        Untyped.int32(b, "scaleDownDelayRevisionLimit", p + ".scaleDownDelayRevisionLimit", ctx),
        podMetadata(b, "activeMetadata", p, ctx), podMetadata(b, "previewMetadata", p, ctx));
  }

  @Override
  public GenericKubernetesResource toFabric8(Rollout in) {
    RolloutSpec s = in.spec();
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("replicas", s.replicas());
    spec.put("selector", RolloutYaml.selector(s.selector()));
    spec.put("template", RolloutYaml.template(s.template()));
    Map<String, Object> strategy = new LinkedHashMap<>();
    if (s.strategy().canary() != null) {
      strategy.put("canary", canary(s.strategy().canary()));
    }
    if (s.strategy().blueGreen() != null) {
      strategy.put("blueGreen", blueGreen(s.strategy().blueGreen()));
    }
    spec.put("strategy", strategy);
    Untyped.put(spec, "minReadySeconds", s.minReadySeconds() == 0 ? null : s.minReadySeconds());
    Untyped.put(spec, "revisionHistoryLimit", s.revisionHistoryLimit() == RolloutSpec.DEFAULT_REVISION_HISTORY_LIMIT
        ? null : s.revisionHistoryLimit());
    Untyped.put(spec, "progressDeadlineSeconds", s.progressDeadlineSeconds()
        == RolloutSpec.DEFAULT_PROGRESS_DEADLINE_SECONDS ? null : s.progressDeadlineSeconds());
    Untyped.put(spec, "progressDeadlineAbort", s.progressDeadlineAbort() ? Boolean.TRUE : null);
    Untyped.put(spec, "paused", s.paused() ? Boolean.TRUE : null);
    return GenericKinds.resource(in, spec, null);
  }

  private static Map<String, Object> canary(CanaryStrategy c) {
    Map<String, Object> m = new LinkedHashMap<>();
    List<Object> steps = new ArrayList<>();
    for (CanaryStep step : c.steps()) {
      Object body;
      if (step instanceof CanaryStep.SetWeight w) {
        body = w.weight();
      } else if (step instanceof CanaryStep.Pause p) {
        Map<String, Object> pm = new LinkedHashMap<>();
        Untyped.put(pm, "duration", RolloutYaml.duration(p.duration()));
        body = pm;
      } else if (step instanceof CanaryStep.Analysis a) {
        body = RolloutYaml.analysis(a.analysis());
      } else if (step instanceof CanaryStep.SetHeaderRoute h) {
        body = RolloutRoutesYaml.headerRoute(h);
      } else if (step instanceof CanaryStep.SetMirrorRoute mr) {
        body = RolloutRoutesYaml.mirrorRoute(mr);
      } else {
        CanaryStep.SetCanaryScale scs = (CanaryStep.SetCanaryScale) step;
        Map<String, Object> sm = new LinkedHashMap<>();
        Untyped.put(sm, "replicas", scs.replicas());
        Untyped.put(sm, "weight", scs.weight());
        Untyped.put(sm, "matchTrafficWeight", scs.matchTrafficWeight() ? Boolean.TRUE : null);
        body = sm;
      }
      steps.add(Map.of(step.fieldName(), body));
    }
    Untyped.put(m, "steps", steps.isEmpty() ? null : steps);
    if (!c.maxSurge().equals(IntOrPercent.TWENTY_FIVE_PERCENT)) {
      m.put("maxSurge", RolloutYaml.intOrPercent(c.maxSurge()));
    }
    if (!c.maxUnavailable().equals(IntOrPercent.TWENTY_FIVE_PERCENT)) {
      m.put("maxUnavailable", RolloutYaml.intOrPercent(c.maxUnavailable()));
    }
    Untyped.put(m, "analysis", RolloutYaml.analysis(c.analysis()));
    Untyped.put(m, "stableService", c.stableService());
    Untyped.put(m, "canaryService", c.canaryService());
    if (c.trafficRouting() != null) {
      Map<String, Object> tr = new LinkedHashMap<>();
      tr.put("plugins", Map.of(GATEWAY_PLUGIN, Map.of("httpRoute", c.trafficRouting().httpRoute())));
      Untyped.put(tr, "managedRoutes", RolloutRoutesYaml.managedRoutes(c.trafficRouting().managedRoutes()));
      m.put("trafficRouting", tr);
    }
    Untyped.put(m, "dynamicStableScale", c.dynamicStableScale() ? Boolean.TRUE : null);
    Untyped.put(m, "abortScaleDownDelaySeconds", c.abortScaleDownDelaySeconds());
    Untyped.put(m, "minPodsPerReplicaSet", c.minPodsPerReplicaSet());
    Untyped.put(m, "scaleDownDelaySeconds", c.scaleDownDelaySeconds());
    Untyped.put(m, "scaleDownDelayRevisionLimit", c.scaleDownDelayRevisionLimit());
    if (c.canaryMetadata() != null) {
      m.put("canaryMetadata", podMetadata(c.canaryMetadata())); // an empty {} too: it still sets the role
    }
    if (c.stableMetadata() != null) {
      m.put("stableMetadata", podMetadata(c.stableMetadata())); // an empty {} too: it still sets the role
    }
    return m;
  }

  private static Map<String, Object> blueGreen(BlueGreenStrategy b) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("activeService", b.activeService());
    Untyped.put(m, "previewService", b.previewService());
    Untyped.put(m, "autoPromotionEnabled", b.autoPromotionEnabled() ? null : Boolean.FALSE);
    Untyped.put(m, "autoPromotionSeconds", b.autoPromotionSeconds() == 0 ? null : b.autoPromotionSeconds());
    Untyped.put(m, "scaleDownDelaySeconds", b.scaleDownDelaySeconds());
    Untyped.put(m, "previewReplicaCount", b.previewReplicaCount());
    Untyped.put(m, "prePromotionAnalysis", RolloutYaml.analysis(b.prePromotionAnalysis()));
    Untyped.put(m, "postPromotionAnalysis", RolloutYaml.analysis(b.postPromotionAnalysis()));
    Untyped.put(m, "abortScaleDownDelaySeconds", b.abortScaleDownDelaySeconds());
    Untyped.put(m, "scaleDownDelayRevisionLimit", b.scaleDownDelayRevisionLimit());
    if (b.activeMetadata() != null) {
      m.put("activeMetadata", podMetadata(b.activeMetadata())); // an empty {} too: it still sets the role
    }
    if (b.previewMetadata() != null) {
      m.put("previewMetadata", podMetadata(b.previewMetadata())); // an empty {} too: it still sets the role
    }
    return m;
  }
}
