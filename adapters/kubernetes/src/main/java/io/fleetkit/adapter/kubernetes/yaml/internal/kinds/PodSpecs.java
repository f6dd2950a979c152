package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EmptyDirVolumeSourceBuilder;
import io.fabric8.kubernetes.api.model.EphemeralVolumeSourceBuilder;
import io.fabric8.kubernetes.api.model.HostPathVolumeSourceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimVolumeSourceBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.ContainerResourceClaim;
import io.fleetkit.api.core.ContainerRestartPolicy;
import io.fleetkit.api.core.DNSPolicy;
import io.fleetkit.api.core.EnvFromSource;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.HostAlias;
import io.fleetkit.api.core.PersistentVolumeClaimTemplate;
import io.fleetkit.api.core.PodDNSConfig;
import io.fleetkit.api.core.PodDNSConfigOption;
import io.fleetkit.api.core.PodOS;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeMount;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Pod specs and pod templates both ways, shared by Pod and the workload kinds. Applies Kubernetes' defaults on the
 * way in (restartPolicy Always, preemptionPolicy PreemptLowerPriority, a 30 s grace period) and leaves default
 * values out on the way back.
 */
public final class PodSpecs {
  private static final String VOLUME_SOURCES =
      "persistentVolumeClaim, emptyDir, hostPath, configMap, secret, ephemeral, projected, downwardAPI (others, such"
      + " as nfs or csi, are left out with a warning)";

  private PodSpecs() {}

