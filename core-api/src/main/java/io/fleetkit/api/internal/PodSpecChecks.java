package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.ContainerResourceClaim;
import io.fleetkit.api.core.PodOS;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeMount;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.labels.Validation;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.SchedulingValidation;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Validates a {@link PodSpec} the way Kubernetes' {@code ValidatePodSpec} does for the fields FleetKit models, with
 * Kubernetes' messages. Used by Pod and by every workload for its template. The scheduling fields (tolerations,
 * node affinity, topology spread constraints) are checked by the public
 * {@link io.fleetkit.api.scheduling.SchedulingValidation}, the one rule set for them.
 */
public final class PodSpecChecks {
  private PodSpecChecks() {}

  /**
   * Adds every violation of {@code spec} to {@code v}, with field paths under {@code path} (e.g. {@code spec} or
   * {@code spec.template.spec}). Field paths are only built for fields that break a rule, so that checking a valid
   * spec allocates almost nothing: this runs for every pod constructed.
   */
  public static void check(PodSpec spec, String path, Violations v) {
    check(spec, path, false, v);
  }

  /**
   * {@link #check(PodSpec, String, Violations)} with {@code resourceIsPod} as upstream's
   * {@code PodValidationOptions.ResourceIsPod}: a pod's spec (true) or a template's (false), which decides whether a
   * host-network port may leave {@code hostPort} unset.
   */
  public static void check(PodSpec spec, String path, boolean resourceIsPod, Violations v) {
    if (spec.hostNetwork()) {
      hostNetworkPorts(spec.containers(), path + ".containers", resourceIsPod, v);
    }
    if (spec.containers().isEmpty()) {
      v.required(path + ".containers");
    }
    Set<String> names = spec.containers().size() + spec.initContainers().size() > 1 ? new HashSet<>() : null;
    long grace = spec.terminationGracePeriodSeconds();
    PodOS os = spec.os();
    containers(spec.initContainers(), path, ".initContainers", true, names, grace, os, v);
    containers(spec.containers(), path, ".containers", false, names, grace, os, v);
    Set<String> volumeNames = containerMounts(spec.initContainers(), spec.volumes(), null, path, ".initContainers",
        v);
    containerMounts(spec.containers(), spec.volumes(), volumeNames, path, ".containers", v);
    if (os != null) {
      podOS(os, path + ".os", v);
    }
    Set<String> claimNames = spec.resourceClaims().isEmpty() ? Set.of() : podResourceClaims(spec.resourceClaims(),
        path + ".resourceClaims", v);
    containerClaims(spec.initContainers(), claimNames, path, ".initContainers", v);
    containerClaims(spec.containers(), claimNames, path, ".containers", v);
    if (!spec.overhead().isEmpty()) {
      resourceList(spec.overhead(), path + ".overhead", v);
    }
    ResourceRequirements podResources = spec.resources();
    if (!podResources.requests().isEmpty() || !podResources.limits().isEmpty()) {
      podResources(spec, path + ".resources", v);
    }
    if (!podResources.claims().isEmpty()) { // upstream's validatePodResourceRequirements
      v.add(path + ".resources.claims", "Forbidden: claims cannot be set for Resources", null);
    }
    if (!spec.priorityClassName().isEmpty() && !Names.isDnsSubdomain(spec.priorityClassName())) {
      v.dnsSubdomain(path + ".priorityClassName", spec.priorityClassName());
    }
    if (!spec.nodeSelector().isEmpty() && !Names.areLabels(spec.nodeSelector())) {
      v.labels(path + ".nodeSelector", spec.nodeSelector());
    }
    if (!spec.tolerations().isEmpty()) {
      v.addAll(SchedulingValidation.validateTolerations(spec.tolerations(), path + ".tolerations"));
    }
    NodeAffinity nodeAffinity = spec.affinity().nodeAffinity();
    if (nodeAffinity != null) {
      v.addAll(SchedulingValidation.validateNodeAffinityValues(nodeAffinity, path + ".affinity.nodeAffinity"));
    }
    if (!spec.topologySpreadConstraints().isEmpty()) {
      v.addAll(SchedulingValidation.validateTopologySpreadConstraintsExceptSelectors(
          spec.topologySpreadConstraints(), path + ".topologySpreadConstraints"));
    }
    if (!Names.isDnsSubdomain(spec.schedulerName())) {
      v.dnsSubdomain(path + ".schedulerName", spec.schedulerName());
    }
    if (!spec.nodeName().isEmpty() && !Names.isDnsSubdomain(spec.nodeName())) {
      v.dnsSubdomain(path + ".nodeName", spec.nodeName());
    }
    if (!spec.volumes().isEmpty()) {
      volumes(spec.volumes(), path + ".volumes", v);
    }
    if (spec.terminationGracePeriodSeconds() < 0) {
      v.nonNegative(path + ".terminationGracePeriodSeconds", spec.terminationGracePeriodSeconds());
    }
    Long deadline = spec.activeDeadlineSeconds();
    if (deadline != null && (deadline < 1 || deadline > Integer.MAX_VALUE)) {
      v.positiveInt32(path + ".activeDeadlineSeconds", deadline);
    }
    if (!spec.schedulingGates().isEmpty()) {
      schedulingGates(spec.schedulingGates(), path + ".schedulingGates", v);
    }
    List<String> readinessGates = spec.readinessGates();
    for (int i = 0; i < readinessGates.size(); i++) { // upstream's validateReadinessGates: no duplicate check
      v.qualifiedName(path + ".readinessGates[" + i + "].conditionType", readinessGates.get(i));
    }
    PodDnsChecks.check(spec, path, v);
  }

