package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.tracing.Tracing;

/**
 * Carries the trace of the operation that created or changed a workload onto the objects its controller creates
 * for it: the owner's {@value Tracing#TRACEPARENT_ANNOTATION} annotation is set on the child (Deployment or
 * Rollout → ReplicaSet; ReplicaSet, StatefulSet or Job → Pod), so the scheduler continues that trace when it
 * schedules the pod and a Deployment's creation, its pods' creation and their bindings are one trace. The owner's value replaces one its pod
 * template may hold: the template's was written when the template was, the owner's by the latest traced operation.
 * Stateless.
 */
public final class TraceParent {
  private TraceParent() {}

  /** Sets {@code owner}'s trace context, if it has one, on {@code child}. */
  public static ObjectMeta.Builder inherit(ObjectMeta owner, ObjectMeta.Builder child) {
    String parent = owner.annotations().get(Tracing.TRACEPARENT_ANNOTATION);
    if (parent != null && !parent.isEmpty()) {
      child.annotation(Tracing.TRACEPARENT_ANNOTATION, parent);
    }
    return child;
  }
}
