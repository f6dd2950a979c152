package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.EndpointAddress;
import io.fabric8.kubernetes.api.model.EndpointAddressBuilder;
import io.fabric8.kubernetes.api.model.EndpointPortBuilder;
import io.fabric8.kubernetes.api.model.EndpointSubset;
import io.fabric8.kubernetes.api.model.EndpointSubsetBuilder;
import io.fabric8.kubernetes.api.model.EndpointsBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.Endpoints;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * v1 Endpoints. An unset port protocol is TCP, as v1 defaulting ({@code SetDefaults_EndpointPort}) writes it; of an
 * address's {@code targetRef} the kind, namespace, name and uid are kept. An address in a non-standard form (an
 * IPv4 octet with leading zeros, an IPv4-mapped IPv6 address, IPv6 not in RFC 5952 form) is accepted with a warning
 * of the load, as the API server accepts it with a warning ({@link Endpoints#warnings()}).
 */
public final class EndpointsConverter extends AbstractKindConverter<io.fabric8.kubernetes.api.model.Endpoints,
    Endpoints> {
  public EndpointsConverter() {
    super(Endpoints.API_VERSION, Endpoints.KIND, true, io.fabric8.kubernetes.api.model.Endpoints.class,
        Endpoints.class);
  }

  @Override
  public @Nullable Endpoints toCore(io.fabric8.kubernetes.api.model.Endpoints in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    List<Endpoints.Subset> subsets = Fabric8Scheduling.list(in.getSubsets(), "subsets", ctx,
        EndpointsConverter::subset);
    // addresses in a non-standard form, as the API server warns of them
    return ctx.buildWarned("", () -> new Endpoints(meta, subsets), Endpoints::warnings);
  }

  private static Endpoints.Subset subset(EndpointSubset s, String path, DocumentContext ctx) {
    return new Endpoints.Subset(
        Fabric8Scheduling.list(s.getAddresses(), path + ".addresses", ctx, EndpointsConverter::address),
        Fabric8Scheduling.list(s.getNotReadyAddresses(), path + ".notReadyAddresses", ctx,
            EndpointsConverter::address),
        Fabric8Scheduling.list(s.getPorts(), path + ".ports", ctx, EndpointsConverter::port));
  }

  private static Endpoints.Address address(EndpointAddress a, String path, DocumentContext ctx) {
    var ref = a.getTargetRef();
    Endpoints.TargetRef target = ref == null ? null : new Endpoints.TargetRef(Values.orEmpty(ref.getKind()),
        Values.orEmpty(ref.getNamespace()), Values.orEmpty(ref.getName()), Values.orEmpty(ref.getUid()));
    return new Endpoints.Address(Values.orEmpty(a.getIp()), Values.orEmpty(a.getHostname()),
        Values.orEmpty(a.getNodeName()), target);
  }

  private static Endpoints.Port port(io.fabric8.kubernetes.api.model.EndpointPort p, String path,
      DocumentContext ctx) {
    // an unknown protocol is reported (the document fails) and read as the default
    ServiceProtocol protocol = java.util.Objects.requireNonNull(Values.enumValue(ServiceProtocol.class,
        p.getProtocol(), ServiceProtocol.TCP, path + ".protocol", ctx));
    return new Endpoints.Port(Values.orEmpty(p.getName()), Values.intOr(p.getPort(), 0), protocol,
        Values.orEmpty(p.getAppProtocol()));
  }

  @Override
  public io.fabric8.kubernetes.api.model.Endpoints toFabric8(Endpoints in) {
    return new EndpointsBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSubsets(Fabric8Scheduling.out(in.subsets(), s -> new EndpointSubsetBuilder()
            .withAddresses(Fabric8Scheduling.out(s.addresses(), EndpointsConverter::address))
            .withNotReadyAddresses(Fabric8Scheduling.out(s.notReadyAddresses(), EndpointsConverter::address))
            .withPorts(Fabric8Scheduling.out(s.ports(), p -> new EndpointPortBuilder()
                .withName(Values.emptyToNull(p.name())).withPort(p.port())
                .withProtocol(p.protocol() == ServiceProtocol.TCP ? null : p.protocol().name())
                .withAppProtocol(Values.emptyToNull(p.appProtocol())).build()))
            .build()))
        .build();
  }

  private static EndpointAddress address(Endpoints.Address a) {
    Endpoints.TargetRef ref = a.targetRef();
    return new EndpointAddressBuilder()
        .withIp(a.ip())
        .withHostname(Values.emptyToNull(a.hostname()))
        .withNodeName(Values.emptyToNull(a.nodeName()))
        .withTargetRef(ref == null ? null : new ObjectReferenceBuilder().withKind(Values.emptyToNull(ref.kind()))
            .withNamespace(Values.emptyToNull(ref.namespace())).withName(Values.emptyToNull(ref.name()))
            .withUid(Values.emptyToNull(ref.uid())).build())
        .build();
  }
}
