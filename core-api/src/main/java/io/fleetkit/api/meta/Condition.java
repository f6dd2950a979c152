package io.fleetkit.api.meta;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The generic condition of newer kinds ({@code metav1.Condition}), e.g. a PodDisruptionBudget's
 * {@code DisruptionAllowed}. Older kinds (Pod, Node, PVC, HPA) have their own condition records with the same
 * idea.
 *
 * @param type CamelCase condition type, e.g. {@code DisruptionAllowed}
 * @param observedGeneration the {@code metadata.generation} the condition was set for; 0 when unknown
 * @param lastTransitionTime when {@code status} last changed, {@code null} when unknown
 * @param reason CamelCase machine-readable reason; may be empty
 * @param message human-readable detail; may be empty
 */
public record Condition(String type, ConditionStatus status, long observedGeneration,
    @Nullable Instant lastTransitionTime, String reason, String message) {
  public Condition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }

  public static Condition of(String type, ConditionStatus status, String reason, String message) {
    return new Condition(type, status, 0, null, reason, message);
  }

  public boolean isTrue() {
    return status == ConditionStatus.True;
  }

  /**
   * A new list: {@code conditions} with {@code c} in place of the condition of its type, or added at the end when
   * there is none (the others keep their order).
   */
  public static List<Condition> replacing(List<Condition> conditions, Condition c) {
    Objects.requireNonNull(c, "c");
    List<Condition> out = new ArrayList<>(conditions.size() + 1);
    boolean replaced = false;
    for (Condition old : conditions) {
      if (old.type().equals(c.type())) {
        out.add(c);
        replaced = true;
      } else {
        out.add(old);
      }
    }
    if (!replaced) {
      out.add(c);
    }
    return out;
  }
}
