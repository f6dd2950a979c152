package io.fleetkit.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The recipe "add a scheduler plugin" of docs/architecture.md, step by step: one class implementing the extension
 * point, registered by name in a {@link PluginRegistry}, enabled in a profile, and its rejection reason in the
 * scheduler's diagnosis.
 */
final class PluginRecipeTest {
  /** Step 1: one class, its name and reason constants at the top. */
  static final class RackFilterPlugin implements FilterPlugin {
    static final String NAME = "RackFilter";
    static final String REASON = "node(s) were in a drained rack";

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      return node.name().startsWith("drained-") ? Status.unschedulable(REASON) : Status.success();
    }
  }

  private static Node node(String name) {
    return Node.builder().name(name).capacity(ResourceList.builder().put("cpu", Quantity.of(4))
        .put("memory", Quantity.ofBytes(8L << 30)).put("pods", Quantity.of(110)).build()).ready().build();
  }

  private static Scheduler scheduler() {
    // Step 2: register the plugin by name; step 3: enable it in the profile (weight 0: not a score plugin).
    PluginRegistry registry = PluginRegistry.defaults().toBuilder()
        .register(RackFilterPlugin.NAME, handle -> new RackFilterPlugin()).build();
    return Scheduler.builder().registry(registry)
        .profile(DefaultPlugins.profile().toBuilder().plugin(RackFilterPlugin.NAME, 0).build())
        .binder(new InMemoryBinder()).parallelism(1).seed(1).build();
  }

  private static Pod pod(String name) {
    return Pod.builder().name(name).container("c", "img", ResourceList.builder().put("cpu", "100m").build())
        .build();
  }

  @Test
  void recipe_filterPlugin_registeredAndEnabled_steersPods() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("drained-1"));
      s.addNode(node("ok-1"));
      s.addPod(pod("web"));
      List<ScheduleResult> r = s.runUntilIdle();
      assertThat(r).singleElement().matches(ScheduleResult::isBound, "bound");
      assertThat(r.get(0).nodeName()).isEqualTo("ok-1");
    }
  }

  @Test
  void recipe_filterPlugin_rejectionReason_inTheDiagnosis() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("drained-1"));
      s.addNode(node("drained-2"));
      s.addPod(pod("web"));
      List<ScheduleResult> r = s.runUntilIdle();
      assertThat(r).singleElement().matches(x -> !x.isBound(), "not bound");
      assertThat(r.get(0).message()).startsWith("0/2 nodes are available: 2 " + RackFilterPlugin.REASON + ".");
    }
  }
}
