package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.ReferenceGrantBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ReferenceGrantFromBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ReferenceGrantSpecBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ReferenceGrantToBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.gateway.ReferenceGrant;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** gateway.networking.k8s.io/v1 ReferenceGrant: {@code from} (group, kind, namespace) and {@code to} entries. */
public final class ReferenceGrantConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.gatewayapi.v1.ReferenceGrant, ReferenceGrant> {
  public ReferenceGrantConverter() {
    super(ReferenceGrant.API_VERSION, ReferenceGrant.KIND, true,
        io.fabric8.kubernetes.api.model.gatewayapi.v1.ReferenceGrant.class, ReferenceGrant.class);
  }

  @Override
  public @Nullable ReferenceGrant toCore(io.fabric8.kubernetes.api.model.gatewayapi.v1.ReferenceGrant in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec() == null ? new io.fabric8.kubernetes.api.model.gatewayapi.v1.ReferenceGrantSpec()
        : in.getSpec();
    List<ReferenceGrant.From> from = Fabric8Scheduling.list(s.getFrom(), "spec.from", ctx,
        (f, p, c) -> new ReferenceGrant.From(Values.orEmpty(f.getGroup()), Values.orEmpty(f.getKind()),
            Values.orEmpty(f.getNamespace())));
    List<ReferenceGrant.To> to = Fabric8Scheduling.list(s.getTo(), "spec.to", ctx,
        (t, p, c) -> new ReferenceGrant.To(Values.orEmpty(t.getGroup()), Values.orEmpty(t.getKind()),
            Values.orEmpty(t.getName())));
    if (ctx.hasErrors()) {
      return null;
    }
    return ctx.build("", () -> new ReferenceGrant(meta, from, to));
  }

  @Override
  public io.fabric8.kubernetes.api.model.gatewayapi.v1.ReferenceGrant toFabric8(ReferenceGrant in) {
    return new ReferenceGrantBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new ReferenceGrantSpecBuilder()
            .withFrom(Fabric8Scheduling.out(in.from(), f -> new ReferenceGrantFromBuilder().withGroup(f.group())
                .withKind(f.kind()).withNamespace(f.namespace()).build()))
            .withTo(Fabric8Scheduling.out(in.to(), t -> new ReferenceGrantToBuilder().withGroup(t.group())
                .withKind(t.kind()).withName(Values.emptyToNull(t.name())).build()))
            .build())
        .build();
  }
}
