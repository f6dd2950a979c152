package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.autoscaling.v2.ContainerResourceMetricSourceBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.ContainerResourceMetricStatusBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.CrossVersionObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.ExternalMetricSourceBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.ExternalMetricStatusBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HPAScalingPolicyBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HPAScalingRulesBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBehaviorBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerConditionBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerSpecBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerStatusBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricIdentifierBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpecBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricStatusBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricTargetBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricValueStatusBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.ObjectMetricSourceBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.ObjectMetricStatusBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.PodsMetricSourceBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.PodsMetricStatusBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.ResourceMetricSourceBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.ResourceMetricStatusBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Selectors;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.autoscaling.ContainerResourceMetricSource;
import io.fleetkit.api.autoscaling.ContainerResourceMetricStatus;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.ExternalMetricSource;
import io.fleetkit.api.autoscaling.ExternalMetricStatus;
import io.fleetkit.api.autoscaling.HPAScalingPolicy;
import io.fleetkit.api.autoscaling.HPAScalingPolicyType;
import io.fleetkit.api.autoscaling.HPAScalingRules;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscaler;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerBehavior;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerCondition;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerConditionType;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerSpec;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerStatus;
import io.fleetkit.api.autoscaling.MetricIdentifier;
import io.fleetkit.api.autoscaling.MetricSourceType;
import io.fleetkit.api.autoscaling.MetricSpec;
import io.fleetkit.api.autoscaling.MetricStatus;
import io.fleetkit.api.autoscaling.MetricTarget;
import io.fleetkit.api.autoscaling.MetricTargetType;
import io.fleetkit.api.autoscaling.MetricValueStatus;
import io.fleetkit.api.autoscaling.ObjectMetricSource;
import io.fleetkit.api.autoscaling.ObjectMetricStatus;
import io.fleetkit.api.autoscaling.PodsMetricSource;
import io.fleetkit.api.autoscaling.PodsMetricStatus;
import io.fleetkit.api.autoscaling.ResourceMetricSource;
import io.fleetkit.api.autoscaling.ResourceMetricStatus;
import io.fleetkit.api.autoscaling.ScalingPolicySelect;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * autoscaling/v2 HorizontalPodAutoscaler. {@code minReplicas} defaults to 1; a given {@code behavior} gets
 * Kubernetes' defaults for the parts it leaves out (a direction, its policies, its select policy).
 */
