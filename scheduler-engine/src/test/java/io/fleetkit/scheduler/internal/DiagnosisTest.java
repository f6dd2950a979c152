package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class DiagnosisTest {

  private static Map<String, Integer> counts(Object... kv) {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], (Integer) kv[i + 1]);
    }
    return m;
  }

  // Ported from kubernetes/kubernetes pkg/scheduler/framework/types_test.go, TestFitError_Error (8 cases). The node
  // statuses of each case are given here as the reason counts the framework derives from them.

  @Test
  void fitError_nodesFailedPrefilterPlugin() {
    assertThat(Diagnosis.fitError(3, "Node(s) failed PreFilter plugin FalsePreFilter",
        counts("Node(s) failed PreFilter plugin FalsePreFilter", 3), null))
        .isEqualTo("0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter.");
  }

  @Test
  void fitError_nodesFailedPrefilterPluginAndThePreemptionAlsoFailed() {
    assertThat(Diagnosis.fitError(3, "Node(s) failed PreFilter plugin FalsePreFilter",
        counts("Node(s) failed PreFilter plugin FalsePreFilter", 3), "Error running PostFilter plugin FailedPostFilter"))
        .isEqualTo("0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter. Error running PostFilter "
            + "plugin FailedPostFilter");
  }

  @Test
  void fitError_nodesFailedOneFilterPluginWithAnEmptyPostFilterMsg() {
    assertThat(Diagnosis.fitError(3, "", counts("Node(s) failed Filter plugin FalseFilter-1", 3), null))
        .isEqualTo("0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1.");
  }

  @Test
  void fitError_nodesFailedOneFilterPluginWithANonEmptyPostFilterMsg() {
    assertThat(Diagnosis.fitError(3, "", counts("Node(s) failed Filter plugin FalseFilter-1", 3),
        "Error running PostFilter plugin FailedPostFilter"))
        .isEqualTo("0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1. Error running PostFilter "
            + "plugin FailedPostFilter");
  }

  @Test
  void fitError_nodesFailedTwoFilterPluginsWithAnEmptyPostFilterMsg() {
    assertThat(Diagnosis.fitError(3, "", counts("Node(s) failed Filter plugin FalseFilter-1", 2,
        "Node(s) failed Filter plugin FalseFilter-2", 1), ""))
        .isEqualTo("0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter "
            + "plugin FalseFilter-1.");
  }

  @Test
  void fitError_nodesFailedTwoFilterPluginsWithANonEmptyPostFilterMsg() {
    assertThat(Diagnosis.fitError(3, "", counts("Node(s) failed Filter plugin FalseFilter-1", 2,
        "Node(s) failed Filter plugin FalseFilter-2", 1), "Error running PostFilter plugin FailedPostFilter"))
        .isEqualTo("0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed Filter "
            + "plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter");
  }

  @Test
  void fitError_failedToPermitOnNode() {
    assertThat(Diagnosis.fitError(1, null, counts("Node failed Permit plugin Permit-1", 1), null))
        .isEqualTo("0/1 nodes are available: 1 Node failed Permit plugin Permit-1.");
  }

  @Test
  void fitError_failedToReserveOnNode() {
    assertThat(Diagnosis.fitError(1, null, counts("Node failed Reserve plugin Reserve-1", 1), null))
        .isEqualTo("0/1 nodes are available: 1 Node failed Reserve plugin Reserve-1.");
  }

  // FleetKit cases.

  @Test
  void fitError_countsSortAsStrings_likeKube() {
    assertThat(Diagnosis.fitError(12, null, counts("b", 2, "a", 10), null))
        .isEqualTo("0/12 nodes are available: 10 a, 2 b.");
  }

  @Test
  void fitError_issueExample() {
    assertThat(Diagnosis.fitError(5000, null, counts("node(s) had untolerated taint {gpu: true}", 2000,
        "Insufficient cpu", 3000), "preemption: 0/5000 nodes are available: 5000 Preemption is not helpful for "
        + "scheduling."))
        .isEqualTo("0/5000 nodes are available: 2000 node(s) had untolerated taint {gpu: true}, 3000 Insufficient "
            + "cpu. preemption: 0/5000 nodes are available: 5000 Preemption is not helpful for scheduling.");
  }

  // Ported from kubernetes/kubernetes pkg/scheduler/schedule_one_test.go, TestNumFeasibleNodesToFind (6 cases).

  @Test
  void numFeasibleNodesToFind_kubeTable() {
    // not set percentageOfNodesToScore and nodes number not more than 50
    assertThat(Diagnosis.numFeasibleNodesToFind(null, 10)).isEqualTo(10);
    // set percentageOfNodesToScore and nodes number not more than 50
    assertThat(Diagnosis.numFeasibleNodesToFind(40, 10)).isEqualTo(10);
    // not set percentageOfNodesToScore and nodes number more than 50
    assertThat(Diagnosis.numFeasibleNodesToFind(null, 1000)).isEqualTo(420);
    // set percentageOfNodesToScore and nodes number more than 50
    assertThat(Diagnosis.numFeasibleNodesToFind(40, 1000)).isEqualTo(400);
    // not set percentageOfNodesToScore and nodes number more than 50*125
    assertThat(Diagnosis.numFeasibleNodesToFind(null, 6000)).isEqualTo(300);
    // set percentageOfNodesToScore and nodes number more than 50*125
    assertThat(Diagnosis.numFeasibleNodesToFind(40, 6000)).isEqualTo(2400);
  }

  // numFeasibleNodesToFind: the examples of kube-scheduler.md §2 and kube's scheduler-perf-tuning docs.

  @Test
  void numFeasibleNodesToFind_adaptiveDefault() {
    assertThat(Diagnosis.numFeasibleNodesToFind(null, 50)).isEqualTo(50);
    assertThat(Diagnosis.numFeasibleNodesToFind(null, 99)).isEqualTo(99);
    assertThat(Diagnosis.numFeasibleNodesToFind(null, 100)).isEqualTo(100);
    assertThat(Diagnosis.numFeasibleNodesToFind(null, 500)).isEqualTo(230);
    assertThat(Diagnosis.numFeasibleNodesToFind(null, 1000)).isEqualTo(420);
    assertThat(Diagnosis.numFeasibleNodesToFind(null, 5000)).isEqualTo(500);
    assertThat(Diagnosis.numFeasibleNodesToFind(null, 10000)).isEqualTo(500);
    assertThat(Diagnosis.numFeasibleNodesToFind(0, 5000)).isEqualTo(500);
  }

  @Test
  void numFeasibleNodesToFind_configuredPercentage() {
    assertThat(Diagnosis.numFeasibleNodesToFind(100, 5000)).isEqualTo(5000);
    assertThat(Diagnosis.numFeasibleNodesToFind(30, 1000)).isEqualTo(300);
    assertThat(Diagnosis.numFeasibleNodesToFind(1, 1000)).isEqualTo(100);
  }
}
