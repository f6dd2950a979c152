package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointConditions;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.discovery.EndpointTargetRef;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.networking.ipam.IpAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The per-pod and per-Service rules of the EndpointSlice controller ({@code k8s.io/endpointslice} {@code utils.go},
 * {@code util/controller_utils.go}). Pure functions; thread-safe.
 */
public final class SliceRules {
  /** The managed-by value Kubernetes' controller writes. */
  public static final String CONTROLLER_NAME = EndpointSlice.CONTROLLER_NAME;
  /** The node label naming its zone. */
  public static final String LABEL_ZONE = "topology.kubernetes.io/zone";
  private static final String SUFFIX_CHARS = "bcdfghjklmnpqrstvwxz2456789";

  private SliceRules() {}

  /**
   * Whether a pod is considered at all ({@code ShouldPodBeInEndpoints} with terminating pods included): not
   * Succeeded or Failed, and it has an IP.
   */
  public static boolean shouldPodBeInEndpoints(Pod pod) {
    PodPhase phase = pod.status().phase();
    if (phase == PodPhase.Succeeded || phase == PodPhase.Failed) {
      return false;
    }
    return !pod.status().podIPs().isEmpty();
  }

  /**
   * The endpoint for {@code pod} in a slice of {@code addressType} ({@code podToEndpoint}): serving = pod Ready,
   * terminating = deletion requested, ready = publishNotReadyAddresses or (serving and not terminating); zone from
   * the node's {@value #LABEL_ZONE} label; hostname only when the pod's subdomain names this Service. The
   * addresses may be empty (no IP of that family): such an endpoint is dropped by the caller.
   */
  public static Endpoint podToEndpoint(Pod pod, @Nullable Node node, Service service, AddressType addressType) {
    boolean serving = pod.isReady();
    boolean terminating = pod.metadata().deletionTimestamp() != null;
    boolean ready = service.spec().publishNotReadyAddresses() || (serving && !terminating);
    String zone = node == null ? "" : node.metadata().labels().getOrDefault(LABEL_ZONE, "");
    String hostname = shouldSetHostname(pod, service) ? pod.spec().hostname() : "";
    EndpointTargetRef ref = new EndpointTargetRef(Pod.KIND, pod.metadata().namespace(), pod.metadata().name(),
        pod.metadata().uid());
    return new Endpoint(addresses(pod, addressType), EndpointConditions.of(ready, serving, terminating), hostname,
        ref, pod.spec().nodeName(), zone, null);
  }

  /** Kubernetes' {@code ShouldSetHostname}: a hostname, a subdomain equal to the Service name, same namespace. */
  public static boolean shouldSetHostname(Pod pod, Service service) {
    return !pod.spec().hostname().isEmpty() && pod.spec().subdomain().equals(service.metadata().name())
        && pod.metadata().namespace().equals(service.metadata().namespace());
  }

  /** The pod's IPs of the slice's family, re-printed canonically ({@code getEndpointAddresses}). */
  static List<String> addresses(Pod pod, AddressType type) {
    List<String> ips = pod.status().podIPs();
    if (ips.size() == 1 && type == AddressType.IPv4 && ips.get(0).indexOf(':') < 0
        && IpAddress.tryParse(ips.get(0)) != null) {
      return ips; // a valid dotted quad is already canonical (leading zeros are refused)
    }
    List<String> out = new ArrayList<>(1);
    for (String ip : ips) {
      IpAddress a = IpAddress.tryParse(ip);
      if (a == null) {
        continue;
      }
      if ((a.family() == IPFamily.IPv6 && type == AddressType.IPv6)
          || (a.family() == IPFamily.IPv4 && type == AddressType.IPv4)) {
        out.add(a.toString());
      }
    }
    return out;
  }

  /**
   * The slice ports for one pod ({@code getEndpointPorts}): each Service port whose target resolves on the pod;
   * a headless Service without ports gives none.
   */
  public static List<EndpointPort> endpointPorts(Service service, Pod pod) {
    List<ServicePort> ports = service.spec().ports();
    List<EndpointPort> out = new ArrayList<>(ports.size());
    for (ServicePort p : ports) {
      OptionalInt n = findPort(pod, p);
      if (n.isPresent()) {
        out.add(new EndpointPort(p.name(), n.getAsInt(), p.protocol(), p.appProtocol()));
      }
    }
    return out;
  }

  /**
   * Resolves a Service port's target on a pod ({@code FindPort}): a number as is; a name among the regular
   * containers' ports with the same protocol, then among restartable init containers (sidecars); empty if none.
   */
  public static OptionalInt findPort(Pod pod, ServicePort port) {
    String name = port.targetPort().name();
    if (name == null) {
      return OptionalInt.of(port.targetPort().number());
    }
    String protocol = port.protocol().name();
    for (Container c : pod.spec().containers()) {
      for (ContainerPort cp : c.ports()) {
        if (cp.name().equals(name) && cp.protocol().equals(protocol)) {
          return OptionalInt.of(cp.containerPort());
        }
      }
    }
    for (Container c : pod.spec().initContainers()) {
      if (!c.isRestartable()) {
        continue;
      }
      for (ContainerPort cp : c.ports()) {
        if (cp.name().equals(name) && cp.protocol().equals(protocol)) {
          return OptionalInt.of(cp.containerPort());
        }
      }
    }
    return OptionalInt.empty();
  }

