package io.fleetkit.admission;

import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaScope;
import io.fleetkit.api.core.ScopeSelectorOperator;
import io.fleetkit.api.core.ScopedResourceSelectorRequirement;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.WeightedPodAffinityTerm;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * What an object is charged against a quota, and which quotas apply to it: Kubernetes' quota evaluators
 * ({@code pkg/quota/v1/evaluator/core/pods.go}, {@code persistent_volume_claims.go}, {@code services.go} and the
 * generic object-count evaluator of {@code k8s.io/apiserver/pkg/quota/v1/generic}). Pure functions; thread-safe.
 */
public final class QuotaEvaluator {
  private static final Set<String> POD_RESOURCES = Set.of("count/pods", "cpu", "requests.cpu", "limits.cpu",
      "memory", "requests.memory", "limits.memory", "ephemeral-storage", "requests.ephemeral-storage",
      "limits.ephemeral-storage", "pods");
  /** Quota resources that oblige every container to set them ({@code validationSet}). */
  private static final Set<String> CONSTRAINED = Set.of("cpu", "memory", "requests.cpu", "requests.memory",
      "limits.cpu", "limits.memory");
  /** Object counts that also have a legacy name ({@code configmaps} beside {@code count/configmaps}). */
  private static final Set<String> LEGACY_COUNTS = Set.of("configmaps", "secrets", "resourcequotas",
      "replicationcontrollers", "services", "persistentvolumeclaims");
  private static final String[] COMPUTE = {"cpu", "memory", "ephemeral-storage"};
  private static final String[] COMPUTE_REQUESTS = {"requests.cpu", "requests.memory", "requests.ephemeral-storage"};
  private static final String[] COMPUTE_LIMITS = {"limits.cpu", "limits.memory", "limits.ephemeral-storage"};
  private static final Quantity ONE = Quantity.of(1);
  private static final String STORAGE_CLASS_SUFFIX = ".storageclass.storage.k8s.io/";

  private QuotaEvaluator() {}

  /** The last {@link #countName} per class, with the kind and apiVersion it was computed from. */
  private static final Map<Class<?>, String[]> COUNT_NAMES = new ConcurrentHashMap<>();

  /** {@code count/<plural>} for the core group, {@code count/<plural>.<group>} otherwise. */
  public static String countName(ApiObject<?> o) {
    String[] cached = COUNT_NAMES.get(o.getClass());
    if (cached != null && cached[0].equals(o.kind()) && cached[1].equals(o.apiVersion())) {
      return cached[2];
    }
    String name = computeCountName(o);
    COUNT_NAMES.put(o.getClass(), new String[] {o.kind(), o.apiVersion(), name});
    return name;
  }

  /**
   * The resource's plural name, as apimachinery's {@code UnsafeGuessKindToResource} guesses it ({@code endpoints}
   * stays as it is; {@code s} takes {@code es}, a consonant's {@code y} becomes {@code ies}), except that a vowel's
   * {@code y} takes {@code s}, as the Gateway API's CRDs name theirs ({@code gateways}).
   */
  private static String computeCountName(ApiObject<?> o) {
    String kind = o.kind().toLowerCase(Locale.ROOT);
    String plural = kind.endsWith("endpoints") ? kind
        : kind.endsWith("y") && kind.length() > 1 && "aeiou".indexOf(kind.charAt(kind.length() - 2)) < 0
            ? kind.substring(0, kind.length() - 1) + "ies"
        : kind.endsWith("s") ? kind + "es" : kind + "s";
    String apiVersion = o.apiVersion();
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "count/" + plural : "count/" + plural + "." + apiVersion.substring(0, slash);
  }

