package io.fleetkit.autoscale.queue;

import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerSpec;
import io.fleetkit.api.autoscaling.MetricTargetType;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.autoscale.hpa.MetricsSource;
import io.fleetkit.autoscale.hpa.MetricsUnavailableException;
import io.fleetkit.autoscale.hpa.ReplicaCalculator;
import io.fleetkit.autoscale.hpa.ReplicaCount;
import io.fleetkit.autoscale.hpa.ReplicaNormalizer;
import io.fleetkit.autoscale.hpa.TargetScale;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls {@link ScaledObject}s and scales their targets in an {@link ObjectStore}, as KEDA's scale executor and the
 * HPA it creates do together:
 *
 * <ol>
 *   <li>Each trigger's {@link Scaler} is read; the object is <b>active</b> when any value is above its activation
 *       threshold, and the time is remembered as {@code lastActiveTime}.</li>
 *   <li>Active at 0 (or at {@code idleReplicaCount}) replicas: <b>activation</b> to {@code max(minReplicaCount, 1)}.
 *       </li>
 *   <li>Otherwise from 1 to N the <b>HPA math</b> decides: per trigger an External metric proposal
 *       ({@code ceil(value / target)} for AverageValue targets, within the 10% tolerance of the current replicas
 *       kept), the largest wins, then the HPA's stabilization, behavior and bounds
 *       {@code [max(minReplicaCount, 1), maxReplicaCount]}.</li>
 *   <li>Inactive above the resting count with {@code minReplicaCount == 0} (or an idle count): once
 *       {@code lastActiveTime + cooldownPeriod} is in the past (or the object was never active), <b>back to
 *       rest</b>.</li>
 * </ol>
 *
 * <p>Thread-safe: registration and polling synchronize on this controller.
 */
public final class ScaledObjectController {
  private static final Logger LOG = LoggerFactory.getLogger(ScaledObjectController.class);

  private final ObjectStore store;
  private final Clock clock;
  private final double tolerance;
  private final ReplicaNormalizer normalizer;
  private final Map<String, Entry> objects = new LinkedHashMap<>();
  private final EventRecorder events;

  /** KEDA's event reasons ({@code pkg/eventreason}), recorded on the ScaledObject. */
  public static final String ACTIVATED = "KEDAScaleTargetActivated";
  public static final String ACTIVATION_FAILED = "KEDAScaleTargetActivationFailed";
  public static final String DEACTIVATED = "KEDAScaleTargetDeactivated";
  public static final String DEACTIVATION_FAILED = "KEDAScaleTargetDeactivationFailed";
  /**
   * KEDA's reconciler: the scale target is missing or cannot be scaled (Warning); also the {@link ScaleDecision#reason()}
   * of such a poll.
   */
  public static final String CHECK_FAILED = "ScaledObjectCheckFailed";
  /** KEDA's reconciler: the object's scalers were built and started (Normal). */
  public static final String SCALERS_STARTED = "KEDAScalersStarted";
  /** KEDA's reconciler: the object passed its checks and is scaled from now on (Normal). */
  public static final String READY = "ScaledObjectReady";

  /** KEDA's messages ({@code pkg/common/message}). */
  static final String SCALE_TARGET_ERR = "ScaledObject doesn't have correct scaleTargetRef specification";
  static final String SCALE_TARGET_NOT_FOUND = "Target resource doesn't exist";
  static final String SCALE_TARGET_NO_SUBRESOURCE = "Target resource doesn't expose /scale subresource";

