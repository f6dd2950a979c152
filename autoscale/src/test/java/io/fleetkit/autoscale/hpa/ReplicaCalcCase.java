package io.fleetkit.autoscale.hpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The {@code replicaCalcTestCase} harness of kubernetes/kubernetes
 * {@code pkg/controller/podautoscaler/replica_calculator_test.go}: pods named {@code test-pod-<i>} with two
 * containers ({@code container1}, {@code container2}) that both get the request, metrics stamped with Go's zero time
 * and a one-minute window, tolerance 0.1, cpu initialization period 2 min and readiness delay 10 s (the testing
 * values upstream uses).
 */
final class ReplicaCalcCase {
  static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  static final Instant ZERO = ReplicaCalculator.GO_ZERO_TIME;
  static final String NAMESPACE = "test-namespace";
  static final String POD_PREFIX = "test-pod";
  static final int CONTAINERS_PER_POD = 2;
  static final LabelSelector SELECTOR = LabelSelector.of(Map.of("name", POD_PREFIX));
  static final CrossVersionObjectReference DEPLOYMENT =
      CrossVersionObjectReference.of("apps/v1", "Deployment", "some-deployment");

  enum MetricType { OBJECT, OBJECT_PER_POD, EXTERNAL, EXTERNAL_PER_POD, POD }

  /** {@code hotCPUCreationTime}: a pod that just started. */
  static Instant hot() {
    return NOW;
  }

  /** {@code coolCPUCreationTime}: a pod started three minutes ago, past the 2-minute initialization period. */
  static Instant cool() {
    return NOW.minus(Duration.ofMinutes(3));
  }

  static ReplicaCalcCase resource(int currentReplicas) {
    ReplicaCalcCase c = new ReplicaCalcCase(currentReplicas);
    c.isResource = true;
    return c;
  }

  static ReplicaCalcCase metric(int currentReplicas, MetricType type) {
    ReplicaCalcCase c = new ReplicaCalcCase(currentReplicas);
    c.metricType = type;
    return c;
  }

  final int currentReplicas;
  boolean isResource;
  @Nullable MetricType metricType;
  long[] requests = {};
  long[][] levels = {};
  String[] podNames = {};
  int targetUtilization;
  long targetUsage;
  long perPodTargetUsage;
  String container = "";
  ConditionStatus @Nullable [] readiness;
  Instant @Nullable [] startTimes;
  PodPhase @Nullable [] phases;
  boolean @Nullable [] deleted;
  long[] metricLevels = {};

  private ReplicaCalcCase(int currentReplicas) {
    this.currentReplicas = currentReplicas;
  }

  /** Requests in millicores, one per pod, given to both containers. */
  ReplicaCalcCase requests(long... milli) {
    requests = milli;
    return this;
  }

  /** {@code makePodMetricLevels}: the same usage for both containers of each pod. */
  ReplicaCalcCase levels(long... perContainer) {
    levels = new long[perContainer.length][];
    for (int i = 0; i < perContainer.length; i++) {
      levels[i] = new long[] {perContainer[i], perContainer[i]};
    }
    return this;
  }

  ReplicaCalcCase containerLevels(long[]... perPod) {
    levels = perPod;
    return this;
  }

  ReplicaCalcCase podNames(String... names) {
    podNames = names;
    return this;
  }

  ReplicaCalcCase target(int utilization) {
    targetUtilization = utilization;
    return this;
  }

  ReplicaCalcCase container(String name) {
    container = name;
    return this;
  }

  ReplicaCalcCase readiness(ConditionStatus... v) {
    readiness = v;
    return this;
  }

  ReplicaCalcCase startTimes(Instant... v) {
    startTimes = v;
    return this;
  }

  ReplicaCalcCase phases(PodPhase... v) {
    phases = v;
    return this;
  }

  ReplicaCalcCase deleted(boolean... v) {
    deleted = v;
    return this;
  }

  ReplicaCalcCase metricLevels(long... v) {
    metricLevels = v;
    return this;
  }

  ReplicaCalcCase targetUsage(long v) {
    targetUsage = v;
    return this;
  }

  ReplicaCalcCase perPodTargetUsage(long v) {
    perPodTargetUsage = v;
    return this;
  }

