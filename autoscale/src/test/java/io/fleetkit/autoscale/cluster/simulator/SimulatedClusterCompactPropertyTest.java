package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import io.fleetkit.autoscale.cluster.simulator.SimulatedClusterPreFilterReusePropertyTest.Noted;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The drain simulation's compact path (the fast Filter decision on slot numbers and per-shape node verdicts, and
 * placements deferred into a log until a view is read) against the general path (every Filter plugin on the views,
 * every placement made into a view at once): two simulations loaded alike go through the same random stream of
 * searches, {@code placeAll} moves and {@code placeElsewhere} moves off a ghost node, placements, pod and node
 * removals, added nodes, checkpoints and rollbacks, and reads of node views at random moments; every search must find
 * the same node, every move place the same pods, the
 * Filter checks must count alike, and every view read must hold the same pods and numbers. Nodes differ in
 * allocatable cpu, memory, ephemeral storage and pod count, labels, taints (NoSchedule, PreferNoSchedule, NoExecute)
 * and cordoning; pods differ in requests (none, ephemeral storage, a GPU, which takes the general path), tolerations,
 * node selectors, required node affinity (by label and by node name, which limits the nodes in PreFilter and so
 * takes the general path), inter-pod (anti-)affinity, hard topology spread, and a test plugin's Filter (all of which
 * take the general path); pods of one shape are distinct objects, so that verdicts kept for a shape are reused by
 * other pods.
 */
final class SimulatedClusterCompactPropertyTest {
  private static final Taint GHOST = Taint.of("ToBeDeletedByClusterAutoscaler", "1767225600", TaintEffect.NoSchedule);
  private static final String HOST = "kubernetes.io/hostname";
  private static final String ZONE = "topology.kubernetes.io/zone";

