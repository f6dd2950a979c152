package io.fleetkit.scheduler.internal;

import io.fleetkit.scheduler.nodetable.NodeTable;
import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.framework.BindPlugin;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.NodeToStatus;
import io.fleetkit.api.framework.PermitPlugin;
import io.fleetkit.api.framework.PermitResult;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PostFilterPlugin;
import io.fleetkit.api.framework.PostFilterResult;
import io.fleetkit.api.framework.PreBindPlugin;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.ReservePlugin;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.ScorePlugin;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Each extension point as the framework runs it: order, Skip, attribution of outcomes and exceptions to plugins. */
final class FrameworkTest {
  private static final String BOOM = "java.lang.IllegalStateException: boom";
  private final PodInfo pod = EnginePodInfo.of(pod("p", 100, 10));
  private final NodeInfo n1 = NodeInfos.of(node("n1", 1000, 1024, 10), List.of());
  private final NodeInfo n2 = NodeInfos.of(node("n2", 1000, 1024, 10), List.of());
  private final List<String> calls = new ArrayList<>();

  /** A plugin at every point: each answers from {@link #answers} (success by default) or throws at {@link #throwAt}. */
  private final class Probe implements PreFilterPlugin, FilterPlugin, PostFilterPlugin, PreScorePlugin, ScorePlugin,
      ReservePlugin, PermitPlugin, PreBindPlugin, BindPlugin {
    final String name;
    final Map<String, Object> answers = new HashMap<>();
    @Nullable String throwAt;

    Probe(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    private Object at(String point, Object fallback) {
      calls.add(name + "." + point);
      if (point.equals(throwAt)) {
        throw new IllegalStateException("boom");
      }
      return answers.getOrDefault(point, fallback);
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
      return (PreFilterResult) at("PreFilter", PreFilterResult.success());
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      return (Status) at("Filter", Status.success());
    }

    @Override
    public PostFilterResult postFilter(CycleState state, PodInfo pod, Snapshot snapshot, NodeToStatus statuses) {
      calls.add(name + ".dryRun=" + state.isPreemptionDryRun());
      return (PostFilterResult) at("PostFilter", PostFilterResult.of(Status.unschedulable(name + " cannot help")));
    }

    @Override
    public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
      return (Status) at("PreScore", Status.success());
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
      return (Long) at("Score", 0L);
    }

    @Override
    public void normalizeScores(CycleState state, PodInfo pod, List<NodeInfo> nodes, long[] scores) {
      at("NormalizeScore", "");
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, String nodeName) {
      return (Status) at("Reserve", Status.success());
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String nodeName) {
      at("Unreserve", "");
    }

    @Override
    public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
      return (PermitResult) at("Permit", PermitResult.allow());
    }

    @Override
    public Status preBind(CycleState state, PodInfo pod, String nodeName) {
      return (Status) at("PreBind", Status.success());
    }

