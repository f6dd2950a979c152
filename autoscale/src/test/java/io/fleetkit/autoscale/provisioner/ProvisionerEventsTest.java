package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.cluster.InstanceErrorClass;
import io.fleetkit.autoscale.cluster.InstanceErrorInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Karpenter's events as the provisioner records them (kubernetes-sigs/karpenter {@code
 * pkg/controllers/provisioning/scheduling/events.go} {@code NominatePodEvent} and {@code PodFailedToScheduleEvent},
 * published by {@code provisioner.go} and {@code Results.Record}; {@code pkg/controllers/disruption/events/events.go};
 * the deduplication of {@code pkg/events/recorder.go}). Each event is {@code "<type> <reason> <Kind>/<name>: <note>"}.
 * Upstream's own event-asserting cases are in {@link ProvisionerEventsUpstreamTest}.
 */
final class ProvisionerEventsTest {
  private static final long GI = 1024L * 1024 * 1024;
  private static final OwnerReference RS = new OwnerReference("apps/v1", "ReplicaSet", "web", "rs-1", true, true);
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
  /** Karpenter's requirements of every NodeClaim of NodePool {@code default}, before the pod's. */
  private static final String POOL =
      "karpenter.sh/initialized In [true], karpenter.sh/nodepool In [default], karpenter.sh/registered In [true]";
  private final EventLog log = new EventLog();
  private final List<String> events = log.events;
  private static final InstanceType LARGE = type("m.xlarge", 4000, 16, Map.of("kubernetes.io/arch", "amd64"),
      List.of(), 0.192);
  private static final InstanceType SMALL = type("m.large", 2000, 8, Map.of("kubernetes.io/arch", "amd64"),
      List.of(), 0.096);

  @AfterEach
  void close() {
    store.close();
  }

  private static InstanceType type(String name, long milliCpu, long memGi, Map<String, String> labels,
      List<Taint> taints, double price) {
    return new InstanceType(name, ResourceList.builder().put("cpu", Quantity.ofMilli(milliCpu))
        .put("memory", Quantity.ofBytes(memGi * GI)).put("pods", Quantity.of(110)).build(), labels, taints, price);
  }

  private Provisioner provisioner() {
    return provisioner(ProvisionerOptions.defaults(), LARGE);
  }

  private Provisioner provisioner(ProvisionerOptions options, InstanceType... types) {
    return Provisioner.builder(store).clock(clock).instanceTypes(List.of(types)).options(options).events(log).build();
  }

  private static Pod pod(String name, long milliCpu) {
    return Pod.builder().name(name).ownerReference(RS)
        .container("app", "img", ResourceList.ofCpuMemory(milliCpu, GI)).build();
  }

  private Node managed(String name, InstanceType t) {
    return store.create(Packer.node(t, name).toBuilder().label(Provisioner.MANAGED_LABEL, "default").build());
  }

  /** Opens a batch and closes it a second later; returns the second loop's result. */
  private ProvisionerResult batch(Provisioner p) {
    p.runOnce();
    clock.advance(Duration.ofSeconds(1));
    return p.runOnce();
  }

  // ---- provisioning ----

  @Test
  void launch_eachPackedPodNominatedToItsNewNode() {
    store.create(pod("a", 1000));
    store.create(pod("b", 1000));
    String node = batch(provisioner()).launched().keySet().iterator().next();

    assertThat(events).containsExactlyInAnyOrder(
        "Normal Nominated Pod/default/a: Pod should schedule on: nodeclaim/" + node,
        "Normal Nominated Pod/default/b: Pod should schedule on: nodeclaim/" + node);
  }

  @Test
  void launch_nominationsRateLimitedToABurstOfTen() {
    // PodNominationRateLimiter: a token bucket of 5 a second, bursts of 10, shared by all pods
    for (int i = 0; i < 12; i++) {
      store.create(pod("p" + i, 100));
    }
    ProvisionerResult r = batch(provisioner());
    assertThat(r.launched()).hasSize(1);
    assertThat(log.of("Nominated")).hasSize(10);
  }

