package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ResourceEventHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Wakes the controllers that may adopt an orphan, as the dependent-event handlers of Kubernetes' workload
 * controllers do ({@code addPod}, {@code updatePod}, {@code deletePod} of the Job, ReplicaSet and StatefulSet
 * controllers; {@code addReplicaSet}, {@code updateReplicaSet} of the Deployment controller): every controller whose
 * selector matches the orphan's labels in its namespace ({@link #selecting}, upstream's {@code getPodJobs},
 * {@code GetPodReplicaSets}, ...) is queued so that its next sync can adopt it ({@link ControllerRefManager}).
 * <ul>
 *   <li>added orphan, not being deleted: queue every matching controller;</li>
 *   <li>updated orphan, not being deleted, whose labels or controller reference changed (so also a dependent just
 *       released): queue every controller matching its new labels;</li>
 *   <li>deleted orphan: nothing (no controller cares about an orphan going away).</li>
 * </ul>
 * A dependent with a controller reference is left to the runtime's owner mapping
 * ({@link io.fleetkit.reconcile.ControllerBuilder#owns}), which queues its controller, and both the old and the new
 * one when the reference changed; this handler is added beside it with
 * {@link io.fleetkit.reconcile.ControllerBuilder#handler}.
 *
 * <p>Thread-safe: called on the dependent kind's informer thread, it reads the controller's primary cache and adds
 * keys to its queue.
 *
 * @param <T> the controllers' kind
 * @param <D> the dependents' kind
 */
public final class OrphanEvents<T extends ApiObject<T>, D extends ApiObject<D>> implements ResourceEventHandler<D> {
  private final Function<? super T, @Nullable LabelSelector> selectorOf;
  private volatile @Nullable Controller<T> controller;

  /** @param selectorOf a controller's selector, the one its claims use; null when it selects nothing */
  public OrphanEvents(Function<? super T, @Nullable LabelSelector> selectorOf) {
    this.selectorOf = Objects.requireNonNull(selectorOf, "selectorOf");
  }

  /**
   * The controller whose queue and primary cache the handler uses: set once it is built, before it starts (no event
   * reaches the handler earlier).
   */
  public void bind(Controller<T> c) {
    controller = Objects.requireNonNull(c, "controller");
  }

  /**
   * The controllers in {@code dependent}'s namespace whose selector matches its labels, in the cache's order; none
   * for a dependent without labels (as upstream's listers answer, whatever the selectors).
   */
  public static <T extends ApiObject<T>> List<T> selecting(Lister<T> controllers, ApiObject<?> dependent,
      Function<? super T, @Nullable LabelSelector> selectorOf) {
    ObjectMeta m = dependent.metadata();
    if (m.labels().isEmpty()) {
      return List.of();
    }
    List<T> out = new ArrayList<>();
    for (T c : controllers.list(m.namespace())) {
      LabelSelector selector = selectorOf.apply(c);
      if (selector != null && selector.matches(m.labels())) {
        out.add(c);
      }
    }
    return out;
  }

  /**
   * {@code selector}, or null when it is empty: the ReplicaSet, StatefulSet and Deployment listers of upstream
   * ({@code GetPodReplicaSets}, ...) let an empty selector that crept in match nothing rather than everything.
   */
  public static @Nullable LabelSelector nonEmpty(LabelSelector selector) {
    return selector.matchLabels().isEmpty() && selector.matchExpressions().isEmpty() ? null : selector;
  }

  @Override
  public void onAdd(D object) {
    ObjectMeta m = object.metadata();
    if (m.controllerRef() == null && m.deletionTimestamp() == null) {
      queueSelecting(object);
    }
  }

  @Override
  public void onUpdate(D oldObject, D newObject) {
    ObjectMeta was = oldObject.metadata();
    ObjectMeta is = newObject.metadata();
    if (oldObject == newObject || (!is.resourceVersion().isEmpty()
        && is.resourceVersion().equals(was.resourceVersion()))) {
      return; // a resync: nothing changed
    }
    if (is.deletionTimestamp() != null || is.controllerRef() != null) {
      return;
    }
    if (!is.labels().equals(was.labels()) || was.controllerRef() != null) {
      queueSelecting(newObject);
    }
  }

  private void queueSelecting(D dependent) {
    Controller<T> c = Objects.requireNonNull(controller, "OrphanEvents: bind the controller before it starts");
    for (T owner : selecting(c.lister(), dependent, selectorOf)) {
      c.enqueue(ObjectKey.of(owner));
    }
  }
}
