package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.autoscaling.ContainerControlledValues;
import io.fleetkit.api.autoscaling.ContainerResourcePolicy;
import io.fleetkit.api.autoscaling.ContainerScalingMode;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.PodResourcePolicy;
import io.fleetkit.api.autoscaling.PodUpdatePolicy;
import io.fleetkit.api.autoscaling.RecommendedContainerResources;
import io.fleetkit.api.autoscaling.RecommendedPodResources;
import io.fleetkit.api.autoscaling.UpdateMode;
import io.fleetkit.api.autoscaling.VerticalPodAutoscaler;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerCondition;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerRecommenderSelector;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerSpec;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerStatus;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * autoscaling.k8s.io/v1 VerticalPodAutoscaler (a CRD, so fabric8 reads it as a {@code GenericKubernetesResource}).
 * Defaults as the VPA admission controller: updateMode Auto; per container mode Auto, controlledResources cpu and
 * memory, controlledValues RequestsAndLimits.
 */
public final class VerticalPodAutoscalerConverter
    extends AbstractKindConverter<GenericKubernetesResource, VerticalPodAutoscaler> {
  public VerticalPodAutoscalerConverter() {
    super(VerticalPodAutoscaler.API_VERSION, VerticalPodAutoscaler.KIND, true, GenericKubernetesResource.class,
        VerticalPodAutoscaler.class);
  }

  @Override
  public @Nullable VerticalPodAutoscaler toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    Map<String, Object> spec = GenericKinds.section(in, "spec", ctx);
    Map<String, Object> ref = Untyped.map(spec, "targetRef", "spec.targetRef", ctx);
    if (ref.isEmpty()) {
      ctx.error("spec.targetRef", "is required", null);
    }
    String kind = Untyped.string(ref, "kind", "", "spec.targetRef.kind", ctx);
    String name = Untyped.string(ref, "name", "", "spec.targetRef.name", ctx);
    String apiVersion = Untyped.string(ref, "apiVersion", "", "spec.targetRef.apiVersion", ctx);
    CrossVersionObjectReference target = ref.isEmpty() ? null : ctx.build("spec.targetRef",
        () -> new CrossVersionObjectReference(apiVersion, Values.required(kind, "spec.targetRef.kind", ctx),
            Values.required(name, "spec.targetRef.name", ctx)));
    PodUpdatePolicy update = null;
    if (spec.get("updatePolicy") != null) {
      Map<String, Object> u = Untyped.map(spec, "updatePolicy", "spec.updatePolicy", ctx);
      UpdateMode mode = Values.enumValue(UpdateMode.class, Untyped.string(u, "updateMode", "",
          "spec.updatePolicy.updateMode", ctx), UpdateMode.Auto, "spec.updatePolicy.updateMode", ctx);
      Integer min = Untyped.int32(u, "minReplicas", "spec.updatePolicy.minReplicas", ctx);
      update = ctx.build("spec.updatePolicy", () -> new PodUpdatePolicy(mode, min));
    }
    PodResourcePolicy resources = null;
    if (spec.get("resourcePolicy") != null) {
      Map<String, Object> r = Untyped.map(spec, "resourcePolicy", "spec.resourcePolicy", ctx);
      List<ContainerResourcePolicy> policies = new ArrayList<>();
      List<Object> raw = Untyped.list(r, "containerPolicies", "spec.resourcePolicy.containerPolicies", ctx);
      for (int i = 0; i < raw.size(); i++) {
        ContainerResourcePolicy c = containerPolicy(raw.get(i), "spec.resourcePolicy.containerPolicies[" + i + "]",
            ctx);
        if (c != null) {
          policies.add(c);
        }
      }
      resources = ctx.build("spec.resourcePolicy", () -> new PodResourcePolicy(policies));
    }
    List<VerticalPodAutoscalerRecommenderSelector> recommenders = new ArrayList<>();
    List<Object> rawRecs = Untyped.list(spec, "recommenders", "spec.recommenders", ctx);
    for (int i = 0; i < rawRecs.size(); i++) {
      String p = "spec.recommenders[" + i + "]";
      Map<String, Object> m = Untyped.asMap(rawRecs.get(i), p, ctx);
      recommenders.add(new VerticalPodAutoscalerRecommenderSelector(Values.required(
          Untyped.string(m, "name", "", p + ".name", ctx), p + ".name", ctx)));
    }
    PodUpdatePolicy up = update;
    PodResourcePolicy rp = resources;
    VerticalPodAutoscalerSpec coreSpec = target == null ? null : ctx.build("spec",
        () -> new VerticalPodAutoscalerSpec(target, up, rp, recommenders));
    VerticalPodAutoscalerStatus status = status(GenericKinds.section(in, "status", ctx), ctx);
    return coreSpec == null || status == null ? null
        : ctx.build("", () -> new VerticalPodAutoscaler(meta, coreSpec, status));
  }

  private static @Nullable ContainerResourcePolicy containerPolicy(Object raw, String p, DocumentContext ctx) {
    Map<String, Object> m = Untyped.asMap(raw, p, ctx);
    String name = Untyped.string(m, "containerName", "", p + ".containerName", ctx);
    var mode = Values.enumValue(ContainerScalingMode.class, Untyped.string(m, "mode", "", p + ".mode", ctx),
        ContainerScalingMode.Auto, p + ".mode", ctx);
    var min = Untyped.resources(m, "minAllowed", p + ".minAllowed", ctx);
    var max = Untyped.resources(m, "maxAllowed", p + ".maxAllowed", ctx);
    List<String> controlled = m.containsKey("controlledResources")
        ? Untyped.stringList(m, "controlledResources", p + ".controlledResources", ctx)
        : ContainerResourcePolicy.DEFAULT_CONTROLLED_RESOURCES;
    var values = Values.enumValue(ContainerControlledValues.class, Untyped.string(m, "controlledValues", "",
        p + ".controlledValues", ctx), ContainerControlledValues.RequestsAndLimits, p + ".controlledValues", ctx);
    return ctx.build(p, () -> new ContainerResourcePolicy(Values.required(name, p + ".containerName", ctx), mode,
        min, max, controlled, values));
  }

  private static @Nullable VerticalPodAutoscalerStatus status(Map<String, Object> st, DocumentContext ctx) {
    if (st.isEmpty()) {
      return VerticalPodAutoscalerStatus.EMPTY;
    }
    RecommendedPodResources recommendation = null;
    if (st.get("recommendation") != null) {
      Map<String, Object> r = Untyped.map(st, "recommendation", "status.recommendation", ctx);
      List<RecommendedContainerResources> recs = new ArrayList<>();
      List<Object> raw = Untyped.list(r, "containerRecommendations",
          "status.recommendation.containerRecommendations", ctx);
      for (int i = 0; i < raw.size(); i++) {
        String p = "status.recommendation.containerRecommendations[" + i + "]";
        Map<String, Object> m = Untyped.asMap(raw.get(i), p, ctx);
        String name = Untyped.string(m, "containerName", "", p + ".containerName", ctx);
        var target = Untyped.resources(m, "target", p + ".target", ctx);
        var lower = Untyped.resources(m, "lowerBound", p + ".lowerBound", ctx);
        var upper = Untyped.resources(m, "upperBound", p + ".upperBound", ctx);
        var uncapped = Untyped.resources(m, "uncappedTarget", p + ".uncappedTarget", ctx);
        RecommendedContainerResources c = ctx.build(p, () -> new RecommendedContainerResources(name, target, lower,
            upper, uncapped));
        if (c != null) {
          recs.add(c);
        }
      }
      recommendation = ctx.build("status.recommendation", () -> new RecommendedPodResources(recs));
    }
    List<VerticalPodAutoscalerCondition> conditions = new ArrayList<>();
    List<Object> raw = Untyped.list(st, "conditions", "status.conditions", ctx);
    for (int i = 0; i < raw.size(); i++) {
      String p = "status.conditions[" + i + "]";
      var f = GenericKinds.ConditionFields.read(Untyped.asMap(raw.get(i), p, ctx), p, ctx);
      if (f.status() != null) {
        VerticalPodAutoscalerCondition c = ctx.build(p, () -> new VerticalPodAutoscalerCondition(f.type(),
            f.status(), f.lastTransitionTime(), f.reason(), f.message()));
        if (c != null) {
          conditions.add(c);
        }
      }
    }
    RecommendedPodResources rec = recommendation;
    return ctx.build("status", () -> new VerticalPodAutoscalerStatus(rec, conditions));
  }

  @Override
  public GenericKubernetesResource toFabric8(VerticalPodAutoscaler in) {
    VerticalPodAutoscalerSpec s = in.spec();
    Map<String, Object> spec = new LinkedHashMap<>();
    Map<String, Object> ref = new LinkedHashMap<>();
    Untyped.put(ref, "apiVersion", s.targetRef().apiVersion());
    ref.put("kind", s.targetRef().kind());
    ref.put("name", s.targetRef().name());
    spec.put("targetRef", ref);
    if (s.updatePolicy() != null) {
      Map<String, Object> u = new LinkedHashMap<>();
      u.put("updateMode", s.updatePolicy().updateMode().name());
      Untyped.put(u, "minReplicas", s.updatePolicy().minReplicas());
      spec.put("updatePolicy", u);
    }
    if (s.resourcePolicy() != null) {
      List<Object> policies = new ArrayList<>();
      for (ContainerResourcePolicy c : s.resourcePolicy().containerPolicies()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("containerName", c.containerName());
        if (c.mode() != ContainerScalingMode.Auto) {
          m.put("mode", c.mode().name());
        }
        Untyped.put(m, "minAllowed", Untyped.resources(c.minAllowed()));
        Untyped.put(m, "maxAllowed", Untyped.resources(c.maxAllowed()));
        if (!c.controlledResources().equals(ContainerResourcePolicy.DEFAULT_CONTROLLED_RESOURCES)) {
          m.put("controlledResources", new ArrayList<>(c.controlledResources()));
        }
        if (c.controlledValues() != ContainerControlledValues.RequestsAndLimits) {
          m.put("controlledValues", c.controlledValues().name());
        }
        policies.add(m);
      }
      Map<String, Object> rp = new LinkedHashMap<>();
      Untyped.put(rp, "containerPolicies", policies);
      spec.put("resourcePolicy", rp);
    }
    if (!s.recommenders().isEmpty()) {
      List<Object> recs = new ArrayList<>();
      for (VerticalPodAutoscalerRecommenderSelector r : s.recommenders()) {
        recs.add(Map.of("name", r.name()));
      }
      spec.put("recommenders", recs);
    }
    Map<String, Object> status = new LinkedHashMap<>();
    VerticalPodAutoscalerStatus st = in.status();
    if (st.recommendation() != null) {
      List<Object> recs = new ArrayList<>();
      for (RecommendedContainerResources r : st.recommendation().containerRecommendations()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("containerName", r.containerName());
        Untyped.put(m, "target", Untyped.resources(r.target()));
        Untyped.put(m, "lowerBound", Untyped.resources(r.lowerBound()));
        Untyped.put(m, "upperBound", Untyped.resources(r.upperBound()));
        Untyped.put(m, "uncappedTarget", Untyped.resources(r.uncappedTarget()));
        recs.add(m);
      }
      Map<String, Object> rec = new LinkedHashMap<>();
      rec.put("containerRecommendations", recs);
      status.put("recommendation", rec);
    }
    List<Object> conditions = new ArrayList<>();
    for (VerticalPodAutoscalerCondition c : st.conditions()) {
      conditions.add(GenericKinds.ConditionFields.write(c.type(), c.status(), c.lastTransitionTime(), c.reason(),
          c.message()));
    }
    Untyped.put(status, "conditions", conditions);
    return GenericKinds.resource(in, spec, status);
  }
}
