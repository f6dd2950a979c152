package io.fleetkit.admission;

import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ScopedResourceSelectorRequirement;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The covering-quota checks of ResourceQuota admission's {@code limitedResources} configuration (upstream's
 * {@code checkRequest}: {@code limitedByDefault}, {@code getMatchedLimitedScopes}, {@code UncoveredQuotaScopes}).
 * Pure functions; thread-safe.
 */
final class LimitedResources {
  private LimitedResources() {}

  /**
   * The denial of {@code request} by {@code limited}, or {@code null}: a limited resource it consumes that none of
   * the matching quotas ({@code entries[matched[0..m)]}) tracks, or a limited scope it matches that no quota of the
   * namespace ({@code entries}) has among the scopes the object matches.
   */
  static @Nullable String check(List<LimitedResource> limited, AdmissionRequest request, Instant now,
      QuotaCounters[] entries, int[] matched, int m) {
    ApiObject<?> o = request.object();
    ResourceList usage = QuotaEvaluator.usage(o, now);
    ResourceList delta = usage;
    if (QuotaEvaluator.chargesGrowthOnly(request)) {
      delta = QuotaRecount.clampAtZero(delta.subtract(QuotaEvaluator.usage(java.util.Objects.requireNonNull(request.oldObject()), now)));
    }
    if (!positive(delta)) {
      return null; // nothing consumed: upstream returns before the covering checks
    }
    String[] gr = groupResource(o);
    TreeSet<String> limitedNames = new TreeSet<>();
    for (LimitedResource l : limited) {
      if (!l.apiGroup().equals(gr[0]) || !l.resource().equals(gr[1])) {
        continue;
      }
      for (Map.Entry<String, Quantity> e : usage.asMap().entrySet()) {
        if (e.getValue().signum() > 0) {
          for (String c : l.matchContains()) {
            if (e.getKey().contains(c)) {
              limitedNames.add(e.getKey());
              break;
            }
          }
        }
      }
    }
    Set<String> restricted = new HashSet<>();
    for (int j = 0; j < m; j++) {
      restricted.addAll(QuotaEvaluator.matchingResources(entries[matched[j]].hardNames, o));
    }
    limitedNames.removeAll(restricted);
    if (!limitedNames.isEmpty()) {
      return "insufficient quota to consume: " + String.join(",", limitedNames);
    }
    if (!(o instanceof Pod pod)) {
      return null; // only the pod evaluator matches scopes
    }
    Set<Object> covered = new HashSet<>();
    for (QuotaCounters e : entries) {
      for (ScopedResourceSelectorRequirement s : e.selectors) {
        if (QuotaEvaluator.podMatchesScope(s, pod)) {
          covered.add(s.scopeName());
        }
      }
    }
    List<ScopedResourceSelectorRequirement> uncovered = new ArrayList<>();
    for (LimitedResource l : limited) {
      for (ScopedResourceSelectorRequirement s : l.matchScopes()) {
        if (QuotaEvaluator.podMatchesScope(s, pod) && !covered.contains(s.scopeName())) {
          uncovered.add(s);
        }
      }
    }
    if (!uncovered.isEmpty()) {
      List<String> parts = new ArrayList<>();
      uncovered.forEach(s -> parts.add(s.toString()));
      return "insufficient quota to match these scopes: [" + String.join(" ", parts) + "]";
    }
    return null;
  }

  private static boolean positive(ResourceList l) {
    for (Quantity q : l.asMap().values()) {
      if (q.signum() != 0) {
        return true;
      }
    }
    return false;
  }

  /** The API group and plural resource of {@code o} ({@code ["", "pods"]}, {@code ["apps", "deployments"]}). */
  static String[] groupResource(ApiObject<?> o) {
    String count = QuotaEvaluator.countName(o).substring("count/".length());
    int dot = count.indexOf('.');
    return dot < 0 ? new String[] {"", count} : new String[] {count.substring(dot + 1), count.substring(0, dot)};
  }
}
