package io.fleetkit.autoscale.hpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The per-pod requests a Resource or ContainerResource utilization is measured against, with pod-level resources
 * (KEP-2837). Ported from kubernetes/kubernetes {@code pkg/controller/podautoscaler/replica_calculator_test.go}, the
 * version with {@code calculateRequests} (pod-level requests for the whole pod; the stored copy names no commit):
 * {@code TestCalculateRequests} (9 cases, each named below; upstream's {@code enablePodLevelResources} gate is
 * always on in FleetKit, and the cases with it off have no pod-level requests, so their answer is the same) and
 * {@code TestCalculatePodRequestsFromContainers_NonExistentContainer}. Upstream checks both the map and the error
 * with {@code assert.Equal}; so do these. The cases after them are FleetKit's own.
 */
final class CalculateRequestsTest {
  private static final String CPU = ResourceNames.CPU;

  private static ResourceList cpu(long milli) {
    return ResourceList.builder().put(CPU, Quantity.ofMilli(milli)).build();
  }

  private static Pod pod(ResourceList podRequests, List<Container> containers, List<Container> initContainers) {
    Pod.Builder b = Pod.builder().namespace("test-namespace").name("test-pod");
    containers.forEach(b::container);
    initContainers.forEach(b::initContainer);
    if (!podRequests.isEmpty()) {
      b.resources(podRequests, ResourceList.EMPTY);
    }
    return b.build();
  }

  private static List<Container> twoContainers() {
    return List.of(Container.of("container1", "i", cpu(100)), Container.of("container2", "i", cpu(50)));
  }

  @Test // "void"
  void calculateRequests_noPods_empty() {
    assertThat(ReplicaCalculator.calculateRequests(List.of(), "", CPU)).isEmpty();
  }

  @Test // "Sum container requests if pod-level feature is disabled"
  void calculateRequests_noPodLevel_sumsContainers() {
    Pod p = pod(ResourceList.EMPTY, twoContainers(), List.of());
    assertThat(ReplicaCalculator.calculateRequests(List.of(p), "", CPU)).isEqualTo(Map.of("test-pod", 150L));
  }

  @Test // "Pod-level resources are enabled, but not set: fallback to sum container requests"
  void calculateRequests_podLevelNotSet_sumsContainers() {
    Pod p = pod(ResourceList.EMPTY, twoContainers(), List.of());
    assertThat(p.spec().hasPodLevelRequests()).isFalse();
    assertThat(ReplicaCalculator.calculateRequests(List.of(p), "", CPU)).isEqualTo(Map.of("test-pod", 150L));
  }

  @Test // "Pod-level resources override container requests when feature enabled and pod resources specified"
  void calculateRequests_podLevelSet_overridesContainers() {
    Pod p = pod(cpu(800), twoContainers(), List.of());
    assertThat(ReplicaCalculator.calculateRequests(List.of(p), "", CPU)).isEqualTo(Map.of("test-pod", 800L));
  }

  @Test // "Fail if at least one of the containers is missing requests and pod-level feature/requests are not set"
  void calculateRequests_containerWithoutRequest_fails() {
    Pod p = pod(ResourceList.EMPTY,
        List.of(Container.of("container1", "i", ResourceList.EMPTY), Container.of("container2", "i", cpu(50))),
        List.of());
    assertThatThrownBy(() -> ReplicaCalculator.calculateRequests(List.of(p), "", CPU))
        .isInstanceOf(MetricsUnavailableException.class)
        .hasMessage("missing request for cpu in container container1 of Pod test-pod");
  }

  @Test // "Pod-level resources override missing container requests when feature enabled and pod resources specified"
  void calculateRequests_podLevelSet_containerWithoutRequestIsFine() {
    Pod p = pod(cpu(800),
        List.of(Container.of("container1", "i", ResourceList.EMPTY), Container.of("container2", "i", cpu(50))),
        List.of());
    assertThat(ReplicaCalculator.calculateRequests(List.of(p), "", CPU)).isEqualTo(Map.of("test-pod", 800L));
  }

  @Test // "Container: if a container name is specified, calculate requests only for that container"
  void calculateRequests_namedContainer_onlyThatOne() {
    Pod p = pod(ResourceList.EMPTY, twoContainers(), List.of());
    assertThat(ReplicaCalculator.calculateRequests(List.of(p), "container1", CPU))
        .isEqualTo(Map.of("test-pod", 100L));
  }

  @Test // "Container: if a container name is specified, calculate requests only for that container and ignore
        // pod-level requests"
  void calculateRequests_namedContainerWithPodLevel_ignoresPodLevel() {
    Pod p = pod(cpu(800), twoContainers(), List.of());
    assertThat(ReplicaCalculator.calculateRequests(List.of(p), "container1", CPU))
        .isEqualTo(Map.of("test-pod", 100L));
  }

  @Test // "pod with restartable init containers"
  void calculateRequests_sidecarCounted_plainInitContainerNot() {
    Pod p = pod(ResourceList.EMPTY, List.of(Container.of("container1", "i", cpu(100))),
        List.of(Container.of("init-container1", "i", cpu(20)),
            Container.sidecar("restartable-container1", "i", cpu(50))));
    assertThat(ReplicaCalculator.calculateRequests(List.of(p), "", CPU)).isEqualTo(Map.of("test-pod", 150L));
  }

