package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.scheduling.PriorityClass;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How cluster events change the scheduler's state, kube's {@code eventhandlers.go}: nodes go to the cache; bound pods
 * go to the cache (confirming an assumed pod), pending pods of this scheduler's profiles to the queue (their priority
 * resolved from the priority classes), other pods are ignored; other objects are kept for plugins. Each change moves
 * the unschedulable pods whose rejecting plugins registered the matching {@link ClusterEvent} and whose queueing
 * hints ({@code EnqueueExtensions.isSchedulableAfter}) accept the changed node, pod, namespace or storage object.
 *
 * <p>Confined to the scheduler's lock: the scheduler hands every event to this class through its {@link EngineLock}.
 */
final class EventHandlers {
  private static final Logger LOG = LoggerFactory.getLogger(EventHandlers.class);

  private final SchedulerCache cache;
  private final SchedulingQueue queue;
  private final Nominator nominator;
  private final WaitingPodsImpl waiting;
  private final ClusterObjects objects;
  private final Map<String, Framework> frameworks;
  private final LongSupplier nanos;
  /** Whether any profile has a plugin that waits for new unscheduled pods (Coscheduling does). */
  private final boolean unscheduledPodAddRegistered;

  EventHandlers(SchedulerCache cache, SchedulingQueue queue, Nominator nominator, WaitingPodsImpl waiting,
      ClusterObjects objects, Map<String, Framework> frameworks, LongSupplier nanos) {
    this.cache = cache;
    this.queue = queue;
    this.nominator = nominator;
    this.waiting = waiting;
    this.objects = objects;
    this.frameworks = frameworks;
    this.nanos = nanos;
    this.unscheduledPodAddRegistered = frameworks.values().stream()
        .anyMatch(fw -> fw.registers(ClusterEvent.UNSCHEDULED_POD_ADD));
  }

