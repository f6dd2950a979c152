package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStrategyBuilder;
import io.fabric8.kubernetes.api.model.apps.RollingUpdateDeploymentBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Selectors;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.DeploymentCondition;
import io.fleetkit.api.apps.DeploymentSpec;
import io.fleetkit.api.apps.DeploymentStatus;
import io.fleetkit.api.apps.DeploymentStrategy;
import io.fleetkit.api.apps.DeploymentStrategyType;
import io.fleetkit.api.apps.RollingUpdateDeployment;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * apps/v1 Deployment, with Kubernetes' defaults: 1 replica, RollingUpdate 25%/25%, a revision history of 10, a
 * progress deadline of 600 s.
 */
public final class DeploymentConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.apps.Deployment, Deployment> {
  public DeploymentConverter() {
    super(Deployment.API_VERSION, Deployment.KIND, true,
        io.fabric8.kubernetes.api.model.apps.Deployment.class, Deployment.class);
  }

  @Override
  public @Nullable Deployment toCore(io.fabric8.kubernetes.api.model.apps.Deployment in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec();
    if (s == null) {
      ctx.error("spec", "is required", null);
      return null;
    }
    LabelSelector selector = Workloads.selector(s.getSelector(), "spec.selector", ctx);
    var template = PodSpecs.template(s.getTemplate(), "spec.template", ctx);
    DeploymentStrategy strategy = DeploymentStrategy.ROLLING_UPDATE;
    var st = s.getStrategy();
    if (st != null) {
      var type = Values.enumValue(DeploymentStrategyType.class, st.getType(), DeploymentStrategyType.RollingUpdate,
          "spec.strategy.type", ctx);
      RollingUpdateDeployment rolling = null;
      if (st.getRollingUpdate() != null) {
        var ru = st.getRollingUpdate();
        var surge = Values.intOrPercent(ru.getMaxSurge(), RollingUpdateDeployment.DEFAULT.maxSurge(),
            "spec.strategy.rollingUpdate.maxSurge", ctx);
        var unavailable = Values.intOrPercent(ru.getMaxUnavailable(), RollingUpdateDeployment.DEFAULT.maxUnavailable(),
            "spec.strategy.rollingUpdate.maxUnavailable", ctx);
        rolling = ctx.build("spec.strategy.rollingUpdate", () -> new RollingUpdateDeployment(surge, unavailable));
      }
      RollingUpdateDeployment r = rolling;
      strategy = type == null ? null : ctx.build("spec.strategy", () -> new DeploymentStrategy(type, r));
    }
    DeploymentStrategy strat = strategy;
    DeploymentSpec spec = template == null || strat == null ? null : ctx.build("spec", () -> new DeploymentSpec(
        Values.intOr(s.getReplicas(), 1), selector, template, strat, Values.intOr(s.getMinReadySeconds(), 0),
        Values.intOr(s.getRevisionHistoryLimit(), DeploymentSpec.DEFAULT_REVISION_HISTORY_LIMIT),
        Values.intOr(s.getProgressDeadlineSeconds(), DeploymentSpec.DEFAULT_PROGRESS_DEADLINE_SECONDS),
        Values.boolOr(s.getPaused(), false)));
    DeploymentStatus status = DeploymentStatus.EMPTY;
    var ds = in.getStatus();
    if (ds != null) {
      var conditions = Fabric8Scheduling.list(ds.getConditions(), "status.conditions", ctx, (c, p, cx) -> {
        var cs = Values.requiredEnum(ConditionStatus.class, c.getStatus(), p + ".status", cx);
        var updated = Values.instant(c.getLastUpdateTime(), p + ".lastUpdateTime", cx);
        var transition = Values.instant(c.getLastTransitionTime(), p + ".lastTransitionTime", cx);
        return cs == null ? null : cx.build(p, () -> new DeploymentCondition(Values.required(c.getType(),
            p + ".type", cx), cs, Values.orEmpty(c.getReason()), Values.orEmpty(c.getMessage()), updated,
            transition));
      });
      status = ctx.build("status", () -> new DeploymentStatus(Values.longOr(ds.getObservedGeneration(), 0),
          Values.intOr(ds.getReplicas(), 0), Values.intOr(ds.getUpdatedReplicas(), 0),
          Values.intOr(ds.getReadyReplicas(), 0), Values.intOr(ds.getAvailableReplicas(), 0),
          Values.intOr(ds.getUnavailableReplicas(), 0), conditions, ds.getCollisionCount()));
    }
    DeploymentStatus fs = status;
    return spec == null || fs == null ? null : ctx.build("", () -> new Deployment(meta, spec, fs));
  }

  @Override
  public io.fabric8.kubernetes.api.model.apps.Deployment toFabric8(Deployment in) {
    DeploymentSpec s = in.spec();
    DeploymentStatus st = in.status();
    DeploymentStrategy strategy = s.strategy();
    return new DeploymentBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new DeploymentSpecBuilder()
            .withReplicas(s.replicas())
            .withSelector(Fabric8Selectors.toFabric8(s.selector()))
            .withTemplate(PodSpecs.template(s.template()))
            .withStrategy(strategy.equals(DeploymentStrategy.ROLLING_UPDATE) ? null : new DeploymentStrategyBuilder()
                .withType(strategy.type().name())
                .withRollingUpdate(strategy.rollingUpdate() == null ? null : new RollingUpdateDeploymentBuilder()
                    .withMaxSurge(Values.intOrString(strategy.rollingUpdate().maxSurge()))
                    .withMaxUnavailable(Values.intOrString(strategy.rollingUpdate().maxUnavailable())).build())
                .build())
            .withMinReadySeconds(s.minReadySeconds() == 0 ? null : s.minReadySeconds())
            .withRevisionHistoryLimit(s.revisionHistoryLimit() == DeploymentSpec.DEFAULT_REVISION_HISTORY_LIMIT ? null
                : s.revisionHistoryLimit())
            .withProgressDeadlineSeconds(s.progressDeadlineSeconds()
                == DeploymentSpec.DEFAULT_PROGRESS_DEADLINE_SECONDS ? null : s.progressDeadlineSeconds())
            .withPaused(s.paused() ? Boolean.TRUE : null)
            .build())
        .withStatus(st.equals(DeploymentStatus.EMPTY) ? null : new DeploymentStatusBuilder()
            .withObservedGeneration(st.observedGeneration())
            .withReplicas(st.replicas()).withUpdatedReplicas(st.updatedReplicas())
            .withReadyReplicas(st.readyReplicas()).withAvailableReplicas(st.availableReplicas())
            .withUnavailableReplicas(st.unavailableReplicas())
            .withConditions(Fabric8Scheduling.out(st.conditions(), c -> new DeploymentConditionBuilder()
                .withType(c.type()).withStatus(c.status().name()).withReason(Values.emptyToNull(c.reason()))
                .withMessage(Values.emptyToNull(c.message())).withLastUpdateTime(Values.instant(c.lastUpdateTime()))
                .withLastTransitionTime(Values.instant(c.lastTransitionTime())).build()))
            .withCollisionCount(st.collisionCount())
            .build())
        .build();
  }
}
