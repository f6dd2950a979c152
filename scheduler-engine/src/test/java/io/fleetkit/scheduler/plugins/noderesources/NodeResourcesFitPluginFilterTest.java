package io.fleetkit.scheduler.plugins.noderesources;

import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.info;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.node;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.nodeInfo;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.pod;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.res;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.resource;
import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.withInit;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.Status.Code;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Filter cases ported from kubernetes/kubernetes pkg/scheduler/framework/plugins/noderesources/fit_test.go
 * (TestEnoughRequests, TestNotEnoughRequests, TestStorageRequests, TestRestartableInitContainers), case names kept;
 * TestEnoughRequests' pod-level-resources cases from commit 24fbb13e.
 * Expected codes follow the current upstream: a request larger than the node's whole allocatable is
 * UnschedulableAndUnresolvable.
 */
final class NodeResourcesFitPluginFilterTest {
  private static final String A = "example.com/aaa";
  private static final String B = "example.com/bbb";
  private static final String K8S_A = "kubernetes.io/something";
  private static final String K8S_B = "subdomain.kubernetes.io/something";
  private static final String HUGE = "hugepages-2Mi";

  /** makeAllocatableResources(milliCPU, memory, pods, extendedA, storage, hugePageA). */
  private static Node allocatable(long milliCpu, long memory, long pods, long extA, long storage, long huge) {
    return node("node", ResourceList.builder()
        .put("cpu", Quantity.ofMilli(milliCpu)).put("memory", Quantity.of(memory)).put("pods", Quantity.of(pods))
        .put(A, Quantity.of(extA)).put("ephemeral-storage", Quantity.of(storage)).put(HUGE, Quantity.of(huge))
        .build());
  }

  private static ResourceList r(long cpu, long mem, String... scalars) {
    return resource(cpu, mem, 0, scalars);
  }

  private static Status run(NodeResourcesFitPlugin plugin, Pod pod, NodeInfo node) {
    CycleState state = new Fixtures.MapCycleState();
    PodInfo p = info(pod);
    assertThat(plugin.preFilter(state, p, null).status().isSuccess()).isTrue();
    return plugin.filter(state, p, node);
  }

  private static Arguments ok(String name, Pod pod, ResourceList existing) {
    return Arguments.of(name, pod, existing, NodeResourcesFitArgs.DEFAULT, Code.SUCCESS, List.of());
  }

  private static Arguments fail(String name, Pod pod, ResourceList existing, Code code, String... reasons) {
    return Arguments.of(name, pod, existing, NodeResourcesFitArgs.DEFAULT, code, List.of(reasons));
  }

  private static Arguments withArgs(Arguments a, NodeResourcesFitArgs args) {
    Object[] v = a.get();
    return Arguments.of(v[0], v[1], v[2], args, v[4], v[5]);
  }

  private static final Code U = Code.UNSCHEDULABLE;
  private static final Code UU = Code.UNSCHEDULABLE_AND_UNRESOLVABLE;

