package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The hierarchy of a data centre's node groups (Kueue {@code Topology}, topology-aware scheduling): its levels are
 * node label keys ordered from the highest (largest) domain to the lowest, for example {@code
 * cloud.provider.com/topology-block}, {@code cloud.provider.com/topology-rack}, {@code kubernetes.io/hostname}. A
 * domain of level {@code i} is a distinct combination of the values of levels {@code 0..i} on some node.
 *
 * <p>Validation (Kueue's API rules, reported together as one {@link io.fleetkit.api.ValidationException}): the name
 * is a DNS subdomain; there are 1 to 16 levels; every level is a label key (Kubernetes' {@code IsQualifiedName});
 * levels are unique; {@code kubernetes.io/hostname}, if used, is the lowest level.
 *
 * @param name the topology's name, which {@link ResourceFlavor#topologyName()} refers to
 * @param levels the node label keys, highest level first
 */
public record Topology(String name, List<String> levels) {
  public static final String KIND = "Topology";
  /** Kueue's limit on the levels of a topology. */
  public static final int MAX_LEVELS = 16;
  /** The node label whose level makes every node its own lowest domain. */
  public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

  public Topology {
    Objects.requireNonNull(name, "name");
    levels = List.copyOf(Objects.requireNonNull(levels, "levels"));
    Violations v = new Violations(KIND, "", name);
    v.dnsSubdomain("metadata.name", name);
    if (levels.isEmpty()) {
      v.required("spec.levels");
    } else if (levels.size() > MAX_LEVELS) {
      v.add("spec.levels", "must have at most " + MAX_LEVELS + " items", levels.size());
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < levels.size(); i++) {
      String field = "spec.levels[" + i + "].nodeLabel";
      String key = levels.get(i);
      if (key.isEmpty()) {
        v.required(field);
        continue;
      }
      v.qualifiedName(field, key);
      if (!seen.add(key)) {
        v.add("spec.levels", "must be unique", key);
      }
      if (key.equals(HOSTNAME_LABEL) && i != levels.size() - 1) {
        v.add("spec.levels", "the kubernetes.io/hostname label can only be used at the lowest level of topology", key);
      }
    }
    v.throwIfAny();
  }

  /** A topology with {@code levels}, highest first. */
  public static Topology of(String name, String... levels) {
    return new Topology(name, List.of(levels));
  }

  /** Whether the lowest level is {@code kubernetes.io/hostname}: every node is then a domain of its own. */
  public boolean lowestLevelIsHostname() {
    return levels.get(levels.size() - 1).equals(HOSTNAME_LABEL);
  }

  /** The index of {@code level} in {@link #levels()}, or -1. */
  public int indexOf(String level) {
    return levels.indexOf(level);
  }
}
