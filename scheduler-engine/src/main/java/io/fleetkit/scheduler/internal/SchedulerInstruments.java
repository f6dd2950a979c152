package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Gauge;
import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.api.tracing.TraceSpan;
import io.fleetkit.api.tracing.Tracing;
import io.fleetkit.scheduler.metrics.SchedulerMetrics;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * The scheduler's metrics and events, behind a few hooks the scheduling cycle calls. Exists only when a registry or
 * an event recorder was given (the scheduler holds {@code null} otherwise and skips every hook). Confined to the
 * scheduler's lock.
 */
final class SchedulerInstruments {

  private final MetricsRegistry metrics;
  private final boolean metricsOn;
  private final EventRecorder events;
  /** Whether an event recorder other than {@link EventRecorder#NOOP} was given. */
  private final boolean eventsOn;
  private final Tracing tracing;
  private final boolean tracingOn;
  /**
   * The running attempt's span and its open extension point's span; null when not tracing, outside an attempt, or
   * when the sampler dropped the attempt's span.
   */
  private @Nullable TraceSpan attempt;
  private @Nullable TraceSpan point;
  /** Series bound once per profile, so a hook looks nothing up by a concatenated key. */
  private final Map<String, ProfileSeries> profiles = new HashMap<>();
  /**
   * {@code scheduler_queue_incoming_pods_total} by queue (active, backoff, unschedulable), then by event: the
   * counter's slot in {@link #buffer}.
   */
  @SuppressWarnings("unchecked")
  private final Map<String, Integer>[] incoming = new Map[] {new HashMap<>(), new HashMap<>(), new HashMap<>()};
  /** Per queue, the event of its last incoming pod and that counter's slot in {@link #buffer}. */
  private final @Nullable String[] lastIncomingEvent = new String[3];
  private final int[] lastIncomingSlot = new int[3];
  private static final String[] QUEUES = {"active", "backoff", "unschedulable"};
  private static final String[] RESULTS = {SchedulerMetrics.SCHEDULED, SchedulerMetrics.UNSCHEDULABLE,
      SchedulerMetrics.ERROR};
  /** The extension points timed as a whole, kube's {@code extension_point} values, indexed by the constants below. */
  static final String[] POINTS = {"PreFilter", "Filter", "PostFilter", "PreScore", "Score", "Reserve", "Unreserve",
      "Permit", "PreBind", "Bind", "PostBind"};
  static final int PRE_FILTER = 0;
  static final int FILTER = 1;
  static final int POST_FILTER = 2;
  static final int PRE_SCORE = 3;
  static final int SCORE = 4;
  static final int RESERVE = 5;
  static final int UNRESERVE = 6;
  static final int PERMIT = 7;
  static final int PRE_BIND = 8;
  static final int BIND = 9;
  static final int POST_BIND = 10;
  private static final Status.Code[] CODES = Status.Code.values();

  /**
   * One profile's attempt and extension-point series, bound on first use: their slots in {@link #buffer} (-1 until
   * bound).
   */
  private static final class ProfileSeries {
    final int[] attempts = unbound(RESULTS.length);
    final int[] durations = unbound(RESULTS.length);
    final int[][] points = new int[POINTS.length][];
    /** {@code scheduler_unschedulable_pods} by plugin. */
    final Map<String, Gauge> unschedulable = new HashMap<>();

    ProfileSeries() {
      for (int p = 0; p < points.length; p++) {
        points[p] = unbound(CODES.length);
      }
    }
  }

  /** {@code n} slots, none bound yet. */
  static int[] unbound(int n) {
    int[] slots = new int[n];
    java.util.Arrays.fill(slots, -1);
    return slots;
  }

  /** The last profile looked up and its series: a scheduler with one profile looks up nothing per attempt. */
  private @Nullable String lastProfile;
  private @Nullable ProfileSeries lastSeries;

