package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

final class SimulateCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return CliHarness.run(out, err, args);
  }

  private static Path example() {
    return CliHarness.example("simulate");
  }

  @Test
  void simulate_kueueManifestsWithoutAScenario_refusedNamingTheObjectAndTheFix(@TempDir Path dir) throws Exception {
    for (String f : List.of("jobs.yaml", "namespaces.yaml", "nodes.yaml", "queues.yaml")) {
      Files.copy(CliHarness.example("kueue").resolve(f), dir.resolve(f));
    }

    int code = run("simulate", dir.toString(), "--duration", "5m");

    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).contains("simulate: simulation: ").contains(" cannot be created at the start: Kueue's"
        + " objects configure the queues of a run with a Scenario (simulation.fleetkit.io/v1) among its manifests");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void simulate_exampleWithTwoNodeFailuresAsJson_tenReadyAtTheEnd() {
    int code = run("simulate", example().toString(), "--duration", "15m", "--fail-node", "node-1@02:00",
        "--fail-node", "node-2@02:00", "--output", "json", "--seed", "4");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.propertyNames()).contains("timeline", "final");
    JsonNode deployments = root.get("final").get("deployments");
    assertThat(deployments).hasSize(1);
    assertThat(deployments.get(0).get("name").asString()).isEqualTo("simulate/web");
    assertThat(deployments.get(0).get("replicas").asInt()).isEqualTo(10);
    assertThat(deployments.get(0).get("ready").asInt()).isEqualTo(10);
    assertThat(root.get("final").get("statefulsets").isArray()).isTrue();
    JsonNode jobs = root.get("final").get("jobs");
    assertThat(jobs).hasSize(1);
    assertThat(jobs.get(0).get("name").asString()).isEqualTo("simulate/nightly-report");
    assertThat(jobs.get(0).get("succeeded").asInt()).isEqualTo(4);
    assertThat(jobs.get(0).get("failed").asInt()).isZero();
    StringBuilder kinds = new StringBuilder();
    for (JsonNode e : root.get("timeline")) {
      kinds.append(e.get("kind").asString()).append(' ');
    }
    assertThat(kinds.toString()).contains("NodeFailed", "NodeUnreachable", "NodeTainted", "PodEvicted");
  }

  @Test
  void simulate_draExample_twoPodsGetTheGpus_theThirdIsListedPending() {
    int code = run("simulate", CliHarness.root().resolve("examples").resolve("dra").toString(), "--duration", "2m",
        "--output", "json");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    List<String> scheduled = new ArrayList<>();
    for (JsonNode e : root.get("timeline")) {
      if (e.get("kind").asString().equals("PodScheduled")) {
        scheduled.add(e.get("object").asString() + " " + e.get("message").asString());
      }
    }
    assertThat(scheduled).containsExactly("Pod/default/train-0 to dra-gpu-1", "Pod/default/train-1 to dra-gpu-1");
    JsonNode pending = root.get("final").get("pending");
    assertThat(pending).hasSize(1);
    assertThat(pending.get(0).get("name").asString()).isEqualTo("default/train-2");
    assertThat(pending.get(0).get("reason").asString()).isEqualTo("Unschedulable");
    assertThat(pending.get(0).get("message").asString()).startsWith("0/2 nodes are available: 2 cannot allocate all "
        + "claims.");

    out.getBuffer().setLength(0);
    assertThat(run("simulate", CliHarness.root().resolve("examples").resolve("dra").toString(), "--duration", "2m"))
        .isZero();
    assertThat(out.toString()).contains("  Pending     default/train-2  Unschedulable: 0/2 nodes are available: 2 "
        + "cannot allocate all claims.");
  }

  @Test
  void simulate_table_printsTimelineAndSummary() {
    int code = run("simulate", example().toString(), "--duration", "1m", "--no-pod-events");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).startsWith("TIME").contains("DeploymentStatus")
        .contains("Deployment  simulate/web  10/10 ready").doesNotContain("PodCreated");
  }

  /** examples/simulate has no NodePool: no cost, said as such in the table, the JSON and the report, not "0.00 $". */
  @Test
  void simulate_noPricedPool_costSaidToBeUnknownNotZero(@TempDir Path dir) throws Exception {
    Path report = dir.resolve("plain.html"); // a report makes the plain manifests a sampled run
    int code = run("simulate", example().toString(), "--duration", "1m", "--no-pod-events", "--report",
        report.toString());

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("\n  Cost        no node pool has a price\n").doesNotContain("$ in total");
    assertThat(Files.readString(report)).contains("<li>Cost: no node pool has a price</li>")
        .doesNotContain("Total cost");

    out.getBuffer().setLength(0);
    code = run("simulate", example().toString(), "--duration", "1m", "--output", "json", "--report",
        report.toString());
    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    List<String> names = new ArrayList<>();
    root.get("series").get("items").forEach(item -> names.add(item.get("name").asString()));
    assertThat(names).contains("pending pods").doesNotContain("cost per hour", "cumulative cost");
  }

  /** A priced pool (examples/cluster): the total in dollars. */
  @Test
  void simulate_pricedPools_costTotalInTheTable() {
    int code = run("simulate", cluster().toString(), "--duration", "10m", "--no-pod-events", "--quiet");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).containsPattern("\n  Cost        [0-9]+\\.[0-9]{2} \\$ in total\n")
        .doesNotContain("no node pool has a price");
  }

  @Test
  void simulate_sameSeedTwice_sameOutput() {
    run("simulate", example().toString(), "--duration", "6m", "--fail-node", "node-3@00:30", "--output", "json");
    String first = out.toString();
    out.getBuffer().setLength(0);
    run("simulate", example().toString(), "--duration", "6m", "--fail-node", "node-3@00:30", "--output", "json");
    assertThat(out.toString()).isEqualTo(first);
  }

  @Test
  void simulate_badFailNode_picocliErrorWithoutStackTrace() {
    int code = run("simulate", example().toString(), "--fail-node", "node-1");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("Invalid value for option '--fail-node'")
        .contains("'node-1' is not NODE@TIME (a node name, '@', TIME: MM:SS, H:MM:SS as the timeline prints it, or a "
            + "duration such as 90s, 15h or 1h30m), e.g. node-2@05:00")
        .doesNotContain("Exception").doesNotContain("\tat ");
  }

  /** A failure's time as MM:SS, as H:MM:SS (the timeline's form past the first hour) or as a Go duration: one run. */
  @Test
  void simulate_failNodeTimeForms_sameRun() {
    String first = null;
    for (String at : List.of("00:30", "0:00:30", "30s", "0.5m")) {
      out.getBuffer().setLength(0);
      assertThat(run("simulate", example().toString(), "--duration", "6m", "--fail-node", "node-3@" + at, "--output",
          "json")).as(at).isZero();
      assertThat(out.toString()).as(at).contains("\"NodeFailed\"");
      if (first == null) {
        first = out.toString();
      }
      assertThat(out.toString()).as(at).isEqualTo(first);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"node-3@1:60", "node-3@0:60:00", "node-3@-5s", "node-3@soon", "node-3@5", "node-3@",
      "node-3@1:2:3:4", "@01:00"})
  void simulate_badFailNodeTime_exit2NamingTheForms(String value) {
    assertThat(run("simulate", example().toString(), "--fail-node", value)).isEqualTo(2);
    assertThat(err.toString()).contains("Invalid value for option '--fail-node'").contains("is not NODE@TIME")
        .contains("H:MM:SS").doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void simulate_failNodeTimePastTheLongestRun_exit2() {
    assertThat(run("simulate", example().toString(), "--fail-node", "node-3@9999999999999999h")).isEqualTo(2);
    assertThat(err.toString()).contains("'node-3@9999999999999999h': the time is past the longest run (876000h)")
        .doesNotContain("\tat ");
    err.getBuffer().setLength(0);
    assertThat(run("simulate", example().toString(), "--fail-node", "node-3@99999999999999999999:00")).isEqualTo(2);
    assertThat(err.toString()).contains("the time is past the longest run").doesNotContain("\tat ");
  }

  /** A failure after the end of the run would never happen: refused, as a file applied then is. */
  @Test
  void simulate_failNodeAfterTheEnd_exit2() {
    assertThat(run("simulate", example().toString(), "--duration", "6m", "--fail-node", "node-3@6:01"))
        .isEqualTo(2);
    assertThat(err.toString()).isEqualTo("simulate: --fail-node node-3@6:01: 06:01 is after the end of the run "
        + "(06:00); the node would never fail" + System.lineSeparator());
    err.getBuffer().setLength(0);
    assertThat(run("simulate", cluster().toString(), "--fail-node", "c-2@25h")).isEqualTo(2);
    assertThat(err.toString()).startsWith("simulate: --fail-node c-2@25h: 25:00:00 is after the end of the run "
        + "(24:00:00)");
  }

  @Test
  void simulate_badDuration_picocliError() {
    int code = run("simulate", example().toString(), "--duration", "soon");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("Invalid value for option '--duration'").contains("1h30m")
        .doesNotContain("\tat ");
  }

  @Test
  void simulate_unknownNode_exit1WithMessage() {
    int code = run("simulate", example().toString(), "--fail-node", "nope@01:00");

    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).startsWith("simulate: ").contains("no such node").doesNotContain("\tat ");
  }

  @Test
  void simulate_scenarioWithUnknownFailedNode_exit1NamingTheOption() {
    int code = run("simulate", cluster().toString(), "--duration", "5m", "--fail-node", "nope@01:30");

    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).startsWith("simulate: --fail-node nope@01:30: no node nope among the manifests")
        .contains("a-1, a-2").doesNotContain("spec.faults").doesNotContain("\tat ");
  }

  /**
   * The table's end-of-run lines stay few with many workloads, as the report's summary: nine Deployments are one line
   * that counts them; eight are listed one by one.
   */
  @Test
  void simulate_manyDeployments_oneLineCountsThem(@TempDir Path dir) throws Exception {
    Files.copy(example().resolve("namespace.yaml"), dir.resolve("namespace.yaml"));
    Files.copy(example().resolve("nodes.yaml"), dir.resolve("nodes.yaml"));
    String web = Files.readString(example().resolve("web.yaml")).replace("replicas: 10", "replicas: 1");
    for (int i = 0; i < 9; i++) {
      Files.writeString(dir.resolve("d-" + i + ".yaml"), web.replace("name: web", "name: d-" + i)
          .replace("app: web", "app: d-" + i));
    }
    assertThat(run("simulate", dir.toString(), "--duration", "1m", "--no-pod-events")).isZero();
    String nine = out.toString();
    assertThat(nine).contains(System.lineSeparator() + "  Deployment  9 Deployments, 9 with every replica ready"
        + System.lineSeparator()).doesNotContain("  Deployment  simulate/d-");

    Files.delete(dir.resolve("d-8.yaml"));
    out.getBuffer().setLength(0);
    assertThat(run("simulate", dir.toString(), "--duration", "1m", "--no-pod-events")).isZero();
    assertThat(out.toString()).contains("  Deployment  simulate/d-0  1/1 ready")
        .contains("  Deployment  simulate/d-7  1/1 ready").doesNotContain("Deployments,");
  }

  /**
   * A run shortened with {@code --duration} leaves the Scenario's later faults out: a warning names each, with its
   * file, line and field; {@code --quiet} leaves it out, and a run long enough for the fault has none.
   */
  @Test
  void simulate_shortenedScenario_warnsOfTheFaultsAfterItsEnd() {
    assertThat(run("simulate", cluster().toString(), "--duration", "1m", "--no-pod-events")).isZero();
    Path scenario = cluster().resolve("scenario.yaml");
    assertThat(err.toString()).contains("Warning: " + scenario + ":21: Scenario shop-day: spec.faults[0].at: 15:00:00"
        + " is after the end of the run (01:00); the fault does not happen" + System.lineSeparator());
    assertThat(out.toString()).doesNotContain("ZoneFailed");

    err.getBuffer().setLength(0);
    assertThat(run("simulate", cluster().toString(), "--duration", "1m", "--no-pod-events", "--quiet")).isZero();
    assertThat(err.toString()).doesNotContain("spec.faults");

    err.getBuffer().setLength(0);
    out.getBuffer().setLength(0);
    assertThat(run("simulate", cluster().toString(), "--duration", "15h", "--no-pod-events", "--output", "json"))
        .isZero();
    assertThat(err.toString()).doesNotContain("spec.faults");
  }

  private static Path cluster() {
    return example().resolveSibling("cluster");
  }

  @Test
  void simulate_scenarioAsJson_hasSeriesAndScalingEvents() {
    int code = run("simulate", cluster().toString(), "--duration", "2h", "--output", "json", "--quiet",
        "--no-pod-events");

    assertThat(code).as(err.toString()).isZero();
    assertThat(err.toString()).isEmpty(); // no progress on a pipe
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.propertyNames()).contains("simulated", "timeline", "final", "scenario", "seed", "series");
    assertThat(root.get("scenario").asString()).isEqualTo("shop-day");
    assertThat(root.get("simulated").asString()).isEqualTo("2:00:00");
    JsonNode seconds = root.get("series").get("seconds");
    assertThat(seconds).hasSize(25);
    assertThat(seconds.get(1).asLong()).isEqualTo(300);
    List<String> names = new ArrayList<>();
    for (JsonNode item : root.get("series").get("items")) {
      names.add(item.get("name").asString());
      assertThat(item.get("values")).hasSize(25);
    }
    assertThat(names).contains("pending pods", "desired shop/web", "ready shop/web", "ready nodes gpu-a100",
        "cpu allocatable", "gpu requested", "requests/s shop/web", "cost per hour", "cumulative cost");
    StringBuilder kinds = new StringBuilder();
    for (JsonNode e : root.get("timeline")) {
      kinds.append(e.get("kind").asString()).append(' ');
    }
    assertThat(kinds.toString()).contains("ScaleUp", "NodeStarted");
  }

  @Test
  void simulate_kueueExample_queuesThroughKueuesManifests() {
    int code = run("simulate", cluster().resolveSibling("kueue").toString(), "--duration", "20m", "--output", "json",
        "--quiet", "--no-pod-events");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.get("scenario").asString()).isEqualTo("lab-kueue");
    List<String> names = new ArrayList<>();
    for (JsonNode item : root.get("series").get("items")) {
      names.add(item.get("name").asString());
    }
    // the series per ClusterQueue are named after the manifests' ClusterQueues
    assertThat(names).contains("admitted workloads research", "pending workloads analytics",
        "jobs succeeded lab-analytics/etl");
  }

  @Test
  void simulate_batchExampleWithDuration_keepsQueuesStreamsAndStartupPhases() {
    int code = run("simulate", cluster().resolveSibling("batch").toString(), "--duration", "20m", "--output", "json",
        "--quiet", "--no-pod-events");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.get("scenario").asString()).isEqualTo("lab-batch");
    List<String> names = new ArrayList<>();
    for (JsonNode item : root.get("series").get("items")) {
      names.add(item.get("name").asString());
    }
    // --duration replaces the scenario's duration only: its queues, job streams and start-up phases stay
    assertThat(names).contains("admitted workloads research", "pending workloads analytics",
        "jobs succeeded analytics/etl", "jobs waiting research/openb", "driver nodes lab-a100");
  }

  /** Two 4-CPU nodes; queue a in cohort child-a, queue b in child-b, both children under root with 4 CPUs. */
  private static final String COHORT_MANIFESTS = """
      apiVersion: v1
      kind: Node
      metadata: {name: node-0}
      status:
        capacity: {cpu: "4", memory: 16Gi, pods: "110"}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: node-1}
      status:
        capacity: {cpu: "4", memory: 16Gi, pods: "110"}
      ---
      apiVersion: simulation.fleetkit.io/v1
      kind: Scenario
      metadata: {name: cohort-tree}
      spec:
        duration: 2h
        seed: 3
        features: {clusterAutoscaler: false, queueAdmission: true}
        queues:
        - {name: a, namespaces: [ml], cohort: child-a, quota: {cpu: "2", memory: 64Gi}}
        - {name: b, namespaces: [cv], cohort: child-b, quota: {cpu: "2", memory: 64Gi}}
        cohorts:
        - {name: root, quota: {cpu: "4"}}
        - {name: child-a, parent: root}
        - {name: child-b, parent: root}
        jobStreams:
        - name: train
          namespace: ml
          queue: a
          poisson: {perHour: 30, pods: 1, requests: {cpu: "2", memory: 1Gi}, runFor: 20m}
      """;

  @Test
  void simulate_scenarioWithCohortsAndDuration_keepsTheCohortTree(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("cluster.yaml"), COHORT_MANIFESTS);
    int code = run("simulate", dir.toString(), "--duration", "1h", "--output", "json", "--quiet", "--no-pod-events");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    double admitted = 0;
    for (JsonNode item : root.get("series").get("items")) {
      if (item.get("name").asString().equals("admitted workloads a")) {
        for (JsonNode v : item.get("values")) {
          admitted = Math.max(admitted, v.asDouble());
        }
      }
    }
    // a's own 2 CPUs, b's unused 2 and the root's 4: four 2-CPU jobs (1 without the cohort tree)
    assertThat(admitted).isEqualTo(4.0);
  }

  /** One 4-CPU node; a queue of 8 CPUs; four 2-CPU jobs at once; waitForPodsReady with a 5-minute timeout. */
  private static final String PODS_READY_MANIFESTS = """
      apiVersion: v1
      kind: Node
      metadata: {name: node-0}
      status:
        capacity: {cpu: "4", memory: 16Gi, pods: "110"}
      ---
      apiVersion: simulation.fleetkit.io/v1
      kind: Scenario
      metadata: {name: pods-ready}
      spec:
        duration: 2h
        seed: 3
        features: {clusterAutoscaler: false, queueAdmission: true}
        queues:
        - {name: batch, namespaces: [ml], quota: {cpu: "8", memory: 64Gi}}
        waitForPodsReady: {timeout: 5m}
        jobStreams:
        - name: train
          namespace: ml
          queue: batch
          csv: |
            name,cpu_milli,memory_mib,num_gpu,creation_time,deletion_time
            j-0,2000,1024,0,0,1800
            j-1,2000,1024,0,0,1800
            j-2,2000,1024,0,0,1800
            j-3,2000,1024,0,0,1800
      """;

  @Test
  void simulate_scenarioWithWaitForPodsReadyAndDuration_evictsTheJobsThatFindNoRoom(@TempDir Path dir)
      throws Exception {
    Files.writeString(dir.resolve("cluster.yaml"), PODS_READY_MANIFESTS);
    int code = run("simulate", dir.toString(), "--duration", "30m", "--output", "json", "--quiet",
        "--no-pod-events");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    List<Double> admitted = new ArrayList<>();
    for (JsonNode item : root.get("series").get("items")) {
      if (item.get("name").asString().equals("admitted workloads batch")) {
        for (JsonNode v : item.get("values")) {
          admitted.add(v.asDouble());
        }
      }
    }
    // --duration keeps the scenario's waitForPodsReady: the quota admits four jobs, the node runs two, and at
    // 5 minutes the two without ready pods are evicted (back after Kueue's 60 s backoff)
    assertThat(admitted.get(4)).isEqualTo(4.0);
    assertThat(admitted.get(5)).isEqualTo(2.0);
    assertThat(admitted.get(7)).isEqualTo(4.0);
  }

  /** A pool of 4-CPU nodes, six 3-CPU pods (one per node), a scenario capping the cluster at 12 cores. */
  private static final String CAPPED_MANIFESTS = """
      apiVersion: fleetkit.io/v1alpha1
      kind: NodePool
      metadata: {name: a}
      spec:
        template:
          capacity: {cpu: "4", memory: 16Gi, pods: "110"}
        minSize: 0
        maxSize: 10
        startupDelay: 1m
      ---
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: default}
      spec:
        replicas: 6
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            containers:
            - name: web
              image: web:1
              resources:
                requests: {cpu: "3"}
      ---
      apiVersion: simulation.fleetkit.io/v1
      kind: Scenario
      metadata: {name: capped}
      spec:
        duration: 1h
        features: {horizontalPodAutoscaler: false, verticalPodAutoscaler: false}
        clusterAutoscaler: {coresTotal: {max: 12}, expander: most-pods}
      """;

  @Test
  void simulate_scenarioWithClusterAutoscalerOptionsAndDuration_keepsTheCoresLimit(@TempDir Path dir)
      throws Exception {
    Files.writeString(dir.resolve("cluster.yaml"), CAPPED_MANIFESTS);
    int code = run("simulate", dir.toString(), "--duration", "15m", "--output", "json", "--quiet",
        "--no-pod-events");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    int launched = 0;
    for (JsonNode e : root.get("timeline")) {
      if (e.get("kind").asString().equals("ScaleUp")) {
        launched += e.get("message").asString().split(", ").length;
      }
    }
    // --duration keeps the scenario's options: 3 nodes of 4 cores reach the 12-core limit (6 without it)
    assertThat(launched).isEqualTo(3);
    assertThat(root.get("final").get("deployments").get(0).toString()).contains("\"ready\":3");
  }

  /** Three provisioner-managed nodes of pool a, two 1-CPU pods (both fit on one node), a budget of 0. */
  private static final String BUDGETED_MANIFESTS = """
      apiVersion: fleetkit.io/v1alpha1
      kind: NodePool
      metadata: {name: a}
      spec:
        template:
          capacity: {cpu: "4", memory: 16Gi, pods: "110"}
        minSize: 0
        maxSize: 10
        startupDelay: 1m
      ---
      NODES
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: default}
      spec:
        replicas: 2
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            containers:
            - name: web
              image: web:1
              resources:
                requests: {cpu: "1"}
      ---
      apiVersion: simulation.fleetkit.io/v1
      kind: Scenario
      metadata: {name: budgeted}
      spec:
        duration: 1h
        features: {horizontalPodAutoscaler: false, verticalPodAutoscaler: false, provisioner: true}
        provisioner: {budgets: [{nodes: "0"}], consolidationPolicy: WhenEmptyOrUnderutilized}
      """.replace("NODES\n", nodes("x") + nodes("y") + nodes("z"));

  private static String nodes(String name) {
    return """
        apiVersion: v1
        kind: Node
        metadata:
          name: %s
          labels: {fleetkit.io/node-pool: a, autoscale.fleetkit.io/provisioner: fleetkit, \
        node.kubernetes.io/instance-type: a}
        status:
          capacity: {cpu: "4", memory: 16Gi, pods: "110"}
        ---
        """.formatted(name);
  }

  private int consolidations(Path dir, String manifests) throws Exception {
    Files.writeString(dir.resolve("cluster.yaml"), manifests);
    out.getBuffer().setLength(0);
    int code = run("simulate", dir.toString(), "--duration", "15m", "--output", "json", "--quiet",
        "--no-pod-events");
    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.get("simulated").asString()).isEqualTo("15:00");
    int n = 0;
    for (JsonNode e : root.get("timeline")) {
      if (e.get("kind").asString().equals("Consolidate")) {
        n++;
      }
    }
    return n;
  }

  @Test
  void simulate_scenarioWithProvisionerOptionsAndDuration_keepsTheBudget(@TempDir Path dir) throws Exception {
    // --duration keeps the scenario's options: a budget of 0 blocks every consolidation the default budget allows
    assertThat(consolidations(dir, BUDGETED_MANIFESTS)).isZero();
    assertThat(consolidations(dir, BUDGETED_MANIFESTS.replace("budgets: [{nodes: \"0\"}], ", ""))).isPositive();
  }

  @Test
  void simulate_scenarioWithProvisionerOptionsWhileItIsOff_exit1NamingTheField(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("cluster.yaml"), BUDGETED_MANIFESTS.replace("provisioner: true}",
        "provisioner: false}"));
    int code = run("simulate", dir.toString(), "--quiet");

    assertThat(code).isNotZero();
    assertThat(err.toString()).contains("spec.provisioner", "needs spec.features.provisioner: true");
  }

  @Test
  void simulate_scenarioWithClusterAutoscalerOptionsWhileItIsOff_exit1NamingTheField(@TempDir Path dir)
      throws Exception {
    Files.writeString(dir.resolve("cluster.yaml"), CAPPED_MANIFESTS.replace("verticalPodAutoscaler: false}",
        "verticalPodAutoscaler: false, clusterAutoscaler: false}"));
    int code = run("simulate", dir.toString(), "--quiet");

    assertThat(code).isNotZero();
    assertThat(err.toString()).contains("spec.clusterAutoscaler", "needs spec.features.clusterAutoscaler: true");
  }

  @Test
  void simulate_gpuPolicyExample_schedulerFromTheScenarioPlacesEveryTracePod() {
    int code = run("simulate", cluster().resolveSibling("gpu-policy").toString(), "--output", "json", "--quiet",
        "--no-pod-events");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.get("scenario").asString()).isEqualTo("gpu-policy");
    Map<String, JsonNode> series = new java.util.HashMap<>();
    for (JsonNode item : root.get("series").get("items")) {
      series.put(item.get("name").asString(), item.get("values"));
    }
    JsonNode succeeded = series.get("jobs succeeded default/openb");
    assertThat(succeeded.get(succeeded.size() - 1).asDouble()).as("the 200 trace pods, all run to the end")
        .isEqualTo(200.0);
    JsonNode failed = series.get("jobs failed default/openb");
    assertThat(failed.get(failed.size() - 1).asDouble()).isZero();
    double maxGpu = 0;
    for (JsonNode v : series.get("gpu requested")) {
      maxGpu = Math.max(maxGpu, v.asDouble());
    }
    assertThat(maxGpu).as("GPUs held by trace pods at some sample").isPositive();
  }

  @Test
  void simulate_report_writesTheHtmlFile(@TempDir Path dir) throws Exception {
    Path report = dir.resolve("sub/report.html");
    int code = run("simulate", cluster().toString(), "--duration", "30m", "--report", report.toString(),
        "--no-pod-events");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).startsWith("TIME").contains("Cost ").endsWith("Report: " + report
        + System.lineSeparator());
    String html = Files.readString(report);
    assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg").contains("Simulation shop-day")
        .contains("id=\"event-table\"");
  }

  @Test
  void simulate_reportWithoutScenario_runsThePlainManifests(@TempDir Path dir) throws Exception {
    Path report = dir.resolve("plain.html");
    int code = run("simulate", example().toString(), "--duration", "2m", "--report", report.toString(),
        "--output", "json");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.get("scenario").asString()).isEqualTo("command-line");
    assertThat(root.get("series").get("seconds")).hasSize(61); // 2 s samples for a 2-minute run
    assertThat(Files.readString(report)).contains("Simulation command-line");
  }

  @Test
  void simulate_sameScenarioTwice_sameBytes() {
    run("simulate", cluster().toString(), "--duration", "1h", "--output", "json", "--quiet");
    String first = out.toString();
    out.getBuffer().setLength(0);
    run("simulate", cluster().toString(), "--duration", "1h", "--output", "json", "--quiet");
    assertThat(out.toString()).isEqualTo(first);
  }

  @Test
  void simulate_twoScenarios_exit1(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("a.yaml"), "apiVersion: simulation.fleetkit.io/v1\nkind: Scenario\n"
        + "metadata: {name: a}\nspec: {duration: 1h}\n---\napiVersion: simulation.fleetkit.io/v1\nkind: Scenario\n"
        + "metadata: {name: b}\nspec: {duration: 1h}\n");
    int code = run("simulate", dir.toString());

    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).contains("2 Scenario objects").doesNotContain("\tat ");
  }

  @Test
  void simulate_scenarioNamingAMissingWorkload_exit1NamingTheField(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("s.yaml"), "apiVersion: simulation.fleetkit.io/v1\nkind: Scenario\n"
        + "metadata: {name: s}\nspec:\n  duration: 1h\n  loads:\n  - target: {name: ghost}\n    constant: 5\n");
    int code = run("simulate", dir.toString(), example().toString());

    assertThat(code).isEqualTo(1);
    // the broken rule at its line in the scenario's file
    assertThat(err.toString()).startsWith("simulate: " + dir.resolve("s.yaml") + ": document 1 (line 1): Scenario s:"
        + " spec.loads[0].target \"Deployment/default/ghost\" names no Deployment, StatefulSet or Rollout among the"
        + " manifests (at line 7)").doesNotContain("\tat ");
  }

  @Test
  void simulate_compareGpuPolicy_runsBothAndShowsBoth(@TempDir Path dir) throws Exception {
    Path report = dir.resolve("cmp.html");
    int code = run("simulate", cluster().toString(), "--duration", "30m", "--gpu-policy", "gap-fill",
        "--compare-gpu-policy", "BestFit", "--output", "json", "--quiet", "--no-pod-events", "--report",
        report.toString());

    assertThat(code).as(err.toString()).isZero();
    JsonNode cmp = JsonMapper.builder().build().readTree(out.toString()).get("comparison");
    assertThat(cmp.get("gpuPolicy").asString()).isEqualTo("GapFill");
    assertThat(cmp.get("otherGpuPolicy").asString()).isEqualTo("BestFit");
    assertThat(cmp.get("label").asString()).isEqualTo("GapFill");
    assertThat(cmp.get("otherLabel").asString()).isEqualTo("BestFit");
    List<String> figures = new ArrayList<>();
    cmp.get("figures").forEach(f -> figures.add(f.get("figure").asString()));
    assertThat(figures).contains("most pending pods", "mean GPUs requested", "mean GPUs used", "total cost");
    // the gang of four one-GPU pods runs under both policies once the GPU nodes are up
    cmp.get("figures").forEach(f -> {
      if (f.get("figure").asString().equals("mean GPUs requested")) {
        assertThat(f.get("value").asDouble()).isPositive();
        assertThat(f.get("otherValue").asDouble()).isPositive();
      }
    });
    assertThat(cmp.get("other").get("series").get("items")).isNotEmpty();
    assertThat(Files.readString(report)).contains("<section id=\"comparison\">")
        .contains("GapFill compared with BestFit").contains("data-chart=\"Compared: gpu used\"");
    // the table output's heading is the GPU policies'
    assertThat(run("simulate", cluster().toString(), "--duration", "5m", "--gpu-policy", "gap-fill",
        "--compare-gpu-policy", "BestFit", "--quiet", "--no-pod-events")).as(err.toString()).isZero();
    assertThat(out.toString()).contains("\nGPU policy GapFill compared with BestFit:\n");
  }

  @Test
  void simulate_unknownGpuPolicy_exit2NamingTheKnownOnes() {
    int code = run("simulate", cluster().toString(), "--compare-gpu-policy", "tetris");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("--compare-gpu-policy").contains("tetris").contains("GapFill")
        .doesNotContain("\tat ");
    assertThat(out.toString()).isEmpty();
  }
}
