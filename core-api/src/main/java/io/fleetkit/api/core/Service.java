package io.fleetkit.api.core;

import io.fleetkit.api.Violation;
import io.fleetkit.api.Violations;
import io.fleetkit.api.Violations.NameRule;
import io.fleetkit.api.internal.LegacyIpWarnings;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.net.IpText;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A Service ({@code v1}): a stable address for the pods its selector picks.
 *
 * <p>The constructor checks Kubernetes' rules and reports every violation at once: the name is a DNS-1035 label
 * (as Kubernetes requires for Services), ports are in 1..65535, a Service with more than one port names each one
 * uniquely, node ports only on NodePort and LoadBalancer Services; {@code clusterIPs} and {@code ipFamilies} agree
 * (upstream's {@code ValidateServiceClusterIPsRelatedFields}); load-balancer fields only on LoadBalancer Services;
 * {@code appProtocol} and {@code loadBalancerClass} are qualified names; {@code externalIPs} are addresses outside
 * the special ranges (upstream's {@code ValidateNonSpecialIP}) and {@code loadBalancerIP} an address;
 * every IP and CIDR field is a legacy one ({@link IpText#isIpSloppy}, {@link IpText#isCidrSloppy}: an IPv4 octet
 * may have leading zeros, as the API server accepts while its {@code StrictIPCIDRValidation} gate is off), and
 * {@link #warnings()} lists the values in a non-standard form;
 * {@code externalTrafficPolicy: Local} only on externally accessible Services and {@code healthCheckNodePort} only
 * where {@link ServiceSpec#needsHealthCheck()}; the two topology annotations agree. How many
 * families {@code ipFamilyPolicy} allows is checked when addresses are allocated, as upstream's registry does.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken.
 */
public record Service(ObjectMeta metadata, ServiceSpec spec, ServiceStatus status) implements ApiObject<Service> {
  public static final String API_VERSION = "v1";
  public static final String KIND = "Service";

  /** The annotation asking for topology-aware hints ({@code Auto}); wins over {@code trafficDistribution}. */
  public static final String TOPOLOGY_MODE_ANNOTATION = "service.kubernetes.io/topology-mode";
  /** The deprecated spelling of {@link #TOPOLOGY_MODE_ANNOTATION}; both must agree when both are set. */
  public static final String DEPRECATED_TOPOLOGY_HINTS_ANNOTATION = "service.kubernetes.io/topology-aware-hints";
  /** The annotation form of {@code spec.loadBalancerSourceRanges} (comma-separated CIDRs), read when it is empty. */
  public static final String LOAD_BALANCER_SOURCE_RANGES_ANNOTATION =
      "service.beta.kubernetes.io/load-balancer-source-ranges";
  /**
   * The finalizer the service controller of a cloud provider puts on a Service whose load balancer it ensures, and
   * removes once the load balancer is deleted ({@code servicehelper.LoadBalancerCleanupFinalizer}).
   */
  public static final String LOAD_BALANCER_CLEANUP_FINALIZER = "service.kubernetes.io/load-balancer-cleanup";

  private static final String FOR_EXTERNAL_NAME = "may not be set for ExternalName services";
  private static final String ONLY_LOAD_BALANCER = "may only be used when `type` is 'LoadBalancer'";

  public Service {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    validate(metadata, spec);
  }

  /** A new Service with an empty status. */
  public static Service of(ObjectMeta metadata, ServiceSpec spec) {
    return new Service(metadata, spec, ServiceStatus.EMPTY);
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
  public Service withMetadata(ObjectMeta m) {
    return new Service(m, spec, status);
  }

  public Service withSpec(ServiceSpec s) {
    return new Service(metadata, s, status);
  }

  public Service withStatus(ServiceStatus s) {
    return new Service(metadata, spec, s);
  }

  @Override
  public Service withStatusOf(Service other) {
    return withStatus(other.status);
  }

  /**
   * The API server's warnings for the IP and CIDR fields of this Service (upstream's {@code GetWarningsForService},
   * {@code pkg/api/service/warnings.go}), in its order: each cluster IP when one is set (not {@code None}; a
   * {@code clusterIP} without {@code clusterIPs} at {@code spec.clusterIPs[0]}, as defaulting copies it there), each
   * external IP, the {@code loadBalancerIP}, each {@code loadBalancerSourceRanges} CIDR, when in a non-standard form
   * ({@link IpText#legacyWarning}, {@link IpText#cidrLegacyWarnings}). The function's other warnings (deprecated
   * annotations and fields ignored for the Service's type) are not given.
   */
  public List<Violation> warnings() {
    LegacyIpWarnings w = new LegacyIpWarnings(Violations.describe(KIND, metadata.namespace(), metadata.name()));
    String ip = spec.clusterIP();
    if (!ip.isEmpty() && !ip.equals(ServiceSpec.CLUSTER_IP_NONE)) {
      w.ips("spec.clusterIPs", spec.clusterIPs().isEmpty() ? List.of(ip) : spec.clusterIPs());
    }
    w.ips("spec.externalIPs", spec.externalIPs());
    if (!spec.loadBalancerIP().isEmpty()) {
      w.ip("spec.loadBalancerIP", spec.loadBalancerIP());
    }
    return w.cidrs("spec.loadBalancerSourceRanges", spec.loadBalancerSourceRanges()).warnings();
  }

  private static void validate(ObjectMeta metadata, ServiceSpec spec) {
    Violations v = Violations.forObject(KIND, metadata);
    v.nameAndNamespace(metadata, true, NameRule.DNS1035_LABEL);
    topologyAnnotations(metadata, v);
    boolean externalName = spec.type() == ServiceType.ExternalName;
    if (spec.ports().isEmpty() && !spec.headless() && !externalName) {
      v.required("spec.ports");
    }
    ports(spec, v);
    String ip = spec.clusterIP();
    if (spec.headless() && (spec.type() == ServiceType.NodePort || spec.type() == ServiceType.LoadBalancer)) {
      v.add("spec.clusterIP", "may be set to 'None' only when `type` is 'ClusterIP'", ip);
    }
    if (externalName) {
      externalName(spec, v);
    } else {
      // as upstream, an externalName on another type is kept and not checked: nothing reads it there
      if (spec.ipFamilies().size() > 2 || spec.ipFamilies().size() != new HashSet<>(spec.ipFamilies()).size()) {
        v.add("spec.ipFamilies", "may hold each IP family at most once", spec.ipFamilies());
      }
      clusterIPs(spec, v);
    }
    int timeout = spec.sessionAffinityTimeoutSeconds();
    if (timeout < 1 || timeout > 86400) {
      v.add("spec.sessionAffinityConfig.clientIP.timeoutSeconds", "must be greater than 0 and less than 86400",
          timeout);
    }
    loadBalancer(metadata, spec, v);
    externalAddresses(spec, v);
    externalTraffic(spec, v);
    v.throwIfAny();
  }

  /** Upstream's {@code validateServicePort} for each port, and the (protocol, port) pairs unique. */
  private static void ports(ServiceSpec spec, Violations v) {
    boolean multi = spec.ports().size() > 1;
    Set<String> names = new HashSet<>();
    Set<String> portProtocols = new HashSet<>();
    for (int i = 0; i < spec.ports().size(); i++) {
      ServicePort p = spec.ports().get(i);
      String path = "spec.ports[" + i + "]";
      if (p.name().isEmpty()) {
        if (multi) {
          v.required(path + ".name");
        }
      } else {
        v.dnsLabel(path + ".name", p.name());
        if (!names.add(p.name())) {
          v.add(path + ".name", Violations.DUPLICATE, p.name());
        }
      }
      v.portNumber(path + ".port", p.port());
      if (!portProtocols.add(p.port() + "/" + p.protocol())) {
        v.add(path, Violations.DUPLICATE, p.port() + "/" + p.protocol());
      }
      String name = p.targetPort().name();
      if (name != null) {
        v.portName(path + ".targetPort", name);
      } else {
        v.portNumber(path + ".targetPort", p.targetPort().number());
      }
      if (!p.appProtocol().isEmpty()) {
        v.qualifiedName(path + ".appProtocol", p.appProtocol());
      }
      Integer nodePort = p.nodePort();
      if (nodePort != null) {
        if (spec.type() == ServiceType.ClusterIP) {
          v.add(path + ".nodePort", "may not be used when `type` is 'ClusterIP'", nodePort);
        }
        v.portNumber(path + ".nodePort", nodePort);
      }
    }
  }

  /** An ExternalName Service: a DNS name, and no addresses, families or policy. */
  private static void externalName(ServiceSpec spec, Violations v) {
    if (spec.externalName().isEmpty()) {
      v.required("spec.externalName");
    } else {
      v.dnsSubdomain("spec.externalName", trimDot(spec.externalName()));
    }
    if (!spec.clusterIP().isEmpty()) {
      v.add("spec.clusterIP", "must be empty for ExternalName services", spec.clusterIP());
    } else if (!spec.clusterIPs().isEmpty()) {
      v.add("spec.clusterIPs", FOR_EXTERNAL_NAME, spec.clusterIPs());
    }
    if (!spec.ipFamilies().isEmpty()) {
      v.add("spec.ipFamilies", FOR_EXTERNAL_NAME, spec.ipFamilies());
    }
    if (spec.ipFamilyPolicy() != null) {
      v.add("spec.ipFamilyPolicy", FOR_EXTERNAL_NAME, spec.ipFamilyPolicy());
    }
  }

  /**
   * Upstream's {@code ValidateServiceClusterIPsRelatedFields}: {@code clusterIPs[0]} is {@code clusterIP}, each
   * entry an address ({@code None} only alone), at most two of different families, each of the family its
   * {@code ipFamilies} entry names. A {@code clusterIP} without {@code clusterIPs} stands for both.
   */
  private static void clusterIPs(ServiceSpec spec, Violations v) {
    String ip = spec.clusterIP();
    List<String> ips = spec.clusterIPs();
    if (ips.isEmpty()) {
      if (!ip.isEmpty() && !spec.headless() && !IpText.isIpSloppy(ip)) {
        v.add("spec.clusterIP", "must be empty, 'None' or a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
            ip);
        return;
      }
      ips = ip.isEmpty() ? ips : List.of(ip);
    } else if (ip.isEmpty()) {
      v.add("spec.clusterIPs", "must be empty when `clusterIP` is not specified", ips);
    } else if (!ips.get(0).equals(ip)) {
      v.add("spec.clusterIPs", "first value must match `clusterIP`", ips);
    }
    boolean invalid = false;
    for (int i = 0; i < ips.size(); i++) {
      String each = ips.get(i);
      if (i == 0 && each.equals(ServiceSpec.CLUSTER_IP_NONE)) {
        if (ips.size() > 1) {
          invalid = true;
          v.add("spec.clusterIPs", "'None' must be the first and only value", ips);
        }
      } else if (!IpText.isIpSloppy(each)) {
        invalid = true;
        v.add("spec.clusterIPs[" + i + "]", IpText.INVALID_IP, each);
      }
    }
    if (ips.size() > 2) {
      v.add("spec.clusterIPs", "may only hold up to 2 values", ips);
    }
    if (invalid) {
      return; // as upstream: family checks of malformed addresses would only add noise
    }
    if (ips.size() > 1) {
      Set<IPFamily> families = new HashSet<>();
      ips.forEach(each -> families.add(IPFamily.of(each)));
      if (families.size() < 2) {
        v.add("spec.clusterIPs", "may specify no more than one IP for each IP family", ips);
      }
    }
    boolean headless = ips.size() == 1 && ips.get(0).equals(ServiceSpec.CLUSTER_IP_NONE);
    List<IPFamily> families = spec.ipFamilies();
    for (int i = 0; !headless && i < ips.size() && i < families.size(); i++) {
      if (IPFamily.of(ips.get(i)) != families.get(i)) {
        v.add("spec.clusterIPs[" + i + "]", "expected an " + families.get(i) + " value as indicated by `ipFamilies["
            + i + "]`", ips.get(i));
      }
    }
  }

  /**
   * The load-balancer fields: {@code loadBalancerSourceRanges} (or, when it is empty, the
   * {@value #LOAD_BALANCER_SOURCE_RANGES_ANNOTATION} annotation) holds CIDRs, optionally space-padded;
   * {@code allocateLoadBalancerNodePorts} and {@code loadBalancerClass} (a qualified name) belong to LoadBalancer
   * Services only.
   */
  private static void loadBalancer(ObjectMeta metadata, ServiceSpec spec, Violations v) {
    boolean lb = spec.type() == ServiceType.LoadBalancer;
    List<String> ranges = spec.loadBalancerSourceRanges();
    String annotation = metadata.annotations().get(LOAD_BALANCER_SOURCE_RANGES_ANNOTATION);
    if (!ranges.isEmpty()) {
      // upstream names this field "spec.LoadBalancerSourceRanges"; violations here use the manifest's spelling
      if (!lb) {
        v.add("spec.loadBalancerSourceRanges", ONLY_LOAD_BALANCER, ranges);
      }
      for (int i = 0; i < ranges.size(); i++) {
        String cidr = ranges.get(i).strip();
        if (!IpText.isCidrSloppy(cidr)) {
          v.add("spec.loadBalancerSourceRanges[" + i + "]", IpText.INVALID_CIDR, cidr);
        }
      }
    } else if (annotation != null) {
      String field = "metadata.annotations[" + LOAD_BALANCER_SOURCE_RANGES_ANNOTATION + "]";
      if (!lb) {
        v.add(field, ONLY_LOAD_BALANCER, annotation);
      }
      String value = annotation.strip();
      if (!value.isEmpty()) {
        for (String each : value.split(",", -1)) {
          String cidr = each.strip();
          if (!IpText.isCidrSloppy(cidr)) {
            v.add(field, IpText.INVALID_CIDR, cidr);
          }
        }
      }
    }
    if (spec.allocateLoadBalancerNodePorts() != null && !lb) {
      v.add("spec.allocateLoadBalancerNodePorts", ONLY_LOAD_BALANCER, spec.allocateLoadBalancerNodePorts());
    }
    if (!spec.loadBalancerClass().isEmpty()) {
      if (lb) {
        v.qualifiedName("spec.loadBalancerClass", spec.loadBalancerClass());
      } else {
        v.add("spec.loadBalancerClass", ONLY_LOAD_BALANCER, spec.loadBalancerClass());
      }
    }
  }

  /**
   * {@code externalIPs}: each an address (a legacy field, {@link IpText#isIpSloppy}) outside the special ranges
   * (upstream's {@code ValidateNonSpecialIP}). {@code loadBalancerIP}: an address when set (legacy too). Upstream only warns about a malformed {@code loadBalancerIP}; FleetKit
   * refuses it, as it refuses any silently unusable input.
   */
  private static void externalAddresses(ServiceSpec spec, Violations v) {
    List<String> ips = spec.externalIPs();
    for (int i = 0; i < ips.size(); i++) {
      String path = "spec.externalIPs[" + i + "]";
      if (!IpText.isIpSloppy(ips.get(i))) {
        v.add(path, IpText.INVALID_IP, ips.get(i));
      } else {
        for (String rule : IpText.specialRanges(ips.get(i))) {
          v.add(path, rule, ips.get(i));
        }
      }
    }
    if (!spec.loadBalancerIP().isEmpty() && !IpText.isIpSloppy(spec.loadBalancerIP())) {
      v.add("spec.loadBalancerIP", IpText.INVALID_IP, spec.loadBalancerIP());
    }
  }

  /**
   * Upstream's {@code validateServiceExternalTrafficPolicy}: {@code externalTrafficPolicy: Local} only on an
   * externally accessible Service ({@code Cluster} is FleetKit's unset value, so it passes everywhere);
   * {@code healthCheckNodePort} only on a LoadBalancer Service with the {@code Local} policy, and a port number. An
   * unset {@code healthCheckNodePort} where one is needed is allocated with the node ports, as upstream's registry
   * does before it validates.
   */
  private static void externalTraffic(ServiceSpec spec, Violations v) {
    if (spec.externalTrafficPolicy() == ServiceTrafficPolicy.Local && !spec.externallyAccessible()) {
      v.add("spec.externalTrafficPolicy", "may only be set for externally-accessible services",
          spec.externalTrafficPolicy());
    }
    Integer port = spec.healthCheckNodePort();
    if (port != null) {
      if (!spec.needsHealthCheck()) {
        v.add("spec.healthCheckNodePort",
            "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'", port);
      } else {
        v.portNumber("spec.healthCheckNodePort", port);
      }
    }
  }

  /** Both topology annotations, when set, say the same. */
  private static void topologyAnnotations(ObjectMeta metadata, Violations v) {
    String mode = metadata.annotations().get(TOPOLOGY_MODE_ANNOTATION);
    String hints = metadata.annotations().get(DEPRECATED_TOPOLOGY_HINTS_ANNOTATION);
    if (mode != null && hints != null && !mode.equals(hints)) {
      v.add("metadata.annotations[" + TOPOLOGY_MODE_ANNOTATION + "]", "must match annotations["
          + DEPRECATED_TOPOLOGY_HINTS_ANNOTATION + "] when both are specified", mode);
    }
  }

  private static String trimDot(String name) {
    return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
  }
}