  /**
   * The address types a Service's slices use ({@code getAddressTypesForService}): from {@code ipFamilies}; else
   * the family of the cluster IP; else (headless, no families) both.
   */
  public static Set<AddressType> addressTypes(Service service) {
    Set<AddressType> out = EnumSet.noneOf(AddressType.class);
    for (IPFamily f : service.spec().ipFamilies()) {
      out.add(f == IPFamily.IPv4 ? AddressType.IPv4 : AddressType.IPv6);
    }
    if (!out.isEmpty()) {
      return out;
    }
    String ip = service.spec().clusterIP();
    if (!ip.isEmpty() && !service.spec().headless()) {
      out.add(IPFamily.of(ip) == IPFamily.IPv6 ? AddressType.IPv6 : AddressType.IPv4);
      return out;
    }
    out.add(AddressType.IPv4);
    out.add(AddressType.IPv6);
    return out;
  }

  /** A controller owner reference to {@code service} (apiVersion v1, kind Service). */
  public static OwnerReference ownerRef(Service service) {
    return new OwnerReference(Service.API_VERSION, Service.KIND, service.metadata().name(), service.metadata().uid(),
        true, true);
  }

  /** Whether {@code slice} is owned by {@code service}: an owner reference with its UID, kind Service, v1. */
  public static boolean ownedBy(EndpointSlice slice, Service service) {
    for (OwnerReference o : slice.metadata().ownerReferences()) {
      if (o.uid().equals(service.metadata().uid()) && o.kind().equals(Service.KIND)
          && o.apiVersion().equals(Service.API_VERSION)) {
        return true;
      }
    }
    return false;
  }

  static boolean isReservedLabel(String key) {
    return key.equals(EndpointSlice.LABEL_SERVICE_NAME) || key.equals(EndpointSlice.LABEL_MANAGED_BY)
        || key.equals(EndpointSlice.LABEL_HEADLESS);
  }

  /**
   * The labels a slice of {@code service} should carry ({@code setEndpointSliceLabels}): the Service's labels
   * minus the reserved keys, plus service-name, managed-by and, for a Service without a cluster IP, headless.
   *
   * @return the labels, and whether the non-reserved labels differ from the slice's current ones
   */
  public static LabelResult sliceLabels(Map<String, String> current, Service service, String controllerName) {
    Map<String, String> sliceOwn = new LinkedHashMap<>();
    current.forEach((k, v) -> {
      if (!isReservedLabel(k)) {
        sliceOwn.put(k, v);
      }
    });
    Map<String, String> svc = new LinkedHashMap<>();
    service.metadata().labels().forEach((k, v) -> {
      if (!isReservedLabel(k)) {
        svc.put(k, v);
      }
    });
    boolean changed = !sliceOwn.equals(svc);
    String ip = service.spec().clusterIP();
    if (ip.isEmpty() || service.spec().headless()) {
      svc.put(EndpointSlice.LABEL_HEADLESS, "");
    }
    svc.put(EndpointSlice.LABEL_SERVICE_NAME, service.metadata().name());
    svc.put(EndpointSlice.LABEL_MANAGED_BY, controllerName);
    return new LabelResult(Map.copyOf(svc), changed);
  }

  /** What {@link #sliceLabels} returns. */
  public record LabelResult(Map<String, String> labels, boolean changed) {}

  /**
   * The generateName prefix of a Service's slices: {@code <service>-}, or the bare name when the dashed prefix
   * would not be a valid name.
   */
  public static String slicePrefix(String serviceName) {
    String prefix = serviceName + "-";
    return prefix.length() > 253 ? serviceName : prefix;
  }

  /**
   * The random parts of new slice names, what the API server's {@code generateName} appends: five characters from
   * Kubernetes' alphabet without vowels, drawn from a random seeded with {@code seed}. Thread-safe.
   */
  static java.util.function.Supplier<String> nameSuffixes(long seed) {
    java.util.Random random = new java.util.Random(seed);
    return () -> {
      StringBuilder sb = new StringBuilder(5);
      synchronized (random) {
        for (int i = 0; i < 5; i++) {
          sb.append(SUFFIX_CHARS.charAt(random.nextInt(SUFFIX_CHARS.length())));
        }
      }
      return sb.toString();
    };
  }

  /**
   * Whether two endpoints with the same identity differ in what the controller writes
   * ({@code EndpointsEqualBeyondHash}): node, zone, the three conditions or the target reference.
   */
  public static boolean equalBeyondHash(Endpoint a, Endpoint b) {
    if (a == b) {
      return true;
    }
    return a.nodeName().equals(b.nodeName()) && a.zone().equals(b.zone())
        && a.conditions().equals(b.conditions()) && java.util.Objects.equals(a.targetRef(), b.targetRef());
  }
}
