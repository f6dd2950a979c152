package io.fleetkit.scheduler.plugins.nodeaffinity;

import static io.fleetkit.api.scheduling.NodeSelectorOperator.Exists;
import static io.fleetkit.api.scheduling.NodeSelectorOperator.Gt;
import static io.fleetkit.api.scheduling.NodeSelectorOperator.In;
import static io.fleetkit.api.scheduling.NodeSelectorOperator.NotIn;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.node;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.nodeInfo;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.pod;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.podInfo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.scheduling.PreferredSchedulingTerm;
import io.fleetkit.scheduler.plugins.helper.ArgsOnlyHandle;
import io.fleetkit.scheduler.plugins.helper.SimpleCycleState;
import io.fleetkit.scheduler.plugins.helper.SimpleSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cases ported from kubernetes pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go (@17bae91):
 * TestNodeAffinity (all 31 cases: Filter, PreFilter status and PreFilterResult, added affinity, Filter without
 * PreFilter) and TestNodeAffinityPriority (all 9 cases). Where upstream leaves the node name empty, the node is
 * called {@code node} (FleetKit requires a name; none of those cases uses matchFields).
 * Test_isSchedulableAfterNodeChange (queueing hints) is in {@link NodeAffinityQueueingHintsTest}.
 */
final class NodeAffinityPluginTest {
  private static final String POD = NodeAffinityPlugin.ERR_REASON_POD;
  private static final String ENFORCED = NodeAffinityPlugin.ERR_REASON_ENFORCED;
  private static final String CONFLICT = NodeAffinityPlugin.ERR_REASON_CONFLICT;

  // ---------------------------------------------------------------- builders

  private static NodeSelectorRequirement req(String key, NodeSelectorOperator op, String... values) {
    return new NodeSelectorRequirement(key, op, List.of(values));
  }

  private static NodeSelectorRequirement nameIn(String... names) {
    return req("metadata.name", In, names);
  }

  private static NodeSelectorTerm exprs(NodeSelectorRequirement... r) {
    return new NodeSelectorTerm(List.of(r), List.of());
  }

  private static NodeSelectorTerm fields(NodeSelectorRequirement... r) {
    return new NodeSelectorTerm(List.of(), List.of(r));
  }

  private static NodeAffinity requiredAffinity(NodeSelectorTerm... terms) {
    return new NodeAffinity(new NodeSelector(List.of(terms)), List.of());
  }

  private static Affinity required(NodeSelectorTerm... terms) {
    return new Affinity(requiredAffinity(terms), null, null);
  }

  private static Pod podWith(Affinity affinity) {
    return pod("p").affinity(affinity).build();
  }

  private static Pod podWithSelector(Map<String, String> selector) {
    return pod("p").nodeSelector(selector).build();
  }

  // ---------------------------------------------------------------- TestNodeAffinity

  /** One TestNodeAffinity case; {@code null} want* fields mean success. */
  static final class Case {
    final String name;
    Pod pod = io.fleetkit.scheduler.plugins.helper.PluginFixtures.pod("p").build();
    String nodeName = "node";
    Map<String, String> labels = Map.of();
    @Nullable NodeAffinity added;
    boolean runPreFilter = true;
    @Nullable String wantFilter;
    boolean wantPreFilterSkip;
    @Nullable String wantPreFilterReason;
    @Nullable Set<String> wantPreFilterNodes;

    Case(String name) {
      this.name = name;
    }

    Case pod(Pod p) {
      pod = p;
      return this;
    }

    Case node(String n) {
      nodeName = n;
      return this;
    }

    Case labels(Map<String, String> l) {
      labels = l;
      return this;
    }

    Case added(NodeAffinity a) {
      added = a;
      return this;
    }

    Case noPreFilter() {
      runPreFilter = false;
      return this;
    }

    Case wantFilter(String reason) {
      wantFilter = reason;
      return this;
    }

    Case wantPreFilterSkip() {
      wantPreFilterSkip = true;
      return this;
    }

    Case wantPreFilterReason(String reason) {
      wantPreFilterReason = reason;
      return this;
    }

