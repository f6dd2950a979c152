package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Test helpers: a direct-delivery store on a manual clock, and a hand-operated kubelet. */
final class Sim {
  private Sim() {}

  static ObjectStore store(ManualClock clock) {
    AtomicLong uids = new AtomicLong();
    return ObjectStore.builder().directDelivery().clock(clock.asClock())
        .uidGenerator(() -> String.format("uid-%06d", uids.incrementAndGet())).build();
  }

  /** Binds the pod to {@code node} (the store's binding path, as the scheduler) and marks it Running, not ready. */
  static Pod run(ObjectStore store, Pod pod, String node) {
    Pod cur = store.require(Pod.class, pod.metadata().namespace(), pod.metadata().name());
    if (!cur.spec().nodeName().equals(node)) {
      cur = store.updateWithStatus(cur.withNodeName(node));
    }
    return store.updateStatus(cur.withStatus(cur.status().withPhase(PodPhase.Running)));
  }

  /** Binds, runs and marks the pod Ready now. */
  static Pod ready(ObjectStore store, ManualClock clock, Pod pod, String node) {
    Pod cur = run(store, pod, node);
    return store.updateStatus(cur.withStatus(cur.status().withCondition(
        PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", clock.now()))));
  }

  /**
   * The kubelets' side of graceful deletion, done at once: every pod being deleted is removed (deleted with grace
   * period 0 and its uid as precondition), as a kubelet does once the pod's containers stopped. A pod held by
   * finalizers stays. Upstream's controller tests do the same through their fake clients, which remove a deleted
   * pod at once.
   *
   * @return how many pods were being deleted
   */
  static int finishTerminating(ObjectStore store) {
    int n = 0;
    for (Pod p : store.list(Pod.class, "").items()) {
      if (p.metadata().deletionTimestamp() != null) {
        n++;
        store.delete(Pod.class, p.metadata().namespace(), p.metadata().name(), DeleteOptions.gracePeriod(0)
            .withPreconditions(DeletePreconditions.uid(p.metadata().uid())));
      }
    }
    return n;
  }

  /** The pods whose controller owner has this uid. */
  static List<Pod> podsOf(ObjectStore store, String ownerUid) {
    return store.list(Pod.class, "").items().stream().filter(p -> {
      OwnerReference r = p.metadata().controllerRef();
      return r != null && r.uid().equals(ownerUid);
    }).toList();
  }

  /** The keys waiting in {@code c}'s queue, taken out without reconciling them (what an event put in). */
  static List<ObjectKey> drain(Controller<?> c) {
    List<ObjectKey> keys = new ArrayList<>();
    for (var k = c.queue().poll(); k.isPresent(); k = c.queue().poll()) {
      keys.add(k.get());
      c.queue().done(k.get());
    }
    return keys;
  }
}
