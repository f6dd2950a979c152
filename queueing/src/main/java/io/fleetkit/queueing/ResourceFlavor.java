package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import java.util.Map;
import java.util.Objects;

/**
 * A variant of a resource (Kueue {@code ResourceFlavor}): for example on-demand vs spot nodes, or one GPU model. The
 * node labels say which nodes carry the flavor; the admission engine only uses the name, and reports the labels with
 * each admission so that a pod scheduler can pin the pods to those nodes.
 *
 * @param name the flavor's name, a DNS subdomain
 * @param nodeLabels labels of the nodes that provide this flavor (may be empty)
 */
public record ResourceFlavor(String name, Map<String, String> nodeLabels) {
  public static final String KIND = "ResourceFlavor";

  public ResourceFlavor {
    Objects.requireNonNull(name, "name");
    nodeLabels = Map.copyOf(Objects.requireNonNull(nodeLabels, "nodeLabels"));
    Violations v = new Violations(KIND, "", name);
    v.dnsSubdomain("metadata.name", name);
    v.labels("spec.nodeLabels", nodeLabels);
    v.throwIfAny();
  }

  /** A flavor without node labels. */
  public static ResourceFlavor of(String name) {
    return new ResourceFlavor(name, Map.of());
  }
}
