package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.autoscale.cluster.simulator.SimulatedClusterPreFilterReusePropertyTest.Noted;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A view made by adding several pods at once ({@link SimNodeInfo#withPods}, how the simulation makes a view of its
 * deferred placements) against adding them one by one ({@link SimNodeInfo#withPod}): the same pods in order, the same
 * affinity and anti-affinity lists, the same cpu, memory and ephemeral-storage numbers, non-zero sums and
 * {@code requested()} list, over random trees of views (batches added to the latest view or, at random, to an earlier
 * one, so that views share pod arrays with their siblings), bases built at once or read before adding, and pods with
 * extended resources and (anti-)affinity terms; every view still holds its own pods at the end.
 */
final class SimNodeInfoWithPodsPropertyTest {
  @Property(tries = 200)
  void addingAtOnce_makesTheViewAddingOneByOneMakes(@ForAll @IntRange(min = 0, max = 6) int initial,
      @ForAll @IntRange(min = 1, max = 30) int steps, @ForAll long seed) {
    Random rnd = new Random(seed);
    Node node = Node.builder().name("n").capacity(ResourceList.builder().put("cpu", "64").put("memory", "256Gi")
        .put("pods", "500").build()).build();
    List<PodInfo> first = new ArrayList<>();
    for (int i = 0; i < initial; i++) {
      first.add(randomPod(rnd, "a" + i));
    }
    List<SimNodeInfo> views = new ArrayList<>(List.of(SimNodeInfo.of(node, first)));
    List<List<String>> made = new ArrayList<>(List.of(describe(views.get(0))));
    for (int step = 0; step < steps; step++) {
      SimNodeInfo from = views.get(rnd.nextInt(4) == 0 ? rnd.nextInt(views.size()) : views.size() - 1);
      if (rnd.nextInt(3) == 0) {
        from.requested(); // a base whose list was made
      }
      int k = 1 + rnd.nextInt(5);
      PodInfo[] add = new PodInfo[k + rnd.nextInt(3)];
      for (int i = 0; i < k; i++) {
        add[i] = randomPod(rnd, "b" + step + "-" + i);
      }
      List<String> before = describe(from);
      SimNodeInfo one = from;
      for (int i = 0; i < k; i++) {
        one = one.withPod(add[i]);
      }
      SimNodeInfo all = from.withPods(add, k);
      assertThat(describe(all)).as("step %d", step).isEqualTo(describe(one));
      assertThat(describe(from)).as("step %d: the view added to", step).isEqualTo(before);
      SimNodeInfo kept = rnd.nextBoolean() ? all : one;
      views.add(kept);
      made.add(describe(kept));
    }
    for (int i = 0; i < views.size(); i++) {
      assertThat(describe(views.get(i))).as("view %d at the end", i).isEqualTo(made.get(i));
    }
  }

  private static List<String> describe(NodeInfo n) {
    return List.of(n.pods().stream().map(PodInfo::key).toList().toString(),
        n.podsWithAffinity().stream().map(PodInfo::key).toList().toString(),
        n.podsWithRequiredAntiAffinity().stream().map(PodInfo::key).toList().toString(),
        n.requestedMilliCpu() + "/" + n.requestedMemory() + "/" + n.requestedEphemeralStorage(),
        n.nonZeroRequestedMilliCpu() + "/" + n.nonZeroRequestedMemory(), n.requested().toString());
  }

  private static PodInfo randomPod(Random rnd, String name) {
    ResourceList.Builder r = ResourceList.builder();
    if (rnd.nextInt(5) > 0) {
      r.put("cpu", Quantity.ofMilli(rnd.nextInt(2000), Quantity.Format.DECIMAL_SI));
    }
    if (rnd.nextBoolean()) {
      r.put("memory", (1 + rnd.nextInt(512)) + "Mi");
    }
    if (rnd.nextInt(4) == 0) {
      r.put("ephemeral-storage", (1 + rnd.nextInt(10)) + "Gi");
    }
    if (rnd.nextInt(5) == 0) {
      r.put("example.com/dev", Quantity.of(1 + rnd.nextInt(3)));
    }
    PodSpec.Builder spec = PodSpec.builder().container("c", "img", r.build());
    int kind = rnd.nextInt(6);
    if (kind == 0) {
      spec.affinity(new Affinity(null, new PodAffinity(List.of(PodAffinityTerm.of(
          LabelSelector.of(Map.of("app", "web")), "zone")), List.of()), null));
    } else if (kind == 1) {
      spec.affinity(new Affinity(null, null, new PodAffinity(List.of(PodAffinityTerm.of(
          LabelSelector.of(Map.of("app", "web")), "zone")), List.of())));
    }
    PodInfo info = PodInfos.of(Pod.builder().namespace("default").name(name).spec(spec.build()).build());
    return rnd.nextBoolean() ? new Noted(info) : info;
  }
}
