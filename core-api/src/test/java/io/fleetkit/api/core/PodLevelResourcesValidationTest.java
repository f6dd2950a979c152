package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The rules on {@code spec.resources} (pod-level resources), as Kubernetes' {@code validatePodResources} and
 * {@code validatePodResourceConsistency} in {@code pkg/apis/core/validation/validation.go} (kubernetes commit
 * 000f2605; the consistency checks as of v1.36: a request or hugepages limit is compared only where the pod level sets
 * it). FleetKit's own cases: upstream's pod-level cases in {@code validation_test.go} were not ported (see
 * docs/conformance.md).
 */
final class PodLevelResourcesValidationTest {

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

  private static Pod pod(ResourceRequirements podLevel, Container... containers) {
    PodSpec.Builder spec = PodSpec.builder().resources(podLevel);
    for (Container c : containers) {
      spec.container(c);
    }
    return Pod.builder().name("web-0").spec(spec.build()).build();
  }

  private static List<Violation> violations(ResourceRequirements podLevel, Container... containers) {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> pod(podLevel, containers));
    assertThat(e).as("expected a validation error").isNotNull();
    assertThat(e.violations()).allSatisfy(v -> assertThat(v.object()).isEqualTo("Pod default/web-0"));
    return e.violations();
  }

  @Test
  void valid_podLevelCoversContainers() {
    assertThatCode(() -> pod(ResourceRequirements.of(rl("cpu", "2", "memory", "2Gi"), rl("cpu", "4", "memory", "4Gi")),
        c("a", rl("cpu", "1", "memory", "1Gi"), rl("cpu", "2")),
        c("b", rl("cpu", "1", "memory", "1Gi"), ResourceList.EMPTY))).doesNotThrowAnyException();
  }

  @Test
  void valid_requestsEqualToAggregate_andContainerLimitEqualToPodLimit() {
    assertThatCode(() -> pod(ResourceRequirements.of(rl("cpu", "2"), rl("cpu", "2")),
        c("a", rl("cpu", "1"), rl("cpu", "2")), c("b", rl("cpu", "1"), ResourceList.EMPTY)))
        .doesNotThrowAnyException();
  }

  @Test
  void valid_podLevelCpuOnly_containersMayRequestOtherResources() {
    // the aggregate is compared only for resources the pod level sets
    assertThatCode(() -> pod(ResourceRequirements.of(rl("cpu", "1"), ResourceList.EMPTY),
        c("a", rl("memory", "8Gi", "ephemeral-storage", "1Gi"), ResourceList.EMPTY))).doesNotThrowAnyException();
  }

  @Test
  void unsupportedResource_atPodLevel_isRejectedWithTheSupportedList() {
    List<Violation> v = violations(ResourceRequirements.of(rl("ephemeral-storage", "1Gi"), ResourceList.EMPTY),
        c("a", ResourceList.EMPTY, ResourceList.EMPTY));
    assertThat(v).hasSize(1);
    assertThat(v.get(0).field()).isEqualTo("spec.resources.requests.ephemeral-storage");
    assertThat(v.get(0).rule())
        .isEqualTo("Unsupported value: supported values: \"cpu\", \"hugepages-\", \"memory\"");
    assertThat(v.get(0).value()).isEqualTo("ephemeral-storage");
  }

  @Test
  void extendedResource_atPodLevel_isRejectedInLimitsAndRequests() {
    List<Violation> v = violations(ResourceRequirements.of(ResourceList.EMPTY, rl("nvidia.com/gpu", "1")),
        c("a", ResourceList.EMPTY, ResourceList.EMPTY));
    assertThat(v).extracting(Violation::field)
        .containsExactly("spec.resources.limits.nvidia.com/gpu", "spec.resources.requests.nvidia.com/gpu");
  }

  @Test
  void requestAboveLimit_atPodLevel_isRejected() {
    List<Violation> v = violations(ResourceRequirements.of(rl("cpu", "3"), rl("cpu", "2")),
        c("a", rl("cpu", "1"), ResourceList.EMPTY));
    assertThat(v).hasSize(1);
    assertThat(v.get(0).field()).isEqualTo("spec.resources.requests.cpu");
    assertThat(v.get(0).rule()).isEqualTo("must be less than or equal to cpu limit of 2");
    assertThat(v.get(0).value()).isEqualTo("3");
  }

  @Test
  void negativeQuantity_atPodLevel_isRejected() {
    List<Violation> v = violations(ResourceRequirements.of(rl("memory", "-1"), ResourceList.EMPTY),
        c("a", ResourceList.EMPTY, ResourceList.EMPTY));
    assertThat(v).extracting(Violation::field).containsExactly("spec.resources.requests.memory");
    assertThat(v.get(0).rule()).isEqualTo("must be greater than or equal to 0");
  }

  @Test
  void hugepagesRequestWithoutLimit_atPodLevel_isRejected() {
    List<Violation> v = violations(ResourceRequirements.of(rl("cpu", "1", "hugepages-2Mi", "4Mi"),
        ResourceList.EMPTY), c("a", ResourceList.EMPTY, ResourceList.EMPTY));
    assertThat(v).extracting(Violation::field).containsExactly("spec.resources.limits");
    assertThat(v.get(0).rule()).contains("Limit must be set for non overcommitable resources");
  }

  @Test
  void podRequestBelowAggregate_namesTheAggregate() {
    // two containers and a sidecar: 1 + 1 + 500m = 2500m of cpu
    PodSpec.Builder spec = PodSpec.builder()
        .resources(ResourceRequirements.of(rl("cpu", "2"), ResourceList.EMPTY))
        .container(c("a", rl("cpu", "1"), ResourceList.EMPTY)).container(c("b", rl("cpu", "1"), ResourceList.EMPTY))
        .initContainer(new Container("s", "img", ResourceRequirements.of(rl("cpu", "500m"), ResourceList.EMPTY),
            List.of(), List.of(), ContainerRestartPolicy.Always));
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> Pod.builder().name("web-0").spec(spec.build()).build());
    assertThat(e.violations()).hasSize(1);
    Violation v = e.violations().get(0);
    assertThat(v.field()).isEqualTo("spec.resources.requests.cpu");
    assertThat(v.rule()).isEqualTo("must be greater than or equal to aggregate container requests of 2500m");
    assertThat(v.value()).isEqualTo("2");
  }

  @Test
  void podRequestBelowLargestInitContainer_isRejected() {
    PodSpec.Builder spec = PodSpec.builder()
        .resources(ResourceRequirements.of(rl("memory", "1Gi"), ResourceList.EMPTY))
        .container(c("a", rl("memory", "512Mi"), ResourceList.EMPTY))
        .initContainer(c("init", rl("memory", "2Gi"), ResourceList.EMPTY));
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> Pod.builder().name("web-0").spec(spec.build()).build());
    assertThat(e.violations()).extracting(Violation::field).containsExactly("spec.resources.requests.memory");
  }

  @Test
  void containerLimitAbovePodLimit_usesUpstreamsPath() {
    List<Violation> v = violations(ResourceRequirements.of(ResourceList.EMPTY, rl("memory", "1Gi")),
        c("a", ResourceList.EMPTY, ResourceList.EMPTY), c("b", rl("memory", "1Gi"), rl("memory", "2Gi")));
    // the pod-level memory request defaults to the limit (1Gi), which covers the containers' 1Gi
    assertThat(v).hasSize(1);
    assertThat(v.get(0).field()).isEqualTo("spec.resources.containers[1].memory.limits");
    assertThat(v.get(0).rule()).isEqualTo("must be less than or equal to pod limits of 1Gi");
    assertThat(v.get(0).value()).isEqualTo("2Gi");
  }

  @Test
  void hugepagesPodLimitBelowContainersAggregate_isRejected() {
    Container a = c("a", rl("cpu", "1", "hugepages-2Mi", "4Mi"), rl("hugepages-2Mi", "4Mi"));
    Container b = c("b", rl("cpu", "1", "hugepages-2Mi", "4Mi"), rl("hugepages-2Mi", "4Mi"));
    List<Violation> v = violations(ResourceRequirements.of(rl("cpu", "2", "hugepages-2Mi", "6Mi"),
        rl("hugepages-2Mi", "6Mi")), a, b);
    assertThat(v).extracting(Violation::field)
        .containsExactly("spec.resources.requests.hugepages-2Mi", "spec.resources.limits.hugepages-2Mi");
    assertThat(v.get(1).rule()).isEqualTo("must be greater than or equal to aggregate container limits of 8Mi");
  }

  @Test
  void errorMessage_namesObjectFieldAndRule() {
    PodSpec template = PodSpec.builder().resources(ResourceRequirements.of(rl("cpu", "500m"), ResourceList.EMPTY))
        .container(c("a", rl("cpu", "1"), ResourceList.EMPTY)).build();
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> Pod.builder().name("web-0").spec(template).build());
    assertThat(e.getMessage()).contains("Pod default/web-0").contains("spec.resources.requests.cpu")
        .contains("aggregate container requests of 1");
  }

  /** Any pod whose pod-level requests are its containers' aggregate (and limits above them) is valid. */
  @Property(tries = 200)
  void podLevelAtLeastTheAggregate_isAlwaysValid(@ForAll @IntRange(max = 4000) int cpuA,
      @ForAll @IntRange(max = 4000) int cpuB, @ForAll @IntRange(max = 4000) int init,
      @ForAll @IntRange(max = 2000) int headroom) {
    PodSpec.Builder b = PodSpec.builder()
        .container(c("a", rl("cpu", cpuA + "m"), ResourceList.EMPTY))
        .container(c("b", rl("cpu", cpuB + "m"), ResourceList.EMPTY))
        .initContainer(c("i", rl("cpu", init + "m"), ResourceList.EMPTY));
    long aggregate = Math.max(cpuA + cpuB, init);
    b.resources(ResourceRequirements.of(rl("cpu", aggregate + "m"), rl("cpu", (aggregate + headroom) + "m")));
    Pod p = Pod.builder().name("p").spec(b.build()).build();
    assertThat(p.effectiveRequests().milliCpu()).isEqualTo(aggregate);
    assertThat(p.effectiveLimits().milliCpu()).isEqualTo(aggregate + headroom);
  }
}
