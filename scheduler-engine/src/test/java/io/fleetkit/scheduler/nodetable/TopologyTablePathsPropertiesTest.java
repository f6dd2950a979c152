package io.fleetkit.scheduler.nodetable;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import io.fleetkit.scheduler.plugins.helper.SimpleCycleState;
import io.fleetkit.scheduler.plugins.helper.SimpleSnapshot;
import io.fleetkit.scheduler.plugins.interpodaffinity.InterPodAffinityArgs;
import io.fleetkit.scheduler.plugins.interpodaffinity.InterPodAffinityPlugin;
import io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadArgs;
import io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPlugin;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jspecify.annotations.Nullable;

/**
 * InterPodAffinity's and PodTopologySpread's {@link TableFilter} paths (node label numbering, per-position match
 * arrays, state kept across cycles through the table's change log) answer exactly as their {@code NodeInfo} Filter
 * computed from scratch: the plugin instances that use the table live through several snapshot updates (nodes gaining
 * and losing pods, labels changing, nodes added and removed), and after each one every node's table answer, single
 * and over a shuffled range, equals that of a fresh plugin on a plain snapshot of the same nodes.
 */
final class TopologyTablePathsPropertiesTest {
  private static final String HOST = "kubernetes.io/hostname";
  private static final String ZONE = "topology.kubernetes.io/zone";
  private static final List<String> COLORS = List.of("green", "blue", "red");

  /** A pod on a node: color label, namespace, and an optional required anti-affinity term (hostname or zone). */
  record PodCase(int color, boolean otherNamespace, int anti) {}

  /** A node: hostname label present or not, zone (0 = none), pods. */
  record NodeCase(boolean hostname, int zone, List<PodCase> pods) {}

  /**
   * The incoming pod: color, namespace, required anti-affinity ({@code anti}: 0 none, 1 hostname, 2 zone) against
   * {@code antiColor}, required affinity ({@code affinity}: 0 none, 1 hostname, 2 zone) to {@code antiColor}, and a
   * DoNotSchedule spread constraint (0 none, 1 zone, 2 hostname, 3 both) counting {@code spreadColor}, with maxSkew
   * 1 or 2 ({@code skewMode} bit 0) and minDomains 3 or unset (bit 1).
   */
  record Incoming(int color, boolean otherNamespace, int anti, int antiColor, int affinity, int spread,
      int spreadColor, int skewMode) {
    int maxSkew() {
      return 1 + (skewMode & 1);
    }

    boolean minDomains() {
      return (skewMode & 2) != 0;
    }
  }

  @Provide
  Arbitrary<List<NodeCase>> nodeLists() {
    Arbitrary<PodCase> pods = Combinators.combine(Arbitraries.integers().between(0, 2), Arbitraries.of(false, true),
        Arbitraries.integers().between(0, 4)).as(PodCase::new);
    Arbitrary<NodeCase> nodes = Combinators.combine(Arbitraries.integers().between(0, 9).map(i -> i > 0),
        Arbitraries.integers().between(0, 3), pods.list().ofMaxSize(3)).as(NodeCase::new);
    return nodes.list().ofMinSize(1).ofMaxSize(8);
  }