    @Override
    public Status bind(CycleState state, PodInfo pod, String nodeName) {
      return (Status) at("Bind", Status.skip());
    }
  }

  private final Probe a = new Probe("A");
  private final Probe b = new Probe("B");
  private final Probe c = new Probe("C");

  /** A profile of PrioritySort, A (weight 1) and B (weight 3). */
  private Framework framework() {
    return framework(SchedulerProfile.builder("s").plugin(PrioritySortPlugin.NAME).plugin("A", 1).plugin("B", 3)
        .build());
  }

  /** A profile of PrioritySort, A (weight 1), B (weight 3) and C (weight 2). */
  private Framework framework3() {
    return framework(SchedulerProfile.builder("s").plugin(PrioritySortPlugin.NAME).plugin("A", 1).plugin("B", 3)
        .plugin("C", 2).build());
  }

  private Framework framework(SchedulerProfile p) {
    PluginRegistry reg = PluginRegistry.defaults().with("A", h -> a).with("B", h -> b).with("C", h -> c);
    return new Framework(p, reg, Clock.systemUTC(), new ClusterSnapshot(), WaitingPods.NONE, new ClusterObjects());
  }

  private static NodeTable table(NodeInfo... nodes) {
    NodeTable t = new NodeTable();
    t.ensureCapacity(nodes.length);
    for (int i = 0; i < nodes.length; i++) {
      t.set(i, nodes[i]);
    }
    return t;
  }

  private Status runPoint(Framework fw, String point) {
    ArrayCycleState state = new ArrayCycleState();
    NodeInfo[] nodes = {n1, n2};
    return switch (point) {
      case "PreFilter" -> fw.runPreFilter(state, pod).status();
      case "PostFilter" -> {
        Framework.PostFilterOutcome o = fw.runPostFilter(state, () -> pod, new NodeToStatus(Map.of(),
            Status.Code.UNSCHEDULABLE), () -> { });
        yield Status.error(o.message()); // the message is what the FitError shows
      }
      case "PreScore" -> fw.runPreScore(state, pod, List.of(nodes));
      case "Score", "NormalizeScore" -> fw.runScore(state, pod, table(nodes), new int[] {0, 1},
          List.of(nodes), 2, new long[2], new ParallelRunner(1), 512);
      case "Reserve" -> fw.runReserve(state, pod, "n1");
      case "Permit" -> fw.runPermit(state, pod, "n1", 0).status();
      case "PreBind" -> fw.runPreBind(state, pod, "n1");
      case "Bind" -> fw.runBind(state, pod, "n1");
      default -> throw new IllegalArgumentException(point);
    };
  }

  @ParameterizedTest
  @ValueSource(strings = {"PreFilter", "PostFilter", "PreScore", "Score", "NormalizeScore", "Reserve", "Permit",
      "PreBind", "Bind"})
  void runPoint_pluginThrows_errorNamesThePluginAndThePoint(String point) {
    Framework fw = framework();
    b.throwAt = point;
    Status s = runPoint(fw, point);
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    // PostFilter's outcome is a message for the FitError: every plugin's reasons up to the failing one
    String before = point.equals("PostFilter") ? "A cannot help, " : "";
    assertThat(s.message()).isEqualTo(before + "running " + point + " plugin B: " + BOOM);
    if (!point.equals("PreFilter") && !point.equals("PostFilter")) {
      assertThat(s.plugin()).isEqualTo("B");
    }
    assertThat(calls.indexOf("A." + point)).as("A runs before B").isNotNegative()
        .isLessThan(calls.indexOf("B." + point));
  }

  @Test
  void runReserve_rejection_attributedToThePlugin_andLaterPluginsNotRun() {
    Framework fw = framework();
    a.answers.put("Reserve", Status.unschedulable("no room"));
    Status s = fw.runReserve(new ArrayCycleState(), pod, "n1");
    assertThat(s).isEqualTo(Status.unschedulable("no room").withPlugin("A"));
    assertThat(calls).containsExactly("A.Reserve");
  }

  @Test
  void runUnreserve_everyPluginInReverseOrder_evenAfterOneThrows() {
    Framework fw = framework();
    b.throwAt = "Unreserve";
    fw.runUnreserve(new ArrayCycleState(), pod, "n1");
    assertThat(calls).containsExactly("B.Unreserve", "A.Unreserve");
  }

  @Test
  void runPreFilter_skip_skipsThatPluginsFilter() {
    Framework fw = framework();
    a.answers.put("PreFilter", PreFilterResult.skip());
    a.answers.put("Filter", Status.unschedulable("A says no"));
    ArrayCycleState state = new ArrayCycleState();
    assertThat(fw.runPreFilter(state, pod).status().isSuccess()).isTrue();
    Status[] out = new Status[1];
    assertThat(fw.runFilter(state, state.skipFilter, pod, n1, out, 0)).isEqualTo(-1);
    assertThat(calls).containsExactly("A.PreFilter", "B.PreFilter", "B.Filter");
  }

  @Test
  void runPreFilter_disjointNodeSets_unresolvableNamingBothPlugins() {
    Framework fw = framework();
    a.answers.put("PreFilter", PreFilterResult.onlyNodes(Set.of("n1")));
    b.answers.put("PreFilter", PreFilterResult.onlyNodes(Set.of("n2")));
    Framework.PreFilterOutcome o = fw.runPreFilter(new ArrayCycleState(), pod);
    assertThat(o.status().code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(o.status().message()).isEqualTo("node(s) didn't satisfy plugin(s) [A B] simultaneously");
    assertThat(o.rejectors()).containsExactlyInAnyOrder("A", "B");
  }

  @Test
  void runFilter_firstRejectionWins_reportsThePluginIndex() {
    Framework fw = framework();
    a.answers.put("Filter", Status.unschedulable("A says no"));
    Status[] out = new Status[1];
    int failed = fw.runFilter(new ArrayCycleState(), null, pod, n1, out, 0);
    assertThat(fw.filterName(failed)).isEqualTo("A");
    assertThat(out[0].message()).isEqualTo("A says no");
    assertThat(calls).containsExactly("A.Filter");
  }

  @Test
  void runScore_addsScoresTimesWeights() {
    Framework fw = framework();
    a.answers.put("Score", 10L);
    b.answers.put("Score", 20L);
    long[] totals = new long[2];
    NodeInfo[] nodes = {n1, n2};
    Status s = fw.runScore(new ArrayCycleState(), pod, table(nodes), new int[] {0, 1}, List.of(nodes), 2, totals,
        new ParallelRunner(1), 512);
    assertThat(s.isSuccess()).isTrue();
    assertThat(totals).containsExactly(10 * 1 + 20 * 3, 10 * 1 + 20 * 3);
  }

  @Test
  void runScore_outOfRange_errorNamesPluginScoreAndNode() {
    Framework fw = framework();
    b.answers.put("Score", 101L);
    NodeInfo[] nodes = {n1, n2};
    Status s = fw.runScore(new ArrayCycleState(), pod, table(nodes), new int[] {0, 1}, List.of(nodes), 2,
        new long[2], new ParallelRunner(1), 512);
    assertThat(s.message()).isEqualTo("plugin B returns an invalid score 101 for node n1; it should be in the range "
        + "[0, 100] after normalizing");
    assertThat(s.plugin()).isEqualTo("B");
  }

  @Test
  void runScore_threePlugins_addsScoresTimesWeights() {
    Framework fw = framework3();
    a.answers.put("Score", 10L);
    b.answers.put("Score", 20L);
    c.answers.put("Score", 30L);
    long[] totals = {-7, -7};
    NodeInfo[] nodes = {n1, n2};
    Status s = fw.runScore(new ArrayCycleState(), pod, table(nodes), new int[] {0, 1}, List.of(nodes), 2, totals,
        new ParallelRunner(1), 512);
    assertThat(s.isSuccess()).isTrue();
    assertThat(totals).containsExactly(10 * 1 + 20 * 3 + 30 * 2, 10 * 1 + 20 * 3 + 30 * 2);
  }

  @Test
  void runScore_middlePluginSkippedByPreScore_othersWeighed() {
    Framework fw = framework3();
    a.answers.put("Score", 10L);
    b.answers.put("PreScore", Status.skip());
    b.answers.put("Score", 200L); // not asked: skipped
    c.answers.put("Score", 30L);
    ArrayCycleState state = new ArrayCycleState();
    NodeInfo[] nodes = {n1, n2};
    assertThat(fw.runPreScore(state, pod, List.of(nodes)).isSuccess()).isTrue();
    long[] totals = new long[2];
    Status s = fw.runScore(state, pod, table(nodes), new int[] {0, 1}, List.of(nodes), 2, totals,
        new ParallelRunner(1), 512);
    assertThat(s.isSuccess()).isTrue();
    assertThat(totals).containsExactly(10 * 1 + 30 * 2, 10 * 1 + 30 * 2);
    assertThat(calls).doesNotContain("B.Score");
  }

  @Test
  void runScore_outOfRangeInTwoPlugins_errorNamesTheFirstInProfileOrder() {
    Framework fw = framework3();
    a.answers.put("Score", -1L);
    c.answers.put("Score", 101L);
    NodeInfo[] nodes = {n1, n2};
    Status s = fw.runScore(new ArrayCycleState(), pod, table(nodes), new int[] {0, 1}, List.of(nodes), 2,
        new long[2], new ParallelRunner(1), 512);
    assertThat(s.message()).isEqualTo("plugin A returns an invalid score -1 for node n1; it should be in the range "
        + "[0, 100] after normalizing");
    assertThat(s.plugin()).isEqualTo("A");
  }

  @Test
  void runScore_outOfRangeInTheUnpairedLastPlugin_errorNamesIt() {
    Framework fw = framework3();
    a.answers.put("Score", 100L);
    b.answers.put("Score", 0L);
    c.answers.put("Score", Long.MIN_VALUE);
    NodeInfo[] nodes = {n1, n2};
    Status s = fw.runScore(new ArrayCycleState(), pod, table(nodes), new int[] {0, 1}, List.of(nodes), 2,
        new long[2], new ParallelRunner(1), 512);
    assertThat(s.message()).isEqualTo("plugin C returns an invalid score " + Long.MIN_VALUE + " for node n1; it "
        + "should be in the range [0, 100] after normalizing");
    assertThat(s.plugin()).isEqualTo("C");
  }

  @Test
  void runPermit_waits_collectedWithDeadlinesCappedAt15Minutes() {
    Framework fw = framework();
    a.answers.put("Permit", PermitResult.waitFor(Duration.ofSeconds(10)));
    b.answers.put("Permit", PermitResult.waitFor(Duration.ofHours(1)));
    Framework.PermitOutcome o = fw.runPermit(new ArrayCycleState(), pod, "n1", 1_000);
    assertThat(o.status().isWait()).isTrue();
    assertThat(o.deadlines()).containsExactly(Map.entry("A", 1_000 + Duration.ofSeconds(10).toNanos()),
        Map.entry("B", 1_000 + Duration.ofMinutes(15).toNanos()));
  }

  @Test
  void runPermit_rejectionAfterAWait_rejects() {
    Framework fw = framework();
    a.answers.put("Permit", PermitResult.waitFor(Duration.ofSeconds(10)));
    b.answers.put("Permit", PermitResult.reject(Status.unschedulable("gang too small")));
    Framework.PermitOutcome o = fw.runPermit(new ArrayCycleState(), pod, "n1", 0);
    assertThat(o.status()).isEqualTo(Status.unschedulable("gang too small").withPlugin("B"));
    assertThat(o.deadlines()).isEmpty();
  }

  @Test
  void runBind_everyPluginSkips_skip_elseFirstAnswerAttributed() {
    Framework fw = framework();
    assertThat(fw.runBind(new ArrayCycleState(), pod, "n1").isSkip()).isTrue();
    b.answers.put("Bind", Status.success());
    assertThat(fw.runBind(new ArrayCycleState(), pod, "n1")).isEqualTo(Status.success().withPlugin("B"));
  }

  @Test
  void runPostFilter_dryRun_firstSuccessWins_emptyNominationDropsTheOldOne() {
    Framework fw = framework();
    a.answers.put("PostFilter", new PostFilterResult(Status.unschedulable("A: no victims"), "", List.of()));
    b.answers.put("PostFilter", new PostFilterResult(Status.success(), "n2", List.of("default/victim")));
    AtomicBoolean dropped = new AtomicBoolean();
    ArrayCycleState state = new ArrayCycleState();
    Framework.PostFilterOutcome o = fw.runPostFilter(state, () -> pod,
        new NodeToStatus(Map.of(), Status.Code.UNSCHEDULABLE), () -> dropped.set(true));
    assertThat(o.success()).isNotNull();
    assertThat(o.success().nominatedNodeName()).isEqualTo("n2");
    assertThat(o.message()).isEmpty();
    assertThat(dropped).isTrue();
    assertThat(calls).containsExactly("A.dryRun=true", "A.PostFilter", "B.dryRun=true", "B.PostFilter");
    assertThat(state.isPreemptionDryRun()).as("dry run ends with PostFilter").isFalse();
  }
}
