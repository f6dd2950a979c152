package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceConditionBuilder;
import io.fabric8.kubernetes.api.model.NamespaceSpecBuilder;
import io.fabric8.kubernetes.api.model.NamespaceStatusBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespaceCondition;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.NamespaceSpec;
import io.fleetkit.api.core.NamespaceStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** v1 Namespace; the phase defaults to Active, finalizers and the deletion conditions are kept as written. */
public final class NamespaceConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.Namespace, Namespace> {
  public NamespaceConverter() {
    super(Namespace.API_VERSION, Namespace.KIND, false,
        io.fabric8.kubernetes.api.model.Namespace.class, Namespace.class);
  }

  @Override
  public @Nullable Namespace toCore(io.fabric8.kubernetes.api.model.Namespace in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    var finalizers = Values.stringList(in.getSpec() == null ? null : in.getSpec().getFinalizers(),
        "spec.finalizers", ctx);
    NamespacePhase phase = Values.enumValue(NamespacePhase.class,
        in.getStatus() == null ? null : in.getStatus().getPhase(), NamespacePhase.Active, "status.phase", ctx);
    NamespacePhase p = phase == null ? NamespacePhase.Active : phase;
    List<NamespaceCondition> conditions = Fabric8Scheduling.list(
        in.getStatus() == null ? null : in.getStatus().getConditions(), "status.conditions", ctx,
        NamespaceConverter::condition);
    return ctx.build("", () -> new Namespace(meta, new NamespaceSpec(finalizers),
        new NamespaceStatus(p, conditions)));
  }

  private static @Nullable NamespaceCondition condition(io.fabric8.kubernetes.api.model.NamespaceCondition c,
      String p, DocumentContext ctx) {
    String type = Values.required(c.getType(), p + ".type", ctx);
    ConditionStatus status = Values.requiredEnum(ConditionStatus.class, c.getStatus(), p + ".status", ctx);
    var transition = Values.instant(c.getLastTransitionTime(), p + ".lastTransitionTime", ctx);
    if (status == null) {
      return null;
    }
    return ctx.build(p, () -> new NamespaceCondition(type, status, transition, Values.orEmpty(c.getReason()),
        Values.orEmpty(c.getMessage())));
  }

  @Override
  public io.fabric8.kubernetes.api.model.Namespace toFabric8(Namespace in) {
    return new NamespaceBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(in.spec().finalizers().isEmpty() ? null
            : new NamespaceSpecBuilder().withFinalizers(in.spec().finalizers()).build())
        .withStatus(in.status().phase() == NamespacePhase.Active && in.status().conditions().isEmpty() ? null
            : new NamespaceStatusBuilder().withPhase(in.status().phase().name())
                .withConditions(Fabric8Scheduling.out(in.status().conditions(), c -> new NamespaceConditionBuilder()
                    .withType(c.type()).withStatus(c.status().name()).withReason(Values.emptyToNull(c.reason()))
                    .withMessage(Values.emptyToNull(c.message()))
                    .withLastTransitionTime(Values.instant(c.lastTransitionTime())).build()))
                .build())
        .build();
  }
}
