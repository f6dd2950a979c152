package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Karpenter's events as the provisioner records them (kubernetes-sigs/karpenter {@code
 * pkg/controllers/provisioning/scheduling/events.go} {@code NominatePodEvent}, published by {@code provisioner.go}
 * for the pods of each new NodeClaim; {@code pkg/controllers/disruption/events/events.go} {@code Terminating}).
 */
final class ProvisionerEventsTest {
  private static final long GI = 1024L * 1024 * 1024;
  private static final OwnerReference RS = new OwnerReference("apps/v1", "ReplicaSet", "web", "rs-1", true, true);
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
  private final List<String> events = new ArrayList<>();
  private final EventRecorder recorder = (regarding, related, type, reason, action, note) -> events.add(type + " "
      + reason + " " + regarding.kind() + "/" + regarding.name() + ": " + note);
  private static final InstanceType LARGE = new InstanceType("m.xlarge", ResourceList.builder()
      .put("cpu", Quantity.ofMilli(4000)).put("memory", Quantity.ofBytes(16 * GI)).put("pods", Quantity.of(110))
      .build(), Map.of(), List.of(), 0.192);

  @AfterEach
  void close() {
    store.close();
  }

  private Provisioner provisioner() {
    return Provisioner.builder(store).clock(clock).instanceType(LARGE).events(recorder).build();
  }

  private static Pod pod(String name, long milliCpu) {
    return Pod.builder().name(name).ownerReference(RS)
        .container("app", "img", ResourceList.ofCpuMemory(milliCpu, GI)).build();
  }

  @Test
  void launch_eachPackedPodNominatedToItsNewNode() {
    store.create(pod("a", 1000));
    store.create(pod("b", 1000));
    Provisioner p = provisioner();
    p.runOnce();
    clock.advance(Duration.ofSeconds(1));
    String node = p.runOnce().launched().keySet().iterator().next();

    assertThat(events).containsExactlyInAnyOrder(
        "Normal Nominated Pod/a: Pod should schedule on: nodeclaim/" + node,
        "Normal Nominated Pod/b: Pod should schedule on: nodeclaim/" + node);
  }

  @Test
  void emptiness_emptyNodeDisruptionTerminating() {
    store.create(Packer.node(LARGE, "n1").toBuilder().label(Provisioner.MANAGED_LABEL, "default").build());
    store.create(Packer.node(LARGE, "n2").toBuilder().label(Provisioner.MANAGED_LABEL, "default").build());
    store.create(pod("a", 3000).toBuilder().nodeName("n1").build());

    provisioner().runOnce();

    assertThat(events).containsExactly("Normal DisruptionTerminating Node/n2: Disrupting Node: Empty");
    assertThat(store.require(Node.class, "", "n2").metadata().name()).isEqualTo("n2");
  }

  @Test
  void consolidation_underutilizedNodeDisruptionTerminating() {
    store.create(Packer.node(LARGE, "n1").toBuilder().label(Provisioner.MANAGED_LABEL, "default").build());
    store.create(Packer.node(LARGE, "n2").toBuilder().label(Provisioner.MANAGED_LABEL, "default").build());
    store.create(pod("a", 2000).toBuilder().nodeName("n1").build());
    store.create(pod("b", 1000).toBuilder().nodeName("n2").build());

    ProvisionerResult r = provisioner().runOnce();

    assertThat(r.commands()).singleElement().satisfies(c -> assertThat(c.candidates()).hasSize(1));
    String disrupted = r.commands().get(0).candidates().get(0);
    assertThat(events).containsExactly("Normal DisruptionTerminating Node/" + disrupted
        + ": Disrupting Node: Underutilized");
  }
}