  /**
   * The usage {@code o} adds when it is created, at time {@code now} (terminal pods and pods past their deletion
   * grace period are charged only their object count, as upstream).
   */
  public static ResourceList usage(ApiObject<?> o, Instant now) {
    TreeMap<String, Quantity> u = new TreeMap<>();
    String count = countName(o);
    u.put(count, Quantity.of(1));
    if (o instanceof Pod pod) {
      if (chargesCompute(pod, now)) {
        podCompute(effectiveRequests(pod.spec()), effectiveLimits(pod.spec()), u);
      }
    } else if (o instanceof PersistentVolumeClaim pvc) {
      u.put("persistentvolumeclaims", Quantity.of(1));
      String cls = pvc.spec().storageClassName();
      Quantity storage = pvc.spec().resources().requests().get("storage");
      if (pvc.spec().resources().requests().has("storage")) {
        u.put("requests.storage", storage);
        if (cls != null && !cls.isEmpty()) {
          u.put(cls + STORAGE_CLASS_SUFFIX + "requests.storage", storage);
        }
      }
      if (cls != null && !cls.isEmpty()) {
        u.put(cls + STORAGE_CLASS_SUFFIX + "persistentvolumeclaims", Quantity.of(1));
      }
    } else if (o instanceof Service svc) {
      u.put("services", Quantity.of(1));
      ServiceType t = svc.spec().type();
      if (t == ServiceType.LoadBalancer) {
        u.put("services.loadbalancers", Quantity.of(1));
      }
      if (t == ServiceType.LoadBalancer || t == ServiceType.NodePort) {
        // a LoadBalancer Service with allocateLoadBalancerNodePorts: false counts only the node ports it asks for
        long nodePorts = svc.spec().allocatesNodePorts() ? svc.spec().ports().size()
            : svc.spec().ports().stream().filter(p -> p.nodePort() != null).count();
        u.put("services.nodeports", Quantity.of(nodePorts));
      }
    } else {
      String legacy = count.substring("count/".length());
      if (LEGACY_COUNTS.contains(legacy)) {
        u.put(legacy, Quantity.of(1));
      }
    }
    return ResourceList.of(u);
  }

  /**
   * {@code QuotaV1Pod}: not terminal and not stuck terminating: a pod being deleted stops counting once {@code now}
   * is past its {@code deletionTimestamp} plus its {@code deletionGracePeriodSeconds} (upstream adds the grace period
   * to the deletion timestamp, which already includes it), as on a lost node.
   */
  static boolean chargesCompute(Pod pod, Instant now) {
    if (pod.status().phase().isTerminal()) {
      return false;
    }
    Instant deleting = pod.metadata().deletionTimestamp();
    Long grace = pod.metadata().deletionGracePeriodSeconds();
    return deleting == null || grace == null || !now.isAfter(deleting.plusSeconds(grace));
  }

  /** {@code podComputeUsageHelper}. */
  static void podCompute(ResourceList requests, ResourceList limits, Map<String, Quantity> u) {
    u.put("pods", ONE);
    for (int i = 0; i < COMPUTE.length; i++) {
      String r = COMPUTE[i];
      if (requests.has(r)) {
        Quantity q = requests.get(r);
        u.put(r, q);
        u.put(COMPUTE_REQUESTS[i], q);
      }
      if (limits.has(r)) {
        u.put(COMPUTE_LIMITS[i], limits.get(r));
      }
    }
    for (Map.Entry<String, Quantity> e : requests.asMap().entrySet()) {
      String r = e.getKey();
      if (r.startsWith("hugepages-")) {
        u.put(r, e.getValue());
        u.put("requests." + r, e.getValue());
      } else if (isExtended(r)) {
        u.put("requests." + r, e.getValue());
      }
    }
  }

  /** {@code IsExtendedResourceName}: a domain-prefixed name outside {@code kubernetes.io}. */
  static boolean isExtended(String name) {
    int slash = name.indexOf('/');
    if (slash < 0 || name.startsWith("requests.")) {
      return false;
    }
    String domain = name.substring(0, slash);
    return !domain.equals("kubernetes.io") && !domain.endsWith(".kubernetes.io");
  }

  /** Kubernetes' {@code PodRequests}: see {@link PodSpec#effectiveRequests()}, where it is computed. */
  static ResourceList effectiveRequests(PodSpec spec) {
    return spec.effectiveRequests();
  }

  /** Kubernetes' {@code PodLimits}: see {@link PodSpec#effectiveLimits()}, where it is computed. */
  static ResourceList effectiveLimits(PodSpec spec) {
    return spec.effectiveLimits();
  }