  private ScaledObjectController(ObjectStore store, Clock clock, double tolerance, EventRecorder events) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.tolerance = tolerance;
    this.normalizer = ReplicaNormalizer.withDefaults(clock);
    this.events = EventRecorder.bestEffort(Objects.requireNonNull(events, "events"));
  }

  /** A controller with the HPA's default tolerance (0.1). */
  public static ScaledObjectController create(ObjectStore store, Clock clock) {
    return create(store, clock, EventRecorder.NOOP);
  }

  /**
   * A controller that records KEDA's events on the ScaledObject (its scale executor's,
   * {@code pkg/scaling/executor/scale_scaledobjects.go}): {@value #ACTIVATED} when it activates the target
   * ({@code Scaled apps/v1.Deployment ns/name from 0 to 1, triggered by <active triggers>}), {@value #DEACTIVATED}
   * when it brings it back to its resting count ({@code Deactivated apps/v1.Deployment ns/name from 3 to 0}), and
   * Warnings {@value #ACTIVATION_FAILED} and {@value #DEACTIVATION_FAILED} when that write failed. Scaling between 1
   * and N is the HPA's part in KEDA and records nothing here. Its reconciler's events too: at the first poll that finds
   * the scale target, {@value #SCALERS_STARTED} ({@code Scaler <trigger> is built} per trigger, then
   * {@code Started scalers watch}) and {@value #READY} ({@code ScaledObject is ready for scaling}); when the target is
   * missing or has no scale subresource, two Warnings {@value #CHECK_FAILED} ({@code Target resource doesn't exist} or
   * {@code Target resource doesn't expose /scale subresource}, then
   * {@code ScaledObject doesn't have correct scaleTargetRef specification}), once until the check passes again. A
   * recorder that throws is logged and passed over.
   */
  public static ScaledObjectController create(ObjectStore store, Clock clock, EventRecorder events) {
    return new ScaledObjectController(store, clock, ReplicaCalculator.DEFAULT_TOLERANCE, events);
  }

  /**
   * Registers (or replaces) a ScaledObject with the scaler of each trigger.
   *
   * @throws IllegalArgumentException when a trigger has no scaler
   */
  public synchronized void register(ScaledObject object, Map<String, Scaler> scalers) {
    for (ScaleTrigger t : object.triggers()) {
      if (!scalers.containsKey(t.name())) {
        throw new IllegalArgumentException("scaledobject " + object.key() + ": trigger \"" + t.name()
            + "\" has no scaler (registered: " + scalers.keySet() + ")");
      }
    }
    Entry old = objects.get(object.key());
    Entry e = new Entry(object, Map.copyOf(scalers));
    if (old != null) {
      e.lastActiveTime = old.lastActiveTime;
      e.ready = old.ready; // new scalers are started (and announced) again; readiness is the object's
    }
    objects.put(object.key(), e);
  }

  /** Forgets a ScaledObject; its target keeps its replicas. */
  public synchronized void unregister(String namespace, String name) {
    objects.remove(namespace + "/" + name);
    normalizer.forget(namespace + "/" + name);
  }

  /** When a trigger of the object was last active, if ever. */
  public synchronized Optional<Instant> lastActiveTime(String namespace, String name) {
    Entry e = objects.get(namespace + "/" + name);
    return e == null ? Optional.empty() : Optional.ofNullable(e.lastActiveTime);
  }

  /** Polls every object whose polling interval has passed since its last poll (all of them on the first call). */
  public synchronized List<ScaleDecision> pollDue() {
    Instant now = clock.instant();
    List<ScaleDecision> out = new ArrayList<>();
    for (Entry e : objects.values()) {
      Instant last = e.lastPoll;
      if (last == null || !now.isBefore(last.plus(e.object.pollingInterval()))) {
        out.add(poll(e.object.namespace(), e.object.name()));
      }
    }
    return out;
  }

  /**
   * Polls one object now and scales its target.
   *
   * <p>When the scale target does not exist or has no scale subresource, nothing is read or scaled and the decision's
   * reason is {@value #CHECK_FAILED}, its error saying which; {@link #pollDue} goes on to the other objects.
   *
   * @throws IllegalArgumentException when the object is not registered
   */
  public synchronized ScaleDecision poll(String namespace, String name) {
    Entry e = objects.get(namespace + "/" + name);
    if (e == null) {
      throw new IllegalArgumentException("scaledobject " + namespace + "/" + name + " is not registered");
    }
    ScaledObject so = e.object;
    Instant now = clock.instant();
    e.lastPoll = now;
    // KEDA's reconciler checks the target before it starts the scalers (checkTargetResourceIsScalable)
    TargetScale scale;
    try {
      scale = TargetScale.read(store, so.namespace(), so.scaleTargetRef());
    } catch (io.fleetkit.api.NotFoundException | IllegalArgumentException ex) {
      String why = ex instanceof io.fleetkit.api.NotFoundException ? SCALE_TARGET_NOT_FOUND
          : SCALE_TARGET_NO_SUBRESOURCE;
      if (e.ready || !why.equals(e.checkFailure)) {
        record(so, CHECK_FAILED, why);
        record(so, CHECK_FAILED, SCALE_TARGET_ERR);
      }
      e.ready = false;
      e.scalersStarted = false;
      e.checkFailure = why;
      LOG.debug("scaledobject {}: {}: {}", so.key(), SCALE_TARGET_ERR, ex.getMessage());
      return new ScaleDecision(0, 0, false, CHECK_FAILED, Map.of(),
          SCALE_TARGET_ERR + ": " + why + ": " + ex.getMessage());
    }
    e.checkFailure = null;
    if (!e.scalersStarted) {
      e.scalersStarted = true;
      for (ScaleTrigger t : so.triggers()) {
        record(so, SCALERS_STARTED, "Scaler " + t.name() + " is built");
      }
      record(so, SCALERS_STARTED, "Started scalers watch");
    }
    if (!e.ready) {
      e.ready = true;
      record(so, READY, "ScaledObject is ready for scaling");
    }

    Map<String, Double> values = new LinkedHashMap<>();
    List<String> errors = new ArrayList<>();
    boolean active = false;
    for (ScaleTrigger t : so.triggers()) {
      try {
        double v = e.scalers.get(t.name()).currentValue();
        values.put(t.name(), v);
        if (v > t.activationThreshold()) {
          active = true;
        }
      } catch (RuntimeException ex) {
        errors.add(t.name() + ": " + ex.getMessage());
      }
    }
    String error = errors.isEmpty() ? null : String.join("; ", errors);
    int current = scale.specReplicas();
    if (values.isEmpty()) {
      return new ScaleDecision(current, current, false, "ScalerError", values, error);
    }
    if (active) {
      e.lastActiveTime = now;
    }
    int resting = so.restingReplicas();
    int hpaMin = Math.max(so.minReplicaCount(), 1);
    // KEDA's RequestScale: active at 0, or with an idle count below the minimum, activates
    if (active && (current == 0 || (so.idleReplicaCount() != null && current < so.minReplicaCount()))) {
      int target = Math.min(hpaMin, so.maxReplicaCount());
      ScaleDecision d = write(so, current, target, true, "Activated", values, error);
      if (events != EventRecorder.NOOP) {
        StringBuilder triggers = new StringBuilder();
        for (ScaleTrigger t : so.triggers()) {
          Double v = values.get(t.name());
          if (v != null && v > t.activationThreshold()) {
            triggers.append(triggers.length() == 0 ? "" : ";").append(t.name());
          }
        }
        record(so, d.reason().equals("ScaleError") ? ACTIVATION_FAILED : ACTIVATED, d.reason().equals("ScaleError")
            ? "Failed to scaled " + targetOf(so) + " from " + current + " to " + target
            : "Scaled " + targetOf(so) + " from " + current + " to " + target + ", triggered by " + triggers);
      }
      return d;
    }
    boolean mayRest = so.minReplicaCount() == 0 || so.idleReplicaCount() != null;
    if (!active && current > resting && mayRest) {
      Instant lastActive = e.lastActiveTime;
      if (lastActive == null || lastActive.plus(so.cooldownPeriod()).isBefore(now)) {
        ScaleDecision d = write(so, current, resting, false, "ScaledToIdle", values, error);
        if (events != EventRecorder.NOOP) {
          boolean failed = d.reason().equals("ScaleError");
          record(so, failed ? DEACTIVATION_FAILED : DEACTIVATED, (failed ? "Failed to deactivate " : "Deactivated ")
              + targetOf(so) + " from " + current + " to " + resting);
        }
        return d;
      }
      int n = hpaReplicas(so, scale, values, hpaMin);
      return write(so, current, n, false, n == current ? "CooldownPending" : "Scaled", values, error);
    }
    if (current == 0 || (!active && current == resting && mayRest)) {
      return new ScaleDecision(current, current, active, "Held", values, error);
    }
    int n = hpaReplicas(so, scale, values, hpaMin);
    return write(so, current, n, active, n == current ? "Held" : "Scaled", values, error);
  }

  /** The HPA's answer for 1 to N: bounds first, else the largest External-metric proposal, normalized. */
  private int hpaReplicas(ScaledObject so, TargetScale scale, Map<String, Double> values, int hpaMin) {
    int current = scale.specReplicas();
    if (current > so.maxReplicaCount()) {
      return so.maxReplicaCount();
    }
    if (current < hpaMin) {
      return hpaMin;
    }
    MetricsSource source = new MetricsSource() {
      @Override
      public List<Long> externalMetric(String namespace, String metricName, @Nullable LabelSelector selector) {
        Double v = values.get(metricName);
        if (v == null) {
          throw new MetricsUnavailableException("no value for trigger " + metricName);
        }
        return List.of(milli(v));
      }
    };
    ReplicaCalculator calc = new ReplicaCalculator(source, clock, tolerance, ReplicaCalculator.DEFAULT_CPU_INITIALIZATION_PERIOD,
        ReplicaCalculator.DEFAULT_INITIAL_READINESS_DELAY);
    List<Pod> pods = null;
    int desired = 0;
    boolean any = false;
    for (ScaleTrigger t : so.triggers()) {
      if (!values.containsKey(t.name())) {
        continue;
      }
      ReplicaCount c;
      try {
        if (t.targetType() == MetricTargetType.AverageValue) {
          c = calc.externalPerPodMetricReplicas(scale.statusReplicas(), milli(t.target()), t.name(), so.namespace(),
              null);
        } else {
          if (pods == null) {
            pods = store.list(Pod.class, so.namespace(), scale.selector()).items();
          }
          c = calc.externalMetricReplicas(current, milli(t.target()), t.name(), so.namespace(), null, pods);
        }
      } catch (MetricsUnavailableException ex) {
        LOG.debug("scaledobject {}: trigger {}: {}", so.key(), t.name(), ex.getMessage());
        continue;
      }
      if (!any || c.replicas() > desired) {
        desired = c.replicas();
        any = true;
      }
    }
    if (!any) {
      return current;
    }
    HorizontalPodAutoscalerSpec spec = HorizontalPodAutoscalerSpec.builder().scaleTargetRef(so.scaleTargetRef())
        .minReplicas(hpaMin).maxReplicas(so.maxReplicaCount()).behavior(so.behavior()).build();
    normalizer.recordInitialRecommendation(so.key(), current);
    return normalizer.normalize(so.key(), spec, current, desired).replicas();
  }

  private ScaleDecision write(ScaledObject so, int current, int target, boolean active, String reason,
      Map<String, Double> values, @Nullable String error) {
    if (target != current) {
      try {
        TargetScale.write(store, so.namespace(), so.scaleTargetRef(), target);
      } catch (FleetKitException ex) {
        String msg = "failed to scale " + so.scaleTargetRef() + " to " + target + ": " + ex.getMessage();
        return new ScaleDecision(current, current, active, "ScaleError", values,
            error == null ? msg : error + "; " + msg);
      }
      normalizer.storeScaleEvent(so.behavior(), so.key(), current, target);
      LOG.debug("scaledobject {}: {} -> {} ({})", so.key(), current, target, reason);
    }
    return new ScaleDecision(current, target, active, reason, values, error);
  }

  /** KEDA's {@code <scaleTargetKind> <namespace>/<name>}: {@code apps/v1.Deployment ns/web}. */
  private static String targetOf(ScaledObject so) {
    return so.scaleTargetRef().apiVersion() + "." + so.scaleTargetRef().kind() + " " + so.namespace() + "/"
        + so.scaleTargetRef().name();
  }

  /** Records an event on {@code so}: Normal, or Warning for the failures. */
  private void record(ScaledObject so, String reason, String note) {
    if (events == EventRecorder.NOOP) {
      return;
    }
    String type = reason.endsWith("Failed") ? Event.WARNING : Event.NORMAL;
    String action = switch (reason) {
      case ACTIVATED -> "Activated";
      case DEACTIVATED -> "Deactivated";
      case CHECK_FAILED -> "Check";
      case SCALERS_STARTED -> "Start";
      case READY -> "Ready";
      default -> "Failed";
    };
    events.event(new ObjectReference("keda.sh/v1alpha1", "ScaledObject", so.namespace(), so.name(), "", ""), null,
        type, reason, action, note);
  }

  private static long milli(double v) {
    double m = Math.rint(v * 1000.0);
    return m >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) m;
  }

  /** Per-object state: the spec, its scalers and the times of the last poll and the last activity. */
  private static final class Entry {
    final ScaledObject object;
    final Map<String, Scaler> scalers;
    @Nullable Instant lastPoll;
    @Nullable Instant lastActiveTime;
    /** Whether the scalers' start was announced, the target found ready, the last check's failure if it failed. */
    boolean scalersStarted;
    boolean ready;
    @Nullable String checkFailure;

    Entry(ScaledObject object, Map<String, Scaler> scalers) {
      this.object = object;
      this.scalers = scalers;
    }
  }

  /** The controller's clock period helper for callers that step time: the shortest polling interval. */
  public synchronized Duration shortestPollingInterval() {
    return objects.values().stream().map(e -> e.object.pollingInterval()).min(Duration::compareTo)
        .orElse(ScaledObject.DEFAULT_POLLING_INTERVAL);
  }
}
