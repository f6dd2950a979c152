package io.fleetkit.scheduler;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds into an {@link ObjectStore} as kube's {@code pods/binding} does: sets {@code spec.nodeName} and a
 * {@code PodScheduled=True} condition in one write ({@link ObjectStore#updateWithStatus}), retrying on write
 * conflicts. As an {@link Evictor} it deletes preemption
 * victims from the store. Thread-safe.
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
      } catch (NotFoundException e) {
        return Status.error("binding pod " + pod.metadata().key() + " to node " + nodeName + ": " + e.getMessage());
      }
    }
    return Status.error("binding pod " + pod.metadata().key() + " to node " + nodeName + ": gave up after "
        + ATTEMPTS + " write conflicts");
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
          store.updateStatus(current.withStatus(current.status().withCondition(target)));
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
