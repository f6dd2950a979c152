package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayClassBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayClassSpecBuilder;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayClassStatusBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.GatewayClassStatus;
import io.fleetkit.api.meta.ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * gateway.networking.k8s.io/v1 GatewayClass ({@code spec.controllerName} and {@code spec.description};
 * parametersRef is refused) and its {@code status.conditions}, as {@code kubectl get -o yaml} prints them
 * ({@link GatewayApiStatusYaml}); {@code status.supportedFeatures} is not modelled: read past and not written (the
 * load warns of it).
 */
public final class GatewayClassConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayClass, GatewayClass> {
  public GatewayClassConverter() {
    super(GatewayClass.API_VERSION, GatewayClass.KIND, false,
        io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayClass.class, GatewayClass.class);
  }

  @Override
  public @Nullable GatewayClass toCore(io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayClass in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    var s = in.getSpec();
    if (s != null && s.getParametersRef() != null) {
      ctx.error("spec.parametersRef", "is not supported", s.getParametersRef().getName());
    }
    String controller = s == null ? "" : Values.orEmpty(s.getControllerName());
    String description = s == null ? "" : Values.orEmpty(s.getDescription());
    GatewayClassStatus status = GatewayClassStatus.EMPTY;
    var st = in.getStatus();
    if (st != null) {
      // status.supportedFeatures (what an implementation reports it supports) is read past: not modelled
      status = new GatewayClassStatus(GatewayApiStatusYaml.conditions(st.getConditions(), "status.conditions", ctx));
    }
    if (ctx.hasErrors()) {
      return null;
    }
    GatewayClassStatus fs = status;
    return ctx.build("", () -> new GatewayClass(meta, controller, description, fs));
  }

  @Override
  public io.fabric8.kubernetes.api.model.gatewayapi.v1.GatewayClass toFabric8(GatewayClass in) {
    return new GatewayClassBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new GatewayClassSpecBuilder().withControllerName(in.controllerName())
            .withDescription(Values.emptyToNull(in.description())).build())
        .withStatus(in.status().equals(GatewayClassStatus.EMPTY) ? null : new GatewayClassStatusBuilder()
            .withConditions(GatewayApiStatusYaml.conditionsOut(in.status().conditions())).build())
        .build();
  }
}
