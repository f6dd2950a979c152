package io.fleetkit.api.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class VerticalPodAutoscalerTest {
  private static final ObjectMeta META = ObjectMeta.of("default", "web-vpa");

  private static List<Violation> violations(Runnable r) {
    return catchThrowableOfType(ValidationException.class, r::run).violations();
  }

  private static VerticalPodAutoscalerSpec.Builder valid() {
    return VerticalPodAutoscalerSpec.builder().targetRef(CrossVersionObjectReference.deployment("web"));
  }

  @Test
  void defaults_autoModeMeansRecreate_containerPolicyDefaults() {
    VerticalPodAutoscaler vpa = VerticalPodAutoscaler.of(META, valid().build());
    ContainerResourcePolicy p = ContainerResourcePolicy.of("*");

    assertThat(vpa.spec().updateMode()).isEqualTo(UpdateMode.Auto);
    assertThat(vpa.spec().updateMode().effective()).isEqualTo(UpdateMode.Recreate);
    assertThat(UpdateMode.InPlaceOrRecreate.effective()).isEqualTo(UpdateMode.InPlaceOrRecreate);
    assertThat(p.mode()).isEqualTo(ContainerScalingMode.Auto);
    assertThat(p.controlledResources()).containsExactly("cpu", "memory");
    assertThat(p.controlledValues()).isEqualTo(ContainerControlledValues.RequestsAndLimits);
    assertThat(vpa.apiVersion()).isEqualTo("autoscaling.k8s.io/v1");
    assertThat(vpa.status()).isEqualTo(VerticalPodAutoscalerStatus.EMPTY);
  }

  @Test
  void constructor_badPoliciesAndRecommenders_reportsEveryViolation() {
    ResourceList min = ResourceList.builder().put("cpu", "500m").put("memory", "1Gi").build();
    ResourceList max = ResourceList.builder().put("cpu", "250m").build();
    VerticalPodAutoscalerSpec spec = VerticalPodAutoscalerSpec.builder()
        .targetRef(CrossVersionObjectReference.of("apps/v1", "", "web"))
        .updatePolicy(new PodUpdatePolicy(UpdateMode.Recreate, 0))
        .resourcePolicy(PodResourcePolicy.of(
            ContainerResourcePolicy.of("app").withBounds(min, max),
            ContainerResourcePolicy.of("app").withControlledResources(List.of("cpu", "nvidia.com/gpu")),
            ContainerResourcePolicy.of("")))
        .recommender("a").recommender("b")
        .build();

    List<Violation> v = violations(() -> VerticalPodAutoscaler.of(META, spec));

    assertThat(v).extracting(Violation::field).containsExactly(
        "spec.targetRef.kind",
        "spec.updatePolicy.minReplicas",
        "spec.resourcePolicy.containerPolicies[0].maxAllowed.cpu",
        "spec.resourcePolicy.containerPolicies[1].containerName",
        "spec.resourcePolicy.containerPolicies[1].controlledResources[1]",
        "spec.resourcePolicy.containerPolicies[2].containerName",
        "spec.recommenders");
    assertThat(v.get(2).rule()).isEqualTo("max resource for cpu is lower than min");
    assertThat(v.get(6).rule()).isEqualTo(
        "The current version of VPA object shouldn't specify more than one recommenders.");
  }

  @Test
  void policyFor_ownPolicyBeatsWildcard() {
    PodResourcePolicy policy = PodResourcePolicy.of(
        ContainerResourcePolicy.of("*").withMode(ContainerScalingMode.Off),
        ContainerResourcePolicy.of("app"));
    VerticalPodAutoscaler vpa = VerticalPodAutoscaler.of(META, valid().resourcePolicy(policy)
        .updateMode(UpdateMode.Initial).build());

    assertThat(policy.policyFor("app")).hasValueSatisfying(p -> assertThat(p.mode())
        .isEqualTo(ContainerScalingMode.Auto));
    assertThat(policy.policyFor("sidecar")).hasValueSatisfying(p -> assertThat(p.mode())
        .isEqualTo(ContainerScalingMode.Off));
    assertThat(PodResourcePolicy.of(ContainerResourcePolicy.of("app")).policyFor("sidecar")).isEmpty();
    assertThat(vpa.spec().updateMode()).isEqualTo(UpdateMode.Initial);
  }

  @Test
  void withStatusOf_takesRecommendation_keepsSpec() {
    VerticalPodAutoscaler mine = VerticalPodAutoscaler.of(META, valid().build());
    ResourceList target = ResourceList.builder().put("cpu", "250m").put("memory", "256Mi").build();
    VerticalPodAutoscalerStatus observed = new VerticalPodAutoscalerStatus(new RecommendedPodResources(List.of(
        new RecommendedContainerResources("app", target, target, target, target))), List.of());
    VerticalPodAutoscaler theirs = VerticalPodAutoscaler.of(META, valid().updateMode(UpdateMode.Off).build())
        .withStatus(observed);

    VerticalPodAutoscaler merged = mine.withStatusOf(theirs);

    assertThat(merged.status()).isEqualTo(observed);
    assertThat(merged.spec().updatePolicy()).isNull();
    RecommendedPodResources rec = merged.status().recommendation();
    assertThat(rec).isNotNull();
    assertThat(rec.forContainer("app")).hasValueSatisfying(r -> assertThat(r.target()).isEqualTo(target));
  }
}