  private ProfileSeries series(String profile) {
    if (profile == lastProfile) {
      return lastSeries;
    }
    ProfileSeries p = profiles.get(profile);
    if (p == null) {
      p = new ProfileSeries();
      profiles.put(profile, p);
    }
    lastProfile = profile;
    lastSeries = p;
    return p;
  }
  /** {@code scheduler_pod_scheduling_sli_duration_seconds} by attempts (index): slots, bound on first use. */
  private int[] sli = unbound(8);

  private int sli(int attempts) {
    if (attempts >= sli.length) {
      int old = sli.length;
      sli = java.util.Arrays.copyOf(sli, Math.max(attempts + 1, old * 2));
      java.util.Arrays.fill(sli, old, sli.length, -1);
    }
    int slot = sli[attempts];
    if (slot < 0) {
      slot = sli[attempts] = buffer.histogram(metrics.histogram(SchedulerMetrics.POD_SCHEDULING_SLI_DURATION,
          Integer.toString(attempts)), true);
    }
    return slot;
  }
  private final @Nullable Gauge active;
  private final @Nullable Gauge backoff;
  private final @Nullable Gauge unschedulable;
  private final @Nullable Gauge gated;
  private final @Nullable Counter preemptionAttempts;
  private final @Nullable Histogram preemptionVictims;
  /** Slots in {@link #buffer}; -1 without a registry. */
  private final int podAttempts;
  private final int algorithm;
  private final @Nullable Gauge cacheNodes;
  private final @Nullable Gauge cachePods;
  private final @Nullable Gauge cacheAssumed;

  /**
   * Per-attempt observations (and the sampled cycles' plugin durations, {@link PluginTimings}), handed to their series
   * in batches ({@link #flush()}).
   */
  private final ObservationBuffer buffer = new ObservationBuffer();

  /** The buffer the scheduling thread holds its observations in until the next {@link #flush()}. */
  ObservationBuffer buffer() {
    return buffer;
  }

  /** Hands the observations held since the last flush to their series. */
  void flush() {
    buffer.flush();
  }

  /** Draws which cycles time their plugins; its own generator, so sampling never shifts the scheduler's draws. */
  private final SplittableRandom sampler;

  private final int samplePercent;

  private SchedulerInstruments(MetricsRegistry metrics, EventRecorder events, Tracing tracing, long seed,
      int samplePercent) {
    this.samplePercent = samplePercent;
    this.metrics = metrics;
    this.metricsOn = metrics.enabled();
    this.sampler = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
    this.events = EventRecorder.bestEffort(events);
    this.eventsOn = events != EventRecorder.NOOP;
    this.tracing = tracing;
    this.tracingOn = tracing.enabled();
    if (metricsOn) {
      active = metrics.gauge(SchedulerMetrics.PENDING_PODS, "active");
      backoff = metrics.gauge(SchedulerMetrics.PENDING_PODS, "backoff");
      unschedulable = metrics.gauge(SchedulerMetrics.PENDING_PODS, "unschedulable");
      gated = metrics.gauge(SchedulerMetrics.PENDING_PODS, "gated");
      preemptionAttempts = metrics.counter(SchedulerMetrics.PREEMPTION_ATTEMPTS);
      preemptionVictims = metrics.histogram(SchedulerMetrics.PREEMPTION_VICTIMS);
      podAttempts = buffer.histogram(metrics.histogram(SchedulerMetrics.POD_SCHEDULING_ATTEMPTS), false);
      algorithm = buffer.histogram(metrics.histogram(SchedulerMetrics.SCHEDULING_ALGORITHM_DURATION), true);
      cacheNodes = metrics.gauge(SchedulerMetrics.CACHE_SIZE, "nodes");
      cachePods = metrics.gauge(SchedulerMetrics.CACHE_SIZE, "pods");
      cacheAssumed = metrics.gauge(SchedulerMetrics.CACHE_SIZE, "assumed_pods");
    } else {
      cacheNodes = cachePods = cacheAssumed = null;
      active = backoff = unschedulable = gated = null;
      preemptionAttempts = null;
      preemptionVictims = null;
      podAttempts = algorithm = -1;
    }
  }