public final class HorizontalPodAutoscalerConverter extends AbstractKindConverter<
    io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler, HorizontalPodAutoscaler> {
  public HorizontalPodAutoscalerConverter() {
    super(HorizontalPodAutoscaler.API_VERSION, HorizontalPodAutoscaler.KIND, true,
        io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler.class, HorizontalPodAutoscaler.class);
  }

  @Override
  public @Nullable HorizontalPodAutoscaler toCore(
      io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec();
    if (s == null) {
      ctx.error("spec", "is required", null);
      return null;
    }
    CrossVersionObjectReference target = ref(s.getScaleTargetRef(), "spec.scaleTargetRef", ctx);
    if (s.getMaxReplicas() == null) {
      ctx.error("spec.maxReplicas", "is required", null);
    }
    List<MetricSpec> metrics = Fabric8Scheduling.list(s.getMetrics(), "spec.metrics", ctx,
        HorizontalPodAutoscalerConverter::metric);
    HorizontalPodAutoscalerBehavior behavior = null;
    if (s.getBehavior() != null) {
      HPAScalingRules up = rules(s.getBehavior().getScaleUp(), HPAScalingRules.DEFAULT_SCALE_UP,
          "spec.behavior.scaleUp", ctx);
      HPAScalingRules down = rules(s.getBehavior().getScaleDown(), HPAScalingRules.DEFAULT_SCALE_DOWN,
          "spec.behavior.scaleDown", ctx);
      behavior = HorizontalPodAutoscalerBehavior.of(up, down);
    }
    HorizontalPodAutoscalerBehavior b = behavior;
    HorizontalPodAutoscalerSpec spec = target == null || s.getMaxReplicas() == null ? null
        : ctx.build("spec", () -> new HorizontalPodAutoscalerSpec(target, Values.intOr(s.getMinReplicas(), 1),
            s.getMaxReplicas(), metrics, b));
    HorizontalPodAutoscalerStatus status = status(in.getStatus(), ctx);
    return spec == null || status == null ? null
        : ctx.build("", () -> new HorizontalPodAutoscaler(meta, spec, status));
  }

  private static @Nullable HorizontalPodAutoscalerStatus status(
      io.fabric8.kubernetes.api.model.autoscaling.v2.@Nullable HorizontalPodAutoscalerStatus st,
      DocumentContext ctx) {
    if (st == null) {
      return HorizontalPodAutoscalerStatus.EMPTY;
    }
    var lastScale = Values.instant(st.getLastScaleTime(), "status.lastScaleTime", ctx);
    var current = Fabric8Scheduling.list(st.getCurrentMetrics(), "status.currentMetrics", ctx,
        HorizontalPodAutoscalerConverter::metricStatus);
    var conditions = Fabric8Scheduling.list(st.getConditions(), "status.conditions", ctx, (c, p, cx) -> {
      var type = Values.requiredEnum(HorizontalPodAutoscalerConditionType.class, c.getType(), p + ".type", cx);
      var cs = Values.requiredEnum(ConditionStatus.class, c.getStatus(), p + ".status", cx);
      var time = Values.instant(c.getLastTransitionTime(), p + ".lastTransitionTime", cx);
      return type == null || cs == null ? null : cx.build(p, () -> new HorizontalPodAutoscalerCondition(type, cs,
          time, Values.orEmpty(c.getReason()), Values.orEmpty(c.getMessage())));
    });
    return ctx.build("status", () -> new HorizontalPodAutoscalerStatus(Values.longOr(st.getObservedGeneration(), 0),
        lastScale, Values.intOr(st.getCurrentReplicas(), 0), Values.intOr(st.getDesiredReplicas(), 0), current,
        conditions));
  }

  private static @Nullable HPAScalingRules rules(
      io.fabric8.kubernetes.api.model.autoscaling.v2.@Nullable HPAScalingRules r, HPAScalingRules dflt, String p,
      DocumentContext ctx) {
    if (r == null) {
      return dflt;
    }
    var select = Values.enumValue(ScalingPolicySelect.class, r.getSelectPolicy(), ScalingPolicySelect.Max,
        p + ".selectPolicy", ctx);
    List<HPAScalingPolicy> policies = Fabric8Scheduling.list(r.getPolicies(), p + ".policies", ctx, (x, pp, cx) -> {
      var type = Values.requiredEnum(HPAScalingPolicyType.class, x.getType(), pp + ".type", cx);
      if (x.getValue() == null) {
        cx.error(pp + ".value", "is required", null);
      }
      if (x.getPeriodSeconds() == null) {
        cx.error(pp + ".periodSeconds", "is required", null);
      }
      return type == null || x.getValue() == null || x.getPeriodSeconds() == null ? null
          : cx.build(pp, () -> new HPAScalingPolicy(type, x.getValue(), x.getPeriodSeconds()));
    });
    Integer window = r.getStabilizationWindowSeconds() != null ? r.getStabilizationWindowSeconds()
        : dflt.stabilizationWindowSeconds();
    return ctx.build(p, () -> new HPAScalingRules(window, select, policies.isEmpty() ? dflt.policies() : policies));
  }

  private static @Nullable CrossVersionObjectReference ref(
      io.fabric8.kubernetes.api.model.autoscaling.v2.@Nullable CrossVersionObjectReference r, String p,
      DocumentContext ctx) {
    if (r == null) {
      ctx.error(p, "is required", null);
      return null;
    }
    return ctx.build(p, () -> new CrossVersionObjectReference(Values.orEmpty(r.getApiVersion()),
        Values.required(r.getKind(), p + ".kind", ctx), Values.required(r.getName(), p + ".name", ctx)));
  }

  private static @Nullable MetricIdentifier identifier(
      io.fabric8.kubernetes.api.model.autoscaling.v2.@Nullable MetricIdentifier m, String p, DocumentContext ctx) {
    if (m == null) {
      ctx.error(p, "is required", null);
      return null;
    }
    var selector = Fabric8Selectors.toCore(m.getSelector(), p + ".selector", ctx);
    return ctx.build(p, () -> new MetricIdentifier(Values.required(m.getName(), p + ".name", ctx), selector));
  }

  private static @Nullable Quantity quantity(io.fabric8.kubernetes.api.model.@Nullable Quantity q, String p,
      DocumentContext ctx) {
    return q == null ? null : Values.quantity(q.toString(), p, ctx);
  }

  private static @Nullable MetricTarget target(
      io.fabric8.kubernetes.api.model.autoscaling.v2.@Nullable MetricTarget t, String p, DocumentContext ctx) {
    if (t == null) {
      ctx.error(p, "is required", null);
      return null;
    }
    var type = Values.requiredEnum(MetricTargetType.class, t.getType(), p + ".type", ctx);
    var value = quantity(t.getValue(), p + ".value", ctx);
    var average = quantity(t.getAverageValue(), p + ".averageValue", ctx);
    return type == null ? null
        : ctx.build(p, () -> new MetricTarget(type, value, average, t.getAverageUtilization()));
  }

  private static @Nullable MetricValueStatus current(
      io.fabric8.kubernetes.api.model.autoscaling.v2.@Nullable MetricValueStatus v, String p, DocumentContext ctx) {
    if (v == null) {
      return new MetricValueStatus(null, null, null);
    }
    var value = quantity(v.getValue(), p + ".value", ctx);
    var average = quantity(v.getAverageValue(), p + ".averageValue", ctx);
    return ctx.build(p, () -> new MetricValueStatus(value, average, v.getAverageUtilization()));
  }

  private static @Nullable MetricSpec metric(io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec m, String p,
      DocumentContext ctx) {
    MetricSourceType type = Values.requiredEnum(MetricSourceType.class, m.getType(), p + ".type", ctx);
    if (type == null) {
      return null;
    }
    String sp = p + "." + type.field();
    switch (type) {
      case Resource: {
        var r = m.getResource();
        if (r == null) {
          break;
        }
        var t = target(r.getTarget(), sp + ".target", ctx);
        return t == null ? null : ctx.build(p, () -> new MetricSpec(type,
            new ResourceMetricSource(Values.required(r.getName(), sp + ".name", ctx), t), null, null, null, null));
      }
      case ContainerResource: {
        var r = m.getContainerResource();
        if (r == null) {
          break;
        }
        var t = target(r.getTarget(), sp + ".target", ctx);
        return t == null ? null : ctx.build(p, () -> new MetricSpec(type, null, new ContainerResourceMetricSource(
            Values.required(r.getName(), sp + ".name", ctx), Values.required(r.getContainer(), sp + ".container",
                ctx), t), null, null, null));
      }
      case Pods: {
        var r = m.getPods();
        if (r == null) {
          break;
        }
        var id = identifier(r.getMetric(), sp + ".metric", ctx);
        var t = target(r.getTarget(), sp + ".target", ctx);
        return id == null || t == null ? null
            : ctx.build(p, () -> new MetricSpec(type, null, null, new PodsMetricSource(id, t), null, null));
      }
      case Object: {
        var r = m.getObject();
        if (r == null) {
          break;
        }
        var obj = ref(r.getDescribedObject(), sp + ".describedObject", ctx);
        var id = identifier(r.getMetric(), sp + ".metric", ctx);
        var t = target(r.getTarget(), sp + ".target", ctx);
        return obj == null || id == null || t == null ? null
            : ctx.build(p, () -> new MetricSpec(type, null, null, null, new ObjectMetricSource(obj, id, t), null));
      }
      case External: {
        var r = m.getExternal();
        if (r == null) {
          break;
        }
        var id = identifier(r.getMetric(), sp + ".metric", ctx);
        var t = target(r.getTarget(), sp + ".target", ctx);
        return id == null || t == null ? null
            : ctx.build(p, () -> new MetricSpec(type, null, null, null, null, new ExternalMetricSource(id, t)));
      }
      default:
        break;
    }
    ctx.error(sp, "is required when type is " + type.name(), null);
    return null;
  }

  private static @Nullable MetricStatus metricStatus(io.fabric8.kubernetes.api.model.autoscaling.v2.MetricStatus m,
      String p, DocumentContext ctx) {
    MetricSourceType type = Values.requiredEnum(MetricSourceType.class, m.getType(), p + ".type", ctx);
    if (type == null) {
      return null;
    }
    String sp = p + "." + type.field();
    switch (type) {
      case Resource: {
        var r = m.getResource();
        if (r == null) {
          break;
        }
        var c = current(r.getCurrent(), sp + ".current", ctx);
        return c == null ? null : ctx.build(p, () -> MetricStatus.of(new ResourceMetricStatus(
            Values.required(r.getName(), sp + ".name", ctx), c)));
      }
      case ContainerResource: {
        var r = m.getContainerResource();
        if (r == null) {
          break;
        }
        var c = current(r.getCurrent(), sp + ".current", ctx);
        return c == null ? null : ctx.build(p, () -> MetricStatus.of(new ContainerResourceMetricStatus(
            Values.required(r.getName(), sp + ".name", ctx), Values.required(r.getContainer(), sp + ".container",
                ctx), c)));
      }
      case Pods: {
        var r = m.getPods();
        if (r == null) {
          break;
        }
        var id = identifier(r.getMetric(), sp + ".metric", ctx);
        var c = current(r.getCurrent(), sp + ".current", ctx);
        return id == null || c == null ? null : ctx.build(p, () -> MetricStatus.of(new PodsMetricStatus(id, c)));
      }
      case Object: {
        var r = m.getObject();
        if (r == null) {
          break;
        }
        var obj = ref(r.getDescribedObject(), sp + ".describedObject", ctx);
        var id = identifier(r.getMetric(), sp + ".metric", ctx);
        var c = current(r.getCurrent(), sp + ".current", ctx);
        return obj == null || id == null || c == null ? null
            : ctx.build(p, () -> MetricStatus.of(new ObjectMetricStatus(id, c, obj)));
      }
      case External: {
        var r = m.getExternal();
        if (r == null) {
          break;
        }
        var id = identifier(r.getMetric(), sp + ".metric", ctx);
        var c = current(r.getCurrent(), sp + ".current", ctx);
        return id == null || c == null ? null : ctx.build(p, () -> MetricStatus.of(new ExternalMetricStatus(id, c)));
      }
      default:
        break;
    }
    ctx.error(sp, "is required when type is " + type.name(), null);
    return null;
  }

  // ---- back to fabric8

  @Override
  public io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler toFabric8(
      HorizontalPodAutoscaler in) {
    HorizontalPodAutoscalerSpec s = in.spec();
    HorizontalPodAutoscalerStatus st = in.status();
    HorizontalPodAutoscalerBehavior b = s.behavior();
    return new HorizontalPodAutoscalerBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new HorizontalPodAutoscalerSpecBuilder()
            .withScaleTargetRef(ref(s.scaleTargetRef()))
            .withMinReplicas(s.minReplicas() == 1 ? null : s.minReplicas())
            .withMaxReplicas(s.maxReplicas())
            .withMetrics(Fabric8Scheduling.out(s.metrics(), HorizontalPodAutoscalerConverter::metric))
            .withBehavior(b == null ? null : new HorizontalPodAutoscalerBehaviorBuilder()
                .withScaleUp(rules(b.scaleUp())).withScaleDown(rules(b.scaleDown())).build())
            .build())
        .withStatus(st.equals(HorizontalPodAutoscalerStatus.EMPTY) ? null : new HorizontalPodAutoscalerStatusBuilder()
            .withObservedGeneration(st.observedGeneration() == 0 ? null : st.observedGeneration())
            .withLastScaleTime(Values.instant(st.lastScaleTime()))
            .withCurrentReplicas(st.currentReplicas())
            .withDesiredReplicas(st.desiredReplicas())
            .withCurrentMetrics(Fabric8Scheduling.out(st.currentMetrics(),
                HorizontalPodAutoscalerConverter::metricStatus))
            .withConditions(Fabric8Scheduling.out(st.conditions(), c -> new HorizontalPodAutoscalerConditionBuilder()
                .withType(c.type().name()).withStatus(c.status().name())
                .withLastTransitionTime(Values.instant(c.lastTransitionTime()))
                .withReason(Values.emptyToNull(c.reason())).withMessage(Values.emptyToNull(c.message())).build()))
            .build())
        .build();
  }

  private static io.fabric8.kubernetes.api.model.autoscaling.v2.HPAScalingRules rules(HPAScalingRules r) {
    return new HPAScalingRulesBuilder().withStabilizationWindowSeconds(r.stabilizationWindowSeconds())
        .withSelectPolicy(r.selectPolicy().name())
        .withPolicies(Fabric8Scheduling.out(r.policies(), x -> new HPAScalingPolicyBuilder()
            .withType(x.type().name()).withValue(x.value()).withPeriodSeconds(x.periodSeconds()).build()))
        .build();
  }

  private static io.fabric8.kubernetes.api.model.autoscaling.v2.CrossVersionObjectReference ref(
      CrossVersionObjectReference r) {
    return new CrossVersionObjectReferenceBuilder().withApiVersion(Values.emptyToNull(r.apiVersion()))
        .withKind(r.kind()).withName(r.name()).build();
  }

  private static io.fabric8.kubernetes.api.model.autoscaling.v2.MetricIdentifier identifier(MetricIdentifier m) {
    return new MetricIdentifierBuilder().withName(m.name()).withSelector(Fabric8Selectors.toFabric8(m.selector()))
        .build();
  }

  private static io.fabric8.kubernetes.api.model.@Nullable Quantity quantity(@Nullable Quantity q) {
    return q == null ? null : new io.fabric8.kubernetes.api.model.Quantity(q.toString());
  }

  private static io.fabric8.kubernetes.api.model.autoscaling.v2.MetricTarget target(MetricTarget t) {
    return new MetricTargetBuilder().withType(t.type().name()).withValue(quantity(t.value()))
        .withAverageValue(quantity(t.averageValue())).withAverageUtilization(t.averageUtilization()).build();
  }

  private static io.fabric8.kubernetes.api.model.autoscaling.v2.MetricValueStatus current(MetricValueStatus v) {
    return new MetricValueStatusBuilder().withValue(quantity(v.value())).withAverageValue(quantity(v.averageValue()))
        .withAverageUtilization(v.averageUtilization()).build();
  }

  private static io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec metric(MetricSpec m) {
    MetricSpecBuilder b = new MetricSpecBuilder().withType(m.type().name());
    if (m.resource() != null) {
      b.withResource(new ResourceMetricSourceBuilder().withName(m.resource().name())
          .withTarget(target(m.resource().target())).build());
    }
    if (m.containerResource() != null) {
      var c = m.containerResource();
      b.withContainerResource(new ContainerResourceMetricSourceBuilder().withName(c.name())
          .withContainer(c.container()).withTarget(target(c.target())).build());
    }
    if (m.pods() != null) {
      b.withPods(new PodsMetricSourceBuilder().withMetric(identifier(m.pods().metric()))
          .withTarget(target(m.pods().target())).build());
    }
    if (m.object() != null) {
      var o = m.object();
      b.withObject(new ObjectMetricSourceBuilder().withDescribedObject(ref(o.describedObject()))
          .withMetric(identifier(o.metric())).withTarget(target(o.target())).build());
    }
    if (m.external() != null) {
      b.withExternal(new ExternalMetricSourceBuilder().withMetric(identifier(m.external().metric()))
          .withTarget(target(m.external().target())).build());
    }
    return b.build();
  }

  private static io.fabric8.kubernetes.api.model.autoscaling.v2.MetricStatus metricStatus(MetricStatus m) {
    MetricStatusBuilder b = new MetricStatusBuilder().withType(m.type().name());
    if (m.resource() != null) {
      b.withResource(new ResourceMetricStatusBuilder().withName(m.resource().name())
          .withCurrent(current(m.resource().current())).build());
    }
    if (m.containerResource() != null) {
      var c = m.containerResource();
      b.withContainerResource(new ContainerResourceMetricStatusBuilder().withName(c.name())
          .withContainer(c.container()).withCurrent(current(c.current())).build());
    }
    if (m.pods() != null) {
      b.withPods(new PodsMetricStatusBuilder().withMetric(identifier(m.pods().metric()))
          .withCurrent(current(m.pods().current())).build());
    }
    if (m.object() != null) {
      var o = m.object();
      b.withObject(new ObjectMetricStatusBuilder().withDescribedObject(ref(o.describedObject()))
          .withMetric(identifier(o.metric())).withCurrent(current(o.current())).build());
    }
    if (m.external() != null) {
      b.withExternal(new ExternalMetricStatusBuilder().withMetric(identifier(m.external().metric()))
          .withCurrent(current(m.external().current())).build());
    }
    return b.build();
  }
}
