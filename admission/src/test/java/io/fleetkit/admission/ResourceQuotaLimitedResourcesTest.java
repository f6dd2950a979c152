package io.fleetkit.admission;

import static io.fleetkit.admission.ResourceQuotaPluginTest.CLOCK;
import static io.fleetkit.admission.ResourceQuotaPluginTest.kv;
import static io.fleetkit.admission.ResourceQuotaPluginTest.rl;
import static io.fleetkit.admission.ResourceQuotaPluginTest.service;
import static io.fleetkit.admission.ResourceQuotaPluginTest.withPriorityClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaScope;
import io.fleetkit.api.core.ResourceQuotaSpec;
import io.fleetkit.api.core.ResourceQuotaStatus;
import io.fleetkit.api.core.ScopeSelectorOperator;
import io.fleetkit.api.core.ScopedResourceSelectorRequirement;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from Kubernetes {@code plugin/pkg/admission/resourcequota/admission_test.go}: the tests of the admission
 * configuration's {@code limitedResources} (TestAdmitLimitedResourceNoQuota, ...NoQuotaIgnoresNonMatchingResources,
 * ...WithQuota, ...WithMultipleQuota, ...WithQuotaThatDoesNotCover, TestAdmitLimitedScopeWithCoverQuota, and the
 * three ...WithoutCoveringQuota tests of Service updates). Upstream checks {@code strings.Contains(err, expErr)};
 * the rules here are compared whole.
 */
final class ResourceQuotaLimitedResourcesTest {

  private static ObjectStore store(List<LimitedResource> limited) {
    return ObjectStore.builder().directDelivery().admission(AdmissionChain.of(
        new ResourceQuotaPlugin(CLOCK, QuotaLedger.publishingEveryCharge(), limited))).build();
  }

  private static ResourceQuota quota(String name, List<ResourceQuotaScope> scopes,
      List<ScopedResourceSelectorRequirement> selector, ResourceList hard, ResourceList used) {
    return new ResourceQuota(ObjectMeta.of("test", name), new ResourceQuotaSpec(hard, scopes, selector),
        new ResourceQuotaStatus(hard, used));
  }

  private static @Nullable String outcome(ObjectStore store, Runnable create) {
    try {
      create.run();
      return null;
    } catch (AdmissionDeniedException e) {
      assertThat(e.plugin()).isEqualTo(ResourceQuotaPlugin.NAME);
      return e.rule();
    }
  }

  private static final Pod POD = ResourceQuotaPluginTest.pod("not-allowed-pod", 1, rl("3", "2Gi"), rl("", ""));

  @Test
  void admitLimitedResourceNoQuota_cpuWithoutCoveringQuota_isDenied() {
    try (ObjectStore s = store(List.of(LimitedResource.of("pods", "cpu")))) {
      assertThat(outcome(s, () -> s.create(POD))).isEqualTo("insufficient quota to consume: cpu,requests.cpu");
    }
  }

  @Test
  void admitLimitedResourceNoQuotaIgnoresNonMatchingResources_podAdmitted() {
    try (ObjectStore s = store(List.of(LimitedResource.of("services", "services")))) {
      assertThat(outcome(s, () -> s.create(POD))).isNull();
    }
  }

  @Test
  void admitLimitedResourceWithQuota_coveredByRequestsCpu_podAdmittedAndCharged() {
    try (ObjectStore s = store(List.of(LimitedResource.of("pods", "requests.cpu")))) {
      s.create(quota("quota", List.of(), List.of(), kv("requests.cpu", "10"), kv("requests.cpu", "1")));
      assertThat(outcome(s, () -> s.create(POD))).isNull();
      assertThat(s.require(ResourceQuota.class, "test", "quota").status().used()).isEqualTo(kv("requests.cpu", "4"));
    }
  }

  @Test
  void admitLimitedResourceWithMultipleQuota_oneCovers_podAdmitted() {
    try (ObjectStore s = store(List.of(LimitedResource.of("pods", "requests.cpu")))) {
      s.create(quota("quota1", List.of(), List.of(), kv("requests.cpu", "10"), kv("requests.cpu", "1")));
      s.create(quota("quota2", List.of(), List.of(), kv("memory", "10Gi"), kv("memory", "1Gi")));
      assertThat(outcome(s, () -> s.create(POD))).isNull();
    }
  }