  public static @Nullable PodSpec toCore(io.fabric8.kubernetes.api.model.@Nullable PodSpec s, String path,
      DocumentContext ctx) {
    if (s == null) {
      ctx.error(path, "is required", null);
      return null;
    }
    java.util.Set<String> leftOut = leftOutVolumes(s.getVolumes());
    List<Container> containers = Fabric8Scheduling.list(s.getContainers(), path + ".containers", ctx,
        (c, p, cx) -> container(c, p, cx, leftOut));
    List<Container> initContainers = Fabric8Scheduling.list(s.getInitContainers(), path + ".initContainers", ctx,
        (c, p, cx) -> container(c, p, cx, leftOut));
    ResourceList overhead = Values.resources(s.getOverhead(), path + ".overhead", ctx);
    var pr = s.getResources();
    ResourceList podRequests = Values.resources(pr == null ? null : pr.getRequests(), path + ".resources.requests",
        ctx);
    ResourceList podLimits = Values.resources(pr == null ? null : pr.getLimits(), path + ".resources.limits", ctx);
    PreemptionPolicy preemption = Values.enumValue(PreemptionPolicy.class, s.getPreemptionPolicy(),
        PreemptionPolicy.PreemptLowerPriority, path + ".preemptionPolicy", ctx);
    var nodeSelector = Values.stringMap(s.getNodeSelector(), path + ".nodeSelector", ctx);
    Affinity affinity = Fabric8Scheduling.affinity(s.getAffinity(), path + ".affinity", ctx);
    var tolerations = Fabric8Scheduling.list(s.getTolerations(), path + ".tolerations", ctx,
        Fabric8Scheduling::toleration);
    var spreads = Fabric8Scheduling.list(s.getTopologySpreadConstraints(), path + ".topologySpreadConstraints", ctx,
        Fabric8Scheduling::topologySpread);
    List<Volume> volumes = Fabric8Scheduling.list(s.getVolumes(), path + ".volumes", ctx, PodSpecs::volume);
    RestartPolicy restart = Values.enumValue(RestartPolicy.class, s.getRestartPolicy(), RestartPolicy.Always,
        path + ".restartPolicy", ctx);
    long grace = Values.longOr(s.getTerminationGracePeriodSeconds(),
        PodSpec.DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS);
    if (grace < 0) {
      ctx.error(path + ".terminationGracePeriodSeconds", "must be greater than or equal to 0", grace);
    }
    Long deadline = s.getActiveDeadlineSeconds();
    if (deadline != null && deadline < 1) {
      ctx.error(path + ".activeDeadlineSeconds", "must be greater than or equal to 1", deadline);
    }
    List<String> gates = new java.util.ArrayList<>();
    var rawGates = s.getSchedulingGates();
    for (int i = 0; rawGates != null && i < rawGates.size(); i++) {
      var g = rawGates.get(i);
      gates.add(Values.required(g == null ? null : g.getName(), path + ".schedulingGates[" + i + "].name", ctx));
    }
    List<String> readinessGates = new java.util.ArrayList<>();
    var rawReadiness = s.getReadinessGates();
    for (int i = 0; rawReadiness != null && i < rawReadiness.size(); i++) {
      var g = rawReadiness.get(i);
      readinessGates.add(Values.required(g == null ? null : g.getConditionType(),
          path + ".readinessGates[" + i + "].conditionType", ctx));
    }
    List<PodResourceClaim> claims = Fabric8Scheduling.list(s.getResourceClaims(), path + ".resourceClaims", ctx,
        (c, p, cx) -> new PodResourceClaim(Values.orEmpty(c.getName()), Values.orEmpty(c.getResourceClaimName()),
            Values.orEmpty(c.getResourceClaimTemplateName())));
    DNSPolicy dnsPolicy = Values.enumValue(DNSPolicy.class, s.getDnsPolicy(), DNSPolicy.ClusterFirst,
        path + ".dnsPolicy", ctx);
    PodDNSConfig dnsConfig = dnsConfig(s.getDnsConfig(), path + ".dnsConfig", ctx);
    List<HostAlias> hostAliases = Fabric8Scheduling.list(s.getHostAliases(), path + ".hostAliases", ctx,
        (a, p, cx) -> new HostAlias(Values.orEmpty(a.getIp()), Values.stringList(a.getHostnames(), p + ".hostnames",
            cx)));
    List<String> pullSecrets = Fabric8Scheduling.list(s.getImagePullSecrets(), path + ".imagePullSecrets", ctx,
        (r, p, cx) -> Values.orEmpty(r.getName())); // upstream checks only that nothing but the name is set
    // serviceAccount is the deprecated alias of serviceAccountName, which wins when both are set (upstream's
    // Convert_v1_PodSpec_To_core_PodSpec)
    String serviceAccount = Values.orEmpty(s.getServiceAccountName()).isEmpty()
        ? Values.orEmpty(s.getServiceAccount()) : s.getServiceAccountName();
    return ctx.buildWarned(path, () -> PodSpec.builder().containers(containers).initContainers(initContainers)
        .overhead(overhead).priority(s.getPriority()).priorityClassName(Values.orEmpty(s.getPriorityClassName()))
        .preemptionPolicy(preemption).nodeSelector(nodeSelector).affinity(affinity == null ? Affinity.NONE : affinity)
        .tolerations(tolerations).topologySpreadConstraints(spreads).schedulerName(Values.orEmpty(s.getSchedulerName()))
        .nodeName(Values.orEmpty(s.getNodeName())).volumes(volumes).restartPolicy(restart)
        .terminationGracePeriodSeconds(grace).activeDeadlineSeconds(deadline).hostname(Values.orEmpty(s.getHostname()))
        .subdomain(Values.orEmpty(s.getSubdomain()))
        // the API server's defaulting of pod-level requests (SetDefaults_Pod), then validation in the constructor
        .resources(podRequests, podLimits).schedulingGates(gates).resourceClaims(claims).readinessGates(readinessGates)
        .os(s.getOs() == null ? null : new PodOS(Values.orEmpty(s.getOs().getName())))
        .serviceAccountName(serviceAccount).automountServiceAccountToken(s.getAutomountServiceAccountToken())
        .dnsPolicy(dnsPolicy == null ? DNSPolicy.ClusterFirst : dnsPolicy).dnsConfig(dnsConfig).hostAliases(hostAliases)
        .hostNetwork(Boolean.TRUE.equals(s.getHostNetwork())).imagePullSecrets(pullSecrets)
        .build(), built -> built.warnings(path)); // the legacy IP fields' warnings, at this spec's path
  }

  private static @Nullable PodDNSConfig dnsConfig(io.fabric8.kubernetes.api.model.@Nullable PodDNSConfig c,
      String path, DocumentContext ctx) {
    if (c == null) {
      return null;
    }
    List<PodDNSConfigOption> options = Fabric8Scheduling.list(c.getOptions(), path + ".options", ctx,
        (o, p, cx) -> new PodDNSConfigOption(Values.orEmpty(o.getName()), o.getValue()));
    return new PodDNSConfig(Values.stringList(c.getNameservers(), path + ".nameservers", ctx),
        Values.stringList(c.getSearches(), path + ".searches", ctx), options);
  }

