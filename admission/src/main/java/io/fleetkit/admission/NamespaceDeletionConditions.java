package io.fleetkit.admission;

import io.fleetkit.api.core.NamespaceCondition;
import io.fleetkit.api.core.NamespaceStatus;
import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The conditions the namespace controller writes while it deletes a namespace's content, as Kubernetes'
 * {@code pkg/controller/namespace/deletion/status_condition_utils.go}: the failures and remainders found by one pass
 * become {@code True} conditions, and every one of the five {@link NamespaceCondition#DELETION_TYPES} not found
 * becomes its {@code False} "ok" variant. One instance collects one pass; not thread-safe.
 */
final class NamespaceDeletionConditions {
  private static final Map<String, String> OK_REASONS = Map.of(
      NamespaceCondition.DELETION_DISCOVERY_FAILURE, "ResourcesDiscovered",
      NamespaceCondition.DELETION_GROUP_VERSION_PARSING_FAILURE, "ParsedGroupVersions",
      NamespaceCondition.DELETION_CONTENT_FAILURE, "ContentDeleted",
      NamespaceCondition.CONTENT_REMAINING, "ContentRemoved",
      NamespaceCondition.FINALIZERS_REMAINING, "ContentHasNoFinalizers");
  private static final Map<String, String> OK_MESSAGES = Map.of(
      NamespaceCondition.DELETION_DISCOVERY_FAILURE, "All resources successfully discovered",
      NamespaceCondition.DELETION_GROUP_VERSION_PARSING_FAILURE, "All legacy kube types successfully parsed",
      NamespaceCondition.DELETION_CONTENT_FAILURE, "All content successfully deleted, may be waiting on finalization",
      NamespaceCondition.CONTENT_REMAINING, "All content successfully removed",
      NamespaceCondition.FINALIZERS_REMAINING, "All content-preserving finalizers finished");

  private final List<NamespaceCondition> newConditions = new ArrayList<>();
  private final List<String> deleteContentErrors = new ArrayList<>();

  /** The conditions found so far (upstream's {@code newConditions}). */
  List<NamespaceCondition> newConditions() {
    return List.copyOf(newConditions);
  }

  /** Adds a condition found by the pass (upstream builds them in its Process* methods). */
  void add(NamespaceCondition c) {
    newConditions.add(c);
  }

  /** Upstream's {@code ProcessDeleteContentErr}: one kind's deletion failed with {@code message}. */
  void deleteContentError(String message) {
    deleteContentErrors.add(message);
  }

  /**
   * Upstream's {@code ProcessContentTotals}: {@code NamespaceContentRemaining} when objects remain (keyed
   * {@code resource.group}, e.g. {@code pods.} or {@code deployments.apps}), {@code NamespaceFinalizersRemaining}
   * when some wait for finalizers; entries with a count of 0 are left out of the messages.
   */
  void contentTotals(Map<String, Integer> remainingByResource, Map<String, Integer> remainingByFinalizer,
      Instant now) {
    if (!remainingByResource.isEmpty()) {
      List<String> parts = new ArrayList<>();
      for (Map.Entry<String, Integer> e : new TreeMap<>(remainingByResource).entrySet()) {
        if (e.getValue() != 0) {
          parts.add(e.getKey() + " has " + e.getValue() + " resource instances");
        }
      }
      parts.sort(null); // sorted for stable updates, as upstream
      newConditions.add(new NamespaceCondition(NamespaceCondition.CONTENT_REMAINING, ConditionStatus.True, now,
          "SomeResourcesRemain", "Some resources are remaining: " + String.join(", ", parts)));
    }
    if (!remainingByFinalizer.isEmpty()) {
      List<String> parts = new ArrayList<>();
      for (Map.Entry<String, Integer> e : remainingByFinalizer.entrySet()) {
        if (e.getValue() != 0) {
          parts.add(e.getKey() + " in " + e.getValue() + " resource instances");
        }
      }
      parts.sort(null);
      newConditions.add(new NamespaceCondition(NamespaceCondition.FINALIZERS_REMAINING, ConditionStatus.True, now,
          "SomeFinalizersRemain", "Some content in the namespace has finalizers remaining: "
              + String.join(", ", parts)));
    }
  }

  /**
   * Upstream's {@code Update}: adds the content-failure condition made of the collected errors (unless one was added),
   * then {@link #update(NamespaceStatus, List, Instant)}.
   *
   * @return the status with the conditions, the same instance when nothing changed
   */
  NamespaceStatus apply(NamespaceStatus status, Instant now) {
    if (condition(newConditions, NamespaceCondition.DELETION_CONTENT_FAILURE) == null
        && !deleteContentErrors.isEmpty()) {
      List<String> msgs = new ArrayList<>(deleteContentErrors);
      msgs.sort(null);
      newConditions.add(new NamespaceCondition(NamespaceCondition.DELETION_CONTENT_FAILURE, ConditionStatus.True, now,
          "ContentDeletionFailed", "Failed to delete all resource types, " + msgs.size() + " remaining: "
              + String.join(", ", msgs)));
    }
    return update(status, newConditions, now);
  }

  /**
   * Upstream's {@code updateConditions}: for each of the five types, the new condition (or the "ok" one) is appended
   * when the status has none of that type, or replaces the old one's status, reason and message when one of them
   * differs (the transition time is {@code now} only when the status changes). Other conditions and the order of
   * existing ones are kept.
   *
   * @return the updated status, the same instance when nothing changed
   */
  static NamespaceStatus update(NamespaceStatus status, List<NamespaceCondition> newConditions, Instant now) {
    List<NamespaceCondition> conditions = new ArrayList<>(status.conditions());
    boolean changed = false;
    for (String type : NamespaceCondition.DELETION_TYPES) {
      NamespaceCondition fresh = condition(newConditions, type);
      if (fresh == null) {
        fresh = successful(type, now);
      }
      int i = indexOf(conditions, type);
      if (i < 0) {
        conditions.add(fresh);
        changed = true;
      } else {
        NamespaceCondition old = conditions.get(i);
        if (old.status() != fresh.status() || !old.message().equals(fresh.message())
            || !old.reason().equals(fresh.reason())) {
          Instant time = old.status() != fresh.status() ? now : old.lastTransitionTime();
          conditions.set(i, new NamespaceCondition(type, fresh.status(), time, fresh.reason(), fresh.message()));
          changed = true;
        }
      }
    }
    return changed ? status.withConditions(conditions) : status;
  }

  /** The {@code False} condition of {@code type} with its "ok" reason and message. */
  static NamespaceCondition successful(String type, Instant now) {
    return new NamespaceCondition(type, ConditionStatus.False, now, OK_REASONS.getOrDefault(type, ""),
        OK_MESSAGES.getOrDefault(type, ""));
  }

  private static @Nullable NamespaceCondition condition(List<NamespaceCondition> conditions, String type) {
    int i = indexOf(conditions, type);
    return i < 0 ? null : conditions.get(i);
  }

  private static int indexOf(List<NamespaceCondition> conditions, String type) {
    for (int i = 0; i < conditions.size(); i++) {
      if (conditions.get(i).type().equals(type)) {
        return i;
      }
    }
    return -1;
  }
}
