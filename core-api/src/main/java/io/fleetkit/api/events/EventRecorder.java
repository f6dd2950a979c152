package io.fleetkit.api.events;

import io.fleetkit.api.meta.ApiObject;
import org.jspecify.annotations.Nullable;

/**
 * Emits events about objects, as client-go's {@code events.EventRecorder}. Recording is best effort: it never
 * throws for a failed write and never blocks for long; implementations aggregate repeats and drop spam. Thread-safe.
 *
 * <p>The reasons FleetKit's own components record are constants here, with kube's spelling.
 */
public interface EventRecorder {
  /** kube-scheduler: the pod was bound (Normal, action {@code Binding}). */
  String SCHEDULED = "Scheduled";
  /** kube-scheduler: no node fits (Warning, action {@code Scheduling}). */
  String FAILED_SCHEDULING = "FailedScheduling";
  /** kube-scheduler: a victim was evicted for a higher-priority pod (Normal, action {@code Preempting}). */
  String PREEMPTED = "Preempted";
  /** Workload controllers: creating a pod failed (Warning, action {@code Create}). */
  String FAILED_CREATE = "FailedCreate";
  /** Workload controllers: a pod was created (Normal, action {@code Create}). */
  String SUCCESSFUL_CREATE = "SuccessfulCreate";
  /** Workload controllers: a pod was deleted (Normal, action {@code Delete}). */
  String SUCCESSFUL_DELETE = "SuccessfulDelete";
  /** Workload controllers: deleting a pod failed (Warning, action {@code Delete}). */
  String FAILED_DELETE = "FailedDelete";
  /** StatefulSet controller: a pod's identity or storage was updated (Normal, action {@code Update}). */
  String SUCCESSFUL_UPDATE = "SuccessfulUpdate";
  /** StatefulSet controller: updating a pod's identity or storage failed (Warning, action {@code Update}). */
  String FAILED_UPDATE = "FailedUpdate";
  /** A controller's reconcile of the object failed and is retried with backoff (Warning, action {@code Reconcile}). */
  String BACK_OFF = "BackOff";
  /** Deployment controller: a ReplicaSet was scaled (Normal, action {@code Scale}). */
  String SCALING_REPLICA_SET = "ScalingReplicaSet";
  /** Node lifecycle controller: a node was first seen (Normal, on the node, action {@code Register}). */
  String REGISTERED_NODE = "RegisteredNode";
  /** Node lifecycle controller: a node seen before is gone (Normal, on the node, action {@code Remove}). */
  String REMOVING_NODE = "RemovingNode";
  /**
   * Node lifecycle controller: a node left Ready (Normal, on the node, action {@code StatusChange}) and each of its
   * pods was marked not ready (Warning, on the pod, action {@code MarkNotReady}).
   */
  String NODE_NOT_READY = "NodeNotReady";

  /**
   * Device taint eviction controller: a pod using a device with a NoExecute taint its claim does not tolerate is
   * being deleted (Normal, on the pod, action {@code Delete}, note {@code Marking for deletion}), or its scheduled
   * deletion was cancelled because the taint went away or became tolerated (action {@code Cancel}, note
   * {@code Cancelling deletion}).
   */
  String DEVICE_TAINT_MANAGER_EVICTION = "DeviceTaintManagerEviction";
  /**
   * Taint eviction controller: a pod on a node with a NoExecute taint it does not tolerate is being deleted (Normal, on
   * the pod, action {@code Delete}, note {@code Marking for deletion Pod ns/name}), or its scheduled deletion was
   * cancelled (action {@code Cancel}, note {@code Cancelling deletion of Pod ns/name}).
   */
  String TAINT_MANAGER_EVICTION = "TaintManagerEviction";

  /**
   * Kubelet: a container's {@code postStart} hook failed; the container is killed (Warning, on the pod with the
   * container as field path, action {@code PostStartHook}, note {@code PostStartHook failed}).
   */
  String FAILED_POST_START_HOOK = "FailedPostStartHook";
  /**
   * Kubelet: a container's {@code preStop} hook failed; the container is stopped anyway (Warning, on the pod with the
   * container as field path, action {@code PreStopHook}, note {@code PreStopHook failed}).
   */
  String FAILED_PRE_STOP_HOOK = "FailedPreStopHook";
  /**
   * VPA updater: the pod was evicted to apply the recommendation (Normal, on the pod, action {@code Evict}, note
   * {@code Pod was evicted by VPA Updater to apply resource recommendation.}).
   */
  String EVICTED_BY_VPA = "EvictedByVPA";
  /**
   * VPA updater: the same eviction, on the VerticalPodAutoscaler (Normal, action {@code Evict}, note
   * {@code VPA Updater evicted Pod <name> to apply resource recommendation.}).
   */
  String EVICTED_POD = "EvictedPod";
  /**
   * VPA updater: the pod's requests were resized in place (Normal, on the pod, action {@code Resize}, note
   * {@code Pod was resized in place by VPA Updater.}).
   */
  String IN_PLACE_RESIZED_BY_VPA = "InPlaceResizedByVPA";

  /** Drops every event. */
  EventRecorder NOOP = (regarding, related, type, reason, action, note) -> { };

  /**
   * {@code recorder} made safe to call from a controller: an exception it throws is logged at DEBUG and swallowed,
   * as client-go's recorder never fails its caller. Returns {@code recorder} itself when it is {@link #NOOP} or
   * already such a wrapper, so components can wrap whatever they are given.
   */
  static EventRecorder bestEffort(EventRecorder recorder) {
    java.util.Objects.requireNonNull(recorder, "recorder");
    return recorder == NOOP || recorder instanceof BestEffortEventRecorder ? recorder
        : new BestEffortEventRecorder(recorder);
  }

  /**
   * Records an event.
   *
   * @param regarding the object it is about
   * @param related a second object involved (e.g. the preemptor), or {@code null}
   * @param type {@link Event#NORMAL} or {@link Event#WARNING}
   * @param reason why, e.g. {@link #FAILED_SCHEDULING}
   * @param action what was done or failed, e.g. {@code Scheduling}
   * @param note a human-readable description (cut to {@link Event#NOTE_LENGTH_LIMIT} characters)
   */
  void event(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason, String action,
      String note);

  /** Shorthand for an event about the whole of {@code regarding} with no related object. */
  default void event(ApiObject<?> regarding, String type, String reason, String action, String note) {
    event(ObjectReference.to(regarding), null, type, reason, action, note);
  }
}
