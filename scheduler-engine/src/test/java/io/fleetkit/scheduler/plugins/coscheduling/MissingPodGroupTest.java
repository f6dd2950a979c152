package io.fleetkit.scheduler.plugins.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.api.time.ManualClock;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pod naming a PodGroup that does not exist is scheduled as a lone pod (as upstream's Coscheduling does), and the
 * missing group is reported once at WARN, not silently and not once per pod.
 */
final class MissingPodGroupTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  /** A framework handle with no PodGroups at all. */
  private final FrameworkHandle noGroups = new FrameworkHandle() {
    @Override
    public Clock clock() {
      return clock;
    }

    @Override
    public Snapshot snapshot() {
      throw new UnsupportedOperationException("not used");
    }

    @Override
    public WaitingPods waitingPods() {
      throw new UnsupportedOperationException("not used");
    }

    @Override
    public <T> List<T> list(Class<T> kind) {
      return List.of();
    }

    @Override
    public Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
      throw new UnsupportedOperationException("not used");
    }

    @Override
    public Status runPreFilterExtensionAddPod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node) {
      throw new UnsupportedOperationException("not used");
    }

    @Override
    public Status runPreFilterExtensionRemovePod(CycleState state, PodInfo podToSchedule, PodInfo other,
        NodeInfo node) {
      throw new UnsupportedOperationException("not used");
    }

    @Override
    public Map<String, Object> pluginArgs(String pluginName) {
      return Map.of();
    }
  };

  @Test
  void preFilter_podNamingAMissingGroup_skipsAndReportsTheGroupOnce() {
    CoschedulingPlugin plugin = new CoschedulingPlugin(noGroups);

    PreFilterResult first = plugin.preFilter(null, PodInfos.of(Gangs.member("ghost", 0, 1)), null);
    PreFilterResult second = plugin.preFilter(null, PodInfos.of(Gangs.member("ghost", 1, 1)), null);
    plugin.preFilter(null, PodInfos.of(Gangs.pod("plain", 1)), null);

    assertThat(first.status().isSkip()).isTrue();
    assertThat(second.status().isSkip()).isTrue();
    assertThat(plugin.missingGroupsReported()).containsExactly("default/ghost");
  }
}
