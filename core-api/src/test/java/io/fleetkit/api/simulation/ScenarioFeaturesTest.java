package io.fleetkit.api.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class ScenarioFeaturesTest {
  @Test
  void all_everythingOnButTheProvisioner() {
    assertThat(ScenarioFeatures.ALL).isEqualTo(new ScenarioFeatures(true, true, true, true, true, true, false, true,
        true, true, true, true));
    assertThat(ScenarioFeatures.ALL.podGarbageCollector()).isTrue();
    assertThat(ScenarioFeatures.ALL.dynamicResources()).isTrue();
    assertThat(ScenarioFeatures.ALL.provisioner()).isFalse();
  }

  @Test
  void shorterConstructors_leaveTheLaterFeaturesOn() {
    ScenarioFeatures ten = new ScenarioFeatures(false, true, false, true, false, true, false, false, false, false);
    assertThat(ten.podGarbageCollector()).isTrue();
    assertThat(ten.dynamicResources()).isTrue();
    assertThat(new ScenarioFeatures(true, true, true, true, true, true, false, true, true, true, false))
        .isEqualTo(ScenarioFeatures.builder().podGarbageCollector(false).build());
    assertThat(ten.networking()).isFalse();
    assertThat(new ScenarioFeatures(false, false, false)).isEqualTo(ScenarioFeatures.builder()
        .horizontalPodAutoscaler(false).clusterAutoscaler(false).storage(false).build());
  }

  @Test
  void builder_setsEachFeature_andToBuilderKeepsThem() {
    ScenarioFeatures f = ScenarioFeatures.builder().horizontalPodAutoscaler(false).verticalPodAutoscaler(false)
        .queueAdmission(false).queueScaling(false).networking(false).admission(false).rollouts(false)
        .podGarbageCollector(false).storage(false).dynamicResources(false).build();
    assertThat(f).isEqualTo(new ScenarioFeatures(false, true, false, false, false, false, false, false, false,
        false, false, false));
    assertThat(f.toBuilder().build()).isEqualTo(f);
  }

  @Test
  void withProvisioner_switchesTheClusterAutoscalerOff_andKeepsTheRest() {
    ScenarioFeatures f = ScenarioFeatures.builder().podGarbageCollector(false).build().withProvisioner();
    assertThat(f.provisioner()).isTrue();
    assertThat(f.clusterAutoscaler()).isFalse();
    assertThat(f.podGarbageCollector()).isFalse();
    assertThat(f.horizontalPodAutoscaler()).isTrue();
  }
}
