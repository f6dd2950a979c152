package io.fleetkit.api.core;

import io.fleetkit.api.Violations;
import io.fleetkit.api.Violations.NameRule;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A Service ({@code v1}): a stable address for the pods its selector picks.
 *
 * <p>The constructor checks Kubernetes' rules and reports every violation at once: the name is a DNS-1035 label
 * (as Kubernetes requires for Services), ports are in 1..65535, a Service with more than one port names each one
 * uniquely, node ports only on NodePort and LoadBalancer Services.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken.
 */
public record Service(ObjectMeta metadata, ServiceSpec spec, ServiceStatus status) implements ApiObject<Service> {
  public static final String API_VERSION = "v1";
  public static final String KIND = "Service";

  private static final Pattern IPV4 =
      Pattern.compile("((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
  private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]+");

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

  private static void validate(ObjectMeta metadata, ServiceSpec spec) {
    Violations v = Violations.forObject(KIND, metadata);
    v.nameAndNamespace(metadata, true, NameRule.DNS1035_LABEL);
    boolean externalName = spec.type() == ServiceType.ExternalName;
    if (spec.ports().isEmpty() && !spec.headless() && !externalName) {
      v.required("spec.ports");
    }
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
      Integer nodePort = p.nodePort();
      if (nodePort != null) {
        if (spec.type() == ServiceType.ClusterIP) {
          v.add(path + ".nodePort", "may not be used when `type` is 'ClusterIP'", nodePort);
        }
        v.portNumber(path + ".nodePort", nodePort);
      }
    }
    String ip = spec.clusterIP();
    if (spec.headless()) {
      if (spec.type() != ServiceType.ClusterIP) {
        v.add("spec.clusterIP", "may be set to 'None' only when `type` is 'ClusterIP'", ip);
      }
    } else if (!ip.isEmpty() && !isIp(ip)) {
      v.add("spec.clusterIP", "must be empty, 'None' or a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
          ip);
    }
    if (externalName) {
      if (spec.externalName().isEmpty()) {
        v.required("spec.externalName");
      } else {
        v.dnsSubdomain("spec.externalName", trimDot(spec.externalName()));
      }
      if (!ip.isEmpty()) {
        v.add("spec.clusterIP", "must be empty for ExternalName services", ip);
      }
    } else if (!spec.externalName().isEmpty()) {
      v.add("spec.externalName", "may be set only when `type` is 'ExternalName'", spec.externalName());
    }
    List<String> ips = spec.clusterIPs();
    if (!ips.isEmpty()) {
      if (!ip.isEmpty() && !ips.get(0).equals(ip)) {
        v.add("spec.clusterIPs[0]", "must match `clusterIP`", ips.get(0));
      }
      if (ips.size() > 2) {
        v.add("spec.clusterIPs", "may have at most 2 entries (one per IP family)", ips);
      }
      for (int i = 0; i < ips.size(); i++) {
        String each = ips.get(i);
        if (!each.equals(ServiceSpec.CLUSTER_IP_NONE) && !isIp(each)) {
          v.add("spec.clusterIPs[" + i + "]", "must be a valid IP address", each);
        }
      }
      if (ips.size() == 2 && IPFamily.of(ips.get(0)) == IPFamily.of(ips.get(1))) {
        v.add("spec.clusterIPs", "may hold at most one address per IP family", ips);
      }
    }
    if (spec.ipFamilies().size() > 2 || spec.ipFamilies().size() != new HashSet<>(spec.ipFamilies()).size()) {
      v.add("spec.ipFamilies", "may hold each IP family at most once", spec.ipFamilies());
    }
    int timeout = spec.sessionAffinityTimeoutSeconds();
    if (timeout < 1 || timeout > 86400) {
      v.add("spec.sessionAffinityConfig.clientIP.timeoutSeconds", "must be greater than 0 and less than 86400",
          timeout);
    }
    v.throwIfAny();
  }

  private static String trimDot(String name) {
    return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
  }

  private static boolean isIp(String s) {
    return IPV4.matcher(s).matches() || (s.contains(":") && IPV6.matcher(s).matches());
  }
}
