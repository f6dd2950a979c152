package io.fleetkit.autoscale.queue;

import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerBehavior;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * KEDA's ScaledObject ({@code keda.sh/v1alpha1}): a scale target, its triggers and the scaling bounds and timings.
 * Build with {@link #builder(String, String, CrossVersionObjectReference)}; defaults are KEDA's.
 *
 * @param pollingInterval how often the triggers are read (KEDA: 30 s)
 * @param cooldownPeriod how long after the last active trigger the target goes back to {@code minReplicaCount}
 *     (KEDA: 300 s)
 * @param minReplicaCount the replicas when idle, typically 0 (KEDA's default)
 * @param maxReplicaCount the most replicas (KEDA: 100)
 * @param idleReplicaCount replicas when no trigger is active, below {@code minReplicaCount}; {@code null} for none
 * @param behavior the HPA behavior used from 1 to N ({@code advanced.horizontalPodAutoscalerConfig}), {@code null}
 *     for the HPA's legacy rules
 * <p>The constructor throws {@link IllegalArgumentException} when a rule is broken (the message names the field and
 * value).
 */
public record ScaledObject(String namespace, String name, CrossVersionObjectReference scaleTargetRef,
    List<ScaleTrigger> triggers, Duration pollingInterval, Duration cooldownPeriod, int minReplicaCount,
    int maxReplicaCount, @Nullable Integer idleReplicaCount, @Nullable HorizontalPodAutoscalerBehavior behavior) {
  public static final Duration DEFAULT_POLLING_INTERVAL = Duration.ofSeconds(30);
  public static final Duration DEFAULT_COOLDOWN_PERIOD = Duration.ofSeconds(300);
  public static final int DEFAULT_MAX_REPLICA_COUNT = 100;

  public ScaledObject {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(scaleTargetRef, "scaleTargetRef");
    triggers = List.copyOf(triggers);
    Objects.requireNonNull(pollingInterval, "pollingInterval");
    Objects.requireNonNull(cooldownPeriod, "cooldownPeriod");
    String id = "scaledobject " + namespace + "/" + name + ": ";
    if (name.isEmpty()) {
      throw new IllegalArgumentException(id + "name must not be empty");
    }
    if (triggers.isEmpty()) {
      throw new IllegalArgumentException(id + "spec.triggers must not be empty");
    }
    Set<String> seen = new HashSet<>();
    for (ScaleTrigger t : triggers) {
      if (!seen.add(t.name())) {
        throw new IllegalArgumentException(id + "spec.triggers: duplicate trigger name \"" + t.name() + "\"");
      }
    }
    if (pollingInterval.isNegative() || pollingInterval.isZero()) {
      throw new IllegalArgumentException(id + "spec.pollingInterval " + pollingInterval + " must be > 0");
    }
    if (cooldownPeriod.isNegative()) {
      throw new IllegalArgumentException(id + "spec.cooldownPeriod " + cooldownPeriod + " must be >= 0");
    }
    if (minReplicaCount < 0) {
      throw new IllegalArgumentException(id + "spec.minReplicaCount " + minReplicaCount + " must be >= 0");
    }
    if (maxReplicaCount < 1 || maxReplicaCount < minReplicaCount) {
      throw new IllegalArgumentException(id + "spec.maxReplicaCount " + maxReplicaCount
          + " must be >= 1 and >= minReplicaCount " + minReplicaCount);
    }
    if (idleReplicaCount != null && (idleReplicaCount < 0 || idleReplicaCount >= minReplicaCount)) {
      throw new IllegalArgumentException(id + "spec.idleReplicaCount " + idleReplicaCount
          + " must be >= 0 and < minReplicaCount " + minReplicaCount);
    }
  }

  /** The replicas the target rests at when no trigger is active: {@code idleReplicaCount}, else the minimum. */
  public int restingReplicas() {
    Integer idle = idleReplicaCount;
    return idle != null ? idle : minReplicaCount;
  }

  /** {@code namespace/name}. */
  public String key() {
    return namespace + "/" + name;
  }

  public static Builder builder(String namespace, String name, CrossVersionObjectReference scaleTargetRef) {
    return new Builder(namespace, name, scaleTargetRef);
  }

  /** Mutable builder with KEDA's defaults. Not thread-safe. */
  public static final class Builder {
    private final String namespace;
    private final String name;
    private final CrossVersionObjectReference scaleTargetRef;
    private final List<ScaleTrigger> triggers = new ArrayList<>();
    private Duration pollingInterval = DEFAULT_POLLING_INTERVAL;
    private Duration cooldownPeriod = DEFAULT_COOLDOWN_PERIOD;
    private int minReplicaCount;
    private int maxReplicaCount = DEFAULT_MAX_REPLICA_COUNT;
    private @Nullable Integer idleReplicaCount;
    private @Nullable HorizontalPodAutoscalerBehavior behavior;

    private Builder(String namespace, String name, CrossVersionObjectReference scaleTargetRef) {
      this.namespace = namespace;
      this.name = name;
      this.scaleTargetRef = scaleTargetRef;
    }

    public Builder trigger(ScaleTrigger v) { triggers.add(v); return this; }
    public Builder pollingInterval(Duration v) { pollingInterval = v; return this; }
    public Builder cooldownPeriod(Duration v) { cooldownPeriod = v; return this; }
    public Builder minReplicaCount(int v) { minReplicaCount = v; return this; }
    public Builder maxReplicaCount(int v) { maxReplicaCount = v; return this; }
    public Builder idleReplicaCount(@Nullable Integer v) { idleReplicaCount = v; return this; }
    public Builder behavior(@Nullable HorizontalPodAutoscalerBehavior v) { behavior = v; return this; }

    public ScaledObject build() {
      return new ScaledObject(namespace, name, scaleTargetRef, triggers, pollingInterval, cooldownPeriod,
          minReplicaCount, maxReplicaCount, idleReplicaCount, behavior);
    }
  }
}