  /** The instruments, or {@code null} when no metrics, events or traces are wanted. */
  static @Nullable SchedulerInstruments of(MetricsRegistry metrics, EventRecorder events, Tracing tracing,
      long seed, int samplePercent) {
    return metrics.enabled() || events != EventRecorder.NOOP || tracing.enabled()
        ? new SchedulerInstruments(metrics, events, tracing, seed, samplePercent) : null;
  }

  /**
   * Whether the cycle starting now times its plugins and extension points: true for the configured percentage of
   * cycles (10 by default), as kube's {@code rand.Intn(100) < pluginMetricsSamplePercent}; always false without a
   * registry.
   */
  boolean samplePluginMetrics() {
    return metricsOn && samplePercent > 0 && (samplePercent >= 100 || sampler.nextInt(100) < samplePercent);
  }

  /**
   * A scheduling attempt of {@code pod} starts: opens its span (continuing the trace in the pod's
   * {@value Tracing#TRACEPARENT_ANNOTATION} annotation, if any).
   *
   * @return {@link System#nanoTime()} at the start
   */
  long attemptStart(Pod pod, String profile, int attemptNumber) {
    if (tracingOn) {
      String parent = pod.metadata().annotations().get(Tracing.TRACEPARENT_ANNOTATION);
      TraceSpan span = parent == null ? tracing.start(Tracing.SPAN_SCHEDULE, (TraceSpan) null)
          : tracing.start(Tracing.SPAN_SCHEDULE, Map.of("traceparent", parent));
      if (span.isRecording()) {
        attempt = span.attribute("k8s.namespace.name", pod.metadata().namespace())
            .attribute("k8s.pod.name", pod.metadata().name())
            .attribute("fleetkit.profile", profile)
            .attribute("fleetkit.attempt", attemptNumber);
      } else {
        span.end(); // sampled out: no attributes, no children (they would be dropped too)
      }
    }
    inAttempt = true;
    return System.nanoTime();
  }

  /**
   * The attempt is over: observes the extension-point durations it held and ends any span still open (an attempt that
   * ended in an error or a Permit wait).
   */
  void attemptDone() {
    inAttempt = false;
    for (int i = 0; i < heldPoints; i++) {
      extensionPoint(heldPoint[i], heldCode[i], heldProfile[i], heldNanos[i]);
      heldProfile[i] = null;
    }
    heldPoints = 0;
    if (point != null) {
      point.end();
      point = null;
    }
    if (attempt != null) {
      attempt.end();
      attempt = null;
    }
  }

  /** Whether an attempt is running (between {@link #attemptStart} and {@link #attemptDone}). */
  private boolean inAttempt;
  /**
   * The running attempt's extension-point durations, observed when it is done ({@link #attemptDone}): nothing is
   * observed between two points, so a point that starts where the previous one ended times none of it.
   */
  private final int[] heldPoint = new int[POINTS.length];
  private final Status.Code[] heldCode = new Status.Code[POINTS.length];
  private final @Nullable String[] heldProfile = new String[POINTS.length];
  private final long[] heldNanos = new long[POINTS.length];
  private int heldPoints;

  /**
   * An extension point of a cycle with {@code state} starts running its plugins: opens its span under the attempt's
   * and, when the cycle is sampled or traced, takes the start time.
   *
   * <p>In a sampled cycle consecutive boundaries share one clock read: {@code chained} says the point follows the
   * previous one directly (nothing but a status check between them), so it starts at the previous point's end
   * ({@link ArrayCycleState#clockMark}) instead of reading the clock. Not when the point has a span to open.
   *
   * @return the start ({@link System#nanoTime()}), for {@link #end}
   */
  long begin(int extensionPoint, ArrayCycleState state, boolean chained) {
    return begin(extensionPoint, state, chained, false);
  }

