package io.fleetkit.adapter.kubernetes.scheduler.internal;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what kube-scheduler's {@code handleSchedulingFailure} writes on a pod it could not schedule, through the
 * {@code pods/status} subresource (a strategic merge patch, as kube's {@code PatchPodStatus}): the condition
 * {@code PodScheduled=False} with the reason the caller chose ({@code Unschedulable}, or {@code SchedulerError} after
 * an internal error: the constants of {@link io.fleetkit.api.core.PodCondition}, which the embedded scheduler writes
 * too) and the diagnosis as its message, and {@code status.nominatedNodeName} (set when preemption nominated a node,
 * cleared when the nomination was dropped). The patch names the pod's uid, so that a pod recreated
 * under the same name is not touched (the API server answers 409).
 *
 * <p>Nothing is written when the informer's copy already says so (kube's {@code updatePod} compares with its cached
 * pod too), nor when this writer's last patch said so and the informer has not caught up with it yet: a pod retried
 * with the same diagnosis costs no write. The condition's {@code lastTransitionTime} changes only when its status
 * does. Failures are logged, never thrown: the condition is informative, the next failure writes it again.
 *
 * <p>Thread-safe.
 */
public final class PodStatusWriter {
  private static final Logger LOG = LoggerFactory.getLogger(PodStatusWriter.class);
  private static final String POD_SCHEDULED = io.fleetkit.api.core.PodCondition.POD_SCHEDULED;
  static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";

  /** What this writer last patched on a pod, and the informer's resource version it patched over. */
  private record Written(String uid, @Nullable String baseVersion, String reason, String message, String nominated) {}

  private final ApiRequests api;
  private final Clock clock;
  private final Map<String, Written> written = new ConcurrentHashMap<>();
  private final AtomicLong patches = new AtomicLong();

