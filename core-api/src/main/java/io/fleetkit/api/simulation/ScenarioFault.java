package io.fleetkit.api.simulation;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A fault injected {@code at} after the start; it heals {@code recoverAfter} later, or never when {@code null}.
 *
 * @param target a node name ({@link FaultType#NodeFailure}) or a zone ({@link FaultType#ZoneFailure})
 */
public record ScenarioFault(Duration at, FaultType type, String target, @Nullable Duration recoverAfter) {
  public ScenarioFault {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(target, "target");
  }
}