  static Stream<Arguments> enoughRequests() {
    String cpu = "Insufficient cpu";
    String mem = "Insufficient memory";
    return Stream.of(
        ok("no resources requested always fits", pod(), r(10, 20)),
        fail("too many resources fails", pod(r(1, 1)), r(10, 20), U, cpu, mem),
        fail("too many resources fails due to init container cpu", withInit(pod(r(1, 1)), r(3, 1)), r(8, 19), U, cpu),
        fail("too many resources fails due to highest init container cpu",
            withInit(pod(r(1, 1)), r(3, 1), r(2, 1)), r(8, 19), U, cpu),
        fail("too many resources fails due to init container memory",
            withInit(pod(r(1, 1)), r(1, 3)), r(9, 19), U, mem),
        fail("too many resources fails due to highest init container memory",
            withInit(pod(r(1, 1)), r(1, 3), r(1, 2)), r(9, 19), U, mem),
        ok("init container fits because it's the max, not sum, of containers and init containers",
            withInit(pod(r(1, 1)), r(1, 1)), r(9, 19)),
        ok("multiple init containers fit because it's the max, not sum, of containers and init containers",
            withInit(pod(r(1, 1)), r(1, 1), r(1, 1)), r(9, 19)),
        ok("both resources fit", pod(r(1, 1)), r(5, 5)),
        fail("one resource memory fits", pod(r(2, 1)), r(9, 5), U, cpu),
        fail("one resource cpu fits", pod(r(1, 2)), r(5, 19), U, mem),
        ok("equal edge case", pod(r(5, 1)), r(5, 19)),
        ok("equal edge case for init container", withInit(pod(r(4, 1)), r(5, 1)), r(5, 19)),
        ok("extended resource fits", pod(r(0, 0, A, "1")), r(0, 0)),
        ok("extended resource fits for init container", withInit(pod(r(0, 0)), r(0, 0, A, "1")), r(0, 0)),
        fail("extended resource capacity enforced", pod(r(1, 1, A, "10")), r(0, 0, A, "0"), UU, "Insufficient " + A),
        fail("extended resource capacity enforced for init container",
            withInit(pod(r(0, 0)), r(1, 1, A, "10")), r(0, 0, A, "0"), UU, "Insufficient " + A),
        fail("extended resource allocatable enforced", pod(r(1, 1, A, "1")), r(0, 0, A, "5"), U, "Insufficient " + A),
        fail("extended resource allocatable enforced for init container",
            withInit(pod(r(0, 0)), r(1, 1, A, "1")), r(0, 0, A, "5"), U, "Insufficient " + A),
        fail("extended resource allocatable enforced for multiple containers",
            pod(r(1, 1, A, "3"), r(1, 1, A, "3")), r(0, 0, A, "2"), UU, "Insufficient " + A),
        ok("extended resource allocatable admits multiple init containers",
            withInit(pod(r(0, 0)), r(1, 1, A, "3"), r(1, 1, A, "3")), r(0, 0, A, "2")),
        fail("extended resource allocatable enforced for multiple init containers",
            withInit(pod(r(0, 0)), r(1, 1, A, "6"), r(1, 1, A, "3")), r(0, 0, A, "2"), UU, "Insufficient " + A),
        fail("extended resource allocatable enforced for unknown resource",
            pod(r(1, 1, B, "1")), r(0, 0), UU, "Insufficient " + B),
        fail("extended resource allocatable enforced for unknown resource for init container",
            withInit(pod(r(0, 0)), r(1, 1, B, "1")), r(0, 0), UU, "Insufficient " + B),
        fail("kubernetes.io resource capacity enforced", pod(r(1, 1, K8S_A, "10")), r(0, 0), UU,
            "Insufficient " + K8S_A),
        fail("kubernetes.io resource capacity enforced for init container",
            withInit(pod(r(0, 0)), r(1, 1, K8S_B, "10")), r(0, 0), UU, "Insufficient " + K8S_B),
        fail("hugepages resource capacity enforced", pod(r(1, 1, HUGE, "10")), r(0, 0, HUGE, "0"), UU,
            "Insufficient " + HUGE),
        fail("hugepages resource capacity enforced for init container",
            withInit(pod(r(0, 0)), r(1, 1, HUGE, "10")), r(0, 0, HUGE, "0"), UU, "Insufficient " + HUGE),
        fail("hugepages resource allocatable enforced for multiple containers",
            pod(r(1, 1, HUGE, "3"), r(1, 1, HUGE, "3")), r(0, 0, HUGE, "2"), UU, "Insufficient " + HUGE),
        withArgs(ok("skip checking ignored extended resource", pod(r(1, 1, B, "1")), r(0, 0)),
            new NodeResourcesFitArgs(Set.of(B), Set.of(), ScoringStrategy.DEFAULT)),
        ok("resources + pod overhead fits", pod(r(1, 1)).toBuilder().overhead(res("cpu", "3m", "memory", "13")).build(),
            r(5, 5)),
        fail("requests + overhead does not fit for memory",
            pod(r(1, 1)).toBuilder().overhead(res("cpu", "1m", "memory", "15")).build(), r(5, 5), U, mem),
        withArgs(fail("skip checking ignored extended resource via resource groups",
            pod(r(1, 1, B, "1", K8S_A, "1")), r(0, 0), UU, "Insufficient " + K8S_A),
            new NodeResourcesFitArgs(Set.of(), Set.of("example.com"), ScoringStrategy.DEFAULT)),
        ok("skip checking extended resource request with quantity zero via resource groups",
            pod(r(1, 1, A, "0")), r(0, 0, A, "6")),
        // Upstream runs this one with PodLevelResources on, but the pod has no pod-level resources.
        ok("skip checking resource request with quantity zero", pod(r(0, 0, A, "1")), r(20, 30, A, "1")),
        fail("extended resource backed by DRA not enabled", pod(r(1, 1, "extended.resource.dra.io/something", "1")),
            r(0, 0), UU, "Insufficient extended.resource.dra.io/something"));
  }

