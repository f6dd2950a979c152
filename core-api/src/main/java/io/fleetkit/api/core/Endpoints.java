package io.fleetkit.api.core;

import io.fleetkit.api.Violation;
import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.LegacyIpWarnings;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.net.IpText;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An Endpoints object ({@code v1}): the legacy list of the network addresses behind a Service, named after it. Users
 * write one by hand for a Service without a selector (an external database, a legacy tool); the EndpointSlice
 * mirroring controller turns it into EndpointSlices, which kube-proxy and cluster DNS read. Like Kubernetes it has
 * no spec/status split: {@link #spec()} returns the subsets and there is no status.
 *
 * <p>The constructor checks Kubernetes' rules ({@code ValidateEndpoints}) and reports every violation at once: the
 * name is a DNS-1123 subdomain; each subset has {@code addresses} or {@code notReadyAddresses}; each address is an
 * IP outside the unspecified, loopback and link-local ranges, with a DNS-1123 label {@code hostname} and a DNS-1123
 * subdomain {@code nodeName} when set; each port number is in 1..65535, its name a DNS-1123 label (required when the
 * subset has more than one port) and its {@code appProtocol} a qualified name. An address is a legacy IP field: as
 * the API server does while its {@code StrictIPCIDRValidation} gate is off, an IPv4 octet may have leading zeros
 * (read as decimal) and an IPv6 address may be IPv4-mapped or not in RFC 5952 form; {@link #warnings()} lists them,
 * as the API server warns of them.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken.
 *
 * @param subsets groups of addresses that share one set of ports
 */
public record Endpoints(ObjectMeta metadata, List<Subset> subsets) implements ApiObject<Endpoints> {
  public static final String API_VERSION = "v1";
  public static final String KIND = "Endpoints";
  /** The label that, set to {@code "true"}, keeps the mirroring controller off an Endpoints object. */
  public static final String LABEL_SKIP_MIRROR = "endpointslice.kubernetes.io/skip-mirror";
  /**
   * The annotation of a leader-election lock kept in an Endpoints object (an old {@code resourcelock}); such an
   * object lists no endpoints and is not mirrored.
   */
  public static final String LEADER_ANNOTATION = "control-plane.alpha.kubernetes.io/leader";
  /**
   * The annotation the endpoints controller sets ({@code truncated}) when it wrote only the first
   * {@value #MAX_ADDRESSES} addresses of a Service.
   */
  public static final String OVER_CAPACITY_ANNOTATION = "endpoints.kubernetes.io/over-capacity";
  /** The addresses the endpoints controller writes at most, and the mirroring controller mirrors per subset. */
  public static final int MAX_ADDRESSES = 1000;
  /** The label the endpoints controller puts on the Endpoints objects it writes ({@code LabelManagedBy}). */
  public static final String LABEL_MANAGED_BY = "endpoints.kubernetes.io/managed-by";
  /** The endpoints controller's value of {@link #LABEL_MANAGED_BY} ({@code ControllerName}). */
  public static final String CONTROLLER_NAME = "endpoint-controller";

  /** The desired fields, what {@link #spec()} returns. */
  public record Desired(List<Subset> subsets) {}

  /**
   * A group of addresses with a common set of ports ({@code EndpointSubset}).
   *
   * @param addresses the addresses ready to receive traffic
   * @param notReadyAddresses the addresses not ready to receive traffic
   * @param ports the ports of every address of the subset; empty for a headless Service without ports
   */
  public record Subset(List<Address> addresses, List<Address> notReadyAddresses, List<Port> ports) {
    public Subset {
      addresses = List.copyOf(addresses);
      notReadyAddresses = List.copyOf(notReadyAddresses);
      ports = List.copyOf(ports);
    }

    /** A subset of ready {@code addresses} on {@code ports}. */
    public static Subset of(List<Address> addresses, List<Port> ports) {
      return new Subset(addresses, List.of(), ports);
    }
  }

  /**
   * One address of a subset ({@code EndpointAddress}). Strings are empty when unset.
   *
   * @param ip the IP address (checked by {@link Endpoints}' constructor)
   * @param hostname the DNS label cluster DNS gives this address under a headless Service
   * @param nodeName the node hosting the address
   * @param targetRef the object behind the address (usually a Pod), or {@code null}
   */
  public record Address(String ip, String hostname, String nodeName, @Nullable TargetRef targetRef) {
    public Address {
      Objects.requireNonNull(ip, "ip");
      Objects.requireNonNull(hostname, "hostname");
      Objects.requireNonNull(nodeName, "nodeName");
    }

    /** An address with nothing but its IP. */
    public static Address of(String ip) {
      return new Address(ip, "", "", null);
    }
  }

  /**
   * The object behind an address ({@code targetRef}, a core/v1 {@code ObjectReference} of which these fields are
   * kept), usually a Pod. Strings are empty when unset.
   */
  public record TargetRef(String kind, String namespace, String name, String uid) {
    public TargetRef {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(uid, "uid");
    }
  }

  /**
   * One port of a subset ({@code core/v1 EndpointPort}).
   *
   * @param name the name of the Service port it serves; empty for a single unnamed port
   * @param port the port number (checked by {@link Endpoints}' constructor)
   * @param protocol the protocol; a manifest's unset protocol is TCP
   * @param appProtocol the application protocol; empty when unset
   */
  public record Port(String name, int port, ServiceProtocol protocol, String appProtocol) {
    public Port {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(protocol, "protocol");
      Objects.requireNonNull(appProtocol, "appProtocol");
    }

    /** A TCP port without an application protocol. */
    public static Port of(String name, int port) {
      return new Port(name, port, ServiceProtocol.TCP, "");
    }
  }

  public Endpoints {
    Objects.requireNonNull(metadata, "metadata");
    subsets = List.copyOf(subsets);
    validate(metadata, subsets);
  }

  /** An Endpoints object with {@code subsets}. */
  public static Endpoints of(ObjectMeta metadata, List<Subset> subsets) {
    return new Endpoints(metadata, subsets);
  }

  private static void validate(ObjectMeta metadata, List<Subset> subsets) {
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    for (int i = 0; i < subsets.size(); i++) {
      Subset s = subsets.get(i);
      String path = "subsets[" + i + "]";
      if (s.addresses().isEmpty() && s.notReadyAddresses().isEmpty()) {
        v.required(path, "must specify `addresses` or `notReadyAddresses`");
      }
      for (int a = 0; a < s.addresses().size(); a++) {
        address(v, path + ".addresses[" + a + "]", s.addresses().get(a));
      }
      for (int a = 0; a < s.notReadyAddresses().size(); a++) {
        address(v, path + ".notReadyAddresses[" + a + "]", s.notReadyAddresses().get(a));
      }
      for (int p = 0; p < s.ports().size(); p++) {
        port(v, path + ".ports[" + p + "]", s.ports().get(p), s.ports().size() > 1);
      }
    }
    v.throwIfAny();
  }

  /**
   * The API server's warnings for this object ({@code endpointsWarnings} of the Endpoints strategy): one per address,
   * ready or not, in a non-standard form ({@link IpText#legacyWarning}), at its {@code ip} field with the address as
   * the value. None for an object labelled as the endpoints controller's, which writes only standard addresses.
   */
  public List<Violation> warnings() {
    if (CONTROLLER_NAME.equals(metadata.labels().get(LABEL_MANAGED_BY))) {
      return List.of();
    }
    LegacyIpWarnings w = new LegacyIpWarnings(Violations.describe(KIND, metadata.namespace(), metadata.name()));
    for (int i = 0; i < subsets.size(); i++) {
      Subset s = subsets.get(i);
      warn(w, "subsets[" + i + "].addresses", s.addresses());
      warn(w, "subsets[" + i + "].notReadyAddresses", s.notReadyAddresses());
    }
    return w.warnings();
  }

  private static void warn(LegacyIpWarnings w, String path, List<Address> addresses) {
    for (int a = 0; a < addresses.size(); a++) {
      w.ip(path + "[" + a + "].ip", addresses.get(a).ip());
    }
  }

  /** {@code validateEndpointAddress}: the IP (a legacy field: parsed sloppily), then a set hostname and node name. */
  private static void address(Violations v, String path, Address a) {
    if (!IpText.isIpSloppy(a.ip())) {
      v.add(path + ".ip", IpText.INVALID_IP, a.ip());
    } else {
      for (String rule : IpText.specialRanges(a.ip())) {
        v.add(path + ".ip", rule, a.ip());
      }
    }
    if (!a.hostname().isEmpty()) {
      v.dnsLabel(path + ".hostname", a.hostname());
    }
    if (!a.nodeName().isEmpty()) {
      v.dnsSubdomain(path + ".nodeName", a.nodeName());
    }
  }

  /** {@code validateEndpointPort}: the name (required among several), the number, the application protocol. */
  private static void port(Violations v, String path, Port p, boolean requireName) {
    if (p.name().isEmpty()) {
      if (requireName) {
        v.required(path + ".name");
      }
    } else {
      v.dnsLabel(path + ".name", p.name());
    }
    v.portNumber(path + ".port", p.port());
    if (!p.appProtocol().isEmpty()) {
      v.qualifiedName(path + ".appProtocol", p.appProtocol());
    }
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
  public Endpoints withMetadata(ObjectMeta m) {
    return new Endpoints(m, subsets);
  }

  @Override
  public Desired spec() {
    return new Desired(subsets);
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  /** Endpoints objects have no status: returns this. */
  @Override
  public Endpoints withStatusOf(Endpoints other) {
    return this;
  }

  public Endpoints withSubsets(List<Subset> s) {
    return new Endpoints(metadata, s);
  }
}