  @Test
  void failedScheduling_podTooLargeForEveryType_warningWithKarpentersResourcesError() {
    store.create(pod("huge", 100_000));
    ProvisionerResult r = batch(provisioner());

    assertThat(r.unschedulablePods()).containsExactly("default/huge");
    assertThat(events).containsExactly("Warning FailedScheduling Pod/default/huge: Failed to schedule pod, no instance "
        + "type has enough resources, requirements=" + POOL
        + ", resources={\"cpu\":\"100\",\"memory\":\"1Gi\",\"pods\":\"1\"}");
  }

  @Test
  void failedScheduling_selectorNoTypeMatches_requirementsError() {
    store.create(pod("arm", 1000).toBuilder().nodeSelector("kubernetes.io/arch", "arm64").build());
    batch(provisioner());

    assertThat(events).containsExactly("Warning FailedScheduling Pod/default/arm: Failed to schedule pod, no instance "
        + "type met all requirements, requirements=" + POOL + ", "
        + "kubernetes.io/arch In [arm64], "
        + "resources={\"cpu\":\"1\",\"memory\":\"1Gi\",\"pods\":\"1\"}");
  }

  @Test
  void failedScheduling_neitherRequirementsNorResources_bothNamed() {
    store.create(pod("arm", 100_000).toBuilder().nodeSelector("kubernetes.io/arch", "arm64").build());
    batch(provisioner());

    assertThat(events).containsExactly("Warning FailedScheduling Pod/default/arm: Failed to schedule pod, no instance "
        + "type met the scheduling requirements or had enough resources, requirements=" + POOL + ", "
        + "kubernetes.io/arch In [arm64], "
        + "resources={\"cpu\":\"100\",\"memory\":\"1Gi\",\"pods\":\"1\"}");
  }

  @Test
  void failedScheduling_typesMeetEitherButNoneBoth_pairError() {
    // the amd64 type is too small, the large arm64 one has the room: no type meets both
    InstanceType arm = type("g.2xlarge", 8000, 32, Map.of("kubernetes.io/arch", "arm64"), List.of(), 0.3);
    store.create(pod("big", 6000).toBuilder().nodeSelector("kubernetes.io/arch", "amd64").build());
    batch(provisioner(ProvisionerOptions.defaults(), LARGE, arm));

    assertThat(events).containsExactly("Warning FailedScheduling Pod/default/big: Failed to schedule pod, no instance "
        + "type which had enough resources and the required offering met the scheduling requirements, "
        + "requirements=" + POOL + ", "
        + "kubernetes.io/arch In [amd64], resources={\"cpu\":\"6\",\"memory\":\"1Gi\",\"pods\":\"1\"}");
  }

  @Test
  void failedScheduling_everyTypeTainted_taintError() {
    InstanceType gpu = type("p.xlarge", 4000, 16, Map.of(), List.of(Taint.of("nvidia.com/gpu", "true",
        TaintEffect.NoSchedule), Taint.of("dedicated", "", TaintEffect.NoExecute)), 0.9);
    store.create(pod("a", 1000));
    batch(provisioner(ProvisionerOptions.defaults(), gpu));

    assertThat(events).containsExactly("Warning FailedScheduling Pod/default/a: Failed to schedule pod, did not "
        + "tolerate taint (taint=nvidia.com/gpu=true:NoSchedule); did not tolerate taint (taint=dedicated:NoExecute)");
  }

  @Test
  void failedScheduling_noOfferingLeft_nodepoolFilteredOutEveryType() {
    Provisioner p = Provisioner.builder(store).clock(clock).instanceType(LARGE).events(log)
        .instanceCreation((node, now) -> new InstanceErrorInfo(InstanceErrorClass.OUT_OF_RESOURCES, "ICE", "none"))
        .build();
    store.create(pod("a", 1000));
    assertThat(batch(p).launchFailures()).hasSize(1); // m.xlarge's offering is unavailable for 3 minutes
    assertThat(events).isEmpty();

    assertThat(batch(p).unschedulablePods()).containsExactly("default/a");
    assertThat(events).containsExactly("Warning FailedScheduling Pod/default/a: Failed to schedule pod, nodepool "
        + "requirements filtered out all available instance types");
  }

