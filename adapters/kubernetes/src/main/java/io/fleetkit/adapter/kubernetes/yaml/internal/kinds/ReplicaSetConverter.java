package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetStatusBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Selectors;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetSpec;
import io.fleetkit.api.apps.ReplicaSetCondition;
import io.fleetkit.api.apps.ReplicaSetStatus;
import io.fleetkit.api.meta.ConditionStatus;
import java.util.List;
import io.fleetkit.api.meta.ObjectMeta;
import org.jspecify.annotations.Nullable;

/** apps/v1 ReplicaSet; replicas default to 1. */
public final class ReplicaSetConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.apps.ReplicaSet, ReplicaSet> {
  public ReplicaSetConverter() {
    super(ReplicaSet.API_VERSION, ReplicaSet.KIND, true,
        io.fabric8.kubernetes.api.model.apps.ReplicaSet.class, ReplicaSet.class);
  }

  @Override
  public @Nullable ReplicaSet toCore(io.fabric8.kubernetes.api.model.apps.ReplicaSet in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec();
    if (s == null) {
      ctx.error("spec", "is required", null);
      return null;
    }
    var selector = Workloads.selector(s.getSelector(), "spec.selector", ctx);
    var template = PodSpecs.template(s.getTemplate(), "spec.template", ctx);
    ReplicaSetSpec spec = template == null ? null : ctx.build("spec", () -> new ReplicaSetSpec(
        Values.intOr(s.getReplicas(), 1), selector, template, Values.intOr(s.getMinReadySeconds(), 0)));
    var st = in.getStatus();
    var conditions = st == null ? List.<ReplicaSetCondition>of() : Fabric8Scheduling.list(st.getConditions(),
        "status.conditions", ctx, (c, p, cx) -> {
          var cs = Values.requiredEnum(ConditionStatus.class, c.getStatus(), p + ".status", cx);
          var transition = Values.instant(c.getLastTransitionTime(), p + ".lastTransitionTime", cx);
          return cs == null ? null : cx.build(p, () -> new ReplicaSetCondition(Values.required(c.getType(),
              p + ".type", cx), cs, Values.orEmpty(c.getReason()), Values.orEmpty(c.getMessage()), transition));
        });
    ReplicaSetStatus status = st == null ? ReplicaSetStatus.EMPTY : ctx.build("status", () -> new ReplicaSetStatus(
        Values.intOr(st.getReplicas(), 0), Values.intOr(st.getFullyLabeledReplicas(), 0),
        Values.intOr(st.getReadyReplicas(), 0), Values.intOr(st.getAvailableReplicas(), 0),
        Values.longOr(st.getObservedGeneration(), 0), conditions));
    return spec == null || status == null ? null : ctx.build("", () -> new ReplicaSet(meta, spec, status));
  }

  @Override
  public io.fabric8.kubernetes.api.model.apps.ReplicaSet toFabric8(ReplicaSet in) {
    ReplicaSetSpec s = in.spec();
    ReplicaSetStatus st = in.status();
    return new ReplicaSetBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new ReplicaSetSpecBuilder().withReplicas(s.replicas())
            .withSelector(Fabric8Selectors.toFabric8(s.selector())).withTemplate(PodSpecs.template(s.template()))
            .withMinReadySeconds(s.minReadySeconds() == 0 ? null : s.minReadySeconds()).build())
        .withStatus(st.equals(ReplicaSetStatus.EMPTY) ? null : new ReplicaSetStatusBuilder()
            .withReplicas(st.replicas()).withFullyLabeledReplicas(st.fullyLabeledReplicas())
            .withReadyReplicas(st.readyReplicas()).withAvailableReplicas(st.availableReplicas())
            .withObservedGeneration(st.observedGeneration())
            .withConditions(Fabric8Scheduling.out(st.conditions(), c -> new ReplicaSetConditionBuilder()
                .withType(c.type()).withStatus(c.status().name()).withReason(Values.emptyToNull(c.reason()))
                .withMessage(Values.emptyToNull(c.message()))
                .withLastTransitionTime(Values.instant(c.lastTransitionTime())).build()))
            .build())
        .build();
  }
}