  /** Upstream's newPodLevelResourcesPod: {@code pod} with pod-level requests (hugepages get an equal limit). */
  private static Pod podLevel(Pod pod, ResourceList requests) {
    return pod.withSpec(pod.spec().toBuilder().resources(ResourceRequirements.ofRequests(requests)).build());
  }

  /** TestEnoughRequests' 7 pod-level-resources cases (upstream runs them with PodLevelResources on, as FleetKit). */
  static Stream<Arguments> enoughRequestsPodLevel() {
    String cpu = "Insufficient cpu";
    String mem = "Insufficient memory";
    return Stream.of(
        ok("both pod-level and container-level resources fit", podLevel(pod(r(1, 1)), res("cpu", "1m", "memory", "2")),
            r(5, 5)),
        fail("pod-level cpu resource not fit", podLevel(pod(r(1, 1)), res("cpu", "7m", "memory", "2")), r(5, 5), U,
            cpu),
        fail("pod-level memory resource not fit", podLevel(pod(r(1, 1)), res("cpu", "3m", "memory", "2")), r(5, 19),
            U, mem),
        ok("pod-level hugepages resource fit", podLevel(pod(), res("cpu", "3m", "memory", "2", HUGE, "5")), r(0, 0)),
        ok("both pod-level and container-level hugepages resource fit",
            podLevel(pod(r(1, 1, HUGE, "3")), res("cpu", "3m", "memory", "2", HUGE, "5")), r(0, 0)),
        fail("pod-level hugepages resource not fit", podLevel(pod(), res("cpu", "3m", "memory", "2", HUGE, "10")),
            r(0, 0), UU, "Insufficient " + HUGE),
        fail("one pod-level cpu resource fits and all init and non-init containers resources fit",
            withInit(podLevel(pod(r(1, 1)), res("cpu", "3m", "memory", "2")), r(1, 1)), r(5, 19), U, mem));
  }

  // Skipped from TestEnoughRequests: 6 cases with DRAExtendedResource enabled (extended resources backed by DRA device
  // classes are not modelled).
  @ParameterizedTest(name = "{0}")
  @MethodSource({"enoughRequests", "enoughRequestsPodLevel"})
  void filter_enoughRequestsTable_matchesUpstream(String name, Pod pod, ResourceList existing,
      NodeResourcesFitArgs args, Code code, List<String> reasons) {
    NodeInfo node = nodeInfo(allocatable(10, 20, 32, 5, 20, 5), info(pod(existing)));
    Status s = run(new NodeResourcesFitPlugin(args), pod, node);
    assertThat(s.code()).as(name).isEqualTo(code);
    assertThat(s.reasons()).as(name).isEqualTo(reasons);
  }

