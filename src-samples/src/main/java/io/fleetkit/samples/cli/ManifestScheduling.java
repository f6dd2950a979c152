package io.fleetkit.samples.cli;

import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.scheduler.SchedulerProfile;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.PendingPod;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.plugins.coscheduling.CoschedulingPlugin;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Schedules the pending pods of a set of manifests (with the Coscheduling plugin when there are PodGroups or pods
 * that name one, so that gangs are placed all or nothing): nodes, running pods (with {@code spec.nodeName}), priority
 * classes and disruption budgets form the cluster; every pending pod is scheduled, on a simulated clock that jumps
 * past backoffs, until no more progress is possible.
 */
final class ManifestScheduling {
  /** A pod that was placed, and the pods preemption evicted to make room for it. */
  record Placement(String pod, String node, List<String> preempted) {}

  /** A pod that could not be placed, and kube's diagnosis. */
  record Unschedulable(String pod, String message) {}

  record Outcome(List<Placement> placements, List<Unschedulable> unschedulable) {}

  private ManifestScheduling() {}

  static Outcome run(LoadedObjects loaded, List<SchedulerProfile> profiles, long seed) {
    ManualClock clock = ManualClock.atEpoch2026();
    var builder = Scheduler.builder().clock(clock).seed(seed).parallelism(1);
    Set<String> served = new HashSet<>();
    boolean gangs = loaded.objects().stream().anyMatch(o -> o instanceof PodGroup
        || o instanceof Pod pod && pod.podGroupName() != null);
    for (SchedulerProfile p : profiles) {
      // Gangs need Coscheduling (it replaces PrioritySort); without them the profile stays exactly as given.
      builder.profile(gangs ? CoschedulingPlugin.enableIn(p) : p);
      served.add(p.schedulerName());
    }
    List<Pod> pending = new ArrayList<>();
    Map<String, String> notServed = new LinkedHashMap<>();
    try (Scheduler scheduler = builder.build()) {
      for (ApiObject<?> o : loaded.objects()) {
        if (o instanceof Node n) {
          scheduler.addNode(n);
        }
      }
      for (ApiObject<?> o : loaded.objects()) {
        if (!(o instanceof Node) && !(o instanceof Pod)) {
          scheduler.addObject(o);
        }
      }
      for (Pod p : loaded.ofType(Pod.class)) {
        if (p.isBound() || p.isTerminal()) {
          scheduler.addPod(p);
        } else if (!served.contains(p.spec().schedulerName())) {
          notServed.put(p.metadata().key(), "no profile serves schedulerName \"" + p.spec().schedulerName()
              + "\" (profiles: " + String.join(", ", new java.util.TreeSet<>(served)) + ")");
        } else {
          pending.add(p);
        }
      }
      for (Pod p : pending) {
        scheduler.addPod(p);
      }
      Map<String, List<String>> victimsByPod = new LinkedHashMap<>();
      Map<String, String> lastMessage = new LinkedHashMap<>();
      int idleRounds = 0;
      for (int round = 0; round < 1000 && idleRounds < 3; round++) {
        List<ScheduleResult> results = scheduler.runUntilIdle();
        boolean progress = false;
        for (ScheduleResult r : results) {
          if (!r.victims().isEmpty()) {
            victimsByPod.computeIfAbsent(r.podKey(), k -> new ArrayList<>()).addAll(r.victims());
            progress = true;
          }
          if (r.isBound()) {
            progress = true;
          } else if (!r.message().isEmpty()) {
            lastMessage.put(r.podKey(), r.message());
          }
        }
        if (scheduler.pending().isEmpty()) {
          break;
        }
        idleRounds = progress ? 0 : idleRounds + 1;
        // Jump past the longest backoff so that retried pods come back to activeQ.
        clock.advance(Duration.ofSeconds(11));
      }
      Map<String, Placement> placements = new TreeMap<>();
      Map<String, Unschedulable> failed = new TreeMap<>();
      Map<String, String> pendingMessages = new LinkedHashMap<>();
      for (PendingPod pp : scheduler.pending()) {
        pendingMessages.put(pp.podKey(), pp.message());
      }
      for (Pod p : pending) {
        String key = p.metadata().key();
        var node = scheduler.nodeOf(key);
        if (node.isPresent() && !pendingMessages.containsKey(key)) {
          placements.put(key, new Placement(key, node.get(), victimsByPod.getOrDefault(key, List.of())));
        } else {
          String msg = pendingMessages.getOrDefault(key, "");
          if (msg.isEmpty()) {
            msg = lastMessage.getOrDefault(key, "pod was not scheduled");
          }
          failed.put(key, new Unschedulable(key, msg));
        }
      }
      notServed.forEach((k, m) -> failed.put(k, new Unschedulable(k, m)));
      return new Outcome(List.copyOf(placements.values()), List.copyOf(failed.values()));
    }
  }
}
