package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.api.scheduling.PriorityClass;
import org.jspecify.annotations.Nullable;

/** scheduling.k8s.io/v1 PriorityClass; {@code value} is required, preemptionPolicy defaults to PreemptLowerPriority. */
public final class PriorityClassConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass, PriorityClass> {
  public PriorityClassConverter() {
    super(PriorityClass.API_VERSION, PriorityClass.KIND, false,
        io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass.class, PriorityClass.class);
  }

  @Override
  public @Nullable PriorityClass toCore(io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    if (in.getValue() == null) {
      ctx.error("value", "is required", null);
    }
    var policy = Values.enumValue(PreemptionPolicy.class, in.getPreemptionPolicy(),
        PreemptionPolicy.PreemptLowerPriority, "preemptionPolicy", ctx);
    return in.getValue() == null ? null : ctx.build("", () -> new PriorityClass(meta, in.getValue(),
        Values.boolOr(in.getGlobalDefault(), false), policy, Values.orEmpty(in.getDescription())));
  }

  @Override
  public io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass toFabric8(PriorityClass in) {
    return new PriorityClassBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withValue(in.value())
        .withGlobalDefault(in.globalDefault() ? Boolean.TRUE : null)
        .withPreemptionPolicy(in.preemptionPolicy() == PreemptionPolicy.PreemptLowerPriority ? null
            : in.preemptionPolicy().name())
        .withDescription(Values.emptyToNull(in.description()))
        .build();
  }
}
