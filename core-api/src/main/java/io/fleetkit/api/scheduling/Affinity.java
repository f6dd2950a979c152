package io.fleetkit.api.scheduling;

import org.jspecify.annotations.Nullable;

/** A pod's affinity: node affinity, pod affinity and pod anti-affinity (each may be absent). */
public record Affinity(@Nullable NodeAffinity nodeAffinity, @Nullable PodAffinity podAffinity,
    @Nullable PodAffinity podAntiAffinity) {
  public static final Affinity NONE = new Affinity(null, null, null);
}
