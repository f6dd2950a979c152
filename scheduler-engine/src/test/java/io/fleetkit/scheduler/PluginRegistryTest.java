package io.fleetkit.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import io.fleetkit.scheduler.testing.TestFitPlugin;
import org.junit.jupiter.api.Test;

final class PluginRegistryTest {

  @Test
  void register_duplicateName_isRejectedNamingThePlugin() {
    PluginRegistry.Builder b = PluginRegistry.builder().register("A", h -> new TestFitPlugin());
    assertThatThrownBy(() -> b.register("A", h -> new TestFitPlugin()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"A\" is already registered");
  }

  @Test
  void with_nameOfDefaultPlugin_isRejected() {
    assertThatThrownBy(() -> PluginRegistry.defaults().with(PrioritySortPlugin.NAME, PrioritySortPlugin::new))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(PrioritySortPlugin.NAME);
  }

  @Test
  void with_newName_returnsNewRegistryAndLeavesOriginal() {
    PluginRegistry base = PluginRegistry.defaults();
    PluginRegistry more = base.with("X", h -> new TestFitPlugin());
    assertThat(more.contains("X")).isTrue();
    assertThat(base.contains("X")).isFalse();
    assertThat(more.factory("X")).isNotNull();
    assertThat(more.factory("missing")).isNull();
  }

  @Test
  void register_emptyName_isRejected() {
    assertThatThrownBy(() -> PluginRegistry.builder().register("", h -> new TestFitPlugin()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void defaults_containPrioritySort() {
    assertThat(PluginRegistry.defaults().names()).contains(PrioritySortPlugin.NAME);
  }

  @Test
  void defaultProfile_listsOnlyRegisteredPluginsInKubeOrderWithKubeWeights() {
    SchedulerProfile p = DefaultPlugins.profile();
    PluginRegistry r = PluginRegistry.defaults();
    assertThat(p.schedulerName()).isEqualTo(PodSpec.DEFAULT_SCHEDULER);
    assertThat(p.plugins()).allSatisfy(ref -> assertThat(r.contains(ref.name())).isTrue());
    assertThat(p.plugins()).extracting(SchedulerProfile.PluginRef::name).contains(PrioritySortPlugin.NAME);
    // Order follows kube's list.
    var kube = DefaultPlugins.kubeDefaultNames();
    int last = -1;
    for (var ref : p.plugins()) {
      int i = kube.indexOf(ref.name());
      assertThat(i).isGreaterThan(last);
      last = i;
    }
    for (var ref : p.plugins()) {
      switch (ref.name()) {
        case "TaintToleration" -> assertThat(ref.weight()).isEqualTo(3);
        case "NodeAffinity", "PodTopologySpread", "InterPodAffinity" -> assertThat(ref.weight()).isEqualTo(2);
        case "NodeResourcesFit", "NodeResourcesBalancedAllocation" -> assertThat(ref.weight()).isEqualTo(1);
        default -> { }
      }
    }
  }

  /**
   * kube's default MultiPoint list (default_plugins.go; TestApplyFeatureGates' list without DynamicResources) without
   * the volume plugins this module does not register: DefaultBinder last.
   */
  @Test
  void defaultProfile_exactPlugins_defaultBinderLast() {
    assertThat(DefaultPlugins.profile().plugins()).extracting(SchedulerProfile.PluginRef::name).containsExactly(
        "SchedulingGates", "PrioritySort", "NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
        "NodePorts", "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity", "DynamicResources",
        "DefaultPreemption", "NodeResourcesBalancedAllocation", "ImageLocality", "DefaultBinder");
    assertThat(DefaultPlugins.kubeDefaultNames()).last().isEqualTo("DefaultBinder");
    assertThat(PluginRegistry.defaults().contains("DefaultBinder")).isTrue();
  }

  @Test
  void build_userProfileWithUnknownPlugin_failsNamingIt() {
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(PrioritySortPlugin.NAME).plugin("NoSuchPlugin").build();
    assertThatThrownBy(() -> Scheduler.builder().profile(p).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NoSuchPlugin")
        .hasMessageContaining("not registered");
  }

  @Test
  void build_profileWithoutQueueSort_fails() {
    PluginRegistry r = PluginRegistry.defaults().with(TestFitPlugin.NAME, h -> new TestFitPlugin());
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(TestFitPlugin.NAME).build();
    assertThatThrownBy(() -> Scheduler.builder().registry(r).profile(p).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("QueueSort");
  }

  @Test
  void builder_settingTwice_failsNamingOldValue() {
    SchedulerBuilder b = Scheduler.builder().seed(7);
    assertThatThrownBy(() -> b.seed(8)).isInstanceOf(IllegalStateException.class).hasMessageContaining("7");
    SchedulerProfile p = DefaultPlugins.profile();
    SchedulerBuilder b2 = Scheduler.builder().profile(p);
    assertThatThrownBy(() -> b2.profile(p)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(p.schedulerName());
  }
}
