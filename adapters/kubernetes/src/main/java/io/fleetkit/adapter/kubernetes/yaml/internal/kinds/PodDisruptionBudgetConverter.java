package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetSpecBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetStatusBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Selectors;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.policy.UnhealthyPodEvictionPolicyType;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/** policy/v1 PodDisruptionBudget. */
public final class PodDisruptionBudgetConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget, PodDisruptionBudget> {
  public PodDisruptionBudgetConverter() {
    super(PodDisruptionBudget.API_VERSION, PodDisruptionBudget.KIND, true,
        io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class, PodDisruptionBudget.class);
  }

  @Override
  public @Nullable PodDisruptionBudget toCore(io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec() == null ? new io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetSpec()
        : in.getSpec();
    IntOrPercent min = intOrPercent(s.getMinAvailable(), "spec.minAvailable", ctx);
    IntOrPercent max = intOrPercent(s.getMaxUnavailable(), "spec.maxUnavailable", ctx);
    var selector = Fabric8Selectors.toCore(s.getSelector(), "spec.selector", ctx);
    var policy = Values.enumValue(UnhealthyPodEvictionPolicyType.class, s.getUnhealthyPodEvictionPolicy(), null,
        "spec.unhealthyPodEvictionPolicy", ctx);
    PodDisruptionBudgetSpec spec = ctx.build("spec", () -> new PodDisruptionBudgetSpec(min, selector, max, policy));
    PodDisruptionBudgetStatus status = PodDisruptionBudgetStatus.EMPTY;
    var st = in.getStatus();
    if (st != null) {
      Map<String, Instant> disrupted = new LinkedHashMap<>();
      if (st.getDisruptedPods() != null) {
        st.getDisruptedPods().forEach((pod, time) -> {
          Instant t = Values.instant(time, "status.disruptedPods." + pod, ctx);
          if (t != null) {
            disrupted.put(pod, t);
          }
        });
      }
      var conditions = Fabric8Scheduling.list(st.getConditions(), "status.conditions", ctx, (c, p, cx) -> {
        var cs = Values.requiredEnum(ConditionStatus.class, c.getStatus(), p + ".status", cx);
        var time = Values.instant(c.getLastTransitionTime(), p + ".lastTransitionTime", cx);
        return cs == null ? null : cx.build(p, () -> new Condition(Values.required(c.getType(), p + ".type", cx), cs,
            Values.longOr(c.getObservedGeneration(), 0), time, Values.orEmpty(c.getReason()),
            Values.orEmpty(c.getMessage())));
      });
      status = ctx.build("status", () -> new PodDisruptionBudgetStatus(Values.longOr(st.getObservedGeneration(), 0),
          disrupted, Values.intOr(st.getDisruptionsAllowed(), 0), Values.intOr(st.getCurrentHealthy(), 0),
          Values.intOr(st.getDesiredHealthy(), 0), Values.intOr(st.getExpectedPods(), 0), conditions));
    }
    PodDisruptionBudgetStatus fs = status;
    return spec == null || fs == null ? null : ctx.build("", () -> new PodDisruptionBudget(meta, spec, fs));
  }

  private static @Nullable IntOrPercent intOrPercent(@Nullable IntOrString v, String path, DocumentContext ctx) {
    if (v == null || (v.getIntVal() == null && v.getStrVal() == null)) {
      return null;
    }
    if (v.getIntVal() != null) {
      return IntOrPercent.of(v.getIntVal());
    }
    try {
      return IntOrPercent.parse(v.getStrVal());
    } catch (IllegalArgumentException e) {
      ctx.error(path, "must be an integer or a percentage such as \"25%\"", v.getStrVal());
      return null;
    }
  }

  private static @Nullable IntOrString intOrString(@Nullable IntOrPercent v) {
    if (v == null) {
      return null;
    }
    return v.percent() ? new IntOrString(v.toString()) : new IntOrString(v.value());
  }

  @Override
  public io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget toFabric8(PodDisruptionBudget in) {
    PodDisruptionBudgetSpec s = in.spec();
    PodDisruptionBudgetStatus st = in.status();
    Map<String, String> disrupted = new TreeMap<>();
    st.disruptedPods().forEach((pod, t) -> disrupted.put(pod, t.toString()));
    return new PodDisruptionBudgetBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new PodDisruptionBudgetSpecBuilder()
            .withMinAvailable(intOrString(s.minAvailable()))
            .withMaxUnavailable(intOrString(s.maxUnavailable()))
            .withSelector(Fabric8Selectors.toFabric8(s.selector()))
            .withUnhealthyPodEvictionPolicy(Values.name(s.unhealthyPodEvictionPolicy()))
            .build())
        .withStatus(st.equals(PodDisruptionBudgetStatus.EMPTY) ? null : new PodDisruptionBudgetStatusBuilder()
            .withObservedGeneration(st.observedGeneration())
            .withDisruptedPods(Values.emptyToNull(disrupted))
            .withDisruptionsAllowed(st.disruptionsAllowed()).withCurrentHealthy(st.currentHealthy())
            .withDesiredHealthy(st.desiredHealthy()).withExpectedPods(st.expectedPods())
            .withConditions(Fabric8Scheduling.out(st.conditions(), c -> new ConditionBuilder().withType(c.type())
                .withStatus(c.status().name()).withObservedGeneration(c.observedGeneration() == 0 ? null
                    : c.observedGeneration())
                .withLastTransitionTime(Values.instant(c.lastTransitionTime()))
                .withReason(Values.emptyToNull(c.reason())).withMessage(Values.emptyToNull(c.message())).build()))
            .build())
        .build();
  }
}
