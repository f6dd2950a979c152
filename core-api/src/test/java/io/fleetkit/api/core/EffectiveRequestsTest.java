package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link PodSpec#effectiveRequests()} against the table cases of Kubernetes' resource helpers.
 *
 * <p>Ported from kubernetes/kubernetes {@code pkg/api/v1/resource/helpers_test.go}: TestPodRequestsAndLimits (5
 * cases), TestPodRequestsAndLimitsWithoutOverhead (3 cases), TestGetResourceRequest (4 cases) and
 * TestPodResourceRequests (7 cases: the resize cases and "sidecar (disabled)" do not apply, FleetKit always runs
 * sidecars and does not model in-place resize). Where an upstream case sets a limit without a request, the expected
 * request follows Kubernetes' API defaulting (request = limit), which the upstream helper test skips; where an
 * upstream case excludes overhead, the expected value here adds it, because effectiveRequests always includes it.
 * The limits half of TestPodRequestsAndLimits (5) and of …WithoutOverhead (3) checks {@link PodSpec#effectiveLimits()}
 * the same way (overhead added to the non-zero limits).
 */
final class EffectiveRequestsTest {

  private static ResourceList rl(String... kv) {
    ResourceList.Builder b = ResourceList.builder();
    for (int i = 0; i < kv.length; i += 2) {
      b.put(kv[i], kv[i + 1]);
    }
    return b.build();
  }

  private static Container c(String name, ResourceList requests, ResourceList limits) {
    return Container.of(name, "img", ResourceRequirements.of(requests, limits));
  }

  private static Container c(String name, ResourceList requests) {
    return c(name, requests, ResourceList.EMPTY);
  }

  private static Container sidecar(String name, ResourceList requests) {
    return new Container(name, "img", ResourceRequirements.of(requests, ResourceList.EMPTY), List.of(), List.of(),
        ContainerRestartPolicy.Always);
  }

  /** Upstream getPod(): the same resources on one container and one init container, plus overhead. */
  private static PodSpec getPod(String cpuReq, String cpuLim, String memReq, String memLim, String cpuOver,
      String memOver) {
    ResourceList.Builder req = ResourceList.builder();
    ResourceList.Builder lim = ResourceList.builder();
    ResourceList.Builder over = ResourceList.builder();
    if (!cpuReq.isEmpty()) req.put("cpu", cpuReq);
    if (!cpuLim.isEmpty()) lim.put("cpu", cpuLim);
    if (!memReq.isEmpty()) req.put("memory", memReq);
    if (!memLim.isEmpty()) lim.put("memory", memLim);
    if (!cpuOver.isEmpty()) over.put("cpu", cpuOver);
    if (!memOver.isEmpty()) over.put("memory", memOver);
    ResourceRequirements r = ResourceRequirements.of(req.build(), lim.build());
    return PodSpec.builder().container(Container.of("foo", "img", r)).initContainer(Container.of("init-foo", "img", r))
        .overhead(over.build()).build();
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        // TestPodRequestsAndLimits
        Arguments.of("just-limit-no-overhead (request defaulted to limit)",
            getPod("", "9", "", "", "", ""), rl("cpu", "9")),
        Arguments.of("just-overhead", getPod("", "", "", "", "5", "5"), rl("cpu", "5", "memory", "5")),
        Arguments.of("req-and-overhead", getPod("1", "", "10", "", "5", "5"), rl("cpu", "6", "memory", "15")),
        Arguments.of("all-req-lim-and-overhead", getPod("1", "2", "10", "12", "5", "5"),
            rl("cpu", "6", "memory", "15")),
        Arguments.of("req-some-lim-and-overhead", getPod("1", "2", "10", "", "5", "5"),
            rl("cpu", "6", "memory", "15")),
        // TestPodRequestsAndLimitsWithoutOverhead
        Arguments.of("two container no overhead - should just be sum of containers",
            PodSpec.builder()
                .container(c("foobar", rl("cpu", "1", "memory", "5"), rl("cpu", "2", "memory", "10")))
                .container(c("foobar2", rl("cpu", "4", "memory", "12"), rl("cpu", "8", "memory", "24")))
                .build(),
            rl("cpu", "5", "memory", "17")),
        Arguments.of("two container with overhead (overhead 3/8 included here)",
            PodSpec.builder().overhead(rl("cpu", "3", "memory", "8"))
                .container(c("foobar", rl("cpu", "1", "memory", "5"), rl("cpu", "2", "memory", "10")))
                .container(c("foobar2", rl("cpu", "4", "memory", "12"), rl("cpu", "8", "memory", "24")))
                .build(),
            rl("cpu", "8", "memory", "25")),
        Arguments.of("two container with overhead, massive init - should just be the largest init (+ overhead)",
            PodSpec.builder().overhead(rl("cpu", "3", "memory", "8"))
                .container(c("foobar", rl("cpu", "1", "memory", "5"), rl("cpu", "2", "memory", "10")))
                .container(c("foobar2", rl("cpu", "4", "memory", "12"), rl("cpu", "8", "memory", "24")))
                .initContainer(c("small-init", rl("cpu", "1", "memory", "5"), rl("cpu", "1", "memory", "5")))
                .initContainer(c("big-init", rl("cpu", "40", "memory", "120"), rl("cpu", "80", "memory", "240")))
                .build(),
            rl("cpu", "43", "memory", "128")),
        // TestGetResourceRequest
        Arguments.of("cpu request 9", getPod("9", "", "", "", "", ""), rl("cpu", "9")),
        Arguments.of("memory request 90Mi", getPod("", "", "90Mi", "", "", ""), rl("memory", "94371840")),
        Arguments.of("cpu overhead and req", getPod("2", "", "", "", "5", "5"), rl("cpu", "7", "memory", "5")),
        Arguments.of("mem overhead and req", getPod("2", "", "1024", "", "5", "5"),
            rl("cpu", "7", "memory", "1029")),
        // TestPodResourceRequests
        Arguments.of("nil options, larger init container",
            PodSpec.builder().initContainer(c("i", rl("cpu", "4"))).container(c("a", rl("cpu", "1"))).build(),
            rl("cpu", "4")),
        Arguments.of("nil options, larger containers",
            PodSpec.builder().initContainer(c("i", rl("cpu", "2"))).container(c("a", rl("cpu", "2")))
                .container(c("b", rl("cpu", "3"))).build(),
            rl("cpu", "5")),
        Arguments.of("pod overhead included",
            PodSpec.builder().overhead(rl("cpu", "1", "memory", "1Gi"))
                .initContainer(c("i", rl("cpu", "2"), rl("cpu", "2"))).container(c("a", rl("cpu", "2")))
                .container(c("b", rl("cpu", "3"))).build(),
            rl("cpu", "6", "memory", "1Gi")),
        Arguments.of("sidecar (enabled)",
            PodSpec.builder().initContainer(sidecar("sidecar-1", rl("cpu", "1")))
                .container(c("container-1", rl("cpu", "1"))).build(),
            rl("cpu", "2")),
        Arguments.of("multiple sidecars",
            PodSpec.builder().initContainer(c("non-sidecar-1", rl("cpu", "5")))
                .initContainer(sidecar("sidecar-1", rl("cpu", "1")))
                .initContainer(sidecar("sidecar-2", rl("cpu", "2")))
                .initContainer(sidecar("sidecar-3", rl("cpu", "3")))
                .container(c("container-1", rl("cpu", "1"))).build(),
            rl("cpu", "7")),
        Arguments.of("multiple sidecars and non-sidecars",
            PodSpec.builder().initContainer(c("non-sidecar-1", rl("cpu", "5")))
                .initContainer(sidecar("sidecar-1", rl("cpu", "1")))
                .initContainer(sidecar("sidecar-2", rl("cpu", "2")))
                .initContainer(c("non-sidecar-2", rl("cpu", "5")))
                .initContainer(sidecar("sidecar-3", rl("cpu", "3")))
                .container(c("container-1", rl("cpu", "1"))).build(),
            rl("cpu", "8")),
        Arguments.of("sidecar, init and regular",
            PodSpec.builder().initContainer(sidecar("sidecar-1", rl("cpu", "10")))
                .initContainer(c("init-1", rl("cpu", "200")))
                .container(c("container-1", rl("cpu", "100"))).build(),
            rl("cpu", "210")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void effectiveRequests_upstreamCase_matchesKubernetes(String name, PodSpec spec, ResourceList expected) {
    ResourceList actual = spec.effectiveRequests();
    assertThat(actual.asMap().keySet()).isEqualTo(expected.asMap().keySet());
    expected.asMap().forEach((k, q) -> assertThat(actual.get(k)).as(k).isEqualByComparingTo(q));
  }

  static Stream<Arguments> limitCases() {
    PodSpec twoContainers = PodSpec.builder()
        .container(c("foobar", rl("cpu", "1", "memory", "5"), rl("cpu", "2", "memory", "10")))
        .container(c("foobar2", rl("cpu", "4", "memory", "12"), rl("cpu", "8", "memory", "24"))).build();
    PodSpec withOverhead = twoContainers.toBuilder().overhead(rl("cpu", "3", "memory", "8")).build();
    PodSpec massiveInit = withOverhead.toBuilder()
        .initContainer(c("small-init", rl("cpu", "1", "memory", "5"), rl("cpu", "1", "memory", "5")))
        .initContainer(c("big-init", rl("cpu", "40", "memory", "120"), rl("cpu", "80", "memory", "240"))).build();
    return Stream.of(
        // TestPodRequestsAndLimits, limits
        Arguments.of("just-limit-no-overhead", getPod("", "9", "", "", "", ""), rl("cpu", "9")),
        Arguments.of("just-overhead", getPod("", "", "", "", "5", "5"), ResourceList.EMPTY),
        Arguments.of("req-and-overhead", getPod("1", "", "10", "", "5", "5"), ResourceList.EMPTY),
        Arguments.of("all-req-lim-and-overhead", getPod("1", "2", "10", "12", "5", "5"),
            rl("cpu", "7", "memory", "17")),
        Arguments.of("req-some-lim-and-overhead", getPod("1", "2", "10", "", "5", "5"), rl("cpu", "7")),
        // TestPodRequestsAndLimitsWithoutOverhead, limits (overhead added here)
        Arguments.of("two container no overhead - should just be sum of containers", twoContainers,
            rl("cpu", "10", "memory", "34")),
        Arguments.of("two container with overhead (overhead 3/8 added to the limits here)", withOverhead,
            rl("cpu", "13", "memory", "42")),
        Arguments.of("two container with overhead, massive init - should just be the largest init (+ overhead)",
            massiveInit, rl("cpu", "83", "memory", "248")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("limitCases")
  void effectiveLimits_upstreamCase_matchesKubernetes(String name, PodSpec spec, ResourceList expected) {
    ResourceList actual = spec.effectiveLimits();
    assertThat(actual.asMap().keySet()).isEqualTo(expected.asMap().keySet());
    expected.asMap().forEach((k, q) -> assertThat(actual.get(k)).as(k).isEqualByComparingTo(q));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void effectiveRequests_viaPod_sameAsSpec(String name, PodSpec spec, ResourceList expected) {
    Pod pod = Pod.builder().name("p").spec(spec).build();
    assertThat(pod.effectiveRequests().milliCpu()).isEqualTo(expected.milliCpu());
    assertThat(pod.effectiveRequests().memoryBytes()).isEqualTo(expected.memoryBytes());
  }
}
