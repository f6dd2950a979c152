package io.fleetkit.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.adapter.kubernetes.yaml.ManifestException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimTemplate;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Gauge;
import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricDescriptor;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.StorageClassSpec;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.plugins.gpu.GpuFilterPlugin;
import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Cluster}: from manifests (or objects built in code) to placements, with profiles, GPU policy and metrics. */
final class ClusterTest {

  private static Path examples() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("examples/gpu-cluster"))) {
      p = p.getParent();
    }
    assertThat(p).as("examples/ above the working directory").isNotNull();
    return p.resolve("examples");
  }

  private static Node node(String name, int cpus) {
    return Node.builder().name(name)
        .capacity(ResourceList.builder().put("cpu", String.valueOf(cpus)).put("memory", "4Gi").put("pods", "110")
            .build())
        .ready().build();
  }

  private static Pod pod(String name, long milliCpu) {
    return Pod.builder().namespace("default").name(name).container("c", "img", ResourceList.ofCpuMemory(milliCpu, 0))
        .build();
  }

  @Test
  void schedule_gpuClusterExample_placesFourAndExplainsTheFifth_sameOutcomeEveryRun() {
    Cluster cluster = Cluster.builder().manifests(examples().resolve("gpu-cluster")).seed(7).build();

    ScheduleOutcome first = cluster.schedule();

    assertThat(first.placements()).hasSize(4);
    assertThat(first.unschedulable()).hasSize(1);
    assertThat(first.unschedulable().get(0).message()).contains("nodes are available");
    assertThat(first.rejected()).isEmpty();
    assertThat(cluster.schedule()).as("a second run starts afresh from the manifests").isEqualTo(first);
    assertThat(cluster.profiles()).containsExactly(DefaultPlugins.profile());
    assertThat(cluster.gpuPolicy()).isEmpty();
  }

  @Test
  void schedule_objectsBuiltInCode_placesWhatFitsAndGivesKubesDiagnosis() {
    ScheduleOutcome outcome = Cluster.builder()
        .objects(List.of(node("n1", 2), pod("small-a", 1000), pod("small-b", 1000), pod("big", 3000)))
        .build().schedule();

    assertThat(outcome.placements()).extracting(ScheduleOutcome.Placement::pod)
        .containsExactly("default/small-a", "default/small-b");
    assertThat(outcome.placements()).allSatisfy(p -> {
      assertThat(p.node()).isEqualTo("n1");
      assertThat(p.preempted()).isEmpty();
      assertThat(p.volumes()).isEmpty();
    });
    assertThat(outcome.unschedulable()).singleElement().satisfies(u -> {
      assertThat(u.pod()).isEqualTo("default/big");
      assertThat(u.message()).startsWith("0/1 nodes are available: 1 Insufficient cpu.");
    });
  }

  @Test
  void schedule_draExample_podsGetTheirDevicesAndTheThirdWaits() {
    // DRA: the claim controller makes one claim per pod from the template, the DynamicResources plugin allocates the
    // GPU node's two devices to two pods and finds none for the third
    Cluster cluster = Cluster.builder().manifests(examples().resolve("dra")).seed(3).build();

    ScheduleOutcome outcome = cluster.schedule();

    assertThat(outcome.placements()).extracting(ScheduleOutcome.Placement::pod)
        .containsExactly("default/train-0", "default/train-1");
    assertThat(outcome.placements()).allSatisfy(p -> assertThat(p.node()).isEqualTo("dra-gpu-1"));
    assertThat(outcome.unschedulable()).singleElement().satisfies(u -> {
      assertThat(u.pod()).isEqualTo("default/train-2");
      assertThat(u.message()).startsWith("0/2 nodes are available: 2 cannot allocate all claims.");
    });
    assertThat(cluster.schedule()).as("same outcome every run").isEqualTo(outcome);
  }

  @Test
  void schedule_podOfAnUnservedSchedulerName_isUnschedulableNamingTheProfiles() {
    Pod other = Pod.builder().namespace("default").name("other").schedulerName("batch-scheduler")
        .container("c", "img", ResourceList.ofCpuMemory(100, 0)).build();

    ScheduleOutcome outcome = Cluster.builder().objects(List.of(node("n1", 2), other)).build().schedule();

    assertThat(outcome.placements()).isEmpty();
    assertThat(outcome.unschedulable()).singleElement().satisfies(u -> assertThat(u.message())
        .isEqualTo("no profile serves schedulerName \"batch-scheduler\" (profiles: default-scheduler)"));
  }

  @Test
  void schedule_allExamples_admitsThroughTheChainAndBindsClaims() {
    ScheduleOutcome outcome = Cluster.builder().manifests(examples()).build().schedule();

    assertThat(outcome.rejected()).singleElement().satisfies(r -> assertThat(r.object()).startsWith("Pod/team-"));
    assertThat(outcome.placements()).filteredOn(p -> p.pod().equals("default/trainer")).singleElement()
        .satisfies(p -> assertThat(p.volumes()).hasSize(1));
  }

  private static Pod ephemeralPod(String name) {
    return Pod.builder().namespace("default").name(name).container("c", "img", ResourceList.ofCpuMemory(100, 0))
        .volume(Volume.ephemeral("scratch", PersistentVolumeClaimTemplate.of(
            PersistentVolumeClaimSpec.builder().storage("1Gi")
                .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName("local")
                .build())))
        .build();
  }

  @Test
  void schedule_podWithEphemeralVolume_itsClaimMadeAndProvisioned_aClaimNotItsOwnRefused() {
    StorageClass local = StorageClass.of(
        ObjectMeta.of("local"), StorageClassSpec.builder()
            .provisioner("local.csi.fleetkit.io")
            .volumeBindingMode(VolumeBindingMode.WaitForFirstConsumer).build());
    PersistentVolumeClaim taken = PersistentVolumeClaim.of(
        ObjectMeta.of("default", "other-scratch"),
        PersistentVolumeClaimSpec.builder().storage("1Gi")
            .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName("local")
            .build());
    ScheduleOutcome outcome = Cluster.builder().objects(List.of(node("n1", 2), local, taken, ephemeralPod("web"),
        ephemeralPod("other"))).build().schedule();

    assertThat(outcome.placements()).singleElement().satisfies(p -> {
      assertThat(p.pod()).isEqualTo("default/web");
      assertThat(p.volumes()).containsOnlyKeys("web-scratch");
      assertThat(p.volumes().get("web-scratch")).startsWith("pvc-");
    });
    assertThat(outcome.unschedulable()).singleElement().satisfies(u -> {
      assertThat(u.pod()).isEqualTo("default/other");
      assertThat(u.message()).contains(
          "PVC default/other-scratch was not created for pod default/other (pod is not owner)");
    });
  }

  @Test
  void schedulerConfiguration_profilesOfTheFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("scheduler.yaml");
    Files.writeString(file, """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        profiles:
        - schedulerName: default-scheduler
        - schedulerName: packer
          percentageOfNodesToScore: 100
        """);

    Cluster cluster = Cluster.builder().objects(List.of(node("n1", 2))).schedulerConfiguration(file).build();

    assertThat(cluster.profiles()).extracting(SchedulerProfile::schedulerName)
        .containsExactly("default-scheduler", "packer");
  }

  @Test
  void schedulerConfiguration_unknownField_isRefusedNamingTheFileAndTheField(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("scheduler.yaml");
    Files.writeString(file, "profile:\n- schedulerName: x\n");

    assertThatThrownBy(() -> Cluster.builder().schedulerConfiguration(file).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(file.toString()).hasMessageContaining("profile: unknown field");
  }

  @Test
  void profilesAndSchedulerConfiguration_areExclusive(@TempDir Path dir) {
    assertThatThrownBy(() -> Cluster.builder().profiles(List.of(DefaultPlugins.profile()))
        .schedulerConfiguration(dir.resolve("x.yaml")))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("exclusive");
  }

  @Test
  void badManifest_isRefusedWithEveryProblemNamingTheFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(file, """
        apiVersion: v1
        kind: Pod
        metadata:
          namespace: default
        spec:
          containers: [{name: c, image: img}]
        """);

    assertThatThrownBy(() -> Cluster.builder().manifests(file).build())
        .isInstanceOfSatisfying(ManifestException.class, e -> {
          assertThat(e.problems()).isNotEmpty();
          assertThat(e.problems().get(0).toString()).contains("bad.yaml").contains("metadata.name");
        });
  }

  private static final String GPU_CLUSTER = """
      apiVersion: v1
      kind: Node
      metadata: {name: cpu-1}
      status:
        capacity: {cpu: "16", memory: 64Gi, pods: "110"}
        conditions: [{type: Ready, status: "True"}]
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: gpu-1}
      status:
        capacity: {cpu: "32", memory: 256Gi, pods: "110", nvidia.com/gpu: "2"}
        conditions: [{type: Ready, status: "True"}]
        gpus:
          - {id: GPU-0, model: A100-SXM4-80GB, memoryMiB: 81920}
          - {id: GPU-1, model: A100-SXM4-80GB, memoryMiB: 81920}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: train, namespace: default}
      spec:
        containers:
          - name: c
            image: img
            resources: {limits: {cpu: "4", memory: 8Gi, nvidia.com/gpu: "2"}}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: web, namespace: default}
      spec:
        containers: [{name: c, image: img, resources: {requests: {cpu: "1", memory: 1Gi}}}]
      """;

  @Test
  void gpuPolicy_addsTheGpuPluginsAndPolicyScore_andPlacesGpuPodsOnGpuNodes(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("gpu.yaml");
    Files.writeString(file, GPU_CLUSTER);
    for (GpuPolicy policy : List.of(GpuPolicy.BEST_FIT, GpuPolicy.FGD)) {
      Cluster cluster = Cluster.builder().manifests(file).gpuPolicy(policy).build();

      assertThat(cluster.gpuPolicy()).contains(policy);
      assertThat(cluster.profiles()).singleElement().satisfies(p -> assertThat(p.plugins())
          .extracting(SchedulerProfile.PluginRef::name).contains(GpuFilterPlugin.NAME, policy.pluginName()));
      ScheduleOutcome outcome = cluster.schedule();
      assertThat(outcome.unschedulable()).as(policy.name()).isEmpty();
      assertThat(outcome.placements()).as(policy.name()).extracting(ScheduleOutcome.Placement::pod,
          ScheduleOutcome.Placement::node).contains(org.assertj.core.groups.Tuple.tuple("default/train", "gpu-1"));
    }
  }

  @Test
  void metrics_recordTheSchedulersSeries() {
    RecordingRegistry metrics = new RecordingRegistry();

    Cluster.builder().objects(List.of(node("n1", 2), pod("a", 500))).metrics(metrics).build().schedule();

    assertThat(metrics.names).contains("scheduler_schedule_attempts_total");
  }

  /** Remembers which metrics were asked for. */
  private static final class RecordingRegistry implements MetricsRegistry {
    final Set<String> names = ConcurrentHashMap.newKeySet();

    @Override
    public Counter counter(MetricDescriptor metric, String... labelValues) {
      names.add(metric.name());
      return amount -> { };
    }

    @Override
    public Gauge gauge(MetricDescriptor metric, String... labelValues) {
      names.add(metric.name());
      return new Gauge() {
        @Override
        public void set(double value) { }

        @Override
        public void add(double delta) { }
      };
    }

    @Override
    public Histogram histogram(MetricDescriptor metric, String... labelValues) {
      names.add(metric.name());
      return value -> { };
    }
  }

  @Test
  void outcome_isImmutable() {
    ScheduleOutcome.Placement p = new ScheduleOutcome.Placement("default/a", "n1", List.of(), Map.of("c", "pv"));
    ScheduleOutcome o = new ScheduleOutcome(List.of(p), List.of(), List.of());

    assertThatThrownBy(() -> o.placements().add(p)).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> p.volumes().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
  }
}
