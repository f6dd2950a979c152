package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.EnvFromSource;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.EnvVarSource;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.resource.ResourceList;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * ConfigMap and Secret references in a whole simulation: a Deployment whose pods read a ConfigMap that does not exist
 * never becomes ready (its containers wait in {@code CreateContainerConfigError}, the kubelet's {@code Failed}
 * Warning on the timeline once per message), and becomes ready within the kubelet's 10 s retry once the ConfigMap is
 * created; a pod whose secret volume's Secret is missing stays {@code ContainerCreating} with {@code FailedMount} on
 * the timeline, and starts once the Secret exists.
 */
final class ConfigReferencesInSimulationTest {
  private static Deployment web(Container app, List<Volume> volumes) {
    PodSpec.Builder spec = PodSpec.builder().container(app);
    volumes.forEach(spec::volume);
    return Deployment.builder().namespace("default").name("web").replicas(2).matchLabels(Map.of("app", "web"))
        .podSpec(spec.build()).build();
  }

  private static int readyReplicas(Simulation sim) {
    return sim.store().get(Deployment.class, "default", "web").orElseThrow().status().readyReplicas();
  }

  @Test
  void deployment_missingConfigMap_neverReady_thenReadyOnceCreated() {
    Container app = Container.of("app", "nginx:1", ResourceList.ofCpuMemory(100, 0)).withEnv(List.of(
        EnvVar.from("LEVEL", EnvVarSource.configMapKey("app-config", "level", false))))
        .withEnvFrom(List.of(EnvFromSource.secret("optional-extras", true)));
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(web(app, List.of())).seed(1)
        .build()) {
      sim.runFor(Duration.ofMinutes(5));
      assertThat(readyReplicas(sim)).isZero();
      List<Pod> pods = sim.store().list(Pod.class, "default").items();
      assertThat(pods).hasSize(2).allSatisfy(p -> assertThat(p.status().containerStatuses().get(0).state())
          .isEqualTo(ContainerState.waiting("CreateContainerConfigError", "configmap \"app-config\" not found")));
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("Failed")).hasSize(2).allSatisfy(e -> {
        assertThat(e.object()).startsWith("Pod/default/web-");
        assertThat(e.message()).isEqualTo("Error: configmap \"app-config\" not found");
      });

      Duration created = sim.elapsed();
      sim.store().create(ConfigMap.of("default", "app-config", Map.of("level", "info")));
      boolean ready = sim.runUntil(s -> readyReplicas(s) == 2, Duration.ofSeconds(11));
      assertThat(ready).as("ready within the kubelet's 10 s retry").isTrue();
      assertThat(sim.elapsed()).isLessThanOrEqualTo(created.plusSeconds(10));
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("Failed")).hasSize(2);
    }
  }

  @Test
  void pod_missingSecretVolume_containerCreatingWithFailedMount_thenStarts() {
    Container app = Container.of("app", "nginx:1", ResourceList.ofCpuMemory(100, 0));
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(1))
        .object(web(app, List.of(new Volume("creds", new VolumeSource.Secret("db"))))).seed(1).build()) {
      sim.runFor(Duration.ofMinutes(3));
      assertThat(readyReplicas(sim)).isZero();
      assertThat(sim.store().list(Pod.class, "default").items()).hasSize(2).allSatisfy(p ->
          assertThat(p.status().containerStatuses().get(0).state().reason()).isEqualTo("ContainerCreating"));
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("FailedMount")).hasSize(2)
          .allSatisfy(e -> assertThat(e.message())
              .isEqualTo("MountVolume.SetUp failed for volume \"creds\" : secret \"db\" not found"));

      sim.store().create(Secret.of("default", "db", Map.of("password",
          Bytes.of("x".getBytes(StandardCharsets.UTF_8)))));
      // the operation executor's backoff has reached its 2 m 2 s cap
      assertThat(sim.runUntil(s -> readyReplicas(s) == 2, Duration.ofSeconds(123))).isTrue();
    }
  }
}
