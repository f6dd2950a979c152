package io.fleetkit.networking.gateway;

import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.ReferenceGrant;
import java.util.List;

/**
 * The objects route attachment looks at. Namespaces only matter for listeners that select namespaces by label (a
 * namespace not given has just the label {@code kubernetes.io/metadata.name}); Services resolve backends, Secrets
 * listener certificates.
 */
public record GatewayObjects(List<GatewayClass> classes, List<Gateway> gateways, List<HTTPRoute> routes,
    List<Service> services, List<Namespace> namespaces, List<ReferenceGrant> grants, List<Secret> secrets) {
  public GatewayObjects {
    classes = List.copyOf(classes);
    gateways = List.copyOf(gateways);
    routes = List.copyOf(routes);
    services = List.copyOf(services);
    namespaces = List.copyOf(namespaces);
    grants = List.copyOf(grants);
    secrets = List.copyOf(secrets);
  }
}