  List<Pod> pods() {
    int count = currentReplicas;
    if (phases != null && phases.length > count) {
      count = phases.length;
    }
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ConditionStatus ready = readiness != null && i < readiness.length ? readiness[i] : ConditionStatus.True;
      Instant start = startTimes != null ? startTimes[i] : ZERO;
      PodPhase phase = phases != null ? phases[i] : PodPhase.Running;
      boolean isDeleted = deleted != null && deleted[i];
      ObjectMeta.Builder meta = ObjectMeta.builder().namespace(NAMESPACE).name(POD_PREFIX + "-" + i)
          .label("name", POD_PREFIX);
      if (isDeleted) {
        meta.deletionTimestamp(NOW);
      }
      ResourceList req = i < requests.length
          ? ResourceList.builder().put(ResourceNames.CPU, Quantity.ofMilli(requests[i])).build()
          : ResourceList.EMPTY;
      PodStatus status = PodStatus.of(phase).withStartTime(start)
          .withCondition(PodCondition.of(PodCondition.READY, ready, "", "", null));
      pods.add(Pod.builder().metadata(meta.build()).container("container1", "img", req)
          .container("container2", "img", req).status(status).build());
    }
    return pods;
  }

  MetricsSource source() {
    return new MetricsSource() {
      @Override
      public List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector, String resource) {
        List<PodResourceMetrics> out = new ArrayList<>();
        for (int i = 0; i < levels.length; i++) {
          String name = podNames.length > i ? podNames[i] : POD_PREFIX + "-" + i;
          List<ContainerUsage> cs = new ArrayList<>();
          for (int j = 0; j < levels[i].length; j++) {
            cs.add(new ContainerUsage("container" + (j + 1), levels[i][j]));
          }
          out.add(new PodResourceMetrics(name, ZERO, Duration.ofMinutes(1), cs));
        }
        return out;
      }

      @Override
      public List<PodMetricValue> podMetrics(String namespace, LabelSelector selector, String metricName,
          @Nullable LabelSelector metricSelector) {
        List<PodMetricValue> out = new ArrayList<>();
        for (int i = 0; i < metricLevels.length; i++) {
          out.add(new PodMetricValue(POD_PREFIX + "-" + i, metricLevels[i], ZERO));
        }
        return out;
      }

      @Override
      public long objectMetric(String namespace, CrossVersionObjectReference object, String metricName,
          @Nullable LabelSelector metricSelector) {
        return metricLevels[0];
      }

      @Override
      public List<Long> externalMetric(String namespace, String metricName, @Nullable LabelSelector metricSelector) {
        List<Long> out = new ArrayList<>();
        for (long l : metricLevels) {
          out.add(l);
        }
        return out;
      }
    };
  }

  /** A calculator with the testing configuration and no metrics, for the pure helpers. */
  static final class Calc {
    ReplicaCalculator calculator() {
      return new ReplicaCalculator(new MetricsSource() {}, Clock.fixed(NOW, ZoneOffset.UTC), 0.1,
          Duration.ofMinutes(2), Duration.ofSeconds(10));
    }
  }

  ReplicaCalculator calculator() {
    return new ReplicaCalculator(source(), Clock.fixed(NOW, ZoneOffset.UTC), 0.1, Duration.ofMinutes(2),
        Duration.ofSeconds(10));
  }

  ReplicaCount compute() {
    ReplicaCalculator calc = calculator();
    List<Pod> pods = pods();
    if (isResource) {
      return calc.resourceReplicas(currentReplicas, targetUtilization, ResourceNames.CPU, NAMESPACE, SELECTOR, pods,
          container);
    }
    MetricType type = metricType;
    if (type == null) {
      throw new IllegalStateException("no metric type");
    }
    return switch (type) {
      case OBJECT -> calc.objectMetricReplicas(currentReplicas, targetUsage, "qps", NAMESPACE, DEPLOYMENT, null, pods);
      case OBJECT_PER_POD -> calc.objectPerPodMetricReplicas(currentReplicas, perPodTargetUsage, "qps", NAMESPACE,
          DEPLOYMENT, null);
      case EXTERNAL -> calc.externalMetricReplicas(currentReplicas, targetUsage, "qps", NAMESPACE,
          LabelSelector.of(Map.of("label", "value")), pods);
      case EXTERNAL_PER_POD -> calc.externalPerPodMetricReplicas(currentReplicas, perPodTargetUsage, "qps", NAMESPACE,
          LabelSelector.of(Map.of("label", "value")));
      case POD -> calc.podsMetricReplicas(currentReplicas, targetUsage, "qps", NAMESPACE, SELECTOR, null, pods);
    };
  }

  /** Resource cases: the replicas, the whole-percent utilization and the raw per-pod average. */
  void expect(int replicas, int utilization, long rawValue) {
    ReplicaCount out = compute();
    assertThat(out.replicas()).as("replicas").isEqualTo(replicas);
    assertThat(out.utilization()).as("utilization").isEqualTo(utilization);
    assertThat(out.usage()).as("raw value").isEqualTo(rawValue);
  }

  /** Metric cases: the replicas and the usage. */
  void expect(int replicas, long usage) {
    ReplicaCount out = compute();
    assertThat(out.replicas()).as("replicas").isEqualTo(replicas);
    assertThat(out.usage()).as("usage").isEqualTo(usage);
  }

  void expectError(String messagePart) {
    assertThatThrownBy(this::compute).isInstanceOf(MetricsUnavailableException.class).hasMessageContaining(messagePart);
  }
}
