package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Upstream's {@code syncOrphanPod} (the Job controller's orphan queue): removes the {@value Job#TRACKING_FINALIZER}
 * finalizer from a pod no Job will count any more, so that it is not kept forever. The finalizer stays when the pod
 * is controlled by something other than a {@code batch/v1} Job (a CronJob, a custom resource also called Job), or
 * by a Job that exists, is not finished and is not managed by another controller ({@code spec.managedBy}): that
 * Job's own sync counts it. Everything else loses it: a pod without a controller (released, or orphaned by the
 * garbage collector; a pod owned, not controlled, by a running Job included), a pod being deleted whose Job is gone,
 * a pod of a finished Job ({@link #podsToClean}, upstream's {@code cleanupPodFinalizers}, brings those back when the
 * Job finishes or is deleted). A pod whose Job is gone keeps it until it is being deleted (by the garbage collector,
 * which deletes the pods of a deleted Job), as upstream's queue only gets such a pod from its deletion: a cache that
 * has not seen a new Job yet must not strip its new pods.
 *
 * <p>Runs on the pod informer of the Job controller, keyed by pod. Stateless; thread-safe.
 */
public final class JobOrphanPodReconciler implements Reconciler<Pod> {
  private static final Logger LOG = LoggerFactory.getLogger(JobOrphanPodReconciler.class);
  private static final int ATTEMPTS = 5;

  @Override
  public Result reconcile(ReconcileContext<Pod> ctx) {
    Pod pod = ctx.object().orElse(null);
    if (pod == null || !JobPodTracking.hasTrackingFinalizer(pod)) {
      return Result.done();
    }
    if (!orphaned(pod, ctx.lister(Job.class))) {
      return Result.done();
    }
    LOG.debug("pod {}: no Job counts it, removing {}", ctx.key(), Job.TRACKING_FINALIZER);
    removeTrackingFinalizer(ctx.store(), pod);
    return Result.done();
  }

  /** Whether no Job will remove {@code pod}'s tracking finalizer (the rules above), reading Jobs from {@code jobs}. */
  static boolean orphaned(Pod pod, Lister<Job> jobs) {
    OwnerReference ref = pod.metadata().controllerRef();
    if (ref == null) {
      return true;
    }
    if (!ref.kind().equals(Job.KIND) || !ref.apiVersion().equals(Job.API_VERSION)) {
      return false; // controlled by something else: not the Job controller's to clean
    }
    Job job = resolve(jobs, pod.metadata().namespace(), ref);
    if (job == null) {
      // upstream's queue gets a controlled pod whose Job it cannot find only when the pod is being deleted (deletePod);
      // a new pod whose Job this cache has not seen yet keeps the finalizer
      return pod.metadata().deletionTimestamp() != null;
    }
    if (job.spec().managedByExternalController()) {
      return false;
    }
    return job.status().isFinished();
  }

  /** Upstream's {@code resolveControllerRef}: the Job the reference names, if the cache has it with that uid. */
  static @Nullable Job resolve(Lister<Job> jobs, String namespace, OwnerReference ref) {
    Optional<Job> job = jobs.get(namespace, ref.name());
    return job.isPresent() && job.get().metadata().uid().equals(ref.uid()) ? job.get() : null;
  }

  /**
   * Upstream's {@code cleanupPodFinalizers}: the keys of {@code job}'s pods (in {@code pods}, the pod cache) that it
   * controls and that still have the tracking finalizer; called when the Job finishes or is deleted.
   */
  public static List<ObjectKey> podsToClean(Job job, Lister<Pod> pods) {
    List<ObjectKey> keys = new ArrayList<>();
    for (Pod p : pods.list(job.metadata().namespace(), JobReconciler.selectorOf(job))) {
      if (p.metadata().isControlledBy(job.metadata().uid()) && JobPodTracking.hasTrackingFinalizer(p)) {
        keys.add(ObjectKey.of(p));
      }
    }
    return keys;
  }

  /**
   * Removes the tracking finalizer from the stored pod of {@code pod}'s name and uid (upstream's strategic-merge
   * patch {@code $deleteFromPrimitiveList/finalizers}, retried on a conflict); a pod gone, replaced, or without the
   * finalizer needs nothing.
   *
   * @return whether the pod no longer has the finalizer (false only if every attempt conflicted)
   * @throws RuntimeException any other failure of the store
   */
  public static boolean removeTrackingFinalizer(ObjectStore store, Pod pod) {
    ObjectMeta m = pod.metadata();
    Pod current = pod;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (!current.metadata().uid().equals(m.uid()) || !JobPodTracking.hasTrackingFinalizer(current)) {
        return true;
      }
      List<String> fins = new ArrayList<>(current.metadata().finalizers());
      fins.remove(Job.TRACKING_FINALIZER);
      try {
        store.update(current.withMetadata(current.metadata().toBuilder().finalizers(fins).build()));
        return true;
      } catch (NotFoundException e) {
        return true;
      } catch (ConflictException e) {
        Optional<Pod> fresh = store.get(Pod.class, m.namespace(), m.name());
        if (fresh.isEmpty()) {
          return true;
        }
        current = fresh.get();
      }
    }
    return false;
  }
}
