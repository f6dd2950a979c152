package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.NodeStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The table tests of kubernetes/kubernetes
 * {@code staging/src/k8s.io/cloud-provider/controllers/nodelifecycle/node_lifecycle_controller_test.go} (read at
 * commit 040e8a714f12283d228bd195d6e0605ee24b5a77): {@code Test_NodesDeleted} (14 cases) and
 * {@code Test_NodesShutdown} (9 cases), one parameterized run per upstream case, named after it. Skipped, as listed
 * in {@code docs/conformance.md}: {@code Test_GetProviderID} (5 cases), which tests how upstream resolves a node's
 * provider ID through the cloud's {@code Instances} or {@code InstancesV2} interface; FleetKit's {@link CloudInstances}
 * is asked by node name and provider ID and resolves the machine itself.
 *
 * <p>How upstream's fixture maps here. Upstream's fake cloud ({@code fakecloud.Cloud}) answers
 * {@code ExistsByProviderID}/{@code ErrByProviderID} to "does the instance exist" and
 * {@code NodeShutdown}/{@code ErrShutdownByProviderID} to "is it shut down"; an error is an empty answer here. Where
 * upstream goes through the older {@code Instances} interface for a node without a provider ID, its instance-ID lookup
 * ({@code ExtID}/{@code ExtIDErr}) comes first: {@code InstanceNotFound} there means "does not exist", another error
 * means no answer, and a found ID leads to the {@code ExistsByProviderID} answer; the {@code [instancev2]} twins of the
 * cases run the same data. Upstream checks the node read back after one {@code MonitorNodes} pass: gone, or equal to
 * the expected one; here the node is gone, or its taints are the expected ones and its status is untouched. The
 * secondary check is the {@value CloudNodeLifecycleController#DELETING_NODE} event, recorded exactly when a node is
 * deleted. Upstream's creation time of 2012 and heartbeats of 2015 are kept; the two uninitialized cases are created
 * "now" (2015-01-01T12:00Z) and two {@code uninitializedNodeDelay}s before it.
 */
final class CloudNodeLifecycleControllerPortTest {
  private static final Instant CREATED_2012 = Instant.parse("2012-01-01T00:00:00Z");
  private static final Instant NOW = Instant.parse("2015-01-01T12:00:00Z");
  private static final Instant TIMED_OUT = NOW.minus(CloudNodeRules.UNINITIALIZED_NODE_DELAY.multipliedBy(2));
  private static final Taint SHUTDOWN = Taint.of(CloudNodeRules.SHUTDOWN_TAINT, "", TaintEffect.NoSchedule);
  private static final Taint UNINITIALIZED = Taint.of(CloudNodeRules.UNINITIALIZED_TAINT, "true",
      TaintEffect.NoSchedule);
  private static final ConditionStatus T = ConditionStatus.True;
  private static final ConditionStatus F = ConditionStatus.False;
  private static final ConditionStatus U = ConditionStatus.Unknown;

  /** A cloud's answer: yes, no, or an error. */
  enum Answer {
    YES, NO, ERR;

    Optional<Boolean> value() {
      return this == ERR ? Optional.empty() : Optional.of(this == YES);
    }
  }

  /**
   * One upstream case: the node (name, Ready status, provider ID, whether it has the uninitialized taint, creation
   * time), the cloud's answers, and the outcome (deleted, or tainted shutdown).
   */
  record Case(String name, String node, ConditionStatus ready, String providerId, boolean uninitialized,
      Instant created, Answer exists, Answer shutdown, boolean deleted, boolean shutdownTaint) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Case c(String name, ConditionStatus ready, String providerId, Answer exists, Answer shutdown,
      boolean deleted, boolean shutdownTaint) {
    return new Case(name, "node0", ready, providerId, false, CREATED_2012, exists, shutdown, deleted, shutdownTaint);
  }

  static Stream<Case> nodesDeleted() {
    List<Case> instances = List.of(
        c("node is not ready and does not exist", F, "", Answer.NO, Answer.NO, true, false),
        c("node is not ready and provider returns err", F, "node0", Answer.ERR, Answer.NO, false, false),
        c("node is not ready but still exists", F, "node0", Answer.YES, Answer.NO, false, false),
        c("node ready condition is unknown, node doesn't exist", U, "", Answer.NO, Answer.NO, true, false),
        c("node ready condition is unknown, node exists", U, "", Answer.YES, Answer.NO, false, false),
        c("node is ready, but provider said it is deleted (maybe a bug in provider)", T, "node0", Answer.NO,
            Answer.NO, false, false));
    List<Case> all = new ArrayList<>(instances);
    List<String> v2Names = List.of("[instance2] node is not ready and does not exist",
        "[instancev2] node is not ready and provider returns err",
        "[instancev2] node is not ready but still exists");
    for (int i = 0; i < 3; i++) {
      Case x = instances.get(i);
      all.add(c(v2Names.get(i), x.ready(), x.providerId(), x.exists(), x.shutdown(), x.deleted(), false));
    }
    all.add(new Case("[instancev2] node is not ready and uninitialized yet", "node-uninitialized", F, "", true, NOW,
        Answer.NO, Answer.NO, false, false));
    all.add(new Case("[instancev2] node is not ready condition is unknown and uninitialized timeout passed",
        "node-uninitialized", U, "", true, TIMED_OUT, Answer.NO, Answer.NO, true, false));
    for (int i = 3; i < 6; i++) {
      Case x = instances.get(i);
      all.add(c("[instancev2] " + x.name(), x.ready(), x.providerId(), x.exists(), x.shutdown(), x.deleted(),
          false));
    }
    return all.stream();
  }

  static Stream<Case> nodesShutdown() {
    return Stream.of(
        c("node is not ready and was shutdown, but exists", F, "node0", Answer.YES, Answer.YES, false, true),
        c("node with empty spec providerID is not ready and was shutdown, but exists", F, "", Answer.YES, Answer.YES,
            false, true),
        c("node with non-existing providerID (missing in cloud provider) gets deleted", F, "", Answer.NO, Answer.NO,
            true, false),
        c("node with error when getting providerID does not have shutdown taint", F, "", Answer.ERR, Answer.NO,
            false, false),
        c("node with InstanceID returning InstanceNotFound gets deleted", F, "", Answer.NO, Answer.NO, true, false),
        c("node is not ready, but there is error checking if node is shutdown", F, "", Answer.NO, Answer.ERR, true,
            false),
        c("node is not ready and is not shutdown", F, "", Answer.NO, Answer.NO, true, false),
        c("node is ready but provider says it's shutdown (maybe a bug by provider)", T, "", Answer.NO, Answer.YES,
            false, false),
        c("node is shutdown but provider says it does not exist", U, "", Answer.NO, Answer.YES, true, false));
  }

  @ParameterizedTest(name = "Test_NodesDeleted: {0}")
  @MethodSource("nodesDeleted")
  void nodesDeleted(Case c) {
    run(c);
  }

  @ParameterizedTest(name = "Test_NodesShutdown: {0}")
  @MethodSource("nodesShutdown")
  void nodesShutdown(Case c) {
    run(c);
  }

  private static void run(Case c) {
    ManualClock clock = new ManualClock(c.created());
    ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
    List<Taint> taints = c.uninitialized() ? List.of(UNINITIALIZED) : List.of();
    Node created = store.create(Node.builder().name(c.node()).providerID(c.providerId()).taints(taints).build());
    NodeCondition ready = new NodeCondition(NodeCondition.READY, c.ready(), "", "", NOW, NOW);
    NodeStatus status = created.status().withConditions(List.of(ready));
    store.updateStatus(created.withStatus(status));
    clock.advanceTo(NOW);
    List<String> events = new ArrayList<>();
    CloudInstances cloud = new CloudInstances() {
      @Override
      public Optional<Boolean> exists(String nodeName, String providerId) {
        return c.exists().value();
      }

      @Override
      public Optional<Boolean> shutdown(String nodeName, String providerId) {
        return c.shutdown().value();
      }
    };
    try (CloudNodeLifecycleController controller = CloudNodeLifecycleController.builder(store, clock, cloud)
        .monitorPeriod(Duration.ofSeconds(1))
        .events((regarding, related, type, reason, action, note) -> events.add(reason + " " + regarding.name()))
        .build()) {
      controller.start();
      controller.monitor();
    }
    Optional<Node> after = store.get(Node.class, "", c.node());
    if (c.deleted()) {
      assertThat(after).isEmpty();
      assertThat(events).containsExactly(CloudNodeLifecycleController.DELETING_NODE + " " + c.node());
      return;
    }
    assertThat(after).isPresent();
    List<Taint> expected = new ArrayList<>(taints);
    if (c.shutdownTaint()) {
      expected.add(SHUTDOWN);
    }
    assertThat(after.get().spec().taints()).isEqualTo(expected);
    assertThat(after.get().spec().providerID()).isEqualTo(c.providerId());
    assertThat(after.get().status()).isEqualTo(status);
    assertThat(events).isEmpty();
  }
}