  public static io.fabric8.kubernetes.api.model.PodSpec toFabric8(PodSpec s) {
    return new PodSpecBuilder()
        .withContainers(Fabric8Scheduling.out(s.containers(), PodSpecs::container))
        .withInitContainers(Fabric8Scheduling.out(s.initContainers(), PodSpecs::container))
        .withOverhead(Values.resources(s.overhead()))
        .withResources(s.resources().requests().isEmpty() && s.resources().limits().isEmpty() ? null
            : new ResourceRequirementsBuilder().withRequests(Values.resources(s.resources().requests()))
                .withLimits(Values.resources(s.resources().limits())).build())
        .withPriority(s.priority())
        .withPriorityClassName(Values.emptyToNull(s.priorityClassName()))
        .withPreemptionPolicy(s.preemptionPolicy() == PreemptionPolicy.PreemptLowerPriority ? null
            : s.preemptionPolicy().name())
        .withNodeSelector(Values.emptyToNull(new java.util.TreeMap<>(s.nodeSelector())))
        .withAffinity(s.affinity().equals(Affinity.NONE) ? null : Fabric8Scheduling.affinity(s.affinity()))
        .withTolerations(Fabric8Scheduling.out(s.tolerations(), Fabric8Scheduling::toleration))
        .withTopologySpreadConstraints(Fabric8Scheduling.out(s.topologySpreadConstraints(),
            Fabric8Scheduling::topologySpread))
        .withSchedulerName(s.schedulerName().equals(PodSpec.DEFAULT_SCHEDULER) ? null : s.schedulerName())
        .withNodeName(Values.emptyToNull(s.nodeName()))
        .withVolumes(Fabric8Scheduling.out(s.volumes(), PodSpecs::volume))
        .withRestartPolicy(s.restartPolicy() == RestartPolicy.Always ? null : s.restartPolicy().name())
        .withTerminationGracePeriodSeconds(s.terminationGracePeriodSeconds()
            == PodSpec.DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS ? null : s.terminationGracePeriodSeconds())
        .withActiveDeadlineSeconds(s.activeDeadlineSeconds())
        .withHostname(Values.emptyToNull(s.hostname()))
        .withSubdomain(Values.emptyToNull(s.subdomain()))
        .withSchedulingGates(Fabric8Scheduling.out(s.schedulingGates(),
            g -> new io.fabric8.kubernetes.api.model.PodSchedulingGate(g)))
        .withResourceClaims(Fabric8Scheduling.out(s.resourceClaims(),
            c -> new io.fabric8.kubernetes.api.model.PodResourceClaim(c.name(),
                Values.emptyToNull(c.resourceClaimName()), Values.emptyToNull(c.resourceClaimTemplateName()))))
        .withReadinessGates(Fabric8Scheduling.out(s.readinessGates(),
            t -> new io.fabric8.kubernetes.api.model.PodReadinessGate(t)))
        .withOs(s.os() == null ? null : new io.fabric8.kubernetes.api.model.PodOS(s.os().name()))
        // both names, as the API server writes them (Convert_core_PodSpec_To_v1_PodSpec)
        .withServiceAccountName(Values.emptyToNull(s.serviceAccountName()))
        .withServiceAccount(Values.emptyToNull(s.serviceAccountName()))
        .withAutomountServiceAccountToken(s.automountServiceAccountToken())
        .withDnsPolicy(s.dnsPolicy() == DNSPolicy.ClusterFirst ? null : s.dnsPolicy().name())
        .withDnsConfig(s.dnsConfig() == null ? null : new io.fabric8.kubernetes.api.model.PodDNSConfig(
            Values.emptyToNull(s.dnsConfig().nameservers()),
            Values.emptyToNull(Fabric8Scheduling.out(s.dnsConfig().options(),
                o -> new io.fabric8.kubernetes.api.model.PodDNSConfigOption(o.name(), o.value()))),
            Values.emptyToNull(s.dnsConfig().searches())))
        .withHostAliases(Fabric8Scheduling.out(s.hostAliases(),
            a -> new io.fabric8.kubernetes.api.model.HostAlias(Values.emptyToNull(a.hostnames()), a.ip())))
        .withHostNetwork(s.hostNetwork() ? Boolean.TRUE : null)
        .withImagePullSecrets(Fabric8Scheduling.out(s.imagePullSecrets(),
            n -> new io.fabric8.kubernetes.api.model.LocalObjectReference(n)))
        .build();
  }

