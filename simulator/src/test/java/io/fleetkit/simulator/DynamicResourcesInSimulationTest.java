package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.dra.DeviceTaint;
import io.fleetkit.api.resource.dra.DeviceTaintEffect;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.DeviceTaintSelector;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFault;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.controllers.DeviceTaintEvictionController;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Dynamic Resource Allocation in a cluster simulation, on the bundled examples/dra (two GPUs on one node, three pods
 * that each ask for one through a claim template): the resource-claim controller makes each pod's claim, the
 * scheduler's DynamicResources plugin allocates the two devices to two pods and the third waits; when a running pod
 * is deleted its claim is released and deleted, and the third pod gets the freed device.
 */
final class DynamicResourcesInSimulationTest {
  /** The pods (name, phase, node) and claims (owner pod, allocated device, reserved-for pod) at one sample. */
  record Sample(Duration at, List<String> pods, List<String> claims) {}

  private static List<ApiObject<?>> example() {
    return new ArrayList<>(KubernetesYaml.load(List.of(Examples.cluster().resolveSibling("dra"))).objects());
  }

  private static Scenario scenario(Duration duration, ScenarioFeatures features) {
    return new Scenario(ObjectMeta.builder().name("dra").build(), new ScenarioSpec(duration, 0,
        Duration.ofSeconds(10), List.of(), List.of(), features));
  }

  @Test
  void claimsMadeDevicesAllocated_andAFreedDeviceGoesToTheWaitingPod() {
    List<ApiObject<?>> objects = example();
    ObjectStore[] store = new ObjectStore[1];
    List<Sample> samples = new ArrayList<>();
    ClusterSimulation.Builder b = ClusterSimulation.builder().objects(objects)
        .scenario(scenario(Duration.ofMinutes(2), ScenarioFeatures.ALL))
        .store((clock, uids, admission) -> {
          store[0] = ObjectStore.builder().directDelivery().clock(clock).uidGenerator(uids).admission(admission)
              .build();
          return store[0];
        })
        .progress(p -> {
          samples.add(sample(store[0], p.simulated()));
          if (p.simulated().equals(Duration.ofMinutes(1))) { // as kubectl delete would
            store[0].delete(Pod.class, "default", "train-0");
          }
        });
    SimulationRun run = b.build().run();

    Sample first = samples.stream().filter(s -> s.at().equals(Duration.ofSeconds(50))).findFirst().orElseThrow();
    assertThat(first.pods()).containsExactly("train-0 Running dra-gpu-1", "train-1 Running dra-gpu-1",
        "train-2 Pending -");
    assertThat(first.claims()).containsExactlyInAnyOrder("train-0 gpu-0 train-0", "train-1 gpu-1 train-1",
        "train-2 - -");
    assertThat(run.timeline()).filteredOn(e -> e.kind().equals("PodUnschedulable"))
        .as("once, although the pod is retried").singleElement().satisfies(e -> {
          assertThat(e.object()).isEqualTo("Pod/default/train-2");
          assertThat(e.message()).isEqualTo("Unschedulable: 0/2 nodes are available: 2 cannot allocate all claims. "
              + "still not schedulable, preemption: 0/2 nodes are available: 2 Preemption is not helpful for "
              + "scheduling.");
        });

    Sample end = samples.get(samples.size() - 1);
    assertThat(end.at()).isEqualTo(Duration.ofMinutes(2));
    assertThat(end.claims()).as("train-0's claim was released and deleted; train-2 got its device")
        .containsExactlyInAnyOrder("train-1 gpu-1 train-1", "train-2 gpu-0 train-2");
    assertThat(end.pods()).containsExactly("train-1 Running dra-gpu-1", "train-2 Running dra-gpu-1");
    assertThat(run.timeline()).anyMatch(e -> e.kind().equals("PodScheduled") && e.object().equals("Pod/default/train-2")
        && e.at().compareTo(Duration.ofMinutes(1)) >= 0);
  }

  /**
   * A DeviceTaintRule taking gpu-0 out of service with NoExecute at one minute: the device taint eviction controller
   * deletes train-0 (which holds it) at that instant, with DisruptionTarget, and train-2 does not get the freed device
   * (its claim does not tolerate the taint).
   */
  @Test
  void noExecuteRuleOnADevice_evictsItsPod_andTheDeviceIsNotReallocated() {
    ObjectStore[] store = new ObjectStore[1];
    List<Sample> samples = new ArrayList<>();
    List<String> disruption = new ArrayList<>();
    ClusterSimulation.Builder b = ClusterSimulation.builder().objects(example())
        .scenario(scenario(Duration.ofMinutes(2), ScenarioFeatures.ALL))
        .store((clock, uids, admission) -> {
          store[0] = ObjectStore.builder().directDelivery().clock(clock).uidGenerator(uids).admission(admission)
              .build();
          store[0].watch(Pod.class, "0", e -> {
            var c = e.object().status().condition(PodCondition.DISRUPTION_TARGET);
            if (c != null && !disruption.contains(e.object().metadata().name() + " " + c.reason())) {
              disruption.add(e.object().metadata().name() + " " + c.reason());
            }
          });
          return store[0];
        })
        .progress(p -> {
          samples.add(sample(store[0], p.simulated()));
          if (p.simulated().equals(Duration.ofMinutes(1))) { // as kubectl apply would
            store[0].create(DeviceTaintRule.of("gpu-0-broken", DeviceTaintSelector.device("gpu.example.com",
                "dra-gpu-1", "gpu-0"), DeviceTaint.of("example.com/unhealthy", "", DeviceTaintEffect.NO_EXECUTE)));
          }
        });
    SimulationRun run = b.build().run();

    assertThat(disruption).containsExactly("train-0 " + DeviceTaintEvictionController.REASON);
    assertThat(run.timeline()).filteredOn(e -> e.kind().equals("PodEvicted")).singleElement().satisfies(e -> {
      assertThat(e.object()).isEqualTo("Pod/default/train-0");
      assertThat(e.at()).isEqualTo(Duration.ofMinutes(1));
      assertThat(e.message()).contains(DeviceTaintEvictionController.REASON);
    });
    Sample end = samples.get(samples.size() - 1);
    assertThat(end.pods()).containsExactly("train-1 Running dra-gpu-1", "train-2 Pending -");
    assertThat(end.claims()).containsExactlyInAnyOrder("train-1 gpu-1 train-1", "train-2 - -");
  }

