package io.fleetkit.scheduler.plugins.defaultpreemption;

import io.fleetkit.api.framework.PodInfo;
import java.util.List;
import java.util.Objects;

/**
 * A node where the preemptor fits once {@code victims} are evicted (upstream {@code preemption.Candidate} with its
 * {@code extenderv1.Victims}).
 *
 * @param victims ordered from the most to the least important
 * @param numPdbViolations how many victims violate a PodDisruptionBudget
 */
record Candidate(String nodeName, List<PodInfo> victims, int numPdbViolations) {
  Candidate {
    Objects.requireNonNull(nodeName, "nodeName");
    victims = List.copyOf(victims);
  }
}
