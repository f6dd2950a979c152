package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.framework.BindPlugin;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.ExtensionPoint;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.ReservePlugin;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.plugins.defaultbinder.DefaultBinderPlugin;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import io.fleetkit.scheduler.plugins.tainttoleration.TaintTolerationPlugin;
import io.fleetkit.scheduler.testing.Fixtures;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The framework builds each point's plugins from the profile's per-point settings ({@link
 * SchedulerProfile#pluginsAt}), and runs Bind as kube.
 *
 * <p>{@link #runBind_table} is ported from kubernetes/kubernetes at commit 0b1dcaba0a3f1fdcfe5fbb6516d68ffc8e625d81,
 * {@code pkg/scheduler/framework/runtime/framework_test.go} TestRunBindPlugins (12 of 12 cases; upstream's secondary
 * assertion on the Bind extension point's duration metric is not here: FleetKit's scheduler, not the framework,
 * records that metric).
 */
final class FrameworkPointsTest {
  private static final PodInfo POD = EnginePodInfo.of(Fixtures.pod("p", 100, 64));

  private static Framework framework(SchedulerProfile p, PluginRegistry reg) {
    return new Framework(p, reg, Clock.systemUTC(), new ClusterSnapshot(), WaitingPods.NONE, new ClusterObjects());
  }

  private static Framework defaults(SchedulerProfile p) {
    return framework(p, PluginRegistry.defaults());
  }

  private static Status injected(Status.Code code) {
    return switch (code) {
      case SUCCESS -> Status.success();
      case SKIP -> Status.skip();
      default -> new Status(code, List.of("injected status"), null);
    };
  }

  static Stream<Arguments> runBindCases() {
    Status.Code ok = Status.Code.SUCCESS;
    Status.Code skip = Status.Code.SKIP;
    Status.Code err = Status.Code.ERROR;
    return Stream.of(
        Arguments.of("simple success", List.of(ok), ok),
        Arguments.of("error on second", List.of(skip, err, ok), err),
        Arguments.of("all skip", List.of(skip, skip, skip), skip),
        Arguments.of("error on third, but not reached", List.of(skip, ok, err), ok),
        // upstream's helper adds a binding plugin when none is enabled; FleetKit's scheduler binds through its
        // Binder then (bindsThroughBinder), so the framework answers Skip
        Arguments.of("no bind plugin, returns default binder", List.of(), skip),
        Arguments.of("invalid status", List.of(Status.Code.UNSCHEDULABLE), Status.Code.UNSCHEDULABLE),
        Arguments.of("simple error", List.of(err), err),
        Arguments.of("success on second, returns success", List.of(skip, ok), ok),
        Arguments.of("invalid status, returns error", List.of(skip, Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE),
            Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE),
        Arguments.of("error after success status, returns success", List.of(ok, err), ok),
        Arguments.of("success before invalid status, returns success", List.of(ok, err), ok),
        Arguments.of("success after error status, returns error", List.of(err, ok), err));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("runBindCases")
  void runBind_table(String upstreamCase, List<Status.Code> injects, Status.Code want) {
    SchedulerProfile.Builder b = SchedulerProfile.builder("test-profile").plugin(PrioritySortPlugin.NAME);
    PluginRegistry reg = PluginRegistry.defaults();
    List<String> called = new ArrayList<>();
    for (int i = 0; i < injects.size(); i++) {
      String name = "bind-" + i;
      Status answer = injected(injects.get(i));
      BindPlugin plugin = new BindPlugin() {
        @Override public String name() { return name; }
        @Override public Status bind(CycleState state, PodInfo pod, String nodeName) {
          called.add(name);
          return answer;
        }
      };
      reg = reg.with(name, h -> plugin);
      b.plugin(name);
    }
    Framework fw = framework(b.build(), reg);
    Status got = fw.runBind(new ArrayCycleState(), POD, "");
    assertThat(got.code()).as(upstreamCase).isEqualTo(want);
    assertThat(fw.bindsThroughBinder()).isEqualTo(injects.isEmpty());
    int decided = 0;
    while (decided < injects.size() && injects.get(decided) == Status.Code.SKIP) {
      decided++;
    }
    assertThat(called).as("plugins run until one does not skip").hasSize(Math.min(decided + 1, injects.size()));
    if (want != Status.Code.SKIP) {
      assertThat(got.plugin()).isEqualTo("bind-" + decided);
    }
  }

  @Test
  void defaultProfile_bindsWithDefaultBinderOnly() {
    Framework fw = defaults(DefaultPlugins.profile());
    assertThat(fw.pluginNamesAt(ExtensionPoint.BIND)).containsExactly(DefaultBinderPlugin.NAME);
    assertThat(fw.bindsThroughBinder()).isFalse();
    assertThat(DefaultPlugins.profile().plugins().get(DefaultPlugins.profile().plugins().size() - 1).name())
        .isEqualTo(DefaultBinderPlugin.NAME);
  }

  @Test
  void scoreDisabled_nodeResourcesFit_keepsItsFilterAndPreFilter() {
    Framework fw = defaults(DefaultPlugins.profile().toBuilder()
        .disableAt(ExtensionPoint.SCORE, NodeResourcesFitPlugin.NAME).build());
    assertThat(fw.pluginNamesAt(ExtensionPoint.FILTER)).contains(NodeResourcesFitPlugin.NAME);
    assertThat(fw.pluginNamesAt(ExtensionPoint.PRE_FILTER)).contains(NodeResourcesFitPlugin.NAME);
    assertThat(fw.pluginNamesAt(ExtensionPoint.SCORE)).doesNotContain(NodeResourcesFitPlugin.NAME)
        .containsExactly("TaintToleration", "NodeAffinity", "PodTopologySpread", "InterPodAffinity",
            "NodeResourcesBalancedAllocation", "ImageLocality");
    assertThat(fw.scoreWeights()).containsExactly(3, 2, 2, 2, 1, 1);
    // PreScore is another point: NodeResourcesFit's PreScore still runs, as in kube
    assertThat(fw.pluginNamesAt(ExtensionPoint.PRE_SCORE)).contains(NodeResourcesFitPlugin.NAME);
  }

  @Test
  void filterDisabled_nodeResourcesFit_keepsItsScore() {
    Framework fw = defaults(DefaultPlugins.profile().toBuilder()
        .disableAt(ExtensionPoint.FILTER, NodeResourcesFitPlugin.NAME).build());
    assertThat(fw.pluginNamesAt(ExtensionPoint.FILTER)).doesNotContain(NodeResourcesFitPlugin.NAME)
        .contains(TaintTolerationPlugin.NAME);
    assertThat(fw.pluginNamesAt(ExtensionPoint.SCORE)).contains(NodeResourcesFitPlugin.NAME);
  }

  /** kube's getScoreWeights: "a weight of zero is not permitted", so a Score plugin's 0 counts as 1, multiPoint or not. */
  @Test
  void zeroScoreWeight_countsAsOne() {
    Framework multiPoint = defaults(DefaultPlugins.profile().toBuilder().plugin("ImageLocality", 0).build());
    assertThat(multiPoint.scoreWeights()[multiPoint.pluginNamesAt(ExtensionPoint.SCORE).indexOf("ImageLocality")])
        .isEqualTo(1);
    Framework atScore = defaults(DefaultPlugins.profile().toBuilder()
        .enableAt(ExtensionPoint.SCORE, "TaintToleration", 0).build());
    assertThat(atScore.pluginNamesAt(ExtensionPoint.SCORE)).first().isEqualTo("TaintToleration");
    assertThat(atScore.scoreWeights()[0]).isEqualTo(1);
  }

  @Test
  void scoreWeightAtThePoint_overridesAndReorders() {
    Framework fw = defaults(DefaultPlugins.profile().toBuilder()
        .enableAt(ExtensionPoint.SCORE, "ImageLocality", 7).build());
    assertThat(fw.pluginNamesAt(ExtensionPoint.SCORE)).first().isEqualTo("ImageLocality");
    assertThat(fw.scoreWeights()[0]).isEqualTo(7);
  }

  /** A Filter and Reserve plugin that counts its creations. */
  private static final class FilterReserve implements FilterPlugin, ReservePlugin {
    @Override public String name() { return "FR"; }
    @Override public Status filter(CycleState state, PodInfo pod, NodeInfo node) { return Status.success(); }
    @Override public Status reserve(CycleState state, PodInfo pod, String nodeName) { return Status.success(); }
    @Override public void unreserve(CycleState state, PodInfo pod, String nodeName) { }
  }

  @Test
  void pluginEnabledAtOnePointOnly_createdOnce_runsThereOnly() {
    AtomicInteger created = new AtomicInteger();
    PluginRegistry reg = PluginRegistry.defaults().with("FR", h -> {
      created.incrementAndGet();
      return new FilterReserve();
    });
    Framework fw = framework(SchedulerProfile.builder("s").plugin(PrioritySortPlugin.NAME)
        .enableAt(ExtensionPoint.RESERVE, "FR").enableAt(ExtensionPoint.PERMIT, PrioritySortPlugin.NAME)
        .build().toBuilder().disableAt(ExtensionPoint.PERMIT, PrioritySortPlugin.NAME).build(), reg);
    assertThat(created).hasValue(1);
    assertThat(fw.pluginNamesAt(ExtensionPoint.RESERVE)).containsExactly("FR");
    assertThat(fw.pluginNamesAt(ExtensionPoint.FILTER)).isEmpty();
    assertThat(fw.pluginNamesAt(ExtensionPoint.QUEUE_SORT)).containsExactly(PrioritySortPlugin.NAME);
  }

  @Test
  void pointEnabledPluginNotImplementingIt_errorNamesProfilePluginAndPoint() {
    assertThatThrownBy(() -> defaults(SchedulerProfile.builder("s").plugin(PrioritySortPlugin.NAME)
        .enableAt(ExtensionPoint.BIND, TaintTolerationPlugin.NAME).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("profile s: plugin TaintToleration is enabled at bind but does not implement BindPlugin");
  }

  @Test
  void pointEnabledUnknownPlugin_notRegistered() {
    assertThatThrownBy(() -> defaults(SchedulerProfile.builder("s").plugin(PrioritySortPlugin.NAME)
        .enableAt(ExtensionPoint.BIND, "NoSuchBinder").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("profile s: plugin \"NoSuchBinder\" is not registered");
  }

  @Test
  void coschedulingEnableIn_keepsPointSettings() {
    SchedulerProfile p = io.fleetkit.scheduler.plugins.coscheduling.CoschedulingPlugin.enableIn(DefaultPlugins
        .profile().toBuilder().disableAt(ExtensionPoint.SCORE, NodeResourcesFitPlugin.NAME).build());
    assertThat(p.pointPlugins(ExtensionPoint.SCORE).disabled()).containsExactly(NodeResourcesFitPlugin.NAME);
    assertThat(defaults(p).pluginNamesAt(ExtensionPoint.QUEUE_SORT)).containsExactly("Coscheduling");
  }

  @Test
  void queueSortDisabled_noQueueSort_refused() {
    assertThatThrownBy(() -> defaults(DefaultPlugins.profile().toBuilder()
        .disableAt(ExtensionPoint.QUEUE_SORT, "*").build()))
        .hasMessage("profile default-scheduler: exactly one QueueSort plugin is required, found 0 []");
  }
}