  @Test
  void failedScheduling_samePod_recordedOncePerFiveMinutes() {
    store.create(pod("huge", 100_000));
    Provisioner p = provisioner();
    batch(p);
    assertThat(events).hasSize(1);
    // every other loop closes a batch on the pod again; Karpenter's recorder drops the repeats for 5 minutes
    List<Integer> counts = new ArrayList<>();
    for (int i = 0; i < 299; i++) {
      clock.advance(Duration.ofSeconds(1));
      p.runOnce();
    }
    counts.add(events.size());
    clock.advance(Duration.ofSeconds(2));
    p.runOnce();
    p.runOnce();
    counts.add(events.size());
    assertThat(counts).containsExactly(1, 2);
    assertThat(events.get(1)).isEqualTo(events.get(0));
  }

  @Test
  void failedScheduling_recorderThrows_provisioningGoesOn() {
    EventRecorder broken = (regarding, related, type, reason, action, note) -> {
      throw new IllegalStateException("sink down");
    };
    store.create(pod("a", 1000));
    store.create(pod("huge", 100_000));
    Provisioner p = Provisioner.builder(store).clock(clock).instanceType(LARGE).events(broken).build();
    ProvisionerResult r = batch(p);
    assertThat(r.launched()).hasSize(1);
    assertThat(r.unschedulablePods()).containsExactly("default/huge");
  }

  // ---- disruption ----

  @Test
  void emptiness_emptyNodeDisruptionTerminating() {
    managed("n1", LARGE);
    managed("n2", LARGE);
    store.create(pod("a", 3000).toBuilder().nodeName("n1").build());

    provisioner().runOnce();

    assertThat(events).containsExactly("Normal DisruptionTerminating Node/n2: Disrupting Node: Empty");
  }

  @Test
  void consolidation_underutilizedNodeDisruptionTerminating() {
    managed("n1", LARGE);
    managed("n2", LARGE);
    store.create(pod("a", 2000).toBuilder().nodeName("n1").build());
    store.create(pod("b", 1000).toBuilder().nodeName("n2").build());

    ProvisionerResult r = provisioner().runOnce();

    assertThat(r.commands()).singleElement().satisfies(c -> assertThat(c.candidates()).hasSize(1));
    String disrupted = r.commands().get(0).candidates().get(0);
    assertThat(events).containsExactly("Normal DisruptionTerminating Node/" + disrupted
        + ": Disrupting Node: Underutilized");
  }

  @Test
  void replacement_launchingAndWaitingEachLook_terminatingOnceReady() {
    managed("big", LARGE);
    store.create(pod("a", 1500).toBuilder().nodeName("big").build());
    Provisioner p = provisioner(ProvisionerOptions.defaults().withStartupDelay(Duration.ofMinutes(3)), LARGE, SMALL);
    ProvisionerResult r = p.runOnce();
    String replacement = r.commands().get(0).replacement() == null ? null
        : store.list(Node.class).items().stream().map(Node::name).filter(n -> !n.equals("big")).findFirst()
            .orElseThrow();
    assertThat(events).containsExactly(
        "Normal DisruptionLaunching Node/" + replacement + ": Launching NodeClaim: Underutilized",
        "Normal DisruptionWaitingReadiness Node/" + replacement + ": Waiting on readiness to continue disruption");
    // looked at again within 2 minutes: the same events are dropped; after them, recorded again
    clock.advance(Duration.ofMinutes(1));
    p.runOnce();
    assertThat(events).hasSize(2);
    clock.advance(Duration.ofMinutes(1).plusSeconds(1));
    p.runOnce();
    assertThat(events).hasSize(4);
    // Ready at 3 minutes: Launching is still a repeat; the replaced node's termination begins
    clock.advance(Duration.ofSeconds(59));
    ProvisionerResult ready = p.runOnce();
    assertThat(ready.readyNodes()).containsExactly(replacement);
    assertThat(events.subList(4, events.size()))
        .containsExactly("Normal DisruptionTerminating Node/big: Disrupting Node: Underutilized");
  }

  @Test
  void blocked_notReadyNode_nodeIsntInitialized() {
    managed("n1", LARGE);
    store.create(Packer.node(LARGE, "down").toBuilder().label(Provisioner.MANAGED_LABEL, "default")
        .conditions(List.of()).build());
    store.create(pod("a", 3000).toBuilder().nodeName("n1").build());
    provisioner().runOnce();

    assertThat(log.of("DisruptionBlocked")).containsExactly(
        "Normal DisruptionBlocked Node/down: Node isn't initialized");
  }

