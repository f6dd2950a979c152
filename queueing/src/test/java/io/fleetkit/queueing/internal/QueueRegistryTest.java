package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.StopPolicy;
import io.fleetkit.queueing.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link QueueRegistry} alone: validation, routing, dropping queues and the rollback of a refused change. */
final class QueueRegistryTest {
  private final List<CqState> dropped = new ArrayList<>();
  private final QueueRegistry registry = new QueueRegistry(List.of(), dropped::add);

  private static ClusterQueue cq(String name, String cohort, String flavor) {
    return ClusterQueue.builder(name).cohort(cohort)
        .resourceGroup(FlavorQuotas.of(flavor, FlavorResourceQuota.of("cpu", "4"))).build();
  }

  private static Workload wl(String queue) {
    return Workload.builder("team", "w").queueName(queue).creationTime(Instant.EPOCH).request("cpu", "1").build();
  }

  private void configure() {
    registry.configure(List.of(ResourceFlavor.of("default")), List.of(cq("a", "co", "default"),
        cq("b", "co", "default")), List.of(), List.of(LocalQueue.of("team", "q", "a")));
  }

  @Test
  void configure_localQueueOfUnknownClusterQueue_namesTheFieldAndTheRule() {
    assertThatThrownBy(() -> registry.configure(List.of(), List.of(), List.of(),
        List.of(LocalQueue.of("team", "q", "nope"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("LocalQueue team/q: spec.clusterQueue \"nope\" must name a known ClusterQueue");
  }

  @Test
  void route_stoppedOrRemovedLocalQueue_routesNowhere() {
    configure();
    CqState a = registry.requireQueue("a");
    assertThat(registry.route(wl("q"), null)).isSameAs(a);
    assertThat(registry.route(wl("unknown"), a)).as("a LocalQueue never known keeps the current queue").isSameAs(a);

    registry.putLocalQueue(LocalQueue.of("team", "q", "a").withStopPolicy(StopPolicy.HOLD));
    assertThat(registry.route(wl("q"), a)).isNull();

    registry.putLocalQueue(LocalQueue.of("team", "q", "a"));
    assertThat(registry.removeLocalQueue("team", "q")).isTrue();
    assertThat(registry.route(wl("q"), a)).isNull();
    assertThat(registry.removeLocalQueue("team", "q")).isFalse();
  }

  @Test
  void putLocalQueue_otherClusterQueue_isRefused() {
    configure();
    assertThatThrownBy(() -> registry.putLocalQueue(LocalQueue.of("team", "q", "b")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("field is immutable");
    assertThat(registry.localQueue("team", "q").clusterQueue()).isEqualTo("a");
  }

  @Test
  void removeClusterQueue_unusedQueue_isDroppedRemovedAndTerminating() {
    configure();
    CqState b = registry.requireQueue("b");
    assertThat(registry.terminateIfInUse(b)).isFalse();

    registry.removeClusterQueue("b");

    assertThat(dropped).containsExactly(b);
    assertThat(b.removed).isTrue();
    assertThat(b.terminating).isTrue();
    assertThat(registry.queue("b")).isNull();
    assertThat(registry.route(wl("q"), b)).isSameAs(registry.requireQueue("a"));
  }

  @Test
  void putClusterQueue_returnsTheQueuesOfItsTreeBeforeAndAfter() {
    configure();
    List<CqState> touched = registry.putClusterQueue(cq("b", "other", "default"));
    assertThat(touched).extracting(q -> q.name).containsExactlyInAnyOrder("a", "b", "b");
  }

  @Test
  void putCohort_cycleWithNewFlavorResources_isRefusedAndQueuesKeepArraysOfTheIndexSize() {
    configure();
    registry.putCohort(Cohort.of("co", "top"));
    Cohort cycle = Cohort.builder("top").parent("co")
        .resourceGroup(FlavorQuotas.of("spot", FlavorResourceQuota.of("gpu", "2"))).build();

    assertThatThrownBy(() -> registry.putCohort(cycle))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cycle");

    assertThat(registry.cohort("top")).isNull();
    assertThat(registry.index().of("spot", "gpu")).as("the refused change indexed it").isNotNegative();
    for (CqState q : registry.queues()) {
      assertThat(q.usage).hasSize(registry.index().size());
      assertThat(q.nominal).hasSize(registry.index().size());
    }
    assertThat(dropped).isEmpty();
  }

  @Test
  void addResourceFlavor_missingFlavor_makesTheQueueActive() {
    registry.configure(List.of(), List.of(cq("a", "co", "default")), List.of(), List.of());
    assertThat(registry.requireQueue("a").active()).isFalse();

    registry.addResourceFlavor(ResourceFlavor.of("default"));

    assertThat(registry.requireQueue("a").active()).isTrue();
    assertThatThrownBy(() -> registry.addResourceFlavor(ResourceFlavor.of("default")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("admission engine: resource flavor default already exists");
  }
}
