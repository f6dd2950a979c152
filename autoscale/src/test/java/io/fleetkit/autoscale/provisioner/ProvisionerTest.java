package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

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
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class ProvisionerTest {
  private static final long GI = 1024L * 1024 * 1024;
  private static final OwnerReference RS = new OwnerReference("apps/v1", "ReplicaSet", "web", "rs-1", true, true);

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private static ResourceList res(long milliCpu, long memGi) {
    return ResourceList.builder().put("cpu", Quantity.ofMilli(milliCpu)).put("memory", Quantity.ofBytes(memGi * GI))
        .put("pods", Quantity.of(110)).build();
  }

  private static InstanceType type(String name, long milliCpu, long memGi, double price, String arch) {
    return new InstanceType(name, res(milliCpu, memGi), Map.of("kubernetes.io/arch", arch), List.of(), price);
  }

  private static final List<InstanceType> TYPES = List.of(
      type("m.large", 2000, 8, 0.096, "amd64"),
      type("m.xlarge", 4000, 16, 0.192, "amd64"),
      type("c.xlarge", 4000, 8, 0.17, "amd64"),
      type("m.2xlarge", 8000, 32, 0.384, "amd64"),
      type("g.xlarge", 4000, 16, 0.154, "arm64"));

  private Provisioner provisioner(ProvisionerOptions options) {
    return Provisioner.builder(store).clock(clock).instanceTypes(TYPES).options(options).build();
  }

  private Provisioner provisioner() {
    return provisioner(ProvisionerOptions.defaults());
  }

  private static Pod pod(String name, long milliCpu, long memGi) {
    return Pod.builder().name(name).ownerReference(RS)
        .container("app", "img", ResourceList.ofCpuMemory(milliCpu, memGi * GI)).build();
  }

  private Map<String, String> runAfterBatch(Provisioner p) {
    p.runOnce();
    clock.advance(Duration.ofSeconds(1));
    return p.runOnce().launched();
  }

  @Test
  void provision_threePods_launchOneNodeOfTheCheapestFittingType() {
    for (int i = 0; i < 3; i++) {
      store.create(pod("p" + i, 1000, 2));
    }
    // 3000m / 6Gi: m.large (2 cpu) is too small; c.xlarge 0.17 is the cheapest of c.xlarge, g.xlarge? no: g.xlarge
    // is arm64 and 0.154 -- the pods have no arch constraint, so the arm type is the cheapest that fits.
    Map<String, String> launched = runAfterBatch(provisioner());
    assertThat(launched).hasSize(1);
    assertThat(launched.values()).containsExactly("g.xlarge");
  }

  @Test
  void provision_nodeSelector_restrictsTypes_cheapestCompatibleWins() {
    for (int i = 0; i < 3; i++) {
      store.create(pod("p" + i, 1000, 2).toBuilder().nodeSelector("kubernetes.io/arch", "amd64").build());
    }
    Map<String, String> launched = runAfterBatch(provisioner());
    assertThat(launched.values()).containsExactly("c.xlarge"); // 0.17 < m.xlarge 0.192
    Node n = store.require(Node.class, "", launched.keySet().iterator().next());
    assertThat(n.metadata().labels()).containsEntry(Provisioner.INSTANCE_TYPE_LABEL, "c.xlarge")
        .containsEntry("kubernetes.io/arch", "amd64").containsEntry(Provisioner.MANAGED_LABEL, "default");
    assertThat(n.isReady()).isTrue();
  }

  @Test
  void provision_memoryHeavyPods_skipTheCpuOptimisedType() {
    store.create(pod("db", 1000, 12).toBuilder().nodeSelector("kubernetes.io/arch", "amd64").build());
    assertThat(runAfterBatch(provisioner()).values()).containsExactly("m.xlarge"); // c.xlarge has 8Gi only
  }

  @Test
  void provision_podFittingNoType_isReportedUnschedulable() {
    store.create(pod("huge", 64000, 1));
    Provisioner p = provisioner();
    p.runOnce();
    clock.advance(Duration.ofSeconds(1));
    ProvisionerResult r = p.runOnce();
    assertThat(r.launched()).isEmpty();
    assertThat(r.unschedulablePods()).containsExactly("default/huge");
  }

  @Test
  void batch_closesOneSecondAfterTheLastNewPod() {
    Provisioner p = provisioner();
    store.create(pod("a", 1000, 1));
    assertThat(p.runOnce().batchOpen()).isTrue();
    clock.advance(Duration.ofMillis(500));
    store.create(pod("b", 1000, 1));
    assertThat(p.runOnce().batchOpen()).isTrue();
    clock.advance(Duration.ofMillis(700)); // 1.2 s since a, 0.7 s since b
    ProvisionerResult still = p.runOnce();
    assertThat(still.batchOpen()).isTrue();
    assertThat(still.launched()).isEmpty();
    clock.advance(Duration.ofMillis(300));
    ProvisionerResult r = p.runOnce();
    assertThat(r.batchOpen()).isFalse();
    assertThat(r.launched()).hasSize(1); // both pods on one node
  }

  @Test
  void batch_closesAfterTenSecondsEvenWhilePodsKeepComing() {
    Provisioner p = provisioner();
    int i = 0;
    for (long ms = 0; ms < 10_000; ms += 900) {
      store.create(pod("p" + i++, 100, 1));
      assertThat(p.runOnce().launched()).as("at %d ms", ms).isEmpty();
      clock.advance(Duration.ofMillis(900));
    }
    // 10.8 s after the first pod: the 10 s window is over
    assertThat(p.runOnce().launched()).isNotEmpty();
  }

  @Test
  void provision_startingNodeCounts_noSecondLaunch() {
    store.create(pod("a", 1000, 1));
    Provisioner p = provisioner(ProvisionerOptions.defaults().withStartupDelay(Duration.ofMinutes(2)));
    assertThat(runAfterBatch(p)).hasSize(1);
    clock.advance(Duration.ofSeconds(30));
    ProvisionerResult r = p.runOnce();
    assertThat(r.launched()).isEmpty();
    assertThat(r.batchOpen()).isFalse();
    clock.advance(Duration.ofMinutes(2));
    assertThat(p.runOnce().readyNodes()).hasSize(1);
  }

  /**
   * Karpenter's NodeClaim liveness ({@code pkg/controllers/nodeclaim/lifecycle/liveness.go}, {@code registrationTTL}
   * 15 min): a launched node not Ready 15 minutes after its request (its machine held, as in a zone outage) is deleted
   * in the loop at that instant, not before, and its pod gets a node of its own again.
   */
  @Test
  void startup_aNodeNotReadyWithinTheRegistrationTtl_isDeleted_andItsPodGetsAnother() {
    store.create(pod("a", 1000, 1));
    Provisioner p = provisioner(ProvisionerOptions.defaults().withStartupDelay(Duration.ofMinutes(2)));
    String first = runAfterBatch(p).keySet().iterator().next();
    Node held = store.require(Node.class, "", first);
    store.update(held.toBuilder().annotation(SimulatedNodes.READY_AT, "9999-12-31T23:59:59Z").build());
    clock.advance(Provisioner.REGISTRATION_TTL.minusSeconds(1)); // a second short of 15 min after the request
    ProvisionerResult before = p.runOnce();
    assertThat(before.timedOutNodes()).isEmpty();
    assertThat(before.readyNodes()).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    ProvisionerResult r = p.runOnce();
    assertThat(r.timedOutNodes()).containsExactly(first);
    assertThat(r.deletedNodes()).isEmpty(); // not a consolidation
    assertThat(store.get(Node.class, "", first)).isEmpty();
    // the pod is pending again: a new batch, a new node
    clock.advance(Duration.ofSeconds(1));
    Map<String, String> again = p.runOnce().launched();
    assertThat(again).hasSize(1).doesNotContainKey(first);
  }

  // ---- consolidation ----

  private Node managed(String name, String type) {
    InstanceType t = TYPES.stream().filter(x -> x.name().equals(type)).findFirst().orElseThrow();
    return store.create(Packer.node(t, name).toBuilder().label(Provisioner.MANAGED_LABEL, "default").build());
  }

  private void bound(String name, long milliCpu, long memGi, String node) {
    store.create(pod(name, milliCpu, memGi).toBuilder().nodeName(node).build());
  }

  private ProvisionerResult drainLoop(Provisioner p) {
    return Drains.drainLoop(store, clock, p);
  }

  private boolean tainted(String node) {
    return NodeTermination.isTainted(store.require(Node.class, "", node));
  }

  @Test
  void consolidation_emptyNode_isDeleted() {
    managed("n1", "m.xlarge");
    managed("n2", "m.xlarge");
    bound("a", 3000, 1, "n1");
    Provisioner p = provisioner();
    ProvisionerResult r = p.runOnce();
    assertThat(r.commands()).singleElement().satisfies(c -> {
      assertThat(c.method()).isEqualTo("Emptiness");
      assertThat(c.candidates()).containsExactly("n2");
    });
    // terminated: tainted at once, deleted once Karpenter's minimum drain time has passed
    assertThat(r.deletedNodes()).isEmpty();
    assertThat(tainted("n2")).isTrue();
    assertThat(drainLoop(p).deletedNodes()).containsExactly("n2");
  }

  /**
   * Karpenter's Balanced policy (kubernetes-sigs/karpenter {@code pkg/controllers/disruption/balanced.go}): the move
   * WhenEmptyOrUnderutilized makes here (n1's 3700m pod onto a g.xlarge, 0.038 an hour saved of 0.384) saves 10 % of
   * the pool's cost for a third of its disruption (n1: 1 + 1 pod of 6), a score of 0.30; replacing n2 by an m.large
   * scores 0.375. Both are under 1/k = 0.5, so Balanced makes no move.
   */
  @Test
  void consolidation_balanced_marginalReplacementsRejected() {
    managed("n1", "m.xlarge");
    managed("n2", "m.xlarge");
    bound("a", 3700, 1, "n1");
    for (int i = 0; i < 3; i++) {
      bound("b" + i, 400, 1, "n2");
    }
    ProvisionerResult balanced = provisioner(ProvisionerOptions.defaults().withPolicy(ConsolidationPolicy.Balanced))
        .runOnce();
    assertThat(balanced.commands()).isEmpty();
    assertThat(tainted("n1")).isFalse();
    assertThat(tainted("n2")).isFalse();

    // the same cluster under the default policy
    ProvisionerResult r = provisioner().runOnce();
    assertThat(r.commands()).singleElement().satisfies(c -> {
      assertThat(c.method()).isEqualTo("SingleNodeConsolidation");
      assertThat(c.candidates()).containsExactly("n1");
      assertThat(c.replacement()).isEqualTo("g.xlarge");
    });
  }

  @Test
  void consolidation_balanced_deleteThatSavesHalfThePoolForHalfItsDisruption_approved() {
    managed("n1", "m.xlarge");
    managed("n2", "m.xlarge");
    bound("a", 1000, 1, "n1");
    bound("b", 2500, 1, "n2");
    ProvisionerResult r = provisioner(ProvisionerOptions.defaults().withPolicy(ConsolidationPolicy.Balanced))
        .runOnce();
    // n1's deletion: 0.192 of 0.384 saved (0.5) for 2 of 4 disruption (0.5): a score of 1
    assertThat(r.commands()).singleElement().satisfies(c -> {
      assertThat(c.method()).isEqualTo("SingleNodeConsolidation");
      assertThat(c.candidates()).containsExactly("n1");
      assertThat(c.isReplace()).isFalse();
    });
  }

  @Test
  void consolidation_podsFitElsewhere_deletesTheNode() {
    managed("n1", "m.xlarge");
    managed("n2", "m.xlarge");
    bound("a", 1000, 1, "n1");
    bound("b", 2500, 1, "n2");
    Provisioner p = provisioner();
    ProvisionerResult r = p.runOnce();
    // n1 and n2 save as much per unit of disruption (one pod each): by name, n1 first; its pod fits next to b on n2
    assertThat(r.commands()).singleElement().satisfies(c -> {
      assertThat(c.method()).isEqualTo("SingleNodeConsolidation");
      assertThat(c.candidates()).containsExactly("n1");
      assertThat(c.isReplace()).isFalse();
    });
    assertThat(r.drainEvents()).containsExactly(new DrainEvent("n1", "default/a", DrainEvent.Kind.EVICTED, ""));
    assertThat(store.require(Pod.class, "default", "a").metadata().deletionTimestamp()).as("evicted").isNotNull();
    assertThat(drainLoop(p).deletedNodes()).containsExactly("n1");
    assertThat(store.get(Node.class, "", "n1")).isEmpty();
    assertThat(store.get(Pod.class, "default", "a")).isEmpty();
  }

  @Test
  void consolidation_replacesWithAStrictlyCheaperNode() {
    managed("big", "m.2xlarge"); // 0.384
    bound("a", 1500, 4, "big");
    Provisioner p = provisioner();
    ProvisionerResult r = p.runOnce();
    // the pod fits m.large (2 cpu, 8Gi) at 0.096
    assertThat(r.commands()).singleElement().satisfies(c -> {
      assertThat(c.replacement()).isEqualTo("m.large");
      assertThat(c.savingsPerHour()).isCloseTo(0.384 - 0.096, within(1e-9));
    });
    assertThat(drainLoop(p).deletedNodes()).containsExactly("big");
    assertThat(store.get(Node.class, "", "big")).isEmpty();
    assertThat(store.list(Node.class).items()).extracting(n -> n.metadata().labels().get(
        Provisioner.INSTANCE_TYPE_LABEL)).containsExactly("m.large");
  }

  @Test
  void consolidation_neverReplacesWithTheSamePrice() {
    managed("n", "m.large"); // already the cheapest that fits
    bound("a", 1500, 4, "n");
    ProvisionerResult r = provisioner().runOnce();
    assertThat(r.commands()).isEmpty();
    assertThat(store.get(Node.class, "", "n")).isPresent();
  }

  private void threeBusyNodes() {
    for (String n : List.of("n1", "n2", "n3")) {
      managed(n, "m.xlarge"); // 3 x 0.192 = 0.576
    }
    // amd64 only, so the cheaper arm type is out; 1900m each: one more fits next to one of them, not two
    for (String[] pn : new String[][] {{"a", "n1"}, {"b", "n2"}, {"c", "n3"}}) {
      store.create(pod(pn[0], 1900, 2).toBuilder().nodeSelector("kubernetes.io/arch", "amd64").nodeName(pn[1])
          .build());
    }
  }

  @Test
  void consolidation_multiNode_replacesThreeNodesWithOneCheaper() {
    threeBusyNodes();
    Provisioner p = provisioner(ProvisionerOptions.defaults().withBudget(IntOrPercent.ofPercent(100)));
    ProvisionerResult r = p.runOnce();
    // binary search: 2 nodes can go (one pod moves, the other gets an m.large 0.096 < 0.384); 3 nodes too: the
    // three pods (5700m) need one m.2xlarge at 0.384 < 0.576, the longest prefix wins
    assertThat(r.commands()).singleElement().satisfies(c -> {
      assertThat(c.method()).isEqualTo("MultiNodeConsolidation");
      assertThat(c.candidates()).containsExactlyInAnyOrder("n1", "n2", "n3");
      assertThat(c.replacement()).isEqualTo("m.2xlarge");
      assertThat(c.savingsPerHour()).isCloseTo(0.576 - 0.384, within(1e-9));
    });
    assertThat(drainLoop(p).deletedNodes()).containsExactlyInAnyOrder("n1", "n2", "n3");
    assertThat(store.list(Node.class).items()).hasSize(1);
  }

  @Test
  void consolidation_replacementWaitsUntilReady() {
    managed("big", "m.2xlarge");
    bound("a", 1500, 4, "big");
    Provisioner p = provisioner(ProvisionerOptions.defaults().withStartupDelay(Duration.ofMinutes(1)));
    ProvisionerResult r = p.runOnce();
    assertThat(r.commands()).hasSize(1);
    assertThat(r.deletedNodes()).isEmpty();
    assertThat(store.get(Node.class, "", "big")).isPresent();
    clock.advance(Duration.ofMinutes(1));
    ProvisionerResult done = p.runOnce();
    assertThat(done.readyNodes()).hasSize(1);
    assertThat(done.deletedNodes()).isEmpty();
    assertThat(tainted("big")).as("its termination began").isTrue();
    assertThat(drainLoop(p).deletedNodes()).containsExactly("big");
  }

  @Test
  void disruptionBudget_default10Percent_limitsEmptyNodesPerLoop() {
    for (int i = 0; i < 10; i++) {
      managed("n" + i, "m.large");
    }
    Provisioner p = provisioner();
    assertThat(p.runOnce().commands().get(0).candidates()).hasSize(1); // ceil(10% of 10)
    // a node being terminated counts against the budget until it is gone
    assertThat(provisioner().runOnce().commands()).isEmpty();
    assertThat(drainLoop(p).deletedNodes()).hasSize(1);
    Provisioner q = provisioner();
    assertThat(q.runOnce().commands().get(0).candidates()).hasSize(1); // ceil(10% of 9)
    assertThat(drainLoop(q).deletedNodes()).hasSize(1);
    ProvisionerResult half = provisioner(ProvisionerOptions.defaults().withBudget(IntOrPercent.ofPercent(50)))
        .runOnce();
    assertThat(half.commands().get(0).candidates()).hasSize(4); // ceil(50% of 8)
  }

  @Test
  void disruptionBudget_limitsConsolidationToOneNodeOfThree() {
    threeBusyNodes();
    // ceil(10% of 3) = 1: no multi-node command; one node goes, its pod moving next to another one
    Provisioner p = provisioner();
    ProvisionerResult r = p.runOnce();
    assertThat(r.commands()).singleElement().satisfies(c -> {
      assertThat(c.method()).isEqualTo("SingleNodeConsolidation");
      assertThat(c.candidates()).hasSize(1);
      assertThat(c.replacement()).isNull();
    });
    assertThat(drainLoop(p).deletedNodes()).hasSize(1);
    assertThat(store.list(Node.class).items()).hasSize(2);
  }

  @Test
  void consolidation_doNotDisruptAnnotation_protectsTheNode() {
    managed("n1", "m.xlarge");
    managed("n2", "m.xlarge");
    store.create(pod("a", 500, 1).toBuilder().nodeName("n1").annotation(Provisioner.DO_NOT_DISRUPT, "true").build());
    bound("b", 500, 1, "n2");
    ProvisionerResult r = provisioner().runOnce();
    assertThat(r.commands()).singleElement().satisfies(c -> assertThat(c.candidates()).containsExactly("n2"));
    assertThat(store.get(Node.class, "", "n1")).isPresent();
  }

  @Test
  void builder_withoutTypes_orDuplicateNames_isRejected() {
    assertThatThrownBy(() -> Provisioner.builder(store).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one instance type");
    assertThatThrownBy(() -> Provisioner.builder(store).instanceType(TYPES.get(0)).instanceType(TYPES.get(0)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("m.large is listed twice");
  }

  @Test
  void startingNode_isReadyOnlyAfterItsDelay() {
    store.create(pod("a", 1000, 1));
    Provisioner p = provisioner(ProvisionerOptions.defaults().withStartupDelay(Duration.ofMinutes(3)));
    String node = runAfterBatch(p).keySet().iterator().next();
    assertThat(SimulatedNodes.isStarting(store.require(Node.class, "", node))).isTrue();
    clock.advance(Duration.ofSeconds(179));
    assertThat(p.runOnce().readyNodes()).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    assertThat(p.runOnce().readyNodes()).containsExactly(node);
    assertThat(store.require(Node.class, "", node).isReady()).isTrue();
  }

  @Test
  void batchDurations_set_closeTheBatchAtTheirTimes() {
    Provisioner p = provisioner(ProvisionerOptions.defaults().withBatchDurations(Duration.ofMinutes(1),
        Duration.ofMinutes(2)));
    store.create(pod("a", 1000, 1));
    assertThat(p.runOnce().batchOpen()).isTrue();
    clock.advance(Duration.ofSeconds(59));
    assertThat(p.runOnce().launched()).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    assertThat(p.runOnce().launched()).hasSize(1);
    // the maximum closes a batch whose pods keep coming: a new pod every 50 s never lets the idle minute pass
    for (int i = 0; i < 2; i++) {
      store.create(pod("b" + i, 3000, 1));
      assertThat(p.runOnce().launched()).as("pod %d", i).isEmpty();
      clock.advance(Duration.ofSeconds(50));
    }
    store.create(pod("b2", 3000, 1));
    assertThat(p.runOnce().launched()).isEmpty(); // 100 s since the batch opened
    clock.advance(Duration.ofSeconds(20));
    assertThat(p.runOnce().launched()).isNotEmpty(); // 120 s: the 2-minute maximum
    assertThatThrownBy(() -> ProvisionerOptions.defaults().withBatchDurations(Duration.ofSeconds(-1),
        Duration.ofSeconds(10))).hasMessageContaining("batchIdleDuration PT-1S and batchMaxDuration PT10S must not be "
        + "negative");
  }

  @Test
  void batchIdleAboveMax_theMaximumClosesTheBatch() {
    // Karpenter checks both windows; an idle window longer than the maximum one never ends a batch
    Provisioner p = provisioner(ProvisionerOptions.defaults().withBatchDurations(Duration.ofMinutes(5),
        Duration.ofSeconds(30)));
    store.create(pod("a", 1000, 1));
    assertThat(p.runOnce().batchOpen()).isTrue();
    clock.advance(Duration.ofSeconds(29));
    assertThat(p.runOnce().launched()).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    assertThat(p.runOnce().launched()).hasSize(1);
  }

  @Test
  void budgets_theMostRestrictiveOfThoseForTheReasonCounts() {
    ProvisionerOptions o = ProvisionerOptions.defaults().withBudgets(List.of(
        DisruptionBudget.of(IntOrPercent.ofPercent(50)),
        new DisruptionBudget(IntOrPercent.of(2), java.util.Set.of(DisruptionReason.Empty)),
        new DisruptionBudget(IntOrPercent.of(0), java.util.Set.of(DisruptionReason.Drifted))));
    assertThat(o.allowedDisruptions(10, DisruptionReason.Empty, Instant.EPOCH)).isEqualTo(2);
    assertThat(o.allowedDisruptions(10, DisruptionReason.Underutilized, Instant.EPOCH)).isEqualTo(5);
    assertThat(o.allowedDisruptions(3, DisruptionReason.Underutilized, Instant.EPOCH)).isEqualTo(2); // 1.5 rounded up
    assertThat(o.allowedDisruptions(10, DisruptionReason.Drifted, Instant.EPOCH)).isZero();
    assertThat(ProvisionerOptions.defaults().withBudgets(List.of()).allowedDisruptions(10,
        DisruptionReason.Empty, Instant.EPOCH)).isEqualTo(Integer.MAX_VALUE);
    for (int i = 0; i < 10; i++) {
      managed("n" + i, "m.large");
    }
    Provisioner p = provisioner(o);
    assertThat(p.runOnce().commands().get(0).candidates()).hasSize(2);
    // a budget for drift alone limits nothing the provisioner does: every empty node not yet terminated goes
    assertThat(provisioner(ProvisionerOptions.defaults().withBudgets(List.of(new DisruptionBudget(IntOrPercent.of(0),
        java.util.Set.of(DisruptionReason.Drifted))))).runOnce().commands().get(0).candidates()).hasSize(8);
    assertThat(drainLoop(p).deletedNodes()).hasSize(2);
    assertThatThrownBy(() -> DisruptionBudget.of(IntOrPercent.of(-1))).hasMessageContaining("must not be negative");
  }

  @Test
  void budgetZero_blocksEmptinessAndConsolidation() {
    threeBusyNodes();
    managed("idle", "m.xlarge");
    ProvisionerOptions zero = ProvisionerOptions.defaults().withBudget(IntOrPercent.of(0));
    ProvisionerResult r = provisioner(zero).runOnce();
    assertThat(r.commands()).isEmpty();
    assertThat(store.list(Node.class).items()).hasSize(4);
    assertThat(provisioner(ProvisionerOptions.defaults().withBudget(IntOrPercent.ofPercent(0))).runOnce().commands())
        .isEmpty();
    // with the default 10% the empty node goes first
    assertThat(provisioner().runOnce().commands()).singleElement()
        .satisfies(c -> assertThat(c.candidates()).containsExactly("idle"));
  }

  @Test
  void budgetZeroForEmpty_consolidationStillRemovesTheEmptyNodes() {
    // Karpenter's consolidation takes empty nodes among its candidates, under the Underutilized budget
    managed("n1", "m.xlarge");
    managed("n2", "m.xlarge");
    ProvisionerResult r = provisioner(ProvisionerOptions.defaults().withBudgets(List.of(
        new DisruptionBudget(IntOrPercent.of(0), java.util.Set.of(DisruptionReason.Empty)),
        new DisruptionBudget(IntOrPercent.ofPercent(100), java.util.Set.of(DisruptionReason.Underutilized)))))
        .runOnce();
    assertThat(r.commands()).singleElement().satisfies(c -> {
      assertThat(c.method()).isEqualTo("MultiNodeConsolidation");
      assertThat(c.candidates()).containsExactlyInAnyOrder("n1", "n2");
    });
    // under WhenEmpty there is no consolidation to do it
    managed("n3", "m.xlarge");
    assertThat(provisioner(ProvisionerOptions.defaults().withPolicy(ConsolidationPolicy.WhenEmpty).withBudgets(
        List.of(new DisruptionBudget(IntOrPercent.of(0), java.util.Set.of(DisruptionReason.Empty))))).runOnce()
        .commands()).isEmpty();
  }

  @Test
  void whenEmpty_leavesUnderutilizedNodes() {
    threeBusyNodes();
    ProvisionerOptions all = ProvisionerOptions.defaults().withBudget(IntOrPercent.ofPercent(100));
    assertThat(provisioner(all.withPolicy(ConsolidationPolicy.WhenEmpty)).runOnce().commands()).isEmpty();
    assertThat(provisioner(all).runOnce().commands()).singleElement()
        .satisfies(c -> assertThat(c.method()).isEqualTo("MultiNodeConsolidation"));
  }

  @Test
  void consolidateAfter_waitsThatLongAfterTheNodesLastPodEvent() {
    managed("n1", "m.xlarge");
    managed("n2", "m.xlarge");
    store.create(pod("keep", 3000, 1).toBuilder().nodeName("n2").annotation(Provisioner.DO_NOT_DISRUPT, "true")
        .build());
    Provisioner p = provisioner(ProvisionerOptions.defaults().withConsolidateAfter(Duration.ofMinutes(1)));
    assertThat(p.runOnce().commands()).isEmpty(); // first seen Ready now
    clock.advance(Duration.ofSeconds(30));
    bound("a", 500, 1, "n1"); // a pod event at 30 s
    assertThat(p.runOnce().commands()).isEmpty();
    clock.advance(Duration.ofSeconds(20));
    store.delete(Pod.class, "default", "a"); // and another at 50 s: n1 is empty again
    assertThat(p.runOnce().commands()).isEmpty();
    clock.advance(Duration.ofSeconds(59));
    assertThat(p.runOnce().commands()).isEmpty(); // 59 s after the last pod event
    clock.advance(Duration.ofSeconds(1));
    assertThat(p.runOnce().commands()).singleElement().satisfies(c -> {
      assertThat(c.method()).isEqualTo("Emptiness");
      assertThat(c.candidates()).containsExactly("n1");
    });
  }

  @Test
  void consolidateAfterNever_consolidatesNothingButStillProvisions() {
    threeBusyNodes();
    managed("idle", "m.xlarge");
    Provisioner p = provisioner(ProvisionerOptions.defaults().withConsolidateAfter(null)
        .withBudget(IntOrPercent.ofPercent(100)));
    clock.advance(Duration.ofHours(1));
    assertThat(p.runOnce().commands()).isEmpty();
    store.create(pod("new", 5000, 1)); // fits on none of the nodes
    assertThat(runAfterBatch(p)).hasSize(1);
    assertThatThrownBy(() -> ProvisionerOptions.defaults().withConsolidateAfter(Duration.ofSeconds(-1)))
        .hasMessageContaining("consolidateAfter PT-1S must not be negative");
  }
}
