package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.simulation.ScenarioProvisioner;
import io.fleetkit.autoscale.provisioner.ConsolidationPolicy;
import io.fleetkit.autoscale.provisioner.DisruptionBudget;
import io.fleetkit.autoscale.provisioner.DisruptionReason;
import io.fleetkit.autoscale.provisioner.Provisioner;
import io.fleetkit.autoscale.provisioner.ProvisionerOptions;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A scenario's {@code spec.provisioner} ({@link ProvisionerChoice}): each option set replaces Karpenter's default in
 * the provisioner the simulation runs, and changes what it does against the same manifests run with the defaults.
 */
final class ScenarioProvisionerOptionsTest {
  private static final String FEATURES = "horizontalPodAutoscaler: false, storage: false, verticalPodAutoscaler: "
      + "false, queueAdmission: false, queueScaling: false, clusterAutoscaler: false, provisioner: true";

  private static final String POOL = """
      apiVersion: fleetkit.io/v1alpha1
      kind: NodePool
      metadata: {name: a}
      spec:
        template:
          capacity: {cpu: "4", memory: 16Gi, pods: "110"}
        minSize: 0
        maxSize: 10
        startupDelay: 1m
        pricePerHour: 1
      ---
      """;

  /** A node of pool {@code a} the provisioner launched earlier (it manages it). */
  private static String node(String name) {
    return """
        apiVersion: v1
        kind: Node
        metadata:
          name: %s
          labels: {fleetkit.io/node-pool: a, %s: %s, %s: a}
        status:
          capacity: {cpu: "4", memory: 16Gi, pods: "110"}
        ---
        """.formatted(name, Provisioner.MANAGED_LABEL, ProvisionerLoop.NAME, Provisioner.INSTANCE_TYPE_LABEL);
  }

