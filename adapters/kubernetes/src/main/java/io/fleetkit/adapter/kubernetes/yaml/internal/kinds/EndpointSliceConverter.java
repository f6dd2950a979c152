package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditionsBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointHintsBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.ForNode;
import io.fabric8.kubernetes.api.model.discovery.v1.ForZone;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointConditions;
import io.fleetkit.api.discovery.EndpointHints;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.discovery.EndpointTargetRef;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** discovery.k8s.io/v1 EndpointSlice; {@code addressType} is required. */
public final class EndpointSliceConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice, EndpointSlice> {
  public EndpointSliceConverter() {
    super(EndpointSlice.API_VERSION, EndpointSlice.KIND, true,
        io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice.class, EndpointSlice.class);
  }

  @Override
  public @Nullable EndpointSlice toCore(io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    AddressType type = Values.requiredEnum(AddressType.class, in.getAddressType(), "addressType", ctx);
    List<Endpoint> endpoints = Fabric8Scheduling.list(in.getEndpoints(), "endpoints", ctx,
        EndpointSliceConverter::endpoint);
    List<EndpointPort> ports = Fabric8Scheduling.list(in.getPorts(), "ports", ctx, EndpointSliceConverter::port);
    return type == null ? null
        : ctx.buildWarned("", () -> new EndpointSlice(meta, type, endpoints, ports), EndpointSlice::warnings);
  }

  private static @Nullable Endpoint endpoint(io.fabric8.kubernetes.api.model.discovery.v1.Endpoint e, String path,
      DocumentContext ctx) {
    var c = e.getConditions();
    EndpointConditions cond = c == null ? EndpointConditions.UNKNOWN
        : new EndpointConditions(c.getReady(), c.getServing(), c.getTerminating());
    var ref = e.getTargetRef();
    EndpointTargetRef target = ref == null ? null : new EndpointTargetRef(Values.orEmpty(ref.getKind()),
        Values.orEmpty(ref.getNamespace()), Values.orEmpty(ref.getName()), Values.orEmpty(ref.getUid()));
    EndpointHints hints = null;
    if (e.getHints() != null) {
      List<String> zones = new ArrayList<>();
      List<String> nodes = new ArrayList<>();
      if (e.getHints().getForZones() != null) {
        e.getHints().getForZones().forEach(z -> zones.add(Values.orEmpty(z.getName())));
      }
      if (e.getHints().getForNodes() != null) {
        e.getHints().getForNodes().forEach(n -> nodes.add(Values.orEmpty(n.getName())));
      }
      hints = new EndpointHints(zones, nodes);
    }
    EndpointHints h = hints;
    return ctx.build(path, () -> new Endpoint(Values.stringList(e.getAddresses(), path + ".addresses", ctx), cond,
        Values.orEmpty(e.getHostname()), target, Values.orEmpty(e.getNodeName()), Values.orEmpty(e.getZone()), h));
  }

  private static @Nullable EndpointPort port(io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort p, String path,
      DocumentContext ctx) {
    ServiceProtocol protocol = Values.enumValue(ServiceProtocol.class, p.getProtocol(), ServiceProtocol.TCP,
        path + ".protocol", ctx);
    return protocol == null ? null : ctx.build(path, () -> new EndpointPort(Values.orEmpty(p.getName()), p.getPort(),
        protocol, Values.orEmpty(p.getAppProtocol())));
  }

  @Override
  public io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice toFabric8(EndpointSlice in) {
    return new EndpointSliceBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withAddressType(in.addressType().name())
        .withEndpoints(Fabric8Scheduling.out(in.endpoints(), EndpointSliceConverter::endpoint))
        .withPorts(Fabric8Scheduling.out(in.ports(), p -> new EndpointPortBuilder()
            .withName(Values.emptyToNull(p.name())).withPort(p.port())
            .withProtocol(p.protocol() == ServiceProtocol.TCP ? null : p.protocol().name())
            .withAppProtocol(Values.emptyToNull(p.appProtocol())).build()))
        .build();
  }

  private static io.fabric8.kubernetes.api.model.discovery.v1.Endpoint endpoint(Endpoint e) {
    EndpointConditions c = e.conditions();
    EndpointTargetRef ref = e.targetRef();
    EndpointHints h = e.hints();
    return new EndpointBuilder()
        .withAddresses(e.addresses())
        .withConditions(c.equals(EndpointConditions.UNKNOWN) ? null : new EndpointConditionsBuilder()
            .withReady(c.ready()).withServing(c.serving()).withTerminating(c.terminating()).build())
        .withHostname(Values.emptyToNull(e.hostname()))
        .withTargetRef(ref == null ? null : new ObjectReferenceBuilder().withKind(Values.emptyToNull(ref.kind()))
            .withNamespace(Values.emptyToNull(ref.namespace())).withName(Values.emptyToNull(ref.name()))
            .withUid(Values.emptyToNull(ref.uid())).build())
        .withNodeName(Values.emptyToNull(e.nodeName()))
        .withZone(Values.emptyToNull(e.zone()))
        .withHints(h == null ? null : new EndpointHintsBuilder()
            .withForZones(h.forZones().stream().map(z -> new ForZone(z)).toList())
            .withForNodes(h.forNodes().isEmpty() ? null : h.forNodes().stream().map(n -> new ForNode(n)).toList())
            .build())
        .build();
  }
}