  @Test
  void admitLimitedResourceWithQuotaThatDoesNotCover_memoryQuotaOnly_isDenied() {
    try (ObjectStore s = store(List.of(LimitedResource.of("pods", "cpu")))) {
      s.create(quota("quota", List.of(), List.of(), kv("memory", "10Gi"), kv("memory", "1Gi")));
      assertThat(outcome(s, () -> s.create(POD))).isEqualTo("insufficient quota to consume: cpu,requests.cpu");
    }
  }

  // ------------------------------------------------------------------------- TestAdmitLimitedScopeWithCoverQuota

  private static ScopedResourceSelectorRequirement pcExists() {
    return new ScopedResourceSelectorRequirement(ResourceQuotaScope.PriorityClass, ScopeSelectorOperator.Exists,
        List.of());
  }

  private static ScopedResourceSelectorRequirement pcIn(String... values) {
    return new ScopedResourceSelectorRequirement(ResourceQuotaScope.PriorityClass, ScopeSelectorOperator.In,
        List.of(values));
  }

  private static ScopedResourceSelectorRequirement bestEffort() {
    return new ScopedResourceSelectorRequirement(ResourceQuotaScope.BestEffort, ScopeSelectorOperator.Exists,
        List.of());
  }

  private static LimitedResource scopes(ScopedResourceSelectorRequirement s) {
    return LimitedResource.ofScopes("pods", s);
  }

  /** Upstream's quota "quota" with only a scope selector (no hard limits). */
  private static ResourceQuota selectorQuota(ScopedResourceSelectorRequirement s) {
    return quota("quota", List.of(), List.of(s), ResourceList.EMPTY, ResourceList.EMPTY);
  }

  /** Upstream's "quota-besteffort": scope BestEffort, pods 5, 3 used. */
  private static ResourceQuota bestEffortQuota() {
    return quota("quota-besteffort", List.of(ResourceQuotaScope.BestEffort), List.of(), kv("pods", "5"),
        kv("pods", "3"));
  }

  private static Pod pod(String name, String cpu, String memory, String priorityClass) {
    return withPriorityClass(ResourceQuotaPluginTest.pod(name, 1, rl(cpu, memory), rl("", "")), priorityClass);
  }

  private static final String NO_SCOPE_PC_EXISTS = "insufficient quota to match these scopes: "
      + "[{PriorityClass Exists []}]";
  private static final String NO_SCOPE_BEST_EFFORT = "insufficient quota to match these scopes: "
      + "[{BestEffort Exists []}]";
  private static final String NO_SCOPE_PC_IN = "insufficient quota to match these scopes: "
      + "[{PriorityClass In [cluster-services]}]";
  private static final String NO_SCOPE_PC_IN_TWO = "insufficient quota to match these scopes: "
      + "[{PriorityClass In [another-priorityclass-name cluster-services]}]";

