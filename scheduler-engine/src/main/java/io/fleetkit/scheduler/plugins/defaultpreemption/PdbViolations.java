package io.fleetkit.scheduler.plugins.defaultpreemption;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.Selector;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * The PodDisruptionBudgets of one preemption attempt, with selectors compiled once, splitting victims into those whose
 * eviction would violate a budget and the others (upstream {@code filterPodsWithPDBViolation}). Immutable.
 */
final class PdbViolations {
  /** Budgets that can match a pod: a valid, non-empty selector. */
  private final List<Budget> budgets;

  private record Budget(PodDisruptionBudget pdb, Selector selector) {}

  private PdbViolations(List<Budget> budgets) {
    this.budgets = budgets;
  }

  static PdbViolations of(List<PodDisruptionBudget> pdbs) {
    List<Budget> out = new ArrayList<>(pdbs.size());
    for (PodDisruptionBudget pdb : pdbs) {
      LabelSelector ls = pdb.spec().selector();
      if (ls == null) {
        continue; // a nil selector matches nothing
      }
      Selector s;
      try {
        s = ls.toSelector();
      } catch (IllegalArgumentException invalid) {
        continue; // an invalid selector does not match the pod
      }
      if (s.isEmpty() || s.matchesNothing()) {
        continue; // upstream: "A PDB with a nil or empty selector matches nothing."
      }
      out.add(new Budget(pdb, s));
    }
    return new PdbViolations(List.copyOf(out));
  }

  static PdbViolations none() {
    return new PdbViolations(List.of());
  }

  /** The two groups of a split; each keeps the order of the input. */
  record Split(List<PodInfo> violating, List<PodInfo> nonViolating) {}

  /**
   * Splits {@code pods} (stable): each pod decrements the remaining {@code disruptionsAllowed} of every budget that
   * selects it in its namespace (unless the budget already lists it in {@code disruptedPods}); a pod that drives any
   * budget below zero is violating.
   */
  Split split(List<PodInfo> pods) {
    if (budgets.isEmpty()) {
      return new Split(List.of(), pods);
    }
    int[] allowed = new int[budgets.size()];
    for (int i = 0; i < allowed.length; i++) {
      allowed[i] = budgets.get(i).pdb().status().disruptionsAllowed();
    }
    List<PodInfo> violating = new ArrayList<>();
    List<PodInfo> nonViolating = new ArrayList<>(pods.size());
    for (PodInfo pi : pods) {
      Pod pod = pi.pod();
      boolean violated = false;
      if (!pod.metadata().labels().isEmpty()) { // a pod without labels matches no budget
        for (int i = 0; i < allowed.length; i++) {
          PodDisruptionBudget pdb = budgets.get(i).pdb();
          if (!pdb.metadata().namespace().equals(pod.metadata().namespace())
              || !budgets.get(i).selector().matches(pod.metadata().labels())) {
            continue;
          }
          if (pdb.status().disruptedPods().containsKey(pod.metadata().name())) {
            continue; // its eviction was already admitted: not a new violation
          }
          allowed[i]--;
          if (allowed[i] < 0) {
            violated = true;
          }
        }
      }
      (violated ? violating : nonViolating).add(pi);
    }
    return new Split(violating, nonViolating);
  }
}
