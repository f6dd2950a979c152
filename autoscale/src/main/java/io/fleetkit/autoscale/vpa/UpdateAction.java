package io.fleetkit.autoscale.vpa;

import java.util.Objects;

/**
 * What the updater did (or declined to do) with one pod.
 *
 * @param pod {@code namespace/name}
 * @param action {@value #EVICTED}, {@value #RESIZED_IN_PLACE}, {@value #IN_PLACE_DEFERRED}, {@value #BLOCKED_BY_PDB},
 *     {@value #BLOCKED_BY_EVICTION_TOLERANCE} or {@value #EVICTION_FAILED}
 * @param priority the pod's update priority
 * @param reason why, when the eviction API refused or failed (its message); empty otherwise
 */
public record UpdateAction(String pod, String action, PodPriority priority, String reason) {
  /** The pod was evicted through the eviction API. */
  public static final String EVICTED = "Evicted";
  /** The pod's requests were resized in place (pods/resize). */
  public static final String RESIZED_IN_PLACE = "ResizedInPlace";
  /** In-place mode: the resize waits for a later pass (Pending pod, or the group's tolerance is used up). */
  public static final String IN_PLACE_DEFERRED = "InPlaceDeferred";
  /** The eviction API refused the eviction: a PodDisruptionBudget does not allow it now ({@link #reason} says why). */
  public static final String BLOCKED_BY_PDB = "BlockedByPdb";
  /** The updater's own restriction ({@link PodsEvictionRestriction}) keeps the pod for a later pass. */
  public static final String BLOCKED_BY_EVICTION_TOLERANCE = "BlockedByEvictionTolerance";
  /**
   * The eviction failed otherwise (the pod was gone or replaced meanwhile, or the store kept conflicting): not
   * counted against the group's eviction tolerance.
   */
  public static final String EVICTION_FAILED = "EvictionFailed";

  public UpdateAction {
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(priority, "priority");
    Objects.requireNonNull(reason, "reason");
  }

  /** An action with no reason to report. */
  public UpdateAction(String pod, String action, PodPriority priority) {
    this(pod, action, priority, "");
  }
}
