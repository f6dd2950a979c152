package io.fleetkit.api.core;

import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.GpuChecks;
import io.fleetkit.api.internal.Names;
import io.fleetkit.api.internal.PodSpecChecks;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.api.scheduling.SchedulingValidation;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A pod (core/v1): the unit the scheduler places. Immutable; the canonical constructor validates the whole object
 * and throws one {@link io.fleetkit.api.ValidationException} listing every violation.
 *
 * <p>Build with {@link #builder()}: {@code Pod.builder().namespace("default").name("web-0").container("app",
 * "nginx:1.27", requests).priority(10).build()}.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when the name is not a DNS-1123 subdomain,
 * a container is unnamed, duplicated or has no image, a quantity is negative, a request exceeds its limit, and the
 * like.
 */
public record Pod(ObjectMeta metadata, PodSpec spec, PodStatus status) implements ApiObject<Pod> {
  public static final String API_VERSION = "v1";
  public static final String KIND = "Pod";
  /** The label naming a pod's gang (coscheduling PodGroup), as in scheduler-plugins. */
  public static final String POD_GROUP_LABEL = "scheduling.x-k8s.io/pod-group";

  /**
   * The spec of a pod being derived from an already validated one by a change that was checked on its own (see
   * {@link #withNodeName}); the canonical constructor skips the full validation for exactly that spec instance.
   */
  private static final ThreadLocal<@Nullable PodSpec> PREVALIDATED = new ThreadLocal<>();

  public Pod {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    if (spec.hostNetwork()) {
      spec = spec.withHostNetworkPortsDefaulted(); // SetDefaults_Pod, before validation as in an API server
    }
    if (PREVALIDATED.get() != spec) {
      Violations v = Violations.forObject(KIND, metadata);
      v.objectMeta(metadata, true);
      PodSpecChecks.check(spec, "spec", true, v);
      if (!spec.volumes().isEmpty()) {
        PodSpecChecks.ephemeralClaimNames(metadata.name(), spec, "spec.volumes", v);
      }
      GpuChecks.check(metadata, spec, "spec", v);
      if (!spec.schedulingGates().isEmpty() && !spec.nodeName().isEmpty()) {
        // upstream ValidatePodCreate, and pods/binding refuses a gated pod: a pod is never gated and bound
        v.add("spec.nodeName", "Forbidden: cannot be set until all schedulingGates have been cleared",
            spec.nodeName());
      }
      v.throwIfAny();
    }
  }