  @Test
  void blocked_terminatingNode_deletingOrMarkedForDeletion_onceEveryTwoMinutes() {
    managed("n1", LARGE);
    managed("n2", LARGE);
    store.create(pod("a", 3000).toBuilder().nodeName("n1").build());
    // interrupted: n2's termination begins; its do-not-disrupt pod keeps the drain waiting (no grace period)
    Provisioner p = provisioner();
    assertThat(p.interrupt("n2")).isTrue();
    store.create(pod("b", 1000).toBuilder().nodeName("n2").annotation(Provisioner.DO_NOT_DISRUPT, "true").build());
    p.runOnce();
    assertThat(log.of("DisruptionBlocked")).containsExactly(
        "Normal DisruptionBlocked Node/n2: Node is deleting or marked for deletion");
    clock.advance(Duration.ofMinutes(2));
    p.runOnce();
    assertThat(log.of("DisruptionBlocked")).hasSize(1);
    clock.advance(Duration.ofSeconds(1));
    p.runOnce();
    assertThat(log.of("DisruptionBlocked")).hasSize(2);
  }

  @Test
  void blocked_podTheAutoscalerRulesKeep_fleetKitsNote() {
    managed("n1", LARGE);
    managed("n2", LARGE);
    store.create(pod("a", 3000).toBuilder().nodeName("n1").build());
    store.create(Pod.builder().name("bare").container("app", "img", ResourceList.ofCpuMemory(100, GI)).nodeName("n2")
        .build());
    provisioner().runOnce();

    assertThat(log.of("DisruptionBlocked")).containsExactly(
        "Normal DisruptionBlocked Node/n2: Pod cannot be evicted: NotReplicated (Pod=default/bare)");
  }

  @Test
  void unconsolidatable_podsFitNowhere_notAllPodsWouldSchedule() {
    // the node carries a label no instance type has: its pod can go nowhere else
    store.create(Packer.node(LARGE, "n1").toBuilder().label(Provisioner.MANAGED_LABEL, "default")
        .label("team", "a").build());
    store.create(pod("a", 500).toBuilder().nodeSelector("team", "a").nodeName("n1").build());
    provisioner(ProvisionerOptions.defaults(), LARGE, SMALL).runOnce();

    assertThat(events).containsExactly("Normal Unconsolidatable Node/n1: Not all pods would schedule, default/a => no "
        + "instance type met all requirements, requirements=" + POOL + ", "
        + "team In [a], "
        + "resources={\"cpu\":\"500m\",\"memory\":\"1Gi\",\"pods\":\"1\"} ");
  }

  @Test
  void unconsolidatable_replacementNotCheaper_cantReplaceWithACheaperNode_oncePerFifteenMinutes() {
    managed("n", SMALL); // already the cheapest that fits
    store.create(pod("a", 1500).toBuilder().nodeName("n").build());
    Provisioner p = provisioner(ProvisionerOptions.defaults(), LARGE, SMALL);
    p.runOnce();
    assertThat(events).containsExactly("Normal Unconsolidatable Node/n: Can't replace with a cheaper node");
    clock.advance(Duration.ofMinutes(15));
    p.runOnce();
    assertThat(events).hasSize(1);
    clock.advance(Duration.ofSeconds(1));
    p.runOnce();
    assertThat(events).hasSize(2);
  }

  @Test
  void unconsolidatable_podsNeedTwoNewNodes_cantRemoveWithoutCreatingTwo() {
    // the node has labels of two types: each of its pods needs one of them, no type has both
    InstanceType x = type("x.large", 2000, 8, Map.of("x", "1"), List.of(), 0.1);
    InstanceType y = type("y.large", 2000, 8, Map.of("y", "1"), List.of(), 0.1);
    store.create(Packer.node(LARGE, "n").toBuilder().label(Provisioner.MANAGED_LABEL, "default").label("x", "1")
        .label("y", "1").build());
    store.create(pod("a", 1000).toBuilder().nodeSelector("x", "1").nodeName("n").build());
    store.create(pod("b", 1000).toBuilder().nodeSelector("y", "1").nodeName("n").build());
    provisioner(ProvisionerOptions.defaults(), LARGE, x, y).runOnce();

    assertThat(events).containsExactly("Normal Unconsolidatable Node/n: Can't remove without creating 2 candidates");
  }
}
