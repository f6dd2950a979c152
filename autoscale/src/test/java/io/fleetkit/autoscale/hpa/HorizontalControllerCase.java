package io.fleetkit.autoscale.hpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.HPAScalingRules;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscaler;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerBehavior;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerCondition;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerSpec;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerStatus;
import io.fleetkit.api.autoscaling.MetricSpec;
import io.fleetkit.api.autoscaling.MetricStatus;
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
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.observability.prometheus.Exposition;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The {@code testCase} harness of kubernetes/kubernetes {@code pkg/controller/podautoscaler/horizontal_test.go}
 * (commit 003e86297d18a8538c9da3619871393f9703bf70): its fake clients become FleetKit objects and one
 * {@link HorizontalPodAutoscalerController#sync}.
 *
 * <ul>
 *   <li>{@code prepareTestClient}'s HPA {@code test-namespace/test-hpa} with status current and desired replicas
 *       {@code specReplicas}; the scale target is a Deployment (upstream's default ReplicationController has no
 *       FleetKit kind; the scale it answers is the same) or the case's ReplicaSet, with {@code spec.replicas =
 *       specReplicas} and selector {@code name=test-pod} ({@code statusReplicas} only counts the pods made: the
 *       controller reads the scale's spec);</li>
 *   <li>pods {@code test-pod-<i>}, one per reported request (else {@code statusReplicas}, requests 1.0), two
 *       containers each with half the request, the Ready condition's transition at the start time (Go's zero time
 *       unless given), as upstream's pod list reactor;</li>
 *   <li>the metrics client's answers: per pod half the level in each container, stamped now with a one-minute
 *       window; the custom metric {@code qps} per pod, the object metric and the external series from the levels;</li>
 *   <li>the testing configuration: tolerance 0.1, cpu initialization 2 min, readiness delay 10 s, downscale
 *       stabilization 5 min;</li>
 *   <li>the checks of the update reactors and {@code verifyResults}: the scale written exactly when the desired
 *       replicas differ from {@code specReplicas}, the status's desired replicas and cpu utilization, the conditions
 *       (type, status, reason, in order; {@code statusOk} unless the case sets them), the events when the case
 *       verifies them, and the monitor's labels through the controller's Prometheus metrics.</li>
 * </ul>
 */
final class HorizontalControllerCase {
  static final Instant NOW = ReplicaCalcCase.NOW;
  static final String NAMESPACE = "test-namespace";
  static final String HPA_NAME = "test-hpa";
  static final String POD_PREFIX = "test-pod";

  static final List<String> STATUS_OK = List.of(
      "AbleToScale True SucceededRescale",
      "ScalingActive True ValidMetricFound",
      "ScalingLimited False DesiredWithinRange");

  int minReplicas;
  int maxReplicas;
  int specReplicas;
  int statusReplicas;
  @Nullable HPAScalingRules scaleUpRules;
  @Nullable HPAScalingRules scaleDownRules;
  int cpuTarget;
  int cpuCurrent;
  boolean verifyCpuCurrent;
  long[] reportedLevels = {};
  long @Nullable [] reportedCpuRequests;
  ConditionStatus @Nullable [] reportedPodReadiness;
  Instant @Nullable [] reportedPodStartTime;
  PodPhase @Nullable [] reportedPodPhase;
  boolean @Nullable [] reportedPodDeletionTimestamp;
  boolean verifyEvents;
  List<MetricSpec> metricsTarget = new ArrayList<>();
  int expectedDesiredReplicas;
  @Nullable List<String> expectedConditions;
  String expectedAction = "";
  String expectedError = "none";
  /** Metric type to action and error label ("action error"). */
  Map<String, String> expectedComputations = new LinkedHashMap<>();
  String resourceKind = Deployment.KIND;
  String resourceName = "test-rc";
  @Nullable Instant lastScaleTime;
  /** Upstream's {@code recommendations}: null leaves the controller to record the initial one. */
  ReplicaNormalizer.@Nullable Recommendation @Nullable [] recommendations;

  /** {@code hotCPUCreationTime}: now. */
  static Instant hot() {
    return NOW;
  }

  /** {@code coolCPUCreationTime}: three minutes ago. */
  static Instant cool() {
    return NOW.minus(Duration.ofMinutes(3));
  }

  static long[] milli(long... v) {
    return v;
  }

  /** {@code statusOkWithOverrides}: each override replaces the entry of its type. */
  static List<String> statusOkWith(String... overrides) {
    List<String> out = new ArrayList<>(STATUS_OK);
    for (String o : overrides) {
      String type = o.substring(0, o.indexOf(' '));
      boolean replaced = false;
      for (int i = 0; i < out.size(); i++) {
        if (out.get(i).startsWith(type + " ")) {
          out.set(i, o);
          replaced = true;
        }
      }
      if (!replaced) {
        out.add(o);
      }
    }
    return out;
  }

