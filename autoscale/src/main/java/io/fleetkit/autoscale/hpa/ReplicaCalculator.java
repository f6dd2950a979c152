package io.fleetkit.autoscale.hpa;

import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.ResourceNames;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The replica math of Kubernetes' HPA ({@code pkg/controller/podautoscaler/replica_calculator.go}), one method per
 * metric kind, with upstream's integer truncations and its treatment of missing and not-yet-ready pods:
 *
 * <ul>
 *   <li>The usage ratio is computed over ready pods only; within the tolerance ({@code |1 - ratio| <= 0.1}) the
 *       current count is kept, otherwise {@code ceil(ratio * readyPods)}.</li>
 *   <li>A Resource metric's utilization is measured against each pod's request: its pod-level request
 *       ({@code spec.resources}, KEP-2837) when it has pod-level requests, else the sum of its containers' and
 *       sidecars' requests. A ContainerResource metric always uses the named container's own request.</li>
 *   <li>With missing pods or (on a scale-up) unready pods, the ratio is recomputed with missing pods at their request
 *       (scale-down; at {@code max(100%, target)} of it) or at 0 (scale-up) and unready pods at 0; if that flips the
 *       direction or lands within the tolerance, the current count is kept.</li>
 * </ul>
 *
 * <p>Pods are given by the caller (the controller lists them by the target's selector); metrics come from a
 * {@link MetricsSource}. Failures throw {@link MetricsUnavailableException} with upstream's messages. Immutable and
 * thread-safe when the source is.
 */
public final class ReplicaCalculator {
  /** Kubernetes' {@code --horizontal-pod-autoscaler-tolerance}. */
  public static final double DEFAULT_TOLERANCE = 0.1;
  /** Kubernetes' {@code --horizontal-pod-autoscaler-cpu-initialization-period}. */
  public static final Duration DEFAULT_CPU_INITIALIZATION_PERIOD = Duration.ofMinutes(5);
  /** Kubernetes' {@code --horizontal-pod-autoscaler-initial-readiness-delay}. */
  public static final Duration DEFAULT_INITIAL_READINESS_DELAY = Duration.ofSeconds(30);
  /** Go's zero {@code time.Time}, which Kubernetes compares against when a timestamp is unset. */
  static final Instant GO_ZERO_TIME = Instant.parse("0001-01-01T00:00:00Z");

  private final MetricsSource metrics;
  private final Clock clock;
  private final double tolerance;
  private final Duration cpuInitializationPeriod;
  private final Duration delayOfInitialReadinessStatus;

  /**
   * @param tolerance the dead band around a usage ratio of 1, at least 0
   * @throws IllegalArgumentException when the tolerance or a period is negative
   */
  public ReplicaCalculator(MetricsSource metrics, Clock clock, double tolerance, Duration cpuInitializationPeriod,
      Duration delayOfInitialReadinessStatus) {
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (!(tolerance >= 0)) {
      throw new IllegalArgumentException("replica calculator: tolerance " + tolerance + " must be >= 0");
    }
    if (cpuInitializationPeriod.isNegative() || delayOfInitialReadinessStatus.isNegative()) {
      throw new IllegalArgumentException("replica calculator: cpuInitializationPeriod " + cpuInitializationPeriod
          + " and delayOfInitialReadinessStatus " + delayOfInitialReadinessStatus + " must not be negative");
    }
    this.tolerance = tolerance;
    this.cpuInitializationPeriod = cpuInitializationPeriod;
    this.delayOfInitialReadinessStatus = delayOfInitialReadinessStatus;
  }

  /** A calculator with Kubernetes' defaults (tolerance 0.1, cpu initialization 5 min, readiness delay 30 s). */
  public static ReplicaCalculator withDefaults(MetricsSource metrics, Clock clock) {
    return new ReplicaCalculator(metrics, clock, DEFAULT_TOLERANCE, DEFAULT_CPU_INITIALIZATION_PERIOD,
        DEFAULT_INITIAL_READINESS_DELAY);
  }

  public double tolerance() {
    return tolerance;
  }

  /** Whether a usage ratio is close enough to 1 to leave the replica count alone. */
  boolean withinTolerance(double usageRatio) {
    return Math.abs(1.0 - usageRatio) <= tolerance;
  }

  /**
   * Replicas for a Resource (or, with {@code container}, ContainerResource) metric with a Utilization target
   * ({@code GetResourceReplicas}).
   *
   * @param container the container to measure, or {@code ""} for the whole pod
   * @throws MetricsUnavailableException when metrics or requests are missing
   */
  public ReplicaCount resourceReplicas(int currentReplicas, int targetUtilization, String resource, String namespace,
      LabelSelector selector, List<Pod> pods, String container) {
    return resourceReplicas(currentReplicas, targetUtilization, resource, namespace, selector, pods, container, null);
  }

  /** As above; {@code horizon}, when given, is limited to the instant until which the result cannot change. */
  ReplicaCount resourceReplicas(int currentReplicas, int targetUtilization, String resource, String namespace,
      LabelSelector selector, List<Pod> pods, String container, @Nullable Horizon horizon) {
    return resourceReplicas(currentReplicas, targetUtilization, resource, namespace, selector, pods, container,
        horizon, null);
  }

  /**
   * As above; with a {@code slot}, the pods are a {@link PodLister}'s list (in key order, so no two share a name;
   * without one that is checked), and what is read from each pod ({@link PodFacts}) is kept in the slot: the next
   * call reads only the pods that are not the same objects as in this list.
   *
   * <p>Upstream builds maps of the samples and requests by pod name, groups the pods into sets, removes the ignored
   * and unready pods' samples and sums what is left, twice. This is the same arithmetic over one pass: every sum
   * upstream takes is a sum over one of the groups (ready pods with their samples, missing pods, unready pods) plus
   * samples of pods not in the list, which count in the number of samples and nowhere else; integer sums do not
   * depend on their order, so the totals, the whole-percent utilizations and the replica counts are upstream's.
   */
  ReplicaCount resourceReplicas(int currentReplicas, int targetUtilization, String resource, String namespace,
      LabelSelector selector, List<Pod> pods, String container, @Nullable Horizon horizon,
      PodFacts.@Nullable Slot slot) {
    List<PodResourceMetrics> raw = fetchRaw(resource, namespace, selector);
    Instant timestamp = raw.get(0).timestamp();
    if (pods.isEmpty()) {
      throw new MetricsUnavailableException("no pods returned by selector while calculating replica count");
    }
    if (slot == null) {
      requireDistinctNames(pods);
    }
    PodFacts facts = facts(pods, resource, container, slot == null ? null : slot.facts);
    if (slot != null) {
      slot.facts = facts;
    }
    Tally t = tally(facts, Samples.of(raw, container, facts), targetUtilization, horizon);
    facts.requireRequests();
    if (t.ready + t.unknownSamples == 0) {
      throw new MetricsUnavailableException("did not receive metrics for targeted pods (pods might be unready)");
    }
    if (t.readyRequests == 0) {
      throw new MetricsUnavailableException("no metrics returned matched known pods");
    }
    int utilization = (int) ((t.readyUsage * 100) / t.readyRequests);
    double usageRatio = (double) utilization / (double) targetUtilization;
    long rawAverage = t.readyUsage / t.ready;
    boolean scaleUpWithUnready = t.unready > 0 && usageRatio > 1.0;
    if (!scaleUpWithUnready && t.missing == 0) {
      if (withinTolerance(usageRatio)) {
        return new ReplicaCount(currentReplicas, rawAverage, utilization, timestamp);
      }
      return new ReplicaCount(ceil(usageRatio * t.ready), rawAverage, utilization, timestamp);
    }
    // Upstream puts the missing pods' samples back (on a scale-down at their request, or at the target when that is
    // above 100%; on a scale-up at 0; at a ratio of exactly 1 not at all) and, on a scale-up, the unready pods' at 0.
    long usage = t.readyUsage;
    long requests = t.readyRequests;
    int samples = t.ready + t.unknownSamples;
    if (t.missing > 0 && usageRatio != 1.0) {
      usage += usageRatio < 1.0 ? t.missingFill : 0;
      requests += t.missingRequests;
      samples += t.missing;
    }
    if (scaleUpWithUnready) {
      requests += t.unreadyRequests;
      samples += t.unready;
    }
    double newUsageRatio = (double) (int) ((usage * 100) / requests) / (double) targetUtilization;
    if (withinTolerance(newUsageRatio) || (usageRatio < 1.0 && newUsageRatio > 1.0)
        || (usageRatio > 1.0 && newUsageRatio < 1.0)) {
      return new ReplicaCount(currentReplicas, rawAverage, utilization, timestamp);
    }
    int newReplicas = ceil(newUsageRatio * samples);
    if ((newUsageRatio < 1.0 && newReplicas > currentReplicas)
        || (newUsageRatio > 1.0 && newReplicas < currentReplicas)) {
      return new ReplicaCount(currentReplicas, rawAverage, utilization, timestamp);
    }
    return new ReplicaCount(newReplicas, rawAverage, utilization, timestamp);
  }

  /** What one pass over the pods sums for {@link #resourceReplicas}. */
  private static final class Tally {
    /** Ready pods (each has a sample): how many, their usage, their requests. */
    int ready;
    long readyUsage;
    long readyRequests;
    /** Pods without a sample: how many, their requests, and their requests at the scale-down fallback utilization. */
    int missing;
    long missingRequests;
    long missingFill;
    /** Unready pods: how many, their requests. */
    int unready;
    long unreadyRequests;
    /** Samples of pods not in the list. */
    int unknownSamples;
  }

  private PodFacts facts(List<Pod> pods, String resource, String container, @Nullable PodFacts earlier) {
    return PodFacts.of(pods, resource, container, cpuInitializationPeriod, delayOfInitialReadinessStatus, earlier);
  }

  private Tally tally(PodFacts facts, Samples samples, int targetUtilization, @Nullable Horizon horizon) {
    Instant now = clock.instant();
    long fallbackUtilization = Math.max(100, targetUtilization);
    Tally t = new Tally();
    for (int i = 0, n = facts.size(); i < n; i++) {
      long request = facts.request(i);
      int s = samples.indexOf(i, facts.name(i));
      PodResourceMetrics m = s < 0 ? null : samples.raw.get(s);
      switch (facts.classify(i, s >= 0, m == null ? null : m.timestamp(), m == null ? null : m.window(), now,
          horizon)) {
        case PodFacts.IGNORED -> { }
        case PodFacts.UNREADY -> {
          t.unready++;
          t.unreadyRequests += request;
        }
        case PodFacts.MISSING -> {
          t.missing++;
          t.missingRequests += request;
          t.missingFill += request * fallbackUtilization / 100;
        }
        default -> {
          t.ready++;
          t.readyUsage += samples.usage[s];
          t.readyRequests += request;
        }
      }
    }
    t.unknownSamples = samples.distinct - samples.matched;
    return t;
  }

  /**
   * The samples of one resource read: per raw entry the usage of the pod (its containers' sum) or of the one named
   * container, where it has one; and where each pod's is. When the entries are the pods' in the pods' order (a
   * metrics source listing by the same selector in key order), the pods are matched to them as they come, else
   * through a map by name in which, as in upstream's, a later entry for a name replaces an earlier one.
   */
  private static final class Samples {
    final List<PodResourceMetrics> raw;
    /** Per raw entry its usage, or -1 when it gives none (no containers, or not the named container). */
    final long[] usage;
    final boolean[] has;
    /** Per pod, the raw entry of its sample, or -1; null when matched through {@link #byName}. */
    final int @Nullable [] inOrder;
    final @Nullable Map<String, Integer> byName;
    /** Distinct pod names among the samples, and how many of them are pods of the list. */
    int distinct;
    int matched;

    private Samples(List<PodResourceMetrics> raw, long[] usage, boolean[] has, int @Nullable [] inOrder,
        @Nullable Map<String, Integer> byName) {
      this.raw = raw;
      this.usage = usage;
      this.has = has;
      this.inOrder = inOrder;
      this.byName = byName;
    }

    static Samples of(List<PodResourceMetrics> raw, String container, PodFacts pods) {
      int n = raw.size();
      long[] usage = new long[n];
      boolean[] has = new boolean[n];
      int count = 0;
      for (int j = 0; j < n; j++) {
        long u = usage(raw.get(j), container);
        if (u != NO_SAMPLE) {
          usage[j] = u;
          has[j] = true;
          count++;
        }
      }
      // in order: every sample is the next pod's that has one (pod names being distinct, no name is left unmatched)
      int[] inOrder = new int[pods.size()];
      int j = 0;
      for (int i = 0; i < inOrder.length; i++) {
        while (j < n && !has[j]) {
          j++;
        }
        String name = pods.name(i);
        String sampled = j < n ? raw.get(j).podName() : null;
        if (sampled != null && (sampled == name || sampled.equals(name))) {
          inOrder[i] = j++;
        } else {
          inOrder[i] = -1;
        }
      }
      while (j < n && !has[j]) {
        j++;
      }
      if (j == n) {
        Samples s = new Samples(raw, usage, has, inOrder, null);
        s.distinct = count;
        s.matched = count;
        return s;
      }
      Map<String, Integer> byName = new HashMap<>(n * 4 / 3 + 1);
      for (int k = 0; k < n; k++) {
        if (has[k]) {
          byName.put(raw.get(k).podName(), k);
        }
      }
      Samples s = new Samples(raw, usage, has, null, byName);
      s.distinct = byName.size();
      return s;
    }

    /** The raw entry of pod {@code i}'s sample, or -1. */
    int indexOf(int i, String pod) {
      if (inOrder != null) {
        return inOrder[i];
      }
      Integer k = Objects.requireNonNull(byName).get(pod);
      if (k == null) {
        return -1;
      }
      matched++;
      return k;
    }
  }

  private static void requireDistinctNames(List<Pod> pods) {
    Set<String> seen = new HashSet<>();
    for (Pod p : pods) {
      if (!seen.add(p.metadata().name())) {
        throw new IllegalArgumentException("replica calculator: pods: two pods named " + p.metadata().name()
            + "; the pods of a scale target have distinct names");
      }
    }
  }

  /**
   * Replicas for a Resource (or ContainerResource) metric with an AverageValue target
   * ({@code GetRawResourceReplicas}).
   *
   * @throws MetricsUnavailableException when metrics are missing
   */
  public ReplicaCount rawResourceReplicas(int currentReplicas, long targetAverageMilli, String resource,
      String namespace, LabelSelector selector, List<Pod> pods, String container) {
    return rawResourceReplicas(currentReplicas, targetAverageMilli, resource, namespace, selector, pods, container,
        null);
  }

  /** As above; {@code horizon}, when given, is limited to the instant until which the result cannot change. */
  ReplicaCount rawResourceReplicas(int currentReplicas, long targetAverageMilli, String resource,
      String namespace, LabelSelector selector, List<Pod> pods, String container, @Nullable Horizon horizon) {
    Fetched fetched = fetchResourceMetrics(resource, namespace, selector, container);
    return plainMetricReplicas(fetched, currentReplicas, targetAverageMilli, pods, resource, horizon);
  }

  /**
   * Replicas for a Pods metric ({@code GetMetricReplicas}): the per-pod average against {@code targetAverageMilli}.
   *
   * @throws MetricsUnavailableException when metrics are missing
   */
  public ReplicaCount podsMetricReplicas(int currentReplicas, long targetAverageMilli, String metricName,
      String namespace, LabelSelector selector, @Nullable LabelSelector metricSelector, List<Pod> pods) {
    List<PodMetricValue> values;
    try {
      values = metrics.podMetrics(namespace, selector, metricName, metricSelector);
    } catch (MetricsUnavailableException e) {
      throw new MetricsUnavailableException("unable to get metric " + metricName + ": " + e.getMessage(), e);
    }
    if (values.isEmpty()) {
      throw new MetricsUnavailableException(
          "unable to get metric " + metricName + ": no metrics returned from custom metrics API");
    }
    Map<String, PodSample> samples = new LinkedHashMap<>();
    for (PodMetricValue v : values) {
      samples.put(v.podName(), new PodSample(v.milliValue(), v.timestamp(), null));
    }
    return plainMetricReplicas(new Fetched(samples, values.get(0).timestamp()), currentReplicas, targetAverageMilli,
        pods, "", null);
  }

  /**
   * Replicas for an Object metric with a Value target ({@code GetObjectMetricReplicas}).
   *
   * @throws MetricsUnavailableException when the metric is missing
   */
  public ReplicaCount objectMetricReplicas(int currentReplicas, long targetMilli, String metricName,
      String namespace, CrossVersionObjectReference object, @Nullable LabelSelector metricSelector, List<Pod> pods) {
    long usage = objectValue(metricName, namespace, object, metricSelector);
    double usageRatio = (double) usage / (double) targetMilli;
    return new ReplicaCount(usageRatioReplicaCount(currentReplicas, usageRatio, pods), usage, null, null);
  }

  /**
   * Replicas for an Object metric with an AverageValue target ({@code GetObjectPerPodMetricReplicas}).
   *
   * @param statusReplicas the target's current (status) replica count
   * @throws MetricsUnavailableException when the metric is missing
   */
  public ReplicaCount objectPerPodMetricReplicas(int statusReplicas, long targetAverageMilli, String metricName,
      String namespace, CrossVersionObjectReference object, @Nullable LabelSelector metricSelector) {
    long usage = objectValue(metricName, namespace, object, metricSelector);
    return perPodReplicas(statusReplicas, usage, targetAverageMilli);
  }

  /**
   * Replicas for an External metric with a Value target ({@code GetExternalMetricReplicas}): the summed series
   * against the total target.
   *
   * @throws MetricsUnavailableException when the metric is missing
   */
  public ReplicaCount externalMetricReplicas(int currentReplicas, long targetMilli, String metricName,
      String namespace, @Nullable LabelSelector metricSelector, List<Pod> pods) {
    long usage = externalSum(metricName, namespace, metricSelector);
    double usageRatio = (double) usage / (double) targetMilli;
    return new ReplicaCount(usageRatioReplicaCount(currentReplicas, usageRatio, pods), usage, null, null);
  }

  /**
   * Replicas for an External metric with an AverageValue target ({@code GetExternalPerPodMetricReplicas}):
   * {@code ceil(total / perPodTarget)} unless within the tolerance of the current replicas.
   *
   * @throws MetricsUnavailableException when the metric is missing
   */
  public ReplicaCount externalPerPodMetricReplicas(int statusReplicas, long targetAverageMilli, String metricName,
      String namespace, @Nullable LabelSelector metricSelector) {
    long usage = externalSum(metricName, namespace, metricSelector);
    return perPodReplicas(statusReplicas, usage, targetAverageMilli);
  }

  private ReplicaCount perPodReplicas(int statusReplicas, long usage, long targetAverageMilli) {
    int replicaCount = statusReplicas;
    double usageRatio = (double) usage / ((double) targetAverageMilli * (double) replicaCount);
    if (!withinTolerance(usageRatio)) {
      replicaCount = ceil((double) usage / (double) targetAverageMilli);
    }
    long perReplica = (long) Math.ceil((double) usage / (double) statusReplicas);
    return new ReplicaCount(replicaCount, perReplica, null, null);
  }

  private long objectValue(String metricName, String namespace, CrossVersionObjectReference object,
      @Nullable LabelSelector metricSelector) {
    try {
      return metrics.objectMetric(namespace, object, metricName, metricSelector);
    } catch (MetricsUnavailableException e) {
      throw new MetricsUnavailableException("unable to get metric " + metricName + ": " + object.kind() + " on "
          + namespace + " " + object.name() + "/" + e.getMessage(), e);
    }
  }

  private long externalSum(String metricName, String namespace, @Nullable LabelSelector metricSelector) {
    List<Long> series;
    try {
      series = metrics.externalMetric(namespace, metricName, metricSelector);
    } catch (MetricsUnavailableException e) {
      throw new MetricsUnavailableException(
          "unable to get external metric " + namespace + "/" + metricName + ": " + e.getMessage(), e);
    }
    if (series.isEmpty()) {
      throw new MetricsUnavailableException("unable to get external metric " + namespace + "/" + metricName
          + ": no metrics returned from external metrics API");
    }
    long sum = 0;
    for (long v : series) {
      sum = saturatedAdd(sum, v);
    }
    return sum;
  }

  /**
   * {@code getUsageRatioReplicaCount}: within the tolerance keep the current count, else scale the ready pods by the
   * ratio; from zero replicas, {@code ceil(ratio)} without tolerance (the scale-from-zero path).
   */
  private int usageRatioReplicaCount(int currentReplicas, double usageRatio, List<Pod> pods) {
    if (currentReplicas != 0) {
      if (withinTolerance(usageRatio)) {
        return currentReplicas;
      }
      if (pods.isEmpty()) {
        throw new MetricsUnavailableException("unable to calculate ready pods: "
            + "no pods returned by selector while calculating replica count");
      }
      int ready = 0;
      for (Pod p : pods) {
        if (p.status().phase() == PodPhase.Running && p.isReady()) {
          ready++;
        }
      }
      return ceil(usageRatio * ready);
    }
    return ceil(usageRatio);
  }

  /** {@code calcPlainMetricReplicas}: the per-pod average against a per-pod target, missing pods at the target. */
  private ReplicaCount plainMetricReplicas(Fetched fetched, int currentReplicas, long targetUsage, List<Pod> pods,
      String resource, @Nullable Horizon horizon) {
    Map<String, PodSample> samples = fetched.samples;
    if (pods.isEmpty()) {
      throw new MetricsUnavailableException("no pods returned by selector while calculating replica count");
    }
    PodGroups groups = groupPods(pods, samples, resource, horizon);
    samples.keySet().removeAll(groups.ignored());
    samples.keySet().removeAll(groups.unready());
    if (samples.isEmpty()) {
      throw new MetricsUnavailableException("did not receive metrics for targeted pods (pods might be unready)");
    }
    long usage = averageUsage(samples);
    double usageRatio = (double) usage / (double) targetUsage;
    boolean scaleUpWithUnready = !groups.unready().isEmpty() && usageRatio > 1.0;
    if (!scaleUpWithUnready && groups.missing().isEmpty()) {
      if (withinTolerance(usageRatio)) {
        return new ReplicaCount(currentReplicas, usage, null, fetched.timestamp);
      }
      return new ReplicaCount(ceil(usageRatio * groups.readyPodCount()), usage, null, fetched.timestamp);
    }
    if (!groups.missing().isEmpty() && usageRatio != 1.0) {
      // Scale-down: a missing pod counts as at the target; scale-up: as using nothing; exactly 1: left out.
      long fill = usageRatio < 1.0 ? targetUsage : 0;
      for (String pod : groups.missing()) {
        samples.put(pod, new PodSample(fill, null, null));
      }
    }
    if (scaleUpWithUnready) {
      for (String pod : groups.unready()) {
        samples.put(pod, new PodSample(0, null, null));
      }
    }
    double newUsageRatio = (double) averageUsage(samples) / (double) targetUsage;
    if (withinTolerance(newUsageRatio) || (usageRatio < 1.0 && newUsageRatio > 1.0)
        || (usageRatio > 1.0 && newUsageRatio < 1.0)) {
      return new ReplicaCount(currentReplicas, usage, null, fetched.timestamp);
    }
    int newReplicas = ceil(newUsageRatio * samples.size());
    if ((newUsageRatio < 1.0 && newReplicas > currentReplicas)
        || (newUsageRatio > 1.0 && newReplicas < currentReplicas)) {
      return new ReplicaCount(currentReplicas, usage, null, fetched.timestamp);
    }
    return new ReplicaCount(newReplicas, usage, null, fetched.timestamp);
  }

  /** The resource metrics of the pods {@code selector} matches, at least one. */
  private List<PodResourceMetrics> fetchRaw(String resource, String namespace, LabelSelector selector) {
    List<PodResourceMetrics> raw;
    try {
      raw = metrics.podResourceMetrics(namespace, selector, resource);
    } catch (MetricsUnavailableException e) {
      throw new MetricsUnavailableException(
          "unable to get metrics for resource " + resource + ": " + e.getMessage(), e);
    }
    if (raw.isEmpty()) {
      throw new MetricsUnavailableException("unable to get metrics for resource " + resource
          + ": no metrics returned from resource metrics API");
    }
    return raw;
  }

  private Fetched fetchResourceMetrics(String resource, String namespace, LabelSelector selector, String container) {
    List<PodResourceMetrics> raw = fetchRaw(resource, namespace, selector);
    Map<String, PodSample> samples = new LinkedHashMap<>();
    for (PodResourceMetrics m : raw) {
      long u = usage(m, container);
      if (u != NO_SAMPLE) {
        samples.put(m.podName(), new PodSample(u, m.timestamp(), m.window()));
      }
    }
    return new Fetched(samples, raw.get(0).timestamp());
  }

  /** {@link #usage}'s answer for a pod without a sample for the metric. */
  private static final long NO_SAMPLE = Long.MIN_VALUE;

  /**
   * A pod's usage (milli-units) as upstream's metrics client reads it: the sum over its containers, or the named
   * {@code container}'s; {@link #NO_SAMPLE} when the pod reports no container, or not that one.
   */
  private static long usage(PodResourceMetrics m, String container) {
    if (container.isEmpty()) {
      if (m.containers().isEmpty()) {
        return NO_SAMPLE;
      }
      long sum = 0;
      for (ContainerUsage c : m.containers()) {
        sum += c.milliValue();
      }
      return sum;
    }
    for (ContainerUsage c : m.containers()) {
      if (c.name().equals(container)) {
        return c.milliValue();
      }
    }
    return NO_SAMPLE;
  }

  /**
   * {@code groupPods}: sorts the pods into ready, unready, missing and ignored for one metric. The cpu readiness rules
   * (initialization period, readiness delay) apply only when {@code resource} is {@code cpu}.
   */
  PodGroups groupPods(List<Pod> pods, Map<String, PodSample> samples, String resource) {
    return groupPods(pods, samples, resource, null);
  }

  /**
   * As above; {@code horizon}, when given, is limited to the instant until which the grouping cannot change for
   * the same pods and samples no older than these: now for a pod dropped only because its sample is within a metric
   * window of its readiness change (a later sample may pass it), and the end of the initialization period of an
   * unready pod inside it that has been ready (after it, its sample counts); see {@link PodFacts#classify}. Outside
   * the initialization period, and for unready pods inside it, the grouping reads no clock.
   */
  PodGroups groupPods(List<Pod> pods, Map<String, PodSample> samples, String resource, @Nullable Horizon horizon) {
    Instant now = clock.instant();
    PodFacts facts = facts(pods, resource, "", null);
    int ready = 0;
    Set<String> unready = new HashSet<>();
    Set<String> missing = new HashSet<>();
    Set<String> ignored = new HashSet<>();
    for (int i = 0, n = facts.size(); i < n; i++) {
      String name = facts.name(i);
      PodSample sample = samples.get(name);
      switch (facts.classify(i, sample != null, sample == null ? null : sample.timestamp,
          sample == null ? null : sample.window, now, horizon)) {
        case PodFacts.IGNORED -> ignored.add(name);
        case PodFacts.UNREADY -> unready.add(name);
        case PodFacts.MISSING -> missing.add(name);
        default -> ready++;
      }
    }
    return new PodGroups(ready, unready, missing, ignored);
  }

  /**
   * {@code calculateRequests}: per pod, for the whole pod its pod-level request when it has pod-level requests
   * (KEP-2837), else the sum of the requests of its containers and restartable (sidecar) init containers; for a
   * named container, that container's request (pod-level requests do not apply). See {@link PodFacts#request}.
   *
   * @throws MetricsUnavailableException "missing request for cpu in container c of Pod p" when a container has none,
   *     "missing pod-level request for cpu in Pod p", "container c not found in Pod p"
   */
  static Map<String, Long> calculateRequests(List<Pod> pods, String container, String resource) {
    Map<String, Long> requests = new HashMap<>();
    for (Pod pod : pods) {
      requests.put(pod.metadata().name(), PodFacts.request(pod, container, resource));
    }
    return requests;
  }

  private static long averageUsage(Map<String, PodSample> samples) {
    long total = 0;
    for (PodSample s : samples.values()) {
      total += s.milliValue;
    }
    return total / samples.size();
  }

  private static Instant goTime(@Nullable Instant t) {
    return t != null ? t : GO_ZERO_TIME;
  }

  /** {@code int32(math.Ceil(x))}, saturating at the int range. */
  static int ceil(double x) {
    double c = Math.ceil(x);
    if (c >= Integer.MAX_VALUE) {
      return Integer.MAX_VALUE;
    }
    if (c <= Integer.MIN_VALUE) {
      return Integer.MIN_VALUE;
    }
    return (int) c;
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }

  /** One pod's metric value in milli-units with its sampling time and window, when known. */
  static final class PodSample {
    final long milliValue;
    final @Nullable Instant timestamp;
    final @Nullable Duration window;

    PodSample(long milliValue, @Nullable Instant timestamp, @Nullable Duration window) {
      this.milliValue = milliValue;
      this.timestamp = timestamp;
      this.window = window;
    }
  }

  private record Fetched(Map<String, PodSample> samples, Instant timestamp) {}

  /**
   * The instant until which a computation's result stays what it is for the same inputs (pods, and samples with the
   * same values and timestamps no earlier): {@link Instant#MAX} unless the group of a pod inside its cpu
   * initialization period could change before the period ends ({@link PodFacts#classify}).
   * Mutable, for one computation on one thread.
   */
  static final class Horizon {
    private Instant until = Instant.MAX;

    void limit(Instant t) {
      if (t.isBefore(until)) {
        until = t;
      }
    }

    Instant until() {
      return until;
    }
  }
}
