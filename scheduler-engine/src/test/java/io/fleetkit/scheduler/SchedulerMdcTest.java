package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PostBindPlugin;
import io.fleetkit.api.framework.ReservePlugin;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.internal.SchedulerImpl;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/** The stable MDC keys of a scheduling attempt: {@code pod} throughout, {@code node} once a node was chosen. */
final class SchedulerMdcTest {
  @Test
  void attempt_setsPodAndChosenNode_clearsBothAfterwards() {
    List<String> seen = new ArrayList<>();
    final class Probe implements ReservePlugin, PostBindPlugin {
      @Override
      public String name() {
        return "Probe";
      }

      @Override
      public Status reserve(CycleState state, PodInfo pod, String nodeName) {
        seen.add("reserve pod=" + MDC.get(SchedulerImpl.MDC_POD) + " node=" + MDC.get(SchedulerImpl.MDC_NODE));
        return Status.success();
      }

      @Override
      public void unreserve(CycleState state, PodInfo pod, String nodeName) {}

      @Override
      public void postBind(CycleState state, PodInfo pod, String nodeName) {
        seen.add("postBind pod=" + MDC.get(SchedulerImpl.MDC_POD) + " node=" + MDC.get(SchedulerImpl.MDC_NODE));
      }
    }
    PluginRegistry registry = PluginRegistry.defaults().toBuilder().register("Probe", h -> new Probe()).build();
    try (Scheduler s = Scheduler.builder().registry(registry)
        .profile(DefaultPlugins.profile().toBuilder().plugin("Probe", 0).build()).parallelism(1).build()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("p", 100, 10));
      assertThat(s.scheduleOne().isBound()).isTrue();
    }
    assertThat(seen).containsExactly("reserve pod=default/p node=n1", "postBind pod=default/p node=n1");
    assertThat(MDC.get(SchedulerImpl.MDC_POD)).isNull();
    assertThat(MDC.get(SchedulerImpl.MDC_NODE)).isNull();
  }
}
