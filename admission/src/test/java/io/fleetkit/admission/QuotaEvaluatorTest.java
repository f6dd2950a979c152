package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaScope;
import io.fleetkit.api.core.ResourceQuotaSpec;
import io.fleetkit.api.core.ResourceQuotaStatus;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.ScopeSelectorOperator;
import io.fleetkit.api.core.ScopedResourceSelectorRequirement;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.WeightedPodAffinityTerm;
import io.fleetkit.api.store.ObjectStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Ported from Kubernetes {@code pkg/quota/v1/evaluator/core/pods_test.go}: TestPodConstraintsFunc,
 * TestPodEvaluatorUsage, TestPodEvaluatorUsageStats and TestPodEvaluatorMatchingScopes (see docs/conformance.md for
 * the cases left out). Upstream's containers are often unnamed and its pods may have only init containers; here
 * every container is named and such pods get an empty regular container "main", which adds no usage.
 */
final class QuotaEvaluatorTest {
  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  static ResourceList kv(String... kv) {
    return ResourceQuotaPluginTest.kv(kv);
  }

  static Container ctr(String name, ResourceList requests, ResourceList limits) {
    return Container.of(name, "img", new ResourceRequirements(requests, limits));
  }

  static Pod pod(List<Container> inits, List<Container> containers) {
    List<Container> regular = containers.isEmpty() ? List.of(ctr("main", ResourceList.EMPTY, ResourceList.EMPTY))
        : containers;
    return Pod.of(ObjectMeta.of("test", "p"), PodSpec.builder().containers(regular).initContainers(inits).build());
  }

  static Pod initOnly(ResourceList requests, ResourceList limits) {
    return pod(List.of(ctr("init", requests, limits)), List.of());
  }

  static Pod one(ResourceList requests, ResourceList limits) {
    return pod(List.of(), List.of(ctr("c", requests, limits)));
  }

  static ResourceList usage(Pod p) {
    return QuotaEvaluator.usage(p, NOW);
  }

  // ------------------------------------------------------------------------------------ TestPodConstraintsFunc

  @Test
  void podConstraintsFunc_upstreamCases() {
    ResourceList cpu = kv("cpu", "1m");
    ResourceList cpuLim = kv("cpu", "2m");
    ResourceList mem = kv("memory", "1Mi"); // keeps the added "main" container out of the missing list
    // "init container resource missing"
    assertThat(QuotaEvaluator.constraints(List.of("memory"),
        pod(List.of(ctr("dummy", cpu, cpuLim)), List.of(ctr("main", mem, ResourceList.EMPTY)))))
        .isEqualTo("must specify memory for: dummy");
    // "multiple init container resource missing"
    assertThat(QuotaEvaluator.constraints(List.of("memory"),
        pod(List.of(ctr("foo", cpu, cpuLim), ctr("bar", cpu, cpuLim)), List.of(ctr("main", mem, ResourceList.EMPTY)))))
        .isEqualTo("must specify memory for: bar,foo");
    // "container resource missing"
    assertThat(QuotaEvaluator.constraints(List.of("memory"), pod(List.of(), List.of(ctr("dummy", cpu, cpuLim)))))
        .isEqualTo("must specify memory for: dummy");
    // "multiple container resource missing"
    assertThat(QuotaEvaluator.constraints(List.of("memory"),
        pod(List.of(), List.of(ctr("foo", cpu, cpuLim), ctr("bar", cpu, cpuLim)))))
        .isEqualTo("must specify memory for: bar,foo");
    // "container resource missing multiple"
    assertThat(QuotaEvaluator.constraints(List.of("memory", "cpu"), pod(List.of(),
        List.of(ctr("foo", ResourceList.EMPTY, ResourceList.EMPTY), ctr("bar", ResourceList.EMPTY, ResourceList.EMPTY)))))
        .isEqualTo("must specify cpu for: bar,foo; memory for: bar,foo");
  }

  /** A pod with pod-level resources {@code requests}/{@code limits} and {@code containers}. */
  static Pod podLevel(ResourceList requests, ResourceList limits, List<Container> containers) {
    List<Container> regular = containers.isEmpty() ? List.of(ctr("main", ResourceList.EMPTY, ResourceList.EMPTY))
        : containers;
    return Pod.of(ObjectMeta.of("test", "p"), PodSpec.builder().containers(regular)
        .resources(ResourceRequirements.of(requests, limits)).build());
  }

