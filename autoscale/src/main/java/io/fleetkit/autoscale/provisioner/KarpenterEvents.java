package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The provisioner's events as Karpenter publishes them (kubernetes-sigs/karpenter {@code pkg/events/recorder.go}):
 * each event names dedupe values, and one with the same reason and values published less than its dedupe timeout ago
 * ({@link #DEFAULT_DEDUPE_TIMEOUT} unless the event sets one; go-cache: still a repeat at exactly the timeout) is
 * dropped; {@code Nominated} is also rate limited, {@link #NOMINATION_QPS} a second with bursts of
 * {@link #NOMINATION_BURST} ({@code PodNominationRateLimiter}). Both run on the provisioner's clock. The constructors
 * and notes are those of {@code pkg/controllers/provisioning/scheduling/events.go} and
 * {@code pkg/controllers/disruption/events/events.go}; FleetKit's nodes are their own NodeClaims, so an event Karpenter
 * publishes on both the Node and the NodeClaim is recorded once, on the node, with the Node's note.
 *
 * <p>Every event is Normal but {@code FailedScheduling} (Warning); its action is its reason, as Karpenter's recorder
 * has none. Used under the provisioner's lock; not thread-safe.
 */
final class KarpenterEvents {
  /** {@code defaultDedupeTimeout}. */
  static final Duration DEFAULT_DEDUPE_TIMEOUT = Duration.ofMinutes(2);
  /** {@code PodFailedToScheduleEvent}'s dedupe timeout. */
  static final Duration FAILED_SCHEDULING_DEDUPE_TIMEOUT = Duration.ofMinutes(5);
  /** {@code Unconsolidatable}'s dedupe timeout. */
  static final Duration UNCONSOLIDATABLE_DEDUPE_TIMEOUT = Duration.ofMinutes(15);
  /** {@code PodNominationRateLimiter = flowcontrol.NewTokenBucketRateLimiter(5, 10)}. */
  static final double NOMINATION_QPS = 5;
  static final int NOMINATION_BURST = 10;
  /** How often expired dedupe entries are dropped (go-cache's cleanup interval). */
  private static final Duration CLEANUP_INTERVAL = Duration.ofSeconds(10);

  private final EventRecorder recorder;
  private final Clock clock;
  /** Dedupe key to the instant its entry expires. */
  private final Map<String, Instant> seen = new HashMap<>();
  private Instant nextCleanup = Instant.MIN;
  private double nominationTokens = NOMINATION_BURST;
  private Instant nominationRefill = Instant.MIN;

  /** @param recorder where events go, already made safe ({@link EventRecorder#bestEffort}) */
  KarpenterEvents(EventRecorder recorder, Clock clock) {
    this.recorder = recorder;
    this.clock = clock;
  }

  /** {@code NominatePodEvent}: the pod goes on a node launched for it ({@code Pod should schedule on: nodeclaim/x}). */
  void nominated(Pod pod, String nodeClaim) {
    publish(ObjectReference.to(pod), Event.NORMAL, Provisioner.NOMINATED,
        "Pod should schedule on: nodeclaim/" + nodeClaim, DEFAULT_DEDUPE_TIMEOUT, true, uid(pod));
  }

  /** {@code PodFailedToScheduleEvent}: no NodePool and instance type can take the pod. */
  void failedScheduling(Pod pod, String error) {
    publish(ObjectReference.to(pod), Event.WARNING, EventRecorder.FAILED_SCHEDULING, "Failed to schedule pod, " + error,
        FAILED_SCHEDULING_DEDUPE_TIMEOUT, false, uid(pod));
  }

  /** {@code disruptionevents.Launching} on a replacement ({@code Launching NodeClaim: Underutilized}). */
  void launching(ObjectReference nodeClaim, DisruptionReason reason) {
    publish(nodeClaim, Event.NORMAL, Provisioner.DISRUPTION_LAUNCHING, "Launching NodeClaim: " + reason.name(),
        DEFAULT_DEDUPE_TIMEOUT, false, uid(nodeClaim), reason.name());
  }

  /** {@code disruptionevents.WaitingOnReadiness} on a replacement that is not initialized yet. */
  void waitingOnReadiness(ObjectReference nodeClaim) {
    publish(nodeClaim, Event.NORMAL, Provisioner.DISRUPTION_WAITING_READINESS,
        "Waiting on readiness to continue disruption", DEFAULT_DEDUPE_TIMEOUT, false, uid(nodeClaim));
  }

  /** {@code disruptionevents.Terminating} on a node a disruption command deletes ({@code Disrupting Node: Empty}). */
  void terminating(ObjectReference node, DisruptionReason reason) {
    publish(node, Event.NORMAL, Provisioner.DISRUPTION_TERMINATING, "Disrupting Node: " + reason.name(),
        DEFAULT_DEDUPE_TIMEOUT, false, uid(node), reason.name());
  }

  /** {@code disruptionevents.Blocked}: the node is no disruption candidate ({@code msg} already a sentence). */
  void blocked(Node node, String msg) {
    ObjectReference ref = ObjectReference.to(node);
    publish(ref, Event.NORMAL, Provisioner.DISRUPTION_BLOCKED, msg, DEFAULT_DEDUPE_TIMEOUT, false, uid(ref));
  }

  /** {@code disruptionevents.Unconsolidatable}: consolidation cannot remove or replace the node. */
  void unconsolidatable(Node node, String msg) {
    ObjectReference ref = ObjectReference.to(node);
    publish(ref, Event.NORMAL, Provisioner.UNCONSOLIDATABLE, msg, UNCONSOLIDATABLE_DEDUPE_TIMEOUT, false, uid(ref));
  }

  /** {@code pretty.Sentence}: the first letter upper case. */
  static String sentence(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  private void publish(ObjectReference regarding, String type, String reason, String note, Duration dedupeTimeout,
      boolean rateLimited, String... dedupeValues) {
    Instant now = clock.instant();
    if (!now.isBefore(nextCleanup)) {
      seen.values().removeIf(expiry -> now.isAfter(expiry));
      nextCleanup = now.plus(CLEANUP_INTERVAL);
    }
    String key = reason.toLowerCase(Locale.ROOT) + "-" + String.join("-", dedupeValues);
    Instant expiry = seen.get(key);
    if (expiry != null && !now.isAfter(expiry)) {
      return;
    }
    seen.put(key, now.plus(dedupeTimeout));
    if (rateLimited && !takeNominationToken(now)) {
      return;
    }
    recorder.event(regarding, null, type, reason, reason, note);
  }

  /** client-go's token bucket: {@link #NOMINATION_QPS} tokens a second, at most {@link #NOMINATION_BURST} saved. */
  private boolean takeNominationToken(Instant now) {
    if (nominationRefill != Instant.MIN && now.isAfter(nominationRefill)) {
      double elapsed = Duration.between(nominationRefill, now).toNanos() / 1e9;
      nominationTokens = Math.min(NOMINATION_BURST, nominationTokens + elapsed * NOMINATION_QPS);
    }
    nominationRefill = now;
    if (nominationTokens < 1) {
      return false;
    }
    nominationTokens--;
    return true;
  }

  private static String uid(Pod pod) {
    return uid(ObjectReference.to(pod));
  }

  /** The object's uid ({@code string(obj.UID)}), or its namespace and name when it has none (an object not stored). */
  private static String uid(ObjectReference ref) {
    return !ref.uid().isEmpty() ? ref.uid() : ref.namespace() + "/" + ref.name();
  }
}
