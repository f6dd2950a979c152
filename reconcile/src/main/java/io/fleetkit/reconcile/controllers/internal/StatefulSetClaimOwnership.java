package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetPersistentVolumeClaimRetentionPolicy;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.OwnerReference;
import java.util.ArrayList;
import java.util.List;

/**
 * The owner references a StatefulSet's {@code persistentVolumeClaimRetentionPolicy} asks of the claims of one pod,
 * after upstream's {@code stateful_set_utils.go} ({@code matchesRef}, {@code hasUnexpectedController},
 * {@code hasNonControllerOwner}, {@code isClaimOwnerUpToDate}, {@code updateClaimOwnerRefForSetAndPod},
 * {@code hasOwnerRef}, {@code hasStaleOwnerRef}, {@code addControllerRef}). The garbage collector does the deleting:
 *
 * <table>
 *   <caption>The claim's controller references by policy</caption>
 *   <tr><th>whenScaled</th><th>whenDeleted</th><th>pod in range</th><th>condemned pod</th></tr>
 *   <tr><td>Retain</td><td>Retain</td><td>none</td><td>none</td></tr>
 *   <tr><td>Retain</td><td>Delete</td><td>the set</td><td>the set</td></tr>
 *   <tr><td>Delete</td><td>Retain</td><td>none</td><td>the pod</td></tr>
 *   <tr><td>Delete</td><td>Delete</td><td>the set</td><td>the pod</td></tr>
 * </table>
 *
 * <p>A claim with a stale reference (the set's or pod's name and kind, another uid: an earlier object of that name)
 * is left alone, as is one controlled by another object (references to the set or pod are then removed, none added).
 * The functions work on the claim's reference list and are pure; thread-safe.
 */
public final class StatefulSetClaimOwnership {
  private StatefulSetClaimOwnership() {}

  /** Upstream's {@code getPersistentVolumeClaimRetentionPolicy} (the model defaults it to Retain/Retain). */
  public static StatefulSetPersistentVolumeClaimRetentionPolicy policy(StatefulSet set) {
    return set.spec().persistentVolumeClaimRetentionPolicy();
  }

  /** Upstream's {@code matchesRef}: same apiVersion, kind and name (not uid). */
  public static boolean matchesRef(OwnerReference ref, String apiVersion, String kind, String name) {
    return ref.apiVersion().equals(apiVersion) && ref.kind().equals(kind) && ref.name().equals(name);
  }

  /** {@link #matchesRef(OwnerReference, String, String, String)} for an object. */
  public static boolean matchesRef(OwnerReference ref, ApiObject<?> obj) {
    return matchesRef(ref, obj.apiVersion(), obj.kind(), obj.metadata().name());
  }

  /** Upstream's {@code hasOwnerRef}: a reference to {@code ownerUid}, controller or not. */
  public static boolean hasOwnerRef(List<OwnerReference> refs, String ownerUid) {
    for (OwnerReference r : refs) {
      if (r.uid().equals(ownerUid)) {
        return true;
      }
    }
    return false;
  }

  /** Upstream's {@code hasStaleOwnerRef}: the first reference matching {@code obj} has another uid. */
  public static boolean hasStaleOwnerRef(List<OwnerReference> refs, ApiObject<?> obj) {
    for (OwnerReference r : refs) {
      if (matchesRef(r, obj)) {
        return !r.uid().equals(obj.metadata().uid());
      }
    }
    return false;
  }

  /**
   * Upstream's {@code hasUnexpectedController}: under a policy with a Delete, a controller that is neither the set
   * nor the pod, or a reference to their names with another uid (pods or claims orphaned wrongly: left to the
   * garbage collector). Under Retain/Retain any controller is fine.
   */
  public static boolean hasUnexpectedController(List<OwnerReference> refs, StatefulSet set, Pod pod) {
    if (policy(set).retainsAll()) {
      return false;
    }
    for (OwnerReference r : refs) {
      if (matchesRef(r, set)) {
        if (!r.uid().equals(set.metadata().uid())) {
          return true;
        }
        continue;
      }
      if (matchesRef(r, pod)) {
        if (!r.uid().equals(pod.metadata().uid())) {
          return true;
        }
        continue;
      }
      if (r.controller()) {
        return true;
      }
    }
    return false;
  }

