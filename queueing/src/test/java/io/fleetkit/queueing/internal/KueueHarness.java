package io.fleetkit.queueing.internal;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.FairSharingStrategy;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Workload;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Sets up a {@link QueueScheduler} the way Kueue's preemption tests do (admitted workloads with a given flavor per
 * resource) and runs the {@link Preemptor} on a given assignment.
 *
 * <p>Every {@code targets} call also makes the two checks Kueue's {@code TestPreemption} makes besides the expected
 * set: the search leaves all queue and cohort usage as it found it (upstream compares the snapshot before and after
 * {@code GetTargets}), and no workload is targeted twice (upstream compares the number of issued preemptions with the
 * size of the expected set).
 */
final class KueueHarness {
  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  final QueueScheduler scheduler;
  private final List<String> queueNames = new ArrayList<>();
  private boolean withPaths;

  KueueHarness(List<String> flavors, List<ClusterQueue> queues, boolean fairSharing) {
    this(flavors, queues, List.of(), fairSharing);
  }

  KueueHarness(List<String> flavors, List<ClusterQueue> queues, List<Cohort> cohorts, boolean fairSharing) {
    this(flavors, queues, cohorts, fairSharing,
        List.of(FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, FairSharingStrategy.LESS_THAN_INITIAL_SHARE));
  }

  /** With fair sharing's {@code preemptionStrategies}. */
  KueueHarness(List<String> flavors, List<ClusterQueue> queues, List<Cohort> cohorts, boolean fairSharing,
      List<FairSharingStrategy> strategies) {
    List<ResourceFlavor> fl = new ArrayList<>();
    for (String f : flavors) {
      fl.add(ResourceFlavor.of(f));
    }
    List<LocalQueue> lqs = new ArrayList<>();
    for (ClusterQueue q : queues) {
      lqs.add(LocalQueue.of("default", q.name(), q.name()));
      queueNames.add(q.name());
    }
    scheduler = new QueueScheduler(Clock.fixed(NOW, ZoneOffset.UTC), fl, queues, cohorts, lqs, Map.of(), fairSharing,
        strategies, List.of(), List.of());
  }

  /** {@code wl("low", -1, "cpu", "2")}: one pod set {@code main} of one pod. */
  static Workload wl(String name, int priority, String... requests) {
    Workload.Builder b = Workload.builder("default", name).priority(priority).creationTime(NOW);
    for (int i = 0; i < requests.length; i += 2) {
      b.request(requests[i], requests[i + 1]);
    }
    return b.build();
  }

  static ResourceList req(String... requests) {
    ResourceList.Builder b = ResourceList.builder();
    for (int i = 0; i < requests.length; i += 2) {
      b.put(requests[i], Quantity.parse(requests[i + 1]));
    }
    return b.build();
  }

  KueueHarness admit(Workload w, String cq, String... flavorByResource) {
    return admitAt(w, cq, NOW, flavorByResource);
  }

  KueueHarness admitAt(Workload w, String cq, Instant at, String... flavorByResource) {
    java.util.Map<String, String> m = new java.util.HashMap<>();
    for (int i = 0; i < flavorByResource.length; i += 2) {
      m.put(flavorByResource[i], flavorByResource[i + 1]);
    }
    scheduler.assumeAdmitted(w, cq, m, at);
    return this;
  }

  /**
   * The targets for {@code incoming} in {@code cq} with a forced assignment: per pod set (in order), pairs of resource
   * and {@code flavor} or {@code flavor!} (the exclamation mark: mode Preempt, else Fit).
   */
  TreeSet<String> targets(Workload incoming, String cq, List<List<String>> perPodSet) {
    CqState q = scheduler.queue(cq);
    FlavorResources index = scheduler.index();
    long[] total = new long[index.size()];
    boolean[] need = new boolean[index.size()];
    List<PodSetAssignment> podSets = new ArrayList<>();
    for (int p = 0; p < incoming.podSets().size(); p++) {
      PodSet ps = incoming.podSets().get(p);
      List<String> spec = perPodSet.get(p);
      for (int i = 0; i < spec.size(); i += 2) {
        String r = spec.get(i);
        String flavor = spec.get(i + 1);
        boolean preempt = flavor.endsWith("!");
        flavor = preempt ? flavor.substring(0, flavor.length() - 1) : flavor;
        int fr = index.of(flavor, r);
        total[fr] += ps.totalMilli(r);
        need[fr] |= preempt;
      }
      podSets.add(new PodSetAssignment(ps.name(), ps.count(), Map.of(), ps.requests()));
    }
    int[] frs = FlavorResources.nonZero(total);
    long[] vals = FlavorResources.valuesAt(total, frs);
    Assignment a = new Assignment(Assignment.PREEMPT, 0, podSets, frs, vals, need, "");
    Map<String, long[]> before = usageSnapshot();
    List<Target> targets = scheduler.preemptor().targets(incoming, q, a);
    Map<String, long[]> after = usageSnapshot();
    TreeSet<String> out = new TreeSet<>();
    TreeSet<String> victims = new TreeSet<>();
    for (Target t : targets) {
      out.add(t.victim().workload().name() + ":" + t.reason().kueueName()
          + (withPaths ? " preemptor path: " + q.path() + "; preemptee path: " + t.victim().cq.path() : ""));
      victims.add(t.victim().key());
    }
    for (Map.Entry<String, long[]> e : before.entrySet()) {
      if (!Arrays.equals(e.getValue(), after.get(e.getKey()))) {
        throw new AssertionError("the preemptor changed the usage of " + e.getKey() + ": "
            + Arrays.toString(e.getValue()) + " -> " + Arrays.toString(after.get(e.getKey())));
      }
    }
    if (victims.size() != targets.size()) {
      throw new AssertionError("a workload is targeted more than once: " + targets);
    }
    return out;
  }

  /** The usage of every ClusterQueue and every cohort of the tree, keyed {@code cq/<name>} and {@code cohort/<name>}. */
  private Map<String, long[]> usageSnapshot() {
    Map<String, long[]> out = new LinkedHashMap<>();
    for (String name : queueNames) {
      CqState cq = scheduler.queue(name);
      out.put("cq/" + name, cq.usage.clone());
      for (CohortState c = cq.cohort; c != null; c = c.parent) {
        out.put("cohort/" + c.name, c.usage.clone());
      }
    }
    return out;
  }

  /**
   * Makes {@link #targets} answer {@code name:Reason preemptor path: /r/c/q; preemptee path: /r/q2}, the paths of
   * Kueue's preemption message.
   */
  KueueHarness withPaths() {
    withPaths = true;
    return this;
  }

  TreeSet<String> targets(Workload incoming, String cq, String... resourceFlavorPairs) {
    return targets(incoming, cq, List.of(List.of(resourceFlavorPairs)));
  }
}