  /** A pod template ({@code spec.template} of workloads); its metadata has no name or namespace of its own. */
  public static @Nullable PodTemplateSpec template(io.fabric8.kubernetes.api.model.@Nullable PodTemplateSpec t,
      String path, DocumentContext ctx) {
    if (t == null) {
      ctx.error(path, "is required", null);
      return null;
    }
    var m = t.getMetadata() == null ? new io.fabric8.kubernetes.api.model.ObjectMeta() : t.getMetadata();
    ObjectMeta meta = ObjectMeta.builder()
        .name(Values.orEmpty(m.getName()))
        .namespace(Values.orEmpty(m.getNamespace()))
        .labels(Values.stringMap(m.getLabels(), path + ".metadata.labels", ctx))
        .annotations(Values.stringMap(m.getAnnotations(), path + ".metadata.annotations", ctx))
        .finalizers(Values.stringList(m.getFinalizers(), path + ".metadata.finalizers", ctx))
        .build();
    PodSpec spec = toCore(t.getSpec(), path + ".spec", ctx);
    return spec == null ? null : ctx.build(path, () -> new PodTemplateSpec(meta, spec));
  }

  public static io.fabric8.kubernetes.api.model.PodTemplateSpec template(PodTemplateSpec t) {
    return new PodTemplateSpecBuilder().withMetadata(Fabric8Meta.toFabric8(t.metadata()))
        .withSpec(toFabric8(t.spec())).build();
  }

  // ---- containers

  /** The names of the volumes left out for a source FleetKit does not model (see {@link #volume}). */
  private static java.util.Set<String> leftOutVolumes(
      @Nullable List<io.fabric8.kubernetes.api.model.Volume> volumes) {
    java.util.Set<String> out = java.util.Set.of();
    for (int i = 0; volumes != null && i < volumes.size(); i++) {
      var v = volumes.get(i);
      if (v != null && v.getName() != null && unmodelledSource(v) != null) {
        out = out.isEmpty() ? new java.util.HashSet<>() : out;
        out.add(v.getName());
      }
    }
    return out;
  }

  private static @Nullable Container container(io.fabric8.kubernetes.api.model.Container c, String p,
      DocumentContext ctx, java.util.Set<String> leftOutVolumes) {
    var r = c.getResources();
    ResourceList requests = Values.resources(r == null ? null : r.getRequests(), p + ".resources.requests", ctx);
    ResourceList limits = Values.resources(r == null ? null : r.getLimits(), p + ".resources.limits", ctx);
    List<ContainerResourceClaim> claims = Fabric8Scheduling.list(r == null ? null : r.getClaims(),
        p + ".resources.claims", ctx, (rc, cp, cx) -> new ContainerResourceClaim(Values.orEmpty(rc.getName()),
            Values.orEmpty(rc.getRequest())));
    ResourceRequirements resources = ctx.build(p + ".resources", () -> new ResourceRequirements(requests, limits,
        claims));
    List<ContainerPort> ports = Fabric8Scheduling.list(c.getPorts(), p + ".ports", ctx, (port, pp, cx) -> {
      if (port.getContainerPort() == null) {
        cx.error(pp + ".containerPort", "is required", null);
        return null;
      }
      return cx.build(pp, () -> new ContainerPort(Values.orEmpty(port.getName()), port.getContainerPort(),
          Values.orEmpty(port.getProtocol()), Values.intOr(port.getHostPort(), 0), Values.orEmpty(port.getHostIP())));
    });
    List<EnvVar> env = EnvVars.env(c, p, ctx);
    List<EnvFromSource> envFrom = EnvVars.envFrom(c, p, ctx);
    ContainerRestartPolicy restart = Values.enumValue(ContainerRestartPolicy.class, c.getRestartPolicy(), null,
        p + ".restartPolicy", ctx);
    Probe liveness = Probes.toCore(c.getLivenessProbe(), p + ".livenessProbe", ctx);
    Probe readiness = Probes.toCore(c.getReadinessProbe(), p + ".readinessProbe", ctx);
    Probe startup = Probes.toCore(c.getStartupProbe(), p + ".startupProbe", ctx);
    Lifecycle lifecycle = Lifecycles.toCore(c.getLifecycle(), p + ".lifecycle", ctx);
    // name and path as given (the pod's validation requires them); mountPropagation, subPathExpr and
    // recursiveReadOnly are not modelled, which the write-back comparison reports
    // a mount of a volume left out is left out with it
    List<VolumeMount> mounts = Fabric8Scheduling.list(c.getVolumeMounts(), p + ".volumeMounts", ctx, (m, mp, cx) -> {
      if (leftOutVolumes.contains(m.getName())) {
        cx.notModelled(mp, "name");
        return null;
      }
      return new VolumeMount(Values.orEmpty(m.getName()), Boolean.TRUE.equals(m.getReadOnly()),
          Values.orEmpty(m.getMountPath()), Values.orEmpty(m.getSubPath()));
    });
    if (resources == null) {
      return null;
    }
    return ctx.build(p, () -> new Container(Values.orEmpty(c.getName()), Values.orEmpty(c.getImage()), resources,
        ports, env, envFrom, restart, liveness, readiness, startup, lifecycle, mounts));
  }