  // pods_test.go (commit 008b3652) TestPodConstraintsFunc "pod-level resource set, container-level required resources
  // missing"
  @Test
  void podConstraintsFunc_podLevelResourceSet_containersNeedNotSetThem() {
    Pod p = podLevel(kv("cpu", "1m"), ResourceList.EMPTY,
        List.of(ctr("foo", ResourceList.EMPTY, ResourceList.EMPTY), ctr("bar", ResourceList.EMPTY, ResourceList.EMPTY)));
    assertThat(QuotaEvaluator.constraints(List.of("memory", "cpu"), p)).isNull();
  }

  @Test
  void bestEffortScope_podLevelRequests_makeThePodNotBestEffort() {
    // ComputePodQOS reads pod-level cpu and memory, when set, instead of the containers'
    Pod p = podLevel(kv("cpu", "500m"), ResourceList.EMPTY, List.of());
    assertThat(QuotaEvaluator.isBestEffort(p.spec())).isFalse();
    assertThat(QuotaEvaluator.isBestEffort(podLevel(kv("hugepages-2Mi", "2Mi", "cpu", "0"), kv("hugepages-2Mi", "2Mi"),
        List.of(ctr("c", kv("cpu", "0"), ResourceList.EMPTY))).spec())).isTrue();
  }

  // pods_test.go (commit 008b3652) TestPodEvaluatorUsage: the 3 pod-level cases

  @Test
  void podEvaluatorUsage_podLevelCpu() {
    assertThat(usage(podLevel(kv("cpu", "1m"), kv("cpu", "2m"), List.of())))
        .isEqualTo(kv("requests.cpu", "1m", "limits.cpu", "2m", "pods", "1", "cpu", "1m", "count/pods", "1"));
  }

  @Test
  void podEvaluatorUsage_podLevelMemory() {
    assertThat(usage(podLevel(kv("memory", "1Mi"), kv("memory", "2Mi"), List.of())))
        .isEqualTo(kv("requests.memory", "1Mi", "limits.memory", "2Mi", "pods", "1", "memory", "1Mi",
            "count/pods", "1"));
  }

  @Test
  void podEvaluatorUsage_podLevelMemoryWithContainerLevelEphemeralStorage() {
    assertThat(usage(podLevel(kv("memory", "1Mi"), kv("memory", "2Mi"),
        List.of(ctr("c", kv("ephemeral-storage", "32Mi"), kv("ephemeral-storage", "64Mi"))))))
        .isEqualTo(kv("ephemeral-storage", "32Mi", "requests.ephemeral-storage", "32Mi",
            "limits.ephemeral-storage", "64Mi", "pods", "1", "requests.memory", "1Mi", "limits.memory", "2Mi",
            "memory", "1Mi", "count/pods", "1"));
  }

  // -------------------------------------------------------------------------------------- TestPodEvaluatorUsage

  @Test
  void podEvaluatorUsage_initContainerCpu() {
    assertThat(usage(initOnly(kv("cpu", "1m"), kv("cpu", "2m"))))
        .isEqualTo(kv("requests.cpu", "1m", "limits.cpu", "2m", "pods", "1", "cpu", "1m", "count/pods", "1"));
  }

  @Test
  void podEvaluatorUsage_initContainerLocalEphemeralStorage() {
    assertThat(usage(initOnly(kv("ephemeral-storage", "32Mi"), kv("ephemeral-storage", "64Mi"))))
        .isEqualTo(kv("ephemeral-storage", "32Mi", "requests.ephemeral-storage", "32Mi",
            "limits.ephemeral-storage", "64Mi", "pods", "1", "count/pods", "1"));
  }

  @Test
  void podEvaluatorUsage_initContainerHugepages() {
    // Upstream sets only the request; a valid pod also needs an equal limit (hugepages cannot overcommit), which
    // adds nothing to the usage.
    assertThat(usage(initOnly(kv("hugepages-2Mi", "100Mi"), kv("hugepages-2Mi", "100Mi"))))
        .isEqualTo(kv("hugepages-2Mi", "100Mi", "requests.hugepages-2Mi", "100Mi", "pods", "1", "count/pods", "1"));
  }

  @Test
  void podEvaluatorUsage_initContainerExtendedResources() {
    assertThat(usage(initOnly(kv("example.com/dongle", "3"), kv("example.com/dongle", "3"))))
        .isEqualTo(kv("requests.example.com/dongle", "3", "pods", "1", "count/pods", "1"));
  }

  @Test
  void podEvaluatorUsage_containerCpu() {
    assertThat(usage(one(kv("cpu", "1m"), kv("cpu", "2m"))))
        .isEqualTo(kv("requests.cpu", "1m", "limits.cpu", "2m", "pods", "1", "cpu", "1m", "count/pods", "1"));
  }

