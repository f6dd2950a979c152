package io.fleetkit.api.store.spi;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletionPropagation;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The garbage-collection finalizers a deletion sets or removes, as the API server's generic registry store
 * ({@code k8s.io/apiserver/pkg/registry/generic/registry/store.go}: {@code shouldOrphanDependents},
 * {@code shouldDeleteDependentsInForeground}, {@code deletionFinalizersForGarbageCollection}) and the per-kind
 * defaults of its strategies ({@code DefaultGarbageCollectionPolicy}). Three sources decide, highest first: the
 * deletion's options ({@code orphanDependents}, then {@code propagationPolicy}), the {@code orphan} or
 * {@code foregroundDeletion} finalizer the object already has (the first of the two in its list), and the kind's
 * default. Stateless and thread-safe.
 */
public final class DeletionFinalizers {
  private DeletionFinalizers() {}

  /**
   * The default policy of {@code object}'s kind. Kubernetes' strategies answer by the request's group and version;
   * FleetKit serves one version per kind, so the kind and its {@code apiVersion} decide:
   *
   * <ul>
   *   <li>Job {@code batch/v1}: {@link GarbageCollectionPolicy#ORPHAN_DEPENDENTS} ({@code pkg/registry/batch/job/
   *       strategy.go}: "OrphanDependents for batch/v1 for backwards compatibility"), which is why
   *       {@code kubectl} and the controllers that delete Jobs send a policy;</li>
   *   <li>ReplicationController {@code v1}: {@link GarbageCollectionPolicy#ORPHAN_DEPENDENTS}, as its strategy
   *       ({@code pkg/registry/core/replicationcontroller/strategy.go}) answers, for the same reason;</li>
   *   <li>every other kind: {@link GarbageCollectionPolicy#DELETE_DEPENDENTS} (apps/v1 Deployments, ReplicaSets,
   *       StatefulSets and DaemonSets, batch/v1 CronJobs, and the kinds whose strategies name no default, which
   *       the store treats alike). FleetKit has no kind of the older apps or extensions versions that
   *       orphaned by default.</li>
   * </ul>
   */
  public static GarbageCollectionPolicy defaultPolicy(ApiObject<?> object) {
    if (object instanceof Job job && Job.API_VERSION.equals(job.apiVersion())
        || object instanceof io.fleetkit.api.core.ReplicationController) {
      return GarbageCollectionPolicy.ORPHAN_DEPENDENTS;
    }
    return GarbageCollectionPolicy.DELETE_DEPENDENTS;
  }

  /** Upstream's {@code shouldOrphanDependents}: whether the object should carry the {@code orphan} finalizer. */
  public static boolean shouldOrphanDependents(List<String> finalizers, DeleteOptions options,
      GarbageCollectionPolicy policy) {
    if (policy == GarbageCollectionPolicy.UNSUPPORTED) {
      return false;
    }
    Boolean orphan = options.orphanDependents();
    if (orphan != null) {
      return orphan;
    }
    DeletionPropagation p = options.propagationPolicy();
    if (p != null) {
      return p == DeletionPropagation.ORPHAN;
    }
    for (String f : finalizers) {
      if (f.equals(DeletionPropagation.ORPHAN_FINALIZER)) {
        return true;
      }
      if (f.equals(DeletionPropagation.FOREGROUND_FINALIZER)) {
        return false;
      }
    }
    return policy == GarbageCollectionPolicy.ORPHAN_DEPENDENTS;
  }

  /**
   * Upstream's {@code shouldDeleteDependentsInForeground}: whether the object should carry the
   * {@code foregroundDeletion} finalizer.
   */
  public static boolean shouldDeleteDependentsInForeground(List<String> finalizers, DeleteOptions options,
      GarbageCollectionPolicy policy) {
    if (policy == GarbageCollectionPolicy.UNSUPPORTED || options.orphanDependents() != null) {
      return false;
    }
    DeletionPropagation p = options.propagationPolicy();
    if (p != null) {
      return p == DeletionPropagation.FOREGROUND;
    }
    for (String f : finalizers) {
      if (f.equals(DeletionPropagation.FOREGROUND_FINALIZER)) {
        return true;
      }
      if (f.equals(DeletionPropagation.ORPHAN_FINALIZER)) {
        return false;
      }
    }
    return false;
  }

  /**
   * Upstream's {@code deletionFinalizersForGarbageCollection}: the object's finalizers after the deletion, or
   * {@code null} when they do not change (compared as sets, as upstream). Both GC finalizers are taken out, then
   * {@code orphan} and {@code foregroundDeletion} are appended as {@link #shouldOrphanDependents} and
   * {@link #shouldDeleteDependentsInForeground} say; the other finalizers keep their order. Allocates nothing when
   * nothing changes.
   */
  public static @Nullable List<String> forDeletion(List<String> finalizers, DeleteOptions options,
      GarbageCollectionPolicy policy) {
    if (finalizers.isEmpty() && !options.choosesPropagation()
        && policy != GarbageCollectionPolicy.ORPHAN_DEPENDENTS) {
      return null; // the plain deletion of an object without finalizers: the hot path
    }
    boolean orphan = shouldOrphanDependents(finalizers, options, policy);
    boolean foreground = shouldDeleteDependentsInForeground(finalizers, options, policy);
    return withGcFinalizers(finalizers, orphan, foreground);
  }

  /**
   * The namespace registry's rules for the first deletion of a namespace ({@code pkg/registry/core/namespace/
   * storage/storage.go}, {@code shouldHaveOrphanFinalizer} and {@code shouldHaveDeleteDependentsFinalizer}): an
   * option wins ({@code orphanDependents: false} asks for the foreground finalizer there, unlike the generic
   * store), else the finalizers are kept. Returns the new list, or {@code null} when it does not change.
   */
  static @Nullable List<String> forNamespaceDeletion(List<String> finalizers, DeleteOptions options) {
    if (!options.choosesPropagation()) {
      return null;
    }
    Boolean orphanDependents = options.orphanDependents();
    DeletionPropagation p = options.propagationPolicy();
    boolean orphan = orphanDependents != null ? orphanDependents : p == DeletionPropagation.ORPHAN;
    boolean foreground = orphanDependents != null ? !orphanDependents : p == DeletionPropagation.FOREGROUND;
    return withGcFinalizers(finalizers, orphan, foreground);
  }

  /**
   * {@code finalizers} without the two GC finalizers, then {@code orphan} and {@code foregroundDeletion} as asked;
   * {@code null} when that is the same set (only the two GC finalizers can differ).
   */
  private static @Nullable List<String> withGcFinalizers(List<String> finalizers, boolean orphan,
      boolean foreground) {
    if (finalizers.contains(DeletionPropagation.ORPHAN_FINALIZER) == orphan
        && finalizers.contains(DeletionPropagation.FOREGROUND_FINALIZER) == foreground) {
      return null;
    }
    List<String> updated = new ArrayList<>(finalizers.size() + 1);
    for (String f : finalizers) {
      if (!f.equals(DeletionPropagation.ORPHAN_FINALIZER) && !f.equals(DeletionPropagation.FOREGROUND_FINALIZER)) {
        updated.add(f);
      }
    }
    if (orphan) {
      updated.add(DeletionPropagation.ORPHAN_FINALIZER);
    }
    if (foreground) {
      updated.add(DeletionPropagation.FOREGROUND_FINALIZER);
    }
    return List.copyOf(updated);
  }
}