  static Stream<Arguments> notEnoughRequests() {
    return Stream.of(
        Arguments.of("even without specified resources, predicate fails when there's no space for additional pod",
            pod(), r(10, 20)),
        Arguments.of("even if both resources fit, predicate fails when there's no space for additional pod",
            pod(r(1, 1)), r(5, 5)),
        Arguments.of("even for equal edge case, predicate fails when there's no space for additional pod",
            pod(r(5, 1)), r(5, 19)),
        Arguments.of("even for equal edge case, predicate fails when there's no space for additional pod due to init "
            + "container", withInit(pod(r(5, 1)), r(5, 1)), r(5, 19)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("notEnoughRequests")
  void filter_notEnoughPods_reportsTooManyPods(String name, Pod pod, ResourceList existing) {
    NodeInfo node = nodeInfo(allocatable(10, 20, 1, 0, 0, 0), info(pod(existing)));
    Status s = run(new NodeResourcesFitPlugin(), pod, node);
    assertThat(s.code()).isEqualTo(U);
    assertThat(s.reasons()).containsExactly("Too many pods");
  }

  static Stream<Arguments> storageRequests() {
    return Stream.of(
        Arguments.of("empty storage requested, and pod fits", pod(r(1, 1)), r(2, 10), Code.SUCCESS, List.of()),
        Arguments.of("storage ephemeral local storage request exceeds allocatable", pod(resource(0, 0, 25)), r(2, 2),
            UU, List.of("Insufficient ephemeral-storage")),
        Arguments.of("ephemeral local storage is sufficient", pod(resource(0, 0, 5)), resource(2, 2, 10),
            Code.SUCCESS, List.of()),
        Arguments.of("pod fits", pod(resource(0, 0, 10)), r(2, 2), Code.SUCCESS, List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("storageRequests")
  void filter_storageRequestsTable_matchesUpstream(String name, Pod pod, ResourceList existing, Code code,
      List<String> reasons) {
    NodeInfo node = nodeInfo(allocatable(10, 20, 32, 5, 20, 5), info(pod(existing)));
    Status s = run(new NodeResourcesFitPlugin(), pod, node);
    assertThat(s.code()).isEqualTo(code);
    assertThat(s.reasons()).isEqualTo(reasons);
  }

  static Stream<Arguments> restartableInitContainers() {
    Pod plain = pod();
    Pod sidecar = plain.toBuilder().initContainer(Container.sidecar("restartable-init", "pause", ResourceList.EMPTY))
        .build();
    Pod fits = pod(res("cpu", "1m")).toBuilder()
        .initContainer(Container.sidecar("restartable-init", "pause", res("cpu", "1m"))).build();
    Pod exceeds = pod(res("cpu", "1m")).toBuilder()
        .initContainer(Container.sidecar("restartable-init", "pause", res("cpu", "2m"))).build();
    return Stream.of(
        Arguments.of("allow pod without restartable init containers if sidecar containers is enabled", plain,
            Code.SUCCESS, List.of()),
        Arguments.of("allow pod with restartable init containers if sidecar containers is enabled", sidecar,
            Code.SUCCESS, List.of()),
        Arguments.of("allow pod if the total requested resources do not exceed the node's allocatable resources", fits,
            Code.SUCCESS, List.of()),
        Arguments.of("not allow pod if the total requested resources do exceed the node's allocatable resources",
            exceeds, UU, List.of("Insufficient cpu")));
  }

  // Skipped from TestRestartableInitContainers: the 2 cases with the SidecarContainers gate off (always on here).
  @ParameterizedTest(name = "{0}")
  @MethodSource("restartableInitContainers")
  void filter_sidecars_countTowardRequests(String name, Pod pod, Code code, List<String> reasons) {
    NodeInfo node = nodeInfo(allocatable(2, 0, 1, 0, 0, 0));
    Status s = run(new NodeResourcesFitPlugin(), pod, node);
    assertThat(s.code()).isEqualTo(code);
    assertThat(s.reasons()).isEqualTo(reasons);
  }

  @Test
  void filter_fittingNode_returnsSharedSuccessConstant() {
    Status s = run(new NodeResourcesFitPlugin(), pod(r(1, 1)), nodeInfo(allocatable(10, 20, 32, 5, 20, 5)));
    assertThat(s).isSameAs(Status.success());
  }

  @Test
  void filter_severalShortages_reportsEachInKubeOrder() {
    Pod p = pod(r(11, 30, "nvidia.com/gpu", "2", A, "1"));
    NodeInfo node = nodeInfo(allocatable(10, 20, 1, 5, 20, 5), info(pod(r(0, 0, A, "5"))));
    Status s = run(new NodeResourcesFitPlugin(), p, node);
    assertThat(s.code()).isEqualTo(UU);
    assertThat(s.reasons()).containsExactly("Too many pods", "Insufficient cpu", "Insufficient memory",
        "Insufficient " + A, "Insufficient nvidia.com/gpu");
  }

  @Test
  void filter_preFilterNotRun_returnsError() {
    Status s = new NodeResourcesFitPlugin().filter(new Fixtures.MapCycleState(), info(pod()),
        nodeInfo(allocatable(10, 20, 32, 5, 20, 5)));
    assertThat(s.code()).isEqualTo(Code.ERROR);
    assertThat(s.message()).contains("PreFilterNodeResourcesFit");
  }

  @Test
  void filter_podWithGpuOnCpuOnlyNode_isUnresolvable() {
    Status s = run(new NodeResourcesFitPlugin(), pod(res("nvidia.com/gpu", "1")),
        nodeInfo(node("n", res("cpu", "4", "memory", "8Gi", "pods", "110"))));
    assertThat(s.code()).isEqualTo(UU);
    assertThat(s.reasons()).containsExactly("Insufficient nvidia.com/gpu");
  }
}
