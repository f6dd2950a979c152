package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimTemplate;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.StorageClassSpec;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.api.store.ObjectStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A generic ephemeral volume end to end in a cluster simulation with the storage feature: the ephemeral volume
 * controller creates the pod's claim, the scheduler's VolumeBinding plugin (WaitForFirstConsumer) has it provisioned
 * on the chosen node through the PersistentVolume controller, the pod starts; when the pod is deleted (its
 * Deployment scaled to zero) the garbage collector deletes the claim, and the volume of policy Delete goes with it.
 */
final class EphemeralVolumeInSimulationTest {
  /** What the store holds at one sample: the claims and pods, described. */
  record Sample(Duration at, List<String> claims, List<String> pods, int volumes) {}

  private static Deployment web(int replicas) {
    return web(replicas, "local");
  }

  private static Deployment web(int replicas, String storageClass) {
    PersistentVolumeClaimTemplate scratch = new PersistentVolumeClaimTemplate(Map.of("purpose", "scratch"), Map.of(),
        PersistentVolumeClaimSpec.builder().storage("1Gi").accessMode(PersistentVolumeAccessMode.ReadWriteOnce)
            .storageClassName(storageClass).build());
    return Deployment.builder().namespace("default").name("web").replicas(replicas).matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "nginx:1", ResourceList.ofCpuMemory(500, 0))
            .volume(Volume.ephemeral("scratch", scratch)).build())
        .build();
  }

  @Test
  void ephemeralVolume_claimCreatedBoundAndPodStarted_thenDeletedWithThePod() {
    List<ApiObject<?>> objects = new ArrayList<>(SimFixtures.nodes(2));
    objects.add(StorageClass.of(ObjectMeta.of("local"), StorageClassSpec.builder().provisioner("local.csi.fleetkit.io")
        .volumeBindingMode(VolumeBindingMode.WaitForFirstConsumer).build()));
    objects.add(web(1));
    Scenario scenario = new Scenario(ObjectMeta.builder().name("ephemeral").build(), new ScenarioSpec(
        Duration.ofMinutes(3), 0, Duration.ofSeconds(15), List.of(), List.of(), new ScenarioFeatures(false, false,
            true)));
    ObjectStore[] store = new ObjectStore[1];
    List<Sample> samples = new ArrayList<>();
    SimulationRun run = ClusterSimulation.builder().objects(objects).scenario(scenario)
        .store((clock, uids, admission) -> {
          store[0] = ObjectStore.builder().directDelivery().clock(clock).uidGenerator(uids).admission(admission)
              .build();
          return store[0];
        })
        .apply(Duration.ofSeconds(90), List.of(web(0)), "scale-to-zero")
        .progress(p -> samples.add(sample(store[0], p.simulated())))
        .build().run();

    assertThat(run.timeline()).anyMatch(e -> e.kind().equals("PodScheduled")
        && e.object().startsWith("Pod/default/web-"));
    Sample before = samples.stream().filter(s -> s.at().compareTo(Duration.ofSeconds(75)) == 0).findFirst()
        .orElseThrow();
    assertThat(before.pods()).singleElement().asString().matches("web-[a-z0-9-]+ Running on node-\\d+");
    String pod = before.pods().get(0).split(" ")[0];
    assertThat(before.claims()).containsExactly(pod + "-scratch Bound to pvc-" + " owned by Pod/" + pod
        + " labels {purpose=scratch}");
    assertThat(before.volumes()).isEqualTo(1);
    Sample end = samples.get(samples.size() - 1);
    assertThat(end.pods()).isEmpty();
    assertThat(end.claims()).as("the garbage collector deleted the pod's claim").isEmpty();
    assertThat(end.volumes()).as("the provisioned volume (policy Delete) was reclaimed").isZero();
  }

  /**
   * A claim naming a StorageClass that does not exist: the PersistentVolume controller's {@code ProvisioningFailed}
   * warning reaches the timeline once, although the controller retries, and the pod stays pending.
   */
  @Test
  void missingStorageClass_provisioningFailedOnTheTimelineOnce() {
    List<ApiObject<?>> objects = new ArrayList<>(SimFixtures.nodes(2));
    objects.add(web(1, "fast"));
    Scenario scenario = new Scenario(ObjectMeta.builder().name("typo").build(), new ScenarioSpec(
        Duration.ofMinutes(5), 0, Duration.ofSeconds(30), List.of(), List.of(), new ScenarioFeatures(false, false,
            true)));
    SimulationRun run = ClusterSimulation.builder().objects(objects).scenario(scenario).build().run();

    List<TimelineEvent> failed = run.timeline().stream().filter(e -> e.kind().equals("ProvisioningFailed")).toList();
    assertThat(failed).singleElement().satisfies(e -> {
      assertThat(e.object()).matches("PersistentVolumeClaim/default/web-[a-z0-9-]+-scratch");
      assertThat(e.message()).isEqualTo("storageclass.storage.k8s.io \"fast\" not found");
    });
    assertThat(run.timeline()).noneMatch(e -> e.kind().equals("PodScheduled"));
  }

  private static Sample sample(ObjectStore store, Duration at) {
    List<String> claims = new ArrayList<>();
    for (PersistentVolumeClaim c : store.list(PersistentVolumeClaim.class).items()) {
      OwnerReference ref = c.metadata().controllerRef();
      String volume = c.spec().volumeName();
      claims.add(c.metadata().name() + " " + c.status().phase()
          + (c.status().phase() == PersistentVolumeClaimPhase.Bound && volume.startsWith("pvc-") ? " to pvc-" : "")
          + " owned by " + (ref == null ? "nobody" : ref.kind() + "/" + ref.name())
          + " labels " + new java.util.TreeMap<>(c.metadata().labels()));
    }
    List<String> pods = new ArrayList<>();
    for (Pod p : store.list(Pod.class).items()) {
      if (p.metadata().deletionTimestamp() == null) {
        pods.add(p.metadata().name() + " " + p.status().phase() + (p.status().phase() == PodPhase.Running
            ? " on " + p.spec().nodeName() : ""));
      }
    }
    return new Sample(at, claims, pods, store.list(PersistentVolume.class).items().size());
  }
}
