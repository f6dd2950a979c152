package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ReplicationControllerBuilder;
import io.fabric8.kubernetes.api.model.ReplicationControllerConditionBuilder;
import io.fabric8.kubernetes.api.model.ReplicationControllerSpecBuilder;
import io.fabric8.kubernetes.api.model.ReplicationControllerStatusBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.core.ReplicationControllerCondition;
import io.fleetkit.api.core.ReplicationControllerSpec;
import io.fleetkit.api.core.ReplicationControllerStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * core/v1 ReplicationController, defaulted as the API server does ({@link ReplicationController.Builder}): replicas
 * 1; an empty selector, and empty object labels, taken from the template's labels.
 */
public final class ReplicationControllerConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.ReplicationController, ReplicationController> {
  public ReplicationControllerConverter() {
    super(ReplicationController.API_VERSION, ReplicationController.KIND, true,
        io.fabric8.kubernetes.api.model.ReplicationController.class, ReplicationController.class);
  }

  @Override
  public @Nullable ReplicationController toCore(io.fabric8.kubernetes.api.model.ReplicationController in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec();
    if (s == null) {
      ctx.error("spec", "is required", null);
      return null;
    }
    var selector = Values.stringMap(s.getSelector(), "spec.selector", ctx);
    var template = s.getTemplate() == null ? null : PodSpecs.template(s.getTemplate(), "spec.template", ctx);
    if (s.getTemplate() != null && template == null) {
      return null; // the template's own errors are reported
    }
    var st = in.getStatus();
    var conditions = st == null ? List.<ReplicationControllerCondition>of() : Fabric8Scheduling.list(
        st.getConditions(), "status.conditions", ctx, (c, p, cx) -> {
          var cs = Values.requiredEnum(ConditionStatus.class, c.getStatus(), p + ".status", cx);
          var transition = Values.instant(c.getLastTransitionTime(), p + ".lastTransitionTime", cx);
          return cs == null ? null : cx.build(p, () -> new ReplicationControllerCondition(Values.required(
              c.getType(), p + ".type", cx), cs, Values.orEmpty(c.getReason()), Values.orEmpty(c.getMessage()),
              transition));
        });
    ReplicationControllerStatus status = st == null ? ReplicationControllerStatus.EMPTY
        : new ReplicationControllerStatus(Values.intOr(st.getReplicas(), 0),
            Values.intOr(st.getFullyLabeledReplicas(), 0), Values.intOr(st.getReadyReplicas(), 0),
            Values.intOr(st.getAvailableReplicas(), 0), Values.longOr(st.getObservedGeneration(), 0), conditions);
    return ctx.build("", () -> ReplicationController.builder().metadata(meta)
        .replicas(Values.intOr(s.getReplicas(), 1)).minReadySeconds(Values.intOr(s.getMinReadySeconds(), 0))
        .selector(selector).template(template).status(status).build());
  }

  @Override
  public io.fabric8.kubernetes.api.model.ReplicationController toFabric8(ReplicationController in) {
    ReplicationControllerSpec s = in.spec();
    ReplicationControllerStatus st = in.status();
    return new ReplicationControllerBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new ReplicationControllerSpecBuilder().withReplicas(s.replicas())
            .withSelector(s.selector()).withTemplate(PodSpecs.template(in.template()))
            .withMinReadySeconds(s.minReadySeconds() == 0 ? null : s.minReadySeconds()).build())
        .withStatus(st.equals(ReplicationControllerStatus.EMPTY) ? null : new ReplicationControllerStatusBuilder()
            .withReplicas(st.replicas()).withFullyLabeledReplicas(st.fullyLabeledReplicas())
            .withReadyReplicas(st.readyReplicas()).withAvailableReplicas(st.availableReplicas())
            .withObservedGeneration(st.observedGeneration())
            .withConditions(Fabric8Scheduling.out(st.conditions(), c -> new ReplicationControllerConditionBuilder()
                .withType(c.type()).withStatus(c.status().name()).withReason(Values.emptyToNull(c.reason()))
                .withMessage(Values.emptyToNull(c.message()))
                .withLastTransitionTime(Values.instant(c.lastTransitionTime())).build()))
            .build())
        .build();
  }
}
