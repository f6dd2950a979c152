package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The drain of scale-down actuation (upstream's {@code core/scaledown/actuation/drain.go}, {@code Evictor}), on the
 * autoscaler's clock: upstream's goroutines that evict, sleep and poll become a {@link NodeEviction} that each
 * {@link NodeEviction#advance} carries as far as the time allows.
 *
 * <ol>
 *   <li>Every pod is evicted with a grace period of its {@code terminationGracePeriodSeconds}, at most
 *       {@code maxGracefulTerminationSec}. A refused eviction is retried {@link #EVICTION_RETRY_TIME} later while
 *       that is before {@code start + maxPodEvictionTime}; otherwise, once the retry time has passed, it has failed
 *       (timed out, with its last error), as upstream's loop that sleeps and then checks the deadline. The attempts
 *       keep their own times: a call to {@link NodeEviction#advance} later than several of them makes each in turn.
 *   <li>When a pod that must go (a full-eviction pod) failed, the drain fails
 *       ({@link AutoscalerError.Type#API_CALL_ERROR}).
 *       Best-effort pods (DaemonSet pods) are evicted alike but their failures only show in
 *       {@link NodeEviction#bestEffortError()}.
 *   <li>Otherwise the drain waits until every full-eviction pod is gone from the node (deleted, or its name now on
 *       another node), at most {@code maxGracefulTerminationSec} + {@link #POD_EVICTION_HEADROOM}; pods still there
 *       then fail the drain ({@link AutoscalerError.Type#TRANSIENT_ERROR}).
 * </ol>
 *
 * <p>Not thread-safe: confined to the autoscaler's loop.
 */
final class ScaleDownEvictor {
  /** Upstream's {@code DefaultEvictionRetryTime}. */
  static final Duration EVICTION_RETRY_TIME = Duration.ofSeconds(10);
  /** Upstream's {@code DefaultPodEvictionHeadroom}: extra wait for pods that ignore SIGTERM. */
  static final Duration POD_EVICTION_HEADROOM = Duration.ofSeconds(30);
  /** The pod annotation that opts a DaemonSet pod in ({@code "true"}) or out ({@code "false"}) of eviction. */
  static final String ENABLE_DS_EVICTION = "cluster-autoscaler.kubernetes.io/enable-ds-eviction";

  private ScaleDownEvictor() {}

  /** What the drain does to the cluster: the seam between the drain's timing and the store. */
  interface Cluster {
    /** Evicts {@code pod} with {@code graceSeconds}; {@code null} when done (or the pod is gone), else the error. */
    @Nullable String evict(Pod pod, long graceSeconds);

    /** Whether {@code pod} (by namespace and name) is still on {@code node}; {@link Presence#GONE} when not. */
    Presence presence(Pod pod, String node);

    /** The drain is about to evict {@code pod} for the first time (upstream's {@code evictPod} starts). */
    default void evicting(Pod pod) {}

    /** Evicting {@code pod}, a pod that must go, failed within the retry time (upstream's {@code evictPod} gives up). */
    default void evictionFailed(Pod pod) {}
  }

  /** What a look-up of an evicted pod found. */
  record Presence(boolean gone, @Nullable String error) {
    static final Presence GONE = new Presence(true, null);
    static final Presence ON_NODE = new Presence(false, null);

    static Presence failed(String error) {
      return new Presence(false, error);
    }
  }

  /**
   * The pods of a node a drain evicts (upstream's {@code podsToEvict}): mirror pods never; DaemonSet pods by
   * {@code evictDaemonSetsByDefault} unless annotated {@value #ENABLE_DS_EVICTION} otherwise; every other pod.
   */
  record PodsToEvict(List<Pod> daemonSetPods, List<Pod> otherPods) {}

  static PodsToEvict podsToEvict(List<Pod> pods, boolean evictDaemonSetsByDefault) {
    List<Pod> ds = new ArrayList<>();
    List<Pod> other = new ArrayList<>();
    for (Pod p : pods) {
      if (p.metadata().annotations().containsKey(Drainability.MIRROR_ANNOTATION)) {
        continue;
      }
      if (TemplateNodes.isDaemonSetPod(p)) {
        String v = p.metadata().annotations().get(ENABLE_DS_EVICTION);
        if (evictDaemonSetsByDefault ? !"false".equals(v) : "true".equals(v)) {
          ds.add(p);
        }
      } else {
        other.add(p);
      }
    }
    return new PodsToEvict(List.copyOf(ds), List.copyOf(other));
  }

  /** The grace period an eviction gives {@code pod}: its own, capped by {@code maxTerminationSec} when positive. */
  static long gracePeriod(Pod pod, int maxTerminationSec) {
    long own = pod.spec().terminationGracePeriodSeconds();
    return maxTerminationSec > 0 && own > maxTerminationSec ? maxTerminationSec : own;
  }

  /** The timing of a drain: upstream's options and its {@code ScaleDownEvictor} fields. */
  record Timing(int maxGracefulTerminationSec, Duration maxPodEvictionTime, Duration evictionRetryTime,
      Duration podEvictionHeadroom) {
    Timing {
      Objects.requireNonNull(maxPodEvictionTime, "maxPodEvictionTime");
      Objects.requireNonNull(evictionRetryTime, "evictionRetryTime");
      Objects.requireNonNull(podEvictionHeadroom, "podEvictionHeadroom");
    }

    static Timing of(AutoscalerOptions o) {
      return new Timing(o.maxGracefulTerminationSec(), o.maxPodEvictionTime(), EVICTION_RETRY_TIME,
          POD_EVICTION_HEADROOM);
    }
  }

  /** The drain of one node in progress (upstream's {@code drainNodeWithPods} of one node). */
  static final class NodeEviction {
    private enum Phase { EVICTING, WAITING, DONE }

    private final String node;
    private final Timing timing;
    private final List<Pod> full;
    private final List<Pod> bestEffort;
    private final Instant retryUntil;
    /** Per pod, full-eviction pods first: the next attempt (null once settled), its last error, its grace period. */
    private final @Nullable Instant[] nextAttempt;
    private final @Nullable String[] lastError;
    private final boolean[] failed;
    private final long[] grace;
    private Phase phase = Phase.EVICTING;
    private @Nullable Instant waitUntil;
    private @Nullable AutoscalerError error;
    private @Nullable AutoscalerError bestEffortError;
    private final Map<String, NodeDeleteResult.PodEvictionResult> results = new LinkedHashMap<>();

    /**
     * A drain of {@code node} that starts at {@code start}: {@code full} pods must go, {@code bestEffort} pods are
     * evicted without waiting for them.
     */
    NodeEviction(String node, List<Pod> full, List<Pod> bestEffort, Timing timing, Instant start) {
      this.node = Objects.requireNonNull(node, "node");
      this.full = List.copyOf(full);
      this.bestEffort = List.copyOf(bestEffort);
      this.timing = Objects.requireNonNull(timing, "timing");
      this.retryUntil = start.plus(timing.maxPodEvictionTime());
      int n = this.full.size() + this.bestEffort.size();
      nextAttempt = new Instant[n];
      lastError = new String[n];
      failed = new boolean[n];
      grace = new long[n];
      for (int i = 0; i < n; i++) {
        nextAttempt[i] = start;
      }
      for (Pod p : this.full) { // upstream: a pod not attempted because another failed first
        results.put(p.metadata().name(), new NodeDeleteResult.PodEvictionResult(p, false,
            "Eviction did not attempted for the pod " + p.metadata().name()
                + " because some of the previous evictions failed", 0));
      }
    }

    /** Carries the drain as far as {@code now} allows; whether it is {@linkplain #done() done}. */
    boolean advance(Instant now, Cluster cluster) {
      if (phase == Phase.EVICTING) {
        boolean settled = true;
        for (int i = 0; i < nextAttempt.length; i++) {
          if (!attempt(i, now, cluster)) {
            settled = false;
          }
        }
        if (!settled) {
          return false;
        }
        finishEvictions(now);
      }
      if (phase == Phase.WAITING) {
        waitForPods(now, cluster);
      }
      return phase == Phase.DONE;
    }

    /**
     * The attempts of pod {@code i} due by {@code now}, each at its own time (upstream's loop: attempt, sleep the retry
     * time, attempt again while before the deadline), so that a loop coming less often than the retry time makes as
     * many attempts as upstream's goroutine; with a zero retry time, one attempt per call. Whether the pod is settled.
     */
    private boolean attempt(int i, Instant now, Cluster cluster) {
      Instant at = nextAttempt[i];
      while (at != null && !now.isBefore(at)) {
        if (lastError[i] != null && !at.isBefore(retryUntil)) { // woken after the retry deadline
          return giveUp(i, cluster);
        }
        Pod p = pod(i);
        if (lastError[i] == null) { // the first attempt: a pod settles at its first success
          cluster.evicting(p);
        }
        long g = gracePeriod(p, timing.maxGracefulTerminationSec());
        String err = cluster.evict(p, g);
        if (err == null) {
          nextAttempt[i] = null;
          grace[i] = g;
          return true;
        }
        lastError[i] = err;
        Instant next = at.plus(timing.evictionRetryTime());
        nextAttempt[i] = next;
        if (timing.evictionRetryTime().isZero()) {
          if (!next.isBefore(retryUntil)) {
            return giveUp(i, cluster);
          }
          return false;
        }
        at = next;
      }
      return at == null;
    }

    /** Pod {@code i}'s eviction failed for good; settled. */
    private boolean giveUp(int i, Cluster cluster) {
      nextAttempt[i] = null;
      failed[i] = true;
      if (i < full.size()) {
        cluster.evictionFailed(full.get(i));
      }
      return true;
    }

    private Pod pod(int i) {
      return i < full.size() ? full.get(i) : bestEffort.get(i - full.size());
    }

    private void finishEvictions(Instant now) {
      List<String> errors = new ArrayList<>();
      for (int i = 0; i < full.size(); i++) {
        Pod p = full.get(i);
        if (failed[i]) {
          String e = "failed to evict pod " + p.metadata().key() + " within allowed timeout (last error: "
              + lastError[i] + ")";
          results.put(p.metadata().name(), new NodeDeleteResult.PodEvictionResult(p, true, e, 0));
          errors.add(e);
        } else {
          results.put(p.metadata().name(), new NodeDeleteResult.PodEvictionResult(p, false, null, grace[i]));
        }
      }
      List<String> dsErrors = new ArrayList<>();
      for (int i = full.size(); i < nextAttempt.length; i++) {
        if (failed[i]) {
          dsErrors.add(pod(i).metadata().key() + ": " + lastError[i]);
        }
      }
      if (!dsErrors.isEmpty()) {
        bestEffortError = new AutoscalerError(AutoscalerError.Type.API_CALL_ERROR,
            "following DaemonSet pod failed to evict on the node " + node + ": " + dsErrors);
      }
      if (!errors.isEmpty()) {
        error = new AutoscalerError(AutoscalerError.Type.API_CALL_ERROR,
            "Failed to drain node /" + node + ", due to following errors: " + errors);
        phase = Phase.DONE;
        return;
      }
      Duration wait = Duration.ofSeconds(timing.maxGracefulTerminationSec()).plus(timing.podEvictionHeadroom());
      waitUntil = now.plus(wait);
      phase = Phase.WAITING;
    }

    private void waitForPods(Instant now, Cluster cluster) {
      boolean allGone = true;
      for (Pod p : full) {
        if (!cluster.presence(p, node).gone()) {
          allGone = false;
          break;
        }
      }
      if (allGone) {
        phase = Phase.DONE;
        return;
      }
      if (now.isBefore(Objects.requireNonNull(waitUntil))) {
        return;
      }
      for (int i = 0; i < full.size(); i++) {
        Pod p = full.get(i);
        Presence pr = cluster.presence(p, node);
        results.put(p.metadata().name(), pr.gone() ? new NodeDeleteResult.PodEvictionResult(p, false, null, grace[i])
            : new NodeDeleteResult.PodEvictionResult(p, true, pr.error(), grace[i]));
      }
      error = new AutoscalerError(AutoscalerError.Type.TRANSIENT_ERROR,
          "Failed to drain node /" + node + ": pods remaining after timeout");
      phase = Phase.DONE;
    }

    boolean done() {
      return phase == Phase.DONE;
    }

    /** Why the drain failed, or {@code null} (also while it runs). */
    @Nullable AutoscalerError error() {
      return error;
    }

    /** The best-effort evictions that failed, or {@code null}; they do not fail the drain. */
    @Nullable AutoscalerError bestEffortError() {
      return bestEffortError;
    }

    /** The full-eviction pods' results by pod name (complete once done). */
    Map<String, NodeDeleteResult.PodEvictionResult> results() {
      return Map.copyOf(results);
    }
  }
}
