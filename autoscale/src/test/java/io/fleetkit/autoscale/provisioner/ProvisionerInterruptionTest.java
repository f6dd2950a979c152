package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Provisioner#interrupt}: Karpenter's interruption handling of a spot interruption warning deletes the
 * NodeClaim at once, so the node is tainted and drained like any terminated node, whatever the NodePool's disruption
 * budgets (they limit voluntary disruption only).
 */
final class ProvisionerInterruptionTest {
  private static final long GI = 1024L * 1024 * 1024;
  private static final OwnerReference RS = new OwnerReference("apps/v1", "ReplicaSet", "web", "rs-1", true, true);
  private static final InstanceType LARGE = new InstanceType("m.large", ResourceList.builder()
      .put("cpu", Quantity.ofMilli(2000)).put("memory", Quantity.ofBytes(8 * GI)).put("pods", Quantity.of(110))
      .build(), Map.of("kubernetes.io/arch", "amd64"), List.of(), 0.096);

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private void launched(String name, String owner) {
    store.create(SimulatedNodes.launched(Packer.node(LARGE, name).toBuilder()
        .label(Provisioner.MANAGED_LABEL, owner).build(), clock.now(), Duration.ZERO));
  }

  private boolean tainted(String node) {
    return NodeTermination.isTainted(store.require(Node.class, "", node));
  }

  @Test
  void interrupt_managedNode_taintedAtOnce_drainedAndDeleted_evenWithAZeroBudget() {
    launched("n1", "default");
    store.create(Pod.builder().name("a").ownerReference(RS).nodeName("n1")
        .container("app", "img", ResourceList.ofCpuMemory(500, GI)).build());
    Provisioner p = Provisioner.builder(store).clock(clock).instanceType(LARGE)
        .options(ProvisionerOptions.defaults().withBudget(IntOrPercent.of(0))).build();

    assertThat(p.interrupt("n1")).isTrue();
    assertThat(tainted("n1")).isTrue();
    assertThat(p.interrupt("n1")).isFalse(); // already terminating
    ProvisionerResult r = p.runOnce();
    assertThat(r.drainEvents()).containsExactly(new DrainEvent("n1", "default/a", DrainEvent.Kind.EVICTED, ""));
    assertThat(Drains.drainLoop(store, clock, p).deletedNodes()).containsExactly("n1");
    assertThat(store.get(Node.class, "", "n1")).isEmpty();
  }

  @Test
  void interrupt_nodeNotThisProvisioners_orMissing_nothingStarted() {
    launched("other-1", "other");
    store.create(Packer.node(LARGE, "unmanaged"));
    Provisioner p = Provisioner.builder(store).clock(clock).instanceType(LARGE).build();

    assertThat(p.interrupt("other-1")).isFalse();
    assertThat(p.interrupt("unmanaged")).isFalse();
    assertThat(p.interrupt("missing")).isFalse();
    assertThat(tainted("other-1")).isFalse();
    assertThat(tainted("unmanaged")).isFalse();
  }

  private static InstanceType zoned(String name, String zone, double price) {
    return new InstanceType(name, LARGE.capacity(), Map.of(Provisioner.ZONE_LABEL, zone), List.of(), price);
  }

  /**
   * kubernetes-sigs/karpenter-provider-aws {@code pkg/controllers/interruption/controller.go}: a spot interruption
   * warning marks the node's offering (instance type in zone) in the unavailable-offerings cache, also when the node
   * is already terminating; the pods placed meanwhile get another offering.
   */
  @Test
  void interrupt_marksTheNodesOfferingUnavailable_forTheTtl_podsGoToAnotherOffering() {
    InstanceType cheap = zoned("cheap", "zone-a", 0.1);
    InstanceType dear = zoned("dear", "zone-b", 0.2);
    store.create(SimulatedNodes.launched(Packer.node(cheap, "n1").toBuilder()
        .label(Provisioner.MANAGED_LABEL, "default").build(), clock.now(), Duration.ZERO));
    Provisioner p = Provisioner.builder(store).clock(clock).instanceTypes(List.of(cheap, dear)).build();

    assertThat(p.interrupt("n1")).isTrue();
    assertThat(p.isUnavailable("cheap", "zone-a")).isTrue();
    assertThat(p.isUnavailable("dear", "zone-b")).isFalse();
    clock.advance(Duration.ofMinutes(2));
    assertThat(p.interrupt("n1")).isFalse(); // already terminating, but the warning marks the offering again
    store.create(Pod.builder().name("b").ownerReference(RS)
        .container("app", "img", ResourceList.ofCpuMemory(500, GI)).build());
    p.runOnce();
    clock.advance(Duration.ofSeconds(1));
    ProvisionerResult r = p.runOnce();
    assertThat(r.launched()).containsExactly(Map.entry("default-1", "dear"));
    clock.advance(Provisioner.UNAVAILABLE_OFFERINGS_TTL.minusSeconds(1)); // 3 min after the second warning
    assertThat(p.isUnavailable("cheap", "zone-a")).isTrue();
    clock.advance(Duration.ofNanos(1));
    assertThat(p.isUnavailable("cheap", "zone-a")).isFalse();
  }

  @Test
  void interrupt_nodeWithoutZone_noOfferingMarked() {
    launched("n1", "default");
    Provisioner p = Provisioner.builder(store).clock(clock).instanceType(LARGE).build();

    assertThat(p.interrupt("n1")).isTrue();
    assertThat(p.isUnavailable("m.large", "")).isFalse();
  }
}