  /**
   * {@link #begin(int, ArrayCycleState, boolean)} of a point that {@code runsNothing} (has no plugin in this profile):
   * in a sampled cycle without a span to open it reads no clock, and its {@link #end} observes 0 s (nothing ran).
   */
  long begin(int extensionPoint, ArrayCycleState state, boolean chained, boolean runsNothing) {
    if (attempt != null) {
      point = tracing.start(POINTS[extensionPoint], attempt);
      return state.clockMark = System.nanoTime();
    }
    if (!state.recordPluginMetrics) {
      return 0;
    }
    if (runsNothing) {
      return NOTHING_RAN;
    }
    return chained && state.clockMark != NOTHING_RAN ? state.clockMark : (state.clockMark = System.nanoTime());
  }

  /**
   * The start {@link #begin} gives a point that runs no plugin (no clock read), and then the cycle's
   * {@link ArrayCycleState#clockMark}: the next point starts with a read of its own.
   */
  static final long NOTHING_RAN = Long.MIN_VALUE;

  boolean metricsOn() {
    return metricsOn;
  }

  /** kube's label of a cluster event: {@code NODE_ADD} → {@code NodeAdd}. */
  static String eventLabel(io.fleetkit.api.framework.ClusterEvent e) {
    StringBuilder b = new StringBuilder();
    for (String part : e.name().split("_")) {
      b.append(part.charAt(0)).append(part.substring(1).toLowerCase(java.util.Locale.ROOT));
    }
    return b.toString();
  }

  /** kube's {@code Status.Code().String()}. */
  static String codeName(Status.Code code) {
    return switch (code) {
      case SUCCESS -> "Success";
      case UNSCHEDULABLE -> "Unschedulable";
      case UNSCHEDULABLE_AND_UNRESOLVABLE -> "UnschedulableAndUnresolvable";
      case WAIT -> "Wait";
      case SKIP -> "Skip";
      case ERROR -> "Error";
      case PENDING -> "Pending";
    };
  }

  /**
   * A result was emitted for {@code pod}. A {@link Status.Code#SKIP} result (a pod being deleted, not attempted) is
   * only recorded as its FailedScheduling event.
   *
   * @param attemptNanos the attempt's duration, or -1 when the result ends a Permit wait (no attempt of its own)
   * @param queuedNanos how long since the pod first entered activeQ (its initial attempt timestamp)
   */
  void result(ScheduleResult r, Pod pod, String profile, int podAttemptCount, long attemptNanos, long queuedNanos,
      java.util.Set<String> rejectors) {
    if (attempt != null && attemptNanos >= 0) {
      attempt.attribute("fleetkit.result", codeName(r.code()));
      if (r.nodeName() != null) {
        attempt.attribute("k8s.node.name", r.nodeName());
      }
      if (!rejectors.isEmpty()) {
        attempt.attribute("fleetkit.rejected_by", String.join(",", new java.util.TreeSet<>(rejectors)));
      }
      if (!r.victims().isEmpty()) {
        attempt.attribute("fleetkit.victims", r.victims().size());
      }
      if (r.code() == Status.Code.ERROR) {
        attempt.error(r.message());
      }
    }
    if (r.code() == Status.Code.WAIT) {
      return; // counted when the wait ends
    }
    if (r.code() == Status.Code.SKIP) { // a pod being deleted, not attempted: kube's skipPodSchedule records an event
      if (eventsOn) {
        events.event(ObjectReference.to(pod), null, Event.WARNING, EventRecorder.FAILED_SCHEDULING, "Scheduling",
            r.message());
      }
      return;
    }
    int result = switch (r.code()) {
      case SUCCESS -> 0;
      case ERROR -> 2;
      default -> 1;
    };
    if (metricsOn) {
      ProfileSeries ps = series(profile);
      int c = ps.attempts[result];
      if (c < 0) {
        c = ps.attempts[result] = buffer.counter(metrics.counter(SchedulerMetrics.SCHEDULE_ATTEMPTS, RESULTS[result],
            profile));
      }
      buffer.increment(c);
      if (attemptNanos >= 0) {
        int h = ps.durations[result];
        if (h < 0) {
          h = ps.durations[result] = buffer.histogram(metrics.histogram(SchedulerMetrics.SCHEDULING_ATTEMPT_DURATION,
              RESULTS[result], profile), true);
        }
        buffer.add(h, attemptNanos);
      }
      if (r.isBound()) {
        buffer.add(podAttempts, podAttemptCount);
        buffer.add(sli(podAttemptCount), queuedNanos);
      }
    }
    if (!eventsOn) {
      return; // no recorder: build no reference and no message
    }
    if (r.isBound()) {
      events.event(ObjectReference.to(pod), null, Event.NORMAL, EventRecorder.SCHEDULED, "Binding",
          "Successfully assigned " + r.podKey() + " to " + r.nodeName());
    } else {
      events.event(ObjectReference.to(pod), null, Event.WARNING, EventRecorder.FAILED_SCHEDULING, "Scheduling",
          r.message());
    }
  }

