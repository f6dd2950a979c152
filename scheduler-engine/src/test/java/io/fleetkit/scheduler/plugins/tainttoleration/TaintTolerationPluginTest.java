package io.fleetkit.scheduler.plugins.tainttoleration;

import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.node;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.nodeInfo;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.pod;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.podInfo;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import io.fleetkit.scheduler.plugins.helper.ArgsOnlyHandle;
import io.fleetkit.scheduler.plugins.helper.SimpleCycleState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cases ported from kubernetes pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go:
 * TestTaintTolerationScore (8 cases) and TestTaintTolerationFilter (14 cases), the Gt/Lt ones (3 and 5) as of
 * kubernetes commit 04c0d74f8e8bf18e93a9d8d082b218d3eb4c6395, and the 2 cases of TestTaintTolerationFilterWithFeatureGate
 * with the gate on (FleetKit has no feature gates: its 4 gate-off cases do not apply). Node names are lower-cased
 * ({@code nodeA} → {@code node-a}) because FleetKit validates DNS names. Upstream's generic filter message
 * {@code node(s) had untolerated taint(s)} is FleetKit's {@code node(s) had untolerated taint {key: value}}; the
 * parse-error message of the non-numeric case is upstream's verbatim. The queueing-hint tests are in
 * {@link TaintTolerationQueueingHintsTest}.
 */
final class TaintTolerationPluginTest {
  private static final String NO_SCHEDULE_REASON_PREFIX = "node(s) had untolerated taint ";

  private final TaintTolerationPlugin plugin = new TaintTolerationPlugin();

  // ---------------------------------------------------------------- TestTaintTolerationScore

  record ScoreCase(String name, List<Toleration> tolerations, List<NodeInfo> nodes, long[] want) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static NodeInfo tainted(String name, Taint... taints) {
    return nodeInfo(node(name).taints(List.of(taints)));
  }

  private static Taint taint(String key, String value, TaintEffect effect) {
    return Taint.of(key, value, effect);
  }

  private static Toleration eq(String key, String value, @Nullable TaintEffect effect) {
    return Toleration.equal(key, value, effect);
  }

  private static Toleration gt(String key, String value, @Nullable TaintEffect effect) {
    return new Toleration(key, TolerationOperator.Gt, value, effect, null);
  }

  private static Toleration lt(String key, String value, @Nullable TaintEffect effect) {
    return new Toleration(key, TolerationOperator.Lt, value, effect, null);
  }

  private static final String SLA = "node.kubernetes.io/sla";
  private static final String PRIORITY_LEVEL = "node.example.com/priority-level";