  private static io.fabric8.kubernetes.api.model.Container container(Container c) {
    return new ContainerBuilder().withName(c.name()).withImage(Values.emptyToNull(c.image()))
        .withResources(c.resources().requests().isEmpty() && c.resources().limits().isEmpty()
            && c.resources().claims().isEmpty() ? null
            : new ResourceRequirementsBuilder().withRequests(Values.resources(c.resources().requests()))
                .withLimits(Values.resources(c.resources().limits()))
                .withClaims(Fabric8Scheduling.out(c.resources().claims(),
                    rc -> new io.fabric8.kubernetes.api.model.ResourceClaim(rc.name(),
                        Values.emptyToNull(rc.request()))))
                .build())
        .withPorts(Fabric8Scheduling.out(c.ports(), port -> new ContainerPortBuilder()
            .withName(Values.emptyToNull(port.name())).withContainerPort(port.containerPort())
            .withProtocol(port.protocol().equals("TCP") ? null : port.protocol())
            .withHostPort(port.hostPort() == 0 ? null : port.hostPort())
            .withHostIP(Values.emptyToNull(port.hostIP())).build()))
        .withEnv(EnvVars.env(c.env())).withEnvFrom(EnvVars.envFrom(c.envFrom()))
        .withRestartPolicy(Values.name(c.restartPolicy()))
        .withLivenessProbe(Probes.toFabric8(c.livenessProbe()))
        .withReadinessProbe(Probes.toFabric8(c.readinessProbe()))
        .withStartupProbe(Probes.toFabric8(c.startupProbe()))
        .withLifecycle(Lifecycles.toFabric8(c.lifecycle()))
        .withVolumeMounts(Fabric8Scheduling.out(c.volumeMounts(), m -> new VolumeMountBuilder().withName(m.name())
            .withReadOnly(m.readOnly() ? Boolean.TRUE : null).withMountPath(m.mountPath())
            .withSubPath(Values.emptyToNull(m.subPath())).build()))
        .build();
  }

  // ---- volumes

  private static @Nullable Volume volume(io.fabric8.kubernetes.api.model.Volume v, String p, DocumentContext ctx) {
    String name = Values.required(v.getName(), p + ".name", ctx);
    if (!oneSource(v, p, ctx)) {
      return null;
    }
    VolumeSource source;
    if (v.getPersistentVolumeClaim() != null) {
      var c = v.getPersistentVolumeClaim();
      source = ctx.build(p + ".persistentVolumeClaim", () -> new VolumeSource.PersistentVolumeClaim(
          Values.orEmpty(c.getClaimName()), Values.boolOr(c.getReadOnly(), false)));
    } else if (v.getEmptyDir() != null) {
      var e = v.getEmptyDir();
      Quantity size = e.getSizeLimit() == null ? null
          : Values.quantity(e.getSizeLimit().toString(), p + ".emptyDir.sizeLimit", ctx);
      source = ctx.build(p + ".emptyDir", () -> new VolumeSource.EmptyDir(Values.orEmpty(e.getMedium()), size));
    } else if (v.getHostPath() != null) {
      var h = v.getHostPath();
      source = ctx.build(p + ".hostPath", () -> new VolumeSource.HostPath(Values.orEmpty(h.getPath()),
          Values.orEmpty(h.getType())));
    } else if (v.getConfigMap() != null) {
      source = ProjectedVolumes.configMap(v.getConfigMap(), p + ".configMap", ctx);
    } else if (v.getSecret() != null) {
      source = ProjectedVolumes.secret(v.getSecret(), p + ".secret", ctx);
    } else if (v.getEphemeral() != null) {
      source = ephemeral(v.getEphemeral(), p + ".ephemeral", ctx);
    } else if (v.getProjected() != null) {
      source = ProjectedVolumes.projected(v.getProjected(), p + ".projected", ctx);
    } else if (v.getDownwardAPI() != null) {
      source = ProjectedVolumes.downwardAPI(v.getDownwardAPI(), p + ".downwardAPI", ctx);
    } else {
      String unmodelled = unmodelledSource(v);
      if (unmodelled != null) {
        // the containers' mounts of it are left out too (see container)
        ctx.notModelled(p, unmodelled);
      } else {
        ctx.error(p, "Required value: must specify a volume type (FleetKit reads " + VOLUME_SOURCES + ")", null);
      }
      return null;
    }
    return source == null ? null : ctx.build(p, () -> new Volume(name, source));
  }

