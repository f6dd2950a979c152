package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Simulation.Builder#apply}: objects created or updated at a simulated time, through the store. */
final class SimulationApplyTest {

  @Test
  void apply_newObject_createdAtItsTimeNotBefore() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2))
        .apply(Duration.ofSeconds(30), List.of(SimFixtures.deployment("web", 2)), "web.yaml").build()) {
      sim.runFor(Duration.ofSeconds(29));
      assertThat(sim.store().get(Deployment.class, "default", "web")).isEmpty();
      sim.runFor(Duration.ofSeconds(31));
      assertThat(sim.store().get(Deployment.class, "default", "web")).isPresent();
      assertThat(SimFixtures.readyPods(sim, "web")).hasSize(2);
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("Applied"))
          .extracting(e -> e.clock() + " " + e.object() + " " + e.message())
          .containsExactly("00:30 Deployment/default/web created from web.yaml");
    }
  }

  @Test
  void apply_storedObject_specReplacedLabelsMergedStatusAndUidKept() {
    Deployment v1 = Deployment.builder().namespace("default").name("web").replicas(2).label("team", "a")
        .matchLabels(Map.of("app", "web")).podSpec(SimFixtures.deployment("web", 2).spec().template().spec())
        .build();
    Deployment v2 = Deployment.builder().namespace("default").name("web").replicas(4).label("tier", "front")
        .matchLabels(Map.of("app", "web")).podSpec(v1.spec().template().spec()).build();
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(v1)
        .apply(Duration.ofMinutes(1), List.of(v2), "v2.yaml").build()) {
      sim.runFor(Duration.ofSeconds(50));
      Deployment before = sim.store().require(Deployment.class, "default", "web");
      assertThat(before.status().readyReplicas()).isEqualTo(2);
      sim.runFor(Duration.ofSeconds(10));
      Deployment after = sim.store().require(Deployment.class, "default", "web");
      assertThat(after.spec().replicas()).isEqualTo(4);
      assertThat(after.metadata().uid()).isEqualTo(before.metadata().uid());
      assertThat(after.metadata().generation()).isEqualTo(before.metadata().generation() + 1);
      assertThat(after.metadata().labels()).containsEntry("team", "a").containsEntry("tier", "front");
      sim.runFor(Duration.ofSeconds(30));
      assertThat(SimFixtures.readyPods(sim, "web")).hasSize(4);
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("Applied"))
          .extracting(e -> e.clock() + " " + e.message()).containsExactly("01:00 updated from v2.yaml");
    }
  }

  @Test
  void apply_sameObjectAgain_recordedUnchanged() {
    ConfigMap cm = ConfigMap.of("default", "settings", Map.of("k", "v"));
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(1)).object(cm)
        .apply(Duration.ofSeconds(5), List.of(cm), "cm.yaml").build()) {
      long generation = sim.store().require(ConfigMap.class, "default", "settings").metadata().generation();
      sim.runFor(Duration.ofSeconds(10));
      assertThat(sim.store().require(ConfigMap.class, "default", "settings").metadata().generation())
          .isEqualTo(generation);
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("Applied")).extracting(TimelineEvent::message)
          .containsExactly("unchanged from cm.yaml");
    }
  }

  @Test
  void apply_refusedByTheStore_recordedAsRejectedAndTheRunGoesOn() {
    ConfigMap held = new ConfigMap(ObjectMeta.builder().namespace("default").name("held").finalizer("example.com/a")
        .build(), Map.of(), Map.of(), false);
    ConfigMap more = new ConfigMap(ObjectMeta.builder().namespace("default").name("held").finalizer("example.com/b")
        .build(), Map.of(), Map.of(), false);
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(1)).object(held)
        .apply(Duration.ofSeconds(10), List.of(more), "more.yaml")
        .apply(Duration.ofSeconds(10), List.of(SimFixtures.deployment("after", 1)), "after.yaml").build()) {
      sim.store().delete(ConfigMap.class, "default", "held"); // held by its finalizer: being deleted
      sim.runFor(Duration.ofSeconds(30));
      assertThat(sim.store().require(ConfigMap.class, "default", "held").metadata().finalizers())
          .containsExactly("example.com/a");
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("Applied") || e.kind().equals("ApplyRejected"))
          .extracting(e -> e.kind() + " " + e.object() + " " + e.message())
          .satisfiesExactly(
              m -> assertThat(m).startsWith("ApplyRejected ConfigMap/default/held more.yaml: ")
                  .contains("finalizer"),
              m -> assertThat(m).isEqualTo("Applied Deployment/default/after created from after.yaml"));
      assertThat(SimFixtures.readyPods(sim, "after")).hasSize(1);
    }
  }

  @Test
  void apply_negativeTime_refusedNamingTheSource() {
    assertThatThrownBy(() -> Simulation.builder().apply(Duration.ofSeconds(-1), List.of(), "x.yaml"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("simulation: apply time PT-1S for x.yaml must not be negative");
  }
}