  static Stream<Arguments> limitedScopeWithCoverQuota() {
    List<LimitedResource> twoScopes = List.of(scopes(bestEffort()), scopes(pcIn("cluster-services")));
    List<LimitedResource> inTwo = List.of(scopes(pcIn("another-priorityclass-name", "cluster-services")));
    return Stream.of(
        Arguments.of("Covering quota exists for configured limited scope PriorityClassNameExists.",
            pod("allowed-pod", "3", "2Gi", "fake-priority"), List.of(selectorQuota(pcExists())),
            List.of(scopes(pcExists())), null),
        Arguments.of("configured limited scope PriorityClassNameExists and limited cpu resource. No covering quota "
            + "for cpu and pod admit fails.", pod("not-allowed-pod", "3", "2Gi", "fake-priority"),
            List.of(selectorQuota(pcExists())),
            List.of(new LimitedResource("", "pods", List.of("requests.cpu"), List.of(pcExists()))),
            "insufficient quota to consume: requests.cpu"),
        Arguments.of("Covering quota does not exist for configured limited scope PriorityClassNameExists.",
            pod("not-allowed-pod", "3", "2Gi", "fake-priority"), List.of(), List.of(scopes(pcExists())),
            NO_SCOPE_PC_EXISTS),
        Arguments.of("Covering quota does not exist for configured limited scope resourceQuotaBestEffort",
            pod("not-allowed-pod", "", "", "fake-priority"), List.of(), List.of(scopes(bestEffort())),
            NO_SCOPE_BEST_EFFORT),
        Arguments.of("Covering quota exist for configured limited scope resourceQuotaBestEffort",
            pod("allowed-pod", "", "", "fake-priority"), List.of(bestEffortQuota()), List.of(scopes(bestEffort())),
            null),
        Arguments.of("Two scopes,BestEffort and PriorityClassIN, in two LimitedResources. Neither matches pod. "
            + "Pod allowed", pod("allowed-pod", "100m", "1Gi", "fake-priority"), List.of(), twoScopes, null),
        Arguments.of("Two scopes,BestEffort and PriorityClassIN, in two LimitedResources. Only BestEffort scope "
            + "matches pod. Pod admit fails because covering quota is missing for BestEffort scope",
            pod("allowed-pod", "", "", "fake-priority"), List.of(), twoScopes, NO_SCOPE_BEST_EFFORT),
        Arguments.of("Two scopes,BestEffort and PriorityClassIN, in two LimitedResources. Only PriorityClass scope "
            + "matches pod. Pod admit fails because covering quota is missing for PriorityClass scope",
            pod("allowed-pod", "100m", "1Gi", "cluster-services"), List.of(), twoScopes, NO_SCOPE_PC_IN),
        Arguments.of("Two scopes,BestEffort and PriorityClassIN, in two LimitedResources. Both the scopes matches "
            + "pod. Pod admit fails because covering quota is missing for PriorityClass scope and BestEffort scope",
            pod("allowed-pod", "", "", "cluster-services"), List.of(), twoScopes,
            "insufficient quota to match these scopes: [{BestEffort Exists []} {PriorityClass In [cluster-services]}]"),
        Arguments.of("Two scopes,BestEffort and PriorityClassIN, in two LimitedResources. Both the scopes matches "
            + "pod. Quota available only for BestEffort scope. Pod admit fails because covering quota is missing "
            + "for PriorityClass scope", pod("allowed-pod", "", "", "cluster-services"),
            List.of(bestEffortQuota()), twoScopes, NO_SCOPE_PC_IN),
        Arguments.of("Two scopes,BestEffort and PriorityClassIN, in two LimitedResources. Both the scopes matches "
            + "pod. Quota available only for PriorityClass scope. Pod admit fails because covering quota is "
            + "missing for BestEffort scope", pod("allowed-pod", "", "", "cluster-services"),
            List.of(selectorQuota(pcIn("cluster-services"))), twoScopes, NO_SCOPE_BEST_EFFORT),
        Arguments.of("Two scopes,BestEffort and PriorityClassIN, in two LimitedResources. Both the scopes matches "
            + "pod. Quota available only for both the scopes. Pod admit success. No Error",
            pod("allowed-pod", "", "", "cluster-services"),
            List.of(bestEffortQuota(), selectorQuota(pcIn("cluster-services"))), twoScopes, null),
        Arguments.of("Pod allowed with priorityclass if limited scope PriorityClassNameExists not configured.",
            pod("allowed-pod", "3", "2Gi", "fake-priority"), List.of(), List.of(), null),
        Arguments.of("Pod has different priorityclass than configured limited. Covering quota exists for configured "
            + "limited scope PriorityClassIn.", pod("allowed-pod", "3", "2Gi", "fake-priority"),
            List.of(selectorQuota(pcIn("cluster-services"))), List.of(scopes(pcIn("cluster-services"))), null),
        Arguments.of("Pod has limited priorityclass. Covering quota exists for configured limited scope "
            + "PriorityClassIn.", pod("allowed-pod", "3", "2Gi", "cluster-services"),
            List.of(selectorQuota(pcIn("cluster-services"))), inTwo, null),
        Arguments.of("Pod has limited priorityclass. Covering quota  does not exist for configured limited scope "
            + "PriorityClassIn.", pod("not-allowed-pod", "3", "2Gi", "cluster-services"),
            List.of(selectorQuota(pcIn("another-priorityclass-name"))), inTwo, NO_SCOPE_PC_IN_TWO),
        Arguments.of("From the above test case, just changing pod priority from cluster-services to "
            + "another-priorityclass-name. expecting no error",
            pod("allowed-pod", "3", "2Gi", "another-priorityclass-name"),
            List.of(selectorQuota(pcIn("another-priorityclass-name"))), inTwo, null),
        Arguments.of("Pod has limited priorityclass. Covering quota does NOT exists for configured limited scope "
            + "PriorityClassIn.", pod("not-allowed-pod", "3", "2Gi", "cluster-services"), List.of(), inTwo,
            NO_SCOPE_PC_IN_TWO),
        Arguments.of("Pod has limited priorityclass. Covering quota exists for configured limited scope "
            + "PriorityClassIn through PriorityClassNameExists", pod("allowed-pod", "3", "2Gi", "cluster-services"),
            List.of(selectorQuota(pcExists())), inTwo, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void limitedScopeWithCoverQuota(String description, Pod pod, List<ResourceQuota> quotas,
      List<LimitedResource> limited, @Nullable String expected) {
    try (ObjectStore s = store(limited)) {
      quotas.forEach(s::create);
      assertThat(outcome(s, () -> s.create(pod))).as(description).isEqualTo(expected);
      if (expected == null) {
        assertThat(s.get(Pod.class, "test", pod.metadata().name())).isPresent();
      } else {
        assertThat(s.get(Pod.class, "test", pod.metadata().name())).isEmpty();
      }
    }
  }

  // ------------------------------------------------------------ Service updates without a covering quota

  private static List<LimitedResource> loadBalancers() {
    return List.of(LimitedResource.of("services", "services.loadbalancers"));
  }

  /**
   * Stores {@code svc} as it exists before the request under test: through a quota covering load balancers that is
   * deleted afterwards, so that the namespace has no quota, as upstream's test.
   */
  private static Service existing(ObjectStore s, Service svc) {
    s.create(quota("setup", List.of(), List.of(), kv("services.loadbalancers", "10"),
        kv("services.loadbalancers", "0")));
    Service stored = s.create(svc);
    s.delete(ResourceQuota.class, "test", "setup");
    return stored;
  }

  @Test
  void admitZeroDeltaUsageWithoutCoveringQuota_loadBalancerStaysOne_updateAdmitted() {
    try (ObjectStore s = store(loadBalancers())) {
      Service stored = existing(s, service(ServiceType.LoadBalancer, 1));
      assertThat(outcome(s, () -> s.update(service(ServiceType.LoadBalancer, 1).withMetadata(stored.metadata()))))
          .isNull();
      // a new load balancer, by contrast, needs the covering quota
      assertThat(outcome(s, () -> s.create(service(ServiceType.LoadBalancer, 1)
          .withMetadata(ObjectMeta.of("test", "other"))))).isEqualTo("insufficient quota to consume: "
          + "services.loadbalancers");
    }
  }

  @Test
  void admitRejectIncreaseUsageWithoutCoveringQuota_nodePortToLoadBalancer_isDenied() {
    // Upstream's NodePort has one port and its new load balancer none (validation requires one here): the growth is
    // still one load balancer, and no node port.
    try (ObjectStore s = store(loadBalancers())) {
      Service stored = s.create(service(ServiceType.NodePort, 1));
      assertThat(outcome(s, () -> s.update(service(ServiceType.LoadBalancer, 1).withMetadata(stored.metadata()))))
          .isEqualTo("insufficient quota to consume: services.loadbalancers");
      assertThat(s.require(Service.class, "test", "service").spec().type()).isEqualTo(ServiceType.NodePort);
    }
  }

  @Test
  void admitAllowDecreaseUsageWithoutCoveringQuota_loadBalancerToNodePort_isAdmitted() {
    // As upstream, the update still grows usage (one node port more: the load balancer has one port, the NodePort
    // service two), but none of it is a load balancer.
    try (ObjectStore s = store(loadBalancers())) {
      Service stored = existing(s, service(ServiceType.LoadBalancer, 1));
      assertThat(outcome(s, () -> s.update(service(ServiceType.NodePort, 2).withMetadata(stored.metadata()))))
          .isNull();
      assertThat(s.require(Service.class, "test", "service").spec().type()).isEqualTo(ServiceType.NodePort);
    }
  }

  @Test
  void aLimitedResource_needsAResourceName() {
    assertThatThrownBy(() -> LimitedResource.of("", "cpu")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("limitedResources[].resource");
  }
}