  /** The quota resources among {@code hard} that objects like {@code o} can use ({@code MatchingResources}). */
  public static List<String> matchingResources(Set<String> hard, ApiObject<?> o) {
    List<String> out = new ArrayList<>();
    for (String r : hard) {
      if (o instanceof Pod) {
        if (isPodResource(r)) {
          out.add(r);
        }
      } else if (o instanceof PersistentVolumeClaim) {
        if (r.equals("persistentvolumeclaims") || r.equals("count/persistentvolumeclaims")
            || r.equals("requests.storage") || r.endsWith(STORAGE_CLASS_SUFFIX + "requests.storage")
            || r.endsWith(STORAGE_CLASS_SUFFIX + "persistentvolumeclaims")) {
          out.add(r);
        }
      } else if (o instanceof Service) {
        if (r.equals("services") || r.equals("count/services") || r.equals("services.loadbalancers")
            || r.equals("services.nodeports")) {
          out.add(r);
        }
      } else {
        String count = countName(o);
        if (r.equals(count) || r.equals(count.substring("count/".length()))
            && LEGACY_COUNTS.contains(r)) {
          out.add(r);
        }
      }
    }
    return out;
  }

  /** Whether quota resource {@code r} is one that pods use (the pod evaluator's {@code MatchingResources}). */
  static boolean isPodResource(String r) {
    return POD_RESOURCES.contains(r) || r.startsWith("hugepages-") || r.startsWith("requests.hugepages-")
        || r.startsWith("requests.") && isExtended(r.substring("requests.".length()));
  }

  /**
   * Whether {@code quota} (with hard limits {@code hard}) applies to {@code o}: it tracks a resource {@code o} uses,
   * and {@code o} matches all its scopes ({@code spec.scopes} as Exists requirements, ANDed with the scope
   * selector). Only pods match scopes; a scoped quota never applies to other kinds.
   */
  public static boolean matches(ResourceQuota quota, Set<String> hard, ApiObject<?> o) {
    if (matchingResources(hard, o).isEmpty()) {
      return false;
    }
    List<ScopedResourceSelectorRequirement> selectors = new ArrayList<>();
    for (ResourceQuotaScope s : quota.spec().scopes()) {
      selectors.add(new ScopedResourceSelectorRequirement(s, ScopeSelectorOperator.Exists, List.of()));
    }
    selectors.addAll(quota.spec().scopeSelector());
    for (ScopedResourceSelectorRequirement s : selectors) {
      if (!(o instanceof Pod pod) || !podMatchesScope(s, pod)) {
        return false;
      }
    }
    return true;
  }

  /** {@code podMatchesScopeFunc}. */
  static boolean podMatchesScope(ScopedResourceSelectorRequirement s, Pod pod) {
    PodSpec spec = pod.spec();
    return switch (s.scopeName()) {
      case Terminating -> isTerminating(spec);
      case NotTerminating -> !isTerminating(spec);
      case BestEffort -> isBestEffort(spec);
      case NotBestEffort -> !isBestEffort(spec);
      case CrossNamespacePodAffinity -> crossNamespaceAffinity(spec);
      case PriorityClass -> {
        String pc = spec.priorityClassName();
        // The selector sees the label set {PriorityClass: <name>}, which always has the key.
        yield switch (s.operator()) {
          case Exists -> !pc.isEmpty();
          case DoesNotExist -> false;
          case In -> s.values().contains(pc);
          case NotIn -> !s.values().contains(pc);
        };
      }
    };
  }

  static boolean isTerminating(PodSpec spec) {
    Long d = spec.activeDeadlineSeconds();
    return d != null && d >= 0;
  }

  /** Quality of service BestEffort: no positive cpu or memory request or limit in any container. */
  static boolean isBestEffort(PodSpec spec) {
    if (spec.hasPodLevelResources()) { // ComputePodQOS reads the pod level alone when it is set
      ResourceList r = spec.resources().requests();
      ResourceList l = spec.resources().limits();
      return r.milliCpu() <= 0 && r.memoryBytes() <= 0 && l.milliCpu() <= 0 && l.memoryBytes() <= 0;
    }
    return bestEffort(spec.containers()) && bestEffort(spec.initContainers());
  }

  private static boolean bestEffort(List<Container> cs) {
    for (Container c : cs) {
      ResourceList r = c.resources().requests();
      ResourceList l = c.resources().limits();
      if (r.milliCpu() > 0 || r.memoryBytes() > 0 || l.milliCpu() > 0 || l.memoryBytes() > 0) {
        return false;
      }
    }
    return true;
  }

