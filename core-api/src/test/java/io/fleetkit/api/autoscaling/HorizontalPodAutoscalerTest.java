package io.fleetkit.api.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

final class HorizontalPodAutoscalerTest {
  private static final ObjectMeta META = ObjectMeta.of("default", "myautoscaler");
  private static final CrossVersionObjectReference RC =
      CrossVersionObjectReference.of("v1", "ReplicationController", "myrc");

  private static List<Violation> violations(Runnable r) {
    return catchThrowableOfType(ValidationException.class, r::run).violations();
  }

  private static HorizontalPodAutoscalerSpec.Builder valid() {
    return HorizontalPodAutoscalerSpec.builder().scaleTargetRef(RC).minReplicas(1).maxReplicas(5);
  }

  @Test
  void builder_defaults_minReplicasOneAndCpuAt80Percent() {
    HorizontalPodAutoscaler hpa = HorizontalPodAutoscaler.of(META,
        HorizontalPodAutoscalerSpec.builder().scaleTargetRef(CrossVersionObjectReference.deployment("web"))
            .maxReplicas(10).build());

    assertThat(hpa.spec().minReplicas()).isEqualTo(1);
    assertThat(hpa.spec().metrics()).containsExactly(MetricSpec.resourceUtilization("cpu", 80));
    assertThat(hpa.spec().behavior()).isNull();
    assertThat(hpa.apiVersion()).isEqualTo("autoscaling/v2");
    assertThat(hpa.status()).isEqualTo(HorizontalPodAutoscalerStatus.EMPTY);
  }

  // Values from kubernetes/kubernetes pkg/apis/autoscaling/v2/defaults.go (defaultHPAScaleUpRules,
  // defaultHPAScaleDownRules).
  @Test
  void behaviorDefaults_matchKubernetes() {
    HorizontalPodAutoscalerBehavior b = HorizontalPodAutoscalerBehavior.of(null, null);

    assertThat(b).isEqualTo(HorizontalPodAutoscalerBehavior.DEFAULT);
    assertThat(b.scaleUp().stabilizationWindowSeconds()).isZero();
    assertThat(b.scaleUp().selectPolicy()).isEqualTo(ScalingPolicySelect.Max);
    assertThat(b.scaleUp().policies()).containsExactly(HPAScalingPolicy.pods(4, 15), HPAScalingPolicy.percent(100, 15));
    assertThat(b.scaleDown().stabilizationWindowSeconds()).isNull();
    assertThat(b.scaleDown().stabilizationWindowSecondsOr(HPAScalingRules.DEFAULT_SCALE_DOWN_STABILIZATION_SECONDS))
        .isEqualTo(300);
    assertThat(b.scaleDown().selectPolicy()).isEqualTo(ScalingPolicySelect.Max);
    assertThat(b.scaleDown().policies()).containsExactly(HPAScalingPolicy.percent(100, 15));
    assertThat(b.scaleUp().longestPolicyPeriodSeconds()).isEqualTo(15);
  }

  @Test
  void scalingRulesBuilder_partialRules_keepDirectionDefaults() {
    HPAScalingRules down = HPAScalingRules.scaleDownBuilder().stabilizationWindowSeconds(60).build();
    HPAScalingRules up = HPAScalingRules.scaleUpBuilder().policy(HPAScalingPolicy.pods(2, 60))
        .selectPolicy(ScalingPolicySelect.Min).build();

    assertThat(down.stabilizationWindowSeconds()).isEqualTo(60);
    assertThat(down.policies()).isEqualTo(HPAScalingRules.DEFAULT_SCALE_DOWN.policies());
    assertThat(down.stabilizationWindowSecondsOr(300)).isEqualTo(60);
    assertThat(up.stabilizationWindowSeconds()).isZero();
    assertThat(up.policies()).containsExactly(HPAScalingPolicy.pods(2, 60));
    assertThat(up.selectPolicy()).isEqualTo(ScalingPolicySelect.Min);
    assertThat(HorizontalPodAutoscaler.of(META, valid().behavior(HorizontalPodAutoscalerBehavior.of(up, down))
        .build()).spec().behavior()).isNotNull();
  }