  /**
   * A plugin of the caller's: its PreFilter skips its Filter for pods not labelled {@code scribble}; for those, its
   * Filter rejects every node after the first it was asked about in the same cycle state.
   */
  static final class Scribble implements PreFilterPlugin, FilterPlugin {
    static final String NAME = "Scribble";
    private static final StateKey<String> SEEN = StateKey.of("test/scribble-seen", String.class);

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
      return pod.pod().metadata().labels().containsKey("scribble") ? PreFilterResult.success()
          : PreFilterResult.skip();
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      String seen = state.read(SEEN);
      if (seen != null && !seen.equals(node.name())) {
        return Status.unschedulable("scribbled " + seen);
      }
      state.write(SEEN, node.name());
      return Status.success();
    }
  }

  private static SimulatedCluster cluster(boolean compact) {
    SchedulerProfile profile = DefaultPlugins.profile().toBuilder().plugin(Scribble.NAME).build();
    PluginRegistry registry = PluginRegistry.defaults().with(Scribble.NAME, handle -> new Scribble());
    SimulatedCluster c = SimulatedCluster.create(profile, registry,
        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), Map.of());
    if (!compact) {
      c.generalPathOnly();
    }
    return c;
  }

  static Node node(Random rnd, String name) {
    ResourceList.Builder cap = ResourceList.builder().put("cpu", String.valueOf(1 + rnd.nextInt(4)))
        .put("memory", (1 + rnd.nextInt(8)) + "Gi").put("pods", String.valueOf(1 + rnd.nextInt(8)));
    if (rnd.nextInt(3) == 0) {
      cap.put("ephemeral-storage", (1 + rnd.nextInt(4)) + "Gi");
    }
    if (rnd.nextInt(4) == 0) {
      cap.put("nvidia.com/gpu", String.valueOf(rnd.nextInt(3)));
    }
    Node.Builder b = Node.builder().name(name).label("disk", rnd.nextBoolean() ? "ssd" : "hdd").label(HOST, name)
        .label(ZONE, "z" + rnd.nextInt(3)).capacity(cap.build());
    switch (rnd.nextInt(6)) {
      case 0 -> b.taint(Taint.of("dedicated", "batch", TaintEffect.NoSchedule));
      case 1 -> b.taint(Taint.of("soft", "", TaintEffect.PreferNoSchedule));
      case 2 -> b.taint(Taint.of("evict", "", TaintEffect.NoExecute));
      case 3 -> b.unschedulable(true);
      default -> { }
    }
    return b.build();
  }

  /** A pod of one of fourteen kinds, without a node. */
  private static Pod pod(int kind, String name, int cpu, Random rnd) {
    ResourceList.Builder req = ResourceList.builder();
    if (cpu > 0) {
      req.put("cpu", cpu + "m").put("memory", (64 + rnd.nextInt(2048)) + "Mi");
    }
    if (kind == 7) {
      req.put("ephemeral-storage", (1 + rnd.nextInt(1024)) + "Mi");
    }
    if (kind == 8) {
      req.put("nvidia.com/gpu", "1");
    }
    PodSpec.Builder spec = PodSpec.builder().container("c", "img", req.build());
    Pod.Builder b = Pod.builder().namespace("default").name(name).uid("u-" + name);
    switch (kind) {
      case 1 -> spec.nodeSelector(Map.of("disk", "ssd"));
      case 2 -> {
        b.label("color", "green");
        spec.affinity(new Affinity(null, null, new PodAffinity(
            List.of(PodAffinityTerm.of(LabelSelector.of(Map.of("color", "green")), HOST)), List.of())));
      }
      case 3 -> {
        b.label("app", "web");
        spec.affinity(new Affinity(null, new PodAffinity(
            List.of(PodAffinityTerm.of(LabelSelector.of(Map.of("app", "web")), ZONE)), List.of()), null));
      }
      case 4 -> {
        b.label("app", "spread");
        spec.topologySpreadConstraint(TopologySpreadConstraint.of(1, ZONE,
            UnsatisfiableConstraintAction.DoNotSchedule, LabelSelector.of(Map.of("app", "spread"))));
      }
      case 5 -> b.label("scribble", "yes");
      case 6 -> spec.toleration(Toleration.equal("dedicated", "batch", TaintEffect.NoSchedule));
      case 9 -> spec.toleration(Toleration.exists("node.kubernetes.io/unschedulable", TaintEffect.NoSchedule))
          .toleration(Toleration.exists("evict", null));
      case 10 -> spec.affinity(new Affinity(new NodeAffinity(new NodeSelector(List.of(new NodeSelectorTerm(
          List.of(new NodeSelectorRequirement(ZONE, NodeSelectorOperator.In, List.of("z0", "z1"))), List.of()))),
          List.of()), null, null));
      case 11 -> spec.affinity(new Affinity(new NodeAffinity(new NodeSelector(List.of(new NodeSelectorTerm(
          List.of(), List.of(new NodeSelectorRequirement("metadata.name", NodeSelectorOperator.In,
              List.of("n000", "n002", "x1")))))), List.of()), null, null));
      case 12 -> spec.toleration(Toleration.exists("", null)); // tolerates everything
      default -> { }
    }
    return b.spec(spec.build()).build();
  }

  /** A pod view with a new object of the same kind (same spec but its own name and requests). */
  static PodInfo fresh(Random rnd, String name) {
    int kind = rnd.nextInt(14);
    int cpu = rnd.nextInt(5) == 0 ? 0 : 50 + rnd.nextInt(1200);
    return new Noted(PodInfos.of(pod(kind, name, cpu, rnd)));
  }

  @Property(tries = 200)
  void compactPath_decidesAndPlacesAsTheGeneralPath(@ForAll @IntRange(min = 1, max = 12) int nodeCount,
      @ForAll @IntRange(min = 1, max = 80) int steps, @ForAll long seed) {
    Random rnd = new Random(seed);
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      nodes.add(node(rnd, String.format("n%03d", i)));
    }
    // the pods moved: a pool of objects, each moved again and again (as a drained pod in evaluation after evaluation)
    List<PodInfo> pool = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      pool.add(fresh(rnd, "s" + i));
    }
    SimulatedCluster compact = cluster(true);
    SimulatedCluster general = cluster(false);
    List<PodInfo> loaded = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      loaded.add(rnd.nextBoolean() ? fresh(rnd, "l" + i) : null);
    }
    for (SimulatedCluster c : List.of(compact, general)) {
      c.load(nodes, n -> {
        PodInfo p = loaded.get(Integer.parseInt(n.substring(1)));
        return p == null ? List.of() : List.of(p);
      }, null);
    }
    int[] names = {0};
    boolean open = false;
    int[] cursorA = {0};
    int[] cursorB = {0};
    for (int step = 0; step < steps; step++) {
      String what = "step " + step;
      int op = rnd.nextInt(16);
      List<NodeInfo> live = List.copyOf(general.nodes());
      if (op == 0) {
        if (open) {
          compact.rollback();
          general.rollback();
        } else {
          compact.checkpoint();
          general.checkpoint();
          cursorA[0] = 0;
          cursorB[0] = 0;
        }
        open = !open;
      } else if (op == 1 && live.size() > 1) {
        String name = live.get(rnd.nextInt(live.size())).name();
        compact.removeNode(name);
        general.removeNode(name);
      } else if (op == 2) {
        Node n = node(rnd, "x" + names[0]++);
        compact.addNode(n);
        general.addNode(n);
      } else if (op == 3 && !live.isEmpty()) {
        NodeInfo n = live.get(rnd.nextInt(live.size()));
        if (!n.pods().isEmpty()) {
          String key = n.pods().get(rnd.nextInt(n.pods().size())).key();
          assertThat(compact.removePod(n.name(), key)).as(what).isEqualTo(general.removePod(n.name(), key));
        }
      } else if (op == 4) {
        int slot = rnd.nextInt(general.slots() + 1);
        assertThat(describe(compact.nodeInfoAt(slot))).as(what + ": slot " + slot)
            .isEqualTo(describe(general.nodeInfoAt(slot)));
      } else if (op <= 8) {
        // a drain: the pods of a node (in the simulation) moved away from it, as the autoscaler does
        int from = rnd.nextInt(general.slots() + 1) - 1;
        List<PodInfo> moved = new ArrayList<>();
        for (int i = 1 + rnd.nextInt(4); i > 0; i--) {
          moved.add(rnd.nextInt(3) == 0 ? fresh(rnd, "m" + names[0]++) : pool.get(rnd.nextInt(pool.size())));
        }
        // half of the drains of a node as the autoscaler's removal simulation, with the node as upstream's ghost: the
        // general path makes the ghost before the first pod, the compact path only before a pod off the fast path
        boolean ghost = from >= 0 && general.nodeInfoAt(from) != null && rnd.nextBoolean();
        boolean a = ghost ? compact.placeElsewhere(moved, cursorA, from, null, GHOST)
            : compact.placeAll(moved, cursorA, from);
        boolean b = ghost ? general.placeElsewhere(moved, cursorB, from, null, GHOST)
            : general.placeAll(moved, cursorB, from);
        assertThat(a).as("%s: move %s from slot %d", what, moved, from).isEqualTo(b);
        assertThat(cursorA[0]).as(what).isEqualTo(cursorB[0]);
      } else {
        PodInfo p = rnd.nextInt(4) == 0 ? fresh(rnd, "f" + names[0]++) : pool.get(rnd.nextInt(pool.size()));
        int start = rnd.nextInt(general.slots() + 2);
        int excluded = rnd.nextInt(general.slots() + 1) - 1;
        int a = compact.findFitFrom(p, start, excluded);
        int b = general.findFitFrom(p, start, excluded);
        assertThat(a).as("%s: pod %s from %d excluding %d", what, p.key(), start, excluded).isEqualTo(b);
        if (a >= 0 && rnd.nextBoolean()) {
          PodInfo copy = new Noted(PodInfos.of(p.pod().toBuilder().name("c" + names[0]).uid("u-c" + names[0]++)
              .build()));
          compact.addPod(a, copy);
          general.addPod(b, copy);
        }
      }
      assertThat(compact.checks()).as(what + ": Filter checks").isEqualTo(general.checks());
    }
    assertThat(describe(compact)).isEqualTo(describe(general));
    if (open) {
      compact.rollback();
      general.rollback();
      assertThat(describe(compact)).isEqualTo(describe(general));
    }
  }

  private static String describe(NodeInfo n) {
    if (n == null) {
      return "none";
    }
    return n.name() + " " + n.requested() + " cpu=" + n.requestedMilliCpu() + " mem=" + n.requestedMemory()
        + " eph=" + n.requestedEphemeralStorage() + " nz=" + n.nonZeroRequestedMilliCpu() + "/"
        + n.nonZeroRequestedMemory() + " " + n.pods().stream().map(PodInfo::key).toList() + " aff="
        + n.podsWithAffinity().stream().map(PodInfo::key).toList() + " anti="
        + n.podsWithRequiredAntiAffinity().stream().map(PodInfo::key).toList();
  }

  private static List<String> describe(SimulatedCluster c) {
    List<String> out = new ArrayList<>();
    for (NodeInfo n : c.nodes()) {
      out.add(describe(n));
    }
    return out;
  }
}
