package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.rollouts.BlueGreenStrategy;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Argo Rollouts' scale-down deadlines ({@code rollout/replicaset.go}, {@code utils/defaults}, the deadline helpers of
 * {@code utils/replicaset}): a ReplicaSet that is to go away later carries the annotation
 * {@value #SCALE_DOWN_DEADLINE} (an RFC 3339 time in whole seconds) and is scaled to 0 once it has passed. Two uses:
 * the new ReplicaSet after an abort ({@code abortScaleDownDelaySeconds}: blue-green, and a canary with traffic routing)
 * and old ReplicaSets after an update ({@code scaleDownDelaySeconds}, at most {@code scaleDownDelayRevisionLimit} of
 * them). Stateless; the writes go through the sync's store.
 */
final class ScaleDownDelays {
  private static final Logger LOG = LoggerFactory.getLogger(ScaleDownDelays.class);
  /** The annotation holding when a ReplicaSet is scaled to 0 (Argo's {@code DefaultReplicaSetScaleDownDeadline...}). */
  static final String SCALE_DOWN_DEADLINE = "argo-rollouts.argoproj.io/scale-down-deadline";
  /** Argo's {@code DefaultScaleDownDelaySeconds}. */
  static final int DEFAULT_SCALE_DOWN_DELAY_SECONDS = 30;
  /** Argo's {@code DefaultAbortScaleDownDelaySeconds}. */
  static final int DEFAULT_ABORT_SCALE_DOWN_DELAY_SECONDS = 30;

  private ScaleDownDelays() {}

  /**
   * {@code GetScaleDownDelaySecondsOrDefault}: blue-green's value or 30; a canary's value or 30 with traffic routing,
   * 0 without (a basic canary scales old versions down as availability allows).
   */
  static int scaleDownDelaySeconds(Rollout r) {
    BlueGreenStrategy bg = r.blueGreen();
    if (bg != null) {
      return bg.scaleDownDelaySeconds() != null ? bg.scaleDownDelaySeconds() : DEFAULT_SCALE_DOWN_DELAY_SECONDS;
    }
    CanaryStrategy c = r.canary();
    if (c != null && c.trafficRouting() != null) {
      return c.scaleDownDelaySeconds() != null ? c.scaleDownDelaySeconds() : DEFAULT_SCALE_DOWN_DELAY_SECONDS;
    }
    return 0;
  }

  /**
   * {@code GetAbortScaleDownDelaySecondsOrDefault} on the flattened fields: {@code null} when the new ReplicaSet is
   * never scaled down after an abort (an explicit 0); 0 for a canary without traffic routing; else the value or 30.
   */
  static @Nullable Integer abortDelaySeconds(boolean blueGreen, boolean trafficRouting, @Nullable Integer value) {
    if (!blueGreen && !trafficRouting) {
      return 0;
    }
    if (value == null) {
      return DEFAULT_ABORT_SCALE_DOWN_DELAY_SECONDS;
    }
    return value == 0 ? null : value;
  }

  /** {@link #abortDelaySeconds(boolean, boolean, Integer)} for a rollout. */
  static @Nullable Integer abortDelaySeconds(Rollout r) {
    BlueGreenStrategy bg = r.blueGreen();
    if (bg != null) {
      return abortDelaySeconds(true, false, bg.abortScaleDownDelaySeconds());
    }
    CanaryStrategy c = r.canary();
    return abortDelaySeconds(false, c.trafficRouting() != null, c.abortScaleDownDelaySeconds());
  }

  /** {@code GetScaleDownRevisionLimit}: the strategy's {@code scaleDownDelayRevisionLimit}, else no limit. */
  static int revisionLimit(Rollout r) {
    Integer limit = r.blueGreen() != null ? r.blueGreen().scaleDownDelayRevisionLimit()
        : r.canary().scaleDownDelayRevisionLimit();
    return limit == null ? Integer.MAX_VALUE : limit;
  }

  /** {@code HasScaleDownDeadline}: the annotation is set and not empty. */
  static boolean hasDeadline(@Nullable ReplicaSet rs) {
    return rs != null && !rs.metadata().annotations().getOrDefault(SCALE_DOWN_DEADLINE, "").isEmpty();
  }

  /** The deadline in the annotation; {@code null} when absent or unreadable (Argo logs and goes on). */
  static @Nullable Instant deadline(ReplicaSet rs) {
    String at = rs.metadata().annotations().getOrDefault(SCALE_DOWN_DEADLINE, "");
    if (at.isEmpty()) {
      return null;
    }
    try {
      return Instant.parse(at);
    } catch (DateTimeParseException e) {
      LOG.debug("ReplicaSet {}: unreadable {} {}", rs.metadata().key(), SCALE_DOWN_DEADLINE, at);
      return null;
    }
  }

  /**
   * {@code GetTimeRemainingBeforeScaleDownDeadline}: the time left, {@code null} when the deadline has passed.
   *
   * @throws IllegalArgumentException when the annotation cannot be read (the caller decides, as Argo's callers do)
   */
  static @Nullable Duration remaining(ReplicaSet rs, Instant now) {
    if (!hasDeadline(rs)) {
      return null;
    }
    Instant at = deadline(rs);
    if (at == null) {
      throw new IllegalArgumentException("unable to read scaleDownAt label on rs '" + rs.metadata().name() + "'");
    }
    return at.isAfter(now) ? Duration.between(now, at) : null;
  }

  /** Argo's deadline text: {@code now + seconds} in UTC, RFC 3339 in whole seconds ({@code time.RFC3339}). */
  static String format(Instant now, int seconds) {
    return now.plusSeconds(seconds).truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /**
   * {@code shouldDelayScaleDownOnAbort}: aborted, a stable ReplicaSet exists, not a basic canary, a delay is set (not
   * the explicit 0), and not a dynamically scaled canary without an explicit delay.
   */
  static boolean delayOnAbort(RolloutSync s) {
    RolloutStatus st = s.b.build();
    if (!st.abort() || s.stableRs == null) {
      return false;
    }
    CanaryStrategy c = s.r.canary();
    if (c != null && c.trafficRouting() == null) {
      return false;
    }
    if (abortDelaySeconds(s.r) == null) {
      return false;
    }
    return c == null || !c.dynamicStableScale() || hasExplicitAbortDelay(c);
  }

  /** {@code HasExplicitAbortScaleDownDelay} for a canary: set and not 0 (0 keeps the canary up, it delays nothing). */
  static boolean hasExplicitAbortDelay(CanaryStrategy c) {
    return c.trafficRouting() != null && c.abortScaleDownDelaySeconds() != null && c.abortScaleDownDelaySeconds() != 0;
  }

  /**
   * The count the new ReplicaSet is scaled to ({@code reconcileNewReplicaSet}), {@code null} to leave it as it is.
   * Not delaying: {@code desired}. Delaying an abort's scale-down: once annotated, kept until the deadline (the sync
   * comes back then) and 0 after it (an unreadable deadline: {@code desired}); not yet annotated, annotated with
   * {@code now + abortScaleDownDelaySeconds} once the stable ReplicaSet has {@code replicas} available (it can carry
   * all the traffic), and kept meanwhile.
   */
  static @Nullable Integer newReplicaSetCount(RolloutSync s, int desired) {
    if (!delayOnAbort(s)) {
      return desired;
    }
    ReplicaSet rs = s.newRs;
    if (hasDeadline(rs)) {
      Instant at = deadline(rs);
      if (at == null) {
        return desired;
      }
      if (at.isAfter(s.now)) {
        s.wakeAt(at);
        return null;
      }
      return 0;
    }
    Integer delay = abortDelaySeconds(s.r);
    if (delay != null && s.stableRs.status().availableReplicas() >= s.r.spec().replicas()) {
      annotate(s, rs, delay);
      s.wakeAt(s.now.plusSeconds(delay));
    }
    return null;
  }

  /**
   * {@code removeScaleDownDeadlines}: the new ReplicaSet (unless its abort scale-down is being delayed) and the stable
   * one lose their deadline, as when an update goes back to a version still within its delay, or is retried.
   */
  static void removeDeadlines(RolloutSync s) {
    if (!delayOnAbort(s)) {
      removeDeadline(s, s.newRs);
    }
    if (s.stableRs != null && !s.stableRs.metadata().name().equals(s.newRs.metadata().name())) {
      removeDeadline(s, s.stableRs);
    }
  }

  /**
   * {@code scaleDownDelayHelper}: the count an old ReplicaSet keeps. A scaled-up one without a deadline gets one
   * ({@code now + scaleDownDelaySeconds}) and keeps its count while fewer than the revision limit were kept; a
   * deadline counts towards the limit, and keeps {@code keep} replicas while it has not passed; everything else is
   * 0 (also an unreadable deadline).
   *
   * @param kept how many old ReplicaSets were kept so far (newest first); incremented here
   */
  static int keepOld(RolloutSync s, ReplicaSet rs, int[] kept, int keep) {
    int limit = revisionLimit(s.r);
    if (!hasDeadline(rs) && rs.spec().replicas() > 0) {
      if (kept[0] < limit) {
        kept[0]++;
        int delay = scaleDownDelaySeconds(s.r);
        annotate(s, rs, delay);
        if (delay > 0) {
          s.wakeAt(s.now.plusSeconds(delay));
        }
        return rs.spec().replicas();
      }
      return 0;
    }
    if (hasDeadline(rs)) {
      kept[0]++;
      if (kept[0] > limit) {
        LOG.debug("rollout {}: at scaleDownDelayRevisionLimit ({}), scaling down {}", s.r.metadata().key(), limit,
            rs.metadata().name());
        return 0;
      }
      try {
        Duration left = remaining(rs, s.now);
        if (left != null) {
          s.wakeAt(s.now.plus(left));
          return keep;
        }
      } catch (IllegalArgumentException e) {
        LOG.debug("rollout {}: {}", s.r.metadata().key(), e.getMessage());
      }
    }
    return 0;
  }

  /**
   * {@code addScaleDownDelay}: sets the deadline {@code now + seconds}; with 0 seconds removes a deadline instead
   * (Argo's reading of 0, so an old version is then kept up: argo-rollouts issue #1992).
   */
  static void annotate(RolloutSync s, ReplicaSet rs, int seconds) {
    if (seconds == 0) {
      removeDeadline(s, rs);
      return;
    }
    ReplicaSet latest = s.store.require(ReplicaSet.class, s.ns, rs.metadata().name());
    s.replace(s.store.update(latest.withMetadata(latest.metadata().toBuilder()
        .annotation(SCALE_DOWN_DEADLINE, format(s.now, seconds)).build())));
  }

  /** {@code removeScaleDownDelay}. */
  static void removeDeadline(RolloutSync s, ReplicaSet rs) {
    if (!hasDeadline(rs)) {
      return;
    }
    ReplicaSet latest = s.store.require(ReplicaSet.class, s.ns, rs.metadata().name());
    var annotations = new java.util.HashMap<>(latest.metadata().annotations());
    annotations.remove(SCALE_DOWN_DEADLINE);
    s.replace(s.store.update(latest.withMetadata(latest.metadata().toBuilder().annotations(annotations).build())));
  }

  /**
   * {@code isReplicaSetReferenced}: its hash is the stable, current, active or preview one of the status, or the one
   * the canary weight was applied to (as recorded before this sync), or a Service of the strategy selects it; such a
   * ReplicaSet is not scaled down.
   */
  static boolean referenced(RolloutSync s, ReplicaSet rs) {
    String hash = RolloutSync.hashOf(rs);
    if (hash.isEmpty()) {
      return false;
    }
    RolloutStatus st = s.b.build();
    if (hash.equals(st.stableRs()) || hash.equals(s.hash) || hash.equals(st.activeSelector())
        || hash.equals(st.previewSelector()) || hash.equals(s.r.status().canaryWeightHash())) {
      return true;
    }
    List<@Nullable String> services = new ArrayList<>();
    if (s.r.canary() != null) {
      services.add(s.r.canary().canaryService());
      services.add(s.r.canary().stableService());
    } else {
      services.add(s.r.blueGreen().activeService());
      services.add(s.r.blueGreen().previewService());
    }
    for (String name : services) {
      if (name == null) {
        continue;
      }
      Service svc = s.store.get(Service.class, s.ns, name).orElse(null);
      if (svc != null && hash.equals(svc.spec().selector().get(Rollout.POD_TEMPLATE_HASH_LABEL))) {
        return true;
      }
    }
    return false;
  }
}
