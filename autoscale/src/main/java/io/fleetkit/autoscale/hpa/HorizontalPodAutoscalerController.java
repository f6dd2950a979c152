package io.fleetkit.autoscale.hpa;

import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.autoscaling.ContainerResourceMetricSource;
import io.fleetkit.api.autoscaling.ContainerResourceMetricStatus;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.ExternalMetricSource;
import io.fleetkit.api.autoscaling.ExternalMetricStatus;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscaler;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerCondition;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerConditionType;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerSpec;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerStatus;
import io.fleetkit.api.autoscaling.MetricSpec;
import io.fleetkit.api.autoscaling.MetricStatus;
import io.fleetkit.api.autoscaling.MetricTarget;
import io.fleetkit.api.autoscaling.MetricTargetType;
import io.fleetkit.api.autoscaling.MetricValueStatus;
import io.fleetkit.api.autoscaling.ObjectMetricSource;
import io.fleetkit.api.autoscaling.ObjectMetricStatus;
import io.fleetkit.api.autoscaling.PodsMetricSource;
import io.fleetkit.api.autoscaling.PodsMetricStatus;
import io.fleetkit.api.autoscaling.ResourceMetricSource;
import io.fleetkit.api.autoscaling.ResourceMetricStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HPA controller ({@code reconcileAutoscaler} of {@code horizontal.go}) over an {@link ObjectStore}: reads the
 * target's scale, computes a proposal per metric and keeps the largest, normalizes it (stabilization, behavior,
 * min/max), writes the new replica count and the HPA status with upstream's conditions and reasons.
 *
 * <p>Use it directly ({@link #sync}, {@link #syncAll}, e.g. every {@link #DEFAULT_SYNC_PERIOD} on a test clock) or as
 * a {@link Reconciler} in a {@code io.fleetkit.reconcile.Controller}, which requeues each HPA after the sync period.
 * Thread-safe: syncs of different HPAs may run concurrently; the per-HPA history is synchronized.
 */
public final class HorizontalPodAutoscalerController implements Reconciler<HorizontalPodAutoscaler> {
  /** Kubernetes' {@code --horizontal-pod-autoscaler-sync-period}. */
  public static final Duration DEFAULT_SYNC_PERIOD = Duration.ofSeconds(15);

  private static final Logger LOG = LoggerFactory.getLogger(HorizontalPodAutoscalerController.class);
  private static final String UNABLE = "the HPA was unable to compute the replica count: ";

  private final ObjectStore store;
  private final Clock clock;
  private final MetricsSource metrics;
  private final PodLister pods;
  private final ReplicaCalculator calculator;
  private final ReplicaNormalizer normalizer;
  private final Duration syncPeriod;
  private final MetricsRegistry registry;
  /**
   * During {@link #syncAll}: the HPAs of each namespace with their targets' selectors, read once per round (an HPA
   * sync writes HPA statuses and target scales, never an HPA's spec or a target's selector); null outside.
   */
  private @Nullable Map<String, List<TargetSelector>> roundSelectors;
  /**
   * The number of the {@link #syncAll} round under way, 0 outside one. During a round the target scales read with
   * the selectors are kept in each HPA's {@link HpaState#roundScale} for the HPAs whose target no other HPA of the
   * namespace scales (only its own sync writes it, so what was read is what its sync would read); each is taken
   * once, by that HPA's sync.
   */
  private long round;
  private long rounds;
  /** Per namespace: which HPAs' target selectors match a label set, while the selectors stay the same. */
  private final Map<String, SelectorMatches> selectorMatches = new HashMap<>();
  /** Per namespace: the last selectors read, returned again (the same list) while they are equal. */
  private final Map<String, List<TargetSelector>> lastSelectors = new java.util.concurrent.ConcurrentHashMap<>();
  /** What is kept for each HPA between its syncs, by namespace and name. */
  private final Map<String, Map<String, HpaState>> states = new java.util.concurrent.ConcurrentHashMap<>();
  /**
   * Per namespace: the states of its HPAs in listing order, as the last read of the target selectors met them. A
   * round lists the HPAs in the same order, so each one's state is found by position (its name checked) instead of
   * by a lookup among all of them.
   */
  private final Map<String, HpaState[]> listingOrder = new java.util.concurrent.ConcurrentHashMap<>();
  /** The ValidMetricFound condition's message by metric name (a handful of names: one per metric kind). */
  private final Map<String, String> validMetricMessages = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * What the controller keeps for one HPA between its syncs, in one place (a sync reads all of it): the
   * {@code namespace/name} key (one string, with its hash, at every sync), the last computation ({@link Memo}), the
   * last sync that changed nothing ({@link Quiet}), what was read from its pods per metric ({@link PodFacts}), its
   * target's last scale with the object it was read from, and its entry in the namespace's target selectors. Written
   * by the HPA's own sync (and, for the round's scale and selector, by the round's read of the selectors); syncs of
   * one HPA do not overlap.
   */
  private static final class HpaState {
    final String name;
    final String key;
    /** Set when the HPA is seen deleted: a state found by position is used only while it is not. */
    volatile boolean removed;
    @Nullable Memo memo;
    @Nullable Quiet quiet;
    PodFacts.Slot @Nullable [] slots;
    /** The target object last read and its scale (one record, so that the two are replaced together). */
    @Nullable ReadScale lastScale;
    /** The scale read with the selectors of round {@link #scaleRound}; null once taken. */
    @Nullable TargetScale roundScale;
    long scaleRound;
    /** This HPA's entry in the last target selectors read: the same one while its target's selector is. */
    @Nullable TargetSelector selector;

    HpaState(String name, String key) {
      this.name = name;
      this.key = key;
    }

    /**
     * The scale of {@code ref}: the one read last time when the store holds the same object (the store's objects
     * are immutable: the same object, the same scale).
     */
    TargetScale readScale(ObjectStore store, String namespace, CrossVersionObjectReference ref) {
      Object target = TargetScale.target(store, namespace, ref);
      ReadScale last = lastScale;
      if (last != null && last.target() == target) {
        return last.scale();
      }
      TargetScale scale = TargetScale.of(target);
      lastScale = new ReadScale(target, scale);
      return scale;
    }
  }

  /** A target object and the scale read from it. */
  private record ReadScale(Object target, TargetScale scale) {}

  /**
   * A sync that neither rescaled nor failed, with what decided it: the HPA object as the store held it afterwards
   * (so with the status that sync wrote), the target's scale, the proposal (a {@link Memo}'s) and the normalized
   * count with its conditions. A later sync from the same HPA object and scale that gets the same proposal and the
   * same normalized result would set every condition as it is (same statuses keep their transition times), so it
   * would build the status the HPA already has and write nothing: its outcome is this one's.
   */
  private record Quiet(HorizontalPodAutoscaler hpa, TargetScale scale, Proposal proposal,
      ReplicaNormalizer.Normalized normalized, SyncOutcome outcome) {}

  /**
   * A proposal of {@link #computeReplicasForMetrics} and its inputs: the HPA's spec, the target's scale, the pods
   * (the store's objects, immutable, so an unchanged pod is the same instance), the namespace's target selectors and
   * one {@link MetricsSource#resourceMetricsVersion} per metric. The computation reads the clock in one place only,
   * the cpu rules for pods inside their initialization period (the period's end, and the samples' timestamps
   * against the readiness change): the memo is valid until the computation's {@link ReplicaCalculator.Horizon},
   * the first instant at which one of those comparisons could turn out differently for the same inputs.
   */
  private record Memo(HorizontalPodAutoscalerSpec spec, TargetScale scale, List<Pod> pods,
      List<TargetSelector> selectors, Object[] versions, Proposal proposal, int[] perMetric, Instant validUntil) {
    boolean matches(HorizontalPodAutoscalerSpec s, TargetScale sc, List<Pod> ps, List<TargetSelector> sel,
        Object[] vs, Instant now) {
      if (!now.isBefore(validUntil) || (s != spec && !s.equals(spec)) || (sc != scale && !sc.equals(scale))
          || (sel != selectors && !sel.equals(selectors)) || !java.util.Arrays.equals(vs, versions)
          || ps.size() != pods.size()) {
        return false;
      }
      if (ps == pods) { // a lister that keeps its lists (WatchedPods) gives the same one while no pod changed
        return true;
      }
      for (int i = 0; i < ps.size(); i++) {
        if (ps.get(i) != pods.get(i)) {
          return false;
        }
      }
      return true;
    }
  }

  /** A scale target of a namespace, by kind and name (two HPAs may name one target with other API versions). */
  private record TargetRef(String kind, String name) {}

  /** An HPA ({@code namespace/name}) and its target's pod selector. */
  private record TargetSelector(String name, String hpa, LabelSelector selector) {}

  /** The HPAs (as indexes into {@code selectors}) whose selector matches each label set met so far. */
  private record SelectorMatches(List<TargetSelector> selectors, Map<Map<String, String>, int[]> matching) {}
  /** The HPAs synced and not yet seen deleted, {@code namespace/name}: the {@code num_horizontal_pod_autoscalers} gauge. */
  private final java.util.Set<String> tracked = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private HorizontalPodAutoscalerController(Builder b) {
    this.registry = b.registry;
    this.store = b.store;
    this.clock = b.clock;
    this.metrics = b.metrics;
    this.pods = b.pods != null ? b.pods : PodLister.of(b.store);
    this.calculator = new ReplicaCalculator(b.metrics, b.clock, b.tolerance, b.cpuInitializationPeriod,
        b.initialReadinessDelay);
    this.normalizer = new ReplicaNormalizer(b.clock, b.downscaleStabilization);
    this.syncPeriod = b.syncPeriod;
  }

  public static Builder builder(ObjectStore store, MetricsSource metrics) {
    return new Builder(store, metrics);
  }

  /** The normalizer holding this controller's per-HPA history. */
  public ReplicaNormalizer normalizer() {
    return normalizer;
  }

  @Override
  public Result reconcile(ReconcileContext<HorizontalPodAutoscaler> context) {
    ObjectKey key = context.key();
    if (context.object().isEmpty()) {
      normalizer.forget(key.namespace() + "/" + key.name());
      Map<String, HpaState> inNamespace = states.get(key.namespace());
      HpaState removed = inNamespace == null ? null : inNamespace.remove(key.name());
      if (removed != null) {
        removed.removed = true;
      }
      if (registry.enabled() && tracked.remove(key.namespace() + "/" + key.name())) {
        registry.gauge(HorizontalPodAutoscalerMetrics.NUM_HORIZONTAL_POD_AUTOSCALERS).add(-1);
        registry.gauge(HorizontalPodAutoscalerMetrics.DESIRED_REPLICAS, key.namespace(), key.name()).set(0);
      }
      return Result.done();
    }
    SyncOutcome outcome = sync(key.namespace(), key.name());
    if (context.events() != EventRecorder.NOOP) {
      for (String e : outcome.events()) {
        String[] parts = e.split(" ", 3); // "<type> <reason> <message>"
        context.object().ifPresent(hpa -> context.events().event(hpa, parts[0], parts[1], "Scale",
            parts.length > 2 ? parts[2] : ""));
      }
    }
    return Result.requeueAfter(syncPeriod);
  }

  /** Syncs every HPA of the store once, in listing order. */
  public List<SyncOutcome> syncAll() {
    List<SyncOutcome> out = new ArrayList<>();
    roundSelectors = new HashMap<>();
    round = ++rounds;
    try {
      // a sync writes only its own HPA's status: each listed HPA is the stored one when its turn comes
      String namespace = null;
      int position = 0;
      for (HorizontalPodAutoscaler h : store.list(HorizontalPodAutoscaler.class).items()) {
        String ns = h.metadata().namespace();
        if (!ns.equals(namespace)) { // the listing is in key order: one namespace's HPAs come together
          namespace = ns;
          position = 0;
        }
        HpaState state = stateAt(ns, h.metadata().name(), listingOrder.get(ns), position++);
        out.add(sync(ns, h.metadata().name(), h, state));
      }
    } finally {
      roundSelectors = null;
      round = 0;
    }
    return out;
  }

  /**
   * Syncs one HPA: never throws for metric, scale or conflict failures; they end up in the conditions and the
   * outcome's error.
   *
   * @throws NotFoundException when the HPA itself does not exist
   */
  public SyncOutcome sync(String namespace, String name) {
    return sync(namespace, name, null, stateOf(namespace, name));
  }

  /** {@link #sync}, from {@code listed} when it is the stored HPA. */
  private SyncOutcome sync(String namespace, String name, @Nullable HorizontalPodAutoscaler listed, HpaState state) {
    if (!registry.enabled()) {
      return syncOnce(namespace, name, listed, state);
    }
    long start = System.nanoTime();
    SyncOutcome o = syncOnce(namespace, name, listed, state);
    String action = o.desiredReplicas() > o.currentReplicas() ? HorizontalPodAutoscalerMetrics.SCALE_UP
        : o.desiredReplicas() < o.currentReplicas() ? HorizontalPodAutoscalerMetrics.SCALE_DOWN
        : HorizontalPodAutoscalerMetrics.NONE;
    String error = o.error() == null ? HorizontalPodAutoscalerMetrics.NONE : HorizontalPodAutoscalerMetrics.INTERNAL;
    registry.counter(HorizontalPodAutoscalerMetrics.RECONCILIATIONS, action, error).increment();
    registry.histogram(HorizontalPodAutoscalerMetrics.RECONCILIATION_DURATION, action, error)
        .observeNanos(System.nanoTime() - start);
    if (tracked.add(namespace + "/" + name)) {
      registry.gauge(HorizontalPodAutoscalerMetrics.NUM_HORIZONTAL_POD_AUTOSCALERS).add(1);
    }
    registry.gauge(HorizontalPodAutoscalerMetrics.DESIRED_REPLICAS, namespace, name).set(o.desiredReplicas());
    return o;
  }

  /** The state of {@code namespace/name}: {@code order[position]} when that is its (and not removed). */
  private HpaState stateAt(String namespace, String name, HpaState @Nullable [] order, int position) {
    if (order != null && position < order.length) {
      HpaState s = order[position];
      if (!s.removed && (s.name == name || s.name.equals(name))) {
        return s;
      }
    }
    return stateOf(namespace, name);
  }

  private HpaState stateOf(String namespace, String name) {
    Map<String, HpaState> inNamespace = states.get(namespace);
    if (inNamespace == null) {
      inNamespace = states.computeIfAbsent(namespace, k -> new java.util.concurrent.ConcurrentHashMap<>());
    }
    HpaState state = inNamespace.get(name);
    return state != null ? state : inNamespace.computeIfAbsent(name, k -> new HpaState(name, namespace + "/" + name));
  }

  private SyncOutcome syncOnce(String namespace, String name, @Nullable HorizontalPodAutoscaler listed,
      HpaState state) {
    HorizontalPodAutoscaler hpa = listed != null ? listed : store.require(HorizontalPodAutoscaler.class, namespace,
        name);
    String key = state.key;
    Instant now = clock.instant();
    Conditions conditions = new Conditions(hpa.status().conditions(), now);
    List<String> events = new ArrayList<>();
    HorizontalPodAutoscalerSpec spec = hpa.spec();
    CrossVersionObjectReference ref = spec.scaleTargetRef();

    TargetScale scale = null;
    if (listed != null && round != 0 && state.scaleRound == round) {
      scale = state.roundScale;
      state.roundScale = null;
    }
    try {
      if (scale == null) {
        scale = state.readScale(store, namespace, ref);
      }
    } catch (FleetKitException | IllegalArgumentException e) {
      conditions.set(HorizontalPodAutoscalerConditionType.AbleToScale, ConditionStatus.False, "FailedGetScale",
          "the HPA controller was unable to get the target's current scale: " + e.getMessage());
      events.add("Warning FailedGetScale " + e.getMessage());
      writeStatus(hpa, hpa.status().currentReplicas(), hpa.status().desiredReplicas(), hpa.status().currentMetrics(),
          conditions, hpa.status().lastScaleTime());
      return new SyncOutcome(key, hpa.status().currentReplicas(), hpa.status().desiredReplicas(), false, events,
          "failed to query scale subresource for " + ref + ": " + e.getMessage());
    }
    conditions.set(HorizontalPodAutoscalerConditionType.AbleToScale, ConditionStatus.True, "SucceededGetScale",
        "the HPA controller was able to get the target's current scale");

    int currentReplicas = scale.specReplicas();
    normalizer.recordInitialRecommendation(key, currentReplicas);
    int minReplicas = spec.minReplicas();
    int desiredReplicas = 0;
    String rescaleReason = "";
    boolean rescale = true;
    List<MetricStatus> metricStatuses = hpa.status().currentMetrics();
    String error = null;
    ReplicaNormalizer.Normalized normalized = null;
    Proposal quietProposal = null;

    if (currentReplicas == 0 && minReplicas != 0) {
      rescale = false;
      conditions.set(HorizontalPodAutoscalerConditionType.ScalingActive, ConditionStatus.False, "ScalingDisabled",
          "scaling is disabled since the replica count of the target is zero");
    } else if (currentReplicas > spec.maxReplicas()) {
      rescaleReason = "Current number of replicas above Spec.MaxReplicas";
      desiredReplicas = spec.maxReplicas();
    } else if (currentReplicas < minReplicas) {
      rescaleReason = "Current number of replicas below Spec.MinReplicas";
      desiredReplicas = minReplicas;
    } else {
      Proposal proposal = computeReplicasForMetrics(hpa, state, scale, conditions);
      metricStatuses = proposal.statuses;
      if (proposal.error != null && proposal.replicas == -1) {
        events.add("Warning FailedComputeMetricsReplicas " + proposal.error);
        writeStatus(hpa, currentReplicas, hpa.status().desiredReplicas(), metricStatuses, conditions,
            hpa.status().lastScaleTime());
        return new SyncOutcome(key, currentReplicas, currentReplicas, false, events,
            "failed to compute desired number of replicas based on listed metrics for " + ref + ": "
                + proposal.error);
      }
      error = proposal.error;
      String rescaleMetric = "";
      if (proposal.replicas > desiredReplicas) {
        desiredReplicas = proposal.replicas;
        rescaleMetric = proposal.metricName;
      }
      if (desiredReplicas > currentReplicas) {
        rescaleReason = rescaleMetric + " above target";
      }
      if (desiredReplicas < currentReplicas) {
        rescaleReason = "All metrics below target";
      }
      ReplicaNormalizer.Normalized n = normalizer.normalize(key, spec, currentReplicas, desiredReplicas);
      Quiet q = state.quiet;
      if (q != null && q.hpa() == hpa && q.proposal() == proposal && (q.scale() == scale || q.scale().equals(scale))
          && q.normalized().equals(n)) {
        return q.outcome();
      }
      state.quiet = null;
      normalized = n;
      quietProposal = proposal;
      desiredReplicas = n.replicas();
      conditions.set(n.ableToScale());
      conditions.set(n.scalingLimited());
      rescale = desiredReplicas != currentReplicas;
    }

    Instant lastScaleTime = hpa.status().lastScaleTime();
    if (rescale) {
      try {
        TargetScale.write(store, namespace, ref, desiredReplicas);
      } catch (FleetKitException e) {
        events.add("Warning FailedRescale New size: " + desiredReplicas + "; reason: " + rescaleReason + "; error: "
            + e.getMessage());
        conditions.set(HorizontalPodAutoscalerConditionType.AbleToScale, ConditionStatus.False, "FailedUpdateScale",
            "the HPA controller was unable to update the target scale: " + e.getMessage());
        writeStatus(hpa, currentReplicas, hpa.status().desiredReplicas(), metricStatuses, conditions, lastScaleTime);
        return new SyncOutcome(key, currentReplicas, currentReplicas, false, events,
            "failed to rescale " + ref + ": " + e.getMessage());
      }
      conditions.set(HorizontalPodAutoscalerConditionType.AbleToScale, ConditionStatus.True, "SucceededRescale",
          "the HPA controller was able to update the target scale to " + desiredReplicas);
      events.add("Normal SuccessfulRescale New size: " + desiredReplicas + "; reason: " + rescaleReason);
      normalizer.storeScaleEvent(spec.behavior(), key, currentReplicas, desiredReplicas);
      lastScaleTime = now;
      LOG.debug("hpa {}: rescaled {} from {} to {} ({})", key, ref, currentReplicas, desiredReplicas, rescaleReason);
    } else {
      desiredReplicas = currentReplicas;
    }
    HorizontalPodAutoscaler after = writeStatus(hpa, currentReplicas, desiredReplicas, metricStatuses, conditions,
        lastScaleTime);
    SyncOutcome outcome = new SyncOutcome(key, currentReplicas, desiredReplicas, rescale, events, error);
    if (!rescale && error == null && normalized != null && quietProposal != null && after != null) {
      state.quiet = new Quiet(after, scale, quietProposal, normalized, outcome);
    }
    return outcome;
  }

  /** Writes the status when it changed; the HPA as stored afterwards, or null when the write failed. */
  private @Nullable HorizontalPodAutoscaler writeStatus(HorizontalPodAutoscaler hpa, int current, int desired,
      List<MetricStatus> metrics, Conditions conditions, @Nullable Instant lastScaleTime) {
    HorizontalPodAutoscalerStatus status = new HorizontalPodAutoscalerStatus(hpa.metadata().generation(),
        lastScaleTime, current, desired, metrics, conditions.list());
    if (status.equals(hpa.status())) {
      return hpa;
    }
    try {
      return store.updateStatus(hpa.withStatus(status));
    } catch (FleetKitException e) {
      LOG.debug("hpa {}/{}: status update failed: {}", hpa.metadata().namespace(), hpa.metadata().name(),
          e.getMessage());
      return null;
    }
  }

  /**
   * {@code computeReplicasForMetrics}: the highest proposal; errors decide as upstream. When the HPA's inputs are
   * those of its last computation ({@link Memo}), the last proposal is the answer and only its condition (and, with
   * a registry, its per-metric observations) are recorded again.
   */
  private Proposal computeReplicasForMetrics(HorizontalPodAutoscaler hpa, HpaState state, TargetScale scale,
      Conditions conditions) {
    String namespace = hpa.metadata().namespace();
    List<Pod> pods = this.pods.list(namespace, scale.selector());
    List<TargetSelector> selectors = selectorsOf(namespace);
    List<MetricSpec> specs = hpa.spec().metrics();
    Object[] versions = versions(namespace, scale, specs);
    Memo memo = state.memo;
    if (memo != null && versions != null && memo.matches(hpa.spec(), scale, pods, selectors, versions, clock.instant())) {
      Proposal p = memo.proposal();
      if (registry.enabled()) {
        int current = hpa.status().currentReplicas();
        for (int i = 0; i < specs.size(); i++) {
          int r = memo.perMetric()[i];
          observeComputation(r > current ? HorizontalPodAutoscalerMetrics.SCALE_UP
              : r < current ? HorizontalPodAutoscalerMetrics.SCALE_DOWN : HorizontalPodAutoscalerMetrics.NONE,
              HorizontalPodAutoscalerMetrics.NONE, specs.get(i), System.nanoTime());
        }
      }
      conditions.set(HorizontalPodAutoscalerConditionType.ScalingActive, ConditionStatus.True, "ValidMetricFound",
          p.validMessage());
      return p;
    }
    state.memo = null;
    String ambiguous = ambiguousSelector(hpa, scale, pods, selectors);
    if (ambiguous != null) {
      conditions.set(HorizontalPodAutoscalerConditionType.ScalingActive, ConditionStatus.False, "AmbiguousSelector",
          ambiguous);
      return new Proposal(-1, "", hpa.status().currentMetrics(), ambiguous, "");
    }
    List<MetricStatus> statuses = new ArrayList<>();
    int[] perMetric = new int[specs.size()];
    int replicas = 0;
    String metric = "";
    int invalid = 0;
    String firstError = null;
    HorizontalPodAutoscalerCondition firstCondition = null;
    ReplicaCalculator.Horizon horizon = new ReplicaCalculator.Horizon();
    PodFacts.Slot[] slots = state.slots;
    if (slots == null || slots.length != specs.size()) {
      slots = new PodFacts.Slot[specs.size()];
      for (int i = 0; i < slots.length; i++) {
        slots[i] = new PodFacts.Slot();
      }
      state.slots = slots;
    }
    for (int i = 0; i < specs.size(); i++) {
      MetricSpec spec = specs.get(i);
      long start = registry.enabled() ? System.nanoTime() : 0;
      try {
        One one = computeReplicasForMetric(namespace, spec, scale, pods, horizon, slots[i]);
        perMetric[i] = one.replicas;
        statuses.add(one.status);
        if (replicas == 0 || one.replicas > replicas) {
          replicas = one.replicas;
          metric = one.name;
        }
        if (registry.enabled()) {
          int current = hpa.status().currentReplicas();
          observeComputation(one.replicas > current ? HorizontalPodAutoscalerMetrics.SCALE_UP
              : one.replicas < current ? HorizontalPodAutoscalerMetrics.SCALE_DOWN : HorizontalPodAutoscalerMetrics.NONE,
              HorizontalPodAutoscalerMetrics.NONE, spec, start);
        }
      } catch (MetricsUnavailableException | IllegalArgumentException e) {
        if (registry.enabled()) {
          observeComputation(HorizontalPodAutoscalerMetrics.NONE, e instanceof IllegalArgumentException
              ? HorizontalPodAutoscalerMetrics.SPEC : HorizontalPodAutoscalerMetrics.INTERNAL, spec, start);
        }
        if (invalid == 0) {
          firstError = e.getMessage();
          String reason = e instanceof IllegalArgumentException ? "InvalidMetricSourceType" : failedReason(spec);
          firstCondition = HorizontalPodAutoscalerCondition.of(HorizontalPodAutoscalerConditionType.ScalingActive,
              ConditionStatus.False, reason, UNABLE + e.getMessage());
        }
        invalid++;
      }
    }
    String error = firstError == null ? null
        : "invalid metrics (" + invalid + " invalid out of " + specs.size() + "), first error is: " + firstError;
    if (invalid >= specs.size() || (invalid > 0 && replicas < scale.specReplicas())) {
      if (firstCondition != null) {
        conditions.set(firstCondition);
      }
      return new Proposal(-1, "", statuses, error, "");
    }
    String validMessage = validMetricMessage(metric);
    conditions.set(HorizontalPodAutoscalerConditionType.ScalingActive, ConditionStatus.True, "ValidMetricFound",
        validMessage);
    Proposal proposal = new Proposal(replicas, metric, List.copyOf(statuses), error, validMessage);
    if (invalid == 0 && versions != null && horizon.until().isAfter(clock.instant())) {
      state.memo = new Memo(hpa.spec(), scale, pods, selectors, versions, proposal, perMetric, horizon.until());
    }
    return proposal;
  }

  /** The ValidMetricFound message for {@code metric}: one string per metric name, not one per sync. */
  private String validMetricMessage(String metric) {
    return validMetricMessages.computeIfAbsent(metric,
        m -> "the HPA was able to successfully calculate a replica count from " + m);
  }

  /**
   * One {@link MetricsSource#resourceMetricsVersion} per metric, or null when a metric is not a resource metric or
   * its source gives no version (then nothing is reused).
   */
  private Object @Nullable [] versions(String namespace, TargetScale scale, List<MetricSpec> specs) {
    if (specs.isEmpty()) {
      return null;
    }
    Object[] out = new Object[specs.size()];
    for (int i = 0; i < out.length; i++) {
      MetricSpec spec = specs.get(i);
      String resource;
      if (spec.type() == io.fleetkit.api.autoscaling.MetricSourceType.Resource && spec.resource() != null) {
        resource = spec.resource().name();
      } else if (spec.type() == io.fleetkit.api.autoscaling.MetricSourceType.ContainerResource
          && spec.containerResource() != null) {
        resource = spec.containerResource().name();
      } else {
        return null;
      }
      Object v = metrics.resourceMetricsVersion(namespace, scale.selector(), resource);
      if (v == null) {
        return null;
      }
      out[i] = v;
    }
    return out;
  }

  /** Upstream's {@code ObserveMetricComputationResult}. */
  private void observeComputation(String action, String error, MetricSpec spec, long startNanos) {
    String type = spec.type().name();
    registry.counter(HorizontalPodAutoscalerMetrics.METRIC_COMPUTATION, action, error, type).increment();
    registry.histogram(HorizontalPodAutoscalerMetrics.METRIC_COMPUTATION_DURATION, action, error, type)
        .observeNanos(System.nanoTime() - startNanos);
  }

  /**
   * Upstream's {@code validateAndParseSelector}: an error message when a pod of this HPA's target is also selected
   * by another HPA's target in the namespace, else {@code null}.
   */
  private @Nullable String ambiguousSelector(HorizontalPodAutoscaler hpa, TargetScale scale, List<Pod> pods,
      List<TargetSelector> selectors) {
    if (pods.isEmpty()) {
      return null;
    }
    // Pods of one workload mostly share their labels: match each distinct label set once.
    String namespace = hpa.metadata().namespace();
    java.util.Collection<Map<String, String>> labelSets = this.pods.labelSets(namespace, scale.selector(), pods);
    SelectorMatches m = selectorMatches.get(namespace);
    if (m == null || !m.selectors().equals(selectors) || m.matching().size() > 10_000) {
      m = new SelectorMatches(selectors, new HashMap<>());
      selectorMatches.put(namespace, m);
    }
    boolean[] matched = new boolean[selectors.size()];
    for (Map<String, String> labels : labelSets) {
      for (int i : m.matching().computeIfAbsent(labels, l -> matchingSelectors(selectors, l))) {
        matched[i] = true;
      }
    }
    List<String> selecting = new ArrayList<>();
    selecting.add(namespace + "/" + hpa.metadata().name());
    for (int i = 0; i < matched.length; i++) {
      if (matched[i] && !selectors.get(i).name().equals(hpa.metadata().name())) {
        selecting.add(selectors.get(i).hpa());
      }
    }
    if (selecting.size() > 1) {
      return "pods by selector " + scale.selector().format() + " are controlled by multiple HPAs: " + selecting;
    }
    return null;
  }

  /**
   * The target selectors of {@code namespace}'s HPAs: read once per {@link #syncAll} round, and the same list as
   * last time while they are equal (so that comparing them is mostly a reference check).
   */
  private List<TargetSelector> selectorsOf(String namespace) {
    Map<String, List<TargetSelector>> round = roundSelectors;
    return round == null ? targetSelectors(namespace) : round.computeIfAbsent(namespace, this::targetSelectors);
  }

  /** The HPAs of {@code namespace} in listing order with their targets' selectors (unreadable targets left out). */
  private List<TargetSelector> targetSelectors(String namespace) {
    List<TargetSelector> read = readTargetSelectors(namespace);
    List<TargetSelector> last = lastSelectors.get(namespace);
    if (read.equals(last)) {
      return last;
    }
    lastSelectors.put(namespace, read);
    return read;
  }

  private List<TargetSelector> readTargetSelectors(String namespace) {
    List<TargetSelector> out = new ArrayList<>();
    long r = round;
    Map<TargetRef, HpaState> scaledBy = r != 0 ? new HashMap<>() : null;
    List<HorizontalPodAutoscaler> hpas = store.list(HorizontalPodAutoscaler.class, namespace).items();
    HpaState[] last = listingOrder.get(namespace);
    HpaState[] order = new HpaState[hpas.size()];
    for (int i = 0; i < order.length; i++) {
      HorizontalPodAutoscaler other = hpas.get(i);
      HpaState state = stateAt(namespace, other.metadata().name(), last, i);
      order[i] = state;
      try {
        CrossVersionObjectReference ref = other.spec().scaleTargetRef();
        TargetScale scale = state.readScale(store, namespace, ref);
        TargetSelector selector = state.selector;
        if (selector == null || selector.selector() != scale.selector()) {
          selector = new TargetSelector(other.metadata().name(), state.key, scale.selector());
          state.selector = selector;
        }
        out.add(selector);
        if (scaledBy != null) {
          HpaState first = scaledBy.putIfAbsent(new TargetRef(ref.kind(), ref.name()), state);
          if (first == null) {
            state.roundScale = scale;
            state.scaleRound = r;
          } else { // two HPAs scale one target: each sync reads it after the other's write
            first.roundScale = null;
          }
        }
      } catch (FleetKitException | IllegalArgumentException e) {
        // an HPA whose target cannot be read selects nothing
      }
    }
    listingOrder.put(namespace, order);
    return out;
  }

  private static int[] matchingSelectors(List<TargetSelector> selectors, Map<String, String> labels) {
    int[] out = new int[selectors.size()];
    int n = 0;
    for (int i = 0; i < selectors.size(); i++) {
      if (selectors.get(i).selector().matches(labels)) {
        out[n++] = i;
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  private static String failedReason(MetricSpec spec) {
    return switch (spec.type()) {
      case Resource -> "FailedGetResourceMetric";
      case ContainerResource -> "FailedGetContainerResourceMetric";
      case Pods -> "FailedGetPodsMetric";
      case Object -> "FailedGetObjectMetric";
      case External -> "FailedGetExternalMetric";
    };
  }

  private One computeReplicasForMetric(String namespace, MetricSpec spec, TargetScale scale, List<Pod> pods,
      ReplicaCalculator.Horizon horizon, PodFacts.Slot slot) {
    int specReplicas = scale.specReplicas();
    int statusReplicas = scale.statusReplicas();
    LabelSelector selector = scale.selector();
    switch (spec.type()) {
      case Resource -> {
        ResourceMetricSource r = require(spec.resource(), spec);
        MetricTarget t = r.target();
        if (t.type() == MetricTargetType.Utilization && t.averageUtilization() != null) {
          ReplicaCount c = calculator.resourceReplicas(specReplicas, t.averageUtilization(), r.name(), namespace,
              selector, pods, "", horizon, slot);
          return new One(c.replicas(), r.name() + " resource utilization (percentage of request)",
              MetricStatus.of(new ResourceMetricStatus(r.name(), average(c))));
        }
        Quantity avg = requireTarget(t.averageValue(), spec);
        ReplicaCount c = calculator.rawResourceReplicas(specReplicas, avg.milliValue(), r.name(), namespace, selector,
            pods, "", horizon);
        return new One(c.replicas(), r.name() + " resource",
            MetricStatus.of(new ResourceMetricStatus(r.name(), average(c))));
      }
      case ContainerResource -> {
        ContainerResourceMetricSource r = require(spec.containerResource(), spec);
        MetricTarget t = r.target();
        if (t.type() == MetricTargetType.Utilization && t.averageUtilization() != null) {
          ReplicaCount c = calculator.resourceReplicas(specReplicas, t.averageUtilization(), r.name(), namespace,
              selector, pods, r.container(), horizon, slot);
          return new One(c.replicas(), r.name() + " container resource utilization (percentage of request)",
              MetricStatus.of(new ContainerResourceMetricStatus(r.name(), r.container(), average(c))));
        }
        Quantity avg = requireTarget(t.averageValue(), spec);
        ReplicaCount c = calculator.rawResourceReplicas(specReplicas, avg.milliValue(), r.name(), namespace, selector,
            pods, r.container(), horizon);
        return new One(c.replicas(), r.name() + " container resource",
            MetricStatus.of(new ContainerResourceMetricStatus(r.name(), r.container(), average(c))));
      }
      case Pods -> {
        PodsMetricSource p = require(spec.pods(), spec);
        Quantity avg = requireTarget(p.target().averageValue(), spec);
        ReplicaCount c = calculator.podsMetricReplicas(specReplicas, avg.milliValue(), p.metric().name(), namespace,
            selector, p.metric().selector(), pods);
        return new One(c.replicas(), "pods metric " + p.metric().name(),
            MetricStatus.of(new PodsMetricStatus(p.metric(), average(c))));
      }
      case Object -> {
        ObjectMetricSource o = require(spec.object(), spec);
        String name = o.describedObject().kind() + " metric " + o.metric().name();
        if (o.target().type() == MetricTargetType.Value) {
          Quantity v = requireTarget(o.target().value(), spec);
          ReplicaCount c = calculator.objectMetricReplicas(specReplicas, v.milliValue(), o.metric().name(), namespace,
              o.describedObject(), o.metric().selector(), pods);
          return new One(c.replicas(), name, MetricStatus.of(new ObjectMetricStatus(o.metric(),
              MetricValueStatus.ofValue(Quantity.ofMilli(c.usage())), o.describedObject())));
        }
        Quantity avg = requireTarget(o.target().averageValue(), spec);
        ReplicaCount c = calculator.objectPerPodMetricReplicas(statusReplicas, avg.milliValue(), o.metric().name(),
            namespace, o.describedObject(), o.metric().selector());
        return new One(c.replicas(), name,
            MetricStatus.of(new ObjectMetricStatus(o.metric(), average(c), o.describedObject())));
      }
      case External -> {
        ExternalMetricSource e = require(spec.external(), spec);
        LabelSelector ms = e.metric().selector();
        String name = "external metric " + e.metric().name() + "(" + (ms == null ? "nil" : ms.format()) + ")";
        if (e.target().type() == MetricTargetType.Value) {
          Quantity v = requireTarget(e.target().value(), spec);
          ReplicaCount c = calculator.externalMetricReplicas(specReplicas, v.milliValue(), e.metric().name(),
              namespace, ms, pods);
          return new One(c.replicas(), name, MetricStatus.of(new ExternalMetricStatus(e.metric(),
              MetricValueStatus.ofValue(Quantity.ofMilli(c.usage())))));
        }
        Quantity avg = requireTarget(e.target().averageValue(), spec);
        ReplicaCount c = calculator.externalPerPodMetricReplicas(statusReplicas, avg.milliValue(), e.metric().name(),
            namespace, ms);
        return new One(c.replicas(), name, MetricStatus.of(new ExternalMetricStatus(e.metric(), average(c))));
      }
    }
    throw new IllegalArgumentException("unknown metric source type \"" + spec.type() + "\"");
  }

  private static MetricValueStatus average(ReplicaCount c) {
    return MetricValueStatus.ofAverage(Quantity.ofMilli(c.usage()), c.utilization());
  }

  private static <T> T require(@Nullable T source, MetricSpec spec) {
    if (source == null) {
      throw new IllegalArgumentException("invalid metric source: " + spec.type() + " metric without its source");
    }
    return source;
  }

  private static Quantity requireTarget(@Nullable Quantity q, MetricSpec spec) {
    if (q == null) {
      throw new IllegalArgumentException("invalid metric source: " + spec.type() + " metric without its target");
    }
    return q;
  }

  private record One(int replicas, String name, MetricStatus status) {}

  /**
   * A proposal: the replica count (-1 when none), the metric that decided it, the metric statuses, the error of
   * the metrics that failed, and (for a count) the ValidMetricFound message, kept with it for the syncs that reuse it.
   */
  private record Proposal(int replicas, String metricName, List<MetricStatus> statuses, @Nullable String error,
      String validMessage) {}

  /**
   * {@code setCondition}: one condition per type, keeping the transition time while the status is unchanged. The
   * conditions by type are made only when one changes: most syncs set each condition as it already is.
   */
  private static final class Conditions {
    private static final HorizontalPodAutoscalerConditionType[] TYPES = HorizontalPodAutoscalerConditionType.values();

    private final List<HorizontalPodAutoscalerCondition> existing;
    /**
     * The conditions by type ordinal, once one was set to something new (an array: most syncs set a condition to
     * another and back, AbleToScale's SucceededGetScale before the normalizer's); null while they are
     * {@link #existing}.
     */
    private HorizontalPodAutoscalerCondition @Nullable [] byType;
    private final Instant now;

    Conditions(List<HorizontalPodAutoscalerCondition> existing, Instant now) {
      this.existing = existing;
      this.now = now;
    }

    /** The condition of {@code type}: of several in {@link #existing}, the last (as putting them all in a map). */
    private @Nullable HorizontalPodAutoscalerCondition get(HorizontalPodAutoscalerConditionType type) {
      HorizontalPodAutoscalerCondition[] m = byType;
      if (m != null) {
        return m[type.ordinal()];
      }
      for (int i = existing.size() - 1; i >= 0; i--) {
        HorizontalPodAutoscalerCondition c = existing.get(i);
        if (c.type() == type) {
          return c;
        }
      }
      return null;
    }

    private HorizontalPodAutoscalerCondition[] byType() {
      HorizontalPodAutoscalerCondition[] m = byType;
      if (m == null) {
        m = new HorizontalPodAutoscalerCondition[TYPES.length];
        for (HorizontalPodAutoscalerCondition c : existing) {
          m[c.type().ordinal()] = c;
        }
        byType = m;
      }
      return m;
    }

    void set(HorizontalPodAutoscalerConditionType type, ConditionStatus status, String reason, String message) {
      HorizontalPodAutoscalerCondition old = get(type);
      Instant transition = old != null && old.status() == status && old.lastTransitionTime() != null
          ? old.lastTransitionTime() : now;
      if (old != null && old.status() == status && transition == old.lastTransitionTime()
          && old.reason().equals(reason) && old.message().equals(message)) {
        return; // the condition it would make is the one it has (most syncs): kept, not made again
      }
      byType()[type.ordinal()] = new HorizontalPodAutoscalerCondition(type, status, transition, reason, message);
    }

    void set(HorizontalPodAutoscalerCondition c) {
      set(c.type(), c.status(), c.reason(), c.message());
    }

    /** The conditions in type order. */
    List<HorizontalPodAutoscalerCondition> list() {
      if (byType == null && inTypeOrder(existing)) {
        return List.copyOf(existing); // what the map would list: the same conditions in the same order
      }
      List<HorizontalPodAutoscalerCondition> out = new ArrayList<>(TYPES.length);
      for (HorizontalPodAutoscalerCondition c : byType()) {
        if (c != null) {
          out.add(c);
        }
      }
      return List.copyOf(out);
    }

    /** Whether each condition's type comes after the one before's (so no type twice). */
    private static boolean inTypeOrder(List<HorizontalPodAutoscalerCondition> conditions) {
      for (int i = 1; i < conditions.size(); i++) {
        if (conditions.get(i - 1).type().ordinal() >= conditions.get(i).type().ordinal()) {
          return false;
        }
      }
      return true;
    }
  }

  /** Builder with Kubernetes' controller defaults. Not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private final MetricsSource metrics;
    private Clock clock = Clock.systemUTC();
    private double tolerance = ReplicaCalculator.DEFAULT_TOLERANCE;
    private Duration cpuInitializationPeriod = ReplicaCalculator.DEFAULT_CPU_INITIALIZATION_PERIOD;
    private Duration initialReadinessDelay = ReplicaCalculator.DEFAULT_INITIAL_READINESS_DELAY;
    private Duration downscaleStabilization = Duration.ofMinutes(5);
    private Duration syncPeriod = DEFAULT_SYNC_PERIOD;
    private MetricsRegistry registry = MetricsRegistry.NOOP;
    private @Nullable PodLister pods;

    private Builder(ObjectStore store, MetricsSource metrics) {
      this.store = Objects.requireNonNull(store, "store");
      this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    public Builder clock(Clock v) { clock = Objects.requireNonNull(v, "clock"); return this; }
    public Builder tolerance(double v) { tolerance = v; return this; }
    public Builder cpuInitializationPeriod(Duration v) { cpuInitializationPeriod = v; return this; }
    public Builder initialReadinessDelay(Duration v) { initialReadinessDelay = v; return this; }
    public Builder downscaleStabilization(Duration v) { downscaleStabilization = v; return this; }
    public Builder syncPeriod(Duration v) { syncPeriod = v; return this; }

    /**
     * Where the controller reads a target's pods; default {@link PodLister#of} the store (a list per sync). A
     * {@link WatchedPods} over the same store gives the same pods and lets an unchanged HPA be recognised at once.
     */
    public Builder pods(PodLister v) { pods = Objects.requireNonNull(v, "pods"); return this; }

    /** Records {@link HorizontalPodAutoscalerMetrics} into {@code v}; default none. */
    public Builder metricsRegistry(MetricsRegistry v) { registry = Objects.requireNonNull(v, "registry"); return this; }

    public HorizontalPodAutoscalerController build() {
      return new HorizontalPodAutoscalerController(this);
    }
  }

  /** The HPA named {@code namespace/name}, if present (a convenience for tests and samples). */
  public Optional<HorizontalPodAutoscaler> get(String namespace, String name) {
    return store.get(HorizontalPodAutoscaler.class, namespace, name);
  }
}