  /**
   * The part of upstream's {@code ValidateVolumes} that needs the pod's name: the claim of each generic ephemeral
   * volume, {@code <pod name>-<volume name>}, must be a valid claim name (a DNS-1123 subdomain), reported on the
   * volume's name as {@code PVC name "...": <rule>} (skipped while either name is empty, reported elsewhere, as
   * upstream); and a persistentVolumeClaim volume must not name a claim made for one of the pod's ephemeral volumes.
   */
  public static void ephemeralClaimNames(String podName, PodSpec spec, String path, Violations v) {
    if (podName.isEmpty()) {
      return;
    }
    List<Volume> list = spec.volumes();
    Set<String> created = null;
    for (int i = 0; i < list.size(); i++) {
      Volume vol = list.get(i);
      if (!(vol.source() instanceof VolumeSource.Ephemeral)) {
        continue;
      }
      String claim = VolumeSource.Ephemeral.claimName(podName, vol.name());
      if (created == null) {
        created = new HashSet<>();
      }
      created.add(claim);
      if (!vol.name().isEmpty() && !Names.isDnsSubdomain(claim)) {
        for (String msg : Validation.isDNS1123Subdomain(claim)) {
          v.add(path + "[" + i + "].name", "PVC name \"" + claim + "\": " + msg, vol.name());
        }
      }
    }
    for (int i = 0; created != null && i < list.size(); i++) {
      if (list.get(i).source() instanceof VolumeSource.PersistentVolumeClaim c && created.contains(c.claimName())) {
        v.add(path + "[" + i + "].persistentVolumeClaim.claimName",
            "must not reference a PVC that gets created for an ephemeral volume", c.claimName());
      }
    }
  }

