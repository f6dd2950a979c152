package io.fleetkit.autoscale.vpa;

import io.fleetkit.api.autoscaling.ContainerControlledValues;
import io.fleetkit.api.autoscaling.ContainerResourcePolicy;
import io.fleetkit.api.autoscaling.ContainerScalingMode;
import io.fleetkit.api.autoscaling.RecommendedContainerResources;
import io.fleetkit.api.autoscaling.RecommendedPodResources;
import io.fleetkit.api.autoscaling.UpdateMode;
import io.fleetkit.api.autoscaling.VerticalPodAutoscaler;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Optional;

/**
 * The VPA admission controller: sets the requests of a new pod's containers to the recommended targets
 * ({@code admission-controller/resource/pod/recommendation}). Modes Initial, Recreate, Auto and InPlaceOrRecreate
 * apply; Off does not. With {@link ContainerControlledValues#RequestsAndLimits} limits keep their ratio to the
 * request: {@code newLimit = limit * newRequest / request} (exact integer math, capped at {@code Long.MAX_VALUE}
 * milli-units); without an original request, or with request equal to limit, the limit becomes the new request.
 * {@link ContainerControlledValues#RequestsOnly} leaves limits alone. Stateless and thread-safe.
 *
 * <p>Pod-level resources ({@code spec.resources}, KEP-2837): upstream's VPA does not support them yet (its README
 * declares workloads with a pod-level {@code resources} stanza incompatible; AEP-7571 is unmerged), and neither does
 * this. Recommendations go to the containers only and the pod-level budget is left as it is. A pod whose new
 * container requests add up to more than a pod-level request, or with a container limit above a pod-level limit, is
 * invalid, so it is refused as the Kubernetes API server refuses upstream's mutated pod: {@link #admit} and
 * {@link #apply} throw a {@link io.fleetkit.api.ValidationException} naming the pod and the field
 * ({@code spec.resources.requests.cpu "1" must be greater than or equal to aggregate container requests of 2}).
 */
public final class VpaAdmission {
  private VpaAdmission() {}

  /** Whether the VPA's mode applies recommendations to new pods. */
  public static boolean admits(VerticalPodAutoscaler vpa) {
    return vpa.spec().updateMode() != UpdateMode.Off;
  }

  /**
   * {@code pod} with the VPA's recommendation applied, or unchanged when the mode is Off or nothing is known.
   *
   * @throws io.fleetkit.api.ValidationException when the new container resources no longer fit the pod's pod-level
   *     resources (see the class comment)
   */
  public static Pod admit(Pod pod, VerticalPodAutoscaler vpa) {
    RecommendedPodResources rec = vpa.status().recommendation();
    if (!admits(vpa) || rec == null) {
      return pod;
    }
    return apply(pod, vpa, rec);
  }

  /**
   * {@code pod} with {@code rec} applied to its containers, whatever the mode (the updater's in-place resize).
   *
   * @throws io.fleetkit.api.ValidationException when the new container resources no longer fit the pod's pod-level
   *     resources
   */
  public static Pod apply(Pod pod, VerticalPodAutoscaler vpa, RecommendedPodResources rec) {
    List<Container> containers = new ArrayList<>();
    boolean changed = false;
    for (Container c : pod.spec().containers()) {
      Optional<RecommendedContainerResources> r = rec.forContainer(c.name());
      Optional<ContainerResourcePolicy> policy = vpa.spec().resourcePolicy() == null ? Optional.empty()
          : vpa.spec().resourcePolicy().policyFor(c.name());
      if (r.isEmpty() || (policy.isPresent() && policy.get().mode() == ContainerScalingMode.Off)) {
        containers.add(c);
        continue;
      }
      ContainerControlledValues values = policy.map(ContainerResourcePolicy::controlledValues)
          .orElse(ContainerControlledValues.RequestsAndLimits);
      List<String> controlled = policy.map(ContainerResourcePolicy::controlledResources)
          .orElse(ContainerResourcePolicy.DEFAULT_CONTROLLED_RESOURCES);
      ResourceList requests = c.resources().requests();
      ResourceList limits = c.resources().limits();
      Map<String, Quantity> newRequests = new LinkedHashMap<>(requests.asMap());
      Map<String, Quantity> newLimits = new LinkedHashMap<>(limits.asMap());
      ResourceList target = r.get().target();
      for (String name : target.names()) {
        if (!controlled.contains(name)) {
          continue;
        }
        Quantity newRequest = target.get(name);
        newRequests.put(name, newRequest);
        if (values == ContainerControlledValues.RequestsAndLimits && limits.has(name)) {
          newLimits.put(name, scaledLimit(requests.has(name) ? requests.get(name) : null, limits.get(name),
              newRequest));
        }
      }
      ResourceRequirements rr = ResourceRequirements.of(ResourceList.of(newRequests), ResourceList.of(newLimits))
          .withClaims(c.resources().claims());
      if (!rr.equals(c.resources())) {
        changed = true;
      }
      containers.add(c.withResources(rr));
    }
    if (!changed) {
      return pod;
    }
    return pod.withSpec(pod.spec().toBuilder().containers(containers).build());
  }

  /** {@code getProportionalResourceLimit}. */
  static Quantity scaledLimit(@org.jspecify.annotations.Nullable Quantity originalRequest, Quantity originalLimit,
      Quantity newRequest) {
    if (originalRequest == null || originalRequest.isZero() || originalRequest.compareTo(originalLimit) == 0) {
      return newRequest;
    }
    BigInteger result = BigInteger.valueOf(originalLimit.milliValue())
        .multiply(BigInteger.valueOf(newRequest.milliValue()))
        .divide(BigInteger.valueOf(originalRequest.milliValue()));
    long milli = result.bitLength() >= 63 ? Long.MAX_VALUE : result.longValue();
    return Quantity.ofMilli(milli);
  }
}