  /** The scheduling algorithm (PreFilter to host selection) took {@code nanos}. */
  void algorithm(long nanos) {
    if (algorithm >= 0) {
      buffer.add(algorithm, nanos);
    }
  }

  /** PostFilter plugins ran for a pod (kube counts every run as a preemption attempt). */
  void preemptionAttempt(int victims) {
    if (preemptionAttempts != null) {
      preemptionAttempts.increment();
      if (victims > 0) {
        preemptionVictims.observe(victims);
      }
    }
  }

  /** {@code victim} was evicted to make room for {@code preemptor} on {@code node}. */
  void preempted(Pod victim, Pod preemptor, String node) {
    if (!eventsOn) {
      return;
    }
    String by = preemptor.metadata().uid().isEmpty() ? preemptor.metadata().key() : preemptor.metadata().uid();
    events.event(ObjectReference.to(victim), ObjectReference.to(preemptor), Event.NORMAL, EventRecorder.PREEMPTED,
        "Preempting", "Preempted by pod " + by + " on node " + node);
  }

  /**
   * An extension point that {@link #begin began} at {@code startNanos} ran all its plugins.
   *
   * @param atLastRead the point ended with its last plugin, whose end the plugin timings read
   *     ({@link ArrayCycleState#clockMark}; the point's start when it ran none): in a sampled cycle without a span to
   *     close, that read is the point's end
   */
  void end(int extensionPoint, Status.Code code, String profile, long startNanos, ArrayCycleState state,
      boolean atLastRead) {
    boolean sampled = state.recordPluginMetrics;
    if (point == null && !sampled) {
      return;
    }
    long nanos;
    if (startNanos == NOTHING_RAN && point == null) {
      nanos = 0;
      state.clockMark = NOTHING_RAN;
    } else {
      long now = atLastRead && point == null ? state.clockMark : (state.clockMark = System.nanoTime());
      nanos = now - startNanos;
    }
    if (point != null) {
      point.attribute("fleetkit.status", codeName(code));
      if (code == Status.Code.ERROR) {
        point.error(POINTS[extensionPoint] + " failed");
      }
      point.end();
      point = null;
    }
    if (sampled) {
      if (inAttempt && heldPoints < heldPoint.length) {
        int i = heldPoints++;
        heldPoint[i] = extensionPoint;
        heldCode[i] = code;
        heldProfile[i] = profile;
        heldNanos[i] = nanos;
      } else {
        extensionPoint(extensionPoint, code, profile, nanos);
      }
    }
  }

  /** An extension point ran all its plugins. */
  void extensionPoint(int point, Status.Code code, String profile, long nanos) {
    if (metricsOn) {
      int[] byCode = series(profile).points[point];
      int h = byCode[code.ordinal()];
      if (h < 0) {
        h = byCode[code.ordinal()] = buffer.histogram(metrics.histogram(
            SchedulerMetrics.FRAMEWORK_EXTENSION_POINT_DURATION, POINTS[point], codeName(code), profile), true);
      }
      buffer.add(h, nanos);
    }
  }