  /**
   * Upstream's rule that a volume has one source: each source after the first (in {@code validateVolumeSource}'s
   * order) is refused with its message.
   */
  private static boolean oneSource(io.fabric8.kubernetes.api.model.Volume v, String p, DocumentContext ctx) {
    Object[] sources = sources(v);
    int found = 0;
    for (int i = 0; i < sources.length; i++) {
      if (sources[i] != null && found++ > 0) {
        ctx.error(p + "." + SOURCE_NAMES[i], "Forbidden: may not specify more than 1 volume type", null);
      }
    }
    return found <= 1;
  }

  /**
   * Every volume source of the schema, in upstream's {@code validateVolumeSource} order, named as its
   * "more than 1 volume type" errors name them (upstream writes {@code downwarAPI} and {@code cephFS} there).
   */
  private static final String[] SOURCE_NAMES = {"emptyDir", "hostPath", "gitRepo", "gcePersistentDisk",
      "awsElasticBlockStore", "secret", "nfs", "iscsi", "glusterfs", "flocker", "persistentVolumeClaim", "rbd",
      "cinder", "cephFS", "quobyte", "downwarAPI", "fc", "flexVolume", "configMap", "azureFile", "vsphereVolume",
      "photonPersistentDisk", "portworxVolume", "azureDisk", "storageos", "projected", "scaleIO", "csi",
      "ephemeral", "image"};
  /** The sources of {@link #SOURCE_NAMES} that FleetKit models. */
  private static final java.util.Set<String> MODELLED_SOURCES = java.util.Set.of("hostPath", "emptyDir", "secret",
      "persistentVolumeClaim", "downwarAPI", "configMap", "projected", "ephemeral");

  private static Object[] sources(io.fabric8.kubernetes.api.model.Volume v) {
    return new Object[] {v.getEmptyDir(), v.getHostPath(), v.getGitRepo(), v.getGcePersistentDisk(),
        v.getAwsElasticBlockStore(), v.getSecret(), v.getNfs(), v.getIscsi(), v.getGlusterfs(), v.getFlocker(),
        v.getPersistentVolumeClaim(), v.getRbd(), v.getCinder(), v.getCephfs(), v.getQuobyte(), v.getDownwardAPI(),
        v.getFc(), v.getFlexVolume(), v.getConfigMap(), v.getAzureFile(), v.getVsphereVolume(),
        v.getPhotonPersistentDisk(), v.getPortworxVolume(), v.getAzureDisk(), v.getStorageos(), v.getProjected(),
        v.getScaleIO(), v.getCsi(), v.getEphemeral(), v.getImage()};
  }

  /** The name of the (single) source of {@code v} that FleetKit does not model, or {@code null}. */
  private static @Nullable String unmodelledSource(io.fabric8.kubernetes.api.model.Volume v) {
    Object[] sources = sources(v);
    for (int i = 0; i < sources.length; i++) {
      if (sources[i] != null && !MODELLED_SOURCES.contains(SOURCE_NAMES[i])) {
        return SOURCE_NAMES[i].equals("cephFS") ? "cephfs" : SOURCE_NAMES[i]; // the schema's name
      }
    }
    return null;
  }

