package io.fleetkit.api.discovery;

import io.fleetkit.api.Violation;
import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.LegacyIpWarnings;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.net.IpText;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An EndpointSlice ({@code discovery.k8s.io/v1}): a part of the endpoints backing a Service, of one address type
 * and one set of ports. The Service it belongs to is named by the label {@value #LABEL_SERVICE_NAME}; the
 * EndpointSlice controller marks the slices it writes with {@value #LABEL_MANAGED_BY}. Like Kubernetes it has no
 * spec/status split: {@link #spec()} returns the desired fields as a {@link Desired} value and there is no status.
 *
 * <p>The constructor checks the API's rules (Kubernetes' {@code ValidateEndpointSlice}) and reports every violation
 * at once: at most {@value #MAX_ENDPOINTS} endpoints, 1..{@value #MAX_ADDRESSES_PER_ENDPOINT} addresses each, at most
 * {@value #MAX_PORTS} ports with unique names, at most {@value #MAX_ZONE_HINTS} zone hints per endpoint; the addresses
 * of an {@code IPv4} or {@code IPv6} slice are addresses of that family outside the special ranges, read as the
 * legacy field they are (an IPv4 octet may have leading zeros); {@link #warnings()} lists those in a non-standard
 * form.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken
 */
public record EndpointSlice(ObjectMeta metadata, AddressType addressType, List<Endpoint> endpoints,
    List<EndpointPort> ports) implements ApiObject<EndpointSlice> {
  public static final String API_VERSION = "discovery.k8s.io/v1";
  public static final String KIND = "EndpointSlice";
  /** The label naming the Service a slice belongs to. */
  public static final String LABEL_SERVICE_NAME = "kubernetes.io/service-name";
  /** The label naming the controller that manages a slice. */
  public static final String LABEL_MANAGED_BY = "endpointslice.kubernetes.io/managed-by";
  /** The EndpointSlice controller's name, the {@value #LABEL_MANAGED_BY} value of the slices it writes. */
  public static final String CONTROLLER_NAME = "endpointslice-controller.k8s.io";
  /** The EndpointSlice mirroring controller's name, the {@value #LABEL_MANAGED_BY} value of the slices it writes. */
  public static final String MIRRORING_CONTROLLER_NAME = "endpointslicemirroring-controller.k8s.io";
  /** The label present (empty) on slices of headless Services. */
  public static final String LABEL_HEADLESS = "service.kubernetes.io/headless";
  /** The API's limit of endpoints per slice. */
  public static final int MAX_ENDPOINTS = 1000;
  public static final int MAX_ADDRESSES_PER_ENDPOINT = 100;
  public static final int MAX_PORTS = 20000;
  public static final int MAX_ZONE_HINTS = 8;

  /** The desired fields, what {@link #spec()} returns. */
  public record Desired(AddressType addressType, List<Endpoint> endpoints, List<EndpointPort> ports) {}

  public EndpointSlice {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(addressType, "addressType");
    endpoints = List.copyOf(endpoints);
    ports = List.copyOf(ports);
    validate(metadata, addressType, endpoints, ports);
  }

  private static void validate(ObjectMeta metadata, AddressType addressType, List<Endpoint> endpoints,
      List<EndpointPort> ports) {
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    if (endpoints.size() > MAX_ENDPOINTS) {
      v.add("endpoints", "must have at most " + MAX_ENDPOINTS + " items", endpoints.size());
    }
    for (int i = 0; i < endpoints.size(); i++) {
      Endpoint e = endpoints.get(i);
      String path = "endpoints[" + i + "]";
      if (e.addresses().isEmpty() || e.addresses().size() > MAX_ADDRESSES_PER_ENDPOINT) {
        v.add(path + ".addresses", "must have between 1 and " + MAX_ADDRESSES_PER_ENDPOINT + " items",
            e.addresses().size());
      }
      if (addressType == AddressType.IPv4 || addressType == AddressType.IPv6) {
        for (int j = 0; j < e.addresses().size(); j++) {
          address(v, path + ".addresses[" + j + "]", addressType, e.addresses().get(j));
        }
      }
      if (!e.hostname().isEmpty()) {
        v.dnsLabel(path + ".hostname", e.hostname());
      }
      EndpointHints h = e.hints();
      if (h != null && h.forZones().size() > MAX_ZONE_HINTS) {
        v.add(path + ".hints.forZones", "must have at most " + MAX_ZONE_HINTS + " items", h.forZones().size());
      }
    }
    if (ports.size() > MAX_PORTS) {
      v.add("ports", "must have at most " + MAX_PORTS + " items", ports.size());
    }
    java.util.Set<String> names = new java.util.HashSet<>();
    for (int i = 0; i < ports.size(); i++) {
      EndpointPort p = ports.get(i);
      if (!names.add(p.name())) {
        v.add("ports[" + i + "].name", Violations.DUPLICATE, p.name());
      }
      Integer port = p.port();
      if (port != null) {
        v.portNumber("ports[" + i + "].port", port);
      }
    }
    v.throwIfAny();
  }

  /**
   * Upstream's {@code validateEndpoints} for an address of an {@code IPv4} or {@code IPv6} slice: an address of the
   * slice's family, read sloppily as the legacy field it is ({@code IsValidIPv4Address}/{@code IsValidIPv6Address}
   * of the stored apimachinery, {@code ParseIPSloppy}; an IPv4-mapped IPv6 address is IPv4), outside the special
   * ranges ({@code ValidateNonSpecialIP}). Only an address that may be special is looked at closely: most are not.
   */
  private static void address(Violations v, String path, AddressType type, String address) {
    byte[] bytes = IpText.parseSloppy(address);
    boolean v4 = bytes != null && (bytes.length == 4 || IpText.isV4Mapped(bytes));
    if (bytes == null || v4 != (type == AddressType.IPv4)) {
      v.add(path, type == AddressType.IPv4 ? IpText.INVALID_IPV4 : IpText.INVALID_IPV6, address);
      return;
    }
    int first = bytes[bytes.length == 4 ? 0 : 12] & 255;
    if (bytes.length == 16 || first == 0 || first == 127 || first == 169 || first == 224) {
      for (String rule : IpText.specialRanges(address)) {
        v.add(path, rule, address);
      }
    }
  }

  /**
   * The API server's warnings for this slice (the EndpointSlice strategy's {@code warnOnBadIPs}): each address in a
   * non-standard form ({@code GetWarningsForIP}: {@link IpText#legacyWarning}) at
   * {@code endpoints[i].addresses[j]}; none for a slice labelled as the EndpointSlice controller's or the mirroring
   * controller's, which write only standard addresses. (The strategy's other warning, for the deprecated
   * {@code FQDN} address type, is not given.)
   */
  public List<Violation> warnings() {
    String managedBy = metadata.labels().getOrDefault(LABEL_MANAGED_BY, "");
    if (managedBy.equals(CONTROLLER_NAME) || managedBy.equals(MIRRORING_CONTROLLER_NAME)) {
      return List.of();
    }
    LegacyIpWarnings w = new LegacyIpWarnings(Violations.describe(KIND, metadata.namespace(), metadata.name()));
    for (int i = 0; i < endpoints.size(); i++) {
      w.ips("endpoints[" + i + "].addresses", endpoints.get(i).addresses());
    }
    return w.warnings();
  }

  /** The name of the Service this slice belongs to ({@value #LABEL_SERVICE_NAME}), empty when unlabelled. */
  public String serviceName() {
    return metadata.labels().getOrDefault(LABEL_SERVICE_NAME, "");
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public EndpointSlice withMetadata(ObjectMeta m) {
    return new EndpointSlice(m, addressType, endpoints, ports);
  }

  @Override
  public Desired spec() {
    return new Desired(addressType, endpoints, ports);
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  /** EndpointSlices have no status: returns this. */
  @Override
  public EndpointSlice withStatusOf(EndpointSlice other) {
    return this;
  }

  public EndpointSlice withEndpoints(List<Endpoint> e) {
    return new EndpointSlice(metadata, addressType, e, ports);
  }

  public EndpointSlice withPorts(List<EndpointPort> p) {
    return new EndpointSlice(metadata, addressType, endpoints, p);
  }
}
