package io.fleetkit.autoscale.hpa;

import java.util.Set;

/**
 * How {@code groupPods} split the target's pods for one metric.
 *
 * @param readyPodCount pods with a usable sample
 * @param unready pending pods, and for cpu the pods still initializing or never ready: their samples are dropped,
 *     and on a scale-up they count as using nothing
 * @param missing pods without a sample: on a scale-down they count as using their request (or the target), on a
 *     scale-up as using nothing
 * @param ignored deleted and failed pods: dropped for good
 */
public record PodGroups(int readyPodCount, Set<String> unready, Set<String> missing, Set<String> ignored) {
  public PodGroups {
    unready = Set.copyOf(unready);
    missing = Set.copyOf(missing);
    ignored = Set.copyOf(ignored);
  }
}
