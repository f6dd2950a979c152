package io.fleetkit.scheduler;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds into an {@link ObjectStore} as kube's {@code pods/binding} does: sets {@code spec.nodeName} and a
 * {@code PodScheduled=True} condition in one write ({@link ObjectStore#updateWithStatus}), clearing
 * {@code status.nominatedNodeName}, retrying on write conflicts; a pod the store refuses to bind (one being deleted,
 * one with scheduling gates) is an {@link Status.Code#ERROR} naming the store's rule. A failed scheduling attempt is
 * recorded on the pod as kube-scheduler's {@code updatePod} does ({@link #schedulingFailed}): {@code PodScheduled=False}
 * with the reason and the diagnosis, and the nomination, written only when they change. As an {@link Evictor} it
 * deletes preemption victims from the store and clears the nomination of the lower-priority pods preemption displaced
 * ({@link #clearNominatedNodeName}). Thread-safe.
 */
public final class StoreBinder implements Binder, Evictor {
  private static final Logger LOG = LoggerFactory.getLogger(StoreBinder.class);
  private static final int ATTEMPTS = 5;
  /** The DisruptionTarget reason kube's preemption sets on victims. */
  public static final String REASON_PREEMPTION = "PreemptionByScheduler";

  private final ObjectStore store;
  private final Clock clock;

  public StoreBinder(ObjectStore store) {
    this(store, Clock.systemUTC());
  }

  /** @param clock stamps the PodScheduled condition's transition time */
  public StoreBinder(ObjectStore store, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The store pods are bound in (plugins that write other objects at binding, such as DynamicResources, use it). */
  public ObjectStore store() {
    return store;
  }

  @Override
  public Optional<ObjectStore> objectStore() {
    return Optional.of(store);
  }

  @Override
  public Status bind(Pod pod, String nodeName) {
    String ns = pod.metadata().namespace();
    String name = pod.metadata().name();
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<Pod> current = store.get(Pod.class, ns, name);
      if (current.isEmpty()) {
        return Status.error("binding pod " + pod.metadata().key() + " to node " + nodeName
            + ": the pod is not in the store");
      }
      Pod c = current.get();
      if (c.isBound() && !c.spec().nodeName().equals(nodeName)) {
        return Status.error("binding pod " + pod.metadata().key() + " to node " + nodeName
            + ": it is already bound to node " + c.spec().nodeName());
      }
      try {
        PodCondition scheduled = PodCondition.of(PodCondition.POD_SCHEDULED, ConditionStatus.True, "", "",
            clock.instant());
        if (c.isBound()) {
          store.updateStatus(c.withStatus(c.status().withCondition(scheduled).withNominatedNodeName("")));
        } else { // node, annotations and condition in one write, as pods/binding
          store.updateWithStatus(withBindingAnnotations(c, pod).withNodeName(nodeName)
              .withStatus(c.status().withCondition(scheduled).withNominatedNodeName("")));
        }
        return Status.success();
      } catch (ConflictException e) {
        LOG.debug("binding pod {} to {}: conflict, retrying", pod.metadata().key(), nodeName);
      } catch (NotFoundException | ValidationException e) { // gone, or refused (e.g. being deleted)
        return Status.error("binding pod " + pod.metadata().key() + " to node " + nodeName + ": " + e.getMessage());
      }
    }
    return Status.error("binding pod " + pod.metadata().key() + " to node " + nodeName + ": gave up after "
        + ATTEMPTS + " write conflicts");
  }

  /**
   * Writes {@code condition} and the nomination on the stored pod, as kube-scheduler's {@code updatePod} with
   * {@code podutil.UpdatePodCondition} ({@code pkg/scheduler/schedule_one.go}): nothing is written when the stored
   * condition of that type already has the same status, reason, message and probe time and the nomination is already
   * {@code nominatedNodeName} (or that is null); the condition's {@code lastTransitionTime} is kept while its status
   * stays, else it is this binder's clock. One {@link ObjectStore#updateStatus}, compare-and-swap on the
   * resourceVersion just read: a write conflict re-reads the pod and tries again, up to {@value #ATTEMPTS} times. A
   * pod that is gone, was recreated under the same name (another uid) or is bound is left alone. Never throws for
   * those outcomes; they are logged at DEBUG.
   */
  @Override
  public void schedulingFailed(Pod pod, PodCondition condition, @Nullable String nominatedNodeName) {
    updatePendingStatus(pod, "recording the scheduling failure of",
        status -> withSchedulingFailure(status, condition, nominatedNodeName, clock.instant()));
  }

  /**
   * Clears the stored pod's {@code status.nominatedNodeName}, as kube's {@code util.ClearNominatedNodeName} patches
   * it away when preemption takes the node a lower-priority pod was nominated to: nothing is written when the stored
   * pod has no nomination. One {@link ObjectStore#updateStatus}, compare-and-swap on the resourceVersion just read,
   * retried on a write conflict up to {@value #ATTEMPTS} times. A pod that is gone, was recreated under the same name
   * (another uid) or is bound is left alone. Never throws for those outcomes; they are logged at DEBUG.
   */
  @Override
  public void clearNominatedNodeName(Pod pod, Pod preemptor, String nodeName) {
    updatePendingStatus(pod, "clearing the nomination of",
        status -> status.nominatedNodeName().isEmpty() ? null : status.withNominatedNodeName(""));
  }

  /**
   * Writes {@code change} of the stored pod's status: one {@link ObjectStore#updateStatus}, compare-and-swap on the
   * resourceVersion just read, re-read and retried on a write conflict up to {@value #ATTEMPTS} times; nothing when
   * {@code change} answers null. A pod that is gone, was recreated under the same name (another uid) or is bound is
   * left alone. Never throws for those outcomes; they are logged at DEBUG, starting with {@code what} and the pod.
   */
  private void updatePendingStatus(Pod pod, String what, UnaryOperator<PodStatus> change) {
    String ns = pod.metadata().namespace();
    String name = pod.metadata().name();
    String uid = pod.metadata().uid();
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Pod c = store.get(Pod.class, ns, name).orElse(null);
      if (c == null || c.isBound() || (!uid.isEmpty() && !uid.equals(c.metadata().uid()))) {
        LOG.debug("{} pod {}: gone, recreated or bound meanwhile; left alone", what, pod.metadata().key());
        return;
      }
      PodStatus next = change.apply(c.status());
      if (next == null) {
        return;
      }
      try {
        store.updateStatus(c.withStatus(next));
        return;
      } catch (ConflictException e) {
        LOG.debug("{} pod {}: conflict, retrying", what, pod.metadata().key());
      } catch (NotFoundException e) {
        LOG.debug("{} pod {}: gone meanwhile", what, pod.metadata().key());
        return;
      }
    }
    LOG.debug("{} pod {}: gave up after {} write conflicts", what, pod.metadata().key(), ATTEMPTS);
  }

  /**
   * {@code status} with {@code condition} and the nomination, or null when neither changes (kube's {@code updatePod}):
   * the condition replaces the one of its type, keeping that one's {@code lastTransitionTime} when the status is the
   * same, else taking {@code now}; a null {@code nominatedNodeName} leaves the nomination alone.
   */
  static @Nullable PodStatus withSchedulingFailure(PodStatus status, PodCondition condition,
      @Nullable String nominatedNodeName, Instant now) {
    PodCondition old = status.condition(condition.type());
    Instant transition = old != null && old.status() == condition.status() ? old.lastTransitionTime() : now;
    PodCondition next = new PodCondition(condition.type(), condition.status(), condition.reason(),
        condition.message(), condition.lastProbeTime(), transition);
    boolean conditionChanged = !next.equals(old);
    boolean nominationChanged = nominatedNodeName != null && !nominatedNodeName.equals(status.nominatedNodeName());
    if (!conditionChanged && !nominationChanged) {
      return null;
    }
    PodStatus s = conditionChanged ? status.withCondition(next) : status;
    return nominationChanged ? s.withNominatedNodeName(nominatedNodeName) : s;
  }

  /**
   * The stored pod plus the annotations the scheduler put on the pod it binds that the stored pod lacks (e.g. the
   * GPU device ids {@code fleetkit.io/gpu-ids}), as kube's {@code pods/binding} copies a Binding's annotations.
   */
  private static Pod withBindingAnnotations(Pod stored, Pod toBind) {
    Map<String, String> extra = null;
    for (Map.Entry<String, String> e : toBind.metadata().annotations().entrySet()) {
      if (!stored.metadata().annotations().containsKey(e.getKey())) {
        if (extra == null) {
          extra = new LinkedHashMap<>(stored.metadata().annotations());
        }
        extra.put(e.getKey(), e.getValue());
      }
    }
    return extra == null ? stored : stored.withMetadata(stored.metadata().toBuilder().annotations(extra).build());
  }

  /**
   * Marks the victim {@code DisruptionTarget=True} (reason {@value #REASON_PREEMPTION}), as kube's preemption does,
   * then deletes it.
   */
  @Override
  public void evict(Pod victim) {
    try {
      store.get(Pod.class, victim.metadata().namespace(), victim.metadata().name()).ifPresent(current -> {
        PodCondition target = PodCondition.of(PodCondition.DISRUPTION_TARGET, ConditionStatus.True,
            REASON_PREEMPTION, "Preempted by the scheduler", clock.instant());
        try {
          PodStatus status = current.status().withConditionUpdated(target);
          if (status != current.status()) {
            store.updateStatus(current.withStatus(status));
          }
        } catch (ConflictException e) {
          LOG.debug("marking preemption victim {}: conflict; deleting anyway", victim.metadata().key());
        }
      });
      store.delete(Pod.class, victim.metadata().namespace(), victim.metadata().name());
    } catch (NotFoundException e) {
      LOG.debug("preemption victim {} was already gone", victim.metadata().key());
    }
  }
}
