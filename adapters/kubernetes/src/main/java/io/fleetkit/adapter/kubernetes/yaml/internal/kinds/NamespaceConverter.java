package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceSpecBuilder;
import io.fabric8.kubernetes.api.model.NamespaceStatusBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.NamespaceSpec;
import io.fleetkit.api.core.NamespaceStatus;
import io.fleetkit.api.meta.ObjectMeta;
import org.jspecify.annotations.Nullable;

/** v1 Namespace; the phase defaults to Active, finalizers are kept as written. */
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
    return ctx.build("", () -> new Namespace(meta, new NamespaceSpec(finalizers), new NamespaceStatus(p)));
  }

  @Override
  public io.fabric8.kubernetes.api.model.Namespace toFabric8(Namespace in) {
    return new NamespaceBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(in.spec().finalizers().isEmpty() ? null
            : new NamespaceSpecBuilder().withFinalizers(in.spec().finalizers()).build())
        .withStatus(in.status().phase() == NamespacePhase.Active ? null
            : new NamespaceStatusBuilder().withPhase(in.status().phase().name()).build())
        .build();
  }
}
