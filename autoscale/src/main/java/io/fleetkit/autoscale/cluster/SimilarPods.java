package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.OwnerReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Kinds of pods remembered per controller, each by a representative pod and with a value, as the cluster autoscaler
 * remembers them in two places: the equivalence groups of scale-up ({@code core/scaleup/equivalence/groups.go}, the
 * value a group) and the similar pods that fitted nowhere ({@code simulator/scheduling/similar_pods.go}, the value a
 * mark). A pod is of a remembered kind when it has the same controller (by UID), equal labels and a spec equal as
 * {@code PodSpecSemanticallyEqual} compares it ({@link PodSpecEquivalence}). Pods without a controller and DaemonSet
 * pods ({@link TemplateNodes#isDaemonSetPod}) are never remembered, and a controller has at most
 * {@value #MAX_PER_CONTROLLER} kinds (upstream's {@code maxEquivalenceGroupsByController} and
 * {@code maxPodsPerOwnerRef}): a controller with more variants is not worth the linear search. The kinds of one
 * controller are pairwise different, so at most one matches a pod. Not thread-safe: one loop's bookkeeping.
 *
 * @param <V> what is remembered with each kind
 */
final class SimilarPods<V> {
  /** Kinds remembered per controller (upstream's two constants, both 10). */
  static final int MAX_PER_CONTROLLER = 10;

  /** One kind: its representative's labels and sanitized spec, and the value. */
  private record Kind<V>(Pod representative, PodSpec semantic, V value) {}

  private final Map<String, List<Kind<V>>> byController = new HashMap<>();

  /**
   * The value remembered with {@code pod}'s kind (upstream's {@code match} and {@code IsSimilarUnschedulable});
   * {@code null} when the pod has no controller or its controller has no kind like it.
   */
  @Nullable V find(Pod pod) {
    OwnerReference c = pod.metadata().controllerRef();
    if (c == null) {
      return null;
    }
    List<Kind<V>> kinds = byController.get(c.uid());
    if (kinds == null) {
      return null;
    }
    PodSpec semantic = null;
    for (Kind<V> k : kinds) {
      Pod r = k.representative();
      if (!r.metadata().labels().equals(pod.metadata().labels())) {
        continue;
      }
      // an equal spec is equal sanitized too: the sanitized form is made only when the specs differ
      if (r.spec() == pod.spec() || r.spec().equals(pod.spec())) {
        return k.value();
      }
      if (semantic == null) {
        semantic = PodSpecEquivalence.semantic(pod.spec());
      }
      if (k.semantic().equals(semantic)) {
        return k.value();
      }
    }
    return null;
  }

  /**
   * Remembers {@code pod}'s kind with {@code value} (upstream's new {@code equivalenceGroup} and
   * {@code SetUnschedulable}). The caller has checked that {@link #find} knows no kind like it.
   *
   * @return whether it was remembered: {@code false} for a pod without a controller, a DaemonSet pod, and a pod whose
   *     controller has {@value #MAX_PER_CONTROLLER} kinds already
   */
  boolean remember(Pod pod, V value) {
    OwnerReference c = pod.metadata().controllerRef();
    if (c == null || TemplateNodes.isDaemonSetPod(pod)) {
      return false;
    }
    List<Kind<V>> kinds = byController.computeIfAbsent(c.uid(), k -> new ArrayList<>(2));
    if (kinds.size() >= MAX_PER_CONTROLLER) {
      return false;
    }
    kinds.add(new Kind<>(pod, PodSpecEquivalence.semantic(pod.spec()), value));
    return true;
  }
}
