package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Karpenter's event-asserting disruption cases (kubernetes-sigs/karpenter at 2266468104f36373ed002241afaee2d3bbc26078),
 * through {@link Provisioner#runOnce()} with one managed node (FleetKit's nodes are their own NodeClaims: upstream's
 * events on the Node and the NodeClaim are one event on the node here, and Karpenter's recorder deduplicates the
 * repeats upstream's test recorder counts):
 * <ul>
 *   <li>{@code pkg/controllers/disruption/suite_test.go}, "Candidate Filtering" ({@code NewCandidate}'s
 *       {@code DisruptionBlocked} notes). Upstream's pods there have no owner; FleetKit also applies the cluster
 *       autoscaler's drain rules, under which an unowned pod blocks as {@code NotReplicated}, so the ported pods are
 *       owned by a ReplicaSet (a Node for the mirror pod, a DaemonSet for the DaemonSet pod, as upstream).
 *   <li>{@code pkg/controllers/disruption/consolidation_test.go}, Context "Events" ({@code Unconsolidatable}).
 *   <li>{@code pkg/controllers/disruption/queue_test.go} ({@code DisruptionLaunching},
 *       {@code DisruptionWaitingReadiness}, {@code DisruptionTerminating}); upstream's Drift commands are consolidation
 *       commands here (reason Underutilized): FleetKit has no drift.
 * </ul>
 */
final class ProvisionerEventsUpstreamTest {
  private static final long GI = 1024L * 1024 * 1024;
  private static final OwnerReference RS = new OwnerReference("apps/v1", "ReplicaSet", "web", "rs-1", true, true);
  private static final InstanceType EXPENSIVE = new InstanceType("m.2xlarge", ResourceList.builder()
      .put("cpu", Quantity.ofMilli(8000)).put("memory", Quantity.ofBytes(32 * GI)).put("pods", Quantity.of(110))
      .build(), Map.of(), List.of(), 0.384);
  private static final InstanceType CHEAP = new InstanceType("m.large", ResourceList.builder()
      .put("cpu", Quantity.ofMilli(2000)).put("memory", Quantity.ofBytes(8 * GI)).put("pods", Quantity.of(110))
      .build(), Map.of(), List.of(), 0.096);

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
  private final EventLog log = new EventLog();

  @AfterEach
  void close() {
    store.close();
  }

  private Provisioner provisioner(ProvisionerOptions options) {
    return Provisioner.builder(store).clock(clock).instanceTypes(List.of(EXPENSIVE, CHEAP)).options(options)
        .events(log).build();
  }

  private Provisioner provisioner() {
    return provisioner(ProvisionerOptions.defaults());
  }

  private Node node(UnaryOperator<Node.Builder> edit) {
    return store.create(edit.apply(Packer.node(EXPENSIVE, "node").toBuilder()
        .label(Provisioner.MANAGED_LABEL, "default")).build());
  }

  private Node node() {
    return node(b -> b);
  }

  private Pod pod(String name, UnaryOperator<Pod.Builder> edit) {
    return store.create(edit.apply(Pod.builder().name(name).ownerReference(RS).nodeName("node")
        .container("app", "img", ResourceList.ofCpuMemory(1000, GI))).build());
  }

  private void blockingPdb(String name, Map<String, String> labels) {
    store.create(PodDisruptionBudget.of(ObjectMeta.of("default", name),
        PodDisruptionBudgetSpec.maxUnavailable(LabelSelector.of(labels), IntOrPercent.ZERO)));
  }

  private void assertBlocked(Provisioner p, String note) {
    ProvisionerResult r = p.runOnce();
    assertThat(r.commands()).isEmpty();
    assertThat(NodeTermination.isTainted(store.require(Node.class, "", "node"))).isFalse();
    assertThat(log.events).containsExactly("Normal DisruptionBlocked Node/node: " + note);
  }

  // ---- suite_test.go, Candidate Filtering ----

  @Test
  // upstream: "should not consider candidates that have do-not-disrupt pods scheduled and no terminationGracePeriod"
  void shouldNotConsiderCandidatesThatHaveDoNotDisruptPodsScheduledAndNoTerminationGracePeriod() {
    node();
    pod("pod", b -> b.annotation(Provisioner.DO_NOT_DISRUPT, "true"));
    assertBlocked(provisioner(), "Pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=default/pod)");
  }

  @Test
  // upstream: "should not consider candidates that have do-not-disrupt mirror pods scheduled"
  void shouldNotConsiderCandidatesThatHaveDoNotDisruptMirrorPodsScheduled() {
    Node n = node();
    pod("mirror", b -> Pod.builder().name("mirror").nodeName("node")
        .ownerReference(new OwnerReference("v1", "Node", n.name(), n.metadata().uid(), true, false))
        .annotation(Provisioner.DO_NOT_DISRUPT, "true")
        .container("app", "img", ResourceList.ofCpuMemory(1000, GI)));
    assertBlocked(provisioner(), "Pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=default/mirror)");
  }

  @Test
  // upstream: "should not consider candidates that have do-not-disrupt daemonset pods scheduled"
  void shouldNotConsiderCandidatesThatHaveDoNotDisruptDaemonsetPodsScheduled() {
    node();
    pod("ds", b -> Pod.builder().name("ds").nodeName("node")
        .ownerReference(new OwnerReference("apps/v1", "DaemonSet", "ds", "ds-1", true, true))
        .annotation(Provisioner.DO_NOT_DISRUPT, "true")
        .container("app", "img", ResourceList.ofCpuMemory(1000, GI)));
    assertBlocked(provisioner(), "Pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=default/ds)");
  }

  @Test
  // upstream: "should not consider candidates that have do-not-disrupt pods scheduled with a terminationGracePeriod set for graceful disruption"
  void shouldNotConsiderCandidatesThatHaveDoNotDisruptPodsScheduledWithATerminationGracePeriodForGracefulDisruption() {
    node();
    pod("pod", b -> b.annotation(Provisioner.DO_NOT_DISRUPT, "true"));
    // consolidation is graceful: the NodePool's terminationGracePeriod does not make the node a candidate
    assertBlocked(provisioner(ProvisionerOptions.defaults().withTerminationGracePeriod(Duration.ofSeconds(300))),
        "Pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=default/pod)");
  }

  @Test
  // upstream: "should not consider candidates that have PDB-blocked pods scheduled with a terminationGracePeriod set for graceful disruption"
  void shouldNotConsiderCandidatesThatHavePdbBlockedPodsScheduledWithATerminationGracePeriodSetForGracefulDisruption() {
    node();
    pod("pod", b -> b.label("test", "value"));
    blockingPdb("pdb", Map.of("test", "value"));
    assertBlocked(provisioner(ProvisionerOptions.defaults().withTerminationGracePeriod(Duration.ofSeconds(300))),
        "Pdb prevents pod evictions (PodDisruptionBudget=[default/pdb])");
  }

  @Test
  // upstream: "should not consider candidates that have do-not-disrupt on nodes"
  void shouldNotConsiderCandidatesThatHaveDoNotDisruptOnNodes() {
    node(b -> b.annotation(Provisioner.DO_NOT_DISRUPT, "true"));
    assertBlocked(provisioner(), "Disruption is blocked through the \"karpenter.sh/do-not-disrupt\" annotation");
  }

  @Test
  // upstream: "should not consider candidates that have multiple PDBs on the same pod"
  void shouldNotConsiderCandidatesThatHaveMultiplePdbsOnTheSamePod() {
    node();
    pod("pod", b -> b.label("test", "value"));
    blockingPdb("pdb1", Map.of("test", "value"));
    blockingPdb("pdb2", Map.of("test", "value"));
    assertBlocked(provisioner(),
        "Eviction does not support multiple PDBs (PodDisruptionBudget(s)=[default/pdb1 default/pdb2])");
  }

  @Test
  // upstream: "should not consider candidates that have fully blocking PDBs"
  void shouldNotConsiderCandidatesThatHaveFullyBlockingPdbs() {
    node();
    pod("pod", b -> b.label("test", "value"));
    blockingPdb("pdb", Map.of("test", "value"));
    assertBlocked(provisioner(), "Pdb prevents pod evictions (PodDisruptionBudget=[default/pdb])");
  }

  @Test
  // upstream: "should not consider candidates that have do-not-disrupt pods without a terminationGracePeriod set for graceful disruption"
  void shouldNotConsiderCandidatesThatHaveDoNotDisruptPodsWithoutATerminationGracePeriodSetForGracefulDisruption() {
    node();
    pod("pod", b -> b.annotation(Provisioner.DO_NOT_DISRUPT, "true"));
    assertBlocked(provisioner(ProvisionerOptions.defaults().withTerminationGracePeriod(null)),
        "Pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=default/pod)");
  }

  @Test
  // upstream: "should not consider candidates that have fully blocking PDBs without a terminationGracePeriod set for graceful disruption"
  void shouldNotConsiderCandidatesThatHaveFullyBlockingPdbsWithoutATerminationGracePeriodSetForGracefulDisruption() {
    node();
    pod("pod", b -> b.label("test", "value"));
    blockingPdb("pdb", Map.of("test", "value"));
    assertBlocked(provisioner(ProvisionerOptions.defaults().withTerminationGracePeriod(null)),
        "Pdb prevents pod evictions (PodDisruptionBudget=[default/pdb])");
  }

  @Test
  // upstream: "should not consider candidates that are nominated"
  void shouldNotConsiderCandidatesThatAreNominated() {
    node();
    // upstream nominates the node in its cluster state; here a pending pod that fits it does
    store.create(Pod.builder().name("pending").ownerReference(RS)
        .container("app", "img", ResourceList.ofCpuMemory(1000, GI)).build());
    assertBlocked(provisioner(), "Node is nominated for a pending pod");
  }

  // ---- consolidation_test.go, Events ----

  @Test
  // upstream: "should not fire an event for ConsolidationDisabled when the NodePool has consolidation set to WhenEmptyOrUnderutilized"
  void shouldNotFireAnEventForConsolidationDisabledWhenTheNodePoolHasConsolidationSetToWhenEmptyOrUnderutilized() {
    node();
    provisioner(ProvisionerOptions.defaults().withPolicy(ConsolidationPolicy.WhenEmptyOrUnderutilized)
        .withConsolidateAfter(Duration.ZERO)).runOnce();
    assertThat(log.of(Provisioner.UNCONSOLIDATABLE)).isEmpty();
    assertThat(log.events).containsExactly("Normal DisruptionTerminating Node/node: Disrupting Node: Empty");
  }

  @Test
  // upstream: "should fire an event for ConsolidationDisabled when the NodePool has consolidation set to WhenEmpty"
  void shouldFireAnEventForConsolidationDisabledWhenTheNodePoolHasConsolidationSetToWhenEmpty() {
    node();
    pod("pod", b -> b);
    Provisioner p = provisioner(ProvisionerOptions.defaults().withPolicy(ConsolidationPolicy.WhenEmpty)
        .withConsolidateAfter(Duration.ofMinutes(1)));
    p.runOnce();
    // upstream counts 4: MultiNode and SingleNode consolidation, on the Node and the NodeClaim; deduplicated here
    assertThat(log.events).containsExactly("Normal Unconsolidatable Node/node: NodePool \"default\" has consolidation "
        + "policy WhenEmpty, but node is not empty");
  }

  @Test
  // upstream: "should fire an event for ConsolidationDisabled when the NodePool has consolidateAfter set to 'Never'"
  void shouldFireAnEventForConsolidationDisabledWhenTheNodePoolHasConsolidateAfterSetToNever() {
    node();
    pod("pod", b -> b);
    provisioner(ProvisionerOptions.defaults().withConsolidateAfter(null)).runOnce();
    // upstream counts 6: Emptiness, MultiNode and SingleNode, on the Node and the NodeClaim
    assertThat(log.events).containsExactly(
        "Normal Unconsolidatable Node/node: NodePool \"default\" has consolidation disabled");
  }

  @Test
  // upstream: "should fire an event when a candidate does not have a resolvable instance type"
  void shouldFireAnEventWhenACandidateDoesNotHaveAResolvableInstanceType() {
    // upstream deletes the instance-type label from the node and its NodeClaim
    store.create(Node.builder().name("node").label(Provisioner.MANAGED_LABEL, "default")
        .capacity(EXPENSIVE.capacity()).ready().build());
    pod("pod", b -> b);
    provisioner().runOnce();
    assertThat(log.events).containsExactly("Normal Unconsolidatable Node/node: Instance Type \"\" not found");
  }

  // ---- queue_test.go ----

  @Test
  // upstream: "should fully handle a command when replacements are initialized"
  void shouldFullyHandleACommandWhenReplacementsAreInitialized() {
    node();
    pod("pod", b -> b);
    Provisioner p = provisioner(ProvisionerOptions.defaults().withStartupDelay(Duration.ofSeconds(30)));
    ProvisionerResult r = p.runOnce();
    assertThat(r.commands()).singleElement().satisfies(c -> assertThat(c.replacement()).isEqualTo("m.large"));
    String replacement = store.list(Node.class).items().stream().map(Node::name).filter(x -> !x.equals("node"))
        .findFirst().orElseThrow();
    assertThat(log.events).containsExactly(
        "Normal DisruptionLaunching Node/" + replacement + ": Launching NodeClaim: Underutilized",
        "Normal DisruptionWaitingReadiness Node/" + replacement + ": Waiting on readiness to continue disruption");
    assertThat(NodeTermination.isTainted(store.require(Node.class, "", "node"))).isFalse();

    clock.advance(Duration.ofSeconds(30));
    assertThat(p.runOnce().readyNodes()).containsExactly(replacement);
    assertThat(log.events).hasSize(3).last()
        .isEqualTo("Normal DisruptionTerminating Node/node: Disrupting Node: Underutilized");
    assertThat(NodeTermination.isTainted(store.require(Node.class, "", "node"))).isTrue();
  }

  @Test
  // upstream: "should not wait for replacements when none are needed"
  void shouldNotWaitForReplacementsWhenNoneAreNeeded() {
    node();
    store.create(Packer.node(EXPENSIVE, "other").toBuilder().label(Provisioner.MANAGED_LABEL, "default").build());
    pod("pod", b -> b);
    store.create(Pod.builder().name("busy").ownerReference(RS).nodeName("other")
        .container("app", "img", ResourceList.ofCpuMemory(6000, GI)).build());
    ProvisionerResult r = provisioner().runOnce();
    // the pod fits next to "busy": a delete, terminated at once
    assertThat(r.commands()).singleElement().satisfies(c -> assertThat(c.isReplace()).isFalse());
    assertThat(log.events).containsExactly("Normal DisruptionTerminating Node/node: Disrupting Node: Underutilized");
  }
}