  @Test
  void podEvaluatorUsage_containerLocalEphemeralStorage() {
    assertThat(usage(one(kv("ephemeral-storage", "32Mi"), kv("ephemeral-storage", "64Mi"))))
        .isEqualTo(kv("ephemeral-storage", "32Mi", "requests.ephemeral-storage", "32Mi",
            "limits.ephemeral-storage", "64Mi", "pods", "1", "count/pods", "1"));
  }

  @Test
  void podEvaluatorUsage_containerHugepages() {
    assertThat(usage(one(kv("hugepages-2Mi", "100Mi"), kv("hugepages-2Mi", "100Mi"))))
        .isEqualTo(kv("hugepages-2Mi", "100Mi", "requests.hugepages-2Mi", "100Mi", "pods", "1", "count/pods", "1"));
  }

  @Test
  void podEvaluatorUsage_containerExtendedResources() {
    assertThat(usage(one(kv("example.com/dongle", "3"), kv("example.com/dongle", "3"))))
        .isEqualTo(kv("requests.example.com/dongle", "3", "pods", "1", "count/pods", "1"));
  }

  @Test
  void podEvaluatorUsage_terminatedGenericCountStillAppears() {
    Pod p = one(kv("example.com/dongle", "3"), kv("example.com/dongle", "3"));
    assertThat(usage(p.withStatus(PodStatus.of(PodPhase.Succeeded)))).isEqualTo(kv("count/pods", "1"));
  }

  @Test
  void podEvaluatorUsage_initContainerMaximumsOverrideSumOfContainers() {
    Pod p = pod(List.of(
            ctr("i0", kv("cpu", "4", "memory", "100M", "example.com/dongle", "4"),
                kv("cpu", "8", "memory", "200M", "example.com/dongle", "4")),
            ctr("i1", kv("cpu", "1", "memory", "50M", "example.com/dongle", "2"),
                kv("cpu", "2", "memory", "100M", "example.com/dongle", "2"))),
        List.of(
            ctr("c0", kv("cpu", "1", "memory", "50M", "example.com/dongle", "1"),
                kv("cpu", "2", "memory", "100M", "example.com/dongle", "1")),
            ctr("c1", kv("cpu", "2", "memory", "25M", "example.com/dongle", "2"),
                kv("cpu", "5", "memory", "50M", "example.com/dongle", "2"))));

    assertThat(usage(p)).isEqualTo(kv("requests.cpu", "4", "requests.memory", "100M", "limits.cpu", "8",
        "limits.memory", "200M", "pods", "1", "cpu", "4", "memory", "100M", "requests.example.com/dongle", "4",
        "count/pods", "1"));
  }

  static Pod deleting(Instant deletionTimestamp) {
    Pod p = one(kv("cpu", "1", "memory", "50M"), kv("cpu", "2", "memory", "100M"));
    p = p.withSpec(p.spec().toBuilder().terminationGracePeriodSeconds(30).build());
    return p.withMetadata(p.metadata().toBuilder().deletionTimestamp(deletionTimestamp)
        .deletionGracePeriodSeconds(30L).build())
        .withStatus(PodStatus.PENDING.withReason("NodeLost", ""));
  }

  @Test
  void podEvaluatorUsage_podDeletionTimestampExceeded() {
    assertThat(usage(deleting(NOW.minusSeconds(60)))).isEqualTo(kv("count/pods", "1"));
  }

  @Test
  void podEvaluatorUsage_podDeletionTimestampNotExceeded() {
    Pod p = one(kv("cpu", "1"), kv("cpu", "2"));
    p = p.withMetadata(p.metadata().toBuilder().deletionTimestamp(NOW).deletionGracePeriodSeconds(30L).build());
    assertThat(usage(p))
        .isEqualTo(kv("requests.cpu", "1", "limits.cpu", "2", "pods", "1", "cpu", "1", "count/pods", "1"));
  }

  @Test
  void podEvaluatorUsage_countPodOverheadAsUsage() {
    Pod p = one(kv("cpu", "1"), kv("cpu", "2"));
    p = p.withSpec(p.spec().toBuilder().overhead(kv("cpu", "1")).build());
    assertThat(usage(p))
        .isEqualTo(kv("requests.cpu", "2", "limits.cpu", "3", "pods", "1", "cpu", "2", "count/pods", "1"));
  }

  // --------------------------------------------------------------------------------- TestPodEvaluatorUsageStats

  /** {@code makePod(name, pcName, resList, phase)}: requests and limits both {@code resList}. */
  static Pod makePod(String name, String pc, ResourceList res, PodPhase phase) {
    return Pod.of(ObjectMeta.of("test", name), PodSpec.builder().priorityClassName(pc)
        .container(ctr("c", res, res)).build()).withStatus(PodStatus.of(phase));
  }