  HorizontalControllerCase computation(String metricType, String action, String error) {
    expectedComputations.put(metricType, action + " " + error);
    return this;
  }

  /** {@code computeCPUCurrent}: 100 * sum(levels) / sum(requests), when both are given and of one length. */
  private void computeCpuCurrent() {
    long[] requests = reportedCpuRequests;
    if (requests == null || reportedLevels.length != requests.length || reportedLevels.length == 0) {
      return;
    }
    long reported = 0;
    for (long l : reportedLevels) {
      reported += l;
    }
    long requested = 0;
    for (long r : requests) {
      requested += r;
    }
    cpuCurrent = (int) (100 * reported / requested);
  }

  /** A prepended metrics reactor that fails every read with "something went wrong". */
  boolean metricsFail;
  /** A prepended scale "get" reactor that fails: here the target does not exist. */
  boolean noTarget;
  /** A prepended scale "update" reactor that fails: here an admission plugin refuses the target's update. */
  boolean failScaleUpdate;
  /** {@code hpaSelectors}: a second HPA ({@code test-hpa-2}) whose target selects this label (key=value). */
  @Nullable String otherHpaSelector;
  /** The partial-overlap case's pods: also labelled {@code cheddar=cheese}. */
  boolean podsAlsoCheddar;
  /** A prepended external metrics reactor that fails every read. */
  boolean externalFail;
  /**
   * TestAvoidUnnecessaryUpdates' own HPA list reactor: this spec and status (the status written with the HPA's
   * generation) replace the case's; the HPA must then not be written at all.
   */
  @Nullable HorizontalPodAutoscalerSpec presetSpec;
  @Nullable HorizontalPodAutoscalerStatus presetStatus;

  private final ManualClock clock = new ManualClock(NOW);
  private boolean armed;
  private final ObjectStore store = ObjectStore.builder().admission(AdmissionChain.of(new ValidatingAdmissionPlugin() {
    @Override
    public String name() {
      return "FailScaleUpdate";
    }

    @Override
    public AdmissionVerdict validate(AdmissionRequest request, ObjectStore s) {
      boolean scaleWrite = request.operation() == AdmissionOperation.UPDATE
          && (request.object() instanceof Deployment || request.object() instanceof ReplicaSet);
      return armed && scaleWrite ? AdmissionVerdict.deny("spec.replicas", "something went wrong")
          : AdmissionVerdict.allow();
    }
  })).build();

  private void failIfAsked() {
    if (metricsFail) {
      throw new MetricsUnavailableException("something went wrong");
    }
  }

