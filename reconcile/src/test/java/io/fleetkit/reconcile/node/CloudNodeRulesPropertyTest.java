package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Invariants of {@link CloudNodeRules#decide} over every node state and cloud answer. */
final class CloudNodeRulesPropertyTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private static Optional<Boolean> answer(int a) {
    return a == 0 ? Optional.empty() : Optional.of(a == 1);
  }

  @Property
  void decide_readyNodesAreNeverDeletedNorTainted_andTheCloudIsOnlyAskedAboutOthers(
      @ForAll ConditionStatus ready, @ForAll boolean hasReadyCondition, @ForAll boolean shutdownTainted,
      @ForAll boolean uninitialized, @ForAll boolean providerId, @ForAll @IntRange(max = 120) int ageSeconds,
      @ForAll @IntRange(max = 2) int exists, @ForAll @IntRange(max = 2) int shutdown) {
    List<Taint> taints = new ArrayList<>();
    if (shutdownTainted) {
      taints.add(Taint.of(CloudNodeRules.SHUTDOWN_TAINT, "", TaintEffect.NoSchedule));
    }
    if (uninitialized) {
      taints.add(Taint.of(CloudNodeRules.UNINITIALIZED_TAINT, "true", TaintEffect.NoSchedule));
    }
    Node.Builder b = Node.builder().metadata(ObjectMeta.builder().name("n").creationTimestamp(
        NOW.minusSeconds(ageSeconds)).build()).taints(taints).providerID(providerId ? "cloud://n" : "");
    if (hasReadyCondition) {
      b.condition(NodeCondition.of(NodeCondition.READY, ready));
    }
    Node node = b.build();
    List<String> asked = new ArrayList<>();
    CloudInstances cloud = new CloudInstances() {
      @Override
      public Optional<Boolean> exists(String nodeName, String id) {
        asked.add("exists");
        return answer(exists);
      }

      @Override
      public Optional<Boolean> shutdown(String nodeName, String id) {
        asked.add("shutdown");
        return answer(shutdown);
      }
    };
    CloudNodeRules.Action action = CloudNodeRules.decide(node, NOW, cloud);
    boolean isReady = hasReadyCondition && ready == ConditionStatus.True;
    if (isReady) {
      assertThat(action).isIn(CloudNodeRules.Action.NONE, CloudNodeRules.Action.REMOVE_SHUTDOWN_TAINT);
      assertThat(action == CloudNodeRules.Action.REMOVE_SHUTDOWN_TAINT).isEqualTo(shutdownTainted);
      assertThat(asked).isEmpty();
      return;
    }
    assertThat(action).isNotEqualTo(CloudNodeRules.Action.REMOVE_SHUTDOWN_TAINT);
    // deleted only on a "does not exist" answer; tainted only on "exists" and "shut down", never twice
    assertThat(action == CloudNodeRules.Action.DELETE).isEqualTo(asked.contains("exists") && exists == 2);
    if (action == CloudNodeRules.Action.ADD_SHUTDOWN_TAINT) {
      assertThat(exists).isEqualTo(1);
      assertThat(shutdown).isEqualTo(1);
      assertThat(shutdownTainted).isFalse();
    }
    // the shutdown question only after an "exists" answer
    assertThat(asked.contains("shutdown")).isEqualTo(asked.contains("exists") && exists == 1);
    // a young uninitialized node without a provider ID is left alone without asking
    if (uninitialized && !providerId && ageSeconds < 60) {
      assertThat(asked).isEmpty();
      assertThat(action).isEqualTo(CloudNodeRules.Action.NONE);
    } else {
      assertThat(asked).startsWith("exists");
    }
  }
}
