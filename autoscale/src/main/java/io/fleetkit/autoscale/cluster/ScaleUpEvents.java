package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The events a scale-up loop records on the pending pods (upstream's {@code EventingScaleUpStatusProcessor},
 * kubernetes/autoscaler {@code cluster-autoscaler/processors/status/eventing_scale_up_processor.go}, commit
 * 0e20a385): {@value #TRIGGERED} on each pod of the chosen option when the loop scaled up, with the scale-ups
 * ({@code pod triggered scale-up: [{pool 1->3 (max: 10)}]}); otherwise, unless the scale-up failed,
 * {@value #NOT_TRIGGERED} on each pod that remains unschedulable, with why ({@link #reasonsMessage}). Both Normal.
 * The recorder is the autoscaler's best-effort one ({@link EventRecorder#bestEffort}).
 */
final class ScaleUpEvents {
  static final String TRIGGERED = "TriggeredScaleUp";
  static final String NOT_TRIGGERED = "NotTriggerScaleUp";
  /** The events.k8s.io action (upstream records through the legacy recorder, which has none). */
  static final String ACTION = "ScaleUp";

  private ScaleUpEvents() {}

  /** Upstream's {@code ScaleUpResult} values that decide which events are recorded. */
  enum Result { NOT_NEEDED, SUCCESSFUL, ERROR, NO_OPTIONS_AVAILABLE, LIMITED_BY_MAX_NODES_TOTAL }

  /**
   * A pod the loop cannot help (upstream's {@code NoScaleUpInfo}): per pool, the reasons its template rejected the
   * pod ({@code rejected}) and the reasons the pool was skipped ({@code skipped}).
   */
  record NoScaleUp(Pod pod, Map<String, List<String>> rejected, Map<String, List<String>> skipped) {
    NoScaleUp {
      Objects.requireNonNull(pod, "pod");
      rejected = Map.copyOf(rejected);
      skipped = Map.copyOf(skipped);
    }
  }

  /**
   * Records the loop's events (upstream's {@code Process}).
   *
   * @param scaleUps the loop's scale-ups (upstream's {@code ScaleUpInfos})
   * @param triggered the pods of the chosen option
   * @param remaining the pods the loop cannot help
   * @param considered the pools whose reasons count (upstream's considered node groups that exist)
   */
  static void record(EventRecorder events, Result result, List<PoolScaleUp> scaleUps, List<Pod> triggered,
      List<NoScaleUp> remaining, Set<String> considered) {
    if (result != Result.SUCCESSFUL && result != Result.ERROR) {
      for (NoScaleUp r : remaining) {
        event(events, r.pod(), NOT_TRIGGERED, "pod didn't trigger scale-up: " + reasonsMessage(result, r, considered));
      }
    }
    if (!scaleUps.isEmpty()) {
      String infos = scaleUpInfos(scaleUps);
      for (Pod p : triggered) {
        event(events, p, TRIGGERED, "pod triggered scale-up: " + infos);
      }
    }
  }

  /**
   * Upstream's {@code ReasonsMessage}: {@code max total nodes in cluster reached} when that limited the scale-up;
   * otherwise each reason of the pod's rejecting and skipping pools (of {@code considered} only) with how many pools
   * gave it, {@code "<count> <reason>"}, joined by {@code ", "}, in the order first given (upstream's map order is
   * random).
   */
  static String reasonsMessage(Result result, NoScaleUp info, Set<String> considered) {
    if (result == Result.LIMITED_BY_MAX_NODES_TOTAL) {
      return "max total nodes in cluster reached";
    }
    Map<String, Integer> aggregated = new LinkedHashMap<>();
    count(info.rejected(), considered, aggregated);
    count(info.skipped(), considered, aggregated);
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, Integer> e : aggregated.entrySet()) {
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append(e.getValue()).append(' ').append(e.getKey());
    }
    return b.toString();
  }

  private static void count(Map<String, List<String>> byPool, Set<String> considered, Map<String, Integer> into) {
    byPool.keySet().stream().sorted().forEach(pool -> {
      if (considered.contains(pool)) {
        for (String reason : byPool.get(pool)) {
          into.merge(reason, 1, Integer::sum);
        }
      }
    });
  }

  /** Upstream's {@code ScaleUpInfo.String} of each, as Go prints a slice: {@code [{a 1->2 (max: 5)} {b 0->1 (max: 3)}]}. */
  static String scaleUpInfos(List<PoolScaleUp> scaleUps) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < scaleUps.size(); i++) {
      PoolScaleUp s = scaleUps.get(i);
      if (i > 0) {
        b.append(' ');
      }
      b.append('{').append(s.pool()).append(' ').append(s.currentSize()).append("->").append(s.newSize())
          .append(" (max: ").append(s.maxSize()).append(")}");
    }
    return b.append(']').toString();
  }

  private static void event(EventRecorder events, Pod pod, String reason, String note) {
    events.event(pod, Event.NORMAL, reason, ACTION, note);
  }
}