    Case wantPreFilterNodes(String... nodes) {
      wantPreFilterNodes = Set.of(nodes);
      return this;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> filterCases() {
    Map<String, String> fooBar = Map.of("foo", "bar");
    return Stream.of(
        new Case("missing labels").pod(podWithSelector(fooBar)).wantFilter(POD),
        new Case("same labels").pod(podWithSelector(fooBar)).labels(fooBar),
        new Case("node labels are superset").pod(podWithSelector(fooBar)).labels(Map.of("foo", "bar", "baz", "blah")),
        new Case("node labels are subset").pod(podWithSelector(Map.of("foo", "bar", "baz", "blah"))).labels(fooBar)
            .wantFilter(POD),
        new Case("Pod with matchExpressions using In operator that matches the existing node")
            .pod(podWith(required(exprs(req("foo", In, "bar", "value2"))))).labels(fooBar),
        new Case("Pod with matchExpressions using Gt operator that matches the existing node")
            .pod(podWith(required(exprs(req("kernel-version", Gt, "0204"))))).labels(Map.of("kernel-version", "0206")),
        new Case("Pod with matchExpressions using NotIn operator that matches the existing node")
            .pod(podWith(required(exprs(req("mem-type", NotIn, "DDR", "DDR2"))))).labels(Map.of("mem-type", "DDR3")),
        new Case("Pod with matchExpressions using Exists operator that matches the existing node")
            .pod(podWith(required(exprs(req("GPU", Exists))))).labels(Map.of("GPU", "NVIDIA-GRID-K1")),
        new Case("Pod with affinity that don't match node's labels won't schedule onto the node")
            .pod(podWith(required(exprs(req("foo", In, "value1", "value2"))))).labels(fooBar).wantFilter(POD),
        new Case("Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto"
            + " the node")
            .pod(podWith(required(exprs()))).labels(fooBar).wantFilter(POD),
        new Case("Pod with no Affinity will schedule onto a node").labels(fooBar).wantPreFilterSkip(),
        new Case("Pod with Affinity but nil NodeSelector will schedule onto a node")
            .pod(podWith(new Affinity(new NodeAffinity(null, List.of()), null, null))).labels(fooBar)
            .wantPreFilterSkip(),
        new Case("Pod with multiple matchExpressions ANDed that matches the existing node")
            .pod(podWith(required(exprs(req("GPU", Exists), req("GPU", NotIn, "AMD", "INTER")))))
            .labels(Map.of("GPU", "NVIDIA-GRID-K1")),
        new Case("Pod with multiple matchExpressions ANDed that doesn't match the existing node")
            .pod(podWith(required(exprs(req("GPU", Exists), req("GPU", In, "AMD", "INTER")))))
            .labels(Map.of("GPU", "NVIDIA-GRID-K1")).wantFilter(POD),
        new Case("Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule"
            + " onto the node")
            .pod(podWith(required(exprs(req("foo", In, "bar", "value2")),
                exprs(req("diffkey", In, "wrong", "value2")))))
            .labels(fooBar),
        new Case("Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are"
            + " satisfied, will schedule onto the node")
            .pod(pod("p").nodeSelector(fooBar).affinity(required(exprs(req("foo", Exists)))).build()).labels(fooBar),
        new Case("Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are"
            + " deprecating) is not satisfied, won't schedule onto the node")
            .pod(pod("p").nodeSelector(fooBar).affinity(required(exprs(req("foo", Exists)))).build())
            .labels(Map.of("foo", "barrrrrr")).wantFilter(POD),
        new Case("Pod with an invalid value in Affinity term won't be scheduled onto the node")
            .pod(podWith(required(exprs(req("foo", NotIn, "invalid value: ___@#$%^"))))).labels(fooBar)
            .wantFilter(POD),
        new Case("Pod with matchFields using In operator that matches the existing node")
            .pod(podWith(required(fields(nameIn("node1"))))).node("node1").wantPreFilterNodes("node1"),
        new Case("Pod with matchFields using In operator that does not match the existing node")
            .pod(podWith(required(fields(nameIn("node1"))))).node("node2").wantPreFilterNodes("node1")
            .wantFilter(POD),
        new Case("Pod with two terms: matchFields does not match, but matchExpressions matches")
            .pod(podWith(required(fields(nameIn("node1"), nameIn("node2")), exprs(req("foo", In, "bar")))))
            .node("node2").labels(fooBar),
        new Case("Pod with one term: matchFields does not match, but matchExpressions matches")
            .pod(podWith(required(new NodeSelectorTerm(List.of(req("foo", In, "bar")), List.of(nameIn("node1"))))))
            .node("node2").labels(fooBar).wantPreFilterNodes("node1").wantFilter(POD),
        new Case("Pod with one term: both matchFields and matchExpressions match")
            .pod(podWith(required(new NodeSelectorTerm(List.of(req("foo", In, "bar")), List.of(nameIn("node1"))))))
            .node("node1").labels(fooBar).wantPreFilterNodes("node1"),
        new Case("Pod with two terms: both matchFields and matchExpressions do not match")
            .pod(podWith(required(fields(nameIn("node1")), exprs(req("foo", In, "not-match-to-bar")))))
            .node("node2").labels(fooBar).wantFilter(POD),
        new Case("Pod with two terms of node.Name affinity")
            .pod(podWith(required(fields(nameIn("node1")), fields(nameIn("node2"))))).node("node2")
            .wantPreFilterNodes("node1", "node2"),
        new Case("Pod with two conflicting mach field requirements")
            .pod(podWith(required(fields(nameIn("node1"), nameIn("node2"))))).node("node2").labels(fooBar)
            .wantPreFilterReason(CONFLICT).wantFilter(POD),
        new Case("Matches added affinity and Pod's node affinity")
            .pod(podWith(required(exprs(req("zone", In, "foo"))))).node("node2").labels(Map.of("zone", "foo"))
            .added(requiredAffinity(fields(nameIn("node2")))),
        new Case("Matches added affinity but not Pod's node affinity")
            .pod(podWith(required(exprs(req("zone", In, "bar"))))).node("node2").labels(Map.of("zone", "foo"))
            .added(requiredAffinity(fields(nameIn("node2")))).wantFilter(POD),
        new Case("Doesn't match added affinity").node("node2").labels(Map.of("zone", "foo"))
            .added(requiredAffinity(exprs(req("zone", In, "bar")))).wantFilter(ENFORCED),
        new Case("Matches node selector correctly even if PreFilter is not called")
            .pod(podWithSelector(fooBar)).labels(Map.of("foo", "bar", "baz", "blah")).noPreFilter(),
        new Case("Matches node affinity correctly even if PreFilter is not called")
            .pod(podWith(required(exprs(req("GPU", Exists), req("GPU", NotIn, "AMD", "INTER")))))
            .labels(Map.of("GPU", "NVIDIA-GRID-K1")).noPreFilter());
  }

  @Test
  void filterCases_portsEveryUpstreamCase() {
    assertThat(filterCases().count()).isEqualTo(31);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("filterCases")
  void preFilterAndFilter_upstreamTable_matchesKube(Case c) {
    NodeAffinityPlugin plugin = new NodeAffinityPlugin(c.added);
    NodeInfo node = nodeInfo(node(c.nodeName).labels(c.labels));
    PodInfo pod = podInfo(c.pod);
    CycleState state = new SimpleCycleState();
    if (c.runPreFilter) {
      PreFilterResult r = plugin.preFilter(state, pod, new SimpleSnapshot(List.of(node)));
      if (c.wantPreFilterSkip) {
        assertThat(r.status().isSkip()).as("PreFilter skips").isTrue();
      } else if (c.wantPreFilterReason != null) {
        assertThat(r.status().code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
        assertThat(r.status().reasons()).containsExactly(c.wantPreFilterReason);
      } else {
        assertThat(r.status().isSuccess()).as("PreFilter status %s", r.status()).isTrue();
      }
      assertThat(r.nodeNames()).isEqualTo(c.wantPreFilterNodes);
    }
    Status s = plugin.filter(state, pod, node);
    if (c.wantFilter == null) {
      assertThat(s).isSameAs(Status.success());
    } else {
      assertThat(s.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
      assertThat(s.reasons()).containsExactly(c.wantFilter);
      assertThat(s.plugin()).isEqualTo(NodeAffinityPlugin.NAME);
    }
  }

  // ---------------------------------------------------------------- TestNodeAffinityPriority

  record ScoreCase(String name, Pod pod, List<NodeInfo> nodes, long @Nullable [] want, @Nullable NodeAffinity added,
      boolean runPreScore, Status.Code wantPreScore, @Nullable String wantPreScoreMessage) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static NodeInfo labelled(String name, Map<String, String> labels) {
    return nodeInfo(node(name).labels(labels));
  }

  private static PreferredSchedulingTerm preferred(int weight, NodeSelectorRequirement... reqs) {
    return new PreferredSchedulingTerm(weight, exprs(reqs));
  }

  private static NodeAffinity preferredAffinity(PreferredSchedulingTerm... terms) {
    return new NodeAffinity(null, List.of(terms));
  }

  static Stream<ScoreCase> scoreCases() {
    Map<String, String> label1 = Map.of("foo", "bar");
    Map<String, String> label2 = Map.of("key", "value");
    Map<String, String> label3 = Map.of("az", "az1");
    Map<String, String> label4 = Map.of("abc", "az11", "def", "az22");
    Map<String, String> label5 = Map.of("foo", "bar", "key", "value", "az", "az1");
    NodeAffinity affinity1 = preferredAffinity(preferred(2, req("foo", In, "bar")));
    NodeAffinity affinity2 = preferredAffinity(preferred(2, req("foo", In, "bar")),
        preferred(4, req("key", In, "value")),
        preferred(5, req("foo", In, "bar"), req("key", In, "value"), req("az", In, "az1")));
    Pod plain = pod("p").build();
    Pod pod1 = podWith(new Affinity(affinity1, null, null));
    Pod pod2 = podWith(new Affinity(affinity2, null, null));
    Pod broken = podWith(new Affinity(preferredAffinity(preferred(2, req("invalid key", In, "bar"))), null, null));
    Status.Code ok = Status.Code.SUCCESS;
    return Stream.of(
        new ScoreCase("all nodes are same priority as NodeAffinity is nil", plain,
            List.of(labelled("node1", label1), labelled("node2", label2), labelled("node3", label3)),
            new long[] {0, 0, 0}, null, false, ok, null),
        new ScoreCase("Skip is returned in PreScore when NodeAffinity is nil", plain,
            List.of(labelled("node1", label1)), null, null, true, Status.Code.SKIP, null),
        new ScoreCase("PreScore returns error when an incoming Pod has a broken affinity", broken,
            List.of(labelled("node1", label1)), null, null, true, Status.Code.ERROR,
            "[0].matchExpressions[0].key: Invalid value: \"invalid key\": name part must consist of alphanumeric"
                + " characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g."
                + " 'MyName',  or 'my.name',  or '123-abc', regex used for validation is"
                + " '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
        new ScoreCase("no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority"
            + " is zero", pod1,
            List.of(labelled("node1", label4), labelled("node2", label2), labelled("node3", label3)),
            new long[] {0, 0, 0}, null, true, ok, null),
        new ScoreCase("only node1 matches the preferred scheduling requirements of pod", pod1,
            List.of(labelled("node1", label1), labelled("node2", label2), labelled("node3", label3)),
            new long[] {100, 0, 0}, null, true, ok, null),
        new ScoreCase("all nodes matches the preferred scheduling requirements of pod but with different priorities ",
            pod2, List.of(labelled("node1", label1), labelled("node5", label5), labelled("node2", label2)),
            new long[] {18, 100, 36}, null, true, ok, null),
        new ScoreCase("added affinity", plain, List.of(labelled("node1", label1), labelled("node2", label2)),
            new long[] {100, 0}, affinity1, true, ok, null),
        new ScoreCase("added affinity and pod has default affinity", pod1,
            List.of(labelled("node1", label1), labelled("node2", label2), labelled("node3", label5)),
            new long[] {40, 60, 100}, preferredAffinity(preferred(3, req("key", In, "value"))), true, ok, null),
        new ScoreCase("calculate the priorities correctly even if PreScore is not called", pod2,
            List.of(labelled("node1", label1), labelled("node5", label5), labelled("node2", label2)),
            new long[] {18, 100, 36}, null, false, ok, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scoreCases")
  void preScoreScoreNormalize_upstreamTable_matchesKube(ScoreCase c) {
    NodeAffinityPlugin plugin = new NodeAffinityPlugin(c.added());
    PodInfo pod = podInfo(c.pod());
    CycleState state = new SimpleCycleState();
    if (c.runPreScore()) {
      Status s = plugin.preScore(state, pod, c.nodes());
      assertThat(s.code()).isEqualTo(c.wantPreScore());
      if (c.wantPreScoreMessage() != null) {
        assertThat(s.message()).contains(c.wantPreScoreMessage());
      }
      if (!s.isSuccess()) {
        return;
      }
    }
    long[] scores = new long[c.nodes().size()];
    for (int i = 0; i < scores.length; i++) {
      scores[i] = plugin.score(state, pod, c.nodes().get(i));
    }
    plugin.normalizeScores(state, pod, c.nodes(), scores);
    assertThat(scores).containsExactly(c.want());
  }

  @Test
  void scoreCases_portsEveryUpstreamCase() {
    assertThat(scoreCases().count()).isEqualTo(9);
  }

  // ---------------------------------------------------------------- beyond upstream

  @Test
  void preFilter_skipped_writesNoState() {
    SimpleCycleState state = new SimpleCycleState();
    PreFilterResult r = new NodeAffinityPlugin().preFilter(state, podInfo(pod("p").build()),
        new SimpleSnapshot(List.of()));
    assertThat(r).isSameAs(PreFilterResult.skip());
    assertThat(state.size()).isZero();
  }

  @Test
  void preFilter_addedAffinityButPlainPod_doesNotSkip() {
    NodeAffinityPlugin plugin = new NodeAffinityPlugin(requiredAffinity(exprs(req("zone", In, "a"))));
    PreFilterResult r = plugin.preFilter(new SimpleCycleState(), podInfo(pod("p").build()),
        new SimpleSnapshot(List.of()));
    assertThat(r.status().isSuccess()).isTrue();
    assertThat(r.nodeNames()).isNull();
  }

  @Test
  void preScore_addedPreferredButPlainPod_doesNotSkip() {
    NodeAffinityPlugin plugin = new NodeAffinityPlugin(preferredAffinity(preferred(1, req("zone", In, "a"))));
    Status s = plugin.preScore(new SimpleCycleState(), podInfo(pod("p").build()), List.of());
    assertThat(s.isSuccess()).isTrue();
  }

  @Test
  void constructor_invalidAddedAffinity_throwsNamingTheField() {
    NodeAffinity bad = new NodeAffinity(new NodeSelector(List.of()), List.of());
    assertThatThrownBy(() -> new NodeAffinityPlugin(bad)).isInstanceOf(ValidationException.class)
        .hasMessageContaining("addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms");
  }

  @Test
  void factory_readsAddedAffinityFromProfileArgs() {
    NodeAffinity added = requiredAffinity(exprs(req("zone", In, "a")));
    var handle = new ArgsOnlyHandle(Map.of(NodeAffinityPlugin.NAME, Map.of(NodeAffinityPlugin.ARG_ADDED_AFFINITY,
        added)));
    NodeAffinityPlugin plugin = (NodeAffinityPlugin) NodeAffinityPlugin.FACTORY.create(handle);
    Status s = plugin.filter(new SimpleCycleState(), podInfo(pod("p").build()), labelled("n", Map.of("zone", "b")));
    assertThat(s.reasons()).containsExactly(ENFORCED);
  }

  @Test
  void fromArgs_unknownOrMistypedArgument_throws() {
    assertThatThrownBy(() -> NodeAffinityPlugin.fromArgs(Map.of("addedAfinity", "x")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown argument \"addedAfinity\"");
    assertThatThrownBy(() -> NodeAffinityPlugin.fromArgs(Map.of("addedAffinity", "x")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be a NodeAffinity");
  }

  @Test
  void preFilter_manyPinnedNames_unionOfTermsIntersections() {
    Pod p = podWith(required(fields(nameIn("a", "b", "c"), nameIn("b", "c", "d")), fields(nameIn("e"))));
    PreFilterResult r = new NodeAffinityPlugin().preFilter(new SimpleCycleState(), podInfo(p),
        new SimpleSnapshot(new ArrayList<>()));
    assertThat(r.nodeNames()).containsExactlyInAnyOrder("b", "c", "e");
  }
}