  static Stream<ScoreCase> scoreCases() {
    TaintEffect prefer = TaintEffect.PreferNoSchedule;
    TaintEffect noSchedule = TaintEffect.NoSchedule;
    return Stream.of(
        new ScoreCase("node with taints tolerated by the pod, gets a higher score than those node with intolerable"
            + " taints",
            List.of(eq("foo", "bar", prefer)),
            List.of(tainted("node-a", taint("foo", "bar", prefer)), tainted("node-b", taint("foo", "blah", prefer))),
            new long[] {100, 0}),
        new ScoreCase("the nodes that all of their taints are tolerated by the pod, get the same score, no matter how"
            + " many tolerable taints a node has",
            List.of(eq("cpu-type", "arm64", prefer), eq("disk-type", "ssd", prefer)),
            List.of(tainted("node-a"), tainted("node-b", taint("cpu-type", "arm64", prefer)),
                tainted("node-c", taint("cpu-type", "arm64", prefer), taint("disk-type", "ssd", prefer))),
            new long[] {100, 100, 100}),
        new ScoreCase("the more intolerable taints a node has, the lower score it gets.",
            List.of(eq("foo", "bar", prefer)),
            List.of(tainted("node-a"), tainted("node-b", taint("cpu-type", "arm64", prefer)),
                tainted("node-c", taint("cpu-type", "arm64", prefer), taint("disk-type", "ssd", prefer))),
            new long[] {100, 50, 0}),
        new ScoreCase("only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations"
            + " priority function",
            List.of(eq("cpu-type", "arm64", noSchedule), eq("disk-type", "ssd", noSchedule)),
            List.of(tainted("node-a"), tainted("node-b", taint("cpu-type", "arm64", noSchedule)),
                tainted("node-c", taint("cpu-type", "arm64", prefer), taint("disk-type", "ssd", prefer))),
            new long[] {100, 100, 0}),
        new ScoreCase("Default behaviour No taints and tolerations, lands on node with no taints",
            List.of(),
            List.of(tainted("node-a"), tainted("node-b", taint("cpu-type", "arm64", prefer))),
            new long[] {100, 0}),
        new ScoreCase("Numeric Gt operator: pod with Gt toleration prefers nodes with matching SLA taint",
            List.of(gt(SLA, "950", prefer)),
            List.of(tainted("node-a", taint(SLA, "800", prefer)), tainted("node-b", taint(SLA, "999", prefer))),
            new long[] {0, 100}),
        new ScoreCase("Numeric Lt operator: pod with Lt toleration prefers nodes with matching SLA taint",
            List.of(lt(SLA, "800", prefer)),
            List.of(tainted("node-a", taint(SLA, "950", prefer)), tainted("node-b", taint(SLA, "700", prefer))),
            new long[] {0, 100}),
        new ScoreCase("Score ignores parse errors from numeric PreferNoSchedule taint value",
            List.of(gt(SLA, "950", prefer)),
            List.of(tainted("node-a"), tainted("node-b", taint(SLA, "high", prefer))),
            new long[] {100, 0}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scoreCases")
  void score_upstreamTable_matchesKube(ScoreCase c) {
    var builder = pod("pod1");
    c.tolerations().forEach(builder::toleration);
    PodInfo pod = podInfo(builder.build());
    CycleState state = new SimpleCycleState();
    assertThat(plugin.preScore(state, pod, c.nodes()).isSuccess()).isTrue();
    long[] scores = new long[c.nodes().size()];
    for (int i = 0; i < scores.length; i++) {
      scores[i] = plugin.score(state, pod, c.nodes().get(i));
    }
    plugin.normalizeScores(state, pod, c.nodes(), scores);
    assertThat(scores).containsExactly(c.want());
  }

  @Test
  void score_withoutPreScore_countsTheSame() {
    PodInfo pod = podInfo(pod("p").toleration(eq("foo", "bar", TaintEffect.NoSchedule)).build());
    NodeInfo node = tainted("n", taint("foo", "bar", TaintEffect.PreferNoSchedule),
        taint("a", "b", TaintEffect.PreferNoSchedule));
    assertThat(plugin.score(new SimpleCycleState(), pod, node)).isEqualTo(2);
  }

  @Test
  void score_emptyEffectToleration_toleratesPreferNoSchedule() {
    PodInfo pod = podInfo(pod("p").toleration(eq("foo", "bar", null)).build());
    NodeInfo node = tainted("n", taint("foo", "bar", TaintEffect.PreferNoSchedule));
    CycleState state = new SimpleCycleState();
    plugin.preScore(state, pod, List.of(node));
    assertThat(plugin.score(state, pod, node)).isZero();
  }

  // ---------------------------------------------------------------- TestTaintTolerationFilter

  record FilterCase(String name, List<Toleration> tolerations, List<Taint> taints, @Nullable String wantReason) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<FilterCase> filterCases() {
    TaintEffect ns = TaintEffect.NoSchedule;
    return Stream.of(
        new FilterCase("A pod having no tolerations can't be scheduled onto a node with nonempty taints",
            List.of(), List.of(taint("dedicated", "user1", ns)), "node(s) had untolerated taint {dedicated: user1}"),
        new FilterCase("A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
            List.of(eq("dedicated", "user1", ns)), List.of(taint("dedicated", "user1", ns)), null),
        new FilterCase("A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
            List.of(eq("dedicated", "user2", ns)), List.of(taint("dedicated", "user1", ns)),
            "node(s) had untolerated taint {dedicated: user1}"),
        new FilterCase("A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the"
            + " taints on the node",
            List.of(Toleration.exists("foo", ns)), List.of(taint("foo", "bar", ns)), null),
        new FilterCase("A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can"
            + " be scheduled onto the node",
            List.of(eq("dedicated", "user2", ns), Toleration.exists("foo", ns)),
            List.of(taint("dedicated", "user2", ns), taint("foo", "bar", ns)), null),
        new FilterCase("A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect"
            + " doesn't match, can't be scheduled onto the node",
            List.of(eq("foo", "bar", TaintEffect.PreferNoSchedule)), List.of(taint("foo", "bar", ns)),
            "node(s) had untolerated taint {foo: bar}"),
        new FilterCase("The pod has a toleration that keys and values match the taint on the node, the effect of"
            + " toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node",
            List.of(eq("foo", "bar", null)), List.of(taint("foo", "bar", ns)), null),
        new FilterCase("The pod has a toleration that key and value don't match the taint on the node, but the effect"
            + " of taint on node is PreferNoSchedule. Pod can be scheduled onto the node",
            List.of(eq("dedicated", "user2", ns)), List.of(taint("dedicated", "user1", TaintEffect.PreferNoSchedule)),
            null),
        new FilterCase("The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be"
            + " scheduled onto the node",
            List.of(), List.of(taint("dedicated", "user1", TaintEffect.PreferNoSchedule)), null),
        new FilterCase("Pod with Gt toleration cannot be scheduled on node when taint value is lower than threshold",
            List.of(gt(PRIORITY_LEVEL, "950", ns)), List.of(taint(PRIORITY_LEVEL, "800", ns)),
            "node(s) had untolerated taint {node.example.com/priority-level: 800}"),
        new FilterCase("Pod with Gt toleration can be scheduled on node when taint value is higher than threshold",
            List.of(gt(SLA, "750", ns)), List.of(taint(SLA, "950", ns)), null),
        new FilterCase("Pod with Lt toleration cannot be scheduled on node when taint value is higher than threshold",
            List.of(lt(PRIORITY_LEVEL, "800", ns)), List.of(taint(PRIORITY_LEVEL, "950", ns)),
            "node(s) had untolerated taint {node.example.com/priority-level: 950}"),
        new FilterCase("Pod with Lt toleration can be scheduled on node when taint value is lower than threshold",
            List.of(lt(SLA, "950", ns)), List.of(taint(SLA, "800", ns)), null),
        new FilterCase("Pod with Gt toleration cannot be scheduled on node with non-numeric taint value",
            List.of(gt(SLA, "950", ns)), List.of(taint(SLA, "high", ns)),
            "failed to parse taint value \"high\" as int64: must be a valid decimal integer in canonical form"),
        // TestTaintTolerationFilterWithFeatureGate, the cases with the gate on
        new FilterCase("Pod with Gt toleration can be scheduled when feature gate is enabled and taint value is"
            + " higher", List.of(gt(SLA, "750", ns)), List.of(taint(SLA, "950", ns)), null),
        new FilterCase("Pod with Lt toleration can be scheduled when feature gate is enabled and taint value is lower",
            List.of(lt(SLA, "950", ns)), List.of(taint(SLA, "800", ns)), null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("filterCases")
  void filter_upstreamTable_matchesKube(FilterCase c) {
    var builder = pod("pod1");
    c.tolerations().forEach(builder::toleration);
    NodeInfo node = nodeInfo(node("node-a").taints(c.taints()));
    Status s = plugin.filter(new SimpleCycleState(), podInfo(builder.build()), node);
    if (c.wantReason() == null) {
      assertThat(s).isSameAs(Status.success());
    } else {
      assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
      assertThat(s.reasons()).containsExactly(c.wantReason());
      assertThat(s.plugin()).isEqualTo(TaintTolerationPlugin.NAME);
    }
  }

  @Test
  void filter_noExecuteTaintUntolerated_rejectsWithFirstUntoleratedTaint() {
    PodInfo pod = podInfo(pod("p").toleration(Toleration.exists("a", null)).build());
    NodeInfo node = nodeInfo(node("n").taints(List.of(taint("a", "1", TaintEffect.NoSchedule),
        taint("b", "2", TaintEffect.PreferNoSchedule), taint("c", "", TaintEffect.NoExecute),
        taint("d", "4", TaintEffect.NoSchedule))));
    Status s = plugin.filter(new SimpleCycleState(), pod, node);
    assertThat(s.reasons()).containsExactly(NO_SCHEDULE_REASON_PREFIX + "{c: }");
  }

  @Test
  void filter_sameTaintTwice_returnsCachedStatus() {
    PodInfo pod = podInfo(pod("p").build());
    Status first = plugin.filter(new SimpleCycleState(), pod, tainted("n1", taint("k", "v", TaintEffect.NoSchedule)));
    Status second = plugin.filter(new SimpleCycleState(), pod, tainted("n2", taint("k", "v", TaintEffect.NoSchedule)));
    assertThat(second).isSameAs(first);
  }

  @Test
  void filter_comparisonErrorRejections_cachedApartFromTaintRejections() {
    Taint high = taint(SLA, "high", TaintEffect.NoSchedule);
    Status withGt = plugin.filter(new SimpleCycleState(), podInfo(pod("p1").toleration(gt(SLA, "950", null)).build()),
        tainted("n1", high));
    Status without = plugin.filter(new SimpleCycleState(), podInfo(pod("p2").build()), tainted("n2", high));
    Status again = plugin.filter(new SimpleCycleState(), podInfo(pod("p3").toleration(lt(SLA, "5", null)).build()),
        tainted("n3", high));
    assertThat(withGt.reasons()).containsExactly(
        "failed to parse taint value \"high\" as int64: must be a valid decimal integer in canonical form");
    assertThat(without.reasons()).containsExactly("node(s) had untolerated taint {node.kubernetes.io/sla: high}");
    assertThat(again).isSameAs(withGt);
  }

  @Test
  void preScore_manyTolerations_keepsOnlyThoseApplyingToPreferNoSchedule() {
    List<Toleration> tolerations = new ArrayList<>(Arrays.asList(eq("a", "1", TaintEffect.NoSchedule),
        eq("b", "2", TaintEffect.PreferNoSchedule), eq("c", "3", null), eq("d", "4", TaintEffect.NoExecute)));
    var builder = pod("p");
    tolerations.forEach(builder::toleration);
    PodInfo pod = podInfo(builder.build());
    NodeInfo node = tainted("n", taint("a", "1", TaintEffect.PreferNoSchedule),
        taint("b", "2", TaintEffect.PreferNoSchedule), taint("c", "3", TaintEffect.PreferNoSchedule),
        taint("d", "4", TaintEffect.PreferNoSchedule));
    CycleState state = new SimpleCycleState();
    plugin.preScore(state, pod, List.of(node));
    // a (NoSchedule) and d (NoExecute) tolerations don't apply to PreferNoSchedule taints
    assertThat(plugin.score(state, pod, node)).isEqualTo(2);
  }

  @Test
  void factory_createsTheNamedPlugin() {
    assertThat(TaintTolerationPlugin.FACTORY.create(ArgsOnlyHandle.none()).name()).isEqualTo("TaintToleration");
  }
}
