package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Balancing similar pools (kubernetes/autoscaler's {@code --balance-similar-node-groups}): which pools a scale-up is
 * balanced with ({@link #similarPools}, upstream's {@code FindSimilarNodeGroups} and the orchestrator's
 * {@code ComputeSimilarNodeGroups}) and how its nodes are split over them ({@link #balance}, upstream's
 * {@code BalanceScaleUpBetweenGroups}, {@code processors/nodegroupset/balancing_processor.go}). Stateless.
 */
final class ScaleUpBalancing {
  private ScaleUpBalancing() {}

  /**
   * A pool taking part in a balanced scale-up.
   *
   * @param pool the pool's name
   * @param size its nodes now
   * @param maxSize its {@code maxSize}
   */
  record Group(String pool, int size, int maxSize) {
    Group {
      Objects.requireNonNull(pool, "pool");
    }
  }

  /**
   * A pool scale-up considers, as balancing compares it.
   *
   * @param template its template node
   * @param requested what the pods the template node starts with (its DaemonSet pods) request
   * @param schedulable for each pending pod group (in the order the groups were made), whether its first pod passes
   *     the filters on an empty template node (upstream's {@code SchedulablePodGroups})
   */
  record Candidate(NodePool pool, Node template, ResourceList requested, boolean[] schedulable) {
    Candidate {
      Objects.requireNonNull(pool, "pool");
      Objects.requireNonNull(template, "template");
      Objects.requireNonNull(requested, "requested");
      Objects.requireNonNull(schedulable, "schedulable");
    }
  }

  /**
   * For each candidate that can take at least one pending pod group, the other candidates similar to it
   * ({@code similarity}) that can take every group it can ({@code matchingSchedulablePodGroups}), in the order of
   * {@code candidates}; candidates without similar pools have no entry.
   */
  static Map<String, List<NodePool>> similarPools(List<Candidate> candidates, NodeGroupSimilarity similarity) {
    Map<String, List<NodePool>> out = new HashMap<>();
    for (Candidate c : candidates) {
      if (!any(c.schedulable())) {
        continue;
      }
      List<NodePool> alike = new ArrayList<>();
      for (Candidate o : candidates) {
        if (o != c && covers(o.schedulable(), c.schedulable())
            && similarity.similar(c.template(), c.requested(), o.template(), o.requested())) {
          alike.add(o.pool());
        }
      }
      if (!alike.isEmpty()) {
        out.put(c.pool().metadata().name(), List.copyOf(alike));
      }
    }
    return out;
  }

  private static boolean any(boolean[] a) {
    for (boolean b : a) {
      if (b) {
        return true;
      }
    }
    return false;
  }

  /** Whether every group {@code needed} marks is marked in {@code have}. */
  private static boolean covers(boolean[] have, boolean[] needed) {
    for (int i = 0; i < needed.length; i++) {
      if (needed[i] && !have[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Distributes {@code newNodes} over {@code groups}: each node goes to the smallest group that is still under its
   * max (the one first in {@code groups} among equally small ones), so the sizes even out. Groups at or over their max
   * take no part; when the groups cannot take {@code newNodes} together, the scale-up is capped to what they can take
   * (nothing at all when every group is at its max).
   *
   * @return the groups that grow, in the order of {@code groups}
   * @throws IllegalArgumentException if {@code groups} is empty (upstream: "Can't balance scale up between 0 groups")
   *     or {@code newNodes} is negative
   */
  static List<PoolScaleUp> balance(List<Group> groups, int newNodes) {
    if (groups.isEmpty()) {
      throw new IllegalArgumentException("balancing a scale-up of " + newNodes + " nodes: no pools given");
    }
    if (newNodes < 0) {
      throw new IllegalArgumentException("balancing a scale-up: newNodes " + newNodes + " must not be negative");
    }
    List<int[]> open = new ArrayList<>(); // index into groups, new size
    for (int i = 0; i < groups.size(); i++) {
      Group g = groups.get(i);
      if (g.size() < g.maxSize()) {
        open.add(new int[] {i, g.size()});
      }
    }
    // smallest first; among equal sizes the order given, so the chosen pool (first) is served first
    open.sort(Comparator.comparingInt((int[] a) -> groups.get(a[0]).size()).thenComparingInt(a -> a[0]));
    int[] newSize = new int[groups.size()];
    for (int i = 0; i < groups.size(); i++) {
      newSize[i] = groups.get(i).size();
    }
    int left = newNodes;
    while (left > 0 && !open.isEmpty()) {
      int[] smallest = open.get(0);
      for (int[] a : open) {
        if (a[1] < smallest[1]) {
          smallest = a;
        }
      }
      smallest[1]++;
      newSize[smallest[0]] = smallest[1];
      left--;
      if (smallest[1] >= groups.get(smallest[0]).maxSize()) {
        open.remove(smallest);
      }
    }
    List<PoolScaleUp> out = new ArrayList<>();
    for (int i = 0; i < groups.size(); i++) {
      Group g = groups.get(i);
      if (newSize[i] != g.size()) {
        out.add(new PoolScaleUp(g.pool(), g.size(), newSize[i], g.maxSize()));
      }
    }
    return out;
  }
}
