package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.networking.v1.IngressClassBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.IngressClassSpecBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.networking.IngressClass;
import org.jspecify.annotations.Nullable;

/** networking.k8s.io/v1 IngressClass ({@code spec.controller}; parameters are not modelled: the load warns of them). */
public final class IngressClassConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.networking.v1.IngressClass, IngressClass> {
  public IngressClassConverter() {
    super(IngressClass.API_VERSION, IngressClass.KIND, false,
        io.fabric8.kubernetes.api.model.networking.v1.IngressClass.class, IngressClass.class);
  }

  @Override
  public @Nullable IngressClass toCore(io.fabric8.kubernetes.api.model.networking.v1.IngressClass in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    String controller = in.getSpec() == null ? "" : Values.orEmpty(in.getSpec().getController());
    return ctx.build("", () -> new IngressClass(meta, controller));
  }

  @Override
  public io.fabric8.kubernetes.api.model.networking.v1.IngressClass toFabric8(IngressClass in) {
    return new IngressClassBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new IngressClassSpecBuilder().withController(in.controller()).build())
        .build();
  }
}
