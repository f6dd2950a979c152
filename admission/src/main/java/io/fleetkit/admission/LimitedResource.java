package io.fleetkit.admission;

import io.fleetkit.api.core.ScopedResourceSelectorRequirement;
import java.util.List;
import java.util.Objects;

/**
 * One entry of the ResourceQuota admission configuration's {@code limitedResources}
 * ({@code apiserver.config.k8s.io/v1 Configuration}): objects of {@code resource} in {@code apiGroup} may consume a
 * resource whose name contains one of {@code matchContains} only where a quota covers it ({@code insufficient quota
 * to consume: requests.cpu}), and objects matching one of {@code matchScopes} may be created only where a quota
 * with that scope exists ({@code insufficient quota to match these scopes: [{PriorityClass Exists []}]}).
 *
 * @param apiGroup the group of {@code resource}, {@code ""} for the core group
 * @param resource the plural resource name, e.g. {@code pods}
 * @param matchContains substrings of the quota resource names whose consumption needs a covering quota
 * @param matchScopes scopes whose matching objects need a covering quota (the match scopes apply to every
 *     object, whatever {@code resource} says, as upstream)
 */
public record LimitedResource(String apiGroup, String resource, List<String> matchContains,
    List<ScopedResourceSelectorRequirement> matchScopes) {
  public LimitedResource {
    Objects.requireNonNull(apiGroup, "apiGroup");
    Objects.requireNonNull(resource, "resource");
    matchContains = List.copyOf(matchContains);
    matchScopes = List.copyOf(matchScopes);
    if (resource.isEmpty()) {
      throw new IllegalArgumentException("ResourceQuota admission configuration: limitedResources[].resource must "
          + "not be empty");
    }
  }

  /** A core-group resource ({@code pods}) whose consumption of names containing {@code matchContains} is limited. */
  public static LimitedResource of(String resource, String... matchContains) {
    return new LimitedResource("", resource, List.of(matchContains), List.of());
  }

  /** A core-group resource whose objects matching {@code matchScopes} need a covering quota. */
  public static LimitedResource ofScopes(String resource, ScopedResourceSelectorRequirement... matchScopes) {
    return new LimitedResource("", resource, List.of(), List.of(matchScopes));
  }
}
