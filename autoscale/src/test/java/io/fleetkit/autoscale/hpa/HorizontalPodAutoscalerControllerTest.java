package io.fleetkit.autoscale.hpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.HPAScalingPolicy;
import io.fleetkit.api.autoscaling.HPAScalingRules;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscaler;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerBehavior;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerCondition;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerConditionType;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerSpec;
import io.fleetkit.api.autoscaling.MetricIdentifier;
import io.fleetkit.api.autoscaling.MetricSpec;
import io.fleetkit.api.autoscaling.MetricTarget;
import io.fleetkit.api.autoscaling.ScalingPolicySelect;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

final class HorizontalPodAutoscalerControllerTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-06-01T00:00:00Z"));
  private final ObjectStore store = ObjectStore.inMemory();
  private final Map<String, Long> cpuUsage = new ConcurrentHashMap<>();
  private volatile boolean metricsDown;

  private final MetricsSource metrics = new MetricsSource() {
    @Override
    public List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector, String resource) {
      if (metricsDown) {
        throw new MetricsUnavailableException("metrics server unreachable");
      }
      List<PodResourceMetrics> out = new ArrayList<>();
      cpuUsage.forEach((pod, milli) -> out.add(new PodResourceMetrics(pod, clock.instant(), Duration.ofMinutes(1),
          List.of(new ContainerUsage("app", milli)))));
      return out;
    }

    @Override
    public List<Long> externalMetric(String namespace, String metricName, @Nullable LabelSelector metricSelector) {
      throw new MetricsUnavailableException("no such metric " + metricName);
    }
  };

  private final HorizontalPodAutoscalerController controller =
      HorizontalPodAutoscalerController.builder(store, metrics).clock(clock).build();

  private void deployment(int replicas) {
    store.create(Deployment.builder().namespace("ns").name("web").replicas(replicas)
        .matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "nginx:1", ResourceList.EMPTY).build()).build());
  }

  private void runningPods(int n, long usageMilli) {
    Instant longAgo = clock.instant().minus(Duration.ofHours(1));
    for (int i = 0; i < n; i++) {
      String name = "web-" + i;
      PodStatus status = PodStatus.of(PodPhase.Running).withStartTime(longAgo)
          .withCondition(PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", longAgo));
      store.create(Pod.builder().metadata(ObjectMeta.builder().namespace("ns").name(name).label("app", "web").build())
          .container("app", "nginx:1", ResourceList.builder().put(ResourceNames.CPU, Quantity.ofMilli(1000)).build())
          .status(status).build());
      cpuUsage.put(name, usageMilli);
    }
  }

  private void hpa(int min, int max, @Nullable HorizontalPodAutoscalerBehavior behavior, MetricSpec... metrics) {
    HorizontalPodAutoscalerSpec.Builder spec = HorizontalPodAutoscalerSpec.builder()
        .scaleTargetRef(CrossVersionObjectReference.deployment("web")).minReplicas(min).maxReplicas(max)
        .behavior(behavior);
    for (MetricSpec m : metrics) {
      spec.metric(m);
    }
    store.create(HorizontalPodAutoscaler.of(ObjectMeta.builder().namespace("ns").name("web").build(), spec.build()));
  }

  private int replicas() {
    return store.require(Deployment.class, "ns", "web").spec().replicas();
  }

  private HorizontalPodAutoscalerCondition condition(HorizontalPodAutoscalerConditionType type) {
    return store.require(HorizontalPodAutoscaler.class, "ns", "web").status().condition(type).orElseThrow();
  }

  /**
   * The names, types and labels of {@code kubernetes/kubernetes pkg/controller/podautoscaler/monitor/metrics.go};
   * a scale-up and a failed sync counted by action and error.
   */
  @Test
  void metrics_upstreamNames_countedByActionAndError() {
    assertThat(HorizontalPodAutoscalerMetrics.ALL).extracting(d -> d.name() + " " + d.type() + " " + d.labelNames())
        .containsExactly(
            "horizontal_pod_autoscaler_controller_reconciliations_total COUNTER [action, error]",
            "horizontal_pod_autoscaler_controller_reconciliation_duration_seconds HISTOGRAM [action, error]",
            "horizontal_pod_autoscaler_controller_metric_computation_total COUNTER [action, error, metric_type]",
            "horizontal_pod_autoscaler_controller_metric_computation_duration_seconds HISTOGRAM"
                + " [action, error, metric_type]",
            // monitor/metrics_test.go TestHPAAdditionAndDeletionMetrics, TestDesiredReplicasMetric
            "horizontal_pod_autoscaler_controller_num_horizontal_pod_autoscalers GAUGE []",
            "horizontal_pod_autoscaler_controller_desired_replicas GAUGE [namespace, hpa_name]");
    assertThat(HorizontalPodAutoscalerMetrics.NUM_HORIZONTAL_POD_AUTOSCALERS.help())
        .isEqualTo("Current number of controlled HPA objects.");
    assertThat(HorizontalPodAutoscalerMetrics.DESIRED_REPLICAS.help())
        .isEqualTo("Current desired replica count for HPA objects.");
    assertThat(HorizontalPodAutoscalerMetrics.METRIC_COMPUTATION_DURATION.buckets())
        .isEqualTo(io.fleetkit.api.metrics.MetricDescriptor.exponentialBuckets(0.001, 2, 15));
    var prometheus = new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(
        io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
    HorizontalPodAutoscalerController c = HorizontalPodAutoscalerController.builder(store, metrics).clock(clock)
        .metricsRegistry(io.fleetkit.observability.micrometer.MicrometerMetrics.of(prometheus)).build();
    deployment(3);
    runningPods(3, 900);
    hpa(1, 10, null, MetricSpec.resourceUtilization(ResourceNames.CPU, 50));
    c.sync("ns", "web");
    metricsDown = true;
    clock.advance(Duration.ofMinutes(1));
    c.sync("ns", "web");
    var e = io.fleetkit.observability.prometheus.Exposition.parse(prometheus.scrape());
    assertThat(e.value("horizontal_pod_autoscaler_controller_reconciliations_total",
        Map.of("action", "scale_up", "error", "none"))).contains(1.0);
    assertThat(e.value("horizontal_pod_autoscaler_controller_reconciliations_total",
        Map.of("action", "none", "error", "internal"))).contains(1.0);
    assertThat(e.value("horizontal_pod_autoscaler_controller_reconciliation_duration_seconds_count",
        Map.of("action", "scale_up", "error", "none"))).contains(1.0);
    // one computation per spec.metrics entry: the first proposed 6 replicas, the second found no metrics
    assertThat(e.value("horizontal_pod_autoscaler_controller_metric_computation_total",
        Map.of("action", "scale_up", "error", "none", "metric_type", "Resource"))).contains(1.0);
    assertThat(e.value("horizontal_pod_autoscaler_controller_metric_computation_total",
        Map.of("action", "none", "error", "internal", "metric_type", "Resource"))).contains(1.0);
    assertThat(e.value("horizontal_pod_autoscaler_controller_metric_computation_duration_seconds_count",
        Map.of("action", "none", "error", "internal", "metric_type", "Resource"))).contains(1.0);
    // one HPA tracked however often it syncs; its desired replicas as computed by the last sync (kept at 6)
    assertThat(e.value("horizontal_pod_autoscaler_controller_num_horizontal_pod_autoscalers", Map.of()))
        .contains(1.0);
    assertThat(e.value("horizontal_pod_autoscaler_controller_desired_replicas",
        Map.of("namespace", "ns", "hpa_name", "web"))).contains(6.0);
  }

  /** A reconcile of {@code ns/web} as the controller runtime makes it (only key and object are read). */
  private io.fleetkit.reconcile.ReconcileContext<HorizontalPodAutoscaler> context() {
    return new io.fleetkit.reconcile.ReconcileContext<>() {
      @Override
      public io.fleetkit.reconcile.ObjectKey key() {
        return io.fleetkit.reconcile.ObjectKey.of("ns", "web");
      }

      @Override
      public java.util.Optional<HorizontalPodAutoscaler> object() {
        return store.get(HorizontalPodAutoscaler.class, "ns", "web");
      }

      @Override
      public io.fleetkit.reconcile.Lister<HorizontalPodAutoscaler> lister() {
        throw new UnsupportedOperationException();
      }

      @Override
      public <O extends io.fleetkit.api.meta.ApiObject<O>> io.fleetkit.reconcile.Lister<O> lister(Class<O> kind) {
        throw new UnsupportedOperationException();
      }

      @Override
      public ObjectStore store() {
        return store;
      }

      @Override
      public java.time.Clock clock() {
        return clock;
      }

      @Override
      public int retries() {
        return 0;
      }
    };
  }

  /**
   * monitor/metrics_test.go {@code TestHPAAdditionAndDeletionMetrics} and {@code TestDesiredReplicasMetric} through
   * the controller: one HPA tracked while it exists, its desired replicas after each sync.
   */
  @Test
  void metrics_hpaTrackedUntilDeleted_desiredReplicasPerHpa() {
    var prometheus = new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(
        io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
    HorizontalPodAutoscalerController c = HorizontalPodAutoscalerController.builder(store, metrics).clock(clock)
        .metricsRegistry(io.fleetkit.observability.micrometer.MicrometerMetrics.of(prometheus)).build();
    deployment(3);
    runningPods(3, 900);
    hpa(1, 10, null, MetricSpec.resourceUtilization(ResourceNames.CPU, 50));
    c.reconcile(context());
    c.reconcile(context());
    var e = io.fleetkit.observability.prometheus.Exposition.parse(prometheus.scrape());
    assertThat(e.value("horizontal_pod_autoscaler_controller_num_horizontal_pod_autoscalers", Map.of()))
        .contains(1.0);
    assertThat(e.value("horizontal_pod_autoscaler_controller_desired_replicas",
        Map.of("namespace", "ns", "hpa_name", "web"))).contains(6.0);

    store.delete(HorizontalPodAutoscaler.class, "ns", "web");
    c.reconcile(context());
    c.reconcile(context()); // a second reconcile of the deleted HPA does not count it again
    e = io.fleetkit.observability.prometheus.Exposition.parse(prometheus.scrape());
    assertThat(e.value("horizontal_pod_autoscaler_controller_num_horizontal_pod_autoscalers", Map.of()))
        .contains(0.0);
    assertThat(e.value("horizontal_pod_autoscaler_controller_desired_replicas",
        Map.of("namespace", "ns", "hpa_name", "web"))).contains(0.0);
  }

  @Test
  void sync_podLevelRequests_utilizationOfThePodBudget() {
    // KEP-2837: the container requests nothing, the pod level 500m; 900m used is 180% of the pod's request.
    deployment(3);
    Instant longAgo = clock.instant().minus(Duration.ofHours(1));
    for (int i = 0; i < 3; i++) {
      PodStatus status = PodStatus.of(PodPhase.Running).withStartTime(longAgo)
          .withCondition(PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", longAgo));
      store.create(Pod.builder().metadata(ObjectMeta.builder().namespace("ns").name("web-" + i).label("app", "web")
          .build()).container("app", "nginx:1", ResourceList.EMPTY)
          .resources(ResourceList.builder().put(ResourceNames.CPU, Quantity.ofMilli(500)).build(), ResourceList.EMPTY)
          .status(status).build());
      cpuUsage.put("web-" + i, 900L);
    }
    hpa(1, 10, null, MetricSpec.resourceUtilization(ResourceNames.CPU, 90));

    SyncOutcome out = controller.sync("ns", "web");

    assertThat(out.rescaled()).isTrue();
    assertThat(replicas()).isEqualTo(6); // 180% / 90% * 3
    assertThat(condition(HorizontalPodAutoscalerConditionType.ScalingActive).reason()).isEqualTo("ValidMetricFound");
    HorizontalPodAutoscaler h = store.require(HorizontalPodAutoscaler.class, "ns", "web");
    assertThat(h.status().currentMetrics().get(0).resource().current().averageUtilization()).isEqualTo(180);
    assertThat(java.util.Objects.requireNonNull(h.status().currentMetrics().get(0).resource().current()
        .averageValue()).milliValue()).isEqualTo(900);
  }

  @Test
  void sync_cpuAboveTarget_scalesDeploymentAndReportsConditions() {
    deployment(3);
    runningPods(3, 900);
    hpa(1, 10, null, MetricSpec.resourceUtilization(ResourceNames.CPU, 50));

    SyncOutcome out = controller.sync("ns", "web");

    assertThat(out.rescaled()).isTrue();
    assertThat(replicas()).isEqualTo(6); // 90% / 50% * 3 = 5.4 -> 6
    assertThat(out.events()).containsExactly(
        "Normal SuccessfulRescale New size: 6; reason: cpu resource utilization (percentage of request) above target");
    assertThat(condition(HorizontalPodAutoscalerConditionType.AbleToScale).reason()).isEqualTo("SucceededRescale");
    assertThat(condition(HorizontalPodAutoscalerConditionType.ScalingActive).reason()).isEqualTo("ValidMetricFound");
    HorizontalPodAutoscalerCondition limited = condition(HorizontalPodAutoscalerConditionType.ScalingLimited);
    assertThat(limited.status()).isEqualTo(ConditionStatus.False);
    assertThat(limited.reason()).isEqualTo("DesiredWithinRange");
    HorizontalPodAutoscaler h = store.require(HorizontalPodAutoscaler.class, "ns", "web");
    assertThat(h.status().desiredReplicas()).isEqualTo(6);
    assertThat(h.status().lastScaleTime()).isEqualTo(clock.instant());
    assertThat(h.status().currentMetrics().get(0).resource().current().averageUtilization()).isEqualTo(90);
  }

  /**
   * An Argo Rollout as the scale target (its CRD's scale subresource: {@code spec.replicas}, {@code status.replicas},
   * its selector): the HPA reads its pods through the rollout's selector and writes {@code spec.replicas}.
   */
  @Test
  void sync_rolloutTarget_scalesTheRollout() {
    Rollout created = store.create(Rollout.builder().namespace("ns").name("web").replicas(3)
        .matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "nginx:1", ResourceList.EMPTY).build()).build());
    store.updateStatus(created.withStatus(created.status().toBuilder().replicas(3).build()));
    runningPods(3, 900);
    store.create(HorizontalPodAutoscaler.of(ObjectMeta.builder().namespace("ns").name("web").build(),
        HorizontalPodAutoscalerSpec.builder()
            .scaleTargetRef(CrossVersionObjectReference.of(Rollout.API_VERSION, Rollout.KIND, "web"))
            .minReplicas(1).maxReplicas(10).metric(MetricSpec.resourceUtilization(ResourceNames.CPU, 50)).build()));

    SyncOutcome out = controller.sync("ns", "web");

    assertThat(out.rescaled()).isTrue();
    assertThat(store.require(Rollout.class, "ns", "web").spec().replicas()).isEqualTo(6); // 90% / 50% * 3 -> 6
    assertThat(store.require(HorizontalPodAutoscaler.class, "ns", "web").status().currentReplicas()).isEqualTo(3);
  }

  /** A v1 ReplicationController is scaled through its scale subresource, its equality selector finding the pods. */
  @Test
  void sync_replicationControllerTarget_scalesIt() {
    var rc = store.create(io.fleetkit.api.core.ReplicationController.builder().namespace("ns").name("web")
        .replicas(3).template(Map.of("app", "web"),
            PodSpec.builder().container("app", "nginx:1", ResourceList.EMPTY).build()).build());
    store.updateStatus(rc.withStatus(new io.fleetkit.api.core.ReplicationControllerStatus(3, 3, 3, 3, 1,
        java.util.List.of())));
    runningPods(3, 900);
    store.create(HorizontalPodAutoscaler.of(ObjectMeta.builder().namespace("ns").name("web").build(),
        HorizontalPodAutoscalerSpec.builder()
            .scaleTargetRef(CrossVersionObjectReference.of("v1", "ReplicationController", "web"))
            .minReplicas(1).maxReplicas(10).metric(MetricSpec.resourceUtilization(ResourceNames.CPU, 50)).build()));

    SyncOutcome out = controller.sync("ns", "web");

    assertThat(out.rescaled()).isTrue();
    assertThat(store.require(io.fleetkit.api.core.ReplicationController.class, "ns", "web").spec().replicas())
        .isEqualTo(6); // 90% / 50% * 3 -> 6
    assertThat(store.require(HorizontalPodAutoscaler.class, "ns", "web").status().currentReplicas()).isEqualTo(3);
  }

  /** A kind without a scale subresource is refused with the kinds that have one, and the HPA says so. */
  @Test
  void sync_kindWithoutScale_refusedNamingTheScalableKinds() {
    runningPods(1, 500);
    store.create(HorizontalPodAutoscaler.of(ObjectMeta.builder().namespace("ns").name("web").build(),
        HorizontalPodAutoscalerSpec.builder()
            .scaleTargetRef(CrossVersionObjectReference.of("batch/v1", "Job", "web"))
            .minReplicas(1).maxReplicas(10).metric(MetricSpec.resourceUtilization(ResourceNames.CPU, 50)).build()));

    controller.sync("ns", "web");

    HorizontalPodAutoscalerCondition able = condition(HorizontalPodAutoscalerConditionType.AbleToScale);
    assertThat(able.status()).isEqualTo(ConditionStatus.False);
    assertThat(able.message()).contains("has no scale subresource (Deployment, ReplicaSet, ReplicationController, StatefulSet, Rollout)");
  }

  @Test
  void sync_legacyPath_scaleUpCappedAtTwiceCurrent() {
    deployment(2);
    runningPods(2, 5000);
    hpa(1, 100, null, MetricSpec.resourceUtilization(ResourceNames.CPU, 50));

    controller.sync("ns", "web");

    assertThat(replicas()).isEqualTo(4); // wants 20, max(2 * 2, 4) = 4
    HorizontalPodAutoscalerCondition limited = condition(HorizontalPodAutoscalerConditionType.ScalingLimited);
    assertThat(limited.status()).isEqualTo(ConditionStatus.True);
    assertThat(limited.reason()).isEqualTo("ScaleUpLimit");
  }

  @Test
  void sync_targetAtZeroReplicas_scalingDisabled() {
    deployment(0);
    hpa(1, 10, null, MetricSpec.resourceUtilization(ResourceNames.CPU, 50));

    SyncOutcome out = controller.sync("ns", "web");

    assertThat(out.rescaled()).isFalse();
    assertThat(replicas()).isZero();
    HorizontalPodAutoscalerCondition active = condition(HorizontalPodAutoscalerConditionType.ScalingActive);
    assertThat(active.status()).isEqualTo(ConditionStatus.False);
    assertThat(active.reason()).isEqualTo("ScalingDisabled");
  }

  @Test
  void sync_belowMinReplicas_scalesToMinWithoutMetrics() {
    metricsDown = true;
    deployment(1);
    hpa(3, 10, null, MetricSpec.resourceUtilization(ResourceNames.CPU, 50));

    SyncOutcome out = controller.sync("ns", "web");

    assertThat(replicas()).isEqualTo(3);
    assertThat(out.events()).containsExactly(
        "Normal SuccessfulRescale New size: 3; reason: Current number of replicas below Spec.MinReplicas");
  }

  @Test
  void sync_loadDrops_scaleDownWaitsForStabilizationWindow() {
    deployment(4);
    runningPods(4, 100);
    hpa(1, 10, null, MetricSpec.resourceUtilization(ResourceNames.CPU, 50));

    controller.sync("ns", "web");
    assertThat(replicas()).isEqualTo(4);
    assertThat(condition(HorizontalPodAutoscalerConditionType.AbleToScale).reason()).isEqualTo("ScaleDownStabilized");

    clock.advance(Duration.ofMinutes(4));
    controller.sync("ns", "web");
    assertThat(replicas()).isEqualTo(4);

    clock.advance(Duration.ofSeconds(61));
    controller.sync("ns", "web");
    assertThat(replicas()).isEqualTo(1); // 10% / 50% * 4 = 0.8 -> 1
  }

  @Test
  void sync_behaviorPodsPolicy_limitsScaleUpPerPeriod() {
    deployment(3);
    runningPods(3, 1000);
    HPAScalingRules up = new HPAScalingRules(0, ScalingPolicySelect.Max, List.of(HPAScalingPolicy.pods(1, 60)));
    hpa(1, 10, HorizontalPodAutoscalerBehavior.of(up, null), MetricSpec.resourceUtilization(ResourceNames.CPU, 50));

    controller.sync("ns", "web");
    assertThat(replicas()).isEqualTo(4);
    HorizontalPodAutoscalerCondition limited = condition(HorizontalPodAutoscalerConditionType.ScalingLimited);
    assertThat(limited.status()).isEqualTo(ConditionStatus.True);
    assertThat(limited.reason()).isEqualTo("ScaleUpLimit");

    clock.advance(Duration.ofSeconds(15));
    controller.sync("ns", "web");
    assertThat(replicas()).isEqualTo(4); // the +1 of 15 s ago still counts in the 60 s period

    clock.advance(Duration.ofSeconds(46));
    controller.sync("ns", "web");
    assertThat(replicas()).isEqualTo(5);
  }

  @Test
  void sync_metricsUnavailable_scalingActiveFalseAndNoRescale() {
    metricsDown = true;
    deployment(3);
    runningPods(3, 900);
    hpa(1, 10, null, MetricSpec.resourceUtilization(ResourceNames.CPU, 50));

    SyncOutcome out = controller.sync("ns", "web");

    assertThat(out.rescaled()).isFalse();
    assertThat(out.error()).contains("invalid metrics (1 invalid out of 1)").contains("metrics server unreachable");
    HorizontalPodAutoscalerCondition active = condition(HorizontalPodAutoscalerConditionType.ScalingActive);
    assertThat(active.status()).isEqualTo(ConditionStatus.False);
    assertThat(active.reason()).isEqualTo("FailedGetResourceMetric");
    assertThat(replicas()).isEqualTo(3);
  }

  @Test
  void sync_oneInvalidMetricAndScaleUp_scalesWithError() {
    deployment(3);
    runningPods(3, 900);
    hpa(1, 10, null, MetricSpec.resourceUtilization(ResourceNames.CPU, 50),
        MetricSpec.external(MetricIdentifier.of("queue"), MetricTarget.value(Quantity.of(10))));

    SyncOutcome out = controller.sync("ns", "web");

    assertThat(replicas()).isEqualTo(6);
    assertThat(out.error()).startsWith("invalid metrics (1 invalid out of 2)");
  }

  @Test
  void sync_oneInvalidMetricAndScaleDown_keepsReplicas() {
    deployment(3);
    runningPods(3, 100);
    hpa(1, 10, null, MetricSpec.resourceUtilization(ResourceNames.CPU, 50),
        MetricSpec.external(MetricIdentifier.of("queue"), MetricTarget.value(Quantity.of(10))));

    SyncOutcome out = controller.sync("ns", "web");

    assertThat(out.rescaled()).isFalse();
    assertThat(replicas()).isEqualTo(3);
    assertThat(condition(HorizontalPodAutoscalerConditionType.ScalingActive).reason())
        .isEqualTo("FailedGetExternalMetric");
  }

  @Test
  void sync_podsSelectedByTwoHpas_ambiguousSelector() {
    deployment(3);
    runningPods(3, 900);
    hpa(1, 10, null, MetricSpec.resourceUtilization(ResourceNames.CPU, 50));
    store.create(HorizontalPodAutoscaler.of(ObjectMeta.builder().namespace("ns").name("web-2").build(),
        HorizontalPodAutoscalerSpec.builder().scaleTargetRef(CrossVersionObjectReference.deployment("web"))
            .maxReplicas(10).build()));

    SyncOutcome out = controller.sync("ns", "web");

    assertThat(out.rescaled()).isFalse();
    assertThat(replicas()).isEqualTo(3);
    HorizontalPodAutoscalerCondition active = condition(HorizontalPodAutoscalerConditionType.ScalingActive);
    assertThat(active.status()).isEqualTo(ConditionStatus.False);
    assertThat(active.reason()).isEqualTo("AmbiguousSelector");
    assertThat(active.message()).contains("are controlled by multiple HPAs: [ns/web, ns/web-2]");
  }

  @Test
  void syncAll_ambiguityFollowsTheOtherHpasFromRoundToRound() {
    deployment(3);
    runningPods(3, 900);
    hpa(1, 10, null, MetricSpec.resourceUtilization(ResourceNames.CPU, 50));
    HorizontalPodAutoscaler second = HorizontalPodAutoscaler.of(ObjectMeta.builder().namespace("ns").name("web-2")
        .build(), HorizontalPodAutoscalerSpec.builder().scaleTargetRef(CrossVersionObjectReference.deployment("web"))
        .maxReplicas(10).build());
    store.create(second);
    controller.syncAll();
    assertThat(condition(HorizontalPodAutoscalerConditionType.ScalingActive).reason()).isEqualTo("AmbiguousSelector");

    store.delete(HorizontalPodAutoscaler.class, "ns", "web-2");
    controller.syncAll();
    assertThat(condition(HorizontalPodAutoscalerConditionType.ScalingActive).reason())
        .isNotEqualTo("AmbiguousSelector");

    store.create(second);
    controller.syncAll();
    assertThat(condition(HorizontalPodAutoscalerConditionType.ScalingActive).reason()).isEqualTo("AmbiguousSelector");
  }

  @Test
  void sync_missingTarget_ableToScaleFalse() {
    hpa(1, 10, null, MetricSpec.resourceUtilization(ResourceNames.CPU, 50));

    SyncOutcome out = controller.sync("ns", "web");

    assertThat(out.error()).contains("failed to query scale subresource");
    HorizontalPodAutoscalerCondition able = condition(HorizontalPodAutoscalerConditionType.AbleToScale);
    assertThat(able.status()).isEqualTo(ConditionStatus.False);
    assertThat(able.reason()).isEqualTo("FailedGetScale");
  }
}