  @Test
  void constructor_badReplicasAndBehavior_reportsEveryViolation() {
    HPAScalingRules up = HPAScalingRules.scaleUpBuilder().stabilizationWindowSeconds(3601)
        .policy(HPAScalingPolicy.pods(0, 15)).policy(HPAScalingPolicy.percent(50, 1801)).build();
    HPAScalingRules down = HPAScalingRules.scaleDownBuilder().stabilizationWindowSeconds(-1)
        .policies(List.of()).build();
    HorizontalPodAutoscalerSpec spec = valid().minReplicas(0).maxReplicas(0)
        .behavior(new HorizontalPodAutoscalerBehavior(up, down)).build();

    ValidationException e = catchThrowableOfType(ValidationException.class, () -> HorizontalPodAutoscaler.of(META, spec));

    assertThat(e.violations()).extracting(Violation::field, Violation::rule).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.minReplicas", "must be greater than or equal to 1"),
        org.assertj.core.groups.Tuple.tuple("spec.maxReplicas", "must be greater than 0"),
        org.assertj.core.groups.Tuple.tuple("spec.behavior.scaleUp.stabilizationWindowSeconds",
            "must be less than or equal to 3600"),
        org.assertj.core.groups.Tuple.tuple("spec.behavior.scaleUp.policies[0].value", "must be greater than zero"),
        org.assertj.core.groups.Tuple.tuple("spec.behavior.scaleUp.policies[1].periodSeconds",
            "must be less than or equal to 1800"),
        org.assertj.core.groups.Tuple.tuple("spec.behavior.scaleDown.stabilizationWindowSeconds",
            "must be greater than or equal to zero"),
        org.assertj.core.groups.Tuple.tuple("spec.behavior.scaleDown.policies",
            "Required value: must specify at least one Policy"));
    assertThat(e.getMessage()).startsWith("7 violations:")
        .contains("HorizontalPodAutoscaler default/myautoscaler: spec.minReplicas \"0\" must be greater than or "
            + "equal to 1");
  }

  @Test
  void constructor_policyPeriodBounds_1and1800Accepted_0Rejected() {
    HPAScalingRules ok = HPAScalingRules.scaleUpBuilder().stabilizationWindowSeconds(3600)
        .policy(HPAScalingPolicy.pods(1, 1)).policy(HPAScalingPolicy.percent(1, 1800)).build();
    HPAScalingRules zero = HPAScalingRules.scaleUpBuilder().policy(HPAScalingPolicy.pods(1, 0)).build();

    assertThat(HorizontalPodAutoscaler.of(META, valid().behavior(HorizontalPodAutoscalerBehavior.of(ok, null))
        .build())).isNotNull();
    assertThat(violations(() -> HorizontalPodAutoscaler.of(META,
        valid().behavior(HorizontalPodAutoscalerBehavior.of(zero, null)).build())))
        .extracting(Violation::field, Violation::rule).containsExactly(org.assertj.core.groups.Tuple.tuple(
            "spec.behavior.scaleUp.policies[0].periodSeconds", "must be greater than zero"));
  }

  @Test
  void constructor_metricTypeWithoutItsSourceOrWithAnother_rejected() {
    ResourceMetricSource cpu = new ResourceMetricSource("cpu", MetricTarget.utilization(50));
    MetricSpec wrongSource = new MetricSpec(MetricSourceType.Pods, cpu, null, null, null, null);

    assertThat(violations(() -> HorizontalPodAutoscaler.of(META, valid().metric(wrongSource).build())))
        .extracting(Violation::field, Violation::rule).containsExactly(
            org.assertj.core.groups.Tuple.tuple("spec.metrics[0].pods",
                "Required value: must populate information for the given metric source"),
            org.assertj.core.groups.Tuple.tuple("spec.metrics[0].resource",
                "must populate the given metric source only"));
  }

  @Test
  void constructor_utilizationOnPodsObjectExternal_rejected() {
    MetricIdentifier m = MetricIdentifier.of("queue-length");
    MetricTarget utilization = MetricTarget.utilization(50);
    HorizontalPodAutoscalerSpec spec = valid()
        .metric(new MetricSpec(MetricSourceType.Pods, null, null, new PodsMetricSource(m, utilization), null, null))
        .metric(MetricSpec.object(RC, m, utilization))
        .metric(MetricSpec.external(m, utilization))
        .build();

    List<Violation> v = violations(() -> HorizontalPodAutoscaler.of(META, spec));

    assertThat(v).filteredOn(x -> x.field().endsWith(".averageUtilization")).extracting(Violation::field)
        .containsExactly("spec.metrics[0].pods.target.averageUtilization",
            "spec.metrics[1].object.target.averageUtilization",
            "spec.metrics[2].external.target.averageUtilization");
    assertThat(v).filteredOn(x -> x.field().endsWith(".averageUtilization")).extracting(Violation::rule)
        .containsOnly("may only be set for Resource and ContainerResource metrics");
  }

  @Test
  void constructor_allFiveMetricKinds_valid() {
    MetricIdentifier m = MetricIdentifier.of("requests-per-second");
    HorizontalPodAutoscaler hpa = HorizontalPodAutoscaler.of(META, valid()
        .metric(MetricSpec.resourceUtilization("cpu", 70))
        .metric(MetricSpec.containerResource("memory", "app", MetricTarget.averageValue(Quantity.parse("1Gi"))))
        .metric(MetricSpec.pods(m, Quantity.parse("100")))
        .metric(MetricSpec.object(CrossVersionObjectReference.of("networking.k8s.io/v1", "Ingress", "main"), m,
            MetricTarget.value(Quantity.parse("2k"))))
        .metric(MetricSpec.external(MetricIdentifier.of("queue"), MetricTarget.averageValue(Quantity.parse("30"))))
        .build());

    assertThat(hpa.spec().metrics()).extracting(MetricSpec::type).containsExactly(MetricSourceType.Resource,
        MetricSourceType.ContainerResource, MetricSourceType.Pods, MetricSourceType.Object, MetricSourceType.External);
    assertThat(hpa.spec().metrics()).allMatch(x -> x.source() != null);
  }

  // Error cases ported from kubernetes/kubernetes pkg/apis/autoscaling/validation/validation_test.go
  // TestValidateHorizontalPodAutoscaler errorCases (stored version 001320a9, written for the v2beta1 field names;
  // adapted to the v2 shape; expected messages as in the current validation.go): 15 of its 18 rows; the source
  // rows are in constructor_upstreamMetricSourceCases_reportTheSource.
  @Test
  void constructor_upstreamErrorCases_eachReportsItsMessage() {
    record Case(String name, UnaryOperator<HorizontalPodAutoscalerSpec.Builder> edit, String field, String msg) {}
    MetricSpec cpu70 = MetricSpec.resourceUtilization("cpu", 70);
    List<Case> cases = List.of(
        new Case("kind required", b -> b.scaleTargetRef(CrossVersionObjectReference.of("", "", "myrc")).metric(cpu70),
            "spec.scaleTargetRef.kind", "Required value"),
        new Case("kind invalid", b -> b.scaleTargetRef(CrossVersionObjectReference.of("", "..", "myrc")).metric(cpu70),
            "spec.scaleTargetRef.kind", "may not be '..'"),
        new Case("name required",
            b -> b.scaleTargetRef(CrossVersionObjectReference.of("", "ReplicationController", "")).metric(cpu70),
            "spec.scaleTargetRef.name", "Required value"),
        new Case("name invalid",
            b -> b.scaleTargetRef(CrossVersionObjectReference.of("", "ReplicationController", "..")).metric(cpu70),
            "spec.scaleTargetRef.name", "may not be '..'"),
        new Case("minReplicas -1", b -> b.minReplicas(-1), "spec.minReplicas", "must be greater than or equal to 1"),
        new Case("min above max", b -> b.minReplicas(7), "spec.maxReplicas",
            "must be greater than or equal to `minReplicas`"),
        new Case("utilization -70", b -> b.metric(MetricSpec.resourceUtilization("cpu", -70)),
            "spec.metrics[0].resource.target.averageUtilization", "must be greater than 0"),
        new Case("both raw value and utilization", b -> b.metric(MetricSpec.resource("cpu",
                new MetricTarget(MetricTargetType.Utilization, null, Quantity.parse("300m"), 70))),
            "spec.metrics[0].resource.target.averageValue",
            "may not set both a target raw value and a target utilization"),
        new Case("no resource name", b -> b.metric(MetricSpec.resourceUtilization("", 70)),
            "spec.metrics[0].resource.name", "Required value: must specify a resource name"),
        new Case("utilization -10", b -> b.metric(MetricSpec.resourceUtilization("cpu", -10)),
            "spec.metrics[0].resource.target.averageUtilization", "must be greater than 0"),
        new Case("no target", b -> b.metric(MetricSpec.resource("cpu",
                new MetricTarget(MetricTargetType.Utilization, null, null, null))),
            "spec.metrics[0].resource.target.averageUtilization",
            "Required value: must set either a target raw value or a target utilization"),
        new Case("pods without metric name", b -> b.metric(MetricSpec.pods(MetricIdentifier.of(""),
                Quantity.parse("100m"))),
            "spec.metrics[0].pods.metric.name", "Required value: must specify a metric name"),
        new Case("pods without target", b -> b.metric(new MetricSpec(MetricSourceType.Pods, null, null,
                new PodsMetricSource(MetricIdentifier.of("some-metric"),
                    new MetricTarget(MetricTargetType.AverageValue, null, null, null)), null, null)),
            "spec.metrics[0].pods.target.averageValue", "Required value: must specify a positive target averageValue"),
        new Case("object target kind required", b -> b.metric(MetricSpec.object(
                CrossVersionObjectReference.of("", "", "myrc"), MetricIdentifier.of("some-metric"),
                MetricTarget.value(Quantity.parse("100m")))),
            "spec.metrics[0].object.describedObject.kind", "Required value"),
        new Case("object without metric name", b -> b.metric(MetricSpec.object(RC, MetricIdentifier.of(""),
                MetricTarget.value(Quantity.parse("100m")))),
            "spec.metrics[0].object.metric.name", "Required value: must specify a metric name"));

    for (Case c : cases) {
      List<Violation> v = violations(() -> HorizontalPodAutoscaler.of(META, c.edit().apply(valid()).build()));
      assertThat(v).as(c.name()).anySatisfy(x -> {
        assertThat(x.field()).isEqualTo(c.field());
        assertThat(x.rule()).isEqualTo(c.msg());
      });
    }
  }

  // Same upstream test: the 5 successCases (v2 shape), the errorCase "must populate the given metric source only"
  // (Resource set together with Pods) and the 6 rows of its sourceTypes loop (a type naming another source than the
  // one set). Not ported: the errorCases with an empty type and with type "InvalidType" (MetricSourceType is an enum
  // and MetricSpec requires it).
  @Test
  void constructor_upstreamMetricSourceCases_reportTheSource() {
    Quantity v300m = Quantity.parse("300m");
    for (MetricSpec ok : List.of(MetricSpec.resourceUtilization("cpu", 70),
        MetricSpec.resource("cpu", MetricTarget.averageValue(v300m)),
        MetricSpec.pods(MetricIdentifier.of("some-metric"), v300m),
        MetricSpec.object(RC, MetricIdentifier.of("some-metric"), MetricTarget.value(v300m)))) {
      assertThat(HorizontalPodAutoscaler.of(META, valid().metric(ok).build()).spec().metrics()).containsExactly(ok);
    }
    assertThat(HorizontalPodAutoscaler.of(META, valid().build()).spec().maxReplicas()).isEqualTo(5);

    Quantity v100m = Quantity.parse("100m");
    ResourceMetricSource resource = new ResourceMetricSource("cpu", MetricTarget.averageValue(v100m));
    PodsMetricSource pods = new PodsMetricSource(MetricIdentifier.of("some-metric"), MetricTarget.averageValue(v100m));
    ObjectMetricSource object = new ObjectMetricSource(RC, MetricIdentifier.of("some-metric"),
        MetricTarget.value(v100m));
    MetricSpec both = new MetricSpec(MetricSourceType.Resource, resource, null, pods, null, null);
    assertThat(violations(() -> HorizontalPodAutoscaler.of(META, valid().metric(both).build())))
        .anySatisfy(x -> {
          assertThat(x.field()).isEqualTo("spec.metrics[0].pods");
          assertThat(x.rule()).contains("must populate the given metric source only");
        });

    List<MetricSpec> wrongType = List.of(
        new MetricSpec(MetricSourceType.Pods, resource, null, null, null, null),
        new MetricSpec(MetricSourceType.Object, resource, null, null, null, null),
        new MetricSpec(MetricSourceType.Resource, null, null, pods, null, null),
        new MetricSpec(MetricSourceType.Object, null, null, pods, null, null),
        new MetricSpec(MetricSourceType.Resource, null, null, null, object, null),
        new MetricSpec(MetricSourceType.Pods, null, null, null, object, null));
    for (MetricSpec m : wrongType) {
      List<Violation> v = violations(() -> HorizontalPodAutoscaler.of(META, valid().metric(m).build()));
      assertThat(v).as(m.toString()).first().satisfies(x -> {
        assertThat(x.field()).isEqualTo("spec.metrics[0]." + m.type().field());
        assertThat(x.rule()).contains("must populate information for the given metric source");
      });
    }
  }

  @Test
  void withStatusOf_takesStatusOnly() {
    HorizontalPodAutoscaler mine = HorizontalPodAutoscaler.of(META, valid().build());
    HorizontalPodAutoscalerStatus observed = new HorizontalPodAutoscalerStatus(2, null, 3, 5,
        List.of(MetricStatus.of(new ResourceMetricStatus("cpu", MetricValueStatus.ofAverage(Quantity.parse("900m"),
            90)))),
        List.of(HorizontalPodAutoscalerCondition.of(HorizontalPodAutoscalerConditionType.ScalingLimited,
            ConditionStatus.True, "TooManyReplicas", "the desired replica count is more than the maximum")));
    HorizontalPodAutoscaler theirs = HorizontalPodAutoscaler.of(META, valid().maxReplicas(9).build())
        .withStatus(observed);

    HorizontalPodAutoscaler merged = mine.withStatusOf(theirs);

    assertThat(merged.status()).isEqualTo(observed);
    assertThat(merged.spec().maxReplicas()).isEqualTo(5);
    assertThat(merged.status().condition(HorizontalPodAutoscalerConditionType.ScalingLimited))
        .hasValueSatisfying(c -> assertThat(c.reason()).isEqualTo("TooManyReplicas"));
    assertThat(merged.status().condition(HorizontalPodAutoscalerConditionType.AbleToScale)).isEmpty();
  }

  @Test
  void constructor_negativeStatusReplicas_rejected() {
    HorizontalPodAutoscaler hpa = HorizontalPodAutoscaler.of(META, valid().build());

    assertThat(violations(() -> hpa.withStatus(new HorizontalPodAutoscalerStatus(0, null, -1, 0, List.of(),
        List.of())))).extracting(Violation::field).containsExactly("status.currentReplicas");
  }
}
