package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

final class ScheduleCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return CliHarness.run(out, err, args);
  }

  private static Path examples() {
    return CliHarness.root().resolve("examples");
  }

  private static Path gpuCluster() {
    return examples().resolve("gpu-cluster");
  }

  @Test
  void schedule_examplesAsJson_placesGpuPodsOnGpuPoolAndExplainsTheRest() {
    int code = run("schedule", gpuCluster().toString(), "--output", "json");

    assertThat(code).isZero();
    assertThat(err.toString()).isEmpty();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.propertyNames()).containsExactly("placements", "unschedulable");
    assertThat(root.get("placements")).hasSize(4);
    for (JsonNode p : root.get("placements")) {
      String pod = p.get("pod").asString();
      String node = p.get("node").asString();
      assertThat(node).startsWith(pod.startsWith("default/infer") ? "gpu-" : "cpu-");
      assertThat(p.get("preempted").isArray()).isTrue();
    }
    // api-1 has required anti-affinity against app=api: it must not share api-0's node
    assertThat(nodeOf(root, "default/api-0")).isNotEqualTo(nodeOf(root, "default/api-1"));
    assertThat(root.get("unschedulable")).hasSize(1);
    assertThat(root.get("unschedulable").get(0).get("pod").asString()).isEqualTo("default/too-big");
    assertThat(root.get("unschedulable").get(0).get("message").asString())
        .startsWith("0/5 nodes are available: ")
        .contains("2 node(s) had untolerated taint {nvidia.com/gpu: present}")
        .contains("3 Insufficient cpu");
  }

  private static String nodeOf(JsonNode root, String pod) {
    for (JsonNode p : root.get("placements")) {
      if (p.get("pod").asString().equals(pod)) {
        return p.get("node").asString();
      }
    }
    throw new AssertionError(pod + " not placed");
  }

  @Test
  void schedule_preemption_reportsVictims(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("cluster.yaml"), """
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status:
          allocatable: {cpu: "2", memory: 4Gi, pods: "110"}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: low, namespace: default}
        spec:
          nodeName: n1
          priority: 0
          containers: [{name: c, image: busybox:1.36, resources: {requests: {cpu: "2"}}}]
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: high, namespace: default}
        spec:
          priority: 100
          containers: [{name: c, image: busybox:1.36, resources: {requests: {cpu: "2"}}}]
        """);
    int code = run("schedule", dir.toString(), "--output", "json");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.get("placements")).hasSize(1);
    JsonNode p = root.get("placements").get(0);
    assertThat(p.get("pod").asString()).isEqualTo("default/high");
    assertThat(p.get("node").asString()).isEqualTo("n1");
    assertThat(p.get("preempted").get(0).asString()).isEqualTo("default/low");
  }

  @Test
  void schedule_table_listsPlacementsAndSummary() {
    int code = run("schedule", gpuCluster().toString());

    assertThat(code).isZero();
    assertThat(out.toString()).contains("POD").contains("default/infer-0").contains("<unschedulable>")
        .contains("4 placed, 1 unschedulable");
  }

  @Test
  void schedule_badProfileFile_exitsOneNamingTheFile(@TempDir Path dir) throws Exception {
    Path profile = dir.resolve("profile.yaml");
    Files.writeString(profile, """
        profiles:
        - schedulerName: default-scheduler
          plugins:
            multiPoint:
              enabled: [{name: NoSuchPlugin}]
        """);
    int code = run("schedule", gpuCluster().toString(), "--profile", profile.toString());

    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).contains("NoSuchPlugin");
  }

  @Test
  void schedule_profileFile_mostAllocated_packsOntoOneCpuNode(@TempDir Path dir) throws Exception {
    Path profile = dir.resolve("profile.yaml");
    Files.writeString(profile, """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        percentageOfNodesToScore: 100
        profiles:
        - schedulerName: default-scheduler
          plugins:
            multiPoint:
              disabled: [{name: NodeResourcesBalancedAllocation}, {name: PodTopologySpread}]
          pluginConfig:
          - name: NodeResourcesFit
            args:
              scoringStrategy:
                type: MostAllocated
                resources: [{name: cpu, weight: 1}, {name: memory, weight: 1}]
        """);
    int code = run("schedule", gpuCluster().toString(), "--profile", profile.toString(), "--output", "json");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.get("placements")).hasSize(4);
  }

  @Test
  void schedule_gangsExample_runsTheGangThatFitsAndExplainsTheOther() {
    int code = run("schedule", examples().resolve("gangs").toString(), "--output", "json");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.get("placements")).hasSize(4);
    for (JsonNode p : root.get("placements")) {
      assertThat(p.get("pod").asString()).startsWith("default/resnet-finetune-");
      assertThat(p.get("node").asString()).startsWith("gang-gpu-");
    }
    assertThat(root.get("unschedulable")).hasSize(16);
    for (JsonNode u : root.get("unschedulable")) {
      assertThat(u.get("pod").asString()).startsWith("default/llm-pretrain-");
      assertThat(u.get("message").asString())
          .contains("pod group default/llm-pretrain: 16 pods need 16 nvidia.com/gpu, at most 12 can be reserved");
    }
  }

  @Test
  void schedule_allExamples_gangsAndGpuClusterTogether() {
    int code = run("schedule", examples().toString(), "--output", "json");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    // 8 from gpu-cluster and gangs, 2 from storage, 5 from tenancy (whose sixth pod the quota refuses), 2 from dra
    // (whose third pod finds no device)
    assertThat(root.get("placements")).hasSize(17);
    assertThat(root.get("rejected")).hasSize(1);
    for (JsonNode p : root.get("placements")) {
      String pod = p.get("pod").asString();
      String node = p.get("node").asString();
      if (pod.startsWith("team-")) {
        assertThat(node).startsWith("tenant-");
        continue;
      }
      if (pod.startsWith("default/train-")) {
        assertThat(node).isEqualTo("dra-gpu-1");
        continue;
      }
      if (pod.equals("default/trainer") || pod.equals("default/checkpointer")) {
        assertThat(p.get("volumes").size()).isEqualTo(1);
        continue;
      }
      assertThat(node).startsWith(pod.startsWith("default/infer") ? "gpu-"
          : pod.startsWith("default/api") ? "cpu-" : "gang-gpu-");
    }
    assertThat(root.get("unschedulable")).hasSize(18);
  }

  @Test
  void schedule_gangThatCannotFitBesideAnotherPod_holdsNothingAndIsNamedInEveryMessage(@TempDir Path dir) throws Exception {
    StringBuilder yaml = new StringBuilder("""
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status:
          allocatable: {cpu: "8", memory: 16Gi, pods: "110", nvidia.com/gpu: "4"}
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: n2}
        status:
          allocatable: {cpu: "8", memory: 16Gi, pods: "110", nvidia.com/gpu: "4"}
        ---
        apiVersion: scheduling.x-k8s.io/v1alpha1
        kind: PodGroup
        metadata: {name: wide, namespace: default}
        spec: {minMember: 3}
        """);
    for (int i = 0; i < 3; i++) {
      yaml.append("""
          ---
          apiVersion: v1
          kind: Pod
          metadata:
            name: wide-%d
            namespace: default
            labels: {scheduling.x-k8s.io/pod-group: wide}
          spec:
            containers: [{name: c, image: busybox:1.36, resources: {limits: {nvidia.com/gpu: "2"}}}]
          """.formatted(i));
    }
    yaml.append("""
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: web, namespace: default}
        spec:
          containers: [{name: c, image: busybox:1.36, resources: {limits: {nvidia.com/gpu: "3"}}}]
        """);
    Files.writeString(dir.resolve("cluster.yaml"), yaml.toString());

    int code = run("schedule", dir.toString(), "--output", "json");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.get("placements")).hasSize(1);
    assertThat(root.get("placements").get(0).get("pod").asString()).isEqualTo("default/web");
    assertThat(root.get("unschedulable")).hasSize(3);
    for (JsonNode u : root.get("unschedulable")) {
      assertThat(u.get("message").asString()).contains("pod group default/wide");
    }
  }

  @Test
  void schedule_storageExample_reportsBoundAndProvisionedVolumesPerPlacement() {
    int code = run("schedule", examples().resolve("storage").toString(), "--output", "json");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.get("unschedulable")).isEmpty();
    JsonNode trainer = placement(root, "default/trainer");
    assertThat(trainer.get("node").asString()).isEqualTo("node-a1");
    assertThat(trainer.get("volumes").get("dataset").asString()).isEqualTo("nvme-a-1");
    JsonNode checkpointer = placement(root, "default/checkpointer");
    assertThat(checkpointer.get("node").asString()).isEqualTo("node-b1");
    assertThat(checkpointer.get("volumes").get("checkpoints").asString()).startsWith("pvc-");
  }

  @Test
  void schedule_claimsInDifferentZones_explainsWhy(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("cluster.yaml"), """
        apiVersion: v1
        kind: Node
        metadata: {name: a1, labels: {topology.kubernetes.io/zone: zone-a}}
        status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: b1, labels: {topology.kubernetes.io/zone: zone-b}}
        status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
        ---
        apiVersion: v1
        kind: PersistentVolume
        metadata: {name: pv-a, labels: {topology.kubernetes.io/zone: zone-a}}
        spec:
          capacity: {storage: 1Gi}
          accessModes: [ReadWriteOnce]
          claimRef: {namespace: default, name: left}
        ---
        apiVersion: v1
        kind: PersistentVolume
        metadata: {name: pv-b, labels: {topology.kubernetes.io/zone: zone-b}}
        spec:
          capacity: {storage: 1Gi}
          accessModes: [ReadWriteOnce]
          claimRef: {namespace: default, name: right}
        ---
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: left, namespace: default}
        spec: {accessModes: [ReadWriteOnce], storageClassName: "", resources: {requests: {storage: 1Gi}}}
        ---
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: right, namespace: default}
        spec: {accessModes: [ReadWriteOnce], storageClassName: "", resources: {requests: {storage: 1Gi}}}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: both, namespace: default}
        spec:
          containers: [{name: c, image: i}]
          volumes:
          - {name: l, persistentVolumeClaim: {claimName: left}}
          - {name: r, persistentVolumeClaim: {claimName: right}}
        """);

    int code = run("schedule", dir.toString(), "--output", "json");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.get("placements")).isEmpty();
    assertThat(root.get("unschedulable").get(0).get("message").asString())
        .contains("pod's bound persistent volumes are in different zones")
        .contains("left -> volume pv-a in zone zone-a").contains("right -> volume pv-b in zone zone-b");
  }

  private static JsonNode placement(JsonNode root, String pod) {
    for (JsonNode p : root.get("placements")) {
      if (p.get("pod").asString().equals(pod)) {
        return p;
      }
    }
    throw new AssertionError(pod + " not placed: " + root);
  }
}
