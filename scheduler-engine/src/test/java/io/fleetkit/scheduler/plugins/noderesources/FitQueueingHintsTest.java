package io.fleetkit.scheduler.plugins.noderesources;

import static io.fleetkit.scheduler.plugins.noderesources.Fixtures.res;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.scheduler.plugins.helper.ParkedPod;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The queueing hints of {@link NodeResourcesFitPlugin} ({@link FitQueueingHints}), ported from kubernetes
 * {@code pkg/scheduler/framework/plugins/noderesources/fit_test.go}; upstream's {@code Queue} is {@code true},
 * {@code QueueSkip} {@code false}, and wrong-object cases keep their {@code Queue} answer (FleetKit's hints return no
 * error beside it).
 * <ul>
 *   <li>TestEventsToRegister: 1 of 5 — FleetKit's one configuration is upstream's with InPlacePodVerticalScaling and
 *       queueing hints on (Pod Delete|UpdatePodScaleDown, Node Add|UpdateNodeAllocatable); the gate-off variants and
 *       the DRA extended-resource ones have no counterpart.
 *   <li>Test_isSchedulableAfterPodChange (isSchedulableAfterPodEvent): 11 of 12 — not ported:
 *       "skip-queue-on-disable-inplace-pod-vertical-scaling" (no such switch: in-place resizes always count). The 3
 *       pod-level-resource cases are from commit 24fbb13e.
 *   <li>Test_isSchedulableAfterNodeChange: 9 of 9.
 *   <li>TestIsFit: 6 of 7 — "nil node" (the hint is never handed a missing node) is not ported; the 4
 *       pod-level-resource cases are from commit 24fbb13e (their pods request hugepages, which FleetKit, as the API
 *       server, only accepts with an equal limit, so the pods here carry one).
 *   <li>TestHaveAnyRequestedResourcesIncreased: 7 of 10 — the 3 DRA extended-resource cases are not ported.
 * </ul>
 * Upstream's nodes from {@code st.MakeNode().Capacity(..)} always allow 32 pods, so the nodes here do too; its pods
 * are told apart by UID, here by namespace and name. Then the hints at work in the scheduler.
 */
final class FitQueueingHintsTest {
  private static final String A = "example.com/aaa";
  private static final String B = "example.com/bbb";
  private static final NodeResourcesFitPlugin PLUGIN = new NodeResourcesFitPlugin();
  private static final FitQueueingHints HINTS = PLUGIN.hints();

  /** Upstream's {@code st.MakePod().Name(name).Req(requests)}, bound to {@code node} when not empty. */
  private static Pod pod(String name, String node, ResourceList requests) {
    return Pod.builder().name(name).nodeName(node).container("c", "pause", requests).build();
  }

  /** Upstream's {@code st.MakeNode().Capacity(resources)}: 32 pods plus {@code resources}. */
  private static Node node(String... nameQuantity) {
    ResourceList.Builder b = ResourceList.builder();
    boolean pods = false;
    for (int i = 0; i < nameQuantity.length; i += 2) {
      b.put(nameQuantity[i], nameQuantity[i + 1]);
      pods |= nameQuantity[i].equals("pods");
    }
    if (!pods) {
      b.put("pods", "32");
    }
    ResourceList r = b.build();
    return Node.builder().name("node").capacity(r).allocatable(r).build();
  }

  /** Upstream's {@code st.MakePod().Name(name).PodLevelResourceRequests(requests)}, bound to {@code node}. */
  private static Pod podLevel(String name, String node, ResourceList requests) {
    Pod p = pod(name, node, ResourceList.EMPTY);
    return p.withSpec(p.spec().toBuilder().resources(ResourceRequirements.ofRequests(requests)).build());
  }

  private static Pod memA(String memory, String a) {
    return pod("p", "", res("memory", memory, A, a));
  }

  // ---------------------------------------------------------------- TestEventsToRegister

  @Test
  void eventsToRegister_podDeleteAndScaleDown_nodeAddAndAllocatable() {
    assertThat(PLUGIN.eventsToRegister()).containsExactlyInAnyOrder(ClusterEvent.ASSIGNED_POD_DELETE,
        ClusterEvent.ASSIGNED_POD_UPDATE, ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE,
        ClusterEvent.TARGET_POD_UPDATE_SCALE_DOWN);
  }

  // ---------------------------------------------------------------- Test_isSchedulableAfterPodChange

