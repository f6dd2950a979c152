package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Node start-up phases, GPU device faults, API slowness and the provisioner in scenario runs, on small clusters
 * written as manifests (so the YAML reading is exercised too).
 */
final class ScenarioFaultsTest {
  private static final String SCENARIO = "apiVersion: simulation.fleetkit.io/v1\nkind: Scenario\nmetadata: {name: t}\n";
  private static final String OFF = "horizontalPodAutoscaler: false, storage: false, verticalPodAutoscaler: false, "
      + "queueAdmission: false, queueScaling: false";
  private static final String GPU_POOL = """
      apiVersion: fleetkit.io/v1alpha1
      kind: NodePool
      metadata: {name: gpu}
      spec:
        template:
          capacity: {cpu: "8", memory: 32Gi, pods: "110", nvidia.com/gpu: "2"}
        minSize: 0
        maxSize: 2
        startupDelay: 1m
        pricePerHour: 3
      ---
      """;

  private static String trainer(int replicas) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: trainer, namespace: default}
        spec:
          replicas: %d
          selector: {matchLabels: {app: trainer}}
          template:
            metadata: {labels: {app: trainer}}
            spec:
              containers:
              - name: train
                image: train:1
                resources:
                  requests: {cpu: "1"}
                  limits: {nvidia.com/gpu: "1"}
        ---
        """.formatted(replicas);
  }

  private static List<ApiObject<?>> load(String yaml) {
    return KubernetesYaml.parse(yaml, "test.yaml").objects();
  }

  private static SimulationRun run(String yaml) {
    return ClusterSimulation.builder().objects(load(yaml)).build().run();
  }

  private static double at(SimulationRun run, String series, Duration t) {
    TimeSeries s = run.series(series).orElseThrow(() -> new AssertionError("no series " + series + " in "
        + run.series().stream().map(TimeSeries::name).toList()));
    return s.values().get(run.sampleTimes().indexOf(t));
  }

  private static List<TimelineEvent> events(SimulationRun run, String kind) {
    return run.timeline().stream().filter(e -> e.kind().equals(kind)).toList();
  }

  private static Duration s(long seconds) {
    return Duration.ofSeconds(seconds);
  }

  @Test
  void startupPhases_nodeGoesThroughEachPhaseThenTakesThePod() {
    SimulationRun run = run(GPU_POOL + trainer(1) + SCENARIO + """
        spec:
          duration: 7m
          sampleInterval: 30s
          features: {%s}
          nodeStartup:
          - {pool: gpu, provision: 1m, boot: 1m, driver: 2m, imagePull: 1m}
        """.formatted(OFF));
    // the cluster autoscaler launches at its 10 s loop; the node is requested then
    TimelineEvent up = events(run, "ScaleUp").get(0);
    assertThat(up.at()).isEqualTo(s(10));
    String node = events(run, "NodeProvisioning").get(0).object();
    assertThat(events(run, "NodeProvisioning").get(0).at()).isEqualTo(s(10));
    assertThat(events(run, "NodeBooting")).singleElement().satisfies(e -> {
      assertThat(e.at()).isEqualTo(s(70));
      assertThat(e.object()).isEqualTo(node);
    });
    assertThat(events(run, "NodeDriver").get(0).at()).isEqualTo(s(130));
    assertThat(events(run, "NodeImagePull").get(0).at()).isEqualTo(s(250));
    assertThat(events(run, "NodeStarted").get(0).at()).isGreaterThanOrEqualTo(s(310)).isLessThan(s(330));
    assertThat(at(run, "provisioning nodes gpu", s(60))).isEqualTo(1);
    assertThat(at(run, "booting nodes gpu", s(60))).isZero();
    assertThat(at(run, "booting nodes gpu", s(90))).isEqualTo(1);
    assertThat(at(run, "driver nodes gpu", s(180))).isEqualTo(1);
    assertThat(at(run, "image pull nodes gpu", s(270))).isEqualTo(1);
    assertThat(at(run, "ready nodes gpu", s(270))).isZero();
    assertThat(at(run, "pending pods", s(300))).isEqualTo(1);
    assertThat(at(run, "ready nodes gpu", s(330))).isEqualTo(1);
    assertThat(at(run, "image pull nodes gpu", s(330))).isZero();
    assertThat(at(run, "pending pods", s(360))).isZero();
  }

  @Test
  void gpuDeviceFault_shrinksAllocatableEvictsItsPodAndHeals() {
    SimulationRun run = run("""
        apiVersion: v1
        kind: Node
        metadata: {name: gpu-1}
        status:
          capacity: {cpu: "8", memory: 32Gi, pods: "110", nvidia.com/gpu: "2"}
        ---
        """ + trainer(2) + SCENARIO + """
        spec:
          duration: 7m
          sampleInterval: 30s
          features: {%s, clusterAutoscaler: false}
          faults:
          - {at: 2m, gpuDeviceFault: gpu-1, devices: 1, recoverAfter: 3m}
        """.formatted(OFF));
    assertThat(at(run, "gpu allocatable", s(90))).isEqualTo(2);
    assertThat(at(run, "gpu requested", s(90))).isEqualTo(2);
    TimelineEvent failed = events(run, "GpuDeviceFailed").get(0);
    assertThat(failed.at()).isEqualTo(s(120));
    assertThat(failed.object()).isEqualTo("Node/gpu-1");
    // one pod held the failed device (GPU-0 by the implicit assignment in pod-name order)
    assertThat(failed.message()).contains("1 nvidia.com/gpu device(s) unhealthy").containsOnlyOnce("default/trainer-");
    // capacity stays, allocatable drops: the replacement cannot fit until the device heals
    assertThat(at(run, "gpu allocatable", s(180))).isEqualTo(1);
    assertThat(at(run, "pending pods", s(180))).isEqualTo(1);
    assertThat(events(run, "GpuDeviceRecovered")).singleElement().satisfies(e -> assertThat(e.at()).isEqualTo(s(300)));
    assertThat(at(run, "gpu allocatable", s(330))).isEqualTo(2);
    assertThat(at(run, "pending pods", s(330))).isZero();
    assertThat(at(run, "running pods", s(330))).isEqualTo(2);
    assertThat(run.markers()).extracting(TimelineEvent::kind).contains("GpuDeviceFailed", "GpuDeviceRecovered");
  }

  @Test
  void faultsOnANodeScaledDownBeforeTheirTime_recordedAsSkipped() {
    // gpu-1 is empty and pooled: the cluster autoscaler deletes it after 10 minutes unneeded, before both faults
    SimulationRun run = run(GPU_POOL + """
        apiVersion: v1
        kind: Node
        metadata: {name: gpu-1, labels: {fleetkit.io/node-pool: gpu}}
        status:
          capacity: {cpu: "8", memory: 32Gi, pods: "110", nvidia.com/gpu: "2"}
        ---
        """ + SCENARIO + """
        spec:
          duration: 30m
          sampleInterval: 1m
          features: {%s}
          faults:
          - {at: 20m, nodeFailure: gpu-1, recoverAfter: 2m}
          - {at: 25m, gpuDeviceFault: gpu-1, devices: 1, recoverAfter: 1m}
        """.formatted(OFF));
    TimelineEvent deleted = events(run, "NodeDeleted").get(0);
    assertThat(deleted.object()).isEqualTo("Node/gpu-1");
    assertThat(deleted.at()).isLessThan(Duration.ofMinutes(20));
    assertThat(events(run, ClusterSimulation.FAULT_SKIPPED)).hasSize(2).satisfiesExactly(
        e -> {
          assertThat(e.at()).isEqualTo(Duration.ofMinutes(20));
          assertThat(e.object()).isEqualTo("Node/gpu-1");
          assertThat(e.message()).startsWith("NodeFailure: the node no longer exists");
        },
        e -> {
          assertThat(e.at()).isEqualTo(Duration.ofMinutes(25));
          assertThat(e.message()).startsWith("GpuDeviceFault: the node no longer exists");
        });
    assertThat(run.timeline()).extracting(TimelineEvent::kind)
        .doesNotContain("NodeFailed", "NodeRecovered", "GpuDeviceFailed", "GpuDeviceRecovered");
    assertThat(run.markers()).extracting(TimelineEvent::kind).doesNotContain(ClusterSimulation.FAULT_SKIPPED);
  }

  @Test
  void apiSlowness_delaysTheChainOfWritesThenRecovers() {
    String nodes = """
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status:
          capacity: {cpu: "4", memory: 8Gi, pods: "110"}
        ---
        """;
    String web = """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: default}
        spec:
          replicas: 1
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers: [{name: web, image: web:1, resources: {requests: {cpu: 100m}}}]
        """;
    String scenario = SCENARIO + """
        spec:
          duration: 4m
          sampleInterval: 10s
          features: {%s, clusterAutoscaler: false}
        """.formatted(OFF);
    String slow = scenario + "  faults:\n  - {at: 30s, apiSlowness: 20s, recoverAfter: 2m}\n";
    SimulationRun prompt = ClusterSimulation.builder().objects(load(nodes + scenario))
        .apply(Duration.ofMinutes(1), load(web), "web.yaml").build().run();
    SimulationRun slowed = ClusterSimulation.builder().objects(load(nodes + slow))
        .apply(Duration.ofMinutes(1), load(web), "web.yaml").build().run();
    assertThat(at(prompt, "running pods", s(60))).isEqualTo(1);
    // Deployment -> ReplicaSet (1m), ReplicaSet -> Pod (1m20s), binding (1m40s): one 20 s round trip per link
    assertThat(at(slowed, "running pods", s(60))).isZero();
    assertThat(at(slowed, "pending pods", s(90))).isEqualTo(1);
    assertThat(at(slowed, "running pods", s(90))).isZero();
    assertThat(at(slowed, "running pods", s(100))).isEqualTo(1);
    assertThat(events(slowed, "ApiSlow")).singleElement().satisfies(e -> assertThat(e.at()).isEqualTo(s(30)));
    assertThat(events(slowed, "ApiRecovered")).singleElement().satisfies(e -> assertThat(e.at()).isEqualTo(s(150)));
    assertThat(slowed.markers()).extracting(TimelineEvent::kind).contains("ApiSlow", "ApiRecovered");
  }

  @Test
  void provisioner_launchesFromThePoolsInsteadOfTheClusterAutoscaler() {
    SimulationRun run = run(GPU_POOL + trainer(3) + SCENARIO + """
        spec:
          duration: 5m
          sampleInterval: 30s
          features: {%s, provisioner: true}
          nodeStartup:
          - {pool: gpu, provision: 30s, boot: 30s}
        """.formatted(OFF));
    List<TimelineEvent> ups = events(run, "ScaleUp");
    assertThat(ups).isNotEmpty().allSatisfy(e -> assertThat(e.message()).startsWith("provisioner launching"));
    assertThat(ups.get(0).object()).isEqualTo("NodePool/gpu");
    // three one-GPU pods on two-GPU nodes: two nodes, started after the pool's 1 m of phases
    assertThat(events(run, "NodeProvisioning")).hasSize(2)
        .allSatisfy(e -> assertThat(e.object()).startsWith("Node/fleetkit-"));
    assertThat(at(run, "provisioning nodes gpu", s(30))).isEqualTo(2);
    assertThat(at(run, "pending pods", s(60))).isEqualTo(3);
    assertThat(at(run, "ready nodes gpu", s(120))).isEqualTo(2);
    assertThat(at(run, "pending pods", s(120))).isZero();
    assertThat(at(run, "cost per hour", s(120))).isEqualTo(6.0);
  }

  @Test
  void unknownPoolOrGpuNode_rejectedBeforeTheRun() {
    assertThatThrownBy(() -> ClusterSimulation.builder().objects(load(GPU_POOL + SCENARIO + """
        spec:
          duration: 1m
          nodeStartup: [{pool: tpu, boot: 1m}]
          faults: [{at: 10s, gpuDeviceFault: nowhere}]
        """)).build()).isInstanceOf(io.fleetkit.api.ValidationException.class)
        .hasMessageContaining("spec.nodeStartup[0].pool \"tpu\" names no NodePool among the manifests")
        .hasMessageContaining("spec.faults[0].gpuDeviceFault \"nowhere\" names no node among the manifests");
  }

  /**
   * A kubelet restart at 2 minutes on the node of a Deployment whose pods have a readiness probe: the pods keep
   * running and stay Ready (the prober manager's rule for containers that ran more than 10 s before the restart), and
   * the restart is a fault marker on the timeline.
   */
  @Test
  void kubeletRestart_podsKeepRunningAndStayReady_andTheRestartIsAMarker() {
    String nodes = """
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status:
          capacity: {cpu: "4", memory: 8Gi, pods: "110"}
        ---
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
                resources: {requests: {cpu: 100m}}
                readinessProbe: {httpGet: {path: /ready, port: 8080}, periodSeconds: 10}
        ---
        """;
    SimulationRun run = run(nodes + SCENARIO + """
        spec:
          duration: 4m
          sampleInterval: 10s
          features: {%s, clusterAutoscaler: false}
          faults: [{at: 2m, kubeletRestart: n1}]
        """.formatted(OFF));
    assertThat(events(run, "KubeletRestarted")).singleElement().satisfies(e -> {
      assertThat(e.at()).isEqualTo(s(120));
      assertThat(e.object()).isEqualTo("Node/n1");
    });
    assertThat(run.markers()).extracting(TimelineEvent::kind).contains("KubeletRestarted");
    assertThat(at(run, "running pods", s(110))).isEqualTo(2);
    assertThat(run.timeline()).filteredOn(e -> e.at().compareTo(s(120)) >= 0)
        .noneMatch(e -> e.kind().equals("PodNotReady") || e.kind().equals("PodDeleted"));
    assertThat(at(run, "running pods", s(230))).isEqualTo(2);
  }

  /**
   * A zone failure at 1 minute takes one of the two serving pods away at once: 600 requests/s at 1 millicore each
   * against one 500m pod leaves 100 requests/s beyond capacity from the failure instant, counted to the request,
   * while the pod's node is not yet marked (its status still says Ready at the end, 30 s later).
   */
  @Test
  void zoneFailure_itsPodsServeNothingFromTheFailureInstant() {
    String objects = """
        apiVersion: v1
        kind: Node
        metadata: {name: a1, labels: {topology.kubernetes.io/zone: a}}
        status:
          capacity: {cpu: "4", memory: 8Gi, pods: "110"}
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: b1, labels: {topology.kubernetes.io/zone: b}}
        status:
          capacity: {cpu: "4", memory: 8Gi, pods: "110"}
        ---
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: default}
        spec:
          replicas: 2
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers: [{name: web, image: web:1, resources: {requests: {cpu: 500m}}}]
        ---
        """;
    SimulationRun run = run(objects + SCENARIO + """
        spec:
          duration: 90s
          sampleInterval: 10s
          features: {%s, clusterAutoscaler: false}
          loads:
          - target: {name: web}
            cpuPerRequest: 1m
            constant: 600
          faults: [{at: 1m, zoneFailure: b}]
        """.formatted(OFF));
    assertThat(events(run, "ZoneFailed")).singleElement().satisfies(e -> assertThat(e.at()).isEqualTo(s(60)));
    assertThat(run.timeline()).noneMatch(e -> e.kind().equals("PodNotReady"));
    assertThat(run.loads()).singleElement().satisfies(l -> {
      assertThat(l.requests()).isCloseTo(600.0 * 90, org.assertj.core.api.Assertions.within(1e-6));
      assertThat(l.unserved()).isCloseTo(100.0 * 30, org.assertj.core.api.Assertions.within(1e-6));
    });
    assertThat(at(run, "unserved requests/s default/web", s(50))).isZero();
    assertThat(at(run, "unserved requests/s default/web", s(70))).isEqualTo(100);
  }

  @Test
  void kubeletRestartOfAnUnknownNode_rejectedBeforeTheRun() {
    assertThatThrownBy(() -> ClusterSimulation.builder().objects(load(GPU_POOL + SCENARIO + """
        spec:
          duration: 1m
          faults: [{at: 10s, kubeletRestart: nowhere}]
        """)).build()).isInstanceOf(io.fleetkit.api.ValidationException.class)
        .hasMessageContaining("spec.faults[0].kubeletRestart \"nowhere\" names no node among the manifests");
  }
}