  /**
   * Upstream's {@code validatePodResourceClaims}: each entry's name a DNS label, unique in the pod, and exactly one
   * source, a valid claim or template name (a DNS subdomain).
   *
   * @return the valid entry names, for the containers' {@code resources.claims}
   */
  private static Set<String> podResourceClaims(List<PodResourceClaim> claims, String path, Violations v) {
    Set<String> names = new java.util.TreeSet<>();
    for (int i = 0; i < claims.size(); i++) {
      PodResourceClaim c = claims.get(i);
      String at = path + "[" + i + "]";
      if (c.name().isEmpty()) {
        v.required(at + ".name");
      } else if (names.contains(c.name())) {
        v.add(at + ".name", Violations.DUPLICATE, c.name());
      } else {
        if (!Names.isDnsLabel(c.name())) {
          v.dnsLabel(at + ".name", c.name());
        }
        names.add(c.name());
      }
      boolean claim = !c.resourceClaimName().isEmpty();
      boolean template = !c.resourceClaimTemplateName().isEmpty();
      if (!claim && !template) {
        v.add(at, "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`", "");
      } else if (claim && template) {
        v.add(at, "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified", "");
      } else if (claim && !Names.isDnsSubdomain(c.resourceClaimName())) {
        v.dnsSubdomain(at + ".resourceClaimName", c.resourceClaimName());
      } else if (template && !Names.isDnsSubdomain(c.resourceClaimTemplateName())) {
        v.dnsSubdomain(at + ".resourceClaimTemplateName", c.resourceClaimTemplateName());
      }
    }
    return names;
  }

  /**
   * Upstream's {@code validateResourceClaimNames} for each container's {@code resources.claims}: a name that is an
   * entry of {@code spec.resourceClaims}, each claim (or claim and request) once, a request a DNS label.
   */
  private static void containerClaims(List<Container> list, Set<String> podClaims, String base, String field,
      Violations v) {
    for (int i = 0; i < list.size(); i++) {
      List<ContainerResourceClaim> claims = list.get(i).resources().claims();
      if (claims.isEmpty()) {
        continue;
      }
      String path = at(base, field, i) + ".resources.claims";
      Set<String> seen = new HashSet<>();
      for (int j = 0; j < claims.size(); j++) {
        ContainerResourceClaim c = claims.get(j);
        String at = path + "[" + j + "]";
        if (c.name().isEmpty()) {
          v.required(at);
        } else {
          String key = c.request().isEmpty() ? c.name() : c.name() + "/" + c.request();
          if (!seen.add(key)) {
            v.add(at, Violations.DUPLICATE, key);
          }
          if (!podClaims.contains(c.name())) {
            v.add(at, "Not found: must be one of the names in pod.spec.resourceClaims"
                + (podClaims.isEmpty() ? " which is empty" : ": " + String.join(", ", podClaims)), c.name());
          }
        }
        if (!c.request().isEmpty() && !Names.isDnsLabel(c.request())) {
          v.dnsLabel(at + ".request", c.request());
        }
      }
    }
  }

  /**
   * Whether a pod whose valid spec has {@code volumes} stays valid when {@code added} (unless {@code null}) joins
   * them and {@code mount} is added to containers that mount nothing at its path: the volume's name is a free DNS
   * label and its source valid, and the mount names one of the volumes, with a path and a valid sub-path.
   */
  public static boolean addedVolumeValid(List<Volume> volumes, @Nullable Volume added, VolumeMount mount) {
    boolean named = added != null && added.name().equals(mount.name());
    for (Volume vol : volumes) {
      if (added != null && vol.name().equals(added.name())) {
        return false;
      }
      named |= vol.name().equals(mount.name());
    }
    if (!named) {
      return false;
    }
    Violations v = new Violations("", "", "");
    if (added != null) {
      volumes(List.of(added), "", v);
    }
    volumeMounts(List.of(mount), Set.of(mount.name()), "", v);
    return v.isEmpty();
  }

  /**
   * Checks the volume mounts of each container of {@code list} ({@link #volumeMounts}) against the pod's
   * {@code volumes}, whose names are {@code volumeNames} when already collected; returns them when collected.
   */
  private static @Nullable Set<String> containerMounts(List<Container> list, List<Volume> volumes,
      @Nullable Set<String> volumeNames, String base, String field, Violations v) {
    for (int i = 0; i < list.size(); i++) {
      List<VolumeMount> mounts = list.get(i).volumeMounts();
      if (!mounts.isEmpty()) {
        if (volumeNames == null) {
          volumeNames = new HashSet<>();
          for (Volume vol : volumes) {
            volumeNames.add(vol.name());
          }
        }
        volumeMounts(mounts, volumeNames, at(base, field, i) + ".volumeMounts", v);
      }
    }
    return volumeNames;
  }

