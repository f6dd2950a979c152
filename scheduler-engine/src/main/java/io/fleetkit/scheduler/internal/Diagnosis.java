package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The scheduler's messages, worded as kube-scheduler's, with the Go formatting they quote ({@link #goList}; Go's
 * durations through {@link io.fleetkit.api.time.GoDurations#format}). {@link #fitError} is kube's
 * {@code FitError.Error()} ({@code pkg/scheduler/framework/types.go}):
 * {@code 0/N nodes are available: <PreFilterMsg>. <count reason, ...>. <PostFilterMsg>}. The filter reasons are
 * counted over nodes, formatted {@code "<count> <reason>"} and sorted as strings (so {@code "10 x"} sorts before
 * {@code "2 y"}, as in kube); they are left out when PreFilter rejected the pod (they would repeat its message).
 */
public final class Diagnosis {
  /** kube's {@code ErrNoNodesAvailable}. */
  public static final String NO_NODES_AVAILABLE = "no nodes available to schedule pods";

  private Diagnosis() {}

  /**
   * The message.
   *
   * @param numAllNodes the number of nodes in the snapshot
   * @param preFilterMsg the rejecting PreFilter status's message, or null/empty
   * @param reasonCounts how many nodes gave each reason (ignored when {@code preFilterMsg} is set)
   * @param postFilterMsg the PostFilter (preemption) status's message, or null/empty
   */
  public static String fitError(int numAllNodes, @Nullable String preFilterMsg, Map<String, Integer> reasonCounts,
      @Nullable String postFilterMsg) {
    StringBuilder sb = new StringBuilder(64).append("0/").append(numAllNodes).append(" nodes are available:");
    boolean preFilterFailed = preFilterMsg != null && !preFilterMsg.isEmpty();
    if (preFilterFailed) {
      sb.append(' ').append(preFilterMsg).append('.');
    } else if (!reasonCounts.isEmpty()) {
      List<String> parts = new ArrayList<>(reasonCounts.size());
      for (Map.Entry<String, Integer> e : reasonCounts.entrySet()) {
        parts.add(e.getValue() + " " + e.getKey());
      }
      Collections.sort(parts);
      sb.append(' ').append(String.join(", ", parts)).append('.');
    }
    if (postFilterMsg != null && !postFilterMsg.isEmpty()) {
      sb.append(' ').append(postFilterMsg);
    }
    return sb.toString();
  }

  /** kube's {@code numFeasibleNodesToFind}: how many feasible nodes to look for before scoring. */
  public static int numFeasibleNodesToFind(@Nullable Integer percentageOfNodesToScore, int numAllNodes) {
    if (numAllNodes < 100 || percentageOfNodesToScore != null && percentageOfNodesToScore >= 100) {
      return numAllNodes;
    }
    int adaptive = percentageOfNodesToScore == null ? 0 : percentageOfNodesToScore;
    if (adaptive <= 0) {
      adaptive = Math.max(50 - numAllNodes / 125, 5);
    }
    long num = (long) numAllNodes * adaptive / 100;
    return (int) Math.max(num, 100);
  }

  /** The count of each reason of {@code s}, as one node's FitError (a rejection at Reserve or Permit). */
  public static Map<String, Integer> reasonCounts(Status s) {
    Map<String, Integer> m = new HashMap<>();
    for (String r : s.reasons()) {
      m.merge(r, 1, Integer::sum);
    }
    return m;
  }

  /** Go's {@code %v} of a string slice: {@code [a b]}. */
  public static String goList(Iterable<String> items) {
    return "[" + String.join(" ", items) + "]";
  }
}
