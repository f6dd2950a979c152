package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeMode;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaScope;
import io.fleetkit.api.core.ResourceQuotaSpec;
import io.fleetkit.api.core.ResourceQuotaStatus;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.ScopeSelectorOperator;
import io.fleetkit.api.core.ScopedResourceSelectorRequirement;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.core.VolumeResourceRequirements;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Ported from Kubernetes {@code plugin/pkg/admission/resourcequota/admission_test.go}, run through a store with the
 * plugin in its admission chain (upstream's quota lives only in the status; here spec.hard equals status.hard so
 * the status is current). Each test names its upstream function.
 */
class ResourceQuotaPluginTest {
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

  final ValidatingAdmissionPlugin quotaPlugin = plugin();
  final AdmissionChain chain = AdmissionChain.of(quotaPlugin);
  final ObjectStore store = ObjectStore.builder().directDelivery().admission(chain).build();

  /** The plugin under test, publishing after every charge so that the status is current as upstream's. */
  ValidatingAdmissionPlugin plugin() {
    return new ResourceQuotaPlugin(CLOCK, QuotaLedger.publishingEveryCharge());
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** {@code getResourceList(cpu, memory)}. */
  static ResourceList rl(String cpu, String memory) {
    return LimitRangerPluginTest.c(cpu, memory);
  }

  static ResourceList kv(String... kv) {
    ResourceList.Builder b = ResourceList.builder();
    for (int i = 0; i < kv.length; i += 2) {
      b.put(kv[i], kv[i + 1]);
    }
    return b.build();
  }

  /** {@code validPod(name, n, resources)} (upstream's containers are unnamed; here c-0, c-1, ...). */
  static Pod pod(String name, int n, ResourceList requests, ResourceList limits) {
    PodSpec.Builder spec = PodSpec.builder();
    for (int i = 0; i < n; i++) {
      spec.container(Container.of("c-" + i, "foo:V" + i, new ResourceRequirements(requests, limits)));
    }
    return Pod.of(ObjectMeta.of("test", name), spec.build());
  }

  static Pod withPriorityClass(Pod p, String cls) {
    return p.withSpec(p.spec().toBuilder().priorityClassName(cls).build());
  }

  ResourceQuota quota(String name, List<ResourceQuotaScope> scopes, List<ScopedResourceSelectorRequirement> sel,
      ResourceList hard, ResourceList used) {
    return store.create(new ResourceQuota(ObjectMeta.of("test", name), new ResourceQuotaSpec(hard, scopes, sel),
        new ResourceQuotaStatus(hard, used)));
  }

  ResourceQuota quota(String name, ResourceList hard, ResourceList used) {
    return quota(name, List.of(), List.of(), hard, used);
  }

  ResourceList used(String name) {
    return store.require(ResourceQuota.class, "test", name).status().used();
  }

  String denial(Runnable r) {
    List<String> out = new ArrayList<>();
    assertThatThrownBy(r::run).isInstanceOfSatisfying(AdmissionDeniedException.class, e -> {
      assertThat(e.plugin()).isEqualTo("ResourceQuota");
      out.add(e.rule());
    });
    return out.get(0);
  }

  @Test
  void admitBelowQuotaLimit_usageIsCharged() {
    quota("quota", kv("cpu", "3", "memory", "100Gi", "pods", "5"), kv("cpu", "1", "memory", "50Gi", "pods", "3"));

    store.create(pod("allowed-pod", 1, rl("100m", "2Gi"), rl("", "")));

    assertThat(used("quota")).isEqualTo(kv("cpu", "1100m", "memory", "52Gi", "pods", "4"));
    assertThat(used("quota").get("cpu")).hasToString("1100m");
  }

  @Test
  void admitExceedQuotaLimit_isDeniedWithUpstreamsMessage() {
    quota("quota", kv("cpu", "3", "memory", "100Gi", "pods", "5"), kv("cpu", "1", "memory", "50Gi", "pods", "3"));

    assertThat(denial(() -> store.create(pod("not-allowed-pod", 1, rl("3", "2Gi"), rl("", "")))))
        .isEqualTo("exceeded quota: quota, requested: cpu=3, used: cpu=1, limited: cpu=3");
    assertThat(used("quota")).isEqualTo(kv("cpu", "1", "memory", "50Gi", "pods", "3"));
    assertThat(store.get(Pod.class, "test", "not-allowed-pod")).isEmpty();
  }

  @Test
  void admitEnforceQuotaConstraints_missingMemoryLimit_isDenied() {
    quota("quota", kv("cpu", "3", "memory", "100Gi", "limits.memory", "200Gi", "pods", "5"),
        kv("cpu", "1", "memory", "50Gi", "limits.memory", "100Gi", "pods", "3"));

    assertThat(denial(() -> store.create(pod("not-allowed-pod", 1, rl("100m", "2Gi"), rl("200m", "")))))
        .isEqualTo("failed quota: quota: must specify limits.memory for: c-0");
  }

  @Test
  void admitPodInNamespaceWithoutQuota_isAdmitted() {
    store.create(new ResourceQuota(ObjectMeta.of("other", "quota"), ResourceQuotaSpec.of(kv("pods", "5")),
        new ResourceQuotaStatus(kv("pods", "5"), kv("pods", "5"))));

    store.create(pod("allowed-pod", 1, rl("100m", "2Gi"), rl("200m", "")));

    assertThat(store.get(Pod.class, "test", "allowed-pod")).isPresent();
  }

  @Test
  void admitBelowTerminatingQuotaLimit_onlyTheTerminatingQuotaIsCharged() {
    ResourceList hard = kv("cpu", "3", "memory", "100Gi", "pods", "5");
    ResourceList used = kv("cpu", "1", "memory", "50Gi", "pods", "3");
    quota("quota-non-terminating", List.of(ResourceQuotaScope.NotTerminating), List.of(), hard, used);
    quota("quota-terminating", List.of(ResourceQuotaScope.Terminating), List.of(), hard, used);
    Pod p = pod("allowed-pod", 1, rl("100m", "2Gi"), rl("", ""));

    store.create(p.withSpec(p.spec().toBuilder().activeDeadlineSeconds(30L).build()));

    assertThat(used("quota-terminating")).isEqualTo(kv("cpu", "1100m", "memory", "52Gi", "pods", "4"));
    assertThat(used("quota-non-terminating")).isEqualTo(used);
  }

  @Test
  void admitBelowBestEffortQuotaLimit_onlyTheBestEffortQuotaIsCharged() {
    quota("quota-besteffort", List.of(ResourceQuotaScope.BestEffort), List.of(), kv("pods", "5"), kv("pods", "3"));
    quota("quota-not-besteffort", List.of(ResourceQuotaScope.NotBestEffort), List.of(), kv("pods", "5"),
        kv("pods", "3"));

    store.create(pod("allowed-pod", 1, rl("", ""), rl("", "")));

    assertThat(used("quota-besteffort")).isEqualTo(kv("pods", "4"));
    assertThat(used("quota-not-besteffort")).isEqualTo(kv("pods", "3"));
  }

  @Test
  void admitBestEffortQuotaLimitIgnoresBurstable_noCharge() {
    ResourceQuota q = quota("quota-besteffort", List.of(ResourceQuotaScope.BestEffort), List.of(), kv("pods", "5"),
        kv("pods", "3"));

    store.create(pod("allowed-pod", 1, rl("100m", "1Gi"), rl("", "")));

    assertThat(store.require(ResourceQuota.class, "test", "quota-besteffort").metadata().resourceVersion())
        .isEqualTo(q.metadata().resourceVersion());
  }

  @Test
  void admitWhenUnrelatedResourceExceedsQuota_podIsAdmitted() {
    quota("quota", kv("services", "3", "pods", "4"), kv("services", "4", "pods", "1"));

    store.create(pod("allowed-pod", 1, rl("", ""), rl("", "")));

    assertThat(used("quota")).isEqualTo(kv("services", "4", "pods", "2"));
  }

  @Test
  void admissionIgnoresDelete_andSubresources() {
    // TestAdmissionIgnoresDelete; TestAdmissionIgnoresSubresources (its first half: a create over quota fails;
    // status updates, the only subresource here, are never admitted).
    quota("quota", kv("memory", "2Gi"), kv("memory", "1Gi"));
    assertThat(denial(() -> store.create(pod("123", 1, rl("100m", "2Gi"), rl("", "")))))
        .isEqualTo("exceeded quota: quota, requested: memory=2Gi, used: memory=1Gi, limited: memory=2Gi");
    store.create(pod("small", 1, rl("100m", "512Mi"), rl("", "")));
    ResourceList before = used("quota");

    store.delete(Pod.class, "test", "small");

    assertThat(used("quota")).isEqualTo(before);
  }

  static Service service(ServiceType type, int ports) {
    ServiceSpec.Builder b = ServiceSpec.builder().type(type);
    for (int i = 0; i < ports; i++) {
      b.port(ServicePort.of("p" + i, 1234 + i, 1234 + i));
    }
    return Service.of(ObjectMeta.of("test", "service"), b.build());
  }

  @Test
  void admitHandlesOldObjects_serviceTypeChangeChargesOnlyTheGrowth() {
    // Upstream's old load balancer has no ports (its unit test skips validation, which requires one); here it has
    // one port and the new NodePort service two, so the node-port growth is still one.
    Service lb = store.create(service(ServiceType.LoadBalancer, 1));
    quota("quota", kv("services", "10", "services.loadbalancers", "10", "services.nodeports", "10"),
        kv("services", "1", "services.loadbalancers", "1", "services.nodeports", "0"));

    store.update(service(ServiceType.NodePort, 2).withMetadata(lb.metadata()));

    assertThat(used("quota"))
        .isEqualTo(kv("services", "1", "services.loadbalancers", "1", "services.nodeports", "1"));
  }

  /** Upstream's TestAdmitHandlesCreatingUpdates: an update whose old object was never stored is charged whole. */
  @Test
  void admitHandlesCreatingUpdates_oldObjectWithoutVersion_isIgnored() {
    quota("quota", kv("services", "10", "services.loadbalancers", "10", "services.nodeports", "10"),
        kv("services", "1", "services.loadbalancers", "1", "services.nodeports", "0"));
    Service old = service(ServiceType.LoadBalancer, 1); // resourceVersion "": it did not exist
    assertThat(old.metadata().resourceVersion()).isEmpty();

    chain.admit(AdmissionOperation.UPDATE, service(ServiceType.NodePort, 1), old, store);

    assertThat(used("quota"))
        .isEqualTo(kv("services", "2", "services.loadbalancers", "1", "services.nodeports", "1"));
  }

  /**
   * Upstream's TestAdmitDryRun: a dry-run create within the quota is allowed, one past it refused, and neither
   * writes the quota ("no client action"). Added here: the allowed dry run charged nothing, so a pod that fits only
   * without its 2Gi still fits.
   */
  @Test
  void admitDryRun_isCheckedButChargesNothing() {
    ResourceQuota q = quota("quota", kv("cpu", "3", "memory", "100Gi", "pods", "5"),
        kv("cpu", "1", "memory", "50Gi", "pods", "3"));

    Pod admitted = chain.admitDryRun(AdmissionOperation.CREATE, pod("allowed-pod", 1, rl("100m", "2Gi"),
        rl("", "")), null, store);
    assertThat(admitted.metadata().name()).isEqualTo("allowed-pod");
    assertThat(denial(() -> chain.admitDryRun(AdmissionOperation.CREATE, pod("too-large-pod", 1,
        rl("100m", "60Gi"), rl("", "")), null, store)))
        .isEqualTo("exceeded quota: quota, requested: memory=60Gi, used: memory=50Gi, limited: memory=100Gi");

    assertThat(store.require(ResourceQuota.class, "test", "quota").metadata().resourceVersion())
        .isEqualTo(q.metadata().resourceVersion());
    assertThat(used("quota")).isEqualTo(kv("cpu", "1", "memory", "50Gi", "pods", "3"));
    store.create(pod("exactly-fits", 1, rl("100m", "50Gi"), rl("", "")));
    assertThat(used("quota")).isEqualTo(kv("cpu", "1100m", "memory", "100Gi", "pods", "4"));
    assertThat(store.get(Pod.class, "test", "allowed-pod")).isEmpty();
  }

  static PersistentVolumeClaim pvc(String name, String storage) {
    return PersistentVolumeClaim.of(ObjectMeta.of("test", name), new PersistentVolumeClaimSpec(
        List.of(PersistentVolumeAccessMode.ReadWriteOnce), null, new VolumeResourceRequirements(
            kv("storage", storage), ResourceList.EMPTY), null, PersistentVolumeMode.Filesystem, ""));
  }

  @Test
  void admitHandlesNegativePvcUpdates_noWrite() {
    // Bound with 4Gi after a failed expansion to 10Gi: the store lets the request shrink back above the capacity
    // (ValidatePersistentVolumeClaimUpdate with RecoverVolumeExpansionFailure), the case's negative change.
    PersistentVolumeClaim old = bound(store.create(pvc("pvc-to-update", "10Gi")), "4Gi");
    ResourceQuota q = quota("quota", kv("persistentvolumeclaims", "3", "requests.storage", "100Gi"),
        kv("persistentvolumeclaims", "1", "requests.storage", "10Gi"));

    store.update(pvc("pvc-to-update", "5Gi").withMetadata(old.metadata()));

    assertThat(store.require(ResourceQuota.class, "test", "quota").metadata().resourceVersion())
        .isEqualTo(q.metadata().resourceVersion());
  }

  @Test
  void admitHandlesPvcUpdates_growthIsCharged() {
    // only a bound claim's storage request may change (ValidatePersistentVolumeClaimUpdate)
    PersistentVolumeClaim old = bound(store.create(pvc("pvc-to-update", "10Gi")), "10Gi");
    quota("quota", kv("persistentvolumeclaims", "3", "requests.storage", "100Gi"),
        kv("persistentvolumeclaims", "1", "requests.storage", "10Gi"));

    store.update(pvc("pvc-to-update", "15Gi").withMetadata(old.metadata()));

    assertThat(used("quota")).isEqualTo(kv("persistentvolumeclaims", "1", "requests.storage", "15Gi"));
  }

  /** {@code claim} bound, with {@code capacity} in its status (what the PV controller writes). */
  private PersistentVolumeClaim bound(PersistentVolumeClaim claim, String capacity) {
    return store.updateStatus(claim.withStatus(io.fleetkit.api.core.PersistentVolumeClaimStatus.bound(
        claim.spec().accessModes(), io.fleetkit.api.resource.ResourceList.builder().put("storage", capacity)
            .build())));
  }

  @Test
  void admitRejectsNegativeUsage_negativeClaimNeverReachesAdmission() {
    quota("quota", kv("persistentvolumeclaims", "3", "requests.storage", "100Gi"),
        kv("persistentvolumeclaims", "1", "requests.storage", "10Gi"));

    // A negative request is refused by the claim's own validation, before any quota sees it.
    assertThatThrownBy(() -> pvc("not-allowed-pvc", "-1Gi")).isInstanceOf(ValidationException.class);
    store.create(pvc("allowed-pvc", "1Gi"));

    assertThat(used("quota")).isEqualTo(kv("persistentvolumeclaims", "2", "requests.storage", "11Gi"));
  }

  @Test
  void admitLimitedScopeWithCoverQuota_priorityClassExistsQuotaExceeded() {
    // The case "quota fails, though covering quota for configured limited scope PriorityClassNameExists exists";
    // the LimitedResources configuration it also sets is satisfied and does not change the outcome.
    quota("quota", List.of(), List.of(new ScopedResourceSelectorRequirement(ResourceQuotaScope.PriorityClass,
        ScopeSelectorOperator.Exists, List.of())), kv("memory", "10Gi"), kv("memory", "1Gi"));

    assertThat(denial(() -> store.create(withPriorityClass(pod("not-allowed-pod", 1, rl("3", "20Gi"), rl("", "")),
        "fake-priority"))))
        .isEqualTo("exceeded quota: quota, requested: memory=20Gi, used: memory=1Gi, limited: memory=10Gi");
  }

  @Test
  void extendedResourceObjectCountAndStorageClass_areCharged() {
    quota("gpu", kv("requests.nvidia.com/gpu", "2"), kv("requests.nvidia.com/gpu", "1"));
    quota("objects", kv("count/deployments.apps", "1", "count/pods", "10"),
        kv("count/deployments.apps", "1", "count/pods", "0"));
    quota("gold", kv("gold.storageclass.storage.k8s.io/requests.storage", "10Gi"),
        kv("gold.storageclass.storage.k8s.io/requests.storage", "0"));

    assertThat(denial(() -> store.create(pod("gpu-2", 1, kv("nvidia.com/gpu", "2"), kv("nvidia.com/gpu", "2")))))
        .isEqualTo("exceeded quota: gpu, requested: requests.nvidia.com/gpu=2, used: requests.nvidia.com/gpu=1,"
            + " limited: requests.nvidia.com/gpu=2");
    assertThat(used("objects")).isEqualTo(kv("count/deployments.apps", "1", "count/pods", "0"));
    store.create(pod("gpu-1", 1, kv("nvidia.com/gpu", "1"), kv("nvidia.com/gpu", "1")));
    assertThat(used("gpu")).isEqualTo(kv("requests.nvidia.com/gpu", "2"));
    assertThat(used("objects")).isEqualTo(kv("count/deployments.apps", "1", "count/pods", "1"));
    assertThat(denial(() -> store.create(Deployment.builder().namespace("test").name("web").replicas(1)
        .matchLabels(java.util.Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "nginx", ResourceList.EMPTY).build()).build())))
        .startsWith("exceeded quota: objects, requested: count/deployments.apps=1");
    PersistentVolumeClaim big = pvc("big", "11Gi");
    PersistentVolumeClaim gold = PersistentVolumeClaim.of(big.metadata(), new PersistentVolumeClaimSpec(
        big.spec().accessModes(), null, big.spec().resources(), "gold", PersistentVolumeMode.Filesystem, ""));
    assertThat(denial(() -> store.create(gold))).isEqualTo("exceeded quota: gold, requested:"
        + " gold.storageclass.storage.k8s.io/requests.storage=11Gi, used:"
        + " gold.storageclass.storage.k8s.io/requests.storage=0, limited:"
        + " gold.storageclass.storage.k8s.io/requests.storage=10Gi");
    store.create(big); // another class: not this quota's business
  }

  @Test
  void newQuota_withoutStatus_isRecountedFromTheStoreBeforeCharging() {
    store.create(pod("existing", 1, rl("1", "1Gi"), rl("", "")));
    store.create(ResourceQuota.of("test", "fresh", kv("requests.cpu", "2", "pods", "2")));

    assertThat(denial(() -> store.create(pod("big", 1, rl("1500m", ""), rl("", "")))))
        .isEqualTo("exceeded quota: fresh, requested: requests.cpu=1500m, used: requests.cpu=1, limited:"
            + " requests.cpu=2");
    ResourceQuota q = store.require(ResourceQuota.class, "test", "fresh");
    assertThat(q.status().hard()).isEqualTo(q.spec().hard());
    assertThat(q.status().used()).isEqualTo(kv("requests.cpu", "1", "pods", "1"));
  }

  @Test
  void secondQuotaDenies_firstQuotasChargeIsRefunded() {
    quota("a-loose", kv("pods", "10"), kv("pods", "0"));
    quota("b-tight", kv("requests.cpu", "1"), kv("requests.cpu", "0"));

    denial(() -> store.create(pod("p", 1, rl("2", ""), rl("", ""))));

    assertThat(used("a-loose")).isEqualTo(kv("pods", "0"));
  }
}