  private static String deployment(int replicas, String cpu) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: default}
        spec:
          replicas: %d
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers:
              - name: web
                image: web:1
                resources:
                  requests: {cpu: "%s", memory: 1Gi}
        ---
        """.formatted(replicas, cpu);
  }

  /** Three managed nodes: two with a 1-CPU pod each (both fit on one node), one empty. */
  private static final String THREE_NODES = POOL + node("x") + node("y") + node("z") + deployment(2, "1");

  /** {@code manifests} with a scenario of {@code duration}, the provisioner's block {@code block} (or none). */
  private static SimulationRun run(String manifests, String duration, String block) {
    String yaml = manifests + """
        apiVersion: simulation.fleetkit.io/v1
        kind: Scenario
        metadata: {name: what-if}
        spec:
          duration: %s
          sampleInterval: 1m
          features: {%s}
        """.formatted(duration, FEATURES) + (block.isEmpty() ? "" : "  provisioner: " + block + "\n");
    return ClusterSimulation.builder().objects(KubernetesYaml.parse(yaml, "test.yaml").objects()).build().run();
  }

  private static List<TimelineEvent> events(SimulationRun run, String kind) {
    return run.timeline().stream().filter(e -> e.kind().equals(kind)).toList();
  }

  private static double readyNodesAtTheEnd(SimulationRun run) {
    return run.series("ready nodes a").orElseThrow().last();
  }

  private static double costAtTheEnd(SimulationRun run) {
    return run.series("cumulative cost").orElseThrow().last();
  }

  @Test
  void consolidationPolicy_whenEmptyKeepsTheUnderutilizedNode_theDefaultRemovesIt() {
    SimulationRun byDefault = run(THREE_NODES, "15m", "");
    SimulationRun whenEmpty = run(THREE_NODES, "15m", "{consolidationPolicy: WhenEmpty}");
    // the default removes the empty node, then moves one pod next to the other and removes its node
    assertThat(readyNodesAtTheEnd(byDefault)).isEqualTo(1.0);
    assertThat(events(byDefault, "Consolidate")).extracting(TimelineEvent::message)
        .anyMatch(m -> m.startsWith("Emptiness: z removed"))
        .anyMatch(m -> m.startsWith("SingleNodeConsolidation: "));
    // WhenEmpty removes only the empty node
    assertThat(readyNodesAtTheEnd(whenEmpty)).isEqualTo(2.0);
    assertThat(events(whenEmpty, "Consolidate")).extracting(TimelineEvent::message)
        .allMatch(m -> m.startsWith("Emptiness: "));
    assertThat(costAtTheEnd(whenEmpty)).isGreaterThan(costAtTheEnd(byDefault));
    assertThat(run(THREE_NODES, "15m", "{consolidationPolicy: WhenEmptyOrUnderutilized}").timeline())
        .isEqualTo(byDefault.timeline());
  }

  @Test
  void budgetZero_blocksConsolidation_perReasonBudgetsBlockOnlyTheirMethods() {
    SimulationRun none = run(THREE_NODES, "15m", "{budgets: [{nodes: \"0\"}]}");
    assertThat(events(none, "Consolidate")).isEmpty();
    assertThat(readyNodesAtTheEnd(none)).isEqualTo(3.0);
    assertThat(readyNodesAtTheEnd(run(THREE_NODES, "15m", "{budgets: [{nodes: \"0%\"}]}"))).isEqualTo(3.0);
    // no underutilized consolidation: only the empty node goes
    SimulationRun emptyOnly = run(THREE_NODES, "15m", "{budgets: [{nodes: \"0\", reasons: [Underutilized]}]}");
    assertThat(readyNodesAtTheEnd(emptyOnly)).isEqualTo(2.0);
    assertThat(events(emptyOnly, "Consolidate")).singleElement()
        .satisfies(e -> assertThat(e.message()).startsWith("Emptiness: z removed"));
    // 100%: everything at once, two nodes in the loop after the empty one
    SimulationRun all = run(THREE_NODES, "15m", "{budgets: [{nodes: \"100%\"}]}");
    assertThat(readyNodesAtTheEnd(all)).isEqualTo(1.0);
  }

  @Test
  void consolidateAfter_postponesConsolidation_neverStopsIt() {
    SimulationRun byDefault = run(THREE_NODES, "30m", "");
    Duration firstByDefault = events(byDefault, "Consolidate").get(0).at();
    assertThat(firstByDefault).isLessThan(Duration.ofMinutes(1));
    SimulationRun later = run(THREE_NODES, "30m", "{consolidateAfter: 20m}");
    assertThat(events(later, "Consolidate")).isNotEmpty()
        .allSatisfy(e -> assertThat(e.at()).isGreaterThanOrEqualTo(Duration.ofMinutes(20)));
    assertThat(readyNodesAtTheEnd(later)).isEqualTo(1.0);
    SimulationRun never = run(THREE_NODES, "30m", "{consolidateAfter: Never}");
    assertThat(events(never, "Consolidate")).isEmpty();
    assertThat(readyNodesAtTheEnd(never)).isEqualTo(3.0);
  }

  @Test
  void expireAfter_nodesExpiredAndReplaced_podsRescheduled() {
    // two 1-CPU pods, no node yet: one node launched at 20 s, Ready a minute later; expired every two hours
    String manifests = POOL + deployment(2, "1");
    SimulationRun expiring = run(manifests, "6h", "{expireAfter: 2h}");
    List<TimelineEvent> expired = events(expiring, "Expire");
    assertThat(expired).hasSize(2);
    assertThat(expired.get(0).at()).isEqualTo(Duration.ofHours(2).plusSeconds(20));
    assertThat(expired.get(0).message()).isEqualTo("expired: older than the provisioner's expireAfter (2h); draining, "
        + "its pods to be rescheduled");
    // each replacement is launched for the recreated pods, and expires two hours after its own launch
    List<TimelineEvent> launches = events(expiring, "ScaleUp");
    assertThat(launches).hasSize(3);
    assertThat(launches.get(1).at()).isBetween(expired.get(0).at(), expired.get(0).at().plusMinutes(1));
    assertThat(expired.get(1).at()).isEqualTo(launches.get(1).at().plus(Duration.ofHours(2)));
    assertThat(expired.get(0).object()).isNotEqualTo(expired.get(1).object());
    // the pods run again on the replacement: both running at the end, each outage shorter than three minutes
    assertThat(expiring.series("running pods").orElseThrow().last()).isEqualTo(2.0);
    List<Double> running = expiring.series("running pods").orElseThrow().values();
    int longestOutage = 0;
    int outage = 0;
    for (int i = 5; i < running.size(); i++) {
      outage = running.get(i) < 2.0 ? outage + 1 : 0;
      longestOutage = Math.max(longestOutage, outage);
    }
    assertThat(longestOutage).isBetween(1, 3); // samples of 1 minute
    assertThat(readyNodesAtTheEnd(expiring)).isEqualTo(1.0);
    // Karpenter's default, 720 h, expires nothing in six hours; Never nothing ever
    SimulationRun byDefault = run(manifests, "6h", "");
    assertThat(events(byDefault, "Expire")).isEmpty();
    assertThat(events(byDefault, "ScaleUp")).hasSize(1);
    assertThat(run(manifests, "6h", "{expireAfter: Never}").timeline()).isEqualTo(byDefault.timeline());
    // expiry is forceful: a budget of 0 does not hold it
    assertThat(events(run(manifests, "6h", "{expireAfter: 2h, budgets: [{nodes: \"0\"}]}"), "Expire")).hasSize(2);
  }

  @Test
  void terminationGracePeriod_drainWaitsOnAPdbUntilTheDeadline_thenDeletesThePods() {
    // two 1-CPU pods on one node, a PodDisruptionBudget that lets none go; the node expires at 2h0m20s
    String manifests = POOL + deployment(2, "1") + """
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata: {name: web, namespace: default}
        spec:
          minAvailable: 2
          selector: {matchLabels: {app: web}}
        ---
        """;
    SimulationRun bounded = run(manifests, "3h", "{expireAfter: 2h, terminationGracePeriod: 10m}");
    Duration expiry = Duration.ofHours(2).plusSeconds(20);
    assertThat(events(bounded, "Expire")).extracting(TimelineEvent::at).containsExactly(expiry);
    // the evictions are refused (reported once per pod), the node stays tainted and draining
    List<TimelineEvent> refused = events(bounded, "FailedDraining");
    assertThat(refused).hasSize(2).allSatisfy(e -> {
      assertThat(e.at()).isEqualTo(expiry);
      assertThat(e.object()).isEqualTo(events(bounded, "Expire").get(0).object());
      assertThat(e.message()).contains("refused, retried: Cannot evict pod as it would violate the pod's disruption "
          + "budget.");
    });
    // each pod (30 s grace period) is deleted once 30 s are left to the deadline, whatever its budget
    List<TimelineEvent> deadline = events(bounded, "DrainDeadline");
    assertThat(deadline).hasSize(2).allSatisfy(e -> {
      assertThat(e.at()).isBetween(expiry.plusMinutes(10).minusSeconds(30), expiry.plusMinutes(10).minusSeconds(20));
      assertThat(e.object()).startsWith("Pod/default/web-");
      assertThat(e.message()).contains("to end by its terminationGracePeriod (10m), bypassing its "
          + "PodDisruptionBudget and do-not-disrupt: granted ");
    });
    assertThat(events(bounded, "ScaleDown")).extracting(TimelineEvent::at)
        .allSatisfy(at -> assertThat(at).isGreaterThan(deadline.get(0).at()));
    assertThat(events(bounded, "ScaleDown")).isNotEmpty();
    // unset, the drain waits as long as the budget holds: the node is never deleted
    SimulationRun unbounded = run(manifests, "3h", "{expireAfter: 2h}");
    assertThat(events(unbounded, "FailedDraining")).hasSize(2);
    assertThat(events(unbounded, "DrainDeadline")).isEmpty();
    assertThat(events(unbounded, "ScaleDown")).isEmpty();
  }

  @Test
  void scheduledBudget_blocksConsolidationWhileActive_onlyThen() {
    // the run starts at 2024-01-01 00:00 UTC; no disruption from midnight for 20 minutes, then the default 10%
    SimulationRun blocked = run(THREE_NODES, "30m",
        "{budgets: [{nodes: \"0\", schedule: \"@daily\", duration: 20m}, {nodes: \"100%\"}]}");
    assertThat(events(blocked, "Consolidate")).isNotEmpty()
        .allSatisfy(e -> assertThat(e.at()).isGreaterThanOrEqualTo(Duration.ofMinutes(20)));
    assertThat(readyNodesAtTheEnd(blocked)).isEqualTo(1.0);
    // a window that opens later leaves the first minutes free: consolidation is done before it
    SimulationRun later = run(THREE_NODES, "30m",
        "{budgets: [{nodes: \"0\", schedule: \"0 1 * * *\", duration: 20m}, {nodes: \"100%\"}]}");
    assertThat(events(later, "Consolidate")).isNotEmpty()
        .allSatisfy(e -> assertThat(e.at()).isLessThan(Duration.ofMinutes(1)));
    // a window that stays open blocks it all along
    SimulationRun always = run(THREE_NODES, "30m",
        "{budgets: [{nodes: \"0\", schedule: \"* * * * *\", duration: 1h}]}");
    assertThat(events(always, "Consolidate")).isEmpty();
    assertThat(readyNodesAtTheEnd(always)).isEqualTo(3.0);
  }

  @Test
  void batchDurations_delayTheLaunch() {
    // six 3-CPU pods pending from the start, no node yet
    String manifests = POOL + deployment(6, "3");
    // the pods are pending from the first 10 s loop on; by default the batch closes at the next loop
    SimulationRun byDefault = run(manifests, "10m", "");
    assertThat(events(byDefault, "ScaleUp")).first()
        .satisfies(e -> assertThat(e.at()).isEqualTo(Duration.ofSeconds(20)));
    SimulationRun batched = run(manifests, "10m", "{batchIdleDuration: 2m, batchMaxDuration: 5m}");
    assertThat(events(batched, "ScaleUp")).first().satisfies(e -> {
      assertThat(e.at()).isEqualTo(Duration.ofMinutes(2).plusSeconds(10));
      assertThat(e.message()).startsWith("provisioner launching 6 node(s)");
    });
    // the maximum ends the batch when the idle window is longer
    SimulationRun capped = run(manifests, "10m", "{batchIdleDuration: 4m, batchMaxDuration: 1m}");
    assertThat(events(capped, "ScaleUp")).first()
        .satisfies(e -> assertThat(e.at()).isEqualTo(Duration.ofMinutes(1).plusSeconds(10)));
  }

  @Test
  void options_eachSetOneReplacesTheDefault_theOthersStay() {
    assertThat(ProvisionerChoice.of(null).options()).isEqualTo(ProvisionerOptions.defaults());
    assertThat(ProvisionerChoice.of(ScenarioProvisioner.DEFAULTS).options()).isEqualTo(ProvisionerOptions.defaults());
    // Karpenter's CRD defaults consolidateAfter to 0s
    assertThat(ProvisionerOptions.defaults().consolidateAfter()).isEqualTo(Duration.ZERO);
    ScenarioProvisioner p = ScenarioProvisioner.builder().batchIdleDuration(Duration.ofSeconds(5))
        .batchMaxDuration(Duration.ofMinutes(1)).consolidationPolicy("WhenEmpty")
        .consolidateAfter(Duration.ofMinutes(3)).budgets(List.of(ScenarioProvisioner.Budget.of("20%"),
            new ScenarioProvisioner.Budget("2", List.of("Empty", "Drifted")))).build();
    assertThat(ProvisionerChoice.of(p).options()).isEqualTo(ProvisionerOptions.defaults()
        .withBatchDurations(Duration.ofSeconds(5), Duration.ofMinutes(1)).withPolicy(ConsolidationPolicy.WhenEmpty)
        .withConsolidateAfter(Duration.ofMinutes(3)).withBudgets(List.of(
            DisruptionBudget.of(IntOrPercent.ofPercent(20)),
            new DisruptionBudget(IntOrPercent.of(2), Set.of(DisruptionReason.Empty, DisruptionReason.Drifted)))));
    // one batch window set keeps the other's default
    ProvisionerOptions idleOnly = ProvisionerChoice.of(ScenarioProvisioner.builder()
        .batchIdleDuration(Duration.ofSeconds(3)).build()).options();
    assertThat(idleOnly.batchMaxDuration()).isEqualTo(Duration.ofSeconds(10));
    assertThat(ProvisionerChoice.of(ScenarioProvisioner.builder().consolidateAfter(ScenarioProvisioner.NEVER)
        .build()).options().consolidateAfter()).isNull();
    // expireAfter: Karpenter's 720h unless set; Never is none
    assertThat(ProvisionerOptions.defaults().expireAfter()).isEqualTo(ScenarioProvisioner.DEFAULT_EXPIRE_AFTER);
    assertThat(ProvisionerChoice.of(ScenarioProvisioner.builder().expireAfter(Duration.ofHours(2)).build()).options()
        .expireAfter()).isEqualTo(Duration.ofHours(2));
    assertThat(ProvisionerChoice.of(ScenarioProvisioner.builder().expireAfter(ScenarioProvisioner.NEVER).build())
        .options().expireAfter()).isNull();
    // a scheduled budget keeps its schedule, parsed in UTC, and its duration
    DisruptionBudget scheduled = ProvisionerChoice.of(ScenarioProvisioner.builder().budgets(List.of(
        new ScenarioProvisioner.Budget("0", List.of(), "0 9 * * mon-fri", Duration.ofHours(8)))).build()).options()
        .budgets().get(0);
    assertThat(scheduled.schedule()).isNotNull();
    assertThat(scheduled.duration()).isEqualTo(Duration.ofHours(8));
    assertThat(scheduled.isActive(java.time.Instant.parse("2024-01-01T09:00:00Z"))).isTrue();
    assertThat(scheduled.isActive(java.time.Instant.parse("2024-01-01T17:00:00Z"))).isFalse();
  }

  @Test
  void everyPolicyAndReasonAScenarioMayName_isOneTheProvisionerKnows() {
    for (String policy : ScenarioProvisioner.POLICIES) {
      assertThat(ConsolidationPolicy.valueOf(policy)).hasToString(policy);
    }
    assertThat(ScenarioProvisioner.DEFAULT_POLICY)
        .isEqualTo(ProvisionerOptions.defaults().policy().name());
    for (String reason : ScenarioProvisioner.REASONS) {
      assertThat(DisruptionReason.valueOf(reason)).hasToString(reason);
    }
    assertThat(ScenarioProvisioner.REASONS).hasSize(DisruptionReason.values().length);
  }
}