  @Provide
  Arbitrary<Incoming> incoming() {
    return Combinators.combine(Arbitraries.integers().between(0, 2), Arbitraries.of(false, true),
        Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, 2),
        Arbitraries.integers().between(0, 4).map(i -> i > 2 ? 0 : i), Arbitraries.integers().between(0, 3),
        Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, 3)).as(Incoming::new);
  }

  @Property(tries = 250)
  void tablePaths_answerAsAFreshPerNodeFilter_acrossSnapshotUpdates(@ForAll("nodeLists") List<NodeCase> nodes,
      @ForAll("incoming") Incoming in, @ForAll long seed) {
    Random random = new Random(seed);
    NodeTable table = new NodeTable();
    TableSnapshot snapshot = new TableSnapshot(table);
    List<NodeCase> current = new ArrayList<>(nodes);
    snapshot.reset(views(current));
    InterPodAffinityPlugin affinity = new InterPodAffinityPlugin(InterPodAffinityArgs.DEFAULT, () -> snapshot);
    PodTopologySpreadPlugin spread = new PodTopologySpreadPlugin(PodTopologySpreadArgs.defaults(), () -> snapshot);
    PodInfo pod = PodInfos.of(incomingPod(in));
    int checked = 0;
    for (int round = 0; round < 4; round++) {
      SimpleSnapshot plain = new SimpleSnapshot(snapshot.nodes());
      checked += compare(affinity, new InterPodAffinityPlugin(InterPodAffinityArgs.DEFAULT, () -> plain), pod,
          snapshot, plain, table, random);
      checked += compare(spread, new PodTopologySpreadPlugin(PodTopologySpreadArgs.defaults(), () -> plain), pod,
          snapshot, plain, table, random);
      mutate(current, random);
      snapshot.update(views(current));
    }
    if (in.anti() > 0 || in.affinity() > 0 || in.spread() > 0) {
      assertThat(checked).as("a pod with required terms or hard constraints is filtered, not skipped").isPositive();
    }
  }

  /**
   * PodTopologySpread's {@link TableScore} path (per-value counts by the table's numbering, per-node hostname counts
   * from the match counts kept across cycles) scores every node as a fresh plugin's Score on a plain snapshot: soft
   * constraints of the pod's own ({@code spread} 1 zone, 2 hostname, 3 both; every key required) or, for
   * {@code spread} 0, the system defaults over a workload selector (hostname and zone, a missing key counted as "").
   */
  @Property(tries = 250)
  void scoreTablePath_scoresAsAFreshPerNodeScore_acrossSnapshotUpdates(@ForAll("nodeLists") List<NodeCase> nodes,
      @ForAll("incoming") Incoming in, @ForAll long seed) {
    Random random = new Random(seed);
    NodeTable table = new NodeTable();
    TableSnapshot snapshot = new TableSnapshot(table);
    List<NodeCase> current = new ArrayList<>(nodes);
    snapshot.reset(views(current));
    LabelSelector workload = LabelSelector.of(Map.of("color", COLORS.get(in.spreadColor())));
    PodTopologySpreadArgs args = PodTopologySpreadArgs.systemDefaults(p -> workload);
    PodTopologySpreadPlugin tabled = new PodTopologySpreadPlugin(args, () -> snapshot);
    Pod.Builder b = incomingPod(new Incoming(in.color(), in.otherNamespace(), 0, 0, 0, 0, 0, 0)).toBuilder();
    LabelSelector counted = LabelSelector.of(Map.of("color", COLORS.get(in.spreadColor())));
    if (in.spread() == 1 || in.spread() == 3) {
      b.topologySpreadConstraint(TopologySpreadConstraint.of(in.maxSkew(), ZONE,
          UnsatisfiableConstraintAction.ScheduleAnyway, counted));
    }
    if (in.spread() >= 2) {
      b.topologySpreadConstraint(TopologySpreadConstraint.of(in.maxSkew(), HOST,
          UnsatisfiableConstraintAction.ScheduleAnyway, counted));
    }
    PodInfo pod = PodInfos.of(b.build());
    PodInfo other = PodInfos.of(incomingPod(new Incoming(in.color(), in.otherNamespace(), 0, 0, 0, 0, 0, 0))
        .toBuilder().topologySpreadConstraint(TopologySpreadConstraint.of(1, HOST,
            UnsatisfiableConstraintAction.ScheduleAnyway,
            LabelSelector.of(Map.of("color", COLORS.get((in.spreadColor() + 1) % COLORS.size()))))).build());
    int scored = 0;
    for (int round = 0; round < 4; round++) {
      SimpleSnapshot plain = new SimpleSnapshot(snapshot.nodes());
      PodTopologySpreadPlugin fresh = new PodTopologySpreadPlugin(args, () -> plain);
      CycleState tableState = new SimpleCycleState();
      CycleState plainState = new SimpleCycleState();
      List<NodeInfo> feasible = new ArrayList<>(snapshot.nodes());
      Status a = tabled.preScore(tableState, pod, feasible);
      assertThat(a).as("PreScore").isEqualTo(fresh.preScore(plainState, pod, new ArrayList<>(plain.nodes())));
      if (a.code() == Status.Code.SUCCESS) {
        int n = snapshot.size();
        long[] all = new long[n];
        int[] positions = new int[n];
        for (int i = 0; i < n; i++) {
          positions[i] = i;
          long want = fresh.score(plainState, pod, plain.nodes().get(i));
          assertThat(tabled.score(tableState, pod, table, i)).as("Score on %s", snapshot.nodes().get(i))
              .isEqualTo(want);
          assertThat(tabled.score(tableState, pod, snapshot.nodes().get(i))).isEqualTo(want);
          scored++;
        }
        tabled.scoreAll(tableState, pod, table, positions, 0, n, all);
        for (int i = 0; i < n; i++) {
          assertThat(all[i]).isEqualTo(fresh.score(plainState, pod, plain.nodes().get(i)));
        }
        // another pod's PreScore writes its hostname counts where this pod's were: this pod's Score, asked again,
        // must not read them
        tabled.preScore(new SimpleCycleState(), other, new ArrayList<>(snapshot.nodes()));
        for (int i = 0; i < n; i++) {
          assertThat(tabled.score(tableState, pod, table, i)).as("Score on %s after another pod's PreScore",
              snapshot.nodes().get(i)).isEqualTo(fresh.score(plainState, pod, plain.nodes().get(i)));
        }
      }
      mutate(current, random);
      snapshot.update(views(current));
    }
    if (!in.otherNamespace() || in.spread() > 0) {
      assertThat(scored).as("a pod with soft constraints is scored").isPositive();
    }
  }

  /** Runs PreFilter on both, then compares the table answers of {@code tabled} with the view answers of {@code fresh}. */
  private static int compare(TableFilter tabled, TableFilter fresh, PodInfo pod, TableSnapshot snapshot,
      SimpleSnapshot plain, NodeTable table, Random random) {
    CycleState tableState = new SimpleCycleState();
    CycleState plainState = new SimpleCycleState();
    PreFilterResult a = ((io.fleetkit.api.framework.PreFilterPlugin) tabled).preFilter(tableState, pod, snapshot);
    PreFilterResult b = ((io.fleetkit.api.framework.PreFilterPlugin) fresh).preFilter(plainState, pod, plain);
    assertThat(a).as("%s PreFilter", tabled.name()).isEqualTo(b);
    if (a.status().code() != Status.Code.SUCCESS) {
      return 0;
    }
    int n = snapshot.size();
    Status[] expected = new Status[n];
    for (int i = 0; i < n; i++) {
      expected[i] = fresh.filter(plainState, pod, plain.nodes().get(i));
      assertThat(tabled.filter(tableState, pod, table, i)).as("%s Filter on %s", tabled.name(),
          snapshot.nodes().get(i)).isEqualTo(expected[i]);
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      order.add(i);
    }
    Collections.shuffle(order, random);
    int[] positions = new int[n + 1];
    int[] failed = new int[n + 1];
    Status[] statuses = new Status[n + 1];
    for (int pos = 1; pos <= n; pos++) {
      positions[pos] = order.get(pos - 1);
      failed[pos] = random.nextInt(5) == 0 ? 0 : -1; // some already failed by an earlier plugin
    }
    int[] before = failed.clone();
    tabled.filterAll(tableState, pod, table, positions, 1, n + 1, failed, 7, statuses);
    for (int pos = 1; pos <= n; pos++) {
      Status want = expected[positions[pos]];
      if (before[pos] >= 0) {
        assertThat(failed[pos]).as("already failed is left alone").isEqualTo(before[pos]);
        assertThat(statuses[pos]).isNull();
      } else if (want.code() == Status.Code.SUCCESS) {
        assertThat(failed[pos]).as("%s range pass at %s", tabled.name(), positions[pos]).isEqualTo(-1);
      } else {
        assertThat(failed[pos]).isEqualTo(7);
        assertThat(statuses[pos]).as("%s range status at %s", tabled.name(), positions[pos]).isEqualTo(want);
      }
    }
    return n;
  }

  /** Changes the cluster: a node gains or loses a pod, changes labels, is added, or the last one is removed. */
  private static void mutate(List<NodeCase> nodes, Random random) {
    int k = random.nextInt(nodes.size());
    NodeCase c = nodes.get(k);
    switch (random.nextInt(5)) {
      case 0 -> {
        List<PodCase> pods = new ArrayList<>(c.pods());
        pods.add(new PodCase(random.nextInt(3), random.nextBoolean(), random.nextInt(5)));
        nodes.set(k, new NodeCase(c.hostname(), c.zone(), pods));
      }
      case 1 -> nodes.set(k, new NodeCase(c.hostname(), c.zone(),
          c.pods().isEmpty() ? List.of() : c.pods().subList(1, c.pods().size())));
      case 2 -> nodes.set(k, new NodeCase(!c.hostname(), random.nextInt(4), c.pods()));
      case 3 -> nodes.add(new NodeCase(true, random.nextInt(4),
          List.of(new PodCase(random.nextInt(3), false, random.nextInt(5)))));
      default -> {
        if (nodes.size() > 1) {
          nodes.remove(nodes.size() - 1);
        }
      }
    }
  }

  private static List<NodeInfo> views(List<NodeCase> nodes) {
    List<NodeInfo> out = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      NodeCase c = nodes.get(i);
      String name = "n" + i;
      Map<String, String> labels = new LinkedHashMap<>();
      if (c.hostname()) {
        labels.put(HOST, name);
      }
      if (c.zone() > 0) {
        labels.put(ZONE, "z" + c.zone());
      }
      Node node = Node.builder().name(name).labels(labels).allocatable(ResourceList.ofCpuMemory(4000, 32L << 30))
          .build();
      List<PodInfo> pods = new ArrayList<>();
      for (int j = 0; j < c.pods().size(); j++) {
        PodCase p = c.pods().get(j);
        Pod.Builder b = Pod.builder().name(name + "-p" + j).namespace(p.otherNamespace() ? "other" : "default")
            .label("color", COLORS.get(p.color())).nodeName(name).container("c", "pause", ResourceList.EMPTY);
        if (p.anti() > 0) {
          // 1, 2: hostname against green or blue; 3, 4: zone against green or blue
          PodAffinityTerm t = PodAffinityTerm.of(LabelSelector.of(Map.of("color", COLORS.get((p.anti() - 1) % 2))),
              p.anti() <= 2 ? HOST : ZONE);
          b.affinity(new Affinity(null, null, new PodAffinity(List.of(t), List.of())));
        }
        pods.add(PodInfos.of(b.build()));
      }
      out.add(NodeInfos.of(node, pods));
    }
    return out;
  }

  private static Pod incomingPod(Incoming in) {
    Pod.Builder b = Pod.builder().name("incoming").namespace(in.otherNamespace() ? "other" : "default")
        .label("color", COLORS.get(in.color())).container("c", "pause", ResourceList.EMPTY);
    LabelSelector target = LabelSelector.of(Map.of("color", COLORS.get(in.antiColor())));
    PodAffinity podAffinity = in.affinity() == 0 ? null : new PodAffinity(
        List.of(PodAffinityTerm.of(target, in.affinity() == 1 ? HOST : ZONE)), List.of());
    PodAffinity anti = in.anti() == 0 ? null : new PodAffinity(
        List.of(PodAffinityTerm.of(target, in.anti() == 1 ? HOST : ZONE)), List.of());
    if (podAffinity != null || anti != null) {
      b.affinity(new Affinity(null, podAffinity, anti));
    }
    LabelSelector counted = LabelSelector.of(Map.of("color", COLORS.get(in.spreadColor())));
    if (in.spread() == 1 || in.spread() == 3) {
      b.topologySpreadConstraint(spreadOn(ZONE, in, counted));
    }
    if (in.spread() >= 2) {
      b.topologySpreadConstraint(spreadOn(HOST, in, counted));
    }
    return b.build();
  }

  private static TopologySpreadConstraint spreadOn(String key, Incoming in, LabelSelector counted) {
    TopologySpreadConstraint c = TopologySpreadConstraint.of(in.maxSkew(), key,
        UnsatisfiableConstraintAction.DoNotSchedule, counted);
    return in.minDomains()
        ? new TopologySpreadConstraint(c.maxSkew(), c.topologyKey(), c.whenUnsatisfiable(), c.labelSelector(), 3,
            c.nodeAffinityPolicy(), c.nodeTaintsPolicy(), c.matchLabelKeys())
        : c;
  }

  /** A snapshot over a {@link NodeTable}, updated as the engine does: changed positions only. */
  private static final class TableSnapshot extends SimpleSnapshot implements NodeTable.Source {
    private final NodeTable table;

    TableSnapshot(NodeTable table) {
      super(List.of());
      this.table = table;
    }

    void reset(List<NodeInfo> views) {
      table.ensureCapacity(views.size());
      for (int i = 0; i < views.size(); i++) {
        table.set(i, views.get(i));
      }
      replace(views);
    }

    /** Sets only the positions whose node differs (by name, labels or pods); clears removed positions. */
    void update(List<NodeInfo> views) {
      table.ensureCapacity(views.size());
      List<NodeInfo> old = nodes();
      for (int i = 0; i < views.size(); i++) {
        NodeInfo v = views.get(i);
        if (i < old.size() && same(old.get(i), v)) {
          views.set(i, old.get(i));
        } else {
          table.set(i, v);
        }
      }
      if (views.size() < old.size()) {
        table.clearFrom(views.size());
      }
      replace(views);
    }

    private static boolean same(NodeInfo a, NodeInfo b) {
      if (!a.labels().equals(b.labels()) || a.pods().size() != b.pods().size()) {
        return false;
      }
      for (int i = 0; i < a.pods().size(); i++) {
        if (!a.pods().get(i).pod().equals(b.pods().get(i).pod())) {
          return false;
        }
      }
      return true;
    }

    @Override
    public NodeTable nodeTable() {
      return table;
    }
  }
}
