package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioAdmissionFairSharing;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kueue's fair sharing in a simulation: Kueue's own manifests (Cohorts and ClusterQueues with {@code
 * fairSharing.weight}) and the Scenario's {@code spec.fairSharing} (Kueue's Configuration), Jobs queued through
 * LocalQueues, the shares read from the series {@code admitted workloads <ClusterQueue>}. The simulation's queue
 * controller runs Kueue's cycles once per round, so the Jobs of one instant are heads of the same cycles. Upstream's
 * hierarchical case ("preempts workloads to enforce fair share") is ported through the engine, in the queueing
 * module's {@code KueueFairSharingHierarchyPortTest}.
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

  /** {@code count} one-CPU Jobs of {@code seconds} in LocalQueue {@code queue}, of priority class {@code priority}. */
  private static String jobs(String queue, String priority, int count, int seconds) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < count; i++) {
      sb.append(job(queue, priority, i, seconds));
    }
    return sb.toString();
  }

  /** The one-CPU Job {@code queue-priority-i} of {@code seconds} in LocalQueue {@code queue}. */
  private static String job(String queue, String priority, int i, int seconds) {
    return """
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
                annotations: {simulate.fleetkit.io/exit-after-seconds: "%d"}
              spec:
                restartPolicy: Never
                containers:
                - name: main
                  image: job:1
                  resources: {requests: {cpu: "1"}}
          """.formatted(queue, priority.isEmpty() ? "job" : priority, i, queue,
          priority.isEmpty() ? "" : ", kueue.x-k8s.io/priority-class: " + priority, seconds);
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

  private static ClusterSimulation simulation(String manifests) {
    List<ApiObject<?>> objects = KubernetesYaml.parse(manifests, "fair.yaml").objects();
    Scenario s = objects.stream().filter(o -> o instanceof Scenario).map(o -> (Scenario) o).findFirst()
        .orElseThrow();
    return ClusterSimulation.builder().objects(Examples.withoutScenario(objects)).scenario(s).podEvents(false)
        .build();
  }

  private static double at(SimulationRun run, String series, int minute) {
    return run.series(series).orElseThrow(() -> new AssertionError("no series " + series)).values()
        .get(run.sampleTimes().indexOf(Duration.ofMinutes(minute)));
  }

  /**
   * Two ClusterQueues without quota of their own, weights 2 and 1, borrowing the 9 CPUs a third queue of their
   * cohort lends; eighteen five-minute one-CPU Jobs wait in each, all created at the start. Kueue's share of a queue
   * is its usage above its nominal quota over what the cohort can lend, times 1000, over its weight
   * (pkg/cache/scheduler/fair_sharing.go, dominantResourceShare), and fair sharing admits from the queue whose share
   * after the admission is lowest. Each cycle takes one head per queue and admits both while they fit: 4 and 4 after
   * four cycles; in the fifth a's head (share 5/9*1000/2 = 277 after it) goes before b's (555) and takes the last CPU.
   * Without preemption that is where they stay: 5 and 4.
   */
  private static final String WEIGHTED = NODE + cohort("all", "", "", "")
      + queue("a", "all", "0", "2", "") + queue("b", "all", "0", "1", "") + queue("shared", "all", "9", "", "")
      + jobs("b", "", 18, 300) + jobs("a", "", 18, 300);

  /**
   * As {@link #WEIGHTED}, with fair sharing's preemption ({@code reclaimWithinCohort: Any}): a's head at 5 preempts
   * one of b's 4 Jobs, since a's share with it (6/9*1000/2 = 333) is at most b's without it (3/9*1000/1 = 333),
   * Kueue's {@code LessThanOrEqualToFinalShare}; b's head then cannot take it back (its 444 above a's 277).
   */
  private static final String WEIGHTED_PREEMPTING = NODE + cohort("all", "", "", "")
      + queue("a", "all", "0", "2", "{reclaimWithinCohort: Any}")
      + queue("b", "all", "0", "1", "{reclaimWithinCohort: Any}") + queue("shared", "all", "9", "", "")
      + jobs("b", "", 18, 300) + jobs("a", "", 18, 300);

  @Test
  void run_fairSharingOn_withoutPreemption_theLastCpuGoesToTheLowerShareAfterAdmission() {
    SimulationRun run = simulation(WEIGHTED + scenario("  fairSharing: {enable: true}\n")).run();

    for (int minute : List.of(0, 2, 6, 11)) {
      assertThat(at(run, "admitted workloads a", minute)).isEqualTo(5);
      assertThat(at(run, "admitted workloads b", minute)).isEqualTo(4);
    }
    assertThat(at(run, "pending workloads a", 2)).isEqualTo(13);
    assertThat(at(run, "pending workloads b", 2)).isEqualTo(14);
  }

  @Test
  void run_fairSharingOn_queuesOfWeights2And1_shareTheCohortInThatRatio() {
    SimulationRun run = simulation(WEIGHTED_PREEMPTING + scenario("  fairSharing: {enable: true}\n")).run();

    for (int minute : List.of(0, 2, 6, 11)) {
      assertThat(at(run, "admitted workloads a", minute)).isEqualTo(6);
      assertThat(at(run, "admitted workloads b", minute)).isEqualTo(3);
    }
    // b's preempted Job waits in its queue again
    assertThat(at(run, "pending workloads a", 2)).isEqualTo(12);
    assertThat(at(run, "pending workloads b", 2)).isEqualTo(15);
    assertThat(at(run, "pending workloads a", 6)).isEqualTo(6);
    assertThat(at(run, "pending workloads b", 6)).isEqualTo(12);
    assertThat(at(run, "admitted workloads shared", 6)).isZero();
    // the same run again: the same admissions at the same instants
    SimulationRun again = simulation(WEIGHTED_PREEMPTING + scenario("  fairSharing: {enable: true}\n")).run();
    for (String series : List.of("admitted workloads a", "admitted workloads b", "pending workloads b")) {
      assertThat(again.series(series).orElseThrow().values()).isEqualTo(run.series(series).orElseThrow().values());
    }
  }

  /** The Job {@code name} of one pod requesting {@code cpus} CPUs for {@code seconds}, in LocalQueue {@code queue}. */
  private static String sized(String name, String queue, int cpus, int seconds) {
    return job(queue, "", 0, seconds).replace("name: " + queue + "-job-0", "name: " + name)
        .replace("cpu: \"1\"", "cpu: \"" + cpus + "\"");
  }

  /**
   * Kueue's scheduler runs cycles apart from its job reconciler: Jobs created at one instant are heads of the same
   * cycle, and with fair sharing the tournament (kueue {@code pkg/scheduler/fair_sharing_iterator.go}) admits first
   * the one whose queue's share after the admission is lowest, whichever Job came first. {@code big} (3 CPUs of the 3
   * the cohort lends, share 1000) comes first in the manifests, {@code small} (1 CPU, share 333) second: {@code small}
   * is admitted and {@code big} no longer fits.
   */
  @Test
  void run_fairSharingOn_jobsArrivingTogether_lowerShareFirstWhateverTheirOrder() {
    String manifests = NODE + cohort("all", "", "", "") + queue("a", "all", "0", "", "")
        + queue("b", "all", "0", "", "") + queue("shared", "all", "3", "", "")
        + sized("big", "a", 3, 300) + sized("small", "b", 1, 300);
    SimulationRun run = simulation(manifests + scenario("  fairSharing: {enable: true}\n")).run();

    assertThat(at(run, "admitted workloads b", 1)).isEqualTo(1);
    assertThat(at(run, "admitted workloads a", 1)).isZero();
    assertThat(at(run, "pending workloads a", 1)).isEqualTo(1);
  }

  @Test
  void run_fairSharingOff_weightsAreIgnored() {
    SimulationRun off = simulation(WEIGHTED + scenario("")).run();
    SimulationRun disabled = simulation(WEIGHTED + scenario("  fairSharing: {enable: false}\n")).run();

    // without fair sharing the quota goes by Kueue's queue order (borrowing, priority, then creation), not by weight
    assertThat(at(off, "admitted workloads a", 6) + at(off, "admitted workloads b", 6)).isEqualTo(9);
    assertThat(at(off, "admitted workloads a", 6)).isNotEqualTo(6);
    assertThat(at(disabled, "admitted workloads a", 6)).isEqualTo(at(off, "admitted workloads a", 6));
  }

  @Test
  void build_admissionFairSharing_needsManifestQueuesAndKueuesValues() {
    assertThatThrownBy(() -> simulation(NODE + scenario("  admissionFairSharing: {usageHalfLifeTime: 1h}\n")))
        .hasMessageContaining("Scenario fair: spec.admissionFairSharing \"set\" needs Kueue ClusterQueues among the"
            + " manifests");
    // built in code, not read: the simulation checks Kueue's rules, naming the field
    List<ApiObject<?>> objects = KubernetesYaml.parse(WEIGHTED + scenario(""), "fair.yaml").objects();
    Scenario s = objects.stream().filter(o -> o instanceof Scenario).map(o -> (Scenario) o).findFirst()
        .orElseThrow();
    Scenario bad = new Scenario(s.metadata(), s.spec().withAdmissionFairSharing(new ScenarioAdmissionFairSharing(
        Duration.ofHours(1), Duration.ZERO, java.util.Map.of())));
    assertThatThrownBy(() -> ClusterSimulation.builder().objects(Examples.withoutScenario(objects)).scenario(bad)
        .build()).hasMessageContaining("Scenario fair: spec.admissionFairSharing.usageSamplingInterval \"0s\" must"
            + " be greater than 0");
    ClusterSimulation.builder().objects(Examples.withoutScenario(objects)).scenario(new Scenario(s.metadata(),
        s.spec().withAdmissionFairSharing(new ScenarioAdmissionFairSharing(Duration.ofHours(1), Duration.ofMinutes(1),
            java.util.Map.of("cpu", 2.0))))).build();
  }

  @Test
  void build_fairSharingWithoutQueues_isRefused() {
    String manifests = NODE + scenario("  fairSharing: {}\n");
    assertThatThrownBy(() -> simulation(manifests))
        .hasMessageContaining("Scenario fair: spec.fairSharing \"set\" needs spec.queues or Kueue ClusterQueues");
  }
}
