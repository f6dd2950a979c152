package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.store.ObjectStore;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Wraps a {@link Binder} so that a GPU pod is bound with annotation {@value GpuRequests#IDS_ANNOTATION} naming the
 * devices Reserve picked, as a device plugin records them (a {@link io.fleetkit.scheduler.StoreBinder} writes it
 * into the store with the binding). Pods without reserved devices pass through unchanged.
 */
public final class GpuBinder implements Binder {
  private final Binder delegate;
  private final GpuAssignments assignments;

  GpuBinder(Binder delegate, GpuAssignments assignments) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.assignments = assignments;
  }

  @Override
  public Status bind(Pod pod, String nodeName) {
    String ids = assignments.reservedIds(pod.metadata().key());
    if (ids == null || ids.equals(pod.metadata().annotations().get(GpuRequests.IDS_ANNOTATION))) {
      return delegate.bind(pod, nodeName);
    }
    Pod annotated = pod.withMetadata(pod.metadata().toBuilder().annotation(GpuRequests.IDS_ANNOTATION, ids).build());
    return delegate.bind(annotated, nodeName);
  }

  /** Hands the failure to the wrapped binder, which records it (a {@link io.fleetkit.scheduler.StoreBinder} does). */
  @Override
  public void schedulingFailed(Pod pod, PodCondition condition, @Nullable String nominatedNodeName) {
    delegate.schedulingFailed(pod, condition, nominatedNodeName);
  }

  /** The wrapped binder. */
  public Binder delegate() {
    return delegate;
  }

  /** The wrapped binder's store. */
  @Override
  public Optional<ObjectStore> objectStore() {
    return delegate.objectStore();
  }
}