  /** Upstream's {@code hasNonControllerOwner}: the set or the pod (by uid) owns the claim without controlling it. */
  public static boolean hasNonControllerOwner(List<OwnerReference> refs, StatefulSet set, Pod pod) {
    for (OwnerReference r : refs) {
      if ((r.uid().equals(set.metadata().uid()) || r.uid().equals(pod.metadata().uid())) && !r.controller()) {
        return true;
      }
    }
    return false;
  }

  /** Upstream's {@code podInOrdinalRange}: the pod's ordinal is in {@code [start, start + replicas)}. */
  public static boolean podInOrdinalRange(Pod pod, StatefulSet set) {
    return set.spec().inOrdinalRange(StatefulSetPods.ordinal(pod));
  }

  /**
   * Upstream's {@code isClaimOwnerUpToDate}: whether the references already are what the policy asks (see the
   * table). Stale references, or an unexpected controller with no reference to the set or pod, count as up to date:
   * such a claim is not touched.
   */
  public static boolean isClaimOwnerUpToDate(List<OwnerReference> refs, StatefulSet set, Pod pod) {
    if (hasStaleOwnerRef(refs, set) || hasStaleOwnerRef(refs, pod)) {
      return true; // managed by an earlier, presumably deleted, set or pod of that name: leave it alone
    }
    boolean setRef = hasOwnerRef(refs, set.metadata().uid());
    boolean podRef = hasOwnerRef(refs, pod.metadata().uid());
    if (hasUnexpectedController(refs, set, pod)) {
      return !setRef && !podRef; // our references next to another controller must go; otherwise leave it alone
    }
    if (hasNonControllerOwner(refs, set, pod)) {
      return false;
    }
    StatefulSetPersistentVolumeClaimRetentionPolicy p = policy(set);
    boolean scaleDelete = p.whenScaled() == PersistentVolumeClaimRetentionPolicyType.Delete;
    boolean setDelete = p.whenDeleted() == PersistentVolumeClaimRetentionPolicyType.Delete;
    boolean scaledDown = !podInOrdinalRange(pod, set);
    if (!scaleDelete && !setDelete) {
      return !setRef && !podRef;
    }
    if (!scaleDelete) {
      return setRef && !podRef;
    }
    if (!setDelete) {
      return !setRef && scaledDown == podRef;
    }
    // Delete on both: a condemned pod's claim has the pod and not the set, a live one the set and not the pod
    return scaledDown != setRef && scaledDown == podRef;
  }

  /**
   * Upstream's {@code updateClaimOwnerRefForSetAndPod}: the claim's references with those to the set and pod (by
   * name and kind) replaced by the controller references the policy asks; with an unexpected controller, only
   * removed. Other references are kept, in order.
   */
  public static List<OwnerReference> updateClaimOwnerRefForSetAndPod(List<OwnerReference> refs, StatefulSet set,
      Pod pod) {
    boolean unexpectedController = hasUnexpectedController(refs, set, pod);
    List<OwnerReference> out = new ArrayList<>();
    for (OwnerReference r : refs) {
      if (!matchesRef(r, set) && !matchesRef(r, pod)) {
        out.add(r);
      }
    }
    if (unexpectedController) {
      return List.copyOf(out);
    }
    StatefulSetPersistentVolumeClaimRetentionPolicy p = policy(set);
    boolean scaleDelete = p.whenScaled() == PersistentVolumeClaimRetentionPolicyType.Delete;
    boolean setDelete = p.whenDeleted() == PersistentVolumeClaimRetentionPolicyType.Delete;
    boolean scaledDown = !podInOrdinalRange(pod, set);
    if (scaleDelete && scaledDown) {
      out = addControllerRef(out, pod);
    } else if (setDelete) {
      out = addControllerRef(out, set);
    }
    return List.copyOf(out);
  }

  /** Upstream's {@code addControllerRef}: {@code refs} with a controller reference to {@code owner}, unless there. */
  public static List<OwnerReference> addControllerRef(List<OwnerReference> refs, ApiObject<?> owner) {
    if (hasOwnerRef(refs, owner.metadata().uid())) {
      return refs;
    }
    List<OwnerReference> out = new ArrayList<>(refs);
    out.add(OwnerReference.controllerOf(owner));
    return out;
  }
}
