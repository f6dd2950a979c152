package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pod-level resources in the one computation of a pod's requests and limits ({@link PodSpec#effectiveRequests()},
 * {@link PodSpec#effectiveLimits()}, {@link PodSpec#containerRequests()}, {@link PodSpec#containerLimits()}).
 *
 * <p>Ported from kubernetes/kubernetes {@code staging/src/k8s.io/component-helpers/resource/helpers_test.go} (commit
 * 6c5cf687): TestIsPodLevelResourcesSet 6 of 6; TestPodLevelResourceRequests 12 of 13 (not ported: "pod level memory
 * resource with SkipPodLevelResources true": FleetKit has no option to skip pod-level resources; the other
 * SkipPodLevelResources-true case has no pod-level resources, so its answer is the same without the option);
 * TestAggregateContainerRequestsAndLimits 8 of 8; TestPodResourceLimits 11 of 14 (not ported: "pod overhead excluded"
 * (no option to leave overhead out), "pod scaled up" and "pod scaled down" (no in-place resize status)). Where an
 * upstream case sets a limit without a request, the request FleetKit derives from it (Kubernetes' API defaulting)
 * does not change the limits asserted here.
 */
final class PodLevelResourcesTest {

  private static ResourceList rl(String... kv) {
    ResourceList.Builder b = ResourceList.builder();
    for (int i = 0; i < kv.length; i += 2) {
      b.put(kv[i], kv[i + 1]);
    }
    return b.build();
  }

  private static Container req(String name, ResourceList requests) {
    return Container.of(name, "img", ResourceRequirements.of(requests, ResourceList.EMPTY));
  }

  private static Container lim(String name, ResourceList limits) {
    return Container.of(name, "img", ResourceRequirements.of(ResourceList.EMPTY, limits));
  }

  private static Container sidecarReq(String name, ResourceList requests) {
    return new Container(name, "img", ResourceRequirements.of(requests, ResourceList.EMPTY), List.of(), List.of(),
        ContainerRestartPolicy.Always);
  }

  private static Container sidecarLim(String name, ResourceList limits) {
    return new Container(name, "img", ResourceRequirements.of(ResourceList.EMPTY, limits), List.of(), List.of(),
        ContainerRestartPolicy.Always);
  }

  /** Upstream getPodLevelResourcesPod: pod-level requests taken as they are (no defaulting). */
  private static PodSpec podLevel(ResourceList podRequests, List<Container> containers, List<Container> inits) {
    return PodSpec.builder().containers(containers).initContainers(inits)
        .resources(ResourceRequirements.of(podRequests, ResourceList.EMPTY)).build();
  }

  private static void assertSame(ResourceList actual, ResourceList expected) {
    assertThat(actual.asMap().keySet()).isEqualTo(expected.asMap().keySet());
    expected.asMap().forEach((k, q) -> assertThat(actual.get(k)).as(k).isEqualByComparingTo(q));
  }

  // ---------------------------------------------------------------- TestIsPodLevelResourcesSet

  static Stream<Arguments> isSet() {
    return Stream.of(
        Arguments.of("nil resources struct", ResourceRequirements.NONE, false),
        Arguments.of("empty resources struct", ResourceRequirements.of(ResourceList.EMPTY, ResourceList.EMPTY), false),
        Arguments.of("only unsupported resource requests set",
            ResourceRequirements.of(rl("ephemeral-storage", "1Mi"), ResourceList.EMPTY), false),
        Arguments.of("only unsupported resource limits set",
            ResourceRequirements.of(ResourceList.EMPTY, rl("ephemeral-storage", "1Mi")), false),
        Arguments.of("unsupported and suported resources requests set",
            ResourceRequirements.of(rl("ephemeral-storage", "1Mi", "cpu", "1m"), ResourceList.EMPTY), true),
        Arguments.of("unsupported and suported resources limits set",
            ResourceRequirements.of(ResourceList.EMPTY, rl("ephemeral-storage", "1Mi", "cpu", "1m")), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("isSet")
  void hasPodLevelResources_upstreamCase(String name, ResourceRequirements resources, boolean expected) {
    assertThat(PodSpec.builder().resources(resources).build().hasPodLevelResources()).isEqualTo(expected);
  }

  // ---------------------------------------------------------------- TestPodLevelResourceRequests

  static Stream<Arguments> podLevelRequests() {
    ResourceList c32 = rl("memory", "3Mi", "cpu", "2m");
    ResourceList i54 = rl("memory", "5Mi", "cpu", "4m");
    ResourceList i68 = rl("memory", "6Mi", "cpu", "8m");
    return Stream.of(
        Arguments.of("nil", podLevel(ResourceList.EMPTY, List.of(), List.of()), ResourceList.EMPTY),
        Arguments.of("pod level memory resource with SkipPodLevelResources false",
            podLevel(rl("memory", "2Mi"), List.of(), List.of()), rl("memory", "2Mi")),
        Arguments.of("pod level memory and container level cpu resources with SkipPodLevelResources false",
            podLevel(rl("memory", "2Mi"), List.of(req("c", rl("cpu", "2m"))), List.of()),
            rl("memory", "2Mi", "cpu", "2m")),
        Arguments.of("pod level unsupported resources set at both pod-level and container-level with "
                + "SkipPodLevelResources false",
            podLevel(rl("storage", "2Mi"), List.of(req("c", rl("storage", "3Mi"))), List.of()),
            rl("storage", "3Mi")),
        Arguments.of("pod level unsupported resources set at pod-level with SkipPodLevelResources false",
            podLevel(rl("storage", "2Mi"), List.of(req("c", rl("memory", "3Mi"))), List.of()),
            rl("memory", "3Mi")),
        Arguments.of("only container level resources set with SkipPodLevelResources false",
            podLevel(ResourceList.EMPTY, List.of(req("c", c32)), List.of()), c32),
        Arguments.of("both container-level and pod-level resources set with SkipPodLevelResources false",
            podLevel(rl("memory", "6Mi", "cpu", "8m"), List.of(req("c", c32)), List.of()),
            rl("memory", "6Mi", "cpu", "8m")),
        Arguments.of("container-level resources and init container set with SkipPodLevelResources false",
            podLevel(ResourceList.EMPTY, List.of(req("c", c32)), List.of(req("i", i54))), i54),
        Arguments.of("container-level resources and init container set with SkipPodLevelResources true "
                + "(no pod-level resources: the option changes nothing)",
            podLevel(ResourceList.EMPTY, List.of(req("c", c32)), List.of(req("i", i54))), i54),
        Arguments.of("container-level resources and sidecar container set with SkipPodLevelResources false",
            podLevel(ResourceList.EMPTY, List.of(req("c", c32)), List.of(sidecarReq("s", i54))),
            rl("memory", "8Mi", "cpu", "6m")),
        Arguments.of("container-level resources, init and sidecar container set with SkipPodLevelResources false",
            podLevel(ResourceList.EMPTY, List.of(req("c", c32)), List.of(sidecarReq("s", i54), req("i", i68))),
            rl("memory", "11Mi", "cpu", "12m")),
        Arguments.of("pod-level resources, container-level resources, init and sidecar container set with "
                + "SkipPodLevelResources false",
            podLevel(rl("memory", "15Mi", "cpu", "18m"), List.of(req("c", c32)),
                List.of(sidecarReq("s", i54), req("i", i68))),
            rl("memory", "15Mi", "cpu", "18m")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podLevelRequests")
  void effectiveRequests_podLevelUpstreamCase(String name, PodSpec spec, ResourceList expected) {
    assertSame(spec.effectiveRequests(), expected);
  }

  // ---------------------------------------------------------------- TestAggregateContainerRequestsAndLimits

  static Stream<Arguments> aggregate() {
    ResourceList cpu9 = rl("cpu", "9");
    return Stream.of(
        Arguments.of("one container with limits", List.of(lim("a", cpu9)), List.of(), ResourceList.EMPTY, cpu9),
        Arguments.of("two containers with limits", List.of(lim("a", cpu9), lim("b", cpu9)), List.of(),
            ResourceList.EMPTY, rl("cpu", "18")),
        Arguments.of("one container with requests", List.of(req("a", cpu9)), List.of(), cpu9, ResourceList.EMPTY),
        Arguments.of("two containers with requests", List.of(req("a", cpu9), req("b", cpu9)), List.of(),
            rl("cpu", "18"), ResourceList.EMPTY),
        Arguments.of("regular and init containers with requests", List.of(req("a", cpu9)), List.of(req("i", cpu9)),
            cpu9, ResourceList.EMPTY),
        Arguments.of("regular, init and sidecar containers with requests", List.of(req("a", cpu9)),
            List.of(sidecarReq("s", rl("cpu", "8")), req("i", rl("cpu", "6"))), rl("cpu", "17"),
            ResourceList.EMPTY),
        Arguments.of("regular and init containers with limits", List.of(lim("a", cpu9)), List.of(lim("i", cpu9)),
            // a limit without a request: FleetKit's requests default to it, upstream's helper test leaves them out
            cpu9, cpu9),
        Arguments.of("regular, init and sidecar containers with limits", List.of(lim("a", cpu9)),
            List.of(sidecarLim("s", rl("cpu", "8")), lim("i", rl("cpu", "6"))), rl("cpu", "17"), rl("cpu", "17")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("aggregate")
  void containerRequestsAndLimits_upstreamCase(String name, List<Container> containers, List<Container> inits,
      ResourceList requests, ResourceList limits) {
    PodSpec spec = PodSpec.builder().containers(containers).initContainers(inits).build();
    assertSame(spec.containerLimits(), limits);
    if (name.contains("with requests")) {
      assertSame(spec.containerRequests(), requests); // upstream's expectation; with limits only, see above
    } else {
      assertSame(spec.containerRequests(), limits); // requests defaulted from the limits
    }
  }

  // ---------------------------------------------------------------- TestPodResourceLimits

  static Stream<Arguments> limits() {
    return Stream.of(
        Arguments.of("nil options, larger init container",
            PodSpec.builder().initContainer(lim("i", rl("cpu", "4"))).container(lim("a", rl("cpu", "1"))).build(),
            rl("cpu", "4")),
        Arguments.of("nil options, larger containers",
            PodSpec.builder().initContainer(lim("i", rl("cpu", "2"))).container(lim("a", rl("cpu", "2")))
                .container(lim("b", rl("cpu", "3"))).build(),
            rl("cpu", "5")),
        Arguments.of("pod overhead included (only added to non-zero limits, so no memory limit)",
            PodSpec.builder().overhead(rl("cpu", "1", "memory", "1Gi")).initContainer(lim("i", rl("cpu", "2")))
                .container(lim("a", rl("cpu", "2"))).container(lim("b", rl("cpu", "3"))).build(),
            rl("cpu", "6")),
        Arguments.of("no limited containers should result in no limits for the pod",
            PodSpec.builder().container(lim("a", ResourceList.EMPTY)).build(), ResourceList.EMPTY),
        Arguments.of("one limited and one unlimited container should result in the limited container's limits for "
                + "the pod",
            PodSpec.builder().container(lim("a", rl("cpu", "2", "memory", "2Gi"))).container(lim("b", ResourceList.EMPTY))
                .build(),
            rl("cpu", "2", "memory", "2Gi")),
        Arguments.of("one limited and one unlimited init container should result in the limited init container's "
                + "limits for the pod",
            PodSpec.builder().initContainer(lim("i", rl("cpu", "2", "memory", "2Gi")))
                .initContainer(lim("j", ResourceList.EMPTY)).container(lim("a", rl("cpu", "1", "memory", "1Gi")))
                .build(),
            rl("cpu", "2", "memory", "2Gi")),
        Arguments.of("restartable init container",
            PodSpec.builder().initContainer(sidecarLim("restartable-init-1", rl("cpu", "1")))
                .container(lim("container-1", rl("cpu", "1"))).build(),
            rl("cpu", "2")),
        Arguments.of("multiple restartable init containers",
            PodSpec.builder().initContainer(lim("init-1", rl("cpu", "5")))
                .initContainer(sidecarLim("restartable-init-1", rl("cpu", "1")))
                .initContainer(sidecarLim("restartable-init-2", rl("cpu", "2")))
                .initContainer(sidecarLim("restartable-init-3", rl("cpu", "3")))
                .container(lim("container-1", rl("cpu", "1"))).build(),
            rl("cpu", "7")),
        Arguments.of("multiple restartable and regular init containers",
            PodSpec.builder().initContainer(lim("init-1", rl("cpu", "5")))
                .initContainer(sidecarLim("restartable-init-1", rl("cpu", "1")))
                .initContainer(sidecarLim("restartable-init-2", rl("cpu", "2")))
                .initContainer(lim("init-2", rl("cpu", "5")))
                .initContainer(sidecarLim("restartable-init-3", rl("cpu", "3")))
                .container(lim("container-1", rl("cpu", "1"))).build(),
            rl("cpu", "8")),
        Arguments.of("restartable-init, init and regular",
            PodSpec.builder().initContainer(sidecarLim("restartable-init-1", rl("cpu", "10")))
                .initContainer(lim("init-1", rl("cpu", "200")))
                .container(lim("container-1", rl("cpu", "100"))).build(),
            rl("cpu", "210")),
        Arguments.of("pod scaled down, don't use status",
            PodSpec.builder().container(lim("container-1", rl("memory", "1Gi"))).build(), rl("memory", "1Gi")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("limits")
  void effectiveLimits_upstreamCase(String name, PodSpec spec, ResourceList expected) {
    assertSame(spec.effectiveLimits(), expected);
  }

  // ---------------------------------------------------------------- FleetKit's own cases

  @Test
  void effectiveLimits_podLevelLimitReplacesContainersSum_andGetsOverhead() {
    PodSpec spec = PodSpec.builder().overhead(rl("cpu", "100m"))
        .container(lim("a", rl("cpu", "1", "memory", "1Gi"))).container(lim("b", rl("cpu", "1")))
        .resources(ResourceRequirements.of(ResourceList.EMPTY, rl("cpu", "4"))).build();
    assertSame(spec.effectiveLimits(), rl("cpu", "4100m", "memory", "1Gi"));
  }

  @Test
  void effectiveRequests_podLevelRequest_thenOverhead() {
    PodSpec spec = PodSpec.builder().overhead(rl("cpu", "250m", "memory", "64Mi"))
        .container(req("a", rl("cpu", "1", "memory", "1Gi")))
        .resources(ResourceRequirements.of(rl("cpu", "3"), ResourceList.EMPTY)).build();
    assertSame(spec.effectiveRequests(), rl("cpu", "3250m", "memory", "1088Mi"));
  }

  @Test
  void effectiveRequests_podLevelHugepages_takePrecedence() {
    PodSpec spec = PodSpec.builder()
        .container(Container.of("a", "img", ResourceRequirements.of(rl("cpu", "1", "hugepages-2Mi", "4Mi"),
            rl("hugepages-2Mi", "4Mi"))))
        .resources(ResourceRequirements.of(rl("cpu", "2", "hugepages-2Mi", "8Mi"), rl("hugepages-2Mi", "8Mi")))
        .build();
    assertSame(spec.effectiveRequests(), rl("cpu", "2", "hugepages-2Mi", "8Mi"));
    assertSame(spec.effectiveLimits(), rl("hugepages-2Mi", "8Mi"));
  }

  @Test
  void nonZeroRequests_podLevelRequestsWin_andDefaultsOnlyForResourcesNobodyRequests() {
    // without pod-level resources: 100m / 200Mi for each container missing them
    PodSpec plain = PodSpec.builder().container(req("a", ResourceList.EMPTY)).container(req("b", rl("cpu", "1")))
        .build();
    assertThat(plain.nonZeroRequests()).containsExactly(1100L, 2L * 200 * 1024 * 1024);
    // pod-level cpu: taken as is; memory requested by nobody: the default for each container, as without
    PodSpec podCpu = PodSpec.builder().container(req("a", ResourceList.EMPTY)).container(req("b", rl("cpu", "1")))
        .resources(ResourceRequirements.of(rl("cpu", "3"), ResourceList.EMPTY)).build();
    assertThat(podCpu.nonZeroRequests()).containsExactly(3000L, 2L * 200 * 1024 * 1024);
    // pod-level memory and a container's cpu: no defaults at all (upstream's getNonMissingContainerRequests)
    PodSpec podMem = PodSpec.builder().container(req("a", ResourceList.EMPTY)).container(req("b", rl("cpu", "1")))
        .resources(ResourceRequirements.of(rl("memory", "1Gi"), ResourceList.EMPTY)).build();
    assertThat(podMem.nonZeroRequests()).containsExactly(1000L, 1024L * 1024 * 1024);
  }

  @Test
  void builderDefaulting_podLevelLimitsOnly_requestsFromContainersElseLimits() {
    // SetDefaults_Pod: cpu is requested by a container, so the pod-level cpu request is the containers' aggregate;
    // memory is requested by no container, so it defaults to the pod-level limit
    PodSpec spec = PodSpec.builder().container(req("a", rl("cpu", "500m"))).container(req("b", rl("cpu", "250m")))
        .resources(ResourceList.EMPTY, rl("cpu", "2", "memory", "1Gi")).build();
    assertSame(spec.resources().requests(), rl("cpu", "750m", "memory", "1Gi"));
    assertSame(spec.effectiveRequests(), rl("cpu", "750m", "memory", "1Gi"));
    assertSame(spec.effectiveLimits(), rl("cpu", "2", "memory", "1Gi"));
  }

  @Test
  void builderDefaulting_hugepagesLimitFromContainers_explicitRequestKept() {
    PodSpec spec = PodSpec.builder()
        .container(Container.of("a", "img", ResourceRequirements.of(rl("cpu", "1", "hugepages-2Mi", "4Mi"),
            rl("hugepages-2Mi", "4Mi"))))
        .resources(rl("cpu", "2"), ResourceList.EMPTY).build();
    assertSame(spec.resources().limits(), rl("hugepages-2Mi", "4Mi"));
    assertSame(spec.resources().requests(), rl("cpu", "2", "hugepages-2Mi", "4Mi"));
  }

  @Test
  void toBuilder_keepsPodLevelResources() {
    PodSpec spec = PodSpec.builder().container(req("a", rl("cpu", "1")))
        .resources(ResourceRequirements.of(rl("cpu", "2"), rl("cpu", "2"))).build();
    assertThat(spec.toBuilder().build().resources()).isEqualTo(spec.resources());
    assertThat(spec.withNodeName("n").resources()).isEqualTo(spec.resources());
    assertThat(spec.withPriority(5).resources()).isEqualTo(spec.resources());
  }

  @Test
  @SuppressWarnings("NullAway") // what a decoder passes for a component its input does not have
  void canonicalConstructor_nullResources_meansUnset() {
    PodSpec spec = new PodSpec(List.of(req("a", rl("cpu", "1"))), List.of(), ResourceList.EMPTY, null, "",
        io.fleetkit.api.scheduling.PreemptionPolicy.PreemptLowerPriority, java.util.Map.of(),
        io.fleetkit.api.scheduling.Affinity.NONE, List.of(), List.of(), "", "", List.of(), RestartPolicy.Always, 30,
        null, "", "", null);
    assertThat(spec.resources()).isEqualTo(ResourceRequirements.NONE);
    assertThat(spec.hasPodLevelResources()).isFalse();
  }

  @Test
  void isSupportedPodLevelResource_cpuMemoryHugepagesOnly() {
    // component-helpers TestIsSupportedPodLevelResource, 5 cases (commit 0085214e; not yet in 6c5cf687), plus a GPU
    assertThat(PodSpec.isSupportedPodLevelResource("cpu")).isTrue();
    assertThat(PodSpec.isSupportedPodLevelResource("memory")).isTrue();
    assertThat(PodSpec.isSupportedPodLevelResource("ephemeral-storage")).isFalse();
    assertThat(PodSpec.isSupportedPodLevelResource("hugepages-2Mi")).isTrue();
    assertThat(PodSpec.isSupportedPodLevelResource("hugepages-1Gi")).isTrue();
    assertThat(PodSpec.isSupportedPodLevelResource("nvidia.com/gpu")).isFalse();
  }
}
