package io.fleetkit.api.discovery;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One network endpoint of an EndpointSlice. Strings are empty when unset.
 *
 * @param addresses one to {@value EndpointSlice#MAX_ADDRESSES_PER_ENDPOINT} addresses of the slice's type;
 *     consumers use the first
 * @param hostname the DNS label clusters give this endpoint ({@code <hostname>.<service>.<ns>.svc.<zone>})
 * @param targetRef the pod behind the endpoint, or {@code null}
 * @param nodeName the node hosting the endpoint
 * @param zone the zone of that node
 * @param hints topology hints, or {@code null}
 */
public record Endpoint(List<String> addresses, EndpointConditions conditions, String hostname,
    @Nullable EndpointTargetRef targetRef, String nodeName, String zone, @Nullable EndpointHints hints) {
  public Endpoint {
    addresses = List.copyOf(addresses);
    Objects.requireNonNull(conditions, "conditions");
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(nodeName, "nodeName");
    Objects.requireNonNull(zone, "zone");
  }

  /** A ready endpoint at {@code address} with nothing else set. */
  public static Endpoint of(String address) {
    return new Endpoint(List.of(address), EndpointConditions.of(true, true, false), "", null, "", "", null);
  }

  public Endpoint withConditions(EndpointConditions c) {
    return new Endpoint(addresses, c, hostname, targetRef, nodeName, zone, hints);
  }

  public Endpoint withHints(@Nullable EndpointHints h) {
    return new Endpoint(addresses, conditions, hostname, targetRef, nodeName, zone, h);
  }

  public Endpoint withZone(String z) {
    return new Endpoint(addresses, conditions, hostname, targetRef, nodeName, z, hints);
  }

  public Endpoint withNodeName(String n) {
    return new Endpoint(addresses, conditions, hostname, targetRef, n, zone, hints);
  }

  public Endpoint withHostname(String h) {
    return new Endpoint(addresses, conditions, h, targetRef, nodeName, zone, hints);
  }

  public Endpoint withTargetRef(@Nullable EndpointTargetRef ref) {
    return new Endpoint(addresses, conditions, hostname, ref, nodeName, zone, hints);
  }
}