  public PodStatusWriter(ApiRequests api, Clock clock) {
    this.api = Objects.requireNonNull(api, "api");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** How many status patches this writer has sent (first attempts). */
  public long patches() {
    return patches.get();
  }

  /**
   * Records a failed scheduling attempt on the pod: {@code PodScheduled=False} with {@code reason} and
   * {@code message}, and {@code nominatedNodeName} ({@code ""} for none).
   *
   * @param current the informer's copy of the pod; nothing is written when it is {@code null} (gone) or bound
   */
  public void schedulingFailed(@Nullable Pod current, String reason, String message, String nominatedNodeName) {
    if (current == null || current.getMetadata() == null
        || (current.getSpec() != null && !orEmpty(current.getSpec().getNodeName()).isEmpty())) {
      return;
    }
    String ns = current.getMetadata().getNamespace();
    String name = current.getMetadata().getName();
    String key = ns + "/" + name;
    String uid = orEmpty(current.getMetadata().getUid());
    PodCondition old = condition(current, POD_SCHEDULED);
    boolean conditionSame = old != null && "False".equals(old.getStatus()) && reason.equals(old.getReason())
        && message.equals(orEmpty(old.getMessage()));
    String oldNominated = current.getStatus() == null ? "" : orEmpty(current.getStatus().getNominatedNodeName());
    boolean nominatedSame = nominatedNodeName.equals(oldNominated);
    if (conditionSame && nominatedSame) {
      written.remove(key);
      return;
    }
    String version = current.getMetadata().getResourceVersion();
    Written w = new Written(uid, version, reason, message, nominatedNodeName);
    if (w.equals(written.get(key))) {
      return; // our last patch says this already; the informer has not delivered it yet
    }
    Map<String, Object> cond = new LinkedHashMap<>();
    cond.put("type", POD_SCHEDULED);
    cond.put("status", "False");
    cond.put("reason", reason);
    cond.put("message", message);
    cond.put("lastTransitionTime", old != null && "False".equals(old.getStatus()) && old.getLastTransitionTime() != null
        ? old.getLastTransitionTime() : timestamp(clock.instant()));
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("conditions", List.of(cond));
    if (!nominatedSame) {
      status.put("nominatedNodeName", nominatedNodeName);
    }
    ApiRequests.Outcome out = patch(ns, name, uid, status, "recording the scheduling failure of pod " + key);
    if (out.ok()) {
      written.put(key, w);
    } else {
      written.remove(key);
    }
  }

  /**
   * Clears {@code status.nominatedNodeName} of a pod that preemption displaced from the node it was nominated to, as
   * kube's {@code util.ClearNominatedNodeName}: a patch of the nomination alone, naming the pod's uid. Nothing is
   * written when the informer's copy is gone, bound or has no nomination. Forgets this writer's last patch on the pod,
   * so that its next failed attempt compares with the informer's copy only.
   *
   * @param current the informer's copy of the pod
   * @return the outcome; {@link ApiRequests.Kind#OK} with code 0 when nothing needed writing
   */
  public ApiRequests.Outcome clearNominatedNodeName(@Nullable Pod current) {
    if (current == null || current.getMetadata() == null
        || (current.getSpec() != null && !orEmpty(current.getSpec().getNodeName()).isEmpty())
        || current.getStatus() == null || orEmpty(current.getStatus().getNominatedNodeName()).isEmpty()) {
      return new ApiRequests.Outcome(ApiRequests.Kind.OK, 0, "no nomination");
    }
    String ns = current.getMetadata().getNamespace();
    String name = current.getMetadata().getName();
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("nominatedNodeName", "");
    written.remove(ns + "/" + name);
    return patch(ns, name, orEmpty(current.getMetadata().getUid()), status,
        "clearing the nominated node name of pod " + ns + "/" + name);
  }

  /**
   * Marks a preemption victim {@code DisruptionTarget=True} with {@code reason} and {@code message}, unless the
   * informer's copy has that already.
   *
   * @return the outcome; {@link ApiRequests.Kind#OK} with code 0 when nothing needed writing
   */
  public ApiRequests.Outcome disruptionTarget(String namespace, String name, String uid, @Nullable Pod current,
      String reason, String message) {
    PodCondition old = current == null ? null : condition(current, "DisruptionTarget");
    if (old != null && "True".equals(old.getStatus()) && reason.equals(old.getReason())
        && message.equals(orEmpty(old.getMessage()))) {
      return new ApiRequests.Outcome(ApiRequests.Kind.OK, 0, "already marked");
    }
    Map<String, Object> cond = new LinkedHashMap<>();
    cond.put("type", "DisruptionTarget");
    cond.put("status", "True");
    cond.put("reason", reason);
    cond.put("message", message);
    cond.put("lastTransitionTime", timestamp(clock.instant()));
    return patch(namespace, name, uid, Map.of("conditions", List.of(cond)),
        "marking preemption victim " + namespace + "/" + name);
  }

  /** Forgets what was written on a deleted pod. */
  public void podDeleted(String key) {
    written.remove(key);
  }

  private ApiRequests.Outcome patch(String ns, String name, String uid, Map<String, Object> status, String what) {
    Map<String, Object> body = new LinkedHashMap<>();
    if (!uid.isEmpty()) {
      body.put("metadata", Map.of("uid", uid)); // a precondition: the API server refuses a patch that changes the uid
    }
    body.put("status", status);
    String json = api.client().getKubernetesSerialization().asJson(body);
    patches.incrementAndGet();
    ApiRequests.Outcome out = api.send(what, ApiRequests.podPath(ns, name, "status"),
        b -> b.patch(STRATEGIC_MERGE_PATCH, json));
    if (!out.ok()) {
      LOG.debug("{}: {} {}", what, out.kind(), out.detail());
    }
    return out;
  }

  private static @Nullable PodCondition condition(Pod pod, String type) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return null;
    }
    for (PodCondition c : pod.getStatus().getConditions()) {
      if (type.equals(c.getType())) {
        return c;
      }
    }
    return null;
  }

  private static String timestamp(Instant t) {
    return t.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  private static String orEmpty(@Nullable String s) {
    return s == null ? "" : s;
  }
}
