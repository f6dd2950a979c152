package io.fleetkit.api.core;

import io.fleetkit.api.internal.LegacyIpWarnings;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
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
 * @param resources the pod-level resources ({@code spec.resources}, Kubernetes' PodLevelResources, KEP-2837): a
 *     budget of {@code cpu}, {@code memory} and {@code hugepages-<size>} shared by all containers, which takes
 *     precedence over the containers' sum in {@link #effectiveRequests()} and {@link #effectiveLimits()};
 *     {@link ResourceRequirements#NONE} when unset ({@code null} becomes it). The builder's {@link Builder#resources(ResourceList, ResourceList)}
 *     applies Kubernetes' defaulting of pod-level requests
 * @param schedulingGates the names of the pod's scheduling gates ({@code spec.schedulingGates}): while any is left the
 *     scheduler does not consider the pod; an update may only remove gates
 * @param resourceClaims the pod's resource claims ({@code spec.resourceClaims}, Dynamic Resource Allocation): each a
 *     name containers use in {@code resources.claims} and an existing ResourceClaim or a ResourceClaimTemplate; the
 *     scheduler allocates the claims' devices; empty when none ({@code null} becomes empty)
 * @param readinessGates the condition types of the pod's readiness gates ({@code spec.readinessGates[*].conditionType}):
 *     the pod is {@code Ready} only when its containers are and each of these conditions, written into its status by
 *     some other controller, is {@code True}; each a qualified name; immutable once the pod exists; empty when none
 *     ({@code null} becomes empty)
 * @param os the operating system the containers need ({@code spec.os}); {@code null} when unset. The containers'
 *     {@code lifecycle.stopSignal} needs it; immutable once the pod exists
 * @param serviceAccountName the service account the pod runs as ({@code spec.serviceAccountName}, a DNS-1123
 *     subdomain); empty when unset ({@code null} becomes empty), which ServiceAccount admission makes
 *     {@value #DEFAULT_SERVICE_ACCOUNT}; immutable once the pod exists
 * @param automountServiceAccountToken whether the service account's token is mounted into the containers
 *     ({@code spec.automountServiceAccountToken}); {@code null} when unset, the service account then decides
 * @param dnsPolicy how the pod's resolver is configured ({@code spec.dnsPolicy}); {@code null} becomes
 *     {@link DNSPolicy#ClusterFirst}, Kubernetes' default
 * @param dnsConfig DNS parameters added to those of the policy ({@code spec.dnsConfig}); {@code null} when unset,
 *     required with {@link DNSPolicy#None}
 * @param hostAliases entries added to the pod's hosts file ({@code spec.hostAliases}); empty when none
 *     ({@code null} becomes empty)
 * @param hostNetwork whether the pod uses its node's network namespace ({@code spec.hostNetwork}): its IPs are the
 *     node's, and each container port is a port of the node, so a pod's ports need {@code hostPort} equal to
 *     {@code containerPort}, which {@link Pod} defaults from {@code containerPort} as Kubernetes'
 *     {@code SetDefaults_Pod} does (a template keeps 0); immutable once the pod exists
 * @param imagePullSecrets names of secrets in the pod's namespace used to pull its images
 *     ({@code spec.imagePullSecrets[*].name}); ServiceAccount admission copies the account's when the pod names none;
 *     empty when none ({@code null} becomes empty); immutable once the pod exists
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
    String subdomain,
    ResourceRequirements resources,
    List<String> schedulingGates,
    List<PodResourceClaim> resourceClaims,
    List<String> readinessGates,
    @Nullable PodOS os,
    String serviceAccountName,
    @Nullable Boolean automountServiceAccountToken,
    DNSPolicy dnsPolicy,
    @Nullable PodDNSConfig dnsConfig,
    List<HostAlias> hostAliases,
    boolean hostNetwork,
    List<String> imagePullSecrets) {

  public static final String DEFAULT_SCHEDULER = "default-scheduler";
  /** The service account ServiceAccount admission gives a pod that names none. */
  public static final String DEFAULT_SERVICE_ACCOUNT = "default";

  /** The requests the scheduler assumes for a container that sets none of cpu or memory (non-zero scoring). */
  private static final ResourceList NON_ZERO_DEFAULTS = ResourceList.ofCpuMemory(100, 200L * 1024 * 1024);
  private static final String HUGEPAGES_PREFIX = "hugepages-";
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
    if (resources == null) { // an encoding written without the component (the store's JSON) decodes as unset
      resources = ResourceRequirements.NONE;
    }
    schedulingGates = schedulingGates == null ? List.of() : List.copyOf(schedulingGates); // likewise
    resourceClaims = resourceClaims == null || resourceClaims.isEmpty() ? List.of() : List.copyOf(resourceClaims);
    readinessGates = readinessGates == null || readinessGates.isEmpty() ? List.of() : List.copyOf(readinessGates);
    if (serviceAccountName == null) {
      serviceAccountName = "";
    }
    if (dnsPolicy == null) {
      dnsPolicy = DNSPolicy.ClusterFirst;
    }
    hostAliases = hostAliases == null || hostAliases.isEmpty() ? List.of() : List.copyOf(hostAliases);
    imagePullSecrets = imagePullSecrets == null || imagePullSecrets.isEmpty() ? List.of()
        : List.copyOf(imagePullSecrets);
  }

  /** A spec without service account, DNS and host network settings. */
  public PodSpec(List<Container> containers, List<Container> initContainers, ResourceList overhead,
      @Nullable Integer priority, String priorityClassName, PreemptionPolicy preemptionPolicy,
      Map<String, String> nodeSelector, Affinity affinity, List<Toleration> tolerations,
      List<TopologySpreadConstraint> topologySpreadConstraints, String schedulerName, String nodeName,
      List<Volume> volumes, RestartPolicy restartPolicy, long terminationGracePeriodSeconds,
      @Nullable Long activeDeadlineSeconds, String hostname, String subdomain, ResourceRequirements resources,
      List<String> schedulingGates, List<PodResourceClaim> resourceClaims, List<String> readinessGates,
      @Nullable PodOS os) {
    this(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy, nodeSelector, affinity,
        tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes, restartPolicy,
        terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, resources, schedulingGates,
        resourceClaims, readinessGates, os, "", null, DNSPolicy.ClusterFirst, null, List.of(), false, List.of());
  }

  /** A spec without {@code os}. */
  public PodSpec(List<Container> containers, List<Container> initContainers, ResourceList overhead,
      @Nullable Integer priority, String priorityClassName, PreemptionPolicy preemptionPolicy,
      Map<String, String> nodeSelector, Affinity affinity, List<Toleration> tolerations,
      List<TopologySpreadConstraint> topologySpreadConstraints, String schedulerName, String nodeName,
      List<Volume> volumes, RestartPolicy restartPolicy, long terminationGracePeriodSeconds,
      @Nullable Long activeDeadlineSeconds, String hostname, String subdomain, ResourceRequirements resources,
      List<String> schedulingGates, List<PodResourceClaim> resourceClaims, List<String> readinessGates) {
    this(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy, nodeSelector, affinity,
        tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes, restartPolicy,
        terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, resources, schedulingGates,
        resourceClaims, readinessGates, null);
  }

  /** A spec without readiness gates. */
  public PodSpec(List<Container> containers, List<Container> initContainers, ResourceList overhead,
      @Nullable Integer priority, String priorityClassName, PreemptionPolicy preemptionPolicy,
      Map<String, String> nodeSelector, Affinity affinity, List<Toleration> tolerations,
      List<TopologySpreadConstraint> topologySpreadConstraints, String schedulerName, String nodeName,
      List<Volume> volumes, RestartPolicy restartPolicy, long terminationGracePeriodSeconds,
      @Nullable Long activeDeadlineSeconds, String hostname, String subdomain, ResourceRequirements resources,
      List<String> schedulingGates, List<PodResourceClaim> resourceClaims) {
    this(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy, nodeSelector, affinity,
        tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes, restartPolicy,
        terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, resources, schedulingGates,
        resourceClaims, List.of());
  }

  /** A spec without resource claims. */
  public PodSpec(List<Container> containers, List<Container> initContainers, ResourceList overhead,
      @Nullable Integer priority, String priorityClassName, PreemptionPolicy preemptionPolicy,
      Map<String, String> nodeSelector, Affinity affinity, List<Toleration> tolerations,
      List<TopologySpreadConstraint> topologySpreadConstraints, String schedulerName, String nodeName,
      List<Volume> volumes, RestartPolicy restartPolicy, long terminationGracePeriodSeconds,
      @Nullable Long activeDeadlineSeconds, String hostname, String subdomain, ResourceRequirements resources,
      List<String> schedulingGates) {
    this(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy, nodeSelector, affinity,
        tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes, restartPolicy,
        terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, resources, schedulingGates,
        List.of());
  }

  /** A spec without scheduling gates. */
  public PodSpec(List<Container> containers, List<Container> initContainers, ResourceList overhead,
      @Nullable Integer priority, String priorityClassName, PreemptionPolicy preemptionPolicy,
      Map<String, String> nodeSelector, Affinity affinity, List<Toleration> tolerations,
      List<TopologySpreadConstraint> topologySpreadConstraints, String schedulerName, String nodeName,
      List<Volume> volumes, RestartPolicy restartPolicy, long terminationGracePeriodSeconds,
      @Nullable Long activeDeadlineSeconds, String hostname, String subdomain, ResourceRequirements resources) {
    this(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy, nodeSelector, affinity,
        tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes, restartPolicy,
        terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, resources, List.of());
  }

  /** A spec without pod-level resources. */
  public PodSpec(List<Container> containers, List<Container> initContainers, ResourceList overhead,
      @Nullable Integer priority, String priorityClassName, PreemptionPolicy preemptionPolicy,
      Map<String, String> nodeSelector, Affinity affinity, List<Toleration> tolerations,
      List<TopologySpreadConstraint> topologySpreadConstraints, String schedulerName, String nodeName,
      List<Volume> volumes, RestartPolicy restartPolicy, long terminationGracePeriodSeconds,
      @Nullable Long activeDeadlineSeconds, String hostname, String subdomain) {
    this(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy, nodeSelector, affinity,
        tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes, restartPolicy,
        terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, ResourceRequirements.NONE);
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
        terminationGracePeriodSeconds, activeDeadlineSeconds, "", "", ResourceRequirements.NONE);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The API server's warnings for this spec's legacy IP fields (KEP-4858's warnings for
   * {@code spec.dnsConfig.nameservers[]} and {@code spec.hostAliases[].ip}, {@code GetWarningsForIP}), at
   * {@code path} ({@code spec} of a Pod, {@code spec.template.spec} of a workload): each nameserver, then each host
   * alias's address, in a non-standard form ({@link io.fleetkit.api.net.IpText#legacyWarning}). Their object is
   * empty: the warnings are of the object holding the spec.
   */
  public List<io.fleetkit.api.Violation> warnings(String path) {
    LegacyIpWarnings w = new LegacyIpWarnings("");
    if (dnsConfig != null) {
      w.ips(path + ".dnsConfig.nameservers", dnsConfig.nameservers());
    }
    for (int i = 0; i < hostAliases.size(); i++) {
      w.ip(path + ".hostAliases[" + i + "].ip", hostAliases.get(i).ip());
    }
    return w.warnings();
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  /** The resolved priority, 0 when unset (Kubernetes' {@code corev1helpers.PodPriority}). */
  public int priorityValue() {
    return priority == null ? 0 : priority;
  }

  /**
   * Whether {@code name} may be set at pod level ({@code spec.resources}): {@code cpu}, {@code memory} and
   * {@code hugepages-<size>}, as Kubernetes' {@code IsSupportedPodLevelResource}.
   */
  public static boolean isSupportedPodLevelResource(String name) {
    return name.equals(ResourceNames.CPU) || name.equals(ResourceNames.MEMORY) || name.startsWith(HUGEPAGES_PREFIX);
  }

  /** Whether pod-level requests or limits name a supported resource (Kubernetes' {@code IsPodLevelResourcesSet}). */
  public boolean hasPodLevelResources() {
    return hasPodLevelRequests() || anySupported(resources.limits());
  }

  /** Whether pod-level requests name a supported resource (Kubernetes' {@code IsPodLevelRequestsSet}). */
  public boolean hasPodLevelRequests() {
    return anySupported(resources.requests());
  }

  private static boolean anySupported(ResourceList list) {
    if (list.isEmpty()) {
      return false;
    }
    if (list.has(ResourceNames.CPU) || list.has(ResourceNames.MEMORY)) {
      return true;
    }
    for (String name : list.names()) {
      if (name.startsWith(HUGEPAGES_PREFIX)) {
        return true;
      }
    }
    return false;
  }

  /**
   * What the pod needs from a node, as Kubernetes' {@code PodRequests}: the sum of the regular containers'
   * requests, raised per resource to what any init container needs while it runs (its own request plus the
   * sidecars started before it), plus the sidecars (restartable init containers) which keep running beside the
   * regular containers; then, for each resource the pod-level {@link #resources()} request (cpu, memory,
   * hugepages), that value instead of the containers'; plus {@code overhead}. Requests default to limits (see
   * {@link ResourceRequirements}).
   *
   * <p>This is the one computation of a pod's requests: the scheduler, quota, the cluster autoscaler and the queues
   * all read it. Computed on every call; callers on hot paths cache the result per pod.
   */
  public ResourceList effectiveRequests() {
    if (initContainers.isEmpty() && overhead.isEmpty() && containers.size() == 1 && resources.requests().isEmpty()) {
      return containers.get(0).resources().requests();
    }
    return withOverhead(podLevel(containerRequests(), resources.requests()), false);
  }

  /**
   * {@link #effectiveRequests()} with {@code defaults} standing in for each resource a container (or init
   * container) does not request: Kubernetes' {@code PodRequests} with {@code NonMissingContainerRequests}. Pod-level
   * requests still take precedence.
   */
  public ResourceList effectiveRequests(ResourceList defaults) {
    if (defaults.isEmpty()) {
      return effectiveRequests();
    }
    return withOverhead(podLevel(aggregate(false, defaults), resources.requests()), false);
  }

  /**
   * The scheduler's non-zero requests for scoring ({@code milliCpu}, {@code memoryBytes}), as its
   * {@code calculateResource}: {@link #effectiveRequests(ResourceList)} with 100m cpu and 200Mi memory for each
   * container that requests none; when the pod has pod-level requests, a default applies only to a resource that
   * neither the pod level nor any container requests.
   *
   * @return {milliCpu, memoryBytes}
   */
  public long[] nonZeroRequests() {
    ResourceList defaults = NON_ZERO_DEFAULTS;
    if (hasPodLevelRequests()) {
      ResourceList requests = effectiveRequests();
      ResourceList.Builder b = ResourceList.builder();
      if (!requests.has(ResourceNames.CPU)) {
        b.put(ResourceNames.CPU, NON_ZERO_DEFAULTS.get(ResourceNames.CPU));
      }
      if (!requests.has(ResourceNames.MEMORY)) {
        b.put(ResourceNames.MEMORY, NON_ZERO_DEFAULTS.get(ResourceNames.MEMORY));
      }
      defaults = b.build();
      if (defaults.isEmpty()) {
        return new long[] {requests.milliCpu(), requests.memoryBytes()};
      }
    } else if (initContainers.isEmpty() && overhead.isEmpty() && containers.size() == 1) {
      ResourceList r = containers.get(0).resources().requests();
      return new long[] {r.has(ResourceNames.CPU) ? r.milliCpu() : NON_ZERO_DEFAULTS.milliCpu(),
          r.has(ResourceNames.MEMORY) ? r.memoryBytes() : NON_ZERO_DEFAULTS.memoryBytes()};
    }
    ResourceList r = effectiveRequests(defaults);
    return new long[] {r.milliCpu(), r.memoryBytes()};
  }

  /**
   * The containers' requests alone, as Kubernetes' {@code AggregateContainerRequests}: regular containers and
   * sidecars summed, raised to the largest init phase; no pod-level resources, no overhead.
   */
  public ResourceList containerRequests() {
    return aggregate(false, ResourceList.EMPTY);
  }

  /** The containers' limits alone, as Kubernetes' {@code AggregateContainerLimits}. */
  public ResourceList containerLimits() {
    return aggregate(true, ResourceList.EMPTY);
  }

  /**
   * The pod's limits, as Kubernetes' {@code PodLimits}: the containers' limits aggregated like the requests; for the
   * resources the pod-level {@link #resources()} limits (cpu, memory, hugepages), those values instead; then
   * {@code overhead} added to each resource that has a non-zero limit.
   */
  public ResourceList effectiveLimits() {
    if (initContainers.isEmpty() && overhead.isEmpty() && containers.size() == 1 && resources.limits().isEmpty()) {
      return containers.get(0).resources().limits();
    }
    ResourceList limits = containerLimits();
    if (hasPodLevelResources()) {
      limits = podLevel(limits, resources.limits());
    }
    return withOverhead(limits, true);
  }

  /**
   * {@link #effectiveRequests()} without {@code overhead} (Kubernetes' {@code PodRequests} with
   * {@code ExcludeOverhead}): the containers' aggregate with the pod-level requests taking precedence, as
   * LimitRanger's constraints of type Pod read a pod.
   */
  public ResourceList effectiveRequestsExcludingOverhead() {
    return podLevel(containerRequests(), resources.requests());
  }

  /** {@link #effectiveLimits()} without {@code overhead} ({@code PodLimits} with {@code ExcludeOverhead}). */
  public ResourceList effectiveLimitsExcludingOverhead() {
    return podLevel(containerLimits(), resources.limits());
  }

  /** {@code list} with the supported pod-level values of {@code podLevel} taking precedence. */
  private static ResourceList podLevel(ResourceList list, ResourceList podLevel) {
    if (podLevel.isEmpty()) {
      return list;
    }
    ResourceList.Builder b = null;
    for (String name : podLevel.names()) {
      if (isSupportedPodLevelResource(name)) {
        if (b == null) {
          b = ResourceList.builder();
        }
        b.put(name, podLevel.get(name));
      }
    }
    if (b == null) {
      return list;
    }
    ResourceList overrides = b.build();
    for (String name : list.names()) {
      if (!overrides.has(name)) {
        b.put(name, list.get(name));
      }
    }
    return b.build();
  }

  /** {@code list} plus overhead: to every resource, or (limits) only to those with a non-zero value. */
  private ResourceList withOverhead(ResourceList list, boolean onlyNonZero) {
    if (overhead.isEmpty()) {
      return list;
    }
    if (!onlyNonZero) {
      return list.add(overhead);
    }
    ResourceList.Builder b = ResourceList.builder();
    for (String name : list.names()) {
      Quantity q = list.get(name);
      b.put(name, overhead.has(name) && q.signum() != 0 ? q.add(overhead.get(name)) : q);
    }
    return b.build();
  }

  /**
   * The one aggregation of container resources (requests, or limits when {@code limits}), with {@code defaults}
   * for the resources a container leaves out.
   */
  private ResourceList aggregate(boolean limits, ResourceList defaults) {
    ResourceList sum = ResourceList.EMPTY;
    for (Container c : containers) {
      sum = sum.add(of(c, limits, defaults));
    }
    if (initContainers.isEmpty()) {
      return sum;
    }
    ResourceList sidecars = ResourceList.EMPTY;
    ResourceList initMax = ResourceList.EMPTY;
    for (Container c : initContainers) {
      ResourceList r = of(c, limits, defaults);
      ResourceList whileRunning;
      if (c.isRestartable()) {
        sum = sum.add(r);
        sidecars = sidecars.add(r);
        whileRunning = sidecars;
      } else {
        whileRunning = sidecars.add(r);
      }
      initMax = initMax.max(whileRunning);
    }
    return sum.max(initMax);
  }

  private static ResourceList of(Container c, boolean limits, ResourceList defaults) {
    ResourceList r = limits ? c.resources().limits() : c.resources().requests();
    if (defaults.isEmpty()) {
      return r;
    }
    ResourceList.Builder b = null;
    for (String name : defaults.names()) {
      if (!r.has(name)) {
        if (b == null) {
          b = ResourceList.builder();
        }
        b.put(name, defaults.get(name));
      }
    }
    return b == null ? r : r.add(b.build());
  }

  /**
   * Kubernetes' defaulting of pod-level resources ({@code SetDefaults_Pod}): when the pod sets pod-level resources,
   * a hugepages limit the pod level leaves out becomes the containers' aggregate limit for it; then, when it has
   * pod-level limits, each supported resource without a pod-level request gets the containers' aggregate request
   * for it, or else its pod-level limit.
   *
   * @return {@link ResourceRequirements#NONE} when both lists are empty
   */
  public static ResourceRequirements defaultPodLevelResources(List<Container> containers,
      List<Container> initContainers, ResourceList requests, ResourceList limits) {
    if (requests.isEmpty() && limits.isEmpty()) {
      return ResourceRequirements.NONE;
    }
    PodSpec probe = builder().containers(containers).initContainers(initContainers).build();
    ResourceList.Builder lim = null;
    for (var e : probe.containerLimits().asMap().entrySet()) {
      if (e.getKey().startsWith(HUGEPAGES_PREFIX) && !limits.has(e.getKey())) {
        if (lim == null) {
          lim = ResourceList.builder();
        }
        lim.put(e.getKey(), e.getValue());
      }
    }
    if (lim != null) {
      limits = limits.add(lim.build());
    }
    if (limits.isEmpty()) {
      return new ResourceRequirements(requests, limits);
    }
    ResourceList.Builder req = null;
    for (var e : probe.containerRequests().asMap().entrySet()) {
      if (isSupportedPodLevelResource(e.getKey()) && !requests.has(e.getKey())) {
        if (req == null) {
          req = ResourceList.builder();
        }
        req.put(e.getKey(), e.getValue());
      }
    }
    if (req != null) {
      requests = requests.add(req.build());
    }
    return new ResourceRequirements(requests, limits); // the rest default to the pod-level limits
  }

  public PodSpec withNodeName(String node) {
    return new PodSpec(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy,
        nodeSelector, affinity, tolerations, topologySpreadConstraints, schedulerName, node, volumes, restartPolicy,
        terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, resources, schedulingGates,
        resourceClaims, readinessGates, os, serviceAccountName, automountServiceAccountToken, dnsPolicy,
        dnsConfig, hostAliases, hostNetwork, imagePullSecrets);
  }

  /** This spec with the priority fields that Priority admission resolves. */
  public PodSpec withPriority(@Nullable Integer newPriority, String newClassName, PreemptionPolicy newPolicy) {
    return new PodSpec(containers, initContainers, overhead, newPriority, newClassName, newPolicy, nodeSelector,
        affinity, tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes, restartPolicy,
        terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, resources, schedulingGates,
        resourceClaims, readinessGates, os, serviceAccountName, automountServiceAccountToken, dnsPolicy,
        dnsConfig, hostAliases, hostNetwork, imagePullSecrets);
  }

  public PodSpec withTolerations(List<Toleration> newTolerations) {
    return new PodSpec(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy,
        nodeSelector, affinity, newTolerations, topologySpreadConstraints, schedulerName, nodeName, volumes,
        restartPolicy, terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, resources,
        schedulingGates, resourceClaims, readinessGates, os, serviceAccountName, automountServiceAccountToken,
        dnsPolicy, dnsConfig, hostAliases, hostNetwork, imagePullSecrets);
  }

  public PodSpec withPriority(@Nullable Integer newPriority) {
    return new PodSpec(containers, initContainers, overhead, newPriority, priorityClassName, preemptionPolicy,
        nodeSelector, affinity, tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes,
        restartPolicy, terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, resources,
        schedulingGates, resourceClaims, readinessGates, os, serviceAccountName, automountServiceAccountToken,
        dnsPolicy, dnsConfig, hostAliases, hostNetwork, imagePullSecrets);
  }

  /** This spec pulling its images with the secrets {@code names}, as ServiceAccount admission copies them. */
  public PodSpec withImagePullSecrets(List<String> names) {
    return new PodSpec(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy,
        nodeSelector, affinity, tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes,
        restartPolicy, terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, resources,
        schedulingGates, resourceClaims, readinessGates, os, serviceAccountName, automountServiceAccountToken,
        dnsPolicy, dnsConfig, hostAliases, hostNetwork, names);
  }

  /**
   * This spec with other containers, init containers and volumes, as ServiceAccount admission adds its token volume
   * and the containers' mounts of it.
   */
  public PodSpec withVolumes(List<Container> newContainers, List<Container> newInitContainers,
      List<Volume> newVolumes) {
    return new PodSpec(newContainers, newInitContainers, overhead, priority, priorityClassName, preemptionPolicy,
        nodeSelector, affinity, tolerations, topologySpreadConstraints, schedulerName, nodeName, newVolumes,
        restartPolicy, terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, resources,
        schedulingGates, resourceClaims, readinessGates, os, serviceAccountName, automountServiceAccountToken,
        dnsPolicy, dnsConfig, hostAliases, hostNetwork, imagePullSecrets);
  }

  /** This spec running as the service account {@code name}, as ServiceAccount admission defaults it. */
  public PodSpec withServiceAccountName(String name) {
    return new PodSpec(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy,
        nodeSelector, affinity, tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes,
        restartPolicy, terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, resources,
        schedulingGates, resourceClaims, readinessGates, os, name, automountServiceAccountToken, dnsPolicy, dnsConfig,
        hostAliases, hostNetwork, imagePullSecrets);
  }

  /**
   * This spec as Kubernetes' {@code SetDefaults_Pod} leaves a pod's: with {@link #hostNetwork}, every port of the
   * containers and init containers without a {@code hostPort} gets its {@code containerPort} ({@code
   * defaultHostNetworkPorts}); this same spec when there is nothing to default. Pod templates are not defaulted.
   */
  public PodSpec withHostNetworkPortsDefaulted() {
    if (!hostNetwork || (!lacksHostPort(containers) && !lacksHostPort(initContainers))) {
      return this;
    }
    return new PodSpec(hostNetworkPorts(containers), hostNetworkPorts(initContainers), overhead, priority,
        priorityClassName, preemptionPolicy, nodeSelector, affinity, tolerations, topologySpreadConstraints,
        schedulerName, nodeName, volumes, restartPolicy, terminationGracePeriodSeconds, activeDeadlineSeconds,
        hostname, subdomain, resources, schedulingGates, resourceClaims, readinessGates, os, serviceAccountName,
        automountServiceAccountToken, dnsPolicy, dnsConfig, hostAliases, true, imagePullSecrets);
  }

  private static boolean lacksHostPort(List<Container> list) {
    for (Container c : list) {
      for (ContainerPort p : c.ports()) {
        if (p.hostPort() == 0) {
          return true;
        }
      }
    }
    return false;
  }

  private static List<Container> hostNetworkPorts(List<Container> list) {
    if (!lacksHostPort(list)) {
      return list;
    }
    List<Container> out = new ArrayList<>(list.size());
    for (Container c : list) {
      List<ContainerPort> ports = new ArrayList<>(c.ports().size());
      for (ContainerPort p : c.ports()) {
        ports.add(p.hostPort() == 0 ? p.withHostPort(p.containerPort()) : p);
      }
      out.add(c.withPorts(ports));
    }
    return out;
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
    private ResourceRequirements resources = ResourceRequirements.NONE;
    private final List<String> schedulingGates;
    private final List<PodResourceClaim> resourceClaims;
    private final List<String> readinessGates;
    private @Nullable ResourceList podRequests;
    private @Nullable ResourceList podLimits;
    private @Nullable PodOS os;
    private String serviceAccountName = "";
    private @Nullable Boolean automountServiceAccountToken;
    private DNSPolicy dnsPolicy = DNSPolicy.ClusterFirst;
    private @Nullable PodDNSConfig dnsConfig;
    private final List<HostAlias> hostAliases;
    private boolean hostNetwork;
    private final List<String> imagePullSecrets;

    Builder() {
      containers = new ArrayList<>(2);
      initContainers = new ArrayList<>(0);
      nodeSelector = new LinkedHashMap<>();
      tolerations = new ArrayList<>(0);
      topologySpreadConstraints = new ArrayList<>(0);
      volumes = new ArrayList<>(0);
      schedulingGates = new ArrayList<>(0);
      resourceClaims = new ArrayList<>(0);
      readinessGates = new ArrayList<>(0);
      hostAliases = new ArrayList<>(0);
      imagePullSecrets = new ArrayList<>(0);
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
      resources = s.resources;
      schedulingGates = new ArrayList<>(s.schedulingGates);
      resourceClaims = new ArrayList<>(s.resourceClaims);
      readinessGates = new ArrayList<>(s.readinessGates);
      os = s.os;
      serviceAccountName = s.serviceAccountName;
      automountServiceAccountToken = s.automountServiceAccountToken;
      dnsPolicy = s.dnsPolicy;
      dnsConfig = s.dnsConfig;
      hostAliases = new ArrayList<>(s.hostAliases);
      hostNetwork = s.hostNetwork;
      imagePullSecrets = new ArrayList<>(s.imagePullSecrets);
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
    public Builder schedulingGates(List<String> v) {
      schedulingGates.clear();
      schedulingGates.addAll(v);
      return this;
    }
    public Builder schedulingGate(String v) { schedulingGates.add(v); return this; }
    public Builder resourceClaims(List<PodResourceClaim> v) {
      resourceClaims.clear();
      resourceClaims.addAll(v);
      return this;
    }
    public Builder resourceClaim(PodResourceClaim v) { resourceClaims.add(v); return this; }
    /** The condition types of the readiness gates ({@code spec.readinessGates[*].conditionType}), replacing any. */
    public Builder readinessGates(List<String> v) {
      readinessGates.clear();
      readinessGates.addAll(v);
      return this;
    }
    /** Adds a readiness gate on the pod condition of type {@code conditionType}. */
    public Builder readinessGate(String conditionType) { readinessGates.add(conditionType); return this; }
    /** The operating system the containers need ({@code spec.os}); {@code null} for none. */
    public Builder os(@Nullable PodOS v) { os = v; return this; }
    /** The service account the pod runs as ({@code spec.serviceAccountName}); empty for unset. */
    public Builder serviceAccountName(String v) { serviceAccountName = v; return this; }
    /** Whether the service account's token is mounted; {@code null} leaves it to the service account. */
    public Builder automountServiceAccountToken(@Nullable Boolean v) {
      automountServiceAccountToken = v;
      return this;
    }
    public Builder dnsPolicy(DNSPolicy v) { dnsPolicy = Objects.requireNonNull(v, "dnsPolicy"); return this; }
    /** DNS parameters added to those of the policy ({@code spec.dnsConfig}); {@code null} for none. */
    public Builder dnsConfig(@Nullable PodDNSConfig v) { dnsConfig = v; return this; }
    public Builder hostAliases(List<HostAlias> v) { hostAliases.clear(); hostAliases.addAll(v); return this; }
    public Builder hostAlias(HostAlias v) { hostAliases.add(v); return this; }
    /** Whether the pod uses its node's network namespace ({@code spec.hostNetwork}). */
    public Builder hostNetwork(boolean v) { hostNetwork = v; return this; }
    /** Names of the secrets to pull images with ({@code spec.imagePullSecrets}). */
    public Builder imagePullSecrets(List<String> v) {
      imagePullSecrets.clear();
      imagePullSecrets.addAll(v);
      return this;
    }

    /** Pod-level resources taken as they are (already defaulted, as {@link PodSpec#resources()} returns them). */
    public Builder resources(ResourceRequirements v) {
      resources = Objects.requireNonNull(v, "resources");
      podRequests = null;
      podLimits = null;
      return this;
    }

    /**
     * Pod-level resources as a manifest sets them; {@link #build()} applies Kubernetes' defaulting
     * ({@link PodSpec#defaultPodLevelResources}) against the containers it ends up with.
     */
    public Builder resources(ResourceList requests, ResourceList limits) {
      podRequests = Objects.requireNonNull(requests, "requests");
      podLimits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    public PodSpec build() {
      ResourceRequirements r = podRequests == null || podLimits == null ? resources
          : defaultPodLevelResources(containers, initContainers, podRequests, podLimits);
      return new PodSpec(containers, initContainers, overhead, priority, priorityClassName, preemptionPolicy,
          nodeSelector, affinity, tolerations, topologySpreadConstraints, schedulerName, nodeName, volumes,
          restartPolicy, terminationGracePeriodSeconds, activeDeadlineSeconds, hostname, subdomain, r,
          schedulingGates, resourceClaims, readinessGates, os, serviceAccountName, automountServiceAccountToken,
        dnsPolicy, dnsConfig, hostAliases, hostNetwork, imagePullSecrets);
    }
  }
}