  static ResourceList stats(List<Pod> pods, List<ResourceQuotaScope> scopes,
      List<ScopedResourceSelectorRequirement> selector, ResourceList hard) {
    try (ObjectStore store = ObjectStore.inMemory()) {
      pods.forEach(store::create);
      ResourceQuota q = new ResourceQuota(ObjectMeta.of("test", "q"), new ResourceQuotaSpec(hard, scopes, selector),
          ResourceQuotaStatus.EMPTY);
      return QuotaRecount.usage(store, q, NOW);
    }
  }

  static final ResourceList CPU1 = kv("cpu", "1");
  static final ResourceList POD_HARD = kv("pods", "100", "count/pods", "100", "cpu", "100", "requests.cpu", "100",
      "limits.cpu", "100");
  static final List<ScopedResourceSelectorRequirement> HIGH = List.of(new ScopedResourceSelectorRequirement(
      ResourceQuotaScope.PriorityClass, ScopeSelectorOperator.In, List.of("high-priority")));

  /**
   * The recount, like kube's quota controller, reports every hard resource, 0 when nothing uses it; upstream's
   * UsageStats leaves those out. The quota's hard list is what is counted, so each case's want is compared on it.
   */
  @Test
  void podEvaluatorUsageStats_upstreamCases() {
    // "nil case"
    assertThat(stats(List.of(), List.of(), List.of(), POD_HARD))
        .isEqualTo(kv("pods", "0", "count/pods", "0", "cpu", "0", "requests.cpu", "0", "limits.cpu", "0"));
    // "all pods in running state"
    assertThat(stats(List.of(makePod("p1", "", CPU1, PodPhase.Running), makePod("p2", "", CPU1, PodPhase.Running)),
        List.of(), List.of(), POD_HARD))
        .isEqualTo(kv("pods", "2", "count/pods", "2", "cpu", "2", "requests.cpu", "2", "limits.cpu", "2"));
    // "one pods in terminal state"
    assertThat(stats(List.of(makePod("p1", "", CPU1, PodPhase.Running), makePod("p2", "", CPU1, PodPhase.Succeeded)),
        List.of(), List.of(), POD_HARD))
        .isEqualTo(kv("pods", "1", "count/pods", "2", "cpu", "1", "requests.cpu", "1", "limits.cpu", "1"));
    List<Pod> three = List.of(makePod("p1", "high-priority", CPU1, PodPhase.Running),
        makePod("p2", "high-priority", CPU1, PodPhase.Succeeded), makePod("p3", "low-priority", CPU1, PodPhase.Running));
    // "partial pods matching quotaScopeSelector"
    assertThat(stats(three, List.of(), HIGH, POD_HARD))
        .isEqualTo(kv("pods", "1", "count/pods", "2", "cpu", "1", "requests.cpu", "1", "limits.cpu", "1"));
    // "partial pods matching quotaScopeSelector - w/ scopeName specified"
    assertThat(stats(three, List.of(ResourceQuotaScope.PriorityClass), HIGH, POD_HARD))
        .isEqualTo(kv("pods", "1", "count/pods", "2", "cpu", "1", "requests.cpu", "1", "limits.cpu", "1"));
    // "partial pods matching quotaScopeSelector - w/ multiple scopeNames specified" (a BestEffort scope may only
    // limit pods, so the quota holds count/pods and pods; upstream's UsageStats has no quota to validate)
    List<Pod> four = new ArrayList<>(three);
    four.add(makePod("p4", "high-priority", ResourceList.EMPTY, PodPhase.Failed));
    assertThat(stats(four, List.of(ResourceQuotaScope.PriorityClass, ResourceQuotaScope.BestEffort), HIGH,
        kv("count/pods", "100", "pods", "100")))
        .isEqualTo(kv("count/pods", "1", "pods", "0"));
  }

  // ----------------------------------------------------------------------------- TestPodEvaluatorMatchingScopes

  static final List<ScopedResourceSelectorRequirement> ALL_SCOPES = List.of(
      exists(ResourceQuotaScope.Terminating), exists(ResourceQuotaScope.NotTerminating),
      exists(ResourceQuotaScope.BestEffort), exists(ResourceQuotaScope.NotBestEffort),
      new ScopedResourceSelectorRequirement(ResourceQuotaScope.PriorityClass, ScopeSelectorOperator.In,
          List.of("class1")),
      exists(ResourceQuotaScope.CrossNamespacePodAffinity));

  static ScopedResourceSelectorRequirement exists(ResourceQuotaScope s) {
    return new ScopedResourceSelectorRequirement(s, ScopeSelectorOperator.Exists, List.of());
  }

