package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** FleetKit's own cases of {@link CloudNodeLifecycleController}: the ported upstream table is in the port test. */
final class CloudNodeLifecycleControllerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  /** Machines the cloud says are gone, and shut down. */
  private final Set<String> gone = new HashSet<>();
  private final Set<String> stopped = new HashSet<>();
  /** The nodes the cloud was asked about, in order. */
  private final List<String> asked = new ArrayList<>();
  private final CloudInstances cloud = new CloudInstances() {
    @Override
    public Optional<Boolean> exists(String nodeName, String providerId) {
      asked.add(nodeName);
      return Optional.of(!gone.contains(nodeName));
    }

    @Override
    public Optional<Boolean> shutdown(String nodeName, String providerId) {
      return stopped.contains(nodeName) ? Optional.of(true) : Optional.empty();
    }
  };

  private void node(String name, ConditionStatus ready, Taint... taints) {
    Node n = store.get(Node.class, "", name).orElseGet(() -> store.create(Node.builder().name(name)
        .providerID("sim://" + name).build()));
    n = store.update(n.withSpec(new io.fleetkit.api.core.NodeSpec(false, List.of(taints), n.spec().providerID())));
    store.updateStatus(n.withStatus(n.status().withConditions(List.of(NodeCondition.of(NodeCondition.READY,
        ready)))));
  }

  private List<Taint> taints(String name) {
    return store.require(Node.class, "", name).spec().taints();
  }

  @Test
  void monitor_readyNodeWithShutdownTaint_removesTheTaintOnly() {
    Taint other = Taint.of("example.com/keep", "x", TaintEffect.NoSchedule);
    node("n1", ConditionStatus.True, other, Taint.of(CloudNodeRules.SHUTDOWN_TAINT, "", TaintEffect.NoSchedule));
    CloudNodeLifecycleController c = CloudNodeLifecycleController.builder(store, clock, cloud).build();
    c.start();

    assertThat(c.monitor()).isEqualTo(1);
    assertThat(taints("n1")).containsExactly(other);
    assertThat(asked).isEmpty();
    assertThat(c.monitor()).isZero(); // nothing left to do, and the Ready node is no longer visited
    c.close();
  }

  @Test
  void monitor_shutdownUnanswered_leavesTheNodeUntainted() {
    node("n1", ConditionStatus.False);
    CloudNodeLifecycleController c = CloudNodeLifecycleController.builder(store, clock, cloud).build();
    c.start();

    assertThat(c.monitor()).isZero();
    assertThat(taints("n1")).isEmpty();
    stopped.add("n1");
    assertThat(c.monitor()).isEqualTo(1);
    assertThat(taints("n1")).containsExactly(Taint.of(CloudNodeRules.SHUTDOWN_TAINT, "", TaintEffect.NoSchedule));
    assertThat(c.monitor()).isZero(); // already tainted: no second write
    c.close();
  }

  @Test
  void sync_machineGoneWhileReady_deletesTheNodeAtTheFirstPassAfterItTurnsNotReady() {
    node("n1", ConditionStatus.True);
    node("n2", ConditionStatus.True);
    CloudNodeLifecycleController c = CloudNodeLifecycleController.builder(store, clock, cloud).build();
    c.start();
    assertThat(c.sync()).isZero();
    gone.add("n1");
    clock.advance(Duration.ofSeconds(5));
    assertThat(c.sync()).isZero(); // still Ready: upstream leaves a Ready node alone
    assertThat(asked).isEmpty();

    clock.advance(Duration.ofSeconds(2));
    node("n1", ConditionStatus.Unknown);
    assertThat(c.sync()).isZero(); // no pass due until 10 s
    assertThat(store.get(Node.class, "", "n1")).isPresent();
    clock.advance(Duration.ofSeconds(3));
    assertThat(c.sync()).isEqualTo(1);
    assertThat(store.get(Node.class, "", "n1")).isEmpty();
    assertThat(store.get(Node.class, "", "n2")).isPresent();
    assertThat(asked).containsExactly("n1");
    c.close();
  }

  @Test
  void monitor_beforeStart_isRejected() {
    CloudNodeLifecycleController c = CloudNodeLifecycleController.builder(store, clock, cloud).build();
    assertThatThrownBy(c::monitor).isInstanceOf(IllegalStateException.class).hasMessageContaining("before start");
    assertThatThrownBy(() -> CloudNodeLifecycleController.builder(store, clock, cloud).monitorPeriod(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("monitorPeriod PT0S must be positive");
  }
}
