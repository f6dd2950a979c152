package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.dra.DeviceTaintEffect;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.DeviceTaintRuleStatus;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The {@code EvictionInProgress} condition of a DeviceTaintRule, with the reasons and messages of Kubernetes'
 * {@code maybeUpdateRuleStatus} ({@code pkg/controller/devicetainteviction/device_taint_eviction.go}), and when it
 * may be written: at once for a new rule or a changed spec, then at most every {@link #STATUS_PERIOD}. Stateless.
 */
public final class DeviceTaintRuleConditions {
  /** Upstream's {@code ruleStatusPeriod}: the shortest time between status updates while eviction goes on. */
  public static final Duration STATUS_PERIOD = Duration.ofSeconds(10);

  private DeviceTaintRuleConditions() {}

  /** What upstream counts for the condition. */
  public record Counts(long pendingPods, long pendingNamespaces, long evictedPods, long publishedDevices,
      long allocatedDevices) {}

  /**
   * The condition for {@code rule} (its {@code lastTransitionTime} left {@code null}): for NoExecute, True with
   * {@value DeviceTaintRuleStatus#PODS_PENDING_EVICTION} while pods must go, else False with
   * {@value DeviceTaintRuleStatus#COMPLETED} once this controller evicted some, {@value DeviceTaintRuleStatus#NOT_STARTED}
   * before; for None, {@value DeviceTaintRuleStatus#NO_EFFECT} with what NoExecute would do; for NoSchedule,
   * {@value DeviceTaintRuleStatus#OTHER_EFFECT}. The number of pods evicted is appended when not zero.
   */
  public static Condition condition(DeviceTaintRule rule, Counts c) {
    DeviceTaintEffect effect = rule.spec().taint().effect();
    ConditionStatus status = ConditionStatus.False;
    String reason;
    StringBuilder message = new StringBuilder();
    switch (effect) {
      case NO_EXECUTE -> {
        if (c.pendingPods() > 0) {
          reason = DeviceTaintRuleStatus.PODS_PENDING_EVICTION;
          status = ConditionStatus.True;
          message.append(c.pendingPods() == 1 ? "1 pod needs" : c.pendingPods() + " pods need")
              .append(" to be evicted in ")
              .append(c.pendingNamespaces() == 1 ? "1 namespace." : c.pendingNamespaces() + " different namespaces.");
        } else if (c.evictedPods() > 0) {
          reason = DeviceTaintRuleStatus.COMPLETED;
        } else {
          reason = DeviceTaintRuleStatus.NOT_STARTED;
        }
      }
      case NONE -> {
        reason = DeviceTaintRuleStatus.NO_EFFECT;
        message.append(count(c.publishedDevices(), "published device")).append(" selected. ")
            .append(count(c.allocatedDevices(), "allocated device")).append(" selected. ")
            .append(count(c.pendingPods(), "pod")).append(" would be evicted in ")
            .append(c.pendingNamespaces() == 1 ? "1 namespace " : c.pendingNamespaces() + " different namespaces ")
            .append("if the effect was NoExecute. This information will not be updated again. Recreate the "
                + "DeviceTaintRule to trigger an update.");
      }
      default -> {
        reason = DeviceTaintRuleStatus.OTHER_EFFECT;
        message.append("Eviction only happens for the NoExecute effect.");
      }
    }
    if (c.evictedPods() > 0) {
      if (message.length() > 0) {
        message.append(' ');
      }
      message.append(count(c.evictedPods(), "pod")).append(" evicted since starting the controller.");
    }
    return new Condition(DeviceTaintRuleStatus.EVICTION_IN_PROGRESS, status, rule.metadata().generation(), null,
        reason, message.toString());
  }

  private static String count(long n, String what) {
    return n == 1 ? "1 " + what : n + " " + what + "s";
  }

  /**
   * When {@code rule}'s condition may next be written, given its current one: now when it has none or one for an
   * older generation; never again (null) for a rule whose effect is not NoExecute (upstream computes those once per
   * generation); else {@link #STATUS_PERIOD} after its last transition.
   */
  public static @Nullable Instant nextWrite(DeviceTaintRule rule, Instant now) {
    Condition existing = rule.status().condition(DeviceTaintRuleStatus.EVICTION_IN_PROGRESS);
    if (existing == null || existing.observedGeneration() != rule.metadata().generation()
        || existing.lastTransitionTime() == null) {
      return now;
    }
    if (rule.spec().taint().effect() != DeviceTaintEffect.NO_EXECUTE) {
      return null;
    }
    return existing.lastTransitionTime().plus(STATUS_PERIOD);
  }

  /** Whether {@code a} and {@code b} say the same, their transition times aside. */
  public static boolean sameContent(@Nullable Condition a, Condition b) {
    return a != null && a.type().equals(b.type()) && a.status() == b.status()
        && a.observedGeneration() == b.observedGeneration() && a.reason().equals(b.reason())
        && a.message().equals(b.message());
  }
}
