package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
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
import org.jspecify.annotations.Nullable;

/**
 * The drain simulation's search keeping PreFilter's outcome per pod object ({@link SimulatedCluster#findFitFrom(
 * PodInfo, int, int)}) against running PreFilter for every search: two simulations loaded alike go through the same
 * random stream of searches (the same pod objects searched again and again), placements, pod and node removals,
 * added nodes, checkpoints and rollbacks, and must find the same node in every search, run the same number of Filter
 * checks and end with the same views. The pods include those whose PreFilter reads the cluster (required
 * anti-affinity, which also makes every other pod's InterPodAffinity PreFilter read the node list, pod affinity,
 * hard topology spread), and a test plugin whose PreFilter reads the node count for some pods and whose Filter
 * writes to the cycle state for others (so keeping what such a run made would change later searches); a third
 * simulation, whose PreFilter rejects every pod, searches the same pod objects in between.
 */
final class SimulatedClusterPreFilterReusePropertyTest {
  private static final String HOST = "kubernetes.io/hostname";
  private static final String ZONE = "topology.kubernetes.io/zone";

  private static SimulatedCluster cluster(boolean keep) {
    SchedulerProfile profile = DefaultPlugins.profile().toBuilder().plugin(Probe.NAME).build();
    PluginRegistry registry = PluginRegistry.defaults().with(Probe.NAME, handle -> new Probe());
    SimulatedCluster c = SimulatedCluster.create(profile, registry,
        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), Map.of());
    if (!keep) {
      c.runPreFilterEverySearch();
    }
    return c;
  }

  /**
   * A simulation whose PreFilter rejects every pod: it searches the same pod objects, and the other simulations must
   * not take its notes for theirs.
   */
  private static SimulatedCluster rejecting() {
    String name = "RejectAll";
    PreFilterPlugin reject = new PreFilterPlugin() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
        return PreFilterResult.of(Status.unresolvable("rejects every pod"));
      }
    };
    return SimulatedCluster.create(DefaultPlugins.profile().toBuilder().plugin(name).build(),
        PluginRegistry.defaults().with(name, handle -> reject), Clock.systemUTC(), Map.of());
  }

  /**
   * A PreFilter that, for pods labelled {@code parity}, rejects the pod when the simulation holds an odd number of
   * nodes; a Filter that, for pods labelled {@code scribble}, rejects every node after the first it was asked about
   * in the same cycle state (it writes that node's name into the state).
   */
  static final class Probe implements PreFilterPlugin, FilterPlugin {
    static final String NAME = "Probe";
    private static final StateKey<String> SEEN = StateKey.of("test/probe-seen", String.class);

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
      if (pod.pod().metadata().labels().containsKey("parity") && snapshot.size() % 2 == 1) {
        return PreFilterResult.of(Status.unresolvable("odd node count"));
      }
      return PreFilterResult.success();
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      if (!pod.pod().metadata().labels().containsKey("scribble")) {
        return Status.success();
      }
      String seen = state.read(SEEN);
      if (seen != null && !seen.equals(node.name())) {
        return Status.unschedulable("scribbled " + seen);
      }
      state.write(SEEN, node.name());
      return Status.success();
    }
  }

  /** A {@link SimulationPodInfo} over a scheduler's pod view, its facts read from the pod. */
  static final class Noted implements SimulationPodInfo {
    private final PodInfo info;
    private @Nullable Object note;

    Noted(PodInfo info) {
      this.info = info;
    }

    @Override public Pod pod() { return info.pod(); }
    @Override public String key() { return info.key(); }
    @Override public ResourceList requests() { return info.requests(); }
    @Override public long nonZeroMilliCpu() { return info.nonZeroMilliCpu(); }
    @Override public long nonZeroMemory() { return info.nonZeroMemory(); }
    @Override public int priority() { return info.priority(); }
    @Override public boolean hasAffinity() { return NodeInfos.hasAffinity(info.pod()); }
    @Override public boolean hasRequiredAntiAffinity() { return NodeInfos.hasRequiredAntiAffinity(info.pod()); }
    @Override public @Nullable Object simulationNote() { return note; }
    @Override public void simulationNote(@Nullable Object n) { note = n; }
    @Override public @Nullable Object hintNote() { return null; }
    @Override public void hintNote(@Nullable Object n) { }
  }

  private static Node node(Random rnd, String name) {
    ResourceList cap = ResourceList.builder().put("cpu", String.valueOf(1 + rnd.nextInt(4)))
        .put("memory", "8Gi").put("pods", String.valueOf(2 + rnd.nextInt(6))).build();
    return Node.builder().name(name).label("disk", rnd.nextBoolean() ? "ssd" : "hdd").label(HOST, name)
        .label(ZONE, "z" + rnd.nextInt(3)).capacity(cap).build();
  }

  /** A pod of one of eight kinds, without a node. */
  private static Pod pod(int kind, String name, int cpu) {
    PodSpec.Builder spec = PodSpec.builder().container("c", "img", ResourceList.ofCpuMemory(cpu, 0));
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
      case 5 -> b.label("parity", "yes");
      case 6 -> b.label("scribble", "yes");
      default -> { }
    }
    return b.spec(spec.build()).build();
  }

  @Property(tries = 100)
  void keptPreFilter_findsWhatAFreshPreFilterFinds(@ForAll @IntRange(min = 1, max = 10) int nodeCount,
      @ForAll @IntRange(min = 1, max = 60) int steps, @ForAll long seed) {
    Random rnd = new Random(seed);
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      nodes.add(node(rnd, String.format("n%03d", i)));
    }
    // the pods searched for: a few objects, each searched many times (as a drained pod in evaluation after evaluation)
    List<PodInfo> searched = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      searched.add(new Noted(PodInfos.of(pod(rnd.nextInt(8), "s" + i, 100 + rnd.nextInt(900)))));
    }
    SimulatedCluster kept = cluster(true);
    SimulatedCluster fresh = cluster(false);
    for (SimulatedCluster c : List.of(kept, fresh)) {
      c.load(nodes, n -> List.of(), null);
    }
    SimulatedCluster other = rejecting();
    other.load(nodes, n -> List.of(), null);
    int names = 0;
    int cursor = 0;
    for (int step = 0; step < steps; step++) {
      int what = rnd.nextInt(12);
      List<NodeInfo> live = List.copyOf(fresh.nodes());
      if (what == 0) {
        kept.checkpoint();
        fresh.checkpoint();
        checkpointed(kept, fresh, rnd, searched, names);
        names += 100;
        kept.rollback();
        fresh.rollback();
      } else if (what == 1 && live.size() > 1) {
        String name = live.get(rnd.nextInt(live.size())).name();
        kept.removeNode(name);
        fresh.removeNode(name);
      } else if (what == 2) {
        Node n = node(rnd, "x" + names++);
        kept.addNode(n);
        fresh.addNode(n);
      } else if (what == 4) {
        assertThat(other.findFitFrom(searched.get(rnd.nextInt(searched.size())), 0, -1)).isEqualTo(-1);
      } else if (what == 3 && !live.isEmpty()) {
        NodeInfo n = live.get(rnd.nextInt(live.size()));
        if (!n.pods().isEmpty()) {
          String key = n.pods().get(rnd.nextInt(n.pods().size())).key();
          assertThat(kept.removePod(n.name(), key)).isEqualTo(fresh.removePod(n.name(), key));
        }
      } else {
        cursor = search(kept, fresh, searched.get(rnd.nextInt(searched.size())), cursor,
            rnd.nextInt(fresh.slots() + 1) - 1, "p" + names++, "step " + step);
      }
    }
    assertThat(kept.checks()).as("Filter checks").isEqualTo(fresh.checks());
    assertThat(describe(kept)).isEqualTo(describe(fresh));
  }

  /** Searches and placements between a checkpoint and its rollback (an evaluation's). */
  private static void checkpointed(SimulatedCluster kept, SimulatedCluster fresh, Random rnd, List<PodInfo> searched,
      int names) {
    int cursor = 0;
    for (int i = rnd.nextInt(12); i > 0; i--) {
      List<NodeInfo> live = List.copyOf(fresh.nodes());
      if (rnd.nextInt(6) == 0 && live.size() > 1) {
        String name = live.get(rnd.nextInt(live.size())).name();
        kept.removeNode(name);
        fresh.removeNode(name);
      } else {
        cursor = search(kept, fresh, searched.get(rnd.nextInt(searched.size())), cursor,
            rnd.nextInt(fresh.slots() + 1) - 1, "c" + names + "-" + i, "checkpointed search " + i);
      }
    }
  }

  /** One search in both simulations; a found node gets a copy of the pod (another object, same spec and labels). */
  private static int search(SimulatedCluster kept, SimulatedCluster fresh, PodInfo p, int cursor, int excluded,
      String copyName, String what) {
    int a = kept.findFitFrom(p, cursor, excluded);
    int b = fresh.findFitFrom(p, cursor, excluded);
    assertThat(a).as("%s: pod %s from %d excluding %d", what, p.key(), cursor, excluded).isEqualTo(b);
    if (a < 0) {
      return cursor;
    }
    Pod copy = p.pod().toBuilder().name(copyName).uid("u-" + copyName).build();
    PodInfo placed = new Noted(PodInfos.of(copy));
    kept.addPod(a, placed);
    fresh.addPod(b, placed);
    return a + 1;
  }

  private static List<String> describe(SimulatedCluster c) {
    List<String> out = new ArrayList<>();
    for (NodeInfo n : c.nodes()) {
      out.add(n.name() + " " + n.requested() + " " + n.pods().stream().map(PodInfo::key).toList());
    }
    return out;
  }
}