  @Test // TestCalculatePodRequestsFromContainers_NonExistentContainer
  void calculateRequests_namedContainerAbsent_fails() {
    Pod p = pod(ResourceList.EMPTY, List.of(Container.of("container1", "i", cpu(100))), List.of());
    assertThatThrownBy(() -> ReplicaCalculator.calculateRequests(List.of(p), "non-existent-container", CPU))
        .isInstanceOf(MetricsUnavailableException.class)
        .hasMessage("container non-existent-container not found in Pod test-pod");
  }

  // FleetKit's own cases: what upstream's calculatePodLevelRequests reads through PodRequests.

  @Test
  void calculateRequests_podLevelCpuOnly_memoryFromContainers() {
    ResourceList mem = ResourceList.builder().put(ResourceNames.MEMORY, Quantity.parse("64Mi")).build();
    Pod p = pod(cpu(800), List.of(Container.of("a", "i", mem), Container.of("b", "i", mem)), List.of());
    assertThat(ReplicaCalculator.calculateRequests(List.of(p), "", ResourceNames.MEMORY))
        .isEqualTo(Map.of("test-pod", 128L * 1024 * 1024 * 1000));
  }

  @Test
  void calculateRequests_podLevelWithoutTheResourceAnywhere_failsNamingPodLevel() {
    Pod p = pod(cpu(800), List.of(Container.of("a", "i", ResourceList.EMPTY)), List.of());
    assertThatThrownBy(() -> ReplicaCalculator.calculateRequests(List.of(p), "", ResourceNames.MEMORY))
        .isInstanceOf(MetricsUnavailableException.class)
        .hasMessage("missing pod-level request for memory in Pod test-pod");
  }

  @Test
  void calculateRequests_podLevelWithOverhead_overheadAdded() {
    Pod p = Pod.builder().namespace("test-namespace").name("test-pod").container("a", "i", cpu(100))
        .resources(cpu(800), ResourceList.EMPTY).overhead(cpu(250)).build();
    assertThat(ReplicaCalculator.calculateRequests(List.of(p), "", CPU)).isEqualTo(Map.of("test-pod", 1050L));
  }

  @Test
  void podFacts_sameContainersDifferentPodLevel_eachPodItsOwnRequest() {
    // Pods of one template share their container lists; PodFacts sums those once. A pod-level budget of its own
    // must still count.
    Pod a = pod(cpu(800), twoContainers(), List.of());
    PodSpec s = a.spec();
    PodSpec other = new PodSpec(s.containers(), s.initContainers(), s.overhead(), s.priority(),
        s.priorityClassName(), s.preemptionPolicy(), s.nodeSelector(), s.affinity(), s.tolerations(),
        s.topologySpreadConstraints(), s.schedulerName(), s.nodeName(), s.volumes(), s.restartPolicy(),
        s.terminationGracePeriodSeconds(), s.activeDeadlineSeconds(), s.hostname(), s.subdomain(),
        ResourceRequirements.of(cpu(400), ResourceList.EMPTY));
    assertThat(other.containers()).isSameAs(s.containers());
    Pod b = new Pod(a.metadata().toBuilder().name("test-pod-b").build(), other, PodStatus.of(PodPhase.Running));
    PodFacts facts = PodFacts.of(List.of(a, b), CPU, "", Duration.ZERO, Duration.ZERO, null);
    assertThat(facts.request(0)).isEqualTo(800);
    assertThat(facts.request(1)).isEqualTo(400);
  }

  @Test
  void resourceReplicas_podLevelRequests_utilizationOfPodBudgetContainerMetricOfContainer() {
    // Three ready pods: app and side request 100m each, the pod level 1 cpu; app uses 600m, side 300m.
    Instant now = Instant.parse("2026-06-01T12:00:00Z");
    List<Pod> pods = new java.util.ArrayList<>();
    List<PodResourceMetrics> samples = new java.util.ArrayList<>();
    for (int i = 0; i < 3; i++) {
      PodStatus status = PodStatus.of(PodPhase.Running).withStartTime(now.minus(Duration.ofHours(1)))
          .withCondition(PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "",
              now.minus(Duration.ofHours(1))));
      pods.add(Pod.builder().namespace("ns").name("web-" + i).label("app", "web").container("app", "i", cpu(100))
          .container("side", "i", cpu(100)).resources(cpu(1000), ResourceList.EMPTY).status(status).build());
      samples.add(new PodResourceMetrics("web-" + i, now, Duration.ofMinutes(1),
          List.of(new ContainerUsage("app", 600), new ContainerUsage("side", 300))));
    }
    MetricsSource source = new MetricsSource() {
      @Override
      public List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector, String res) {
        return samples;
      }
    };
    ReplicaCalculator calc = ReplicaCalculator.withDefaults(source, Clock.fixed(now, ZoneOffset.UTC));
    LabelSelector selector = LabelSelector.of(Map.of("app", "web"));
    // Resource: 900m of the pod's 1 cpu is 90%; against 50%, ceil(1.8 * 3) = 6 (the containers' 200m would say 450%)
    ReplicaCount whole = calc.resourceReplicas(3, 50, CPU, "ns", selector, pods, "");
    assertThat(whole.replicas()).isEqualTo(6);
    assertThat(whole.utilization()).isEqualTo(90);
    assertThat(whole.usage()).isEqualTo(900);
    // ContainerResource "app": 600m of its own 100m is 600%; ceil(12 * 3) = 36
    ReplicaCount app = calc.resourceReplicas(3, 50, CPU, "ns", selector, pods, "app");
    assertThat(app.replicas()).isEqualTo(36);
    assertThat(app.utilization()).isEqualTo(600);
  }
}
