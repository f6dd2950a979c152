package io.fleetkit.autoscale.vpa;

import io.fleetkit.api.autoscaling.ContainerResourcePolicy;
import io.fleetkit.api.autoscaling.ContainerScalingMode;
import io.fleetkit.api.autoscaling.PodResourcePolicy;
import io.fleetkit.api.autoscaling.RecommendedContainerResources;
import io.fleetkit.api.autoscaling.RecommendedPodResources;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The VPA updater's choice of pods to update ({@code updater/priority/update_priority_calculator.go}): a pod is a
 * candidate when
 * <ol>
 *   <li>a container's request is outside the recommended range (or missing), or</li>
 *   <li>it was OOM-killed after running less than {@link #EVICT_AFTER_OOM_THRESHOLD} (quick OOM) and the
 *       recommendation differs from its requests, or</li>
 *   <li>it has run for at least {@link #POD_LIFETIME_UPDATE_THRESHOLD} and the resource diff is at least
 *       {@link #MIN_CHANGE_PRIORITY}.</li>
 * </ol>
 * Immutable and thread-safe.
 */
public final class UpdatePriorityCalculator {
  /** {@code in-recommendation-bounds-eviction-lifetime-threshold}. */
  public static final Duration POD_LIFETIME_UPDATE_THRESHOLD = Duration.ofHours(12);
  /** {@code evict-after-oom-threshold}. */
  public static final Duration EVICT_AFTER_OOM_THRESHOLD = Duration.ofMinutes(10);
  /** {@code MinChangePriority} (updater flag {@code DefaultUpdateThreshold}). */
  public static final double MIN_CHANGE_PRIORITY = 0.1;

  private UpdatePriorityCalculator() {}

  /** {@code GetUpdatePriority}: range, direction and resource diff of a pod against a recommendation. */
  public static PodPriority priority(Pod pod, @Nullable RecommendedPodResources recommendation) {
    boolean outside = false;
    boolean scaleUp = false;
    Map<String, Long> totalRequest = new HashMap<>();
    Map<String, Long> totalRecommended = new HashMap<>();
    if (recommendation != null) {
      for (Container c : pod.spec().containers()) {
        Optional<RecommendedContainerResources> rec = recommendation.forContainer(c.name());
        if (rec.isEmpty()) {
          continue;
        }
        ResourceList target = rec.get().target();
        ResourceList lower = rec.get().lowerBound();
        ResourceList upper = rec.get().upperBound();
        for (String resource : target.names()) {
          long recommended = target.milliValue(resource);
          totalRecommended.merge(resource, recommended, Long::sum);
          ResourceList requests = c.resources().requests();
          if (requests.has(resource)) {
            long request = requests.milliValue(resource);
            totalRequest.merge(resource, request, Long::sum);
            if (recommended > request) {
              scaleUp = true;
            }
            if ((lower.has(resource) && request < lower.milliValue(resource))
                || (upper.has(resource) && request > upper.milliValue(resource))) {
              outside = true;
            }
          } else {
            // A missing request counts as 0 (upstream ignores namespace defaults here).
            scaleUp = true;
            outside = true;
          }
        }
      }
    }
    double diff = 0.0;
    for (Map.Entry<String, Long> e : totalRecommended.entrySet()) {
      double request = Math.max((double) totalRequest.getOrDefault(e.getKey(), 0L), 1.0);
      diff += Math.abs(request - e.getValue()) / request;
    }
    return new PodPriority(outside, scaleUp, diff);
  }

  /**
   * The priority of {@code pod} if the updater should update it now ({@code AddPod}), else empty.
   *
   * @param policy the VPA's resource policy: containers in mode Off do not count for quick OOM
   */
  public static Optional<PodPriority> updatePriority(Pod pod, @Nullable RecommendedPodResources recommendation,
      @Nullable PodResourcePolicy policy, Instant now) {
    PodPriority p = priority(pod, recommendation);
    boolean quickOom = quickOom(pod, policy);
    if (!p.outsideRecommendedRange() && !quickOom) {
      Instant start = pod.status().startTime();
      if (start == null || now.isBefore(start.plus(POD_LIFETIME_UPDATE_THRESHOLD))) {
        return Optional.empty();
      }
      if (p.resourceDiff() < MIN_CHANGE_PRIORITY) {
        return Optional.empty();
      }
    }
    if (quickOom && p.resourceDiff() == 0) {
      return Optional.empty();
    }
    return Optional.of(p);
  }

  /**
   * Whether a VPA-controlled container was OOM-killed after a short run. FleetKit's {@code ContainerStatus} keeps one
   * state, so a {@code Terminated/OOMKilled} state with start and finish times stands for the last termination.
   */
  static boolean quickOom(Pod pod, @Nullable PodResourcePolicy policy) {
    for (ContainerStatus cs : pod.status().containerStatuses()) {
      if (policy != null) {
        Optional<ContainerResourcePolicy> crp = policy.policyFor(cs.name());
        if (crp.isPresent() && crp.get().mode() == ContainerScalingMode.Off) {
          continue;
        }
      }
      ContainerState s = cs.state();
      if (s.type() == ContainerStateType.Terminated && "OOMKilled".equals(s.reason()) && s.startedAt() != null
          && s.finishedAt() != null
          && Duration.between(s.startedAt(), s.finishedAt()).compareTo(EVICT_AFTER_OOM_THRESHOLD) < 0) {
        return true;
      }
    }
    return false;
  }
}
