package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.api.store.ObjectStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * GPU pods asking for DRA devices through a ResourceClaimTemplate, and a NodePool whose nodes carry two GPUs as a
 * device template: the pods wait, the cluster autoscaler launches two nodes at once (two GPUs a node, three pods), each
 * node publishes its ResourceSlice when its driver phase ends, and the pods run there once the nodes are Ready; no
 * further node is launched meanwhile. Deleting a node deletes its slice.
 */
final class DraAutoscalingInSimulationTest {
  private static final String MANIFESTS = """
      apiVersion: fleetkit.io/v1alpha1
      kind: NodePool
      metadata: {name: gpu}
      spec:
        template:
          capacity: {cpu: "16", memory: 64Gi, pods: "110"}
          resourceSlices:
          - driver: gpu.example.com
            pool: gpus
            devices:
            - name: gpu-0
              attributes: {model: {string: LATEST-GPU-MODEL}}
              capacity: {memory: {value: 80Gi}}
            - name: gpu-1
              attributes: {model: {string: LATEST-GPU-MODEL}}
              capacity: {memory: {value: 80Gi}}
        minSize: 0
        maxSize: 4
        pricePerHour: 3
      ---
      apiVersion: fleetkit.io/v1alpha1
      kind: NodePool
      metadata: {name: cpu}
      spec:
        template:
          capacity: {cpu: "16", memory: 64Gi, pods: "110"}
        minSize: 0
        maxSize: 4
        pricePerHour: 1
      ---
      apiVersion: resource.k8s.io/v1
      kind: DeviceClass
      metadata: {name: gpu.example.com}
      spec:
        selectors:
        - cel: {expression: "device.driver == 'gpu.example.com'"}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaimTemplate
      metadata: {name: one-gpu, namespace: default}
      spec:
        spec:
          devices:
            requests:
            - name: gpu
              exactly: {deviceClassName: gpu.example.com}
      ---
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: trainer, namespace: default}
      spec:
        replicas: 3
        selector: {matchLabels: {app: trainer}}
        template:
          metadata: {labels: {app: trainer}}
          spec:
            resourceClaims:
            - {name: gpu, resourceClaimTemplateName: one-gpu}
            containers:
            - name: train
              image: train:1
              resources:
                requests: {cpu: "1"}
                claims: [{name: gpu}]
      ---
      apiVersion: simulation.fleetkit.io/v1
      kind: Scenario
      metadata: {name: dra-autoscaling}
      spec:
        duration: 8m
        sampleInterval: 10s
        features: {horizontalPodAutoscaler: false, storage: false, verticalPodAutoscaler: false,
          queueAdmission: false, queueScaling: false}
        nodeStartup:
        - {pool: gpu, provision: 1m, boot: 1m, driver: 2m, imagePull: 1m}
      """;

  /** At one sample: the slices (name node), the pods (name phase node) and the nodes. */
  record Sample(Duration at, List<String> slices, List<String> pods, List<String> nodes) {}

