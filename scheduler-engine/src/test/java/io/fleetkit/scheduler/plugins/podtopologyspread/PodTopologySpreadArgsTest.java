package io.fleetkit.scheduler.plugins.podtopologyspread;

import static io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadPreFilterStateTest.dc;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.FOO;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.HARD;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.SOFT;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.node;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.api.scheduling.NodeInclusionPolicy;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.scheduler.plugins.podtopologyspread.PodTopologySpreadArgs.DefaultingType;
import io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.Cluster;
import io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.MapCycleState;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

final class PodTopologySpreadArgsTest {

  /** A handle offering only a snapshot and plugin args. */
  record ArgsHandle(Snapshot snapshot, Map<String, Object> args) implements FrameworkHandle {
    @Override public Clock clock() { return Clock.systemUTC(); }
    @Override public WaitingPods waitingPods() { throw new UnsupportedOperationException(); }
    @Override public <T> List<T> list(Class<T> kind) { return List.of(); }
    @Override public Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
      throw new UnsupportedOperationException();
    }
    @Override public Status runPreFilterExtensionAddPod(CycleState s, PodInfo p, PodInfo o, NodeInfo n) {
      throw new UnsupportedOperationException();
    }
    @Override public Status runPreFilterExtensionRemovePod(CycleState s, PodInfo p, PodInfo o, NodeInfo n) {
      throw new UnsupportedOperationException();
    }
    @Override public Map<String, Object> pluginArgs(String pluginName) { return args; }
  }

  @Test
  void fromMap_empty_isSystemDefaultingWithoutWorkloadLookup() {
    PodTopologySpreadArgs args = PodTopologySpreadArgs.fromMap(Map.of());
    assertThat(args.defaultingType()).isEqualTo(DefaultingType.System);
    assertThat(args.defaultConstraints()).isEmpty();
    assertThat(args.defaultSelector()).isSameAs(PodTopologySpreadArgs.NO_DEFAULT_SELECTOR);
    assertThat(args.effectiveDefaults()).isEqualTo(PodTopologySpreadArgs.SYSTEM_DEFAULT_CONSTRAINTS);
  }

  @Test
  void fromMap_listWithConstraintsAndLookup_keepsThem() {
    Function<Pod, @Nullable LabelSelector> lookup = p -> FOO;
    PodTopologySpreadArgs args = PodTopologySpreadArgs.fromMap(Map.of("defaultingType", "List",
        "defaultConstraints", List.of(dc(1, "zone", HARD)), "defaultSelector", lookup));
    assertThat(args.defaultingType()).isEqualTo(DefaultingType.List);
    assertThat(args.effectiveDefaults()).containsExactly(dc(1, "zone", HARD));
    assertThat(args.defaultSelector()).isSameAs(lookup);
  }

  @Test
  void fromMap_unknownDefaultingType_throwsNamingValue() {
    assertThatThrownBy(() -> PodTopologySpreadArgs.fromMap(Map.of("defaultingType", "Sometimes")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("defaultingType").hasMessageContaining(
            "Sometimes");
  }

  @Test
  void constructor_systemWithConstraints_throws() {
    assertThatThrownBy(() -> new PodTopologySpreadArgs(DefaultingType.System, List.of(dc(1, "zone", HARD)),
        PodTopologySpreadArgs.NO_DEFAULT_SELECTOR)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("defaultConstraints must be empty");
  }

  @Test
  void constructor_invalidConstraints_throwNamingFieldAndRule() {
    assertThatThrownBy(() -> new PodTopologySpreadArgs(DefaultingType.List, List.of(dc(0, "zone", HARD)),
        PodTopologySpreadArgs.NO_DEFAULT_SELECTOR)).hasMessageContaining("defaultConstraints[0].maxSkew")
        .hasMessageContaining("greater than zero");
    assertThatThrownBy(() -> new PodTopologySpreadArgs(DefaultingType.List,
        List.of(TopologySpreadConstraint.of(1, "zone", HARD, FOO)), PodTopologySpreadArgs.NO_DEFAULT_SELECTOR))
        .hasMessageContaining("labelSelector must be unset");
    assertThatThrownBy(() -> new PodTopologySpreadArgs(DefaultingType.List,
        List.of(dc(1, "zone", HARD), dc(2, "zone", HARD)), PodTopologySpreadArgs.NO_DEFAULT_SELECTOR))
        .hasMessageContaining("defaultConstraints[1] duplicates {zone, DoNotSchedule}");
    assertThatThrownBy(() -> new PodTopologySpreadArgs(DefaultingType.List, List.of(dc(1, "bad key!", HARD)),
        PodTopologySpreadArgs.NO_DEFAULT_SELECTOR)).hasMessageContaining("topologyKey \"bad key!\" is invalid");
  }

  @Test
  void factory_withHandleArgs_createsNamedPluginUsingDefaults() {
    Cluster cluster = new Cluster(List.of(node("a").label("kubernetes.io/hostname", "a").label(
        PodTopologySpreadArgs.LABEL_ZONE, "z1").obj()), List.of(pod("e").node("a").label("app", "web").obj()));
    Function<Pod, @Nullable LabelSelector> lookup =
        p -> "web".equals(p.metadata().labels().get("app")) ? LabelSelector.of(Map.of("app", "web")) : null;
    PodTopologySpreadPlugin plugin = (PodTopologySpreadPlugin) PodTopologySpreadPlugin.FACTORY.create(
        new ArgsHandle(cluster, Map.of("defaultSelector", lookup)));
    assertThat(plugin.name()).isEqualTo("PodTopologySpread");
    PodInfo web = PodInfos.of(pod("p").label("app", "web").obj());
    MapCycleState state = new MapCycleState();
    // System defaults are ScheduleAnyway only: nothing to filter, two soft constraints to score.
    assertThat(plugin.preFilter(state, web, cluster).status().isSkip()).isTrue();
    assertThat(plugin.preScore(state, web, cluster.nodes()).isSuccess()).isTrue();
    PreScoreState s = state.require(PodTopologySpreadPlugin.PRE_SCORE_KEY);
    assertThat(s.constraints).extracting(SpreadConstraint::topologyKey)
        .containsExactly("kubernetes.io/hostname", PodTopologySpreadArgs.LABEL_ZONE);
    assertThat(s.requireAllTopologies).isFalse();
    assertThat(plugin.score(state, web, cluster.nodes().get(0))).isEqualTo(Math.round(
        Math.log(3) + 2 + Math.log(3) + 4));
    // A pod outside any workload gets no default spreading.
    assertThat(plugin.preScore(new MapCycleState(), PodInfos.of(pod("q").obj()), cluster.nodes()).isSkip())
        .isTrue();
  }

  @Test
  void preFilter_invalidSelector_returnsErrorStatus() {
    Cluster cluster = new Cluster(List.of(), List.of());
    PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin(PodTopologySpreadArgs.defaults(), () -> cluster);
    Pod bad = pod("p").spread(1, "zone", SOFT, new LabelSelector(Map.of("bad key!", "x"), List.of()))
        .spread(1, "zone", HARD, new LabelSelector(Map.of("bad key!", "x"), List.of()), null,
            NodeInclusionPolicy.Honor, null, null).obj();
    Status s = plugin.preFilter(new MapCycleState(), PodInfos.of(bad), cluster).status();
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).startsWith("obtaining pod's hard topology spread constraints");
  }
}