  private MetricsSource metrics() {
    return new MetricsSource() {
      @Override
      public List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector, String resource) {
        failIfAsked();
        List<PodResourceMetrics> out = new ArrayList<>();
        for (int i = 0; i < reportedLevels.length; i++) {
          long half = reportedLevels[i] / 2;
          out.add(new PodResourceMetrics(POD_PREFIX + "-" + i, clock.instant(), Duration.ofMinutes(1),
              List.of(new ContainerUsage("container1", half), new ContainerUsage("container2", half))));
        }
        return out;
      }

      @Override
      public List<PodMetricValue> podMetrics(String namespace, LabelSelector selector, String metricName,
          @Nullable LabelSelector metricSelector) {
        failIfAsked();
        assertThat(metricName).as("the metric name requested").isEqualTo("qps");
        List<PodMetricValue> out = new ArrayList<>();
        for (int i = 0; i < reportedLevels.length; i++) {
          out.add(new PodMetricValue(POD_PREFIX + "-" + i, reportedLevels[i], clock.instant()));
        }
        return out;
      }

      @Override
      public long objectMetric(String namespace, CrossVersionObjectReference object, String metricName,
          @Nullable LabelSelector metricSelector) {
        failIfAsked();
        assertThat(metricName).as("the metric name requested").isEqualTo("qps");
        return reportedLevels[0];
      }

      @Override
      public List<Long> externalMetric(String namespace, String metricName, @Nullable LabelSelector metricSelector) {
        failIfAsked();
        if (externalFail) {
          throw new MetricsUnavailableException("something went wrong");
        }
        assertThat(metricName).as("the metric name requested").isEqualTo("qps");
        List<Long> out = new ArrayList<>();
        for (long l : reportedLevels) {
          out.add(l);
        }
        return out;
      }
    };
  }

  private void createTarget() {
    Map<String, String> labels = Map.of("name", POD_PREFIX);
    PodSpec template = PodSpec.builder().container("container1", "img", ResourceList.EMPTY).build();
    if (resourceKind.equals(ReplicaSet.KIND)) {
      store.create(ReplicaSet.builder().namespace(NAMESPACE).name(resourceName)
          .replicas(specReplicas).matchLabels(labels).podSpec(template).build());
    } else {
      store.create(Deployment.builder().namespace(NAMESPACE).name(resourceName)
          .replicas(specReplicas).matchLabels(labels).podSpec(template).build());
    }
  }

  private void createPods() {
    long[] requests = reportedCpuRequests;
    int n = requests != null ? requests.length : statusReplicas;
    for (int i = 0; i < n; i++) {
      ConditionStatus ready = reportedPodReadiness != null ? reportedPodReadiness[i] : ConditionStatus.True;
      Instant start = reportedPodStartTime != null ? reportedPodStartTime[i] : ReplicaCalculator.GO_ZERO_TIME;
      PodPhase phase = reportedPodPhase != null ? reportedPodPhase[i] : PodPhase.Running;
      boolean deleting = reportedPodDeletionTimestamp != null && reportedPodDeletionTimestamp[i];
      long request = requests != null ? requests[i] : 1000;
      ResourceList half = ResourceList.builder().put(ResourceNames.CPU, Quantity.ofMilli(request / 2)).build();
      ObjectMeta.Builder meta = ObjectMeta.builder().namespace(NAMESPACE).name(POD_PREFIX + "-" + i)
          .label("name", POD_PREFIX);
      if (podsAlsoCheddar) {
        meta.label("cheddar", "cheese");
      }
      if (deleting) {
        meta.finalizer("test/keep"); // the deletion below then only sets the deletion timestamp
      }
      PodStatus status = PodStatus.of(phase).withStartTime(start)
          .withCondition(PodCondition.of(PodCondition.READY, ready, "", "", start));
      Pod pod = store.create(Pod.builder().metadata(meta.build()).container("container1", "img", half)
          .container("container2", "img", half).status(status).build());
      if (deleting) {
        store.delete(Pod.class, NAMESPACE, pod.metadata().name());
      }
    }
  }

  private void createHpa() {
    HorizontalPodAutoscalerSpec.Builder spec = HorizontalPodAutoscalerSpec.builder()
        .scaleTargetRef(CrossVersionObjectReference.of(
            resourceKind.equals(ReplicaSet.KIND) || resourceKind.equals(Deployment.KIND) ? "apps/v1" : "v1",
            resourceKind, resourceName))
        .minReplicas(minReplicas).maxReplicas(maxReplicas);
    if (scaleUpRules != null || scaleDownRules != null) {
      spec.behavior(HorizontalPodAutoscalerBehavior.of(scaleUpRules, scaleDownRules));
    }
    if (cpuTarget > 0) {
      spec.metric(MetricSpec.resourceUtilization(ResourceNames.CPU, cpuTarget));
    }
    for (MetricSpec m : metricsTarget) {
      spec.metric(m);
    }
    HorizontalPodAutoscalerSpec preset = presetSpec;
    HorizontalPodAutoscaler hpa = store.create(HorizontalPodAutoscaler.of(
        ObjectMeta.builder().namespace(NAMESPACE).name(HPA_NAME).build(), preset != null ? preset : spec.build()));
    HorizontalPodAutoscalerStatus st = presetStatus;
    if (st != null) {
      store.updateStatus(hpa.withStatus(new HorizontalPodAutoscalerStatus(hpa.metadata().generation(),
          st.lastScaleTime(), st.currentReplicas(), st.desiredReplicas(), st.currentMetrics(), st.conditions())));
    } else {
      store.updateStatus(hpa.withStatus(new HorizontalPodAutoscalerStatus(0, lastScaleTime, specReplicas,
          specReplicas, List.of(), List.of())));
    }
    String other = otherHpaSelector;
    if (other != null) {
      String[] kv = other.split("=");
      store.create(Deployment.builder().namespace(NAMESPACE).name("test-dep-2").replicas(1)
          .matchLabels(Map.of(kv[0], kv[1]))
          .podSpec(PodSpec.builder().container("container1", "img", ResourceList.EMPTY).build()).build());
      store.create(HorizontalPodAutoscaler.of(ObjectMeta.builder().namespace(NAMESPACE).name("test-hpa-2").build(),
          HorizontalPodAutoscalerSpec.builder().scaleTargetRef(CrossVersionObjectReference.deployment("test-dep-2"))
              .maxReplicas(10).build()));
    }
  }

  /** {@code runTest}: one sync, then upstream's checks. */
  void run() {
    if (cpuCurrent == 0) {
      computeCpuCurrent();
    }
    if (!noTarget) {
      createTarget();
    }
    createPods();
    createHpa();
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    HorizontalPodAutoscalerController controller = HorizontalPodAutoscalerController.builder(store, metrics())
        .clock(clock).tolerance(0.1).cpuInitializationPeriod(Duration.ofMinutes(2))
        .initialReadinessDelay(Duration.ofSeconds(10)).downscaleStabilization(Duration.ofMinutes(5))
        .metricsRegistry(MicrometerMetrics.of(prometheus)).build();
    if (recommendations != null) {
      List<ReplicaNormalizer.Recommendation> recs = new ArrayList<>();
      for (ReplicaNormalizer.Recommendation r : recommendations) {
        recs.add(r);
      }
      controller.normalizer().setRecommendations(NAMESPACE + "/" + HPA_NAME, recs);
    }

    String versionBefore = store.require(HorizontalPodAutoscaler.class, NAMESPACE, HPA_NAME).metadata()
        .resourceVersion();
    armed = failScaleUpdate;
    SyncOutcome out = controller.sync(NAMESPACE, HPA_NAME);
    armed = false;

    boolean scaleExpected = specReplicas != expectedDesiredReplicas;
    assertThat(out.rescaled()).as("the scale should only be updated if we expected a change in replicas (%s)", out)
        .isEqualTo(scaleExpected);
    if (!noTarget) {
      assertThat(specReplicasNow()).as("the replica count of the target").isEqualTo(expectedDesiredReplicas);
    }
    HorizontalPodAutoscaler hpa = store.require(HorizontalPodAutoscaler.class, NAMESPACE, HPA_NAME);
    if (presetStatus != null) {
      assertThat(hpa.metadata().resourceVersion())
          .as("should not have attempted to update the HPA when nothing changed").isEqualTo(versionBefore);
      checkMonitor(prometheus);
      return;
    }
    assertThat(hpa.status().desiredReplicas()).as("the desired replica count reported in the object status")
        .isEqualTo(expectedDesiredReplicas);
    if (verifyCpuCurrent) {
      Integer utilization = null;
      for (MetricStatus s : hpa.status().currentMetrics()) {
        if (s.resource() != null && s.resource().name().equals(ResourceNames.CPU)) {
          utilization = s.resource().current().averageUtilization();
        }
      }
      assertThat(utilization).as("the reported CPU utilization percentage").isEqualTo(cpuCurrent);
    }
    List<String> conditions = new ArrayList<>();
    for (HorizontalPodAutoscalerCondition c : hpa.status().conditions()) {
      conditions.add(c.type() + " " + c.status() + " " + c.reason());
    }
    assertThat(conditions).as("the status conditions").containsExactlyElementsOf(
        expectedConditions != null ? expectedConditions : STATUS_OK);
    if (verifyEvents) {
      if (scaleExpected) {
        assertThat(out.events()).containsExactly("Normal SuccessfulRescale New size: " + expectedDesiredReplicas
            + "; reason: cpu resource utilization (percentage of request) above target");
      } else {
        assertThat(out.events()).isEmpty();
      }
    }
    checkMonitor(prometheus);
  }

  /** {@code verifyRecordedMetric}: the reconciliation's labels and one computation per metric type. */
  private void checkMonitor(PrometheusMeterRegistry prometheus) {
    String scrape = prometheus.scrape();
    Exposition e = Exposition.parse(scrape);
    if (expectedComputations.isEmpty()) {
      assertThat(scrape).as("no metric computation recorded")
          .doesNotContain("horizontal_pod_autoscaler_controller_metric_computation_total{");
    }
    assertThat(e.value("horizontal_pod_autoscaler_controller_reconciliations_total",
        Map.of("action", expectedAction, "error", expectedError))).as("the reconciliation's labels").contains(1.0);
    expectedComputations.forEach((type, labels) -> {
      String[] al = labels.split(" ");
      assertThat(e.value("horizontal_pod_autoscaler_controller_metric_computation_total",
          Map.of("action", al[0], "error", al[1], "metric_type", type)))
          .as("the metric computation of %s", type).contains(1.0);
    });
  }

  private int specReplicasNow() {
    if (resourceKind.equals(ReplicaSet.KIND)) {
      return store.require(ReplicaSet.class, NAMESPACE, resourceName).spec().replicas();
    }
    return store.require(Deployment.class, NAMESPACE, resourceName).spec().replicas();
  }

}