  @Test
  void pendingGpuPods_launchDraNodes_slicesAfterTheDriverPhase_podsRun() {
    List<ApiObject<?>> objects = KubernetesYaml.parse(MANIFESTS, "dra-autoscaling.yaml").objects();
    ObjectStore[] store = new ObjectStore[1];
    Map<Duration, Sample> samples = new TreeMap<>();
    ClusterSimulation.Builder b = ClusterSimulation.builder().objects(objects)
        .store((clock, uids, admission) -> {
          store[0] = ObjectStore.builder().directDelivery().clock(clock).uidGenerator(uids).admission(admission)
              .build();
          return store[0];
        })
        .progress(p -> {
          samples.put(p.simulated(), sample(store[0], p.simulated()));
          if (p.simulated().equals(Duration.ofMinutes(7).plusSeconds(30))) { // as the cloud would drop a machine
            store[0].delete(Node.class, "", "gpu-1");
          }
        });
    SimulationRun run = b.build().run();

    List<TimelineEvent> ups = run.timeline().stream().filter(e -> e.kind().equals("ScaleUp")).toList();
    assertThat(ups).as("one scale-up: 2 GPUs a node, 3 pods").singleElement().satisfies(e -> {
      assertThat(e.at()).isEqualTo(Duration.ofSeconds(10));
      assertThat(e.object()).isEqualTo("NodePool/gpu");
      assertThat(e.message()).startsWith("launching 2 node(s)");
    });
    // launched at 10 s: provision and boot (2 min) and the driver (2 min) end at 250 s
    Sample before = samples.get(Duration.ofSeconds(240));
    assertThat(before.nodes()).hasSize(2);
    assertThat(before.slices()).isEmpty();
    assertThat(before.pods()).allSatisfy(p -> assertThat(p).contains("Pending"));
    Sample after = samples.get(Duration.ofSeconds(260));
    assertThat(after.slices()).hasSize(2).allSatisfy(s -> assertThat(s).startsWith("gpu-"));
    for (String node : after.nodes()) {
      assertThat(after.slices()).contains(node + "-gpu.example.com-gpus " + node);
    }
    Sample end = samples.get(Duration.ofMinutes(7).plusSeconds(20));
    assertThat(end.pods()).hasSize(3).allSatisfy(p -> assertThat(p).contains(" Running gpu-"));
    assertThat(end.nodes()).containsExactly("gpu-1", "gpu-2");

    // a node deleted loses its slice
    assertThat(samples.get(Duration.ofMinutes(7).plusSeconds(40)).slices())
        .containsExactly("gpu-2-gpu.example.com-gpus gpu-2");
  }

  /**
   * The same cluster with the Karpenter-style provisioner instead of the cluster autoscaler: each NodePool is an
   * instance type with the pool's device templates, so the three pods launch two nodes of the GPU type (not the
   * cheaper CPU type, whose nodes have no device), each gets its pool's slice from the driver publisher, and the pods
   * run there.
   */
  @Test
  void provisioner_pendingGpuPods_launchTheTypeWithDevices_podsRun() {
    String manifests = MANIFESTS.replace("queueAdmission: false, queueScaling: false}",
        "queueAdmission: false, queueScaling: false, provisioner: true}")
        .replace("  nodeStartup:\n  - {pool: gpu, provision: 1m, boot: 1m, driver: 2m, imagePull: 1m}\n", "");
    assertThat(manifests).contains("provisioner: true").doesNotContain("nodeStartup");
    List<ApiObject<?>> objects = KubernetesYaml.parse(manifests, "dra-provisioner.yaml").objects();
    ObjectStore[] store = new ObjectStore[1];
    Map<Duration, Sample> samples = new TreeMap<>();
    SimulationRun run = ClusterSimulation.builder().objects(objects)
        .store((clock, uids, admission) -> {
          store[0] = ObjectStore.builder().directDelivery().clock(clock).uidGenerator(uids).admission(admission)
              .build();
          return store[0];
        })
        .progress(p -> samples.put(p.simulated(), sample(store[0], p.simulated())))
        .build().run();

    List<TimelineEvent> ups = run.timeline().stream().filter(e -> e.kind().equals("ScaleUp")).toList();
    assertThat(ups).as("one launch of two GPU nodes").singleElement().satisfies(e -> {
      assertThat(e.object()).isEqualTo("NodePool/gpu");
      assertThat(e.message()).startsWith("provisioner launching 2 node(s)");
    });
    Sample end = samples.get(Duration.ofMinutes(7).plusSeconds(50));
    assertThat(end.nodes()).hasSize(2);
    for (String node : end.nodes()) {
      assertThat(end.slices()).contains(node + "-gpu.example.com-gpus " + node);
    }
    assertThat(end.pods()).hasSize(3).allSatisfy(p -> assertThat(p).contains(" Running fleetkit-"));
  }

  private static Sample sample(ObjectStore store, Duration at) {
    List<String> slices = store.list(ResourceSlice.class).items().stream()
        .map(s -> s.metadata().name() + " " + s.spec().nodeName()).sorted().toList();
    List<String> pods = store.list(Pod.class).items().stream()
        .map(p -> p.metadata().name() + " " + p.status().phase() + " "
            + (p.spec().nodeName().isEmpty() ? "-" : p.spec().nodeName())).sorted().toList();
    List<String> nodes = store.list(Node.class).items().stream().map(Node::name).sorted().toList();
    return new Sample(at, slices, pods, nodes);
  }
}