  /**
   * A pod held by Permit stopped waiting after {@code nanos} on the scheduler's clock, with {@code code} (kube's
   * {@code WaitOnPermit}: {@code Success} when every plugin allowed it, {@code Unschedulable} when one rejected it,
   * its wait ran out or it was deleted).
   */
  void permitWait(Status.Code code, long nanos) {
    if (metricsOn) {
      Histogram h = permitWait[code.ordinal()];
      if (h == null) {
        h = permitWait[code.ordinal()] = metrics.histogram(SchedulerMetrics.PERMIT_WAIT_DURATION, codeName(code));
      }
      h.observeNanos(nanos);
    }
  }

  /** {@code scheduler_permit_wait_duration_seconds} by status code, bound on first use. */
  private final Histogram[] permitWait = new Histogram[CODES.length];

  /**
   * {@code scheduler_unschedulable_pods}: {@code delta} (+1 or -1) for {@code plugin} in {@code profile}, as kube's
   * queue moves {@code UnschedulableReason(plugin, profile)} when a plugin joins or leaves a pod's unschedulable
   * plugins.
   */
  void unschedulablePlugin(String plugin, String profile, int delta) {
    if (metricsOn) {
      Map<String, Gauge> byPlugin = series(profile).unschedulable;
      Gauge g = byPlugin.get(plugin);
      if (g == null) {
        g = metrics.gauge(SchedulerMetrics.UNSCHEDULABLE_PODS, plugin, profile);
        byPlugin.put(plugin, g);
      }
      g.add(delta);
    }
  }

  /**
   * The queue's and the cache's sizes as last handed to {@code scheduler_pending_pods} and {@code scheduler_cache_size}
   * (active, backoff, unschedulable, gated; nodes, pods, assumed pods); -1 before the first time.
   */
  private final int[] published = {-1, -1, -1, -1, -1, -1, -1};

  /**
   * Sets {@code scheduler_pending_pods} and {@code scheduler_cache_size} to the queue's and the cache's sizes now,
   * each gauge only when its value changed. Called where the held observations are flushed (every few dozen cycles,
   * when the queue runs empty, before each call into the scheduler returns), so a scrape between two calls reads the
   * sizes the last call left, as kube's gauges, which its queue and cache set on every change.
   */
  void publishSizes(SchedulingQueue q, SchedulerCache cache) {
    if (metricsOn) {
      publish(0, q.activeSize(), active);
      publish(1, q.backoffSize(), backoff);
      publish(2, q.unschedulableSize(), unschedulable);
      publish(3, q.gatedSize(), gated);
      publish(4, cache.nodeCount(), cacheNodes);
      publish(5, cache.podCount(), cachePods);
      publish(6, cache.assumedCount(), cacheAssumed);
    }
  }

  private void publish(int i, int value, @Nullable Gauge gauge) {
    if (published[i] != value) {
      published[i] = value;
      gauge.set(value);
    }
  }

  /** A pod entered a queue because of {@code event} ({@code PodAdd}, {@code BackoffComplete}, ...). */
  void incoming(QueuedPod.Where where, String event) {
    if (metricsOn) {
      int queue = switch (where) {
        case BACKOFF -> 1;
        case UNSCHEDULABLE, GATED -> 2;
        default -> 0;
      };
      int c;
      if (event == lastIncomingEvent[queue]) { // events are constants: a run of added pods looks up nothing
        c = lastIncomingSlot[queue];
      } else {
        Integer slot = incoming[queue].get(event);
        if (slot == null) {
          slot = buffer.counter(metrics.counter(SchedulerMetrics.QUEUE_INCOMING_PODS, QUEUES[queue], event));
          incoming[queue].put(event, slot);
        }
        c = slot;
        lastIncomingEvent[queue] = event;
        lastIncomingSlot[queue] = c;
      }
      buffer.increment(c); // the queue is confined to the engine lock, whose release flushes the buffer
    }
  }
}
