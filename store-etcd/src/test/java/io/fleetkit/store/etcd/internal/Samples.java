package io.fleetkit.store.etcd.internal;

import io.fleetkit.api.apps.ClaimTemplate;
import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType;
import io.fleetkit.api.apps.PodManagementPolicy;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeSource;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.DownwardAPIVolumeFile;
import io.fleetkit.api.core.KeyToPath;
import io.fleetkit.api.core.VolumeProjection;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.core.PodOS;
import io.fleetkit.api.core.HostAlias;
import io.fleetkit.api.core.PodDNSConfig;
import io.fleetkit.api.core.PodDNSConfigOption;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Lifecycle;
import io.fleetkit.api.core.LifecycleHandler;
import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeHandler;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.core.IPFamilyPolicy;
import io.fleetkit.api.core.ServiceProtocol;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.networking.IngressClass;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioAutoscaler;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioProvisioner;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceTaint;
import io.fleetkit.api.resource.dra.DeviceTaintEffect;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.DeviceTaintRuleStatus;
import io.fleetkit.api.resource.dra.DeviceTaintSelector;
import io.fleetkit.api.resource.dra.ResourcePool;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.resource.dra.ResourceSliceSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Objects written by hand, with optional parts set (volumes, probes, claim templates), for the kinds whose rules
 * across fields (a selector matching the template's labels, a valid schedule) the reflective generator of
 * {@link StoredKinds} rarely meets.
 */
final class Samples {
  static final ResourceList REQUESTS = ResourceList.builder().put("cpu", "250m").put("memory", "64Mi").build();
  static final Map<String, String> APP = Map.of("app", "web");

  private Samples() {}

  static PodSpec podSpec() {
    Container c = Container.of("app", "web:1", REQUESTS).withProbes(Probe.of(ProbeHandler.HttpGet.of("/healthz", 8080)),
        Probe.of(ProbeHandler.TcpSocket.of(8080)), null)
        .withLifecycle(new Lifecycle(new ProbeHandler.Exec(List.of("warm-up")), new LifecycleHandler.Sleep(5),
            "SIGQUIT"));
    return PodSpec.builder().container(c).os(PodOS.LINUX).volume(Volume.emptyDir("scratch"))
        .volume(Volume.persistentVolumeClaim("data", "data-claim"))
        .volume(new Volume("kube-api-access", new VolumeSource.Projected(List.of(
            new VolumeProjection.ServiceAccountToken("", 3607L, "token"),
            new VolumeProjection.ConfigMap("kube-root-ca.crt", List.of(new KeyToPath("ca.crt", "ca.crt", null)), false),
            new VolumeProjection.Secret("tls", List.of(), true),
            new VolumeProjection.DownwardAPI(List.of(new DownwardAPIVolumeFile("namespace",
                new DownwardAPIVolumeFile.FieldRef("v1", "metadata.namespace"), null, null)))), 420)))
        .volume(new Volume("info", new VolumeSource.DownwardAPI(List.of(new DownwardAPIVolumeFile("mem", null,
            new DownwardAPIVolumeFile.ResourceFieldRef("app", "limits.memory", Quantity.parse("1Mi")), 0400)), null)))
        .serviceAccountName("web")
        .automountServiceAccountToken(false)
        .dnsConfig(new PodDNSConfig(List.of("10.0.0.10"), List.of("corp.example.com"),
            List.of(PodDNSConfigOption.of("ndots", "2"), PodDNSConfigOption.of("edns0"))))
        .hostAlias(HostAlias.of("10.0.0.1", "db.local")).build();
  }

  static List<ApiObject<?>> all() {
    PodSpec pod = podSpec();
    PodSpec once = pod.toBuilder().restartPolicy(RestartPolicy.Never).build();
    Job job = Job.builder().name("pi").namespace("batch").podSpec(once).parallelism(2).completions(4).build();
    return List.of(
        Pod.builder().name("web-0").namespace("default").label("app", "web").spec(pod).build(),
        Deployment.builder().name("web").matchLabels(APP).replicas(3).podSpec(pod).build(),
        ReplicaSet.builder().name("web-1").matchLabels(APP).replicas(2).podSpec(pod).build(),
        StatefulSet.builder().name("db").matchLabels(APP).podSpec(pod).serviceName("db").replicas(2)
            .podManagementPolicy(PodManagementPolicy.Parallel)
            .volumeClaimTemplate(ClaimTemplate.of("data", "fast", ResourceList.builder().put("storage", "1Gi").build()))
            .persistentVolumeClaimRetentionPolicy(PersistentVolumeClaimRetentionPolicyType.Delete,
                PersistentVolumeClaimRetentionPolicyType.Retain)
            .startOrdinal(3).build(),
        DaemonSet.builder().name("agent").matchLabels(APP).podSpec(pod).build(),
        job,
        CronJob.builder().name("nightly").schedule("0 3 * * *").jobSpec(job.spec()).build(),
        Rollout.builder().name("web").matchLabels(APP).podSpec(pod).build(),
        Service.of(ObjectMeta.of("default", "web"), ServiceSpec.builder().selector(APP)
            .port(ServicePort.of(80)).build()),
        new io.fleetkit.api.core.Endpoints(ObjectMeta.of("default", "legacy-db"), List.of(
            new io.fleetkit.api.core.Endpoints.Subset(List.of(new io.fleetkit.api.core.Endpoints.Address("192.0.2.10",
                "db-0", "node-1", new io.fleetkit.api.core.Endpoints.TargetRef("Pod", "default", "db-0", "u-1"))),
                List.of(io.fleetkit.api.core.Endpoints.Address.of("2001:db8::10")),
                List.of(new io.fleetkit.api.core.Endpoints.Port("sql", 5432, ServiceProtocol.UDP, "postgresql"))))),
        Service.of(ObjectMeta.of("default", "edge"), ServiceSpec.builder().selector(APP).type(ServiceType.LoadBalancer)
            .port(ServicePort.of("https", 443, 8443).withAppProtocol("https"))
            .ipFamilyPolicy(IPFamilyPolicy.PreferDualStack).ipFamilies(List.of(IPFamily.IPv4, IPFamily.IPv6))
            .clusterIP("10.96.0.10").clusterIPs(List.of("10.96.0.10", "fd00::10"))
            .loadBalancerSourceRanges(List.of("10.0.0.0/8")).allocateLoadBalancerNodePorts(false)
            .loadBalancerClass("example.com/internal-vip").build()),
        PersistentVolume.of(ObjectMeta.of("pv-1"), PersistentVolumeSpec.builder().storage("10Gi")
            .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).source(PersistentVolumeSource.Csi.of("csi.example.com", "vol-1"))
            .build()),
        PersistentVolumeClaim.of(ObjectMeta.of("default", "data-claim"), PersistentVolumeClaimSpec.builder()
            .accessModes(List.of(PersistentVolumeAccessMode.ReadWriteOnce)).storage("1Gi").build()),
        new Event(ObjectMeta.of("default", "web.1"), Instant.ofEpochSecond(1_700_000_000L), null, "fleetkit/ctrl",
            "ctrl-0", "Scheduling", "Scheduled", new ObjectReference("v1", "Pod", "default", "web-0", "u-1", ""),
            null, "assigned", Event.NORMAL, 1, null, null),
        new IngressClass(ObjectMeta.of("nginx"), "k8s.io/ingress-nginx"),
        new GatewayClass(ObjectMeta.of("gw"), "example.com/gateway-controller"),
        new Scenario(ObjectMeta.builder().name("day").build(), new ScenarioSpec(Duration.ofHours(1), 1,
            ScenarioSpec.DEFAULT_SAMPLE_INTERVAL, List.of(), List.of(), ScenarioFeatures.builder().build(), List.of(),
            List.of(), List.of(), List.of()).withClusterAutoscaler(ScenarioAutoscaler.builder().expander("least-nodes")
            .scaleDownUtilizationThreshold(0.25).scaleDownUnneededTime(Duration.ofMinutes(2))
            .balanceSimilarNodeGroups(true).balancingIgnoreLabels(List.of("example.com/rack")).coresTotal(null, 64L)
            .memoryTotal(Quantity.parse("1Gi"), Quantity.parse("256Gi")).maxNodesTotal(20)
            .gpuTotal(List.of(new ScenarioAutoscaler.GpuTotal("a100", 2, 16))).build())),
        new Scenario(ObjectMeta.builder().name("karpenter-day").build(), new ScenarioSpec(Duration.ofHours(1), 1,
            ScenarioSpec.DEFAULT_SAMPLE_INTERVAL, List.of(), List.of(), ScenarioFeatures.builder().build()
            .withProvisioner()).withProvisioner(ScenarioProvisioner.builder().batchIdleDuration(Duration.ofSeconds(5))
            .batchMaxDuration(Duration.ofMinutes(1)).consolidationPolicy("WhenEmpty")
            .consolidateAfter(Duration.ofMinutes(5)).budgets(List.of(ScenarioProvisioner.Budget.of("20%"),
                new ScenarioProvisioner.Budget("0", List.of("Underutilized")))).build())),
        NodePool.builder().name("a100").nodeLabel("pool", "a100").minSize(0).maxSize(10)
            .startupDelay(Duration.ofMinutes(3)).pricePerHour(32.77).build(),
        ResourceSlice.of("node-1-gpu.example.com", ResourceSliceSpec.builder("gpu.example.com",
            ResourcePool.of("node-1")).nodeName("node-1").devices(List.of(Device.of("gpu-0"),
            Device.builder("gpu-1").taint(DeviceTaint.of("example.com/unhealthy", "ecc", DeviceTaintEffect.NO_SCHEDULE))
                .build())).build()),
        DeviceTaintRule.builder().name("gpu-0-broken")
            .deviceSelector(DeviceTaintSelector.device("gpu.example.com", "node-1", "gpu-0"))
            .taint("example.com/unhealthy", "ecc", DeviceTaintEffect.NO_EXECUTE)
            .timeAdded(Instant.ofEpochSecond(1_700_000_000L)).build()
            .withStatus(new DeviceTaintRuleStatus(List.of(new Condition(DeviceTaintRuleStatus.EVICTION_IN_PROGRESS,
                ConditionStatus.True, 1, Instant.ofEpochSecond(1_700_000_010L),
                DeviceTaintRuleStatus.PODS_PENDING_EVICTION, "1 pod needs to be evicted in 1 namespace.")))),
        io.fleetkit.api.core.ReplicationController.builder().name("frontend").replicas(2).minReadySeconds(5)
            .template(APP, pod).build());
  }

  static JobSpec jobSpec() {
    return ((Job) all().get(5)).spec();
  }
}