  /**
   * Upstream's {@code ValidateVolumeMounts} for one container's {@code mounts} at {@code path}: a name is required and
   * must be one of the pod's volumes ({@code Not found}), a mount path is required and unique within the container,
   * and a sub-path is a relative path without {@code ..} elements ({@code validateLocalDescendingPath}, reported on
   * {@code volumeMounts.subPath} without the mount's index, as upstream). Volume devices and mount propagation are
   * not modelled.
   */
  private static void volumeMounts(List<VolumeMount> mounts, Set<String> volumeNames, String path, Violations v) {
    Set<String> mountPoints = mounts.size() > 1 ? new HashSet<>() : null;
    for (int i = 0; i < mounts.size(); i++) {
      VolumeMount m = mounts.get(i);
      String at = path + "[" + i + "]";
      if (m.name().isEmpty()) {
        v.required(at + ".name");
      }
      if (!volumeNames.contains(m.name())) {
        v.add(at + ".name", "Not found", m.name());
      }
      if (m.mountPath().isEmpty()) {
        v.required(at + ".mountPath");
      }
      if (mountPoints != null && !mountPoints.add(m.mountPath())) {
        v.add(at + ".mountPath", "must be unique", m.mountPath());
      }
      if (!m.subPath().isEmpty()) {
        if (m.subPath().startsWith("/")) {
          v.add(path + ".subPath", "must be a relative path", m.subPath());
        }
        VolumeFileChecks.noBacksteps(m.subPath(), path + ".subPath", v);
      }
    }
  }

