package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.ObjectKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link ReplicaSetPodCounts}, which counts only the pods that differ from the last call, against upstream's
 * {@code calculateStatus} over every pod ({@link ReplicaSetReconciler#calculateStatus}), through random pod lists in
 * key order changed as a ReplicaSet's pods change: readiness flips, phases ending, deletions being marked, pods
 * created and removed, relabels, the same list again, and the template's labels or {@code minReadySeconds} changing.
 */
final class ReplicaSetPodCountsPropertyTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:10:00Z");
  private static final PodSpec SPEC = PodSpec.builder().container("c", "img", ResourceList.ofCpuMemory(100, 0))
      .build();

  private static Pod pod(String name, boolean labeled, int state) {
    Pod.Builder b = Pod.builder().namespace("ns").name(name).label("app", "web").spec(SPEC);
    if (labeled) {
      b.label("tier", "front");
    }
    Pod p = b.build();
    return switch (state) {
      case 0 -> p; // pending
      case 1 -> p.withStatus(p.status().withPhase(PodPhase.Running)); // running, not ready
      case 2, 3 -> p.withStatus(p.status().withPhase(PodPhase.Running).withCondition(PodCondition.of(
          PodCondition.READY, ConditionStatus.True, "", "", NOW.minusSeconds(state == 2 ? 2 : 60))));
      case 4 -> p.withStatus(p.status().withPhase(PodPhase.Succeeded)); // inactive
      default -> p.withMetadata(p.metadata().toBuilder().deletionTimestamp(NOW).build()); // inactive
    };
  }

  @Property(tries = 100)
  void counts_equalCountingEveryPod(@ForAll @IntRange(min = 1, max = 60) int steps, @ForAll long seed) {
    Random r = new Random(seed);
    ReplicaSetPodCounts counts = new ReplicaSetPodCounts();
    ObjectKey key = ObjectKey.of("ns", "web");
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < r.nextInt(12); i++) {
      pods.add(pod(String.format("web-%03d", i * 10), r.nextBoolean(), r.nextInt(6)));
    }
    boolean twoLabels = true;
    int minReady = 0;
    List<Pod> owned = List.copyOf(pods);
    for (int step = 0; step < steps; step++) {
      int op = r.nextInt(12);
      if (op < 4 && !pods.isEmpty()) { // a pod's state changes (a new object)
        int i = r.nextInt(pods.size());
        pods.set(i, pod(pods.get(i).metadata().name(), pods.get(i).metadata().labels().size() == 2,
            r.nextInt(6)));
      } else if (op < 6) { // created, at its place in key order
        String name = String.format("web-%03d", r.nextInt(200));
        if (pods.stream().noneMatch(p -> p.metadata().name().equals(name))) {
          pods.add(pod(name, r.nextBoolean(), r.nextInt(6)));
          pods.sort((a, b) -> a.metadata().name().compareTo(b.metadata().name()));
        }
      } else if (op < 8 && !pods.isEmpty()) {
        pods.remove(r.nextInt(pods.size()));
      } else if (op == 8 && !pods.isEmpty()) { // relabelled
        int i = r.nextInt(pods.size());
        pods.set(i, pod(pods.get(i).metadata().name(), r.nextBoolean(), r.nextInt(6)));
      } else if (op == 9) {
        twoLabels = !twoLabels;
      } else if (op == 10) {
        minReady = r.nextInt(3) == 0 ? 30 : 0;
      } // else: the same list again
      if (op != 11) {
        owned = r.nextInt(4) == 0 ? new ArrayList<>(pods) : Collections.unmodifiableList(new ArrayList<>(pods));
      }
      Map<String, String> template = twoLabels ? Map.of("app", "web", "tier", "front") : Map.of("app", "web");
      ReplicaSet rs = ReplicaSet.builder().namespace("ns").name("web").replicas(3).matchLabels(template).podSpec(SPEC)
          .minReadySeconds(minReady).build();
      ReplicaSetPodCounts.Counts c = counts.count(key, owned, template, minReady, NOW);
      List<Pod> active = owned.stream().filter(io.fleetkit.reconcile.controllers.ActivePods::isActive).toList();
      ReplicaSetStatus expected = ReplicaSetReconciler.calculateStatus(rs, active, NOW, null);
      assertThat(c.active()).containsExactlyElementsOf(active);
      assertThat(new int[] {c.active().size(), c.fullyLabeled(), c.ready(), c.available()})
          .as("step %d", step)
          .containsExactly(expected.replicas(), expected.fullyLabeledReplicas(), expected.readyReplicas(),
              expected.availableReplicas());
    }
  }
}
