package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.batch.CronSchedule;
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
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The provisioner's expiration ({@link ProvisionerOptions#expireAfter}) and its budgets' schedules at the clock's
 * time. The cases marked "upstream" are Karpenter's {@code pkg/controllers/nodeclaim/expiration/suite_test.go}
 * (kubernetes-sigs/karpenter 2266468), a FleetKit node standing for its NodeClaim (the claim's creation is the node's
 * launch request).
 */
final class ProvisionerExpirationTest {
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

  private Provisioner provisioner(ProvisionerOptions options) {
    return Provisioner.builder(store).clock(clock).instanceType(LARGE).options(options).build();
  }

  private static ProvisionerOptions expireAfter(Duration d) {
    return ProvisionerOptions.defaults().withExpireAfter(d);
  }

  /** A node the provisioner named {@code owner} launched now (its NodeClaim created now). */
  private Node launched(String name, String owner) {
    return store.create(SimulatedNodes.launched(Packer.node(LARGE, name).toBuilder()
        .label(Provisioner.MANAGED_LABEL, owner).build(), clock.now(), Duration.ZERO));
  }

  private void bound(String name, String node, boolean doNotDisrupt) {
    Pod.Builder b = Pod.builder().name(name).ownerReference(RS).nodeName(node)
        .container("app", "img", ResourceList.ofCpuMemory(500, GI));
    if (doNotDisrupt) {
      b.annotation(Provisioner.DO_NOT_DISRUPT, "true");
    }
    store.create(b.build());
  }

  private boolean exists(String node) {
    return store.get(Node.class, "", node).isPresent();
  }

  private ProvisionerResult drainLoop(Provisioner p) {
    return Drains.drainLoop(store, clock, p);
  }

  @Test
  void expired_managedNode_deletedWithItsPods() {
    // upstream: "should remove nodeclaims that are expired" (expireAfter 30s, the clock stepped 60s)
    launched("n1", "default");
    bound("a", "n1", false);
    Provisioner p = provisioner(expireAfter(Duration.ofSeconds(30)));
    clock.advance(Duration.ofSeconds(60));
    ProvisionerResult r = p.runOnce();
    assertThat(r.expiredNodes()).containsExactly("n1");
    assertThat(r.deletedNodes()).isEmpty();
    assertThat(r.commands()).isEmpty();
    // terminated as any removed node: tainted, its pod evicted; deleted once drained
    assertThat(r.drainEvents()).containsExactly(new DrainEvent("n1", "default/a", DrainEvent.Kind.EVICTED, ""));
    assertThat(drainLoop(p).deletedNodes()).containsExactly("n1");
    assertThat(exists("n1")).isFalse();
    assertThat(store.list(Pod.class).items()).isEmpty();
  }

  @Test
  void expired_nodeOfAnotherProvisioner_ignored() {
    // upstream: "should ignore expired NodeClaims that are not managed by this Karpenter instance"
    launched("other-1", "other");
    store.create(Packer.node(LARGE, "unmanaged"));
    Provisioner p = provisioner(expireAfter(Duration.ofSeconds(30)));
    clock.advance(Duration.ofSeconds(60));
    assertThat(p.runOnce().expiredNodes()).isEmpty();
    assertThat(exists("other-1")).isTrue();
    assertThat(exists("unmanaged")).isTrue();
  }

  @Test
  void expirationDisabled_nodeKept() {
    // upstream: "should not remove the NodeClaims when expiration is disabled" (Never)
    launched("n1", "default");
    bound("a", "n1", false);
    Provisioner p = provisioner(expireAfter(null));
    clock.advance(Duration.ofDays(3650));
    assertThat(p.runOnce().expiredNodes()).isEmpty();
    assertThat(exists("n1")).isTrue();
  }

  @Test
  void notYetExpired_nodeKept_expiredFromTheInstantOn() {
    // upstream: "should not remove non-expired NodeClaims" (200s)
    launched("n1", "default");
    bound("a", "n1", false);
    Provisioner p = provisioner(expireAfter(Duration.ofSeconds(200)));
    assertThat(p.runOnce().expiredNodes()).isEmpty();
    // Karpenter's expiration time is creation + expireAfter, expired once the clock is not before it
    clock.advance(Duration.ofSeconds(200).minusNanos(1));
    assertThat(p.runOnce().expiredNodes()).isEmpty();
    assertThat(exists("n1")).isTrue();
    clock.advance(Duration.ofNanos(1));
    assertThat(p.runOnce().expiredNodes()).containsExactly("n1");
  }

  @Test
  void expired_claimOlderThanItsNode_countsFromTheClaim() {
    // upstream: "should delete NodeClaims if the nodeClaim is expired but the node isn't": the launch request (the
    // claim) is 60s old, the node object was created just now
    Node requested = SimulatedNodes.launched(Packer.node(LARGE, "n1").toBuilder()
        .label(Provisioner.MANAGED_LABEL, "default").build(), clock.now(), Duration.ZERO);
    clock.advance(Duration.ofSeconds(60));
    store.create(requested);
    assertThat(store.require(Node.class, "", "n1").metadata().creationTimestamp()).isEqualTo(clock.now());
    assertThat(provisioner(expireAfter(Duration.ofSeconds(30))).runOnce().expiredNodes()).containsExactly("n1");
    // a node that carries no launch request counts from its creation
    store.create(Packer.node(LARGE, "n2").toBuilder().label(Provisioner.MANAGED_LABEL, "default").build());
    bound("b", "n2", false); // not empty, so that consolidation leaves it
    Provisioner p = provisioner(expireAfter(Duration.ofSeconds(30)));
    assertThat(p.runOnce().expiredNodes()).isEmpty();
    clock.advance(Duration.ofSeconds(30));
    assertThat(p.runOnce().expiredNodes()).containsExactly("n2");
  }

