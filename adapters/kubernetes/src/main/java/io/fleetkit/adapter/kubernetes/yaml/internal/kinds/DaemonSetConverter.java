package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSetConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSetSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSetStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSetUpdateStrategyBuilder;
import io.fabric8.kubernetes.api.model.apps.RollingUpdateDaemonSetBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Selectors;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.DaemonSetCondition;
import io.fleetkit.api.apps.DaemonSetSpec;
import io.fleetkit.api.apps.DaemonSetStatus;
import io.fleetkit.api.apps.DaemonSetUpdateStrategy;
import io.fleetkit.api.apps.DaemonSetUpdateStrategyType;
import io.fleetkit.api.apps.RollingUpdateDaemonSet;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * apps/v1 DaemonSet, with Kubernetes' defaults: RollingUpdate with maxUnavailable 1 and maxSurge 0 (each filled in
 * when the manifest leaves it out), a revision history of 10, minReadySeconds 0.
 */
public final class DaemonSetConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.apps.DaemonSet, DaemonSet> {
  public DaemonSetConverter() {
    super(DaemonSet.API_VERSION, DaemonSet.KIND, true, io.fabric8.kubernetes.api.model.apps.DaemonSet.class,
        DaemonSet.class);
  }

  @Override
  public @Nullable DaemonSet toCore(io.fabric8.kubernetes.api.model.apps.DaemonSet in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec();
    if (s == null) {
      ctx.error("spec", "is required", null);
      return null;
    }
    var selector = Workloads.selector(s.getSelector(), "spec.selector", ctx);
    var template = PodSpecs.template(s.getTemplate(), "spec.template", ctx);
    DaemonSetUpdateStrategy strategy = DaemonSetUpdateStrategy.ROLLING_UPDATE;
    if (s.getUpdateStrategy() != null) {
      var u = s.getUpdateStrategy();
      var type = Values.enumValue(DaemonSetUpdateStrategyType.class, u.getType(),
          DaemonSetUpdateStrategyType.RollingUpdate, "spec.updateStrategy.type", ctx);
      RollingUpdateDaemonSet rolling = null;
      if (u.getRollingUpdate() != null) {
        var ru = u.getRollingUpdate();
        String p = "spec.updateStrategy.rollingUpdate";
        var unavailable = Values.intOrPercent(ru.getMaxUnavailable(), RollingUpdateDaemonSet.DEFAULT.maxUnavailable(),
            p + ".maxUnavailable", ctx);
        var surge = Values.intOrPercent(ru.getMaxSurge(), RollingUpdateDaemonSet.DEFAULT.maxSurge(), p + ".maxSurge",
            ctx);
        rolling = unavailable == null || surge == null ? null
            : ctx.build(p, () -> new RollingUpdateDaemonSet(unavailable, surge));
      }
      RollingUpdateDaemonSet r = rolling;
      strategy = type == null ? null : ctx.build("spec.updateStrategy", () -> new DaemonSetUpdateStrategy(type, r));
    }
    DaemonSetUpdateStrategy strat = strategy;
    DaemonSetSpec spec = template == null || strat == null ? null : ctx.build("spec", () -> new DaemonSetSpec(
        selector, template, strat, Values.intOr(s.getMinReadySeconds(), 0),
        Values.intOr(s.getRevisionHistoryLimit(), DaemonSetSpec.DEFAULT_REVISION_HISTORY_LIMIT)));
    DaemonSetStatus status = DaemonSetStatus.EMPTY;
    var st = in.getStatus();
    if (st != null) {
      var conditions = Fabric8Scheduling.list(st.getConditions(), "status.conditions", ctx, (c, p, cx) -> {
        var cs = Values.requiredEnum(ConditionStatus.class, c.getStatus(), p + ".status", cx);
        var transition = Values.instant(c.getLastTransitionTime(), p + ".lastTransitionTime", cx);
        return cs == null ? null : cx.build(p, () -> new DaemonSetCondition(Values.required(c.getType(),
            p + ".type", cx), cs, transition, Values.orEmpty(c.getReason()), Values.orEmpty(c.getMessage())));
      });
      status = ctx.build("status", () -> new DaemonSetStatus(Values.intOr(st.getCurrentNumberScheduled(), 0),
          Values.intOr(st.getNumberMisscheduled(), 0), Values.intOr(st.getDesiredNumberScheduled(), 0),
          Values.intOr(st.getNumberReady(), 0), Values.intOr(st.getUpdatedNumberScheduled(), 0),
          Values.intOr(st.getNumberAvailable(), 0), Values.intOr(st.getNumberUnavailable(), 0),
          Values.longOr(st.getObservedGeneration(), 0), st.getCollisionCount(), conditions));
    }
    DaemonSetStatus fs = status;
    return spec == null || fs == null ? null : ctx.build("", () -> new DaemonSet(meta, spec, fs));
  }

  @Override
  public io.fabric8.kubernetes.api.model.apps.DaemonSet toFabric8(DaemonSet in) {
    DaemonSetSpec s = in.spec();
    DaemonSetStatus st = in.status();
    DaemonSetUpdateStrategy u = s.updateStrategy();
    RollingUpdateDaemonSet ru = u.rollingUpdate();
    return new DaemonSetBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new DaemonSetSpecBuilder()
            .withSelector(Fabric8Selectors.toFabric8(s.selector()))
            .withTemplate(PodSpecs.template(s.template()))
            .withUpdateStrategy(u.equals(DaemonSetUpdateStrategy.ROLLING_UPDATE) ? null
                : new DaemonSetUpdateStrategyBuilder().withType(u.type().name())
                    .withRollingUpdate(ru == null ? null : new RollingUpdateDaemonSetBuilder()
                        .withMaxUnavailable(Values.intOrString(ru.maxUnavailable()))
                        .withMaxSurge(Values.intOrString(ru.maxSurge())).build())
                    .build())
            .withMinReadySeconds(s.minReadySeconds() == 0 ? null : s.minReadySeconds())
            .withRevisionHistoryLimit(s.revisionHistoryLimit() == DaemonSetSpec.DEFAULT_REVISION_HISTORY_LIMIT ? null
                : s.revisionHistoryLimit())
            .build())
        .withStatus(st.equals(DaemonSetStatus.EMPTY) ? null : new DaemonSetStatusBuilder()
            .withCurrentNumberScheduled(st.currentNumberScheduled())
            .withNumberMisscheduled(st.numberMisscheduled())
            .withDesiredNumberScheduled(st.desiredNumberScheduled())
            .withNumberReady(st.numberReady())
            .withUpdatedNumberScheduled(st.updatedNumberScheduled())
            .withNumberAvailable(st.numberAvailable())
            .withNumberUnavailable(st.numberUnavailable())
            .withObservedGeneration(st.observedGeneration())
            .withCollisionCount(st.collisionCount())
            .withConditions(Fabric8Scheduling.out(st.conditions(), c -> new DaemonSetConditionBuilder()
                .withType(c.type()).withStatus(c.status().name())
                .withLastTransitionTime(Values.instant(c.lastTransitionTime()))
                .withReason(Values.emptyToNull(c.reason())).withMessage(Values.emptyToNull(c.message())).build()))
            .build())
        .build();
  }
}
