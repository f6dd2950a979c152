package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.autoscale.cluster.simulator.SimulationPodInfo;
import org.jspecify.annotations.Nullable;

/**
 * A pod as the cluster autoscaler's simulations see it: the scheduler's view ({@link PodInfos#of}) plus what
 * scale-down asks of the pod in every loop, made once per pod object: its copy without a node (a drained pod is
 * placed as a new pod of its controller, so its node name must not pin it) and its {@linkplain Drainability.PodRules
 * drainability rules}. The store's pods are immutable, so both hold while the pod is the same object; the copy
 * shares the original's requests and rules (it differs in its node name only, which neither reads). As a
 * {@link SimulationPodInfo} it also carries whether the pod has (anti-)affinity terms, read when it is made, and the
 * note in which the drain simulation keeps PreFilter's outcome for the pod.
 *
 * <p>The two are made on first use; a race between two threads makes equal values, so reads need no lock.
 */
final class AutoscalerPodInfo implements SimulationPodInfo {
  private final Pod pod;
  private final String key;
  private final ResourceList requests;
  private final long nonZeroCpu;
  private final long nonZeroMem;
  private final int priority;
  /** Whether the pod names a node (read once: scale-down asks for every pod it moves). */
  private final boolean hasNode;
  private final boolean hasAffinity;
  private final boolean hasRequiredAntiAffinity;
  private @Nullable Object simulationNote;
  private @Nullable Object hintNote;
  private @Nullable AutoscalerPodInfo unbound;
  private Drainability.@Nullable PodRules rules;

  private AutoscalerPodInfo(Pod pod, io.fleetkit.api.framework.PodInfo computed,
      Drainability.@Nullable PodRules rules) {
    this.pod = pod;
    this.key = computed.key();
    this.requests = computed.requests();
    this.nonZeroCpu = computed.nonZeroMilliCpu();
    this.nonZeroMem = computed.nonZeroMemory();
    this.priority = computed.priority();
    this.hasNode = !pod.spec().nodeName().isEmpty();
    this.hasAffinity = NodeInfos.hasAffinity(pod);
    this.hasRequiredAntiAffinity = NodeInfos.hasRequiredAntiAffinity(pod);
    this.rules = rules;
  }

  /** The view of {@code pod}. */
  static AutoscalerPodInfo of(Pod pod) {
    return new AutoscalerPodInfo(pod, PodInfos.of(pod), null);
  }

  /**
   * This pod without its node ({@code Pod.withNodeName("")}), or this view when it has none: the same object on
   * every call.
   */
  AutoscalerPodInfo unbound() {
    if (!hasNode) {
      return this;
    }
    AutoscalerPodInfo u = unbound;
    if (u == null) {
      u = new AutoscalerPodInfo(pod.withNodeName(""), this, rules());
      unbound = u;
    }
    return u;
  }

  /** {@link Drainability.PodRules#of} this pod. */
  Drainability.PodRules rules() {
    Drainability.PodRules r = rules;
    if (r == null) {
      r = Drainability.PodRules.of(pod);
      rules = r;
    }
    return r;
  }

  @Override public Pod pod() { return pod; }
  @Override public String key() { return key; }
  @Override public ResourceList requests() { return requests; }
  @Override public long nonZeroMilliCpu() { return nonZeroCpu; }
  @Override public long nonZeroMemory() { return nonZeroMem; }
  @Override public int priority() { return priority; }
  @Override public boolean hasAffinity() { return hasAffinity; }
  @Override public boolean hasRequiredAntiAffinity() { return hasRequiredAntiAffinity; }
  @Override public @Nullable Object simulationNote() { return simulationNote; }
  @Override public void simulationNote(@Nullable Object note) { simulationNote = note; }
  @Override public @Nullable Object hintNote() { return hintNote; }
  @Override public void hintNote(@Nullable Object note) { hintNote = note; }

  @Override
  public String toString() {
    return "PodInfo(" + key + ")";
  }
}
