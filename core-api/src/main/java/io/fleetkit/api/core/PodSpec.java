package io.fleetkit.api.core;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The desired part of a pod. The canonical constructor copies and null-checks; rules spanning fields (unique
 * container names, requests within limits) are checked by the owning object ({@link Pod}, or the workload whose
 * template this is), so that violations name the right object and path. Use {@link #builder()} for Kubernetes'
 * defaults.
 *
 * @param priority {@code null} until resolved from {@code priorityClassName} (see {@link #priorityValue()})
 * @param schedulerName empty becomes {@value #DEFAULT_SCHEDULER}
 * @param nodeName empty while unbound
 * @param activeDeadlineSeconds {@code null} when unbounded
 * @param hostname the pod's DNS hostname ({@code spec.hostname}); empty when unset
 * @param subdomain with {@code hostname}, the headless Service that gives the pod the DNS name
 *     {@code hostname.subdomain.namespace.svc.<zone>} ({@code spec.subdomain}); empty when unset
 */
public record PodSpec(
    List<Container> containers,
    List<Container> initContainers,
    ResourceList overhead,
    @Nullable Integer priority,
    String priorityClassName,
    PreemptionPolicy preemptionPolicy,
    Map<String, String> nodeSelector,
    Affinity affinity,
    List<Toleration> tolerations,
    List<TopologySpreadConstraint> topologySpreadConstraints,
    String schedulerName,
    String nodeName,
    List<Volume> volumes,
    RestartPolicy restartPolicy,
    long terminationGracePeriodSeconds,
    @Nullable Long activeDeadlineSeconds,
    String hostname,
    String subdomain) {

  public static final String DEFAULT_SCHEDULER = "default-scheduler";
  public static final long DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;

  public PodSpec {
    containers = List.copyOf(containers);
    initContainers = List.copyOf(initContainers);
    Objects.requireNonNull(overhead, "overhead");
    Objects.requireNonNull(priorityClassName, "priorityClassName");
    Objects.requireNonNull(preemptionPolicy, "preemptionPolicy");
    nodeSelector = Map.copyOf(nodeSelector);
    Objects.requireNonNull(affinity, "affinity");
    tolerations = List.copyOf(tolerations);
    topologySpreadConstraints = List.copyOf(topologySpreadConstraints);
    Objects.requireNonNull(schedulerName, "schedulerName");
    if (schedulerName.isEmpty()) {
      schedulerName = DEFAULT_SCHEDULER;
    }
    Objects.requireNonNull(nodeName, "nodeName");
    volumes = List.copyOf(volumes);
    Objects.requireNonNull(restartPolicy, "restartPolicy");
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(subdomain, "subdomain");
  }

  /** A spec without {@code hostname} and {@code subdomain}. */
  public PodSpec(List<Container> containers, List<Container> initContainers, ResourceList overhead,
      @Nullable Integer priority, String priorityClassName, PreemptionPolicy preemptionPolicy,
      Map<String, String> nodeSelector, Affinity affinity, List<Toleration> tolerations,
      List<TopologySpreadConstraint> topologySpreadConstraints, String schedulerName, String nodeName,
      List<Volume> volumes, RestartPolicy restartPolicy, long terminationGracePeriodSeconds,
      @Nullable Long activeDeadlineSeconds) {
    this(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy, nodeSelector, affinity,
        tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes, restartPolicy,
        terminationGracePeriodSeconds, activeDeadlineSeconds, "", "");
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  /** The resolved priority, 0 when unset (Kubernetes' {@code corev1helpers.PodPriority}). */
  public int priorityValue() {
    return priority == null ? 0 : priority;
  }

  /**
   * What the pod needs from a node, as Kubernetes' {@code PodRequests}: the sum of the regular containers'
   * requests, raised per resource to what any init container needs while it runs (its own request plus the
   * sidecars started before it), plus the sidecars (restartable init containers) which keep running beside the
   * regular containers, plus {@code overhead}. Requests default to limits (see {@link ResourceRequirements}).
   *
   * <p>Computed on every call; callers on hot paths cache the result per pod.
   */
  public ResourceList effectiveRequests() {
    if (initContainers.isEmpty() && overhead.isEmpty() && containers.size() == 1) {
      return containers.get(0).resources().requests();
    }
    ResourceList reqs = ResourceList.EMPTY;
    for (Container c : containers) {
      reqs = reqs.add(c.resources().requests());
    }
    if (!initContainers.isEmpty()) {
      ResourceList sidecars = ResourceList.EMPTY;
      ResourceList initMax = ResourceList.EMPTY;
      for (Container c : initContainers) {
        ResourceList r = c.resources().requests();
        ResourceList whileRunning;
        if (c.isRestartable()) {
          reqs = reqs.add(r);
          sidecars = sidecars.add(r);
          whileRunning = sidecars;
        } else {
          whileRunning = sidecars.add(r);
        }
        initMax = initMax.max(whileRunning);
      }
      reqs = reqs.max(initMax);
    }
    return reqs.add(overhead);
  }

  public PodSpec withNodeName(String node) {
    return new PodSpec(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy,
        nodeSelector, affinity, tolerations, topologySpreadConstraints, schedulerName, node, volumes, restartPolicy,
        terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain);
  }

  /** This spec with the priority fields that Priority admission resolves. */
  public PodSpec withPriority(@Nullable Integer newPriority, String newClassName, PreemptionPolicy newPolicy) {
    return new PodSpec(containers, initContainers, overhead, newPriority, newClassName, newPolicy, nodeSelector,
        affinity, tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes, restartPolicy,
        terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain);
  }

  public PodSpec withTolerations(List<Toleration> newTolerations) {
    return new PodSpec(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy,
        nodeSelector, affinity, newTolerations, topologySpreadConstraints, schedulerName, nodeName, volumes,
        restartPolicy, terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain);
  }

  public PodSpec withPriority(@Nullable Integer newPriority) {
    return new PodSpec(containers, initContainers, overhead, newPriority, priorityClassName, preemptionPolicy,
        nodeSelector, affinity, tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes,
        restartPolicy, terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain);
  }

  /** Mutable builder with Kubernetes' defaults; not thread-safe. */
  public static final class Builder {
    private final List<Container> containers;
    private final List<Container> initContainers;
    private ResourceList overhead = ResourceList.EMPTY;
    private @Nullable Integer priority;
    private String priorityClassName = "";
    private PreemptionPolicy preemptionPolicy = PreemptionPolicy.PreemptLowerPriority;
    private final Map<String, String> nodeSelector;
    private Affinity affinity = Affinity.NONE;
    private final List<Toleration> tolerations;
    private final List<TopologySpreadConstraint> topologySpreadConstraints;
    private String schedulerName = DEFAULT_SCHEDULER;
    private String nodeName = "";
    private final List<Volume> volumes;
    private RestartPolicy restartPolicy = RestartPolicy.Always;
    private long terminationGracePeriodSeconds = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
    private @Nullable Long activeDeadlineSeconds;
    private String hostname = "";
    private String subdomain = "";

    Builder() {
      containers = new ArrayList<>(2);
      initContainers = new ArrayList<>(0);
      nodeSelector = new LinkedHashMap<>();
      tolerations = new ArrayList<>(0);
      topologySpreadConstraints = new ArrayList<>(0);
      volumes = new ArrayList<>(0);
    }

    Builder(PodSpec s) {
      containers = new ArrayList<>(s.containers);
      initContainers = new ArrayList<>(s.initContainers);
      overhead = s.overhead;
      priority = s.priority;
      priorityClassName = s.priorityClassName;
      preemptionPolicy = s.preemptionPolicy;
      nodeSelector = new LinkedHashMap<>(s.nodeSelector);
      affinity = s.affinity;
      tolerations = new ArrayList<>(s.tolerations);
      topologySpreadConstraints = new ArrayList<>(s.topologySpreadConstraints);
      schedulerName = s.schedulerName;
      nodeName = s.nodeName;
      volumes = new ArrayList<>(s.volumes);
      restartPolicy = s.restartPolicy;
      terminationGracePeriodSeconds = s.terminationGracePeriodSeconds;
      activeDeadlineSeconds = s.activeDeadlineSeconds;
      hostname = s.hostname;
      subdomain = s.subdomain;
    }

    public Builder containers(List<Container> v) { containers.clear(); containers.addAll(v); return this; }
    public Builder container(Container v) { containers.add(v); return this; }
    public Builder container(String name, String image, ResourceList requests) {
      return container(Container.of(name, image, requests));
    }
    public Builder initContainers(List<Container> v) { initContainers.clear(); initContainers.addAll(v); return this; }
    public Builder initContainer(Container v) { initContainers.add(v); return this; }
    public Builder initContainer(String name, String image, ResourceList requests) {
      return initContainer(Container.of(name, image, requests));
    }
    public Builder overhead(ResourceList v) { overhead = v; return this; }
    public Builder priority(@Nullable Integer v) { priority = v; return this; }
    public Builder priorityClassName(String v) { priorityClassName = v; return this; }
    public Builder preemptionPolicy(PreemptionPolicy v) { preemptionPolicy = v; return this; }
    public Builder nodeSelector(Map<String, String> v) { nodeSelector.clear(); nodeSelector.putAll(v); return this; }
    public Builder nodeSelector(String key, String value) { nodeSelector.put(key, value); return this; }
    public Builder affinity(Affinity v) { affinity = v; return this; }
    public Builder tolerations(List<Toleration> v) { tolerations.clear(); tolerations.addAll(v); return this; }
    public Builder toleration(Toleration v) { tolerations.add(v); return this; }
    public Builder topologySpreadConstraints(List<TopologySpreadConstraint> v) {
      topologySpreadConstraints.clear();
      topologySpreadConstraints.addAll(v);
      return this;
    }
    public Builder topologySpreadConstraint(TopologySpreadConstraint v) { topologySpreadConstraints.add(v); return this; }
    public Builder schedulerName(String v) { schedulerName = v; return this; }
    public Builder nodeName(String v) { nodeName = v; return this; }
    public Builder volumes(List<Volume> v) { volumes.clear(); volumes.addAll(v); return this; }
    public Builder volume(Volume v) { volumes.add(v); return this; }
    public Builder restartPolicy(RestartPolicy v) { restartPolicy = v; return this; }
    public Builder terminationGracePeriodSeconds(long v) { terminationGracePeriodSeconds = v; return this; }
    public Builder activeDeadlineSeconds(@Nullable Long v) { activeDeadlineSeconds = v; return this; }
    public Builder hostname(String v) { hostname = v; return this; }
    public Builder subdomain(String v) { subdomain = v; return this; }

    public PodSpec build() {
      return new PodSpec(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy,
          nodeSelector, affinity, tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes,
          restartPolicy, terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain);
    }
  }
}
