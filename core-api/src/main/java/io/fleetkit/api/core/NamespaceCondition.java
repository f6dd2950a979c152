package io.fleetkit.api.core;

import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A condition of a {@link Namespace}: the namespace controller reports with these how the deletion of a namespace's
 * content goes (Kubernetes' {@code NamespaceCondition}). A condition type is {@code True} while its problem lasts
 * and {@code False} (with an "ok" reason) once it is over.
 *
 * @param type one of the types below, or another CamelCase name
 * @param lastTransitionTime when {@code status} last changed, {@code null} when unknown
 * @param reason CamelCase machine-readable reason; may be empty
 * @param message human-readable detail; may be empty
 */
public record NamespaceCondition(String type, ConditionStatus status, @Nullable Instant lastTransitionTime,
    String reason, String message) {
  /** Finding the kinds to delete failed (upstream's API discovery; FleetKit's controller is given its kinds). */
  public static final String DELETION_DISCOVERY_FAILURE = "NamespaceDeletionDiscoveryFailure";
  /** Parsing a discovered group version failed (upstream only; FleetKit's controller never reports it True). */
  public static final String DELETION_GROUP_VERSION_PARSING_FAILURE = "NamespaceDeletionGroupVersionParsingFailure";
  /** Deleting some content failed: the message lists the errors. */
  public static final String DELETION_CONTENT_FAILURE = "NamespaceDeletionContentFailure";
  /** Content is still in the namespace: the message counts it per resource. */
  public static final String CONTENT_REMAINING = "NamespaceContentRemaining";
  /** Content still in the namespace waits for finalizers: the message counts it per finalizer. */
  public static final String FINALIZERS_REMAINING = "NamespaceFinalizersRemaining";
  /** The condition types the namespace controller maintains, in the order it adds them. */
  public static final List<String> DELETION_TYPES = List.of(DELETION_DISCOVERY_FAILURE,
      DELETION_GROUP_VERSION_PARSING_FAILURE, DELETION_CONTENT_FAILURE, CONTENT_REMAINING, FINALIZERS_REMAINING);

  public NamespaceCondition {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }

  /** A condition without a transition time. */
  public static NamespaceCondition of(String type, ConditionStatus status, String reason, String message) {
    return new NamespaceCondition(type, status, null, reason, message);
  }

  /** This condition with {@code lastTransitionTime} replaced. */
  public NamespaceCondition withLastTransitionTime(@Nullable Instant time) {
    return new NamespaceCondition(type, status, time, reason, message);
  }
}