  /** Upstream's {@code validateSchedulingGates}: each name a qualified name, none twice. */
  private static void schedulingGates(List<String> gates, String path, Violations v) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < gates.size(); i++) {
      String gate = gates.get(i);
      if (!Names.isQualifiedName(gate)) {
        v.qualifiedName(path + "[" + i + "].name", gate);
      }
      if (!seen.add(gate)) {
        v.add(path + "[" + i + "].name", "Duplicate value", gate);
      }
    }
  }

  /** Upstream's {@code validateOS}: a name, and one of {@code validOS}. */
  private static void podOS(PodOS os, String path, Violations v) {
    if (os.name().isEmpty()) {
      v.required(path + ".name", "cannot be empty");
    } else if (!PodOS.NAMES.contains(os.name())) {
      v.add(path, LifecycleChecks.unsupported(PodOS.NAMES), os.name());
    }
  }

  /** Kubernetes' check that a workload's template uses one of the allowed restart policies. */
  public static void restartPolicyIn(PodSpec spec, String path, Violations v, RestartPolicy... allowed) {
    for (RestartPolicy p : allowed) {
      if (spec.restartPolicy() == p) {
        return;
      }
    }
    StringBuilder sb = new StringBuilder("Unsupported value: supported values: ");
    for (int i = 0; i < allowed.length; i++) {
      sb.append(i == 0 ? "" : ", ").append('"').append(allowed[i]).append('"');
    }
    v.add(path + ".restartPolicy", sb.toString(), spec.restartPolicy());
  }

  private static void containers(List<Container> list, String base, String field, boolean init,
      @Nullable Set<String> names, long gracePeriodSeconds, @Nullable PodOS os, Violations v) {
    for (int i = 0; i < list.size(); i++) {
      Container c = list.get(i);
      String name = c.name();
      if (name.isEmpty() || !Names.isDnsLabel(name)) {
        v.dnsLabel(at(base, field, i) + ".name", name);
      }
      if (!name.isEmpty() && names != null && !names.add(name)) {
        v.add(at(base, field, i) + ".name", Violations.DUPLICATE, name);
      }
      if (c.image().isEmpty()) {
        v.required(at(base, field, i) + ".image");
      }
      if (!init && c.restartPolicy() != null) {
        v.add(at(base, field, i) + ".restartPolicy", "Forbidden: may not be set for non-init containers",
            c.restartPolicy());
      }
      if (!resourcesValid(c.resources())) {
        resources(c.resources(), at(base, field, i) + ".resources", v);
      }
      if (c.livenessProbe() != null || c.readinessProbe() != null || c.startupProbe() != null) {
        ProbeChecks.check(c, at(base, field, i), init, v);
      }
      if (c.lifecycle() != null) {
        LifecycleChecks.check(c, at(base, field, i), init, gracePeriodSeconds, os, v);
      }
      if (!c.ports().isEmpty()) {
        containerPorts(c.ports(), at(base, field, i) + ".ports", v);
      }
      // names as RelaxedEnvironmentVariableValidation checks them: GA and locked on since Kubernetes 1.34
      if (!c.env().isEmpty()) {
        EnvChecks.env(c.env(), at(base, field, i) + ".env", true, v);
      }
      if (!c.envFrom().isEmpty()) {
        EnvChecks.envFrom(c.envFrom(), at(base, field, i) + ".envFrom", true, v);
      }
    }
  }

  /**
   * Upstream's {@code validateContainerPorts}: a name, when set, is a valid port name ({@code IsValidPortName}) and
   * unique among the container's valid ones; {@code containerPort} is required and a port number; a set
   * {@code hostPort} is a port number; the protocol is TCP, UDP or SCTP (an unset one is TCP, as defaulting writes).
   */
  private static void containerPorts(List<ContainerPort> ports, String path, Violations v) {
    Set<String> names = new HashSet<>();
    for (int j = 0; j < ports.size(); j++) {
      ContainerPort port = ports.get(j);
      String at = path + "[" + j + "]";
      if (!port.name().isEmpty()) {
        int before = v.violations().size();
        v.portName(at + ".name", port.name());
        if (v.violations().size() == before && !names.add(port.name())) {
          v.add(at + ".name", Violations.DUPLICATE, port.name());
        }
      }
      if (port.containerPort() == 0) {
        v.required(at + ".containerPort");
      } else if (port.containerPort() < 1 || port.containerPort() > 65535) {
        v.portNumber(at + ".containerPort", port.containerPort());
      }
      if (port.hostPort() != 0 && (port.hostPort() < 1 || port.hostPort() > 65535)) {
        v.portNumber(at + ".hostPort", port.hostPort());
      }
      if (!SUPPORTED_PORT_PROTOCOLS.contains(port.protocol())) {
        v.add(at + ".protocol", "Unsupported value: supported values: \"SCTP\", \"TCP\", \"UDP\"",
            port.protocol());
      }
    }
  }

  /**
   * Upstream's {@code validatePodHostNetworkDeps}: with {@code hostNetwork}, a container's port is a port of the node,
   * so {@code hostPort} must equal {@code containerPort}; a template may leave it 0, defaulted when its pods are made.
   * Init containers are not checked, as upstream.
   */
  private static void hostNetworkPorts(List<Container> containers, String path, boolean resourceIsPod,
      Violations v) {
    for (int i = 0; i < containers.size(); i++) {
      List<ContainerPort> ports = containers.get(i).ports();
      for (int j = 0; j < ports.size(); j++) {
        int hp = ports.get(j).hostPort();
        if ((resourceIsPod || hp != 0) && hp != ports.get(j).containerPort()) {
          v.add(path + "[" + i + "].ports[" + j + "].hostPort",
              "must match `containerPort` when `hostNetwork` is true", hp);
        }
      }
    }
  }

  /** Upstream's {@code supportedPortProtocols}. */
  private static final java.util.Set<String> SUPPORTED_PORT_PROTOCOLS = java.util.Set.of("TCP", "UDP", "SCTP");

  private static String at(String base, String field, int i) {
    return base + field + "[" + i + "]";
  }

  /** The allocation-free test behind {@link #resources}: true when it would find nothing. */
  private static boolean resourcesValid(ResourceRequirements r) {
    ResourceList limits = r.limits();
    ResourceList requests = r.requests();
    if (limits.isEmpty() && ResourceRequirements.onlyStandard(requests)) {
      return requests.milliCpu() >= 0 && requests.memoryBytes() >= 0 && requests.ephemeralStorageBytes() >= 0
          && requests.pods() >= 0;
    }
    for (Map.Entry<String, Quantity> e : limits.asMap().entrySet()) {
      if (!quantityValid(e.getKey(), e.getValue())) {
        return false;
      }
    }
    for (Map.Entry<String, Quantity> e : r.requests().asMap().entrySet()) {
      String name = e.getKey();
      Quantity req = e.getValue();
      if (!quantityValid(name, req)) {
        return false;
      }
      boolean overcommit = ResourceRequirements.isOvercommitAllowed(name);
      if (limits.has(name)) {
        int cmp = req.compareTo(limits.get(name));
        if (overcommit ? cmp > 0 : cmp != 0) {
          return false;
        }
      } else if (!overcommit) {
        return false;
      }
    }
    return true;
  }

  private static boolean quantityValid(String name, Quantity q) {
    return q.signum() >= 0 && (ResourceRequirements.isOvercommitAllowed(name) || name.startsWith("hugepages-")
        || q.toBigDecimal().stripTrailingZeros().scale() <= 0);
  }

  /** Kubernetes' {@code ValidateResourceRequirements}: non-negative values, requests within limits. */
  public static void resources(ResourceRequirements r, String path, Violations v) {
    ResourceList limits = r.limits();
    for (Map.Entry<String, Quantity> e : limits.asMap().entrySet()) {
      quantity(e.getKey(), e.getValue(), path + ".limits." + e.getKey(), v);
    }
    for (Map.Entry<String, Quantity> e : r.requests().asMap().entrySet()) {
      String name = e.getKey();
      Quantity req = e.getValue();
      String reqPath = path + ".requests." + name;
      quantity(name, req, reqPath, v);
      if (limits.has(name)) {
        Quantity lim = limits.get(name);
        if (!ResourceRequirements.isOvercommitAllowed(name)) {
          if (req.compareTo(lim) != 0) {
            v.add(reqPath, "must be equal to " + name + " limit of " + lim, req);
          }
        } else if (req.compareTo(lim) > 0) {
          v.add(reqPath, "must be less than or equal to " + name + " limit of " + lim, req);
        }
      } else if (!ResourceRequirements.isOvercommitAllowed(name)) {
        v.add(path + ".limits", "Required value: Limit must be set for non overcommitable resources", null);
      }
    }
  }

  /** The resources {@code spec.resources} may name, as Kubernetes lists them in its message. */
  private static final String POD_LEVEL_SUPPORTED =
      "Unsupported value: supported values: \"cpu\", \"hugepages-\", \"memory\"";

  /**
   * Kubernetes' {@code validatePodResources} (PodLevelResources): only cpu, memory and hugepages at pod level,
   * values valid and requests within limits as for a container; then {@code validatePodResourceConsistency}: each
   * pod-level request at least the containers' aggregate request for that resource, each pod-level hugepages limit
   * at least the containers' aggregate limit, and no regular container's limit above the pod-level limit.
   */
  private static void podResources(PodSpec spec, String path, Violations v) {
    ResourceRequirements r = spec.resources();
    boolean namesOk = true;
    for (String name : r.limits().names()) {
      if (!PodSpec.isSupportedPodLevelResource(name)) {
        v.add(path + ".limits." + name, POD_LEVEL_SUPPORTED, name);
        namesOk = false;
      }
    }
    for (String name : r.requests().names()) {
      if (!PodSpec.isSupportedPodLevelResource(name)) {
        v.add(path + ".requests." + name, POD_LEVEL_SUPPORTED, name);
        namesOk = false;
      }
    }
    if (!resourcesValid(r)) {
      resources(r, path, v);
    }
    if (!namesOk) {
      return;
    }
    ResourceList aggregateRequests = spec.containerRequests();
    for (String name : r.requests().names()) {
      if (aggregateRequests.has(name) && aggregateRequests.get(name).compareTo(r.requests().get(name)) > 0) {
        v.add(path + ".requests." + name,
            "must be greater than or equal to aggregate container requests of " + aggregateRequests.get(name),
            r.requests().get(name));
      }
    }
    if (!r.limits().isEmpty()) {
      ResourceList aggregateLimits = spec.containerLimits();
      for (String name : r.limits().names()) {
        if (name.startsWith("hugepages-") && aggregateLimits.has(name)
            && aggregateLimits.get(name).compareTo(r.limits().get(name)) > 0) {
          v.add(path + ".limits." + name,
              "must be greater than or equal to aggregate container limits of " + aggregateLimits.get(name),
              r.limits().get(name));
        }
      }
      List<Container> containers = spec.containers();
      for (int i = 0; i < containers.size(); i++) {
        ResourceList limits = containers.get(i).resources().limits();
        for (String name : limits.names()) {
          if (r.limits().has(name) && limits.get(name).compareTo(r.limits().get(name)) > 0) {
            // upstream's path: the pod-level resources path, then the container
            v.add(path + ".containers[" + i + "]." + name + ".limits",
                "must be less than or equal to pod limits of " + r.limits().get(name), limits.get(name));
          }
        }
      }
    }
  }

  /** Non-negative quantities of a resource list (overhead, capacity). */
  public static void resourceList(ResourceList list, String path, Violations v) {
    if (ResourceRequirements.onlyStandard(list) && list.milliCpu() >= 0 && list.memoryBytes() >= 0
        && list.ephemeralStorageBytes() >= 0 && list.pods() >= 0) {
      return;
    }
    for (Map.Entry<String, Quantity> e : list.asMap().entrySet()) {
      if (!quantityValid(e.getKey(), e.getValue())) {
        quantity(e.getKey(), e.getValue(), path + "." + e.getKey(), v);
      }
    }
  }

  private static void quantity(String name, Quantity q, String path, Violations v) {
    if (quantityValid(name, q)) {
      return;
    }
    if (q.signum() < 0) {
      v.add(path, Violations.NON_NEGATIVE, q);
    } else if (!ResourceRequirements.isOvercommitAllowed(name) && !name.startsWith("hugepages-")
        && q.toBigDecimal().stripTrailingZeros().scale() > 0) {
      v.add(path, "must be an integer", q);
    }
  }

  private static void volumes(List<Volume> list, String path, Violations v) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      Volume vol = list.get(i);
      String p = path + "[" + i + "]";
      v.dnsLabel(p + ".name", vol.name());
      if (!vol.name().isEmpty() && !names.add(vol.name())) {
        v.add(p + ".name", Violations.DUPLICATE, vol.name());
      }
      VolumeSource s = vol.source();
      if (s instanceof VolumeSource.PersistentVolumeClaim pvc && pvc.claimName().isEmpty()) {
        v.required(p + ".persistentVolumeClaim.claimName");
      } else if (s instanceof VolumeSource.HostPath hp) {
        VolumeFileChecks.hostPath(hp.path(), hp.type(), p + ".hostPath", v);
      } else if (s instanceof VolumeSource.ConfigMap cm) {
        if (cm.name().isEmpty()) {
          v.required(p + ".configMap.name");
        }
        VolumeFileChecks.keyFiles(cm.defaultMode(), cm.items(), p + ".configMap", v);
      } else if (s instanceof VolumeSource.Secret sec) {
        if (sec.secretName().isEmpty()) {
          v.required(p + ".secret.secretName");
        }
        VolumeFileChecks.keyFiles(sec.defaultMode(), sec.items(), p + ".secret", v);
      } else if (s instanceof VolumeSource.EmptyDir ed && ed.sizeLimit() != null && ed.sizeLimit().signum() < 0) {
        v.add(p + ".emptyDir.sizeLimit", "Forbidden: SizeLimit field must be a valid resource quantity", null);
      } else if (s instanceof VolumeSource.Ephemeral e) {
        ClaimSpecChecks.template(v, p + ".ephemeral.volumeClaimTemplate", e.volumeClaimTemplate());
      } else if (s instanceof VolumeSource.Projected pr) {
        VolumeFileChecks.projected(pr, p + ".projected", v);
      } else if (s instanceof VolumeSource.DownwardAPI d) {
        VolumeFileChecks.downwardAPI(d, p + ".downwardAPI", v);
      }
    }
  }
}