  static boolean crossNamespaceAffinity(PodSpec spec) {
    for (PodAffinity a : new PodAffinity[] {spec.affinity().podAffinity(), spec.affinity().podAntiAffinity()}) {
      if (a == null) {
        continue;
      }
      for (PodAffinityTerm t : a.requiredDuringSchedulingIgnoredDuringExecution()) {
        if (crossNamespace(t)) {
          return true;
        }
      }
      for (WeightedPodAffinityTerm w : a.preferredDuringSchedulingIgnoredDuringExecution()) {
        if (crossNamespace(w.podAffinityTerm())) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean crossNamespace(PodAffinityTerm t) {
    return !t.namespaces().isEmpty() || t.namespaceSelector() != null;
  }

  /**
   * {@code podEvaluator.Constraints}: when {@code required} (the quota's matching resources) includes cpu or memory
   * requests or limits, every container and init container must set them; else
   * {@code must specify limits.memory for: c1,c2; requests.cpu for: c3}. {@code null} when satisfied. A pod with
   * pod-level resources ({@link PodSpec#hasPodLevelResources()}) is not held to this: its containers may leave them
   * out, as upstream.
   */
  public static @Nullable String constraints(List<String> required, ApiObject<?> o) {
    if (!(o instanceof Pod pod) || pod.spec().hasPodLevelResources()) {
      return null;
    }
    TreeSet<String> req = null;
    for (String r : required) {
      if (CONSTRAINED.contains(r)) {
        if (req == null) {
          req = new TreeSet<>();
        }
        req.add(r);
      }
    }
    if (req == null) {
      return null;
    }
    TreeMap<String, TreeSet<String>> missing = null;
    for (List<Container> cs : List.of(pod.spec().containers(), pod.spec().initContainers())) {
      for (Container c : cs) {
        for (String r : req) {
          if (!sets(c, r)) {
            if (missing == null) {
              missing = new TreeMap<>();
            }
            missing.computeIfAbsent(r, k -> new TreeSet<>()).add(c.name());
          }
        }
      }
    }
    if (missing == null) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    missing.forEach((r, names) -> parts.add(r + " for: " + String.join(",", names)));
    return "must specify " + String.join("; ", parts);
  }

  /**
   * Whether container {@code c} charges constrained resource {@code r} (what {@link #podCompute} of its resources
   * would hold): {@code limits.X} needs a limit of X, the others ({@code X}, {@code requests.X}) a request of X.
   */
  private static boolean sets(Container c, String r) {
    if (r.startsWith("limits.")) {
      return c.resources().limits().has(r.substring("limits.".length()));
    }
    return c.resources().requests().has(r.startsWith("requests.") ? r.substring("requests.".length()) : r);
  }

  /**
   * Whether {@code request} is charged only what it adds to its old object's usage: an update whose old object was
   * stored (has a resourceVersion). An update whose old object has none is a create-on-update and is charged its
   * whole usage ({@code checkRequest}: "if we can definitively determine that this is not a case of create on
   * update, then charge based on the delta").
   */
  static boolean chargesGrowthOnly(AdmissionRequest request) {
    ApiObject<?> old = request.oldObject();
    return request.operation() == AdmissionOperation.UPDATE && old != null
        && !old.metadata().resourceVersion().isEmpty();
  }

  /** {@code prettyPrint}: {@code name=quantity} sorted by name, joined by commas. */
  public static String prettyPrint(ResourceList l) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, Quantity> e : l.asMap().entrySet()) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(e.getKey()).append('=').append(e.getValue());
    }
    return sb.toString();
  }

  /** {@code quota.Mask}: the entries of {@code l} named in {@code names}. */
  public static ResourceList mask(ResourceList l, Set<String> names) {
    ResourceList.Builder b = ResourceList.builder();
    boolean any = false;
    for (Map.Entry<String, Quantity> e : l.asMap().entrySet()) {
      if (names.contains(e.getKey())) {
        b.put(e.getKey(), e.getValue());
        any = true;
      }
    }
    return any ? b.build() : ResourceList.EMPTY;
  }
}