  /**
   * A generic ephemeral volume: its claim template's labels, annotations and spec. The template's other metadata
   * fields cannot be set (upstream's {@code ValidateTemplateObjectMeta}); the pod checks the spec's rules.
   */
  private static VolumeSource.@Nullable Ephemeral ephemeral(io.fabric8.kubernetes.api.model.EphemeralVolumeSource e,
      String p, DocumentContext ctx) {
    var t = e.getVolumeClaimTemplate();
    String tp = p + ".volumeClaimTemplate";
    if (t == null) {
      ctx.error(tp, "Required value", null);
      return null;
    }
    var m = t.getMetadata() == null ? new io.fabric8.kubernetes.api.model.ObjectMeta() : t.getMetadata();
    String mp = tp + ".metadata";
    Object[] fields = {m.getName(), m.getGenerateName(), m.getNamespace(), m.getUid(), m.getResourceVersion(),
        m.getGeneration(), m.getCreationTimestamp(), m.getDeletionTimestamp(), m.getDeletionGracePeriodSeconds(),
        m.getSelfLink(), emptyToNull(m.getOwnerReferences()), emptyToNull(m.getFinalizers()),
        emptyToNull(m.getManagedFields())};
    String[] names = {"name", "generateName", "namespace", "uid", "resourceVersion", "generation",
        "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink", "ownerReferences",
        "finalizers", "managedFields"};
    boolean forbidden = false;
    for (int i = 0; i < fields.length; i++) {
      if (fields[i] != null && !"".equals(fields[i])) {
        ctx.error(mp + "." + names[i], "Forbidden: cannot be set", null);
        forbidden = true;
      }
    }
    var labels = Values.stringMap(m.getLabels(), mp + ".labels", ctx);
    var annotations = Values.stringMap(m.getAnnotations(), mp + ".annotations", ctx);
    var spec = PersistentVolumeClaimConverter.spec(t.getSpec() == null
        ? new io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpec() : t.getSpec(), tp + ".spec", ctx);
    if (spec == null || forbidden) {
      return null;
    }
    return ctx.build(p, () -> new VolumeSource.Ephemeral(new PersistentVolumeClaimTemplate(labels, annotations,
        spec)));
  }

  private static @Nullable List<?> emptyToNull(@Nullable List<?> l) {
    return l == null || l.isEmpty() ? null : l;
  }

  private static io.fabric8.kubernetes.api.model.Volume volume(Volume v) {
    VolumeBuilder b = new VolumeBuilder().withName(v.name());
    VolumeSource s = v.source();
    if (s instanceof VolumeSource.PersistentVolumeClaim c) {
      b.withPersistentVolumeClaim(new PersistentVolumeClaimVolumeSourceBuilder().withClaimName(c.claimName())
          .withReadOnly(c.readOnly() ? Boolean.TRUE : null).build());
    } else if (s instanceof VolumeSource.EmptyDir e) {
      b.withEmptyDir(new EmptyDirVolumeSourceBuilder().withMedium(Values.emptyToNull(e.medium()))
          .withSizeLimit(e.sizeLimit() == null ? null
              : new io.fabric8.kubernetes.api.model.Quantity(e.sizeLimit().toString())).build());
    } else if (s instanceof VolumeSource.HostPath h) {
      b.withHostPath(new HostPathVolumeSourceBuilder().withPath(h.path()).withType(Values.emptyToNull(h.type()))
          .build());
    } else if (s instanceof VolumeSource.ConfigMap c) {
      b.withConfigMap(ProjectedVolumes.configMap(c));
    } else if (s instanceof VolumeSource.Secret c) {
      b.withSecret(ProjectedVolumes.secret(c));
    } else if (s instanceof VolumeSource.Projected pr) {
      b.withProjected(ProjectedVolumes.projected(pr));
    } else if (s instanceof VolumeSource.DownwardAPI d) {
      b.withDownwardAPI(ProjectedVolumes.downwardAPI(d));
    } else if (s instanceof VolumeSource.Ephemeral e) {
      PersistentVolumeClaimTemplate t = e.volumeClaimTemplate();
      b.withEphemeral(new EphemeralVolumeSourceBuilder().withVolumeClaimTemplate(
          new PersistentVolumeClaimTemplateBuilder()
              .withMetadata(t.labels().isEmpty() && t.annotations().isEmpty() ? null : new ObjectMetaBuilder()
                  .withLabels(Values.emptyToNull(new java.util.TreeMap<>(t.labels())))
                  .withAnnotations(Values.emptyToNull(new java.util.TreeMap<>(t.annotations()))).build())
              .withSpec(PersistentVolumeClaimConverter.spec(t.spec())).build()).build());
    } else {
      throw new IllegalArgumentException("volume " + v.name() + ": source " + s + " is not supported");
    }
    return b.build();
  }
}
