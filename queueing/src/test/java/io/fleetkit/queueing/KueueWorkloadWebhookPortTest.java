package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/webhooks/workload_webhook_test.go}, {@code TestValidateWorkload}
 * (commit ff69552e), the cases about what FleetKit's {@link Workload} holds: pod sets, their counts, minimum counts and
 * requests. A FleetKit pod set carries its pods' effective requests ({@link PodSet#ofTemplate} from a pod template),
 * so upstream's container and init-container paths ({@code spec.podSets[0].template.spec.containers[0].resources
 * .requests[cpu]}) are {@code spec.podSets[0].template.requests.cpu} here; a template whose containers request a
 * negative amount is refused already when the template is built. Pod-level resources ({@code spec.resources}) enter
 * the pod set's requests through the same {@link PodSpec#effectiveRequests()}, so a negative pod-level request, or a
 * negative pod-level limit (which the request defaults to), is refused at the same path. The other cases (status
 * admissions and admission checks, podSetUpdates, pod-set template metadata, limits, TAS slice sizes, reclaimable pods,
 * priority boosts, AdmissionGatedBy, elastic jobs, sub-groups, and the variants with a feature gate off) are listed in
 * docs/conformance.md with the reason.
 */
final class KueueWorkloadWebhookPortTest {
  private static Workload.Builder wl() {
    return Workload.builder("ns", "wl").queueName("lq");
  }

  private static ResourceList cpu(String q) {
    return ResourceList.builder().put("cpu", q).build();
  }

  @Test
  void valid() {
    Workload w = wl().podSet(PodSet.of("driver", 1, ResourceList.EMPTY)).podSet(PodSet.of("workers", 100,
        ResourceList.EMPTY)).build();
    assertThat(w.podSets()).extracting(PodSet::count).containsExactly(1, 100);
  }

  @Test
  void shouldNotRequestNumPodsResource() {
    PodSpec template = PodSpec.builder()
        .initContainer("init", "i", ResourceList.builder().put("pods", "1").build())
        .container("c", "i", ResourceList.builder().put("pods", "1").build()).build();
    assertThatThrownBy(() -> wl().podSet(PodSet.ofTemplate("bad", 1, template)).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.podSets[0].template.requests.pods")
        .hasMessageContaining("the key is reserved for internal kueue use");
  }

  @Test
  void shouldRejectNegativeContainerResourceRequest() {
    assertThatThrownBy(() -> wl().podSet(PodSet.ofTemplate("bad", 1,
            PodSpec.builder().container("c", "i", cpu("-1")).build())).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("cpu")
        .hasMessageContaining("must be greater than or equal to 0");
  }

  @Test
  void shouldRejectNegativeInitContainerResourceRequest() {
    assertThatThrownBy(() -> wl().podSet(PodSet.ofTemplate("bad", 1,
            PodSpec.builder().initContainer("init", "i", cpu("-1")).container("c", "i", ResourceList.EMPTY).build()))
            .build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("cpu")
        .hasMessageContaining("must be greater than or equal to 0");
  }

  @Test
  void shouldRejectNegativePodLevelResourceRequest() {
    assertThatThrownBy(() -> wl().podSet(PodSet.ofTemplate("bad", 1, PodSpec.builder()
            .container("c", "i", ResourceList.EMPTY).resources(cpu("-1"), ResourceList.EMPTY).build())).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.podSets[0].template.requests.cpu")
        .hasMessageContaining("must be greater than or equal to 0");
  }

  @Test
  void shouldRejectNegativePodLevelResourceLimit() {
    assertThatThrownBy(() -> wl().podSet(PodSet.ofTemplate("bad", 1, PodSpec.builder()
            .container("c", "i", ResourceList.EMPTY).resources(ResourceList.EMPTY, cpu("-1")).build())).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.podSets[0].template.requests.cpu")
        .hasMessageContaining("must be greater than or equal to 0");
  }

  @Test
  void podLevelRequests_areThePodSetsRequests() {
    PodSpec template = PodSpec.builder().container("a", "i", cpu("1")).container("b", "i", cpu("1"))
        .resources(cpu("3"), ResourceList.EMPTY).build();
    assertThat(wl().podSet(PodSet.ofTemplate("main", 4, template)).build().podSets().get(0).requests()
        .milliValue("cpu")).isEqualTo(3000);
  }

  @Test
  void shouldAcceptZeroContainerResourceRequest() {
    Workload w = wl().podSet(PodSet.ofTemplate("ok", 1, PodSpec.builder().container("c", "i", cpu("0")).build()))
        .build();
    assertThat(w.podSets().get(0).requests().milliValue("cpu")).isZero();
  }

  @Test
  void tooManyVariableCountPodSets() {
    assertThatThrownBy(() -> wl()
            .podSet(PodSet.of("ps1", 3, cpu("1")).withMinCount(2))
            .podSet(PodSet.of("ps2", 3, cpu("1")).withMinCount(1))
            .build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.podSets")
        .hasMessageContaining("at most one podSet can use minCount");
  }
}