  public static Pod of(ObjectMeta metadata, PodSpec spec) {
    return new Pod(metadata, spec, PodStatus.PENDING);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public Pod withMetadata(ObjectMeta newMetadata) {
    if (newMetadata.name() == metadata.name() && newMetadata.namespace() == metadata.namespace()
        && newMetadata.labels() == metadata.labels() && newMetadata.annotations() == metadata.annotations()) {
      return withValidatedParts(newMetadata, status); // what the checks read of metadata is unchanged (a new version)
    }
    return new Pod(newMetadata, spec, status);
  }

  @Override
  public Pod withStatusOf(Pod other) {
    return withValidatedParts(metadata, other.status);
  }

  public Pod withSpec(PodSpec newSpec) {
    return new Pod(metadata, newSpec, status);
  }

  public Pod withStatus(PodStatus newStatus) {
    return withValidatedParts(metadata, newStatus); // the status is not checked; metadata and spec were
  }

  /** This pod's validated spec with {@code m} (checked as this pod's metadata) and {@code s}: no checks again. */
  private Pod withValidatedParts(ObjectMeta m, PodStatus s) {
    PREVALIDATED.set(spec);
    try {
      return new Pod(m, spec, s);
    } finally {
      PREVALIDATED.set(null);
    }
  }

  /**
   * This pod bound to {@code node} ({@code spec.nodeName}). Cheap: only the new node name is validated (this pod was
   * validated when it was built and nothing else changes), which matters to a scheduler assuming thousands of pods
   * per second.
   */
  /**
   * This pod with its priority fields resolved (what Priority admission sets), checking only the class name again
   * (the rest of the spec was validated when it was built and does not change).
   */
  public Pod withResolvedPriority(int priority, String priorityClassName, PreemptionPolicy policy) {
    PodSpec newSpec = spec.withPriority(priority, priorityClassName, policy);
    if (!priorityClassName.isEmpty() && !Names.isDnsSubdomain(priorityClassName)) {
      return new Pod(metadata, newSpec, status); // invalid: the full validation reports it
    }
    return prevalidated(newSpec);
  }

  /**
   * This pod running as the service account {@code name} (what ServiceAccount admission sets), checking only the
   * name again (the rest of the spec was validated when it was built and does not change).
   */
  public Pod withServiceAccountName(String name) {
    PodSpec newSpec = spec.withServiceAccountName(name);
    if (!name.isEmpty() && !Names.isDnsSubdomain(name)) {
      return new Pod(metadata, newSpec, status); // invalid: the full validation reports it
    }
    return prevalidated(newSpec);
  }

  /**
   * This pod with {@code mount} added to every init container and container that mounts nothing at its path, and
   * {@code volume} added to its volumes (unless {@code null}: the mount's volume is one of the pod's already), what
   * ServiceAccount admission does with its token volume; this pod itself when every container mounts that path
   * already (then the volume is not added either). Checks only what is added (the rest of the spec was validated
   * when it was built and does not change): a volume whose source is one instance for many pods is checked once.
   */
  public Pod withVolumeMountedInAll(@Nullable Volume volume, VolumeMount mount) {
    List<Container> initContainers = withMount(spec.initContainers(), mount);
    List<Container> containers = withMount(spec.containers(), mount);
    if (initContainers == spec.initContainers() && containers == spec.containers()) {
      return this;
    }
    List<Volume> volumes = spec.volumes();
    if (volume != null) {
      Volume[] all = volumes.toArray(new Volume[volumes.size() + 1]);
      all[volumes.size()] = volume;
      volumes = List.of(all);
    }
    PodSpec newSpec = spec.withVolumes(containers, initContainers, volumes);
    if (!PodSpecChecks.addedVolumeValid(spec.volumes(), volume, mount)) {
      return new Pod(metadata, newSpec, status); // invalid: the full validation reports it
    }
    return prevalidated(newSpec);
  }

  /** {@code list} with {@code mount} added to each container that mounts nothing at its path; {@code list} if none. */
  private static List<Container> withMount(List<Container> list, VolumeMount mount) {
    Container[] out = null;
    for (int i = 0; i < list.size(); i++) {
      Container c = list.get(i);
      if (c.mountsAt(mount.mountPath())) {
        continue;
      }
      if (out == null) {
        out = list.toArray(new Container[0]);
      }
      List<VolumeMount> mounts = c.volumeMounts();
      VolumeMount[] more = mounts.toArray(new VolumeMount[mounts.size() + 1]);
      more[mounts.size()] = mount;
      out[i] = c.withVolumeMounts(List.of(more));
    }
    return out == null ? list : List.of(out);
  }

  /**
   * This pod with {@code tolerations} instead of its spec's, checking only the tolerations again (what
   * DefaultTolerationSeconds admission adds to).
   */
  public Pod withTolerations(List<Toleration> tolerations) {
    PodSpec newSpec = spec.withTolerations(tolerations);
    List<Toleration> had = spec.tolerations();
    List<Toleration> now = newSpec.tolerations();
    int same = 0; // the leading tolerations this pod already has (validated with it) are not checked again
    while (same < had.size() && same < now.size() && had.get(same) == now.get(same)) {
      same++;
    }
    if (same < now.size() && now != lastValidTolerations) {
      if (!SchedulingValidation.validateTolerations(now.subList(same, now.size()), "spec.tolerations").isEmpty()) {
        return new Pod(metadata, newSpec, status); // invalid: the full validation reports it
      }
      if (same == 0) {
        lastValidTolerations = now;
      }
    }
    return prevalidated(newSpec);
  }

  /**
   * The last whole list of tolerations {@link #withTolerations} found valid. Lists are immutable, so the same list
   * again (admission adding one shared list of default tolerations to every pod that has none) needs no new check.
   */
  private static volatile @Nullable List<Toleration> lastValidTolerations;

  private Pod prevalidated(PodSpec newSpec) {
    PREVALIDATED.set(newSpec);
    try {
      return new Pod(metadata, newSpec, status);
    } finally {
      PREVALIDATED.set(null);
    }
  }

  public Pod withNodeName(String node) {
    Objects.requireNonNull(node, "node");
    if (node.equals(spec.nodeName())) {
      return this;
    }
    PodSpec newSpec = spec.withNodeName(node);
    if (!node.isEmpty() && (!Names.isDnsSubdomain(node) || !spec.schedulingGates().isEmpty())) {
      return new Pod(metadata, newSpec, status); // invalid: the full validation reports it
    }
    PREVALIDATED.set(newSpec);
    try {
      return new Pod(metadata, newSpec, status);
    } finally {
      PREVALIDATED.set(null);
    }
  }

  /** See {@link PodSpec#effectiveRequests()}. */
  public ResourceList effectiveRequests() {
    return spec.effectiveRequests();
  }

  /** See {@link PodSpec#effectiveLimits()}. */
  public ResourceList effectiveLimits() {
    return spec.effectiveLimits();
  }

  /** The resolved priority, 0 when unset. */
  public int priority() {
    return spec.priorityValue();
  }

  /** The gang this pod belongs to (label {@value #POD_GROUP_LABEL}), or {@code null}. */
  public @Nullable String podGroupName() {
    String g = metadata.labels().get(POD_GROUP_LABEL);
    return g == null || g.isEmpty() ? null : g;
  }

  /** Whether the pod reached Succeeded or Failed. */
  public boolean isTerminal() {
    return status.phase().isTerminal();
  }

  /** Whether {@code spec.nodeName} is set. */
  public boolean isBound() {
    return !spec.nodeName().isEmpty();
  }

  /** Whether the pod has a {@code Ready=True} condition (kube's {@code podutil.IsPodReady}). */
  public boolean isReady() {
    PodCondition c = status.condition(PodCondition.READY);
    return c != null && c.status() == ConditionStatus.True;
  }

  /**
   * The name of the ResourceClaim the pod's entry {@code claim} uses (the dynamic-resource-allocation library's
   * {@code resourceclaim.Name}): the claim it names, or for an entry with a template the claim the status records as
   * generated for it; {@code null} when that is not recorded yet, empty when none was needed.
   */
  public @Nullable String resourceClaimName(PodResourceClaim claim) {
    return claim.fromTemplate() ? status.resourceClaimName(claim.name()) : claim.resourceClaimName();
  }

  /** Mutable builder with Kubernetes' defaults (namespace {@code default}); not thread-safe. */
  public static final class Builder {
    private ObjectMeta.Builder meta;
    private PodSpec.Builder spec;
    private PodStatus status;

    private Builder() {
      meta = ObjectMeta.builder().namespace("default");
      spec = PodSpec.builder();
      status = PodStatus.PENDING;
    }

    private Builder(Pod p) {
      meta = p.metadata.toBuilder();
      spec = p.spec.toBuilder();
      status = p.status;
    }

    /** Replaces all metadata set so far. */
    public Builder metadata(ObjectMeta v) { meta = v.toBuilder(); return this; }
    public Builder name(String v) { meta.name(v); return this; }
    public Builder namespace(String v) { meta.namespace(v); return this; }
    public Builder uid(String v) { meta.uid(v); return this; }
    public Builder labels(Map<String, String> v) { meta.labels(v); return this; }
    public Builder label(String k, String v) { meta.label(k, v); return this; }
    public Builder annotation(String k, String v) { meta.annotation(k, v); return this; }
    public Builder ownerReference(io.fleetkit.api.meta.OwnerReference v) { meta.ownerReference(v); return this; }
    /** Sets label {@value Pod#POD_GROUP_LABEL}. */
    public Builder podGroup(String v) { meta.label(POD_GROUP_LABEL, v); return this; }

    /** Replaces the whole spec set so far. */
    public Builder spec(PodSpec v) { spec = v.toBuilder(); return this; }
    public Builder container(Container v) { spec.container(v); return this; }
    /** A container with these requests (see {@link ResourceRequirements#ofRequests}). */
    public Builder container(String name, String image, ResourceList requests) {
      spec.container(name, image, requests);
      return this;
    }
    public Builder container(String name, String image, ResourceList requests, ResourceList limits) {
      spec.container(Container.of(name, image, ResourceRequirements.of(requests, limits)));
      return this;
    }
    public Builder initContainer(Container v) { spec.initContainer(v); return this; }
    /**
     * Pod-level resources ({@code spec.resources}) as a manifest sets them, defaulted against the containers when
     * built (see {@link PodSpec.Builder#resources(ResourceList, ResourceList)}).
     */
    public Builder resources(ResourceList requests, ResourceList limits) {
      spec.resources(requests, limits);
      return this;
    }
    public Builder initContainer(String name, String image, ResourceList requests) {
      spec.initContainer(name, image, requests);
      return this;
    }
    /** A restartable init container (sidecar). */
    public Builder sidecar(String name, String image, ResourceList requests) {
      spec.initContainer(Container.sidecar(name, image, requests));
      return this;
    }
    public Builder overhead(ResourceList v) { spec.overhead(v); return this; }
    public Builder priority(@Nullable Integer v) { spec.priority(v); return this; }
    public Builder priorityClassName(String v) { spec.priorityClassName(v); return this; }
    public Builder preemptionPolicy(PreemptionPolicy v) { spec.preemptionPolicy(v); return this; }
    public Builder nodeSelector(String k, String v) { spec.nodeSelector(k, v); return this; }
    public Builder nodeSelector(Map<String, String> v) { spec.nodeSelector(v); return this; }
    public Builder affinity(Affinity v) { spec.affinity(v); return this; }
    public Builder toleration(Toleration v) { spec.toleration(v); return this; }
    public Builder schedulingGate(String v) { spec.schedulingGate(v); return this; }
    public Builder readinessGate(String conditionType) { spec.readinessGate(conditionType); return this; }
    /** The operating system the containers need ({@code spec.os}). */
    public Builder os(@Nullable PodOS v) { spec.os(v); return this; }
    /** The service account the pod runs as ({@code spec.serviceAccountName}). */
    public Builder serviceAccountName(String v) { spec.serviceAccountName(v); return this; }
    public Builder automountServiceAccountToken(@Nullable Boolean v) {
      spec.automountServiceAccountToken(v);
      return this;
    }
    public Builder dnsPolicy(DNSPolicy v) { spec.dnsPolicy(v); return this; }
    public Builder dnsConfig(@Nullable PodDNSConfig v) { spec.dnsConfig(v); return this; }
    public Builder hostAlias(HostAlias v) { spec.hostAlias(v); return this; }
    /** Whether the pod uses its node's network namespace ({@code spec.hostNetwork}). */
    public Builder hostNetwork(boolean v) { spec.hostNetwork(v); return this; }
    public Builder imagePullSecrets(List<String> v) { spec.imagePullSecrets(v); return this; }
    public Builder resourceClaim(PodResourceClaim v) { spec.resourceClaim(v); return this; }
    public Builder topologySpreadConstraint(TopologySpreadConstraint v) {
      spec.topologySpreadConstraint(v);
      return this;
    }
    public Builder schedulerName(String v) { spec.schedulerName(v); return this; }
    public Builder nodeName(String v) { spec.nodeName(v); return this; }
    public Builder volume(Volume v) { spec.volume(v); return this; }
    public Builder restartPolicy(RestartPolicy v) { spec.restartPolicy(v); return this; }
    public Builder terminationGracePeriodSeconds(long v) { spec.terminationGracePeriodSeconds(v); return this; }
    public Builder activeDeadlineSeconds(@Nullable Long v) { spec.activeDeadlineSeconds(v); return this; }

    public Builder status(PodStatus v) { status = v; return this; }
    public Builder phase(PodPhase v) { status = status.withPhase(v); return this; }

    public Pod build() {
      return new Pod(meta.build(), spec.build(), status);
    }
  }
}