  @Test
  void expired_nodeHeldByAFinalizer_expiredOnce() {
    // upstream: "shouldn't expire the same NodeClaim multiple times" (a finalizer keeps it after its deletion)
    Node n = launched("n1", "default");
    store.update(n.withMetadata(n.metadata().toBuilder().finalizer("example.com/hold").build()));
    Provisioner p = provisioner(expireAfter(Duration.ofSeconds(30)));
    clock.advance(Duration.ofSeconds(60));
    assertThat(p.runOnce().expiredNodes()).containsExactly("n1");
    ProvisionerResult drained = drainLoop(p);
    assertThat(drained.expiredNodes()).as("being terminated: not expired again").isEmpty();
    assertThat(drained.deletedNodes()).containsExactly("n1");
    assertThat(store.require(Node.class, "", "n1").metadata().deletionTimestamp()).isNotNull();
    assertThat(p.runOnce().expiredNodes()).isEmpty();
  }

  @Test
  void expiration_isForceful_notBlockedByBudgetsOrDoNotDisrupt_theDrainWaitsOnThePod() {
    launched("n1", "default");
    bound("keep", "n1", true);
    Provisioner p = provisioner(expireAfter(Duration.ofHours(2)).withBudget(IntOrPercent.of(0)));
    clock.advance(Duration.ofHours(2));
    ProvisionerResult r = p.runOnce();
    assertThat(r.expiredNodes()).containsExactly("n1");
    // without a terminationGracePeriod the drain waits on the do-not-disrupt pod as long as it takes
    clock.advance(Duration.ofDays(1));
    ProvisionerResult later = p.runOnce();
    assertThat(later.deletedNodes()).isEmpty();
    assertThat(later.drainEvents()).isEmpty();
    assertThat(store.require(Pod.class, "default", "keep").metadata().deletionTimestamp()).isNull();
    assertThat(exists("n1")).isTrue();
  }

  @Test
  void expiration_defaultIs720h_andTheRecreatedPodsGetANewNode() {
    assertThat(ProvisionerOptions.defaults().expireAfter()).isEqualTo(Duration.ofHours(720));
    launched("default-1", "default");
    bound("a", "default-1", false);
    Provisioner p = provisioner(ProvisionerOptions.defaults());
    clock.advance(Duration.ofHours(720).minusSeconds(1));
    assertThat(p.runOnce().expiredNodes()).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    ProvisionerResult r = p.runOnce();
    assertThat(r.expiredNodes()).containsExactly("default-1");
    assertThat(r.launched()).isEmpty(); // nothing launched ahead of the pods
    // the pod's controller recreates it: pending, it is provisioned a new node when its batch closes
    store.create(Pod.builder().name("a-2").ownerReference(RS).container("app", "img",
        ResourceList.ofCpuMemory(500, GI)).build());
    p.runOnce();
    clock.advance(Duration.ofSeconds(1));
    assertThat(p.runOnce().launched()).hasSize(1).containsValue("m.large");
    assertThatThrownBy(() -> expireAfter(Duration.ofSeconds(-1)))
        .hasMessageContaining("expireAfter PT-1S must not be negative");
  }

  @Test
  void scheduledBudget_blocksConsolidationOnlyWithinItsWindow() {
    // no disruption from 17:00 for 16 hours (UTC): consolidation may run from 09:00 to 17:00 only
    launched("n1", "default");
    launched("n2", "default");
    DisruptionBudget nights = new DisruptionBudget(IntOrPercent.of(0), Set.of(),
        CronSchedule.parse("TZ=UTC 0 17 * * *"), Duration.ofHours(16));
    Provisioner p = provisioner(ProvisionerOptions.defaults().withBudgets(List.of(DisruptionBudget.of(
        IntOrPercent.ofPercent(100)), nights)));
    // 2026-01-01 00:00: within the window opened at 17:00 the day before
    assertThat(p.runOnce().commands()).isEmpty();
    clock.advance(Duration.ofHours(9).minusSeconds(1)); // 08:59:59, the window's last second
    assertThat(p.runOnce().commands()).isEmpty();
    assertThat(exists("n1")).isTrue();
    clock.advance(Duration.ofSeconds(1)); // 09:00: the window (of the 17:00 hit 16 hours ago) has closed
    ProvisionerResult r = p.runOnce();
    assertThat(r.commands()).singleElement().satisfies(c -> {
      assertThat(c.method()).isEqualTo("Emptiness");
      assertThat(c.candidates()).containsExactlyInAnyOrder("n1", "n2");
    });
    assertThat(drainLoop(p).deletedNodes()).containsExactlyInAnyOrder("n1", "n2");
  }
}