  record PodCase(String name, Pod pod, @Nullable Object oldObj, @Nullable Object newObj, boolean queue) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<PodCase> podCases() {
    Pod pod1 = pod("pod1", "", res("cpu", "1"));
    return Stream.of(
        new PodCase("backoff-wrong-old-object", pod("p", "", ResourceList.EMPTY), "not-a-pod", null, true),
        new PodCase("backoff-wrong-new-object", pod("p", "", ResourceList.EMPTY), null, "not-a-pod", true),
        new PodCase("queue-on-other-pod-deleted", pod1, pod("pod2", "fake", res("cpu", "1")), null, true),
        new PodCase("skip-queue-on-unscheduled-pod-deleted", pod("p", "", ResourceList.EMPTY),
            pod("q", "", ResourceList.EMPTY), null, false),
        new PodCase("skip-queue-on-other-unscheduled-pod", pod1, pod("pod2", "", res("cpu", "2")),
            pod("pod2", "", res("cpu", "1")), false),
        new PodCase("skip-queue-on-other-pod-unrelated-resource-scaled-down", pod1,
            pod("pod2", "fake", res("memory", "2")), pod("pod2", "fake", res("memory", "1")), false),
        new PodCase("queue-on-other-pod-some-resource-scale-down", pod1, pod("pod2", "fake", res("cpu", "2")),
            pod("pod2", "fake", res("cpu", "1")), true),
        new PodCase("queue-on-target-pod-some-resource-scale-down", pod1, pod("pod1", "", res("cpu", "2")),
            pod("pod1", "", res("cpu", "1")), true),
        new PodCase("skip-queue-on-other-pod-unrelated-pod-level-resource-scaled-down",
            podLevel("pod1", "", res("cpu", "1")), podLevel("pod2", "fake", res("memory", "2")),
            podLevel("pod2", "fake", res("memory", "1")), false),
        new PodCase("queue-on-other-pod-some-pod-level-resource-scale-down", podLevel("pod1", "", res("cpu", "1")),
            podLevel("pod2", "fake", res("cpu", "2")), podLevel("pod2", "fake", res("cpu", "1")), true),
        new PodCase("queue-on-target-pod-some-pod-level-resource-scale-down", podLevel("pod1", "", res("cpu", "1")),
            podLevel("pod1", "", res("cpu", "2")), podLevel("pod1", "", res("cpu", "1")), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podCases")
  void isSchedulableAfterPodEvent(PodCase c) {
    // the target pod's own scale-down is the event the queue sends for it (upstream's TargetPod/UpdatePodScaleDown)
    boolean own = c.newObj() instanceof Pod n && n.metadata().key().equals(c.pod().metadata().key());
    ClusterEvent event = own ? ClusterEvent.TARGET_POD_UPDATE_SCALE_DOWN
        : c.newObj() == null ? ClusterEvent.ASSIGNED_POD_DELETE : ClusterEvent.ASSIGNED_POD_UPDATE;
    assertThat(PLUGIN.isSchedulableAfter(c.pod(), event, c.oldObj(), c.newObj())).isEqualTo(c.queue());
  }

  @Test
  void isSchedulableAfterPodEvent_deletedNominatedPod_queues() {
    // upstream's rule beside its table: an unbound pod counts when it was nominated to a node
    Pod nominated = pod("q", "", res("cpu", "1")).withStatus(PodStatus.PENDING.withNominatedNodeName("node"));
    assertThat(HINTS.afterPodEvent(pod("p", "", res("cpu", "1")), nominated, null)).isTrue();
  }

  // ---------------------------------------------------------------- Test_isSchedulableAfterNodeChange

  record NodeCase(String name, Pod pod, @Nullable Object oldObj, @Nullable Object newObj, boolean queue) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<NodeCase> nodeCases() {
    Pod empty = pod("p", "", ResourceList.EMPTY);
    return Stream.of(
        new NodeCase("backoff-wrong-new-object", empty, null, "not-a-node", true),
        new NodeCase("backoff-wrong-old-object", empty, "not-a-node", node(), true),
        new NodeCase("skip-queue-on-node-add-without-sufficient-resources", pod("p", "", res("memory", "2")), null,
            node("memory", "1"), false),
        new NodeCase("skip-queue-on-node-add-without-required-resource-type", pod("p", "", res(A, "1")), null,
            node(B, "1"), false),
        new NodeCase("queue-on-node-add-with-sufficient-resources", memA("2", "1"), null, node("memory", "4", A, "2"),
            true),
        new NodeCase("skip-queue-on-node-unrelated-changes", memA("2", "1"), node("memory", "2", A, "2"),
            node("memory", "2", A, "1", B, "2"), false),
        new NodeCase("queue-on-pod-requested-resources-increase", memA("2", "1"), node("memory", "2", A, "1"),
            node("memory", "2", A, "2"), true),
        new NodeCase("skip-queue-on-node-changes-from-suitable-to-unsuitable", memA("2", "1"),
            node("memory", "4", A, "2"), node("memory", "1", A, "2"), false),
        new NodeCase("queue-on-node-changes-from-unsuitable-to-suitable", memA("2", "1"), node("memory", "1", A, "2"),
            node("memory", "4", A, "2"), true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nodeCases")
  void isSchedulableAfterNodeChange(NodeCase c) {
    ClusterEvent event = c.oldObj() == null ? ClusterEvent.NODE_ADD : ClusterEvent.NODE_UPDATE;
    assertThat(PLUGIN.isSchedulableAfter(c.pod(), event, c.oldObj(), c.newObj())).isEqualTo(c.queue());
  }

  @Test
  void isSchedulableAfterNodeChange_ignoredExtendedResourceDoesNotKeepThePodParked() {
    NodeResourcesFitPlugin ignoring = new NodeResourcesFitPlugin(
        new NodeResourcesFitArgs(Set.of(A), Set.of(), ScoringStrategy.DEFAULT));
    assertThat(ignoring.isSchedulableAfter(memA("2", "1"), ClusterEvent.NODE_ADD, null, node("memory", "4")))
        .as("Filter does not check %s, so neither does the hint", A).isTrue();
    assertThat(PLUGIN.isSchedulableAfter(memA("2", "1"), ClusterEvent.NODE_ADD, null, node("memory", "4")))
        .isFalse();
  }

  // ---------------------------------------------------------------- TestIsFit

  @Test
  void isFit_insufficientResource() {
    assertThat(HINTS.isFit(pod("p", "", res("cpu", "2")), node("cpu", "1"))).isFalse();
  }

  @Test
  void isFit_sufficientResource() {
    assertThat(HINTS.isFit(pod("p", "", res("cpu", "1")), node("cpu", "2"))).isTrue();
  }

  @Test
  void isFit_insufficientPodLevelResource() {
    assertThat(HINTS.isFit(podLevel("p", "", res("cpu", "2")), node("cpu", "1"))).isFalse();
  }

  @Test
  void isFit_sufficientPodLevelResource() {
    assertThat(HINTS.isFit(podLevel("p", "", res("cpu", "2")), node("cpu", "2"))).isTrue();
  }

  @Test
  void isFit_sufficientPodLevelResourceHugepages() {
    assertThat(HINTS.isFit(podLevel("p", "", res("hugepages-2Mi", "2Mi")), node("hugepages-2Mi", "2Mi"))).isTrue();
  }

  @Test
  void isFit_insufficientPodLevelResourceHugepages() {
    assertThat(HINTS.isFit(podLevel("p", "", res("hugepages-2Mi", "4Mi")), node("hugepages-2Mi", "2Mi")))
        .isFalse();
  }

  // ---------------------------------------------------------------- TestHaveAnyRequestedResourcesIncreased

  record IncreaseCase(String name, ResourceList podRequest, Node before, Node after, boolean expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** Upstream's framework.Resource{MilliCPU, Memory, EphemeralStorage, ScalarResources{A}}. */
  private static ResourceList request(long milliCpu, long memory, long storage, long a) {
    return Fixtures.resource(milliCpu, memory, storage, A, Long.toString(a));
  }

  static Stream<IncreaseCase> increaseCases() {
    Node all1 = node("pods", "1", "cpu", "1", "memory", "1", "ephemeral-storage", "1", A, "1");
    Node base = node("cpu", "1", "memory", "2", "ephemeral-storage", "3", A, "4");
    return Stream.of(
        new IncreaseCase("no-requested-resources", ResourceList.EMPTY, all1,
            node("pods", "1", "cpu", "2", "memory", "2", "ephemeral-storage", "2", A, "2"), false),
        new IncreaseCase("no-requested-resources-pods-increased", ResourceList.EMPTY, all1,
            node("pods", "2", "cpu", "1", "memory", "1", "ephemeral-storage", "1", A, "1"), true),
        new IncreaseCase("scalar-resources-not-in-node", request(2, 2, 2, 2),
            node("cpu", "1", "memory", "2", "ephemeral-storage", "3"),
            node("cpu", "1", "memory", "2", "ephemeral-storage", "1"), false),
        new IncreaseCase("requested-resources-decreased", request(2, 2, 2, 2), base,
            node("cpu", "1", "memory", "2", "ephemeral-storage", "1", A, "1"), false),
        new IncreaseCase("requested-resources-increased", request(2, 2, 2, 2), base,
            node("cpu", "3", "memory", "4", "ephemeral-storage", "3", A, "4"), true),
        new IncreaseCase("non-requested-resources-decreased", Fixtures.resource(2, 2, 0), base,
            node("cpu", "1", "memory", "2", "ephemeral-storage", "1", A, "1"), false),
        new IncreaseCase("non-requested-resources-increased", Fixtures.resource(2, 2, 0), base,
            node("cpu", "1", "memory", "2", "ephemeral-storage", "5", A, "6"), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("increaseCases")
  void haveAnyRequestedResourcesIncreased(IncreaseCase c) {
    assertThat(HINTS.anyRequestedResourceIncreased(pod("p", "", c.podRequest()), c.before(), c.after()))
        .isEqualTo(c.expected());
  }

  // ---------------------------------------------------------------- in the scheduler

  private static final ResourceList CAPACITY = ResourceList.builder().put("cpu", "2").put("memory", "8Gi")
      .put("pods", "110").build();

  private static Node node1(ResourceList capacity) {
    return Node.builder().name("node1").ready().capacity(capacity).build();
  }


  /** {@code app} (1 cpu) parked because {@code big} (2 cpu) fills node1's 2 cpus; {@code small} uses memory. */
  private static ParkedPod parked() {
    return ParkedPod.park(List.of(node1(CAPACITY)),
        List.of(pod("big", "node1", res("cpu", "2")), pod("small", "node1", res("memory", "1Gi"))),
        pod("app", "", res("cpu", "1")), NodeResourcesFitPlugin.NAME, NodeResourcesFitPlugin.REASON_INSUFFICIENT_CPU);
  }

  private static Pod resized(Pod pod, ResourceList requests) {
    Container c = pod.spec().containers().get(0);
    return pod.withSpec(pod.spec().toBuilder()
        .containers(List.of(c.withResources(ResourceRequirements.ofRequests(requests)))).build());
  }

  private static Pod current(ParkedPod p, String name) {
    return p.store().require(Pod.class, "default", name);
  }

  @Test
  void scheduler_parkedPodIgnoresUnrelatedChanges_andIsRetriedWhenABoundPodScalesDownItsCpu() {
    try (ParkedPod p = parked()) {
      int attempts = p.attempts();

      p.updateNode("node1", n -> n.annotation("heartbeat", "1").label("unrelated", "x"));
      p.resizePod(resized(current(p, "small"), res("memory", "512Mi")));
      p.updatePod(current(p, "big").toBuilder().label("app", "big").build());

      assertThat(p.attempts()).as("node labels, a memory scale-down, a pod's labels do not retry it")
          .isEqualTo(attempts);

      p.resizePod(resized(current(p, "big"), res("cpu", "1")));

      assertThat(p.boundNode()).isEqualTo("node1");
    }
  }

  @Test
  void scheduler_parkedPodIsRetriedWhenTheNodeGainsCpu() {
    try (ParkedPod p = parked()) {
      ResourceList more = ResourceList.builder().put("cpu", "3").put("memory", "8Gi").put("pods", "110").build();
      p.updateNode("node1", n -> n.capacity(more).allocatable(more));

      assertThat(p.boundNode()).isEqualTo("node1");
    }
  }

  @Test
  void scheduler_parkedPodIsRetriedWhenABoundPodIsDeleted() {
    try (ParkedPod p = parked()) {
      p.store().delete(Pod.class, "default", "big", DeleteOptions.gracePeriod(0)); // gone, not terminating
      p.run();

      assertThat(p.boundNode()).isEqualTo("node1");
    }
  }

  /**
   * The scenario of upstream's integration case "Pod rejected by the NodeResourcesFit plugin is requeued when the Pod
   * is updated to scale down" ({@code test/integration/scheduler/queueing/queue.go}), with a label first.
   */
  @Test
  void scheduler_parkedPodIgnoresItsOwnLabel_andIsRetriedWhenItAsksForLessCpu() {
    try (ParkedPod p = ParkedPod.park(List.of(node1(CAPACITY)), List.of(pod("big", "node1", res("cpu", "1"))),
        pod("app", "", res("cpu", "2")), NodeResourcesFitPlugin.NAME, NodeResourcesFitPlugin.REASON_INSUFFICIENT_CPU)) {
      int attempts = p.attempts();

      p.updatePod(current(p, "app").toBuilder().label("tier", "batch").build());

      assertThat(p.attempts()).as("its own label is nothing NodeResourcesFit registered").isEqualTo(attempts);

      p.resizePod(resized(current(p, "app"), res("cpu", "1"))); // TARGET_POD_UPDATE_SCALE_DOWN

      assertThat(p.boundNode()).isEqualTo("node1");
    }
  }
}
