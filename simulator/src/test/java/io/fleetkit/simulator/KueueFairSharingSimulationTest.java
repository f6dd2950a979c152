package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.simulation.Scenario;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kueue's fair sharing in a simulation: Kueue's own manifests (Cohorts and ClusterQueues with {@code
 * fairSharing.weight}) and the Scenario's {@code spec.fairSharing} (Kueue's Configuration), Jobs queued through
 * LocalQueues, the shares read from the series {@code admitted workloads <ClusterQueue>}.
 */
final class KueueFairSharingSimulationTest {
  private static final String NODE = """
      apiVersion: v1
      kind: Namespace
      metadata: {name: ns}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
      status:
        capacity: {cpu: "64", memory: 256Gi, pods: "200"}
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: ResourceFlavor
      metadata: {name: default}
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: WorkloadPriorityClass
      metadata: {name: low}
      value: -1
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: WorkloadPriorityClass
      metadata: {name: high}
      value: 100
      """;

  private static String cohort(String name, String parent, String weight, String cpu) {
    return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: " + name + "}\nspec:\n"
        + (parent.isEmpty() ? "" : "  parentName: " + parent + "\n")
        + (weight.isEmpty() ? "" : "  fairSharing: {weight: \"" + weight + "\"}\n")
        + (cpu.isEmpty() ? "" : "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: default\n"
            + "      resources: [{name: cpu, nominalQuota: \"" + cpu + "\"}]\n");
  }

  /** A ClusterQueue in {@code cohort} with a LocalQueue of its name in namespace ns. */
  private static String queue(String name, String cohort, String cpu, String weight, String preemption) {
    return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: " + name + "}\nspec:\n"
        + "  cohortName: " + cohort + "\n  namespaceSelector: {}\n"
        + "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: default\n"
        + "      resources: [{name: cpu, nominalQuota: \"" + cpu + "\"}]\n"
        + (weight.isEmpty() ? "" : "  fairSharing: {weight: \"" + weight + "\"}\n")
        + (preemption.isEmpty() ? "" : "  preemption: " + preemption + "\n")
        + "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: " + name
        + ", namespace: ns}\nspec: {clusterQueue: " + name + "}\n";
  }

  /** {@code count} one-CPU Jobs of two hours in LocalQueue {@code queue}, of priority class {@code priority}. */
  private static String jobs(String queue, String priority, int count) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < count; i++) {
      sb.append("""
          ---
          apiVersion: batch/v1
          kind: Job
          metadata:
            name: %s-%s-%d
            namespace: ns
            labels: {kueue.x-k8s.io/queue-name: %s%s}
          spec:
            suspend: true
            template:
              metadata:
                annotations: {simulate.fleetkit.io/exit-after-seconds: "7200"}
              spec:
                restartPolicy: Never
                containers:
                - name: main
                  image: job:1
                  resources: {requests: {cpu: "1"}}
          """.formatted(queue, priority.isEmpty() ? "job" : priority, i, queue,
          priority.isEmpty() ? "" : ", kueue.x-k8s.io/priority-class: " + priority));
    }
    return sb.toString();
  }

  private static String scenario(String kueueConfig) {
    return """
        ---
        apiVersion: simulation.fleetkit.io/v1
        kind: Scenario
        metadata: {name: fair}
        spec:
          duration: 30m
          sampleInterval: 1m
          features: {horizontalPodAutoscaler: false, verticalPodAutoscaler: false, storage: false,
            clusterAutoscaler: false}
        """ + kueueConfig;
  }

  private static ClusterSimulation simulation(String manifests, String later) {
    List<ApiObject<?>> objects = KubernetesYaml.parse(manifests, "fair.yaml").objects();
    Scenario s = objects.stream().filter(o -> o instanceof Scenario).map(o -> (Scenario) o).findFirst()
        .orElseThrow();
    ClusterSimulation.Builder b = ClusterSimulation.builder().objects(Examples.withoutScenario(objects)).scenario(s)
        .podEvents(false);
    if (!later.isEmpty()) {
      b.apply(Duration.ofMinutes(5), KubernetesYaml.parse(later, "later.yaml").objects(), "later.yaml");
    }
    return b.build();
  }

  private static double at(SimulationRun run, String series, int minute) {
    return run.series(series).orElseThrow(() -> new AssertionError("no series " + series)).values()
        .get(run.sampleTimes().indexOf(Duration.ofMinutes(minute)));
  }

  /**
   * Two ClusterQueues without quota of their own, weights 2 and 1, borrowing the 9 CPUs a third queue of their
   * cohort lends, nine one-CPU Jobs waiting in each. Kueue's share of a queue is its usage above its nominal quota
   * over what the cohort can lend, times 1000, over its weight (pkg/cache/scheduler/fair_sharing.go,
   * dominantResourceShare): fair sharing admits from the queue whose share after the admission is lowest, so the
   * queues end at 6 and 3 CPUs, both with share 6/9*1000/2 = 3/9*1000/1 = 333.
   */
  private static final String WEIGHTED = NODE + cohort("all", "", "", "")
      + queue("a", "all", "0", "2", "") + queue("b", "all", "0", "1", "") + queue("shared", "all", "9", "", "")
      + jobs("b", "", 9) + jobs("a", "", 9);

  @Test
  void run_fairSharingOn_queuesOfWeights2And1_borrowInThatRatio() {
    SimulationRun run = simulation(WEIGHTED + scenario("  fairSharing: {enable: true}\n"), "").run();

    assertThat(at(run, "admitted workloads a", 2)).isEqualTo(6);
    assertThat(at(run, "admitted workloads b", 2)).isEqualTo(3);
    assertThat(at(run, "pending workloads a", 2)).isEqualTo(3);
    assertThat(at(run, "pending workloads b", 2)).isEqualTo(6);
  }

  @Test
  void run_fairSharingOff_weightsAreIgnored() {
    SimulationRun off = simulation(WEIGHTED + scenario(""), "").run();
    SimulationRun disabled = simulation(WEIGHTED + scenario("  fairSharing: {enable: false}\n"), "").run();

    // without fair sharing Kueue orders the heads of the cohort's queues by creation: b's Jobs come first
    assertThat(at(off, "admitted workloads a", 2) + at(off, "admitted workloads b", 2)).isEqualTo(9);
    assertThat(at(off, "admitted workloads a", 2)).isNotEqualTo(6);
    assertThat(at(disabled, "admitted workloads a", 2)).isEqualTo(at(off, "admitted workloads a", 2));
  }

  /**
   * Port of kubernetes-sigs/kueue test/integration/singlecluster/scheduler/fairsharing/fair_sharing_test.go
   * (commit ff69552e), "Scheduler" / "using hierarchical cohorts" / "preempts workloads to enforce fair share": 12
   * CPUs in root Cohort, best-effort (weight 0.5) under root, research under root with chemistry, physics and llm
   * (weight 2.0). Twelve low-priority workloads fill it (six best-effort, six physics); then six high-priority ones
   * arrive in each queue. Upstream finishes the evictions by hand; here the preempted Jobs are suspended by the
   * queue controller. The share is fair with respect to each parent: best-effort 4 (4/12*1000/0.5), research 8,
   * within it chemistry 2, physics 2, llm 4 (4/12*1000/2.0). Upstream's weighted-share metrics are not kept; the
   * reserving workloads per queue are its last assertions.
   */
  @Test
  void run_hierarchicalCohortsWithWeights_preemptWorkloadsToEnforceFairShare() {
    String preemption = "{reclaimWithinCohort: LowerPriority}";
    String manifests = NODE + cohort("root", "", "", "12") + cohort("research", "root", "", "")
        + cohort("chemistry", "research", "", "") + cohort("physics", "research", "", "")
        + cohort("llm", "research", "2.0", "") + cohort("best-effort", "root", "0.5", "")
        + queue("chemistry-queue", "chemistry", "0", "", preemption)
        + queue("physics-queue", "physics", "0", "", preemption)
        + queue("llm-queue", "llm", "0", "", preemption)
        + queue("best-effort-queue", "best-effort", "0", "", "")
        + jobs("best-effort-queue", "low", 6) + jobs("physics-queue", "low", 6)
        + scenario("  fairSharing: {}\n");
    String high = jobs("chemistry-queue", "high", 6) + jobs("physics-queue", "high", 6)
        + jobs("llm-queue", "high", 6) + jobs("best-effort-queue", "high", 6);

    SimulationRun run = simulation(manifests, high).run();

    // all capacity used
    assertThat(at(run, "admitted workloads best-effort-queue", 4)).isEqualTo(6);
    assertThat(at(run, "admitted workloads physics-queue", 4)).isEqualTo(6);
    // number of workloads admitted proportional to share at each level
    assertThat(at(run, "admitted workloads best-effort-queue", 20)).isEqualTo(4);
    assertThat(at(run, "admitted workloads chemistry-queue", 20)).isEqualTo(2);
    assertThat(at(run, "admitted workloads physics-queue", 20)).isEqualTo(2);
    assertThat(at(run, "admitted workloads llm-queue", 20)).isEqualTo(4);
  }

  @Test
  void build_fairSharingWithoutQueues_isRefused() {
    String manifests = NODE + scenario("  fairSharing: {}\n");
    assertThatThrownBy(() -> simulation(manifests, ""))
        .hasMessageContaining("Scenario fair: spec.fairSharing \"set\" needs spec.queues or Kueue ClusterQueues");
  }
}
