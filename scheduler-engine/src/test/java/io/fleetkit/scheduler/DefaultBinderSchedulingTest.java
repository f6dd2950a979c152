package io.fleetkit.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.BindPlugin;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.ExtensionPoint;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.plugins.defaultbinder.DefaultBinderPlugin;
import io.fleetkit.scheduler.testing.Fixtures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Binding through Bind plugins: kube's default profile binds with DefaultBinder, which hands the configured
 * {@link Binder} the pending pod; a profile that disables DefaultBinder and enables its own Bind plugin runs only
 * that; Bind plugins that all skip fail the binding (kube); a profile without any Bind plugin still binds through the
 * Binder (FleetKit's compatibility rule; kube refuses such a profile). Each with synchronous and asynchronous binding.
 */
final class DefaultBinderSchedulingTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final List<Pod> binderGot = new ArrayList<>();
  private final List<String> customCalls = new ArrayList<>();
  private final Binder binder = (pod, node) -> {
    synchronized (binderGot) {
      binderGot.add(pod);
    }
    return Status.success();
  };

  private final class Custom implements BindPlugin {
    private final Status answer;

    Custom(Status answer) {
      this.answer = answer;
    }

    @Override public String name() { return "CustomBinder"; }

    @Override public Status bind(CycleState state, PodInfo pod, String nodeName) {
      synchronized (customCalls) {
        customCalls.add(pod.key() + "->" + nodeName);
      }
      return answer;
    }
  }

  private List<ScheduleResult> run(SchedulerProfile profile, PluginRegistry registry, int bindThreads) {
    List<ScheduleResult> results = new ArrayList<>();
    try (Scheduler s = Scheduler.builder().registry(registry).clock(clock).binder(binder).parallelism(1).seed(1)
        .bindParallelism(bindThreads).profile(profile).onResult(r -> {
          synchronized (results) {
            results.add(r);
          }
        }).build()) {
      s.addNode(Fixtures.node("n1", 4000, 8192, 110));
      s.addPod(Fixtures.pod("web", 100, 64));
      s.runUntilIdle();
    }
    synchronized (results) {
      return List.copyOf(results);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 2})
  void defaultProfile_defaultBinderHandsTheBinderThePendingPod(int bindThreads) {
    List<ScheduleResult> r = run(DefaultPlugins.profile(), PluginRegistry.defaults(), bindThreads);
    assertThat(r).anyMatch(x -> x.isBound() && "n1".equals(x.nodeName()));
    assertThat(binderGot).hasSize(1);
    assertThat(binderGot.get(0).spec().nodeName()).as("the pending pod, as before DefaultBinder").isEmpty();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 2})
  void defaultBinderDisabled_customBindPlugin_onlyTheCustomOneRuns(int bindThreads) {
    SchedulerProfile p = DefaultPlugins.profile().toBuilder()
        .disableAt(ExtensionPoint.BIND, DefaultBinderPlugin.NAME).enableAt(ExtensionPoint.BIND, "CustomBinder")
        .build();
    List<ScheduleResult> r = run(p, PluginRegistry.defaults().with("CustomBinder", h -> new Custom(Status.success())),
        bindThreads);
    assertThat(r).anyMatch(ScheduleResult::isBound);
    assertThat(customCalls).containsExactly("default/web->n1");
    assertThat(binderGot).as("DefaultBinder did not run, the Binder was not called").isEmpty();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 2})
  void everyBindPluginSkips_bindingFails(int bindThreads) {
    SchedulerProfile p = DefaultPlugins.profile().toBuilder().disable(DefaultBinderPlugin.NAME)
        .plugin("CustomBinder").build();
    List<ScheduleResult> r = run(p, PluginRegistry.defaults().with("CustomBinder", h -> new Custom(Status.skip())),
        bindThreads);
    assertThat(r).noneMatch(ScheduleResult::isBound);
    assertThat(r).anyMatch(x -> x.code() == Status.Code.ERROR
        && x.message().contains("every Bind plugin skipped the pod (CustomBinder)"));
    assertThat(binderGot).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 2})
  void profileWithoutBindPlugin_bindsThroughTheBinder(int bindThreads) {
    SchedulerProfile p = DefaultPlugins.profile().toBuilder().disable(DefaultBinderPlugin.NAME).build();
    List<ScheduleResult> r = run(p, PluginRegistry.defaults(), bindThreads);
    assertThat(r).anyMatch(ScheduleResult::isBound);
    assertThat(binderGot).hasSize(1);
  }
}