  /**
   * The scenario's GPU device fault on a node whose GPUs are DRA devices: a NoExecute DeviceTaintRule on its first
   * device (gpu-0) at one minute evicts train-0; the waiting train-2 gets gpu-0 only once the fault heals (the rule is
   * deleted) 30 s later.
   */
  @Test
  void gpuDeviceFaultOnADraNode_taintsTheDevice_untilItHeals() {
    ObjectStore[] store = new ObjectStore[1];
    List<Sample> samples = new ArrayList<>();
    List<String> rules = new ArrayList<>();
    Scenario s = new Scenario(ObjectMeta.builder().name("dra").build(), new ScenarioSpec(Duration.ofMinutes(2), 0,
        Duration.ofSeconds(10), List.of(), List.of(ScenarioFault.gpuDeviceFault(Duration.ofMinutes(1), "dra-gpu-1", 1,
        Duration.ofSeconds(30))), ScenarioFeatures.ALL));
    SimulationRun run = ClusterSimulation.builder().objects(example()).scenario(s)
        .store((clock, uids, admission) -> {
          store[0] = ObjectStore.builder().directDelivery().clock(clock).uidGenerator(uids).admission(admission)
              .build();
          return store[0];
        })
        .progress(p -> {
          samples.add(sample(store[0], p.simulated()));
          rules.add(p.simulated().toSeconds() + "s " + store[0].list(DeviceTaintRule.class).items().size());
        }).build().run();

    assertThat(run.timeline()).filteredOn(e -> e.kind().equals("GpuDeviceFailed")).singleElement().satisfies(e -> {
      assertThat(e.at()).isEqualTo(Duration.ofMinutes(1));
      assertThat(e.message()).isEqualTo("1 DRA device(s) tainted NoExecute by DeviceTaintRule gpu-fault-dra-gpu-1-gpu-0");
    });
    assertThat(run.timeline()).filteredOn(e -> e.kind().equals("PodEvicted")).singleElement()
        .satisfies(e -> assertThat(e.object()).isEqualTo("Pod/default/train-0"));
    Sample during = samples.stream().filter(x -> x.at().equals(Duration.ofSeconds(80))).findFirst().orElseThrow();
    assertThat(during.pods()).containsExactly("train-1 Running dra-gpu-1", "train-2 Pending -");
    assertThat(run.timeline()).anyMatch(e -> e.kind().equals("GpuDeviceRecovered") && e.at().equals(Duration.ofSeconds(90)));
    assertThat(run.timeline()).anyMatch(e -> e.kind().equals("PodScheduled") && e.object().equals("Pod/default/train-2")
        && e.at().compareTo(Duration.ofSeconds(90)) >= 0);
    assertThat(rules).contains("50s 0", "60s 1", "80s 1", "120s 0");
  }

  @Test
  void gpuDeviceFaultOnADraNode_moreDevicesThanPublished_refused() {
    Scenario s = new Scenario(ObjectMeta.builder().name("dra").build(), new ScenarioSpec(Duration.ofMinutes(1), 0,
        Duration.ofSeconds(10), List.of(), List.of(ScenarioFault.gpuDeviceFault(Duration.ofSeconds(30), "dra-gpu-1", 3,
        null)), ScenarioFeatures.ALL));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ClusterSimulation.builder().objects(example())
        .scenario(s).build().run())
        .isInstanceOf(io.fleetkit.api.ValidationException.class)
        .hasMessage("Scenario dra: spec.faults[0].devices \"3\" is more than the 2 DRA device(s) node dra-gpu-1"
            + " publishes in its ResourceSlices");
  }

  @Test
  void featureOff_podsWaitForTheirClaims() {
    SimulationRun run = ClusterSimulation.builder().objects(example())
        .scenario(scenario(Duration.ofMinutes(1), ScenarioFeatures.builder().dynamicResources(false).build()))
        .build().run();

    assertThat(run.timeline()).noneMatch(e -> e.kind().equals("PodScheduled"));
    assertThat(run.timeline()).filteredOn(e -> e.kind().equals("PodCreated")).hasSize(3);
  }

  private static Sample sample(ObjectStore store, Duration at) {
    TreeMap<String, String> pods = new TreeMap<>();
    for (Pod p : store.list(Pod.class).items()) {
      pods.put(p.metadata().name(), p.metadata().name() + " " + p.status().phase() + " "
          + (p.spec().nodeName().isEmpty() ? "-" : p.spec().nodeName()));
    }
    List<String> claims = new ArrayList<>();
    for (ResourceClaim c : store.list(ResourceClaim.class).items()) {
      String owner = c.metadata().controllerRef() == null ? "?" : c.metadata().controllerRef().name();
      String device = c.status().allocation() == null ? "-"
          : c.status().allocation().devices().get(0).device();
      String reserved = c.status().reservedFor().isEmpty() ? "-" : c.status().reservedFor().get(0).name();
      claims.add(owner + " " + device + " " + reserved);
    }
    return new Sample(at, List.copyOf(pods.values()), claims);
  }
}
