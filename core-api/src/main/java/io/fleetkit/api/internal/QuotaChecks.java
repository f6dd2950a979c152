package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.ResourceQuotaScope;
import io.fleetkit.api.core.ResourceQuotaSpec;
import io.fleetkit.api.core.ScopeSelectorOperator;
import io.fleetkit.api.core.ScopedResourceSelectorRequirement;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kubernetes' ResourceQuota rules ({@code pkg/apis/core/validation/validation.go}: {@code ValidateResourceQuota},
 * {@code validateResourceQuotaScopes}, {@code validateScopedResourceSelectorRequirement}; and
 * {@code pkg/apis/core/helper/helpers.go} for the resource name sets).
 */
public final class QuotaChecks {
  /** {@code standardQuotaResources}. */
  public static final Set<String> STANDARD_QUOTA_RESOURCES = Set.of("cpu", "memory", "ephemeral-storage",
      "requests.cpu", "requests.memory", "requests.storage", "requests.ephemeral-storage", "limits.cpu",
      "limits.memory", "limits.ephemeral-storage", "pods", "services", "replicationcontrollers", "resourcequotas",
      "secrets", "persistentvolumeclaims", "configmaps", "services.nodeports", "services.loadbalancers");
  private static final Set<String> INTEGER_RESOURCES = Set.of("pods", "services", "replicationcontrollers",
      "resourcequotas", "secrets", "configmaps", "persistentvolumeclaims", "services.nodeports",
      "services.loadbalancers");
  private static final Set<String> POD_COMPUTE = Set.of("cpu", "memory", "limits.cpu", "limits.memory",
      "requests.cpu", "requests.memory");
  private static final String EXISTS_ONLY = "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, "
      + "ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or "
      + "ResourceQuotaScopeCrossNamespacePodAffinity";

  private QuotaChecks() {}

  /** {@code IsStandardQuotaResourceName}: the standard names and {@code hugepages-*} / {@code requests.hugepages-*}. */
  public static boolean isStandardQuotaResource(String name) {
    return STANDARD_QUOTA_RESOURCES.contains(name) || name.startsWith("hugepages-")
        || name.startsWith("requests.hugepages-");
  }

  /**
   * {@code IsIntegerResourceName}: object counts and extended resources (a domain-prefixed name outside
   * {@code kubernetes.io}, not starting with {@code requests.}, such as {@code count/pods}).
   */
  public static boolean isIntegerResource(String name) {
    if (INTEGER_RESOURCES.contains(name)) {
      return true;
    }
    int slash = name.indexOf('/');
    if (slash < 0 || name.startsWith("requests.")) {
      return false;
    }
    String domain = name.substring(0, slash);
    return !(domain.equals("kubernetes.io") || domain.endsWith(".kubernetes.io"));
  }

  /** {@code IsResourceQuotaScopeValidForResource}. */
  public static boolean scopeValidFor(ResourceQuotaScope scope, String resource) {
    if (scope == ResourceQuotaScope.BestEffort) {
      return resource.equals("pods");
    }
    return resource.equals("pods") || POD_COMPUTE.contains(resource);
  }

  /**
   * Checks a quota's resource list (spec.hard, status.hard, status.used): names and non-negative values. Lists
   * found valid are remembered (up to {@value #VALID_CACHE_LIMIT}, by value), so that the quota records built on every
   * charge (a new status, then the store's copies of it) do not re-check the same hard limits and usage.
   */
  public static void resources(Violations v, String field, ResourceList list) {
    if (VALID.containsKey(list)) {
      return;
    }
    boolean valid = true;
    for (Map.Entry<String, Quantity> e : list.asMap().entrySet()) {
      String name = e.getKey();
      String path = field + "[" + name + "]";
      int before = v.violations().size();
      v.qualifiedName(path, name);
      if (name.indexOf('/') < 0 && !isStandardQuotaResource(name)) {
        v.add(path, "must be a standard resource for quota", name);
      }
      Quantity q = e.getValue();
      v.nonNegative(path, q);
      if (isIntegerResource(name) && q.milliValue() % 1000 != 0) {
        v.add(path, "must be an integer", q);
      }
      valid &= v.violations().size() == before;
    }
    if (valid) {
      if (VALID.size() >= VALID_CACHE_LIMIT) {
        VALID.clear(); // usage lists change with every charge; keep the cache small rather than exact
      }
      VALID.put(list, Boolean.TRUE);
    }
  }

  private static final int VALID_CACHE_LIMIT = 4096;
  private static final ConcurrentHashMap<ResourceList, Boolean> VALID = new ConcurrentHashMap<>();

  /** Checks scopes and the scope selector against each other and against the hard resources. */
  public static void scopes(Violations v, ResourceQuotaSpec spec) {
    Set<String> hard = spec.hard().names();
    EnumSet<ResourceQuotaScope> seen = EnumSet.noneOf(ResourceQuotaScope.class);
    List<ResourceQuotaScope> scopes = spec.scopes();
    for (ResourceQuotaScope scope : scopes) {
      for (String k : hard) {
        if (isStandardQuotaResource(k) && !scopeValidFor(scope, k)) {
          v.add("spec.scopes", "unsupported scope applied to resource", scopes);
        }
      }
      seen.add(scope);
    }
    conflicts(v, "spec.scopes", seen, scopes);
    List<ScopedResourceSelectorRequirement> reqs = spec.scopeSelector();
    EnumSet<ResourceQuotaScope> selected = EnumSet.noneOf(ResourceQuotaScope.class);
    for (int i = 0; i < reqs.size(); i++) {
      ScopedResourceSelectorRequirement r = reqs.get(i);
      String path = "spec.scopeSelector.matchExpressions[" + i + "]";
      for (String k : hard) {
        if (isStandardQuotaResource(k) && !scopeValidFor(r.scopeName(), k)) {
          v.add("spec.scopeSelector.matchExpressions", "unsupported scope applied to resource", reqs);
        }
      }
      if (r.scopeName() != ResourceQuotaScope.PriorityClass && r.operator() != ScopeSelectorOperator.Exists) {
        v.add(path + ".operator", EXISTS_ONLY, r.operator());
      }
      switch (r.operator()) {
        case In, NotIn -> {
          if (r.values().isEmpty()) {
            v.required(path + ".values",
                "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector");
          }
        }
        case Exists, DoesNotExist -> {
          if (!r.values().isEmpty()) {
            v.add(path + ".values", "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope "
                + "selector", r.values());
          }
        }
      }
      selected.add(r.scopeName());
    }
    conflicts(v, "spec.scopeSelector.matchExpressions", selected, reqs);
  }

  private static void conflicts(Violations v, String field, Set<ResourceQuotaScope> seen, Object value) {
    if (seen.contains(ResourceQuotaScope.BestEffort) && seen.contains(ResourceQuotaScope.NotBestEffort)) {
      v.add(field, "conflicting scopes", value);
    }
    if (seen.contains(ResourceQuotaScope.Terminating) && seen.contains(ResourceQuotaScope.NotTerminating)) {
      v.add(field, "conflicting scopes", value);
    }
  }
}
