package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.simulation.FaultType;
import io.fleetkit.api.simulation.LoadShape;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioAutoscaler;
import io.fleetkit.api.simulation.ScenarioCohort;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioPodsReady;
import io.fleetkit.api.simulation.ScenarioProvisioner;
import io.fleetkit.api.simulation.ScenarioQueue;
import io.fleetkit.api.simulation.WorkloadLoad;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ScenarioYamlTest {
  private static final String HEAD = "apiVersion: simulation.fleetkit.io/v1\nkind: Scenario\nmetadata: {name: day}\n";

  private static Scenario parse(String spec) {
    return KubernetesYaml.parse(HEAD + spec, "scenario.yaml").ofType(Scenario.class).get(0);
  }

  private static String problems(String spec) {
    try {
      KubernetesYaml.parse(HEAD + spec, "scenario.yaml");
    } catch (ManifestException e) {
      return e.problems().toString();
    }
    throw new AssertionError("no problem reported for " + spec);
  }

  @Test
  void everyLoadShapeAndFault_read() {
    Scenario s = parse("""
        spec:
          duration: 24h
          seed: 7
          sampleInterval: 5m
          features: {clusterAutoscaler: false}
          loads:
          - target: {kind: Deployment, namespace: shop, name: web}
            cpuPerRequest: 2m
            diurnal: {trough: 200, peak: 5000, peakAt: 14h}
          - target: {name: api}
            constant: 50
          - target: {name: step}
            step: {before: 1, after: 2, at: 1h}
          - target: {name: spike}
            memoryPerRequest: 1Mi
            spike: {base: 1, peak: 9, at: 2h, length: 10m}
          - target: {name: csv}
            csv: |
              seconds,requestsPerSecond
              0,10
              # a comment
              3600,20.5
          faults:
          - {at: 15h, zoneFailure: zone-b, recoverAfter: 1h}
          - {at: 30m, nodeFailure: a-1}
          - {at: 2h, kubeletRestart: a-2}
        """);
    assertThat(s.spec().duration()).isEqualTo(Duration.ofHours(24));
    assertThat(s.spec().seed()).isEqualTo(7);
    assertThat(s.spec().sampleInterval()).isEqualTo(Duration.ofMinutes(5));
    assertThat(s.spec().features().clusterAutoscaler()).isFalse();
    assertThat(s.spec().features().horizontalPodAutoscaler()).isTrue();
    List<WorkloadLoad> loads = s.spec().loads();
    assertThat(loads).extracting(l -> l.pattern().shape()).containsExactly(LoadShape.Diurnal, LoadShape.Constant,
        LoadShape.Step, LoadShape.Spike, LoadShape.Csv);
    assertThat(loads.get(0).cpuMilliPerRequest()).isEqualTo(2.0);
    assertThat(loads.get(0).pattern().rateAt(Duration.ofHours(14))).isEqualTo(5000.0);
    assertThat(loads.get(1).target()).isEqualTo("Deployment/default/api");
    assertThat(loads.get(3).memoryPerRequest()).isEqualTo(1024.0 * 1024);
    assertThat(loads.get(4).pattern().rateAt(Duration.ofHours(2))).isEqualTo(20.5);
    assertThat(s.spec().faults()).hasSize(3);
    assertThat(s.spec().faults().get(0).type()).isEqualTo(FaultType.ZoneFailure);
    assertThat(s.spec().faults().get(0).recoverAfter()).isEqualTo(Duration.ofHours(1));
    assertThat(s.spec().faults().get(1).recoverAfter()).isNull();
    assertThat(s.spec().faults().get(2).type()).isEqualTo(FaultType.KubeletRestart);
    assertThat(s.spec().faults().get(2).target()).isEqualTo("a-2");
    Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(s)), "dump.yaml").ofType(Scenario.class).get(0);
    assertThat(again.spec().faults()).isEqualTo(s.spec().faults());
  }

  @Test
  void kubeletRestart_withARecovery_refusedNamingTheField() {
    assertThat(problems("spec:\n  duration: 1h\n  faults:\n  - {at: 5m, kubeletRestart: a-1, recoverAfter: 1m}\n"))
        .contains("spec.faults[0].recoverAfter", "is not for kubeletRestart (a restart is instant)");
    assertThat(problems("spec:\n  duration: 1h\n  faults:\n  - {at: 5m, kubeletRestart: a-1, nodeFailure: a-1}\n"))
        .contains("spec.faults[0]", "kubeletRestart (a node name)");
  }

  @Test
  void roundTrip_dumpThenParse_sameScenario() {
    Scenario s = parse("""
        spec:
          duration: 2h
          loads:
          - target: {name: web}
            cpuPerRequest: 5m
            spike: {base: 1, peak: 9, at: 2h, length: 10m}
          faults:
          - {at: 15m, nodeFailure: a-1, recoverAfter: 5m}
        """);
    Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(s)), "dump.yaml").ofType(Scenario.class).get(0);
    assertThat(again).isEqualTo(s);
  }

  /**
   * Fuzz finding (ScenarioFuzzTestInputs/recover-after-beyond-go-max-duration in the simulator module): a duration
   * longer than Go's longest was cut to it, and parts adding up past it wrapped round.
   */
  @Test
  void durationLongerThanGosLongest_reportedNotCutOrWrapped() {
    String longest = "2562047h47m16.854775807s";
    for (String d : List.of("3999999999999999999999999999999999m", "2562048h", "2562047h2562047h",
        "2562047h2562047h2562047h", "2562047h47m16.854775808s")) {
      assertThat(problems("spec:\n  duration: 1h\n  faults:\n  - {at: 5m, nodeFailure: a-1, recoverAfter: " + d
          + "}\n")).as(d).contains("spec.faults[0].recoverAfter", "must be at most " + longest);
    }
    Scenario s = parse("spec:\n  duration: 1h\n  faults:\n  - {at: 5m, nodeFailure: a-1, recoverAfter: " + longest
        + "}\n");
    assertThat(s.spec().faults().get(0).recoverAfter()).isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
    assertThat(KubernetesYaml.parse(KubernetesYaml.dump(List.of(s)), "dump.yaml").ofType(Scenario.class).get(0))
        .isEqualTo(s);
  }

  /** Go reads a sign; a scenario's durations are lengths of time, so a negative one is refused naming the rule. */
  @Test
  void negativeOrNonAsciiDuration_reported() {
    assertThat(problems("spec:\n  duration: -1h\n")).contains("spec.duration", "must not be negative");
    assertThat(problems("spec:\n  duration: \u0663h\n")).contains("spec.duration",
        "must be a duration such as 90s, 5m or 1h30m");
    assertThat(parse("spec:\n  duration: 1h0m0.5s\n").spec().duration()).isEqualTo(Duration.ofMillis(3_600_500));
  }

  /** Finer than a millisecond: the part was dropped when written, so the scenario read back differed. */
  @Test
  void durationFinerThanAMillisecond_writtenAndReadBackExactly() {
    Scenario s = parse("spec:\n  duration: 1h\n  faults:\n  - {at: 0.0000005s, nodeFailure: a-1, recoverAfter: "
        + "1m1.0000000019s}\n");
    assertThat(s.spec().faults().get(0).at()).isEqualTo(Duration.ofNanos(500));
    assertThat(s.spec().faults().get(0).recoverAfter()).isEqualTo(Duration.ofSeconds(61, 1)); // 0.9 ns cut off
    String written = KubernetesYaml.dump(List.of(s));
    assertThat(written).contains("500ns").contains("1m1.000000001s"); // Go's Duration.String()
    assertThat(KubernetesYaml.parse(written, "dump.yaml").ofType(Scenario.class).get(0)).isEqualTo(s);
    assertThat(parse("spec:\n  duration: 1500ms\n").spec().duration()).isEqualTo(Duration.ofMillis(1500));
  }

  @Test
  void unknownField_reportedWithThePath() {
    assertThat(problems("spec:\n  duration: 1h\n  loads:\n  - target: {name: web}\n    constnat: 5\n"))
        .contains("spec.loads[0].constnat").contains("is not a field");
  }

  @Test
  void missingDurationAndTwoShapes_reported() {
    String p = problems("spec:\n  loads:\n  - target: {name: web}\n    constant: 5\n    step: {before: 1, after: 2}\n");
    assertThat(p).contains("spec.duration").contains("is required").contains("spec.loads[0]")
        .contains("exactly one of");
  }

  @Test
  void badCsvRowAndBadFault_reported() {
    String p = problems("spec:\n  duration: 1h\n  loads:\n  - target: {name: web}\n    csv: \"0,1\\nten,2\\n\"\n"
        + "  faults:\n  - {at: 5m}\n");
    assertThat(p).contains("spec.loads[0].csv row 2").contains("spec.faults[0]").contains("nodeFailure");
  }

  /** {@code NaN} parses as a double: it was read as 0 s, an infinity as the longest duration. */
  @Test
  void csvRowSecondsNotFinite_reported() {
    String p = problems("spec:\n  duration: 1h\n  loads:\n  - target: {name: web}\n    csv: \"0,1\\nNaN,2\\nInfinity,3\\n\"\n");
    assertThat(p).contains("spec.loads[0].csv row 2 \"NaN\" seconds must be a finite number")
        .contains("spec.loads[0].csv row 3 \"Infinity\" seconds must be a finite number");
  }

  /**
   * The cells are Go float text: "1d" (a Java double) is no number, and a rate of NaN or an infinity (both Go
   * floats) is refused as the seconds are, instead of reaching the load as a rate.
   */
  @Test
  void csvRowRateNotFiniteOrNotGoFloatText_reported() {
    String p = problems("spec:\n  duration: 1h\n  loads:\n  - target: {name: web}\n"
        + "    csv: \"0,1\\n60,NaN\\n120,+Inf\\n180,1d\\n\"\n");
    assertThat(p).contains("spec.loads[0].csv row 2 \"NaN\" requestsPerSecond must be a finite number")
        .contains("spec.loads[0].csv row 3 \"+Inf\" requestsPerSecond must be a finite number")
        .contains("spec.loads[0].csv row 4 \"180,1d\" must be two numbers seconds,requestsPerSecond");
  }

  /** A quoted number is Go float text: Double.valueOf read "2d" and " 2" as 2 requests per second. */
  @Test
  void quotedConstantRateNotGoFloatText_reported() {
    for (String rate : new String[] {"2d", " 2", "0x2"}) {
      assertThat(problems("spec:\n  duration: 1h\n  loads:\n  - target: {name: web}\n    constant: \"" + rate
          + "\"\n")).as(rate).contains("spec.loads[0].constant").contains("must be a number");
    }
  }

  @Test
  void negativeRate_reportedAsAManifestProblem() {
    assertThatThrownBy(() -> KubernetesYaml.parse(HEAD + "spec:\n  duration: 1h\n  loads:\n  - target: {name: web}\n"
        + "    constant: -3\n", "s.yaml")).isInstanceOf(ManifestException.class)
        .hasMessageContaining("spec.loads[0].constant")
        .hasMessageContaining("must be a finite number greater than or equal to 0");
  }

  /**
   * A negative rate of every shape is a manifest problem naming its field, reported by the reader before the
   * LoadPattern (which refuses it too) is made, and all of a document's are reported at once.
   */
  @Test
  void negativeRateOfEachShape_reportedNamingTheField() {
    String p = problems("spec:\n  duration: 1h\n  loads:\n"
        + "  - target: {name: a}\n    step: {before: 1, after: -2, at: 1m}\n"
        + "  - target: {name: b}\n    spike: {base: -1, peak: 3, at: 1m, length: 1m}\n"
        + "  - target: {name: c}\n    diurnal: {trough: -5, peak: 10, peakAt: 1h}\n"
        + "  - target: {name: d}\n    csv: \"0,1\\n60,-4\\n\"\n");
    String rule = "must be a finite number greater than or equal to 0";
    assertThat(p).contains("spec.loads[0].step.after \"-2.0\" " + rule)
        .contains("spec.loads[1].spike.base \"-1.0\" " + rule)
        .contains("spec.loads[2].diurnal.trough \"-5.0\" " + rule)
        .contains("spec.loads[3].csv row 2 requestsPerSecond \"-4\" " + rule)
        .doesNotContain("spec.loads[0].step.before").doesNotContain("spec.loads[1].spike.peak");
  }

  private static final String ENGINES = """
      spec:
        duration: 6h
        features: {verticalPodAutoscaler: false, queueAdmission: true}
        loads:
        - target: {namespace: shop, name: worker}
          cpuPerRequest: 5m
          constant: 100
        queues:
        - name: research
          namespaces: [ml]
          cohort: lab
          flavor: {name: a100, nodeLabels: {fleetkit.io/node-pool: gpu-a100}}
          quota: {cpu: "64", memory: 256Gi, nvidia.com/gpu: "8"}
        jobStreams:
        - name: train
          namespace: ml
          queue: research
          poisson: {perHour: 12, pods: 4, requests: {cpu: "2", nvidia.com/gpu: "1"}, runFor: 20m}
        - name: replay
          namespace: ml
          trace: default
          first: 100
          timeScale: 0.001
        - name: inline
          namespace: ml
          csv: |
            name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
            p-0,1000,1024,1,1000,,LS,Running,0,600,0
        queueScalers:
        - target: {namespace: shop, name: worker}
          perReplica: 500
          maxReplicas: 20
          cooldown: 2m
      """;

  @Test
  void queuesJobStreamsAndQueueScalers_readAndRoundTrip() {
    Scenario s = parse(ENGINES);
    assertThat(s.spec().features().verticalPodAutoscaler()).isFalse();
    assertThat(s.spec().features().queueScaling()).isTrue();
    assertThat(s.spec().queues()).hasSize(1);
    assertThat(s.spec().queues().get(0).quota().value("nvidia.com/gpu")).isEqualTo(8);
    assertThat(s.spec().queues().get(0).nodeLabels()).containsEntry("fleetkit.io/node-pool", "gpu-a100");
    assertThat(s.spec().jobStreams()).extracting(j -> j.name()).containsExactly("train", "replay", "inline");
    assertThat(s.spec().jobStreams().get(0).template().pods()).isEqualTo(4);
    assertThat(s.spec().jobStreams().get(0).template().runFor()).isEqualTo(Duration.ofMinutes(20));
    assertThat(s.spec().jobStreams().get(1).trace()).isEqualTo("default");
    assertThat(s.spec().jobStreams().get(2).jobs()).hasSize(1);
    assertThat(s.spec().jobStreams().get(2).jobs().get(0).runFor()).isEqualTo(Duration.ofMinutes(10));
    assertThat(s.spec().queueScalers().get(0).pollingInterval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(s.spec().queueScalers().get(0).minReplicas()).isZero();
    Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(s)), "dump.yaml").ofType(Scenario.class).get(0);
    assertThat(again.spec()).isEqualTo(s.spec());
  }

  private static final String TAINTED_FLAVOR = ENGINES.replace(
      "flavor: {name: a100, nodeLabels: {fleetkit.io/node-pool: gpu-a100}}",
      "flavor:\n"
          + "            name: a100\n"
          + "            nodeLabels: {fleetkit.io/node-pool: gpu-a100}\n"
          + "            nodeTaints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]\n"
          + "            tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]");

  @Test
  void queueFlavorTaintsAndTolerations_readAndRoundTrip() {
    Scenario s = parse(TAINTED_FLAVOR);
    ScenarioQueue q = s.spec().queues().get(0);
    assertThat(q.nodeTaints()).containsExactly(Taint.of("nvidia.com/gpu", "present", TaintEffect.NoSchedule));
    assertThat(q.tolerations()).containsExactly(Toleration.exists("nvidia.com/gpu", TaintEffect.NoSchedule));
    Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(s)), "dump.yaml").ofType(Scenario.class)
        .get(0);
    assertThat(again.spec()).isEqualTo(s.spec());
    assertThat(parse(ENGINES).spec().queues().get(0).nodeTaints()).isEmpty();
  }

  @Test
  void badQueueFlavorTaintsAndTolerations_reportedWithThePath() {
    assertThat(problems(TAINTED_FLAVOR.replace("effect: NoSchedule}]\n            tolerations",
        "effect: Sometimes}]\n            tolerations")))
        .contains("spec.queues[0].flavor.nodeTaints[0].effect",
            "must be one of NoSchedule, PreferNoSchedule, NoExecute");
    assertThat(problems(TAINTED_FLAVOR.replace("operator: Exists,", "operator: Exists, seconds: 3,")))
        .contains("spec.queues[0].flavor.tolerations[0].seconds", "is not a field");
    assertThat(problems(TAINTED_FLAVOR.replace("operator: Exists, effect", "operator: Exists, value: x, effect")))
        .contains("spec.queues[0].flavor.tolerations[0]");
  }

  private static final String COHORTS = ENGINES.replace("  jobStreams:\n", """
        - name: vision
          namespaces: [cv]
          cohort: team-b
          quota: {cpu: "8"}
        cohorts:
        - name: org
          flavor: {name: a100}
          quota: {cpu: "16", nvidia.com/gpu: "4"}
        - name: lab
          parent: org
          flavor: {name: a100}
          quota: {nvidia.com/gpu: "2"}
          borrowingLimit: {nvidia.com/gpu: "1"}
          lendingLimit: {nvidia.com/gpu: "3"}
        - name: team-b
          parent: org
        jobStreams:
      """);

  @Test
  void cohorts_readAndRoundTrip() {
    Scenario s = parse(COHORTS);
    assertThat(s.spec().cohorts()).containsExactly(
        ScenarioCohort.of("org", null, "a100", ResourceList.builder().put("cpu", "16").put("nvidia.com/gpu", "4")
            .build()),
        ScenarioCohort.of("lab", "org", "a100", ResourceList.builder().put("nvidia.com/gpu", "2").build())
            .withLimits(ResourceList.builder().put("nvidia.com/gpu", "1").build(),
                ResourceList.builder().put("nvidia.com/gpu", "3").build()),
        ScenarioCohort.of("team-b", "org"));
    assertThat(s.spec().queues()).extracting(ScenarioQueue::cohort).containsExactly("lab", "team-b");
    Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(s)), "dump.yaml").ofType(Scenario.class)
        .get(0);
    assertThat(again.spec()).isEqualTo(s.spec());
    assertThat(parse(ENGINES).spec().cohorts()).isEmpty();
  }

  @Test
  void cohorts_aQuotaOfTheDefaultFlavor_needsAQueueOfIt() {
    // team-b's quota names no flavor: the default one, which the queue vision defines
    Scenario s = parse(COHORTS.replace("- name: team-b\n    parent: org\n",
        "- name: team-b\n    parent: org\n    quota: {cpu: \"4\"}\n"));
    assertThat(s.spec().cohorts().get(2).flavor()).isEqualTo("default");
    assertThat(s.spec().cohorts().get(2).quota().milliCpu()).isEqualTo(4000);
    Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(s)), "dump.yaml").ofType(Scenario.class)
        .get(0);
    assertThat(again.spec()).isEqualTo(s.spec());
    assertThat(problems(COHORTS.replace("cohort: team-b\n    quota: {cpu: \"8\"}",
        "cohort: team-b\n    flavor: {name: t4}\n    quota: {cpu: \"8\"}").replace("- name: team-b\n    parent: org\n",
        "- name: team-b\n    parent: org\n    quota: {cpu: \"4\"}\n")))
        .contains("spec.cohorts[2].flavor.name", "must name a flavor of spec.queues [a100, t4]", "default");
  }

  @Test
  void badCohorts_reportedWithThePathAndKueuesRule() {
    assertThat(problems(COHORTS.replace("- name: team-b\n    parent: org\n",
        "- name: team-b\n    parnet: org\n")))
        .contains("spec.cohorts[2].parnet", "is not a field");
    assertThat(problems(COHORTS.replace("flavor: {name: a100}\n    quota: {cpu: \"16\"",
        "flavor: {name: a100, nodeLabels: {a: b}}\n    quota: {cpu: \"16\"")))
        .contains("spec.cohorts[0].flavor.nodeLabels", "is not a field");
    assertThat(problems(COHORTS.replace("- name: team-b\n", "- name: Team_B\n")))
        .contains("spec.cohorts[2].name", "Team_B");
    assertThat(problems(COHORTS.replace("parent: org\n    flavor", "parent: Org!\n    flavor")))
        .contains("spec.cohorts[1].parent", "Org!");
    assertThat(problems(COHORTS.replace("- name: team-b\n", "- name: lab\n")))
        .contains("spec.cohorts[2].name", "must not repeat an earlier cohort's name");
    assertThat(problems(COHORTS.replace("- name: team-b\n    parent: org\n", "- name: team-b\n    parent: team-b\n")))
        .contains("spec.cohorts[2].parent", "must not be the cohort itself");
    assertThat(problems(COHORTS.replace("- name: org\n", "- name: org\n    parent: lab\n")))
        .contains("spec.cohorts[0].parent", "must not form a cycle (org -> lab -> org)")
        .contains("spec.cohorts[1].parent", "must not form a cycle (lab -> org -> lab)");
    assertThat(problems(COHORTS.replace("quota: {cpu: \"16\", nvidia.com/gpu: \"4\"}",
        "quota: {cpu: \"16\", nvidia.com/gpu: \"4\"}\n    borrowingLimit: {cpu: \"1\"}\n    lendingLimit: {cpu: \"2\"}")))
        .contains("spec.cohorts[0].borrowingLimit", "spec.cohorts[0].lendingLimit", "must be nil when parent is empty");
    assertThat(problems(COHORTS.replace("borrowingLimit: {nvidia.com/gpu: \"1\"}", "borrowingLimit: {cpu: \"1\"}")))
        .contains("spec.cohorts[1].borrowingLimit.cpu", "must be a resource of quota [nvidia.com/gpu]");
    assertThat(problems(COHORTS.replace("lendingLimit: {nvidia.com/gpu: \"3\"}", "lendingLimit: {nvidia.com/gpu: \"-3\"}")))
        .contains("spec.cohorts[1].lendingLimit.nvidia.com/gpu");
    assertThat(problems(COHORTS.replace("quota: {cpu: \"16\", nvidia.com/gpu: \"4\"}",
        "quota: {cpu: \"-16\", nvidia.com/gpu: \"4\"}")))
        .contains("spec.cohorts[0].quota.cpu");
    assertThat(problems(COHORTS.replace("- name: org\n    flavor: {name: a100}", "- name: org\n    flavor: {name: h100}")))
        .contains("spec.cohorts[0].flavor.name", "must name a flavor of spec.queues [a100, default]", "h100");
    assertThat(problems(COHORTS.replace("- name: team-b\n    parent: org\n",
        "- name: team-b\n    parent: org\n    flavor: {name: A100}\n")))
        .contains("spec.cohorts[2].flavor.name", "A100");
    assertThat(problems(COHORTS.replace("- name: team-b\n    parent: org\n", "- parent: org\n")))
        .contains("spec.cohorts[2].name", "is required");
    assertThat(problems(COHORTS.replace("cohort: team-b", "cohort: Team_B")))
        .contains("spec.queues[1].cohort", "Team_B");
    assertThat(problems("spec:\n  duration: 1h\n  cohorts: {name: org}\n")).contains("spec.cohorts");
  }

  private static final String PODS_READY = ENGINES.replace("  jobStreams:\n", """
        waitForPodsReady:
          timeout: 10m
          blockAdmission: true
          recoveryTimeout: 3m
          requeuingStrategy: {timestamp: Creation, backoffLimitCount: 5, backoffBaseSeconds: 30, backoffMaxSeconds: 600}
        jobStreams:
      """);

  @Test
  void waitForPodsReady_readWithKueuesDefaults_andRoundTrips() {
    Scenario s = parse(PODS_READY);
    assertThat(s.spec().waitForPodsReady()).isEqualTo(new ScenarioPodsReady(Duration.ofMinutes(10), true,
        Duration.ofMinutes(3), true, 5, 30, 600));
    Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(s)), "dump.yaml").ofType(Scenario.class)
        .get(0);
    assertThat(again.spec()).isEqualTo(s.spec());
    // absent: off; present but empty: Kueue's defaults (30m, Eviction, no limit, 60 s .. 3600 s)
    assertThat(parse(ENGINES).spec().waitForPodsReady()).isNull();
    assertThat(parse(ENGINES.replace("  jobStreams:\n", "  waitForPodsReady: {}\n  jobStreams:\n"))
        .spec().waitForPodsReady()).isEqualTo(ScenarioPodsReady.withTimeout(Duration.ofMinutes(30)));
  }

  @Test
  void badWaitForPodsReady_reportedWithThePath() {
    assertThat(problems(PODS_READY.replace("timestamp: Creation", "timestamp: Arrival")))
        .contains("spec.waitForPodsReady.requeuingStrategy.timestamp", "must be Eviction or Creation");
    assertThat(problems(PODS_READY.replace("blockAdmission: true", "blockAdmision: true")))
        .contains("spec.waitForPodsReady.blockAdmision", "is not a field");
    assertThat(problems(PODS_READY.replace("timeout: 10m", "timeout: 0s")))
        .contains("spec.waitForPodsReady.timeout", "must be specified");
    assertThat(problems(PODS_READY.replace("backoffLimitCount: 5", "backoffLimitCount: -1")))
        .contains("spec.waitForPodsReady.requeuingStrategy.backoffLimitCount");
    // without spec.queues it loads: the queues may be Kueue's among the manifests, which the simulation checks
    assertThat(parse("spec:\n  duration: 1h\n  waitForPodsReady: {timeout: 5m}\n").spec().waitForPodsReady())
        .isNotNull();
  }

  @Test
  void admissionFeature_onByDefault_switchableAndRoundTrips() {
    assertThat(parse("spec:\n  duration: 1h\n").spec().features().admission()).isTrue();
    Scenario off = parse("spec:\n  duration: 1h\n  features: {admission: false}\n");
    assertThat(off.spec().features().admission()).isFalse();
    assertThat(off.spec().features().storage()).isTrue();
    Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(off)), "dump.yaml").ofType(Scenario.class)
        .get(0);
    assertThat(again.spec().features()).isEqualTo(off.spec().features());
    assertThat(problems("spec:\n  duration: 1h\n  features: {admission: maybe}\n"))
        .contains("spec.features.admission");
  }

  @Test
  void podGarbageCollectorFeature_onByDefault_switchableAndRoundTrips() {
    assertThat(parse("spec:\n  duration: 1h\n").spec().features().podGarbageCollector()).isTrue();
    Scenario off = parse("spec:\n  duration: 1h\n  features: {podGarbageCollector: false}\n");
    assertThat(off.spec().features())
        .isEqualTo(ScenarioFeatures.builder().podGarbageCollector(false).build());
    Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(off)), "dump.yaml").ofType(Scenario.class)
        .get(0);
    assertThat(again.spec().features()).isEqualTo(off.spec().features());
    assertThat(problems("spec:\n  duration: 1h\n  features: {podGarbageCollector: 1}\n"))
        .contains("spec.features.podGarbageCollector");
  }

  @Test
  void dynamicResourcesFeature_onByDefault_switchableAndRoundTrips() {
    assertThat(parse("spec:\n  duration: 1h\n").spec().features().dynamicResources()).isTrue();
    Scenario off = parse("spec:\n  duration: 1h\n  features: {dynamicResources: false}\n");
    assertThat(off.spec().features()).isEqualTo(ScenarioFeatures.builder().dynamicResources(false).build());
    Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(off)), "dump.yaml").ofType(Scenario.class)
        .get(0);
    assertThat(again.spec().features()).isEqualTo(off.spec().features());
    assertThat(problems("spec:\n  duration: 1h\n  features: {dynamicResources: yes please}\n"))
        .contains("spec.features.dynamicResources");
  }

  @Test
  void badEngines_reportedWithThePath() {
    assertThat(problems(ENGINES.replace("perHour: 12, ", "perHour: 12, size: 3, ")))
        .contains("spec.jobStreams[0].poisson.size", "is not a field");
    assertThat(problems(ENGINES.replace("trace: default", "trace: default\n    csv: x")))
        .contains("spec.jobStreams[1]", "must have exactly one of [csv, trace, poisson]");
    assertThat(problems(ENGINES.replace("p-0,1000,", "p-0,lots,")))
        .contains("spec.jobStreams[2].csv", "column cpu_milli must be a whole number");
    // a queue that is no scenario queue loads: it may be a LocalQueue among the manifests (the simulation checks)
    assertThat(parse(ENGINES.replace("queue: research", "queue: nope")).spec().jobStreams().get(0).queue())
        .isEqualTo("nope");
    assertThat(problems(ENGINES.replace("perReplica: 500", "perReplica: 0")))
        .contains("spec.queueScalers[0].perReplica", "must be a finite number above 0");
  }

  @Test
  void scheduler_profileAndGpuPolicyRead_policyByAnyName_roundTrips() {
    Scenario s = parse("""
        spec:
          duration: 1h
          scheduler: {profile: mostAllocated, gpuPolicy: gap-fill}
        """);
    assertThat(s.spec().scheduler().profile()).isEqualTo("mostAllocated");
    assertThat(s.spec().scheduler().gpuPolicy()).isEqualTo("GapFill");
    Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(s)), "dump.yaml").ofType(Scenario.class).get(0);
    assertThat(again).isEqualTo(s);
    assertThat(parse("spec: {duration: 1h}\n").spec().scheduler().describe()).isEqualTo("profile default");
  }

  @Test
  void scheduler_unknownProfilePolicyOrField_reportedWithTheFieldAndTheAllowedValues() {
    String p = problems("""
        spec:
          duration: 1h
          scheduler: {profile: binpack, gpuPolicy: tetris, policy: x}
        """);
    assertThat(p).contains("spec.scheduler.profile").contains("must be one of default, mostAllocated")
        .contains("binpack");
    assertThat(p).contains("spec.scheduler.gpuPolicy").contains("BestFit").contains("FGD").contains("GapFill")
        .contains("tetris");
    assertThat(p).contains("spec.scheduler.policy").contains("is not a field");
  }

  @Test
  void rolloutsFeature_onByDefault_switchableAndRoundTrips() {
    assertThat(parse("spec:\n  duration: 1h\n").spec().features().rollouts()).isTrue();
    Scenario off = parse("spec:\n  duration: 1h\n  features: {rollouts: false}\n");
    assertThat(off.spec().features().rollouts()).isFalse();
    Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(off)), "dump.yaml").ofType(Scenario.class)
        .get(0);
    assertThat(again.spec().features()).isEqualTo(off.spec().features());
  }

  private static final String AUTOSCALER = """
      spec:
        duration: 1h
        clusterAutoscaler:
          expander: least-nodes,least-waste
          scaleDownUtilizationThreshold: 0.3
          scaleDownGpuUtilizationThreshold: 0
          scaleDownUnneededTime: 2m
          scaleDownDelayAfterAdd: 90s
          scaleDownDelayAfterDelete: 0s
          scaleDownDelayAfterFailure: 1m30s
          maxNodeProvisionTime: 5m
          balanceSimilarNodeGroups: true
          balancingIgnoreLabels: [example.com/rack]
          coresTotal: {min: 4, max: 64}
          memoryTotal: {min: 1Gi, max: 256Gi}
          maxNodesTotal: 20
          gpuTotal:
          - {type: a100, min: 2, max: 16}
          - {type: h100, max: 8}
          nodeDeleteDelayAfterTaint: 30s
          cordonNodeBeforeTerminating: false
      """;

  @Test
  void clusterAutoscaler_everyOptionRead_roundTrips_absentIsUnset() {
    Scenario s = parse(AUTOSCALER);
    assertThat(s.spec().clusterAutoscaler()).isEqualTo(ScenarioAutoscaler.builder()
        .expander("least-nodes,least-waste").scaleDownUtilizationThreshold(0.3).scaleDownGpuUtilizationThreshold(0.0)
        .scaleDownUnneededTime(Duration.ofMinutes(2)).scaleDownDelayAfterAdd(Duration.ofSeconds(90))
        .scaleDownDelayAfterDelete(Duration.ZERO).scaleDownDelayAfterFailure(Duration.ofSeconds(90))
        .maxNodeProvisionTime(Duration.ofMinutes(5)).balanceSimilarNodeGroups(true)
        .balancingIgnoreLabels(List.of("example.com/rack")).coresTotal(4L, 64L)
        .memoryTotal(Quantity.parse("1Gi"), Quantity.parse("256Gi")).maxNodesTotal(20)
        .gpuTotal(List.of(new ScenarioAutoscaler.GpuTotal("a100", 2, 16), new ScenarioAutoscaler.GpuTotal("h100", 0, 8)))
        .nodeDeleteDelayAfterTaint(Duration.ofSeconds(30)).cordonNodeBeforeTerminating(false).build());
    String dumped = KubernetesYaml.dump(List.of(s));
    assertThat(dumped).contains("  clusterAutoscaler:\n", "scaleDownUnneededTime: \"2m0s\"", "max: \"256Gi\"",
        "nodeDeleteDelayAfterTaint: \"30s\"", "cordonNodeBeforeTerminating: false");
    Scenario again = KubernetesYaml.parse(dumped, "dump.yaml").ofType(Scenario.class).get(0);
    assertThat(again).isEqualTo(s);
    // absent: the autoscaler's defaults, nothing written; {}: set, every option unset, and written back as set
    assertThat(parse("spec: {duration: 1h}\n").spec().clusterAutoscaler()).isNull();
    assertThat(KubernetesYaml.dump(List.of(parse("spec: {duration: 1h}\n")))).doesNotContain("  clusterAutoscaler:\n");
    Scenario empty = parse("spec:\n  duration: 1h\n  clusterAutoscaler: {}\n");
    assertThat(empty.spec().clusterAutoscaler()).isEqualTo(ScenarioAutoscaler.DEFAULTS);
    assertThat(KubernetesYaml.parse(KubernetesYaml.dump(List.of(empty)), "dump.yaml").ofType(Scenario.class).get(0))
        .isEqualTo(empty);
    // only one side of a total
    assertThat(parse("spec:\n  duration: 1h\n  clusterAutoscaler: {coresTotal: {max: 8}}\n").spec()
        .clusterAutoscaler().minCoresTotal()).isNull();
  }

  @Test
  void clusterAutoscaler_negativeDuration_reportedNamingTheField() {
    assertThat(problems(AUTOSCALER.replace("scaleDownUnneededTime: 2m", "scaleDownUnneededTime: -2m")))
        .contains("spec.clusterAutoscaler.scaleDownUnneededTime", "-2m");
    assertThat(problems(AUTOSCALER.replace("maxNodeProvisionTime: 5m", "maxNodeProvisionTime: 300")))
        .contains("spec.clusterAutoscaler.maxNodeProvisionTime");
    assertThat(problems(AUTOSCALER.replace("nodeDeleteDelayAfterTaint: 30s", "nodeDeleteDelayAfterTaint: -5s")))
        .contains("spec.clusterAutoscaler.nodeDeleteDelayAfterTaint \"-5s\" must not be negative");
  }

  @Test
  void clusterAutoscaler_thresholdOutsideZeroToOne_reported() {
    assertThat(problems(AUTOSCALER.replace("scaleDownUtilizationThreshold: 0.3", "scaleDownUtilizationThreshold: 1.5")))
        .contains("spec.clusterAutoscaler.scaleDownUtilizationThreshold", "must be between 0 and 1", "1.5");
    assertThat(problems(AUTOSCALER.replace("scaleDownGpuUtilizationThreshold: 0", "scaleDownGpuUtilizationThreshold: -1")))
        .contains("spec.clusterAutoscaler.scaleDownGpuUtilizationThreshold", "must be between 0 and 1");
  }

  @Test
  void clusterAutoscaler_minAboveMax_reported() {
    assertThat(problems(AUTOSCALER.replace("{min: 4, max: 64}", "{min: 65, max: 64}")))
        .contains("spec.clusterAutoscaler.coresTotal.min", "must not be more than coresTotal.max 64");
    assertThat(problems(AUTOSCALER.replace("{min: 1Gi, max: 256Gi}", "{min: 1Ti, max: 256Gi}")))
        .contains("spec.clusterAutoscaler.memoryTotal.min", "must not be more than memoryTotal.max 256Gi");
    assertThat(problems(AUTOSCALER.replace("{min: 1Gi, max: 256Gi}", "{min: -1Gi}")))
        .contains("spec.clusterAutoscaler.memoryTotal.min", "must be greater than or equal to 0");
    assertThat(problems(AUTOSCALER.replace("{min: 4, max: 64}", "{min: 4, max: lots}")))
        .contains("spec.clusterAutoscaler.coresTotal.max", "must be an integer");
  }

  @Test
  void clusterAutoscaler_gpuTotalBadEntries_reportedNamingTheEntry() {
    assertThat(problems(AUTOSCALER.replace("{type: a100, min: 2, max: 16}", "{type: a100, min: 17, max: 16}")))
        .contains("spec.clusterAutoscaler.gpuTotal[0].min", "must not be more than gpuTotal[0].max 16");
    assertThat(problems(AUTOSCALER.replace("{type: h100, max: 8}", "{type: h100, max: -8}")))
        .contains("spec.clusterAutoscaler.gpuTotal[1].max", "must be greater than or equal to 0");
    assertThat(problems(AUTOSCALER.replace("{type: h100, max: 8}", "{max: 8}")))
        .contains("spec.clusterAutoscaler.gpuTotal[1].type", "Required value");
    assertThat(problems(AUTOSCALER.replace("{type: h100, max: 8}", "{type: a100, max: 8}")))
        .contains("spec.clusterAutoscaler.gpuTotal[1].type", "Duplicate value");
    assertThat(problems(AUTOSCALER.replace("{type: h100, max: 8}", "{type: h100, maximum: 8}")))
        .contains("spec.clusterAutoscaler.gpuTotal[1].maximum", "is not a field");
    assertThat(problems(AUTOSCALER.replace("{type: h100, max: 8}", "{type: h100, max: many}")))
        .contains("spec.clusterAutoscaler.gpuTotal[1].max", "must be an integer");
  }

  @Test
  void clusterAutoscaler_unknownExpander_reportedWithTheKnownOnes() {
    assertThat(problems(AUTOSCALER.replace("least-nodes,least-waste", "least-nodes,cheapest")))
        .contains("spec.clusterAutoscaler.expander", "cheapest",
            "must be one of least-waste, most-pods, least-nodes, price, random");
    assertThat(problems(AUTOSCALER.replace("least-nodes,least-waste", "random,least-nodes")))
        .contains("spec.clusterAutoscaler.expander", "must not have an expander after random");
  }

  @Test
  void clusterAutoscaler_withTheAutoscalerOff_reported() {
    assertThat(problems(AUTOSCALER.replace("  clusterAutoscaler:\n",
        "  features: {clusterAutoscaler: false}\n  clusterAutoscaler:\n")))
        .contains("spec.clusterAutoscaler", "needs spec.features.clusterAutoscaler: true");
    // the provisioner switches the autoscaler off unless it is given
    assertThat(problems(AUTOSCALER.replace("  clusterAutoscaler:\n",
        "  features: {provisioner: true}\n  clusterAutoscaler:\n")))
        .contains("spec.clusterAutoscaler", "the provisioner runs instead");
  }

  @Test
  void clusterAutoscaler_unknownFieldOrWrongType_reportedWithThePath() {
    assertThat(problems(AUTOSCALER.replace("maxNodesTotal: 20", "maxNodes: 20")))
        .contains("spec.clusterAutoscaler.maxNodes", "is not a field");
    assertThat(problems(AUTOSCALER.replace("{min: 4, max: 64}", "{min: 4, maximum: 64}")))
        .contains("spec.clusterAutoscaler.coresTotal.maximum", "is not a field");
    assertThat(problems(AUTOSCALER.replace("balanceSimilarNodeGroups: true", "balanceSimilarNodeGroups: often")))
        .contains("spec.clusterAutoscaler.balanceSimilarNodeGroups");
    assertThat(problems(AUTOSCALER.replace("[example.com/rack]", "[\"not a label\"]")))
        .contains("spec.clusterAutoscaler.balancingIgnoreLabels[0]");
    assertThat(problems(AUTOSCALER.replace("cordonNodeBeforeTerminating: false", "cordonNodeBeforeTerminating: yes please")))
        .contains("spec.clusterAutoscaler.cordonNodeBeforeTerminating");
  }

  private static final String PROVISIONER = """
      spec:
        duration: 1h
        features: {provisioner: true}
        provisioner:
          batchIdleDuration: 5s
          batchMaxDuration: 1m30s
          consolidationPolicy: WhenEmpty
          consolidateAfter: 1h30m5s
          budgets:
          - nodes: "20%"
          - nodes: "0"
            reasons: [Underutilized, Drifted]
          - reasons: [Empty]
      """;

  @Test
  void provisioner_everyOptionRead_roundTrips_absentIsUnset() {
    Scenario s = parse(PROVISIONER);
    assertThat(s.spec().provisioner()).isEqualTo(ScenarioProvisioner.builder()
        .batchIdleDuration(Duration.ofSeconds(5)).batchMaxDuration(Duration.ofSeconds(90))
        .consolidationPolicy("WhenEmpty").consolidateAfter(Duration.ofHours(1).plusMinutes(30).plusSeconds(5))
        .budgets(List.of(ScenarioProvisioner.Budget.of("20%"),
            new ScenarioProvisioner.Budget("0", List.of("Underutilized", "Drifted")),
            // Karpenter's CRD default for a budget's nodes
            new ScenarioProvisioner.Budget("10%", List.of("Empty")))).build());
    String dumped = KubernetesYaml.dump(List.of(s));
    assertThat(dumped).contains("  provisioner:\n", "consolidateAfter: \"1h30m5s\"", "nodes: \"0\"");
    assertThat(KubernetesYaml.parse(dumped, "dump.yaml").ofType(Scenario.class).get(0)).isEqualTo(s);
    // Never round-trips as Never
    Scenario never = parse(PROVISIONER.replace("consolidateAfter: 1h30m5s", "consolidateAfter: Never"));
    assertThat(never.spec().provisioner().consolidatesNever()).isTrue();
    assertThat(KubernetesYaml.dump(List.of(never))).contains("consolidateAfter: \"Never\"");
    assertThat(KubernetesYaml.parse(KubernetesYaml.dump(List.of(never)), "dump.yaml").ofType(Scenario.class).get(0))
        .isEqualTo(never);
    // absent: Karpenter's defaults, nothing written; {}: set, every option unset, and written back as set
    Scenario absent = parse("spec: {duration: 1h, features: {provisioner: true}}\n");
    assertThat(absent.spec().provisioner()).isNull();
    assertThat(KubernetesYaml.dump(List.of(absent))).doesNotContain("  provisioner:\n");
    Scenario empty = parse("spec:\n  duration: 1h\n  features: {provisioner: true}\n  provisioner: {}\n");
    assertThat(empty.spec().provisioner()).isEqualTo(ScenarioProvisioner.DEFAULTS);
    assertThat(KubernetesYaml.parse(KubernetesYaml.dump(List.of(empty)), "dump.yaml").ofType(Scenario.class).get(0))
        .isEqualTo(empty);
  }

  @Test
  void provisioner_consolidateAfter_karpentersPattern() {
    // Karpenter's nodepool_validation_cel_test.go "should fail on an invalid consolidateAfter": -1s, 1hr, FooNever
    for (String bad : List.of("-1s", "1hr", "FooNever", "1.5s", "500ms", "never")) {
      assertThat(problems(PROVISIONER.replace("consolidateAfter: 1h30m5s", "consolidateAfter: " + bad)))
          .as(bad).contains("spec.provisioner.consolidateAfter", bad,
              "must be a duration in whole s, m and h units, or Never");
    }
    // "should succeed on a valid consolidateAfter": 30s, 1h30m5s, Never (and 0s, the CRD's default)
    for (String ok : List.of("30s", "Never", "0s")) {
      assertThat(parse(PROVISIONER.replace("consolidateAfter: 1h30m5s", "consolidateAfter: " + ok)).spec()
          .provisioner().consolidateAfter()).as(ok).isNotNull();
    }
  }

  @Test
  void provisioner_badValues_reportedNamingTheField() {
    assertThat(problems(PROVISIONER.replace("consolidationPolicy: WhenEmpty", "consolidationPolicy: balanced")))
        .contains("spec.provisioner.consolidationPolicy", "balanced", "must be one of WhenEmpty, "
            + "WhenEmptyOrUnderutilized, Balanced");
    assertThat(parse(PROVISIONER.replace("consolidationPolicy: WhenEmpty", "consolidationPolicy: Balanced")).spec()
        .provisioner().consolidationPolicy()).isEqualTo("Balanced");
    assertThat(problems(PROVISIONER.replace("nodes: \"20%\"", "nodes: \"1000%\"")))
        .contains("spec.provisioner.budgets[0].nodes", "1000%", "must be a count or a percentage up to 100%");
    assertThat(problems(PROVISIONER.replace("[Underutilized, Drifted]", "[Underutilized, Expired]")))
        .contains("spec.provisioner.budgets[1].reasons[1]", "Expired");
    assertThat(problems(PROVISIONER.replace("batchIdleDuration: 5s", "batchIdleDuration: -5s")))
        .contains("spec.provisioner.batchIdleDuration", "must not be negative");
    assertThat(problems(PROVISIONER.replace("batchMaxDuration: 1m30s", "batchMaxDuration: soon")))
        .contains("spec.provisioner.batchMaxDuration", "must be a duration");
  }

  private static final String SCHEDULED = PROVISIONER.replace("  - nodes: \"20%\"\n",
      "  - nodes: \"20%\"\n      schedule: \"0 9 * * mon-fri\"\n      duration: 8h\n");

  @Test
  void provisioner_budgetSchedule_read_roundTrips() {
    Scenario s = parse(SCHEDULED + "    expireAfter: 2h\n");
    ScenarioProvisioner.Budget b = s.spec().provisioner().budgets().get(0);
    assertThat(b).isEqualTo(new ScenarioProvisioner.Budget("20%", List.of(), "0 9 * * mon-fri", Duration.ofHours(8)));
    assertThat(s.spec().provisioner().expireAfter()).isEqualTo(Duration.ofHours(2));
    String dumped = KubernetesYaml.dump(List.of(s));
    assertThat(dumped).contains("schedule: \"0 9 * * mon-fri\"", "duration: \"8h0m0s\"", "expireAfter: \"2h0m0s\"");
    assertThat(KubernetesYaml.parse(dumped, "dump.yaml").ofType(Scenario.class).get(0)).isEqualTo(s);
    // Karpenter's nodepool_validation_cel_test.go: "should succeed when creating a budget with hours and minutes in
    // duration" (2h20m, written back by Go as 2h20m0s), and the minutes Go writes for 20m
    for (String ok : List.of("2h20m", "2h20m0s", "20m", "20m0s", "90m")) {
      assertThat(parse(SCHEDULED.replace("duration: 8h", "duration: " + ok)).spec().provisioner().budgets().get(0)
          .duration()).as(ok).isNotNull();
    }
  }

  @Test
  void provisioner_budgetScheduleAndDuration_karpentersPatterns() {
    // Karpenter's nodepool_validation_cel_test.go: "should fail when creating a budget with a negative duration"
    // (-20m), "... with a seconds duration" (30s); fractions and other units are not in the pattern either
    for (String bad : List.of("-20m", "30s", "1h30m5s", "1.5h", "1d", "20")) {
      assertThat(problems(SCHEDULED.replace("duration: 8h", "duration: " + bad)))
          .as(bad).contains("spec.provisioner.budgets[0].duration", bad, "must be a duration in hours and minutes");
    }
    // "should fail when creating a budget with an invalid cron", "... a schedule with less than 5 entries"
    assertThat(problems(SCHEDULED.replace("\"0 9 * * mon-fri\"", "\"*\"")))
        .contains("spec.provisioner.budgets[0].schedule", "must be 5 cron fields");
    assertThat(problems(SCHEDULED.replace("\"0 9 * * mon-fri\"", "\"* * * * \"")))
        .contains("spec.provisioner.budgets[0].schedule", "must be 5 cron fields");
    // "should fail when creating a budget with a cron but no duration"
    assertThat(problems(SCHEDULED.replace("      duration: 8h\n", "")))
        .contains("spec.provisioner.budgets[0]", "'schedule' must be set with 'duration'");
  }

  @Test
  void provisioner_expireAfter_karpentersPattern() {
    // Karpenter's nodepool_validation_cel_test.go "should fail on an invalid expireAfter": -1s, 1hr, FooNever
    for (String bad : List.of("-1s", "1hr", "FooNever", "1.5h", "never")) {
      assertThat(problems(PROVISIONER + "    expireAfter: " + bad + "\n"))
          .as(bad).contains("spec.provisioner.expireAfter", bad, "must be a duration in whole s, m and h units, or "
              + "Never");
    }
    // "should succeed on a valid expireAfter": 30s, 1h30m5s, Never; "should succeed on a disabled expireAfter"
    for (String ok : List.of("30s", "1h30m5s", "Never")) {
      assertThat(parse(PROVISIONER + "    expireAfter: " + ok + "\n").spec().provisioner().expireAfter()).as(ok)
          .isNotNull();
    }
    Scenario never = parse(PROVISIONER + "    expireAfter: Never\n");
    assertThat(never.spec().provisioner().expiresNever()).isTrue();
    assertThat(KubernetesYaml.dump(List.of(never))).contains("expireAfter: \"Never\"");
    assertThat(KubernetesYaml.parse(KubernetesYaml.dump(List.of(never)), "dump.yaml").ofType(Scenario.class).get(0))
        .isEqualTo(never);
    assertThat(parse(PROVISIONER).spec().provisioner().expireAfter()).isNull();
  }

  @Test
  void provisioner_terminationGracePeriod_karpentersPattern() {
    // Karpenter's nodepool_validation_cel_test.go Context "TerminationGracePeriod": invalid -1s, 1hr, Never, FooNever
    for (String bad : List.of("-1s", "1hr", "Never", "FooNever", "1.5h")) {
      assertThat(problems(PROVISIONER + "    terminationGracePeriod: " + bad + "\n")).as(bad)
          .contains("spec.provisioner.terminationGracePeriod", bad, "must be a duration in whole s, m and h units; "
              + "leave it out to wait for the drain as long as it takes");
    }
    // valid: single unit 30s, multiple units 1h30m5s; written back and read again unchanged
    assertThat(parse(PROVISIONER + "    terminationGracePeriod: 30s\n").spec().provisioner().terminationGracePeriod())
        .isEqualTo(java.time.Duration.ofSeconds(30));
    Scenario multi = parse(PROVISIONER + "    terminationGracePeriod: 1h30m5s\n");
    assertThat(multi.spec().provisioner().terminationGracePeriod())
        .isEqualTo(java.time.Duration.ofHours(1).plusMinutes(30).plusSeconds(5));
    assertThat(KubernetesYaml.dump(List.of(multi))).contains("terminationGracePeriod: \"1h30m5s\"");
    assertThat(KubernetesYaml.parse(KubernetesYaml.dump(List.of(multi)), "dump.yaml").ofType(Scenario.class).get(0))
        .isEqualTo(multi);
    assertThat(parse(PROVISIONER).spec().provisioner().terminationGracePeriod()).isNull();
  }

  @Test
  void provisioner_withTheProvisionerOff_reported() {
    assertThat(problems(PROVISIONER.replace("features: {provisioner: true}", "features: {storage: false}")))
        .contains("spec.provisioner", "needs spec.features.provisioner: true", "the cluster autoscaler runs instead");
  }

  @Test
  void provisioner_unknownFieldOrWrongType_reportedWithThePath() {
    assertThat(problems(PROVISIONER.replace("batchIdleDuration: 5s", "batchIdle: 5s")))
        .contains("spec.provisioner.batchIdle", "is not a field");
    assertThat(problems(PROVISIONER.replace("reasons: [Empty]", "reason: [Empty]")))
        .contains("spec.provisioner.budgets[2].reason", "is not a field");
    assertThat(problems(PROVISIONER.replace("reasons: [Empty]", "reasons: Empty")))
        .contains("spec.provisioner.budgets[2].reasons", "must be a list");
    assertThat(problems(PROVISIONER.replace("  provisioner:\n", "  provisioner: fast\n  ignored:\n")))
        .contains("spec.provisioner");
  }
}