  /**
   * Adds or replaces a node. An update that changes nothing a plugin reads (a heartbeat) moves no pod, as upstream's
   * {@code updateNodeInCache} with {@code NodeSchedulingPropertiesChange}.
   */
  void putNode(Node node) {
    Node before = cache.node(node.name());
    cache.putNode(node);
    if (before == null) {
      queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_ADD, null, node, nanos.getAsLong());
    } else if (NodeChanges.schedulingPropertiesChanged(before, node)) {
      queue.moveAllToActiveOrBackoff(ClusterEvent.NODE_UPDATE, before, node, nanos.getAsLong());
    }
  }

  void removeNode(String nodeName) {
    cache.removeNode(nodeName);
  }

  /** Adds or replaces a pod, bound or pending. */
  void putPod(Pod pod) {
    String key = pod.metadata().key();
    long now = nanos.getAsLong();
    if (pod.isBound()) {
      if (pod.isTerminal()) {
        deletePod(key, now);
        return;
      }
      if (queue.remove(key) != null) {
        waiting.drop(key); // bound by someone else while Permit held it
      }
      nominator.remove(key);
      PodInfo before = cache.podInfo(key);
      EnginePodInfo info = EnginePodInfo.of(pod);
      cache.addOrUpdateBoundPod(info);
      ClusterEvent event = null;
      if (before == null) {
        event = ClusterEvent.ASSIGNED_POD_ADD;
      } else if (!before.pod().spec().nodeName().equals(pod.spec().nodeName())
          || !before.pod().metadata().labels().equals(pod.metadata().labels())
          || !before.requests().equals(info.requests())) { // an in-place resize (upstream's UpdatePodScaleDown)
        event = ClusterEvent.ASSIGNED_POD_UPDATE;
      } // else: our own binding confirmed, nothing changed for other pods
      if (event != null) {
        queue.moveAllToActiveOrBackoff(event, before == null ? null : before.pod(), pod, now);
      }
      return;
    }
    if (cache.hasPod(key)) {
      if (cache.isAssumed(key)) {
        if (pod.metadata().deletionTimestamp() != null) {
          deletingAssumedPod(key, pod, now);
        }
        return; // our binding is in flight; the bound object will follow
      }
      cache.removePod(key); // it was bound and is pending again
    }
    Framework fw = frameworks.get(pod.spec().schedulerName());
    if (fw == null || pod.isTerminal()) {
      LOG.debug("pod {} is for scheduler {}, not ours; ignored", key, pod.spec().schedulerName());
      // upstream's deletePodFromSchedulingQueue: out of the queue, its Permit wait rejected, its nomination gone
      if (queue.remove(key) != null) {
        waiting.drop(key);
      }
      nominator.remove(key);
      return;
    }
    EnginePodInfo info = EnginePodInfo.of(pod, key);
    QueuedPod qp = queue.get(key);
    if (qp == null) {
      queue.add(new QueuedPod(info, fw, now));
      if (unscheduledPodAddRegistered) {
        queue.moveAllToActiveOrBackoff(ClusterEvent.UNSCHEDULED_POD_ADD, now);
      }
    } else {
      queue.update(qp, info, now);
    }
    nominator.addNominated(info, null, this::currentPod);
  }

  /**
   * An assumed pod (reserved on a node, its Permit wait or binding under way) whose update marked it for deletion,
   * upstream's {@code updatePodInSchedulingQueue} with {@code handleAssumedPodDeletion}, once (when the object the
   * queue holds has no {@code deletionTimestamp} yet): a pod waiting on Permit is rejected ({@code removed}, kube's
   * {@code RejectWaitingPod}), which unreserves, forgets and re-queues it; a pod whose binding runs is forgotten at
   * once, so that its resources no longer block other pods (its binding goes on and is expected to fail: the store
   * refuses to bind a pod being deleted). Either way the parked pods are offered the release as an assigned pod's
   * deletion. The queue takes the deleting object, as kube's failure handler re-reads the pod from the informer, so
   * that the re-queued pod is skipped when popped ({@code skipPodSchedule}).
   */
  private void deletingAssumedPod(String key, Pod pod, long now) {
    QueuedPod qp = queue.get(key);
    PodInfo assumed = cache.podInfo(key);
    Pod before = qp != null ? qp.info.pod() : assumed != null ? assumed.pod() : null;
    if (before == null || before.metadata().deletionTimestamp() != null) {
      return; // handled when the deletion started
    }
    if (qp != null) {
      queue.update(qp, EnginePodInfo.of(pod, key), now);
    }
    if (!waiting.rejectDeleted(key)) {
      cache.forget(key);
    }
    queue.moveAllToActiveOrBackoff(ClusterEvent.ASSIGNED_POD_DELETE, assumed == null ? null : assumed.pod(), null,
        now);
  }

  /**
   * The scheduler's current object of the pod {@code key}, kube's pod lister as the nominator reads it: the queued
   * (pending, in flight or waiting) object, else the bound or assumed one in the cache, else null (deleted or never
   * seen).
   */
  @Nullable Pod currentPod(String key) {
    QueuedPod qp = queue.get(key);
    if (qp != null) {
      return qp.info.pod();
    }
    PodInfo known = cache.podInfo(key);
    return known == null ? null : known.pod();
  }

  void removePod(String key) {
    deletePod(key, nanos.getAsLong());
  }

  private void deletePod(String key, long now) {
    QueuedPod qp = queue.remove(key);
    if (qp != null) {
      waiting.drop(key);
    }
    nominator.remove(key);
    PodInfo gone = cache.podInfo(key);
    if (cache.removePod(key) != null) {
      if (gone != null && gone.pod().isBound()) {
        queue.moveAllToActiveOrBackoff(ClusterEvent.ASSIGNED_POD_DELETE, gone.pod(), null, now);
      } else { // an assumed pod, never seen bound: no object for the hints to read
        queue.moveAllToActiveOrBackoff(ClusterEvent.ASSIGNED_POD_DELETE, now);
      }
    }
  }

  void addObject(Object object) {
    Object before = objects.put(object);
    onObjectEvent(before, object);
  }

  void removeObject(Object object) {
    if (objects.remove(object)) {
      onObjectEvent(object, null);
    }
  }

  /**
   * A change of a cluster object; a Namespace, storage (PersistentVolumeClaim, PersistentVolume...) or Dynamic Resource
   * Allocation change (ResourceClaim, ResourceSlice, DeviceClass, DeviceTaintRule) is offered to the plugins' per-pod
   * queueing hints with its objects.
   */
  private void onObjectEvent(@Nullable Object before, @Nullable Object after) {
    Object object = after != null ? after : Objects.requireNonNull(before);
    ClusterEvent event = switch (object.getClass().getSimpleName()) {
      // no plugin registers for these (upstream's EventsToRegister): the workloads are read for the default spreading
      // selector, which only scores
      case "PriorityClass", "PodDisruptionBudget", "Service", "ReplicationController", "ReplicaSet", "StatefulSet" ->
          null;
      case "Namespace" -> ClusterEvent.NAMESPACE_UPDATE;
      case "PersistentVolume", "PersistentVolumeClaim", "StorageClass", "CSINode", "CSIDriver",
          "CSIStorageCapacity", "VolumeAttachment" -> ClusterEvent.STORAGE;
      case "ResourceClaim", "ResourceSlice", "DeviceClass", "DeviceTaintRule" -> ClusterEvent.DYNAMIC_RESOURCES;
      default -> ClusterEvent.OTHER;
    };
    if (event == ClusterEvent.NAMESPACE_UPDATE || event == ClusterEvent.STORAGE
        || event == ClusterEvent.DYNAMIC_RESOURCES) {
      queue.moveAllToActiveOrBackoff(event, before, after, nanos.getAsLong());
    } else if (event != null) {
      queue.moveAllToActiveOrBackoff(event, nanos.getAsLong());
    }
  }

}
