package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.dra.DeviceTaint;
import io.fleetkit.api.resource.dra.DeviceTaintEffect;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.DeviceTaintRuleSpec;
import io.fleetkit.api.resource.dra.DeviceTaintRuleStatus;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.metrics.DeviceTaintEvictionMetrics;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.controllers.internal.DeviceTaintEvictions;
import io.fleetkit.reconcile.controllers.internal.DeviceTaintEvictions.Eviction;
import io.fleetkit.reconcile.controllers.internal.DeviceTaintEvictions.Reason;
import io.fleetkit.reconcile.controllers.internal.DeviceTaintRuleConditions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes' device taint eviction controller ({@code pkg/controller/devicetainteviction/device_taint_eviction.go})
 * over an {@link ObjectStore}: deletes the pods that use an allocated ResourceClaim whose devices carry a NoExecute
 * taint, from the device's ResourceSlice or from a {@link DeviceTaintRule} matching it, that the claim's allocated
 * request does not tolerate.
 *
 * <p>A taint evicts at its {@code timeAdded} (when unset, the time this controller first saw it) plus the smallest
 * {@code tolerationSeconds} of the request's NoExecute tolerations that tolerate it; one such toleration without
 * seconds keeps the pod forever. A pod goes at the earliest time over its claims' taints; only pods on a node, and
 * only claims reserved for the pod, count. When the time comes the pod gets {@code DisruptionTarget=True} (reason
 * {@value #REASON}), a {@value EventRecorder#DEVICE_TAINT_MANAGER_EVICTION} event "Marking for deletion", and is
 * deleted (with its uid as precondition); a pod already being deleted is left alone. When the taint goes away (the
 * rule is deleted, the slice updated) or the claim is deallocated before that time, the eviction is cancelled with
 * an event "Cancelling deletion".
 *
 * <p>Each DeviceTaintRule gets the {@value DeviceTaintRuleStatus#EVICTION_IN_PROGRESS} condition of
 * {@link DeviceTaintRuleConditions}: written at once for a new rule or a changed spec, then at most every 10 s while
 * it changes (pods pending, then evicted).
 *
 * <p>Work is level-based: watch events mark the state changed, and {@link #sync} recomputes every pod's eviction
 * from the store (upstream's event handlers reach the same state whatever the order of events), schedules it on the
 * clock, carries out the due ones and writes rule conditions. Not thread-safe: made for single-threaded simulations.
 */
public final class DeviceTaintEvictionController implements AutoCloseable {
  /** The controller's name, upstream's. */
  public static final String NAME = "device-taint-eviction";
  /** The DisruptionTarget reason upstream's device taint manager sets. */
  public static final String REASON = "DeletionByDeviceTaintManager";
  /** The DisruptionTarget message upstream's device taint manager sets. */
  public static final String MESSAGE = "Device Taint manager: deleting due to NoExecute taint";

  private final ObjectStore store;
  private final TimerClock clock;
  private final EventRecorder events;
  private final List<Watch> watches = new ArrayList<>();
  private final Map<String, Scheduled> scheduled = new HashMap<>();
  private final Set<String> due = new LinkedHashSet<>();
  /** Pods evicted since start, per rule name (upstream's {@code taintRuleStats}); forgotten with the rule. */
  private final Map<String, Long> evictedByRule = new HashMap<>();
  /**
   * Rules whose pods were just evicted, and until when their condition is not rewritten: upstream re-checks a rule's
   * status one period after an eviction, not at once.
   */
  private final Map<String, Instant> statusHeldUntil = new HashMap<>();
  /** When each taint without {@code timeAdded} was first seen, by {@link Reason#id()}. */
  private final Map<String, Instant> firstSeen = new HashMap<>();
  private boolean dirty;
  private boolean statusDue;
  private TimerClock.@Nullable Timer statusTimer;
  private @Nullable Instant statusAt;
  private long evicted;
  private final Counter deletions;
  private final Histogram deletionLatency;

  /** A scheduled eviction of the pod with {@code uid} (upstream's {@code deletePodAt} entry). */
  private record Scheduled(String uid, Eviction eviction, TimerClock.Timer timer) {}

  private DeviceTaintEvictionController(ObjectStore store, TimerClock clock, EventRecorder events,
      MetricsRegistry metrics) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.events = EventRecorder.bestEffort(Objects.requireNonNull(events, "events"));
    this.deletions = metrics.counter(DeviceTaintEvictionMetrics.POD_DELETIONS);
    this.deletionLatency = metrics.histogram(DeviceTaintEvictionMetrics.POD_DELETION_DURATION);
  }

  /**
   * A controller recording its pod events into {@code events}; what {@code events} throws is logged at DEBUG and
   * ignored ({@link EventRecorder#bestEffort}).
   */
  public static DeviceTaintEvictionController create(ObjectStore store, TimerClock clock, EventRecorder events) {
    return create(store, clock, events, MetricsRegistry.NOOP);
  }

  /**
   * A controller recording its pod events into {@code events} and upstream's metrics
   * ({@link DeviceTaintEvictionMetrics}: the pods it deleted, and for each the time from when its eviction was due)
   * into {@code metrics}.
   */
  public static DeviceTaintEvictionController create(ObjectStore store, TimerClock clock, EventRecorder events,
      MetricsRegistry metrics) {
    return new DeviceTaintEvictionController(store, clock, events, Objects.requireNonNull(metrics, "metrics"));
  }

  /** A controller that records no events. */
  public static DeviceTaintEvictionController create(ObjectStore store, TimerClock clock) {
    return create(store, clock, EventRecorder.NOOP);
  }

  /**
   * Watches pods, ResourceClaims, ResourceSlices and DeviceTaintRules; the first {@link #sync} looks at everything.
   *
   * @throws IllegalStateException if started twice
   */
  public void start() {
    if (!watches.isEmpty()) {
      throw new IllegalStateException("device taint eviction controller: already started");
    }
    dirty = true;
    watches.add(store.watch(Pod.class, "0", e -> {
      if (!e.object().spec().resourceClaims().isEmpty() || scheduled.containsKey(e.object().metadata().key())) {
        dirty = true;
      }
    }));
    watches.add(store.watch(ResourceClaim.class, "0", e -> dirty = true));
    watches.add(store.watch(ResourceSlice.class, "0", e -> dirty = true));
    watches.add(store.watch(DeviceTaintRule.class, "0", e -> {
      if (e.type() == WatchEventType.DELETED) {
        evictedByRule.remove(e.object().metadata().name());
        statusHeldUntil.remove(e.object().metadata().name());
      }
      dirty = true;
    }));
  }

  /**
   * Recomputes the evictions if something changed, deletes the pods whose eviction came due and updates the rules'
   * conditions.
   *
   * @return how many writes it made (pods evicted, rule statuses written)
   */
  public int sync() {
    int writes = refresh();
    int n = evictDue();
    if (n > 0) {
      // upstream re-checks the rules' conditions one status period after an eviction
      armStatus(clock.now().plus(DeviceTaintRuleConditions.STATUS_PERIOD));
    }
    return writes + n;
  }

  /**
   * Recomputes the scheduled evictions and writes the rules' conditions if something changed, without deleting
   * pods: the first half of {@link #sync}.
   *
   * @return how many rule statuses it wrote
   */
  int refresh() {
    if (!dirty && !statusDue) {
      return 0;
    }
    dirty = false;
    statusDue = false;
    return recompute();
  }

  private int recompute() {
    Instant now = clock.now();
    List<ResourceSlice> slices = store.list(ResourceSlice.class).items();
    List<DeviceTaintRule> rules = store.list(DeviceTaintRule.class).items();
    Map<String, ResourceClaim> claims = new HashMap<>();
    for (ResourceClaim c : store.list(ResourceClaim.class, "", c -> c.status().allocation() != null).items()) {
      claims.put(c.metadata().key(), c);
    }
    Set<String> seen = new HashSet<>();
    Function<String, Instant> fallback = id -> {
      seen.add(id);
      return firstSeen.computeIfAbsent(id, k -> now);
    };
    rememberTaintsWithoutTime(slices, rules, fallback);
    DeviceTaintEvictions math = DeviceTaintEvictions.of(slices, rules, fallback);
    List<Pod> pods = store.list(Pod.class, "", p -> !p.spec().resourceClaims().isEmpty()).items();
    Set<String> present = new HashSet<>();
    Map<Pod, Eviction> pending = new HashMap<>();
    for (Pod p : pods) {
      String key = p.metadata().key();
      present.add(key);
      Eviction e = p.metadata().deletionTimestamp() != null ? null : math.podEviction(p, claims);
      if (e == null) {
        if (cancel(key) && p.metadata().deletionTimestamp() == null) {
          podEvent(p.metadata().namespace(), p.metadata().name(), p.metadata().uid(), "Cancel",
              "Cancelling deletion");
        }
      } else {
        schedule(p, e, now);
        pending.put(p, e);
      }
    }
    for (String key : List.copyOf(scheduled.keySet())) {
      if (!present.contains(key)) {
        cancel(key); // the pod is gone: nothing left to do for it
      }
    }
    int writes = 0;
    for (DeviceTaintRule r : rules) {
      writes += updateStatus(r, slices, claims, pods, pending, fallback, now);
    }
    firstSeen.keySet().retainAll(seen);
    return writes;
  }

  /**
   * Notes the first sighting of every NoExecute taint without {@code timeAdded}, whether or not a claim uses its
   * device yet, so that its delay counts from when it appeared.
   */
  private static void rememberTaintsWithoutTime(List<ResourceSlice> slices, List<DeviceTaintRule> rules,
      Function<String, Instant> fallback) {
    for (DeviceTaintRule r : rules) {
      DeviceTaint t = r.spec().taint();
      if (t.effect() == DeviceTaintEffect.NO_EXECUTE && t.timeAdded() == null) {
        fallback.apply(DeviceTaintEvictions.ruleTaintId(r));
      }
    }
    for (ResourceSlice s : slices) {
      for (var d : s.spec().devices()) {
        List<DeviceTaint> taints = d.taints();
        for (int i = 0; i < taints.size(); i++) {
          if (taints.get(i).effect() == DeviceTaintEffect.NO_EXECUTE && taints.get(i).timeAdded() == null) {
            fallback.apply(DeviceTaintEvictions.sliceTaintId(s.spec().driver(), s.spec().pool().name(), d.name(), i));
          }
        }
      }
    }
  }

  private void schedule(Pod pod, Eviction e, Instant now) {
    String key = pod.metadata().key();
    Scheduled old = scheduled.get(key);
    if (old != null && old.uid().equals(pod.metadata().uid()) && old.eviction().equals(e)) {
      return;
    }
    cancel(key);
    Duration delay = Duration.between(now, e.when());
    TimerClock.Timer t = clock.schedule(delay.isNegative() ? Duration.ZERO : delay, () -> due.add(key));
    scheduled.put(key, new Scheduled(pod.metadata().uid(), e, t));
    if (!e.when().isAfter(now)) {
      due.add(key);
    }
  }

  /** Cancels a scheduled eviction; whether there was one. */
  private boolean cancel(String key) {
    Scheduled s = scheduled.remove(key);
    due.remove(key);
    if (s == null) {
      return false;
    }
    s.timer().cancel();
    return true;
  }

  /** Upstream's {@code maybeDeletePod} for each due pod: condition, event, delete. */
  private int evictDue() {
    int n = 0;
    while (!due.isEmpty()) {
      String key = due.iterator().next();
      due.remove(key);
      Scheduled s = scheduled.remove(key);
      if (s == null) {
        continue;
      }
      int slash = key.indexOf('/');
      String ns = key.substring(0, slash);
      String name = key.substring(slash + 1);
      Optional<Pod> found = store.get(Pod.class, ns, name);
      if (found.isEmpty() || !found.get().metadata().uid().equals(s.uid())
          || found.get().metadata().deletionTimestamp() != null) {
        continue; // gone, replaced, or already being deleted
      }
      Pod pod = found.get();
      podEvent(ns, name, s.uid(), "Delete", "Marking for deletion");
      try {
        PodCondition target = PodCondition.of(PodCondition.DISRUPTION_TARGET, ConditionStatus.True, REASON, MESSAGE,
            clock.now());
        PodStatus status = pod.status().withConditionUpdated(target);
        if (status != pod.status()) {
          store.updateStatus(pod.withStatus(status));
        }
        store.delete(Pod.class, ns, name, DeleteOptions.of(DeletePreconditions.uid(s.uid())));
      } catch (NotFoundException | ConflictException e) {
        continue; // gone or replaced meanwhile: the work is done
      }
      evicted++;
      n++;
      deletions.increment();
      deletionLatency.observe(Duration.between(s.eviction().when(), clock.now()).toNanos() / 1e9);
      for (Reason r : s.eviction().reasons()) {
        if (r.rule() != null) {
          evictedByRule.merge(r.rule(), 1L, Long::sum);
          statusHeldUntil.put(r.rule(), clock.now().plus(DeviceTaintRuleConditions.STATUS_PERIOD));
        }
      }
    }
    return n;
  }

  private void podEvent(String ns, String name, String uid, String action, String note) {
    events.event(new ObjectReference("v1", Pod.KIND, ns, name, uid, ""), null, Event.NORMAL,
        EventRecorder.DEVICE_TAINT_MANAGER_EVICTION, action, note);
  }

  /** Upstream's {@code maybeUpdateRuleStatus}; 1 when it wrote the status. */
  private int updateStatus(DeviceTaintRule rule, List<ResourceSlice> slices, Map<String, ResourceClaim> claims,
      List<Pod> pods, Map<Pod, Eviction> pending, Function<String, Instant> fallback, Instant now) {
    Instant next = DeviceTaintRuleConditions.nextWrite(rule, now);
    if (next == null) {
      return 0;
    }
    String name = rule.metadata().name();
    Instant held = statusHeldUntil.get(name);
    if (held != null) {
      if (held.isAfter(now)) {
        next = held.isAfter(next) ? held : next;
      } else {
        statusHeldUntil.remove(name);
      }
    }
    long evictedPods = evictedByRule.getOrDefault(name, 0L);
    DeviceTaintEffect effect = rule.spec().taint().effect();
    long pendingPods = 0;
    Set<String> namespaces = new HashSet<>();
    long published = 0;
    long allocated = 0;
    if (effect == DeviceTaintEffect.NO_EXECUTE) {
      for (Map.Entry<Pod, Eviction> e : pending.entrySet()) {
        if (e.getValue().causedBy(name)) {
          pendingPods++;
          namespaces.add(e.getKey().metadata().namespace());
        }
      }
    } else if (effect == DeviceTaintEffect.NONE) {
      // what the rule would do with NoExecute, as upstream's simulation
      DeviceTaint t = rule.spec().taint();
      DeviceTaintRule asEvicting = new DeviceTaintRule(rule.metadata(), new DeviceTaintRuleSpec(
          rule.spec().deviceSelector(), new DeviceTaint(t.key(), t.value(), DeviceTaintEffect.NO_EXECUTE,
          t.timeAdded())), DeviceTaintRuleStatus.EMPTY);
      DeviceTaintEvictions simulated = DeviceTaintEvictions.of(slices, List.of(asEvicting), fallback);
      for (Pod p : pods) {
        Eviction e = p.metadata().deletionTimestamp() != null ? null : simulated.podEviction(p, claims);
        if (e != null && e.causedBy(name)) {
          pendingPods++;
          namespaces.add(p.metadata().namespace());
        }
      }
      published = simulated.publishedDevicesMatching(rule);
      allocated = DeviceTaintEvictions.allocatedDevicesMatching(rule, claims.values());
    }
    Condition desired = DeviceTaintRuleConditions.condition(rule, new DeviceTaintRuleConditions.Counts(pendingPods,
        namespaces.size(), evictedPods, published, allocated));
    Condition existing = rule.status().condition(DeviceTaintRuleStatus.EVICTION_IN_PROGRESS);
    if (DeviceTaintRuleConditions.sameContent(existing, desired)) {
      return 0;
    }
    if (next.isAfter(now)) {
      armStatus(next);
      return 0;
    }
    Condition stamped = new Condition(desired.type(), desired.status(), desired.observedGeneration(), now,
        desired.reason(), desired.message());
    try {
      store.updateStatus(rule.withStatus(rule.status().withCondition(stamped)));
      return 1;
    } catch (NotFoundException | ConflictException e) {
      dirty = true; // deleted or changed meanwhile: the watch event brings the new state
      return 0;
    }
  }

  private void armStatus(Instant at) {
    if (statusAt != null && !at.isBefore(statusAt) && !statusDue) {
      return;
    }
    if (statusTimer != null) {
      statusTimer.cancel();
    }
    statusAt = at;
    Duration delay = Duration.between(clock.now(), at);
    statusTimer = clock.schedule(delay.isNegative() ? Duration.ZERO : delay, () -> {
      statusDue = true;
      statusAt = null;
    });
  }

  /** When the eviction of pod {@code namespace/name} is scheduled, if it is. */
  public Optional<Instant> scheduledEviction(String podKey) {
    Scheduled s = scheduled.get(podKey);
    return s == null ? Optional.empty() : Optional.of(s.eviction().when());
  }

  /** The taints that cause the scheduled eviction of pod {@code namespace/name}, as upstream logs them. */
  public List<String> evictionReasons(String podKey) {
    Scheduled s = scheduled.get(podKey);
    return s == null ? List.of() : s.eviction().reasons().stream().map(Reason::toString).toList();
  }

  /** How many pods this controller deleted. */
  public long evictedCount() {
    return evicted;
  }

  /** Stops watching and cancels every scheduled eviction. Idempotent. */
  @Override
  public void close() {
    for (Watch w : watches) {
      w.close();
    }
    watches.clear();
    for (Scheduled s : scheduled.values()) {
      s.timer().cancel();
    }
    scheduled.clear();
    due.clear();
    if (statusTimer != null) {
      statusTimer.cancel();
      statusTimer = null;
    }
  }
}
