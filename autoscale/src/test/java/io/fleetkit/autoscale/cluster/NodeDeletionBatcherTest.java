package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Upstream's {@code delete_in_batch_test.go} (kubernetes/autoscaler {@code cluster-autoscaler/core/scaledown/
 * actuation/}, commit 082eb938): TestAddNodeToBucket 4 of 4, TestRemove 3 of 3; and actuator_test.go's
 * TestStartDeletionInBatchBasic 4 of 4 (commit 008dc501) on the batcher with a 1 s interval on a simulated clock.
 */
final class NodeDeletionBatcherTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static final class Sink implements NodeDeletionBatcher.Sink {
    final List<String> deleted = new ArrayList<>();
    final Map<String, NodeDeleteResult> failed = new HashMap<>();

    @Override
    public void deleted(String node, String pool, boolean drain) {
      deleted.add(node);
    }

    @Override
    public void failed(String node, String pool, boolean drain, NodeDeleteResult result) {
      failed.put(node, result);
    }
  }

  /** TestAddNodeToBucket: nodes as {@code pool/index}, separated by commas. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "Add 1 node|ng-1/0|1|false",
      "Add nodes that belong to one nodeGroup|ng-1/0,ng-1/1,ng-1/2,ng-1/3,ng-1/4|1|false",
      "Add 3 nodes that belong to 2 nodeGroups|ng-1/0,ng-2/0,ng-2/1|2|false",
      "Add 3 nodes that belong to 2 nodeGroups, all nodes are drained|ng-1/0,ng-2/0,ng-2/1|2|true"})
  void addNodeToBucket_countsFirstNodes(String name, String nodes, int wantBatches, boolean drained) {
    NodeDeletionBatcher d = new NodeDeletionBatcher(Duration.ofSeconds(1), n -> null, new Sink());
    int batches = 0;
    for (String spec : nodes.split(",")) {
      String[] pi = spec.split("/");
      if (d.addNodeToBucket(pi[0] + "-node-" + pi[1], pi[0], drained)) {
        batches++;
      }
    }
    assertThat(batches).isEqualTo(wantBatches);
  }

  /** TestRemove. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "Remove NodeGroup that is not present in bucket|true|0|0|false",
      "Regular successful remove|false|5|0|true",
      "Unsuccessful remove|false|5|1|true"})
  void remove_deletesTheBucket(String name, boolean wantErr, int numNodes, int failedDeletion, boolean addToBucket) {
    Set<String> failing = new java.util.HashSet<>();
    for (int i = 0; i < failedDeletion; i++) {
      failing.add("ng-node-" + i);
    }
    List<String> notDeleted = new ArrayList<>();
    Sink sink = new Sink();
    NodeDeletionBatcher d = new NodeDeletionBatcher(Duration.ofSeconds(1), n -> {
      if (failing.contains(n)) {
        notDeleted.add(n);
        return "SIMULATED ERROR: won't remove node";
      }
      return null;
    }, sink);
    if (addToBucket) {
      for (int i = 0; i < numNodes; i++) {
        d.addNodeToBucket("ng-node-" + i, "ng", true);
      }
    }
    String err = d.remove("ng");
    assertThat(err != null).isEqualTo(wantErr);
    if (wantErr) {
      return;
    }
    if (failedDeletion == 0) {
      assertThat(sink.deleted).hasSize(numNodes);
    } else {
      assertThat(notDeleted).isNotEmpty();
      assertThat(sink.failed).containsOnlyKeys(notDeleted);
      assertThat(sink.failed.values()).allSatisfy(r -> {
        assertThat(r.type()).isEqualTo(NodeDeleteResult.Type.FAILED_TO_DELETE);
        assertThat(r.error().type()).isEqualTo(AutoscalerError.Type.CLOUD_PROVIDER_ERROR);
      });
    }
    assertThat(d.buckets()).isZero();
    assertThat(d.waitingNodes()).isZero();
  }

  /**
   * TestStartDeletionInBatchBasic: per call, nodes of three pools added; a pool whose deletions fail deletes none;
   * the others are deleted together once the 1 s interval has passed, not before.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "Succesfull deletion for all node group|4;5;1||4;5;1",
      "Node deletion failed for one group|4;5;1|test-ng-1|0;5;1",
      "Node deletion failed for one group two times|4+3;5;1|test-ng-1|0;5;1",
      "Node deletion failed for all groups|4+3;5;1|test-ng-1,test-ng-2,test-ng-3|0;0;0"})
  void startDeletionInBatchBasic(String name, String toDelete, String failedGroups, String want) {
    Set<String> failed = failedGroups == null ? Set.of() : Set.of(failedGroups.split(","));
    Map<String, String> poolOf = new HashMap<>();
    Sink sink = new Sink();
    NodeDeletionBatcher d = new NodeDeletionBatcher(Duration.ofSeconds(1),
        n -> failed.contains(poolOf.get(n)) ? "SIMULATED ERROR: won't remove node" : null, sink);
    String[] perPool = toDelete.split(";");
    Instant now = T0;
    int maxCalls = 0;
    for (String s : perPool) {
      maxCalls = Math.max(maxCalls, s.split("\\+").length);
    }
    int[] next = new int[perPool.length];
    for (int call = 0; call < maxCalls; call++) {
      for (int g = 0; g < perPool.length; g++) {
        String[] calls = perPool[g].split("\\+");
        if (call >= calls.length) {
          continue;
        }
        String pool = "test-ng-" + (g + 1);
        for (int i = 0; i < Integer.parseInt(calls[call]); i++) {
          String node = pool + "-node-" + next[g]++;
          poolOf.put(node, pool);
          d.addNode(node, pool, false, now);
        }
      }
      int before = sink.deleted.size();
      d.advance(now.plusMillis(999));
      assertThat(sink.deleted).as("nothing deleted before the interval").hasSize(before);
      now = now.plusSeconds(1);
      d.advance(now);
      now = now.plusSeconds(1);
    }
    Map<String, Integer> got = new HashMap<>();
    for (String n : sink.deleted) {
      got.merge(poolOf.get(n), 1, Integer::sum);
    }
    String[] w = want.split(";");
    for (int g = 0; g < w.length; g++) {
      assertThat(got.getOrDefault("test-ng-" + (g + 1), 0)).as("test-ng-" + (g + 1)).isEqualTo(Integer.parseInt(w[g]));
    }
  }

  @Test
  void addNode_zeroInterval_deletesAtOnce() {
    Sink sink = new Sink();
    NodeDeletionBatcher d = new NodeDeletionBatcher(Duration.ZERO, n -> null, sink);
    d.addNode("n1", "p", true, T0);
    assertThat(sink.deleted).containsExactly("n1");
    assertThat(d.buckets()).isZero();
  }
}
