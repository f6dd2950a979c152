package io.fleetkit.adapter.kubernetes.scheduler.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.scheduler.Evictor;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes preemption victims through the API as kube-scheduler's {@code prepareCandidate} does: first the victim's
 * status gets {@code DisruptionTarget=True} (reason {@value #REASON_PREEMPTION}, the message naming the preemptor),
 * then the pod is deleted with its uid as a precondition (a pod recreated under the same name is not deleted), and a
 * {@code Preempted} event is posted on the victim. The lower-priority pods nominated to the node preemption took lose
 * their {@code status.nominatedNodeName} at once ({@link #clearNominatedNodeName}). Requests are retried as bindings
 * are ({@link ApiRequests}).
 *
 * <p>404 (the victim is gone) and 409 (the uid precondition failed: the victim was replaced) mean the victim no
 * longer runs, which is what preemption wants. Any other failure (including losing the lease) is undone: the victim
 * is not deleted (after a failed status patch, as kube), and the informer's copy is fed to the engine again
 * ({@link EvictedPods#undo}), so the preemptor waits or preempts again. A replica that is not the leader evicts
 * nothing.
 *
 * <p>Runs on the scheduling thread, inside the engine's cycle (as kube's synchronous preemption), so the preemptor is
 * not retried before the victims are deleted. Thread-safe.
 */
public final class PreemptionEvictor implements Evictor {
  private static final Logger LOG = LoggerFactory.getLogger(PreemptionEvictor.class);
  /** The DisruptionTarget reason, as kube's {@code PodReasonPreemptionByScheduler}. */
  public static final String REASON_PREEMPTION = "PreemptionByScheduler";

  private final ApiRequests api;
  private final PodStatusWriter status;
  private final EvictedPods evicted;
  private final SchedulingEvents events;
  private final String schedulerName;
  private final Function<String, io.fabric8.kubernetes.api.model.@Nullable Pod> informerCopy;
  private final AtomicLong deletes = new AtomicLong();

  /** @param informerCopy the informer's copy of a pod by {@code namespace/name}, or {@code null} */
  public PreemptionEvictor(ApiRequests api, PodStatusWriter status, EvictedPods evicted, SchedulingEvents events,
      String schedulerName, Function<String, io.fabric8.kubernetes.api.model.@Nullable Pod> informerCopy) {
    this.api = Objects.requireNonNull(api, "api");
    this.status = Objects.requireNonNull(status, "status");
    this.evicted = Objects.requireNonNull(evicted, "evicted");
    this.events = Objects.requireNonNull(events, "events");
    this.schedulerName = Objects.requireNonNull(schedulerName, "schedulerName");
    this.informerCopy = Objects.requireNonNull(informerCopy, "informerCopy");
  }

  /** How many victims this replica has deleted (404 and 409 included: they are gone). */
  public long deleted() {
    return deletes.get();
  }

  @Override
  public void evict(Pod victim) {
    evict(victim, null, "");
  }

  @Override
  public void evict(Pod victim, @Nullable Pod preemptor, String nodeName) {
    String ns = victim.metadata().namespace();
    String name = victim.metadata().name();
    String key = victim.metadata().key();
    io.fabric8.kubernetes.api.model.Pod current = informerCopy.apply(key);
    String uid = !victim.metadata().uid().isEmpty() ? victim.metadata().uid()
        : current != null && current.getMetadata().getUid() != null ? current.getMetadata().getUid() : "";
    if (!api.leading()) {
      LOG.debug("not evicting preemption victim {}: this replica is not the leader", key);
      evicted.undo(key);
      return;
    }
    evicted.start(key, uid);
    String by = preemptor == null ? "" : " " + preemptor.metadata().key()
        + (nodeName.isEmpty() ? "" : " on node " + nodeName);
    String message = schedulerName + ": preempting to accommodate a higher priority pod" + by;
    ApiRequests.Outcome marked = status.disruptionTarget(ns, name, uid, current, REASON_PREEMPTION, message);
    if (gone(marked)) {
      deletes.incrementAndGet();
      evicted.clear(key);
      return;
    }
    if (!marked.ok()) {
      LOG.warn("preemption victim {}: marking it DisruptionTarget failed ({} {}); not deleting it", key,
          marked.kind(), marked.detail());
      evicted.undo(key);
      return;
    }
    Map<String, Object> options = new LinkedHashMap<>();
    options.put("apiVersion", "v1");
    options.put("kind", "DeleteOptions");
    if (!uid.isEmpty()) {
      options.put("preconditions", Map.of("uid", uid));
    }
    String body = api.client().getKubernetesSerialization().asJson(options);
    ApiRequests.Outcome out = api.send("deleting preemption victim " + key, ApiRequests.podPath(ns, name, ""),
        b -> b.delete("application/json", body));
    if (out.ok() || gone(out)) {
      deletes.incrementAndGet();
      LOG.debug("preemption victim {} deleted{}", key, by);
      if (out.ok() && preemptor != null) {
        events.preempted(ns, name, uid, preemptor.metadata().key(), nodeName);
      }
      return;
    }
    LOG.warn("preemption victim {}: deleting it failed ({} {}); it stays", key, out.kind(), out.detail());
    evicted.undo(key);
  }

  /**
   * Clears the nomination of a lower-priority pod nominated to the node preemption took, as kube's
   * {@code prepareCandidate} does through {@code util.ClearNominatedNodeName}: one {@code pods/status} patch
   * ({@link PodStatusWriter#clearNominatedNodeName}), unless the informer's copy has no nomination, is bound, or is
   * another pod recreated under the same name. A replica that is not the leader writes nothing. Failures are logged:
   * the pod's next failed attempt writes its nomination again.
   */
  @Override
  public void clearNominatedNodeName(Pod pod, Pod preemptor, String nodeName) {
    String key = pod.metadata().key();
    if (!api.leading()) {
      LOG.debug("not clearing the nominated node name of pod {}: this replica is not the leader", key);
      return;
    }
    io.fabric8.kubernetes.api.model.Pod current = informerCopy.apply(key);
    String uid = pod.metadata().uid();
    if (current != null && !uid.isEmpty() && !uid.equals(current.getMetadata().getUid())) {
      LOG.debug("not clearing the nominated node name of pod {}: recreated under the same name", key);
      return;
    }
    ApiRequests.Outcome out = status.clearNominatedNodeName(current);
    if (!out.ok() && !gone(out)) {
      LOG.debug("clearing the nominated node name of pod {} (displaced by {} on node {}) failed: {} {}", key,
          preemptor.metadata().key(), nodeName, out.kind(), out.detail());
    }
  }

  private static boolean gone(ApiRequests.Outcome out) {
    return out.kind() == ApiRequests.Kind.REFUSED && (out.code() == 404 || out.code() == 409);
  }
}