  static List<String> matching(Pod p, List<ScopedResourceSelectorRequirement> selectors) {
    List<String> out = new ArrayList<>();
    for (ScopedResourceSelectorRequirement s : selectors) {
      if (QuotaEvaluator.podMatchesScope(s, p)) {
        out.add(s.scopeName() == ResourceQuotaScope.PriorityClass ? s.toString() : s.scopeName().name());
      }
    }
    return out;
  }

  static Pod withSpec(java.util.function.UnaryOperator<PodSpec.Builder> f) {
    return Pod.of(ObjectMeta.of("test", "p"), f.apply(PodSpec.builder().container(ctr("c", ResourceList.EMPTY,
        ResourceList.EMPTY))).build());
  }

  static PodAffinityTerm term(List<String> namespaces, boolean nsSelector) {
    return new PodAffinityTerm(LabelSelector.EVERYTHING, namespaces, "zone",
        nsSelector ? LabelSelector.EVERYTHING : null, List.of(), List.of());
  }

  static Pod affinity(PodAffinity podAffinity, PodAffinity antiAffinity) {
    return withSpec(b -> b.activeDeadlineSeconds(30L).affinity(new Affinity(null, podAffinity, antiAffinity)));
  }

  static PodAffinity required(PodAffinityTerm t) {
    return new PodAffinity(List.of(t), List.of());
  }

  static PodAffinity preferred(PodAffinityTerm t) {
    return new PodAffinity(List.of(), List.of(new WeightedPodAffinityTerm(1, t)));
  }

  @Test
  void podEvaluatorMatchingScopes_upstreamCases() {
    List<String> crossNs = List.of("Terminating", "BestEffort", "CrossNamespacePodAffinity");
    assertThat(matching(withSpec(b -> b), ALL_SCOPES)).as("EmptyPod").containsExactly("NotTerminating",
        "BestEffort");
    assertThat(matching(withSpec(b -> b.priorityClassName("class1")), ALL_SCOPES)).as("PriorityClass")
        .containsExactly("NotTerminating", "BestEffort", "{PriorityClass In [class1]}");
    Pod notBestEffort = one(kv("cpu", "1", "memory", "50M", "example.com/dongle", "1"),
        kv("cpu", "2", "memory", "100M", "example.com/dongle", "1"));
    assertThat(matching(notBestEffort, ALL_SCOPES)).as("NotBestEffort").containsExactly("NotTerminating",
        "NotBestEffort");
    Pod terminating = withSpec(b -> b.activeDeadlineSeconds(30L));
    assertThat(matching(terminating, ALL_SCOPES)).as("Terminating").containsExactly("Terminating", "BestEffort");
    assertThat(matching(terminating, List.of(exists(ResourceQuotaScope.Terminating)))).as("OnlyTerminating")
        .containsExactly("Terminating");
    assertThat(matching(affinity(required(term(List.of("ns1"), true)), null), ALL_SCOPES))
        .as("CrossNamespaceRequiredAffinity").isEqualTo(crossNs);
    assertThat(matching(affinity(required(term(List.of("ns1"), false)), null), ALL_SCOPES))
        .as("CrossNamespaceRequiredAffinityWithSlice").isEqualTo(crossNs);
    assertThat(matching(affinity(preferred(term(List.of("ns2"), true)), null), ALL_SCOPES))
        .as("CrossNamespacePreferredAffinity").isEqualTo(crossNs);
    assertThat(matching(affinity(preferred(term(List.of(), true)), null), ALL_SCOPES))
        .as("CrossNamespacePreferredAffinityWithSelector").isEqualTo(crossNs);
    assertThat(matching(affinity(null, preferred(term(List.of(), true))), ALL_SCOPES))
        .as("CrossNamespacePreferredAntiAffinity").isEqualTo(crossNs);
    assertThat(matching(affinity(null, required(term(List.of("ns3"), false))), ALL_SCOPES))
        .as("CrossNamespaceRequiredAntiAffinity").isEqualTo(crossNs);
  }

  @Test
  void countName_coreAndGroupedKinds() {
    assertThat(QuotaEvaluator.countName(one(ResourceList.EMPTY, ResourceList.EMPTY))).isEqualTo("count/pods");
    assertThat(QuotaEvaluator.countName(io.fleetkit.api.core.ConfigMap.of("a", "b", java.util.Map.of())))
        .isEqualTo("count/configmaps");
    assertThat(QuotaEvaluator.countName(ResourceQuota.of("a", "b", kv("pods", "1"))))
        .isEqualTo("count/resourcequotas");
  }
}
