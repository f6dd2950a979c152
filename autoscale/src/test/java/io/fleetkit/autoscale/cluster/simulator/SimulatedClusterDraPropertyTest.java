package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.ResourceSliceTemplate;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodResourceClaim;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.Device;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.ExactDeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimConsumerReference;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourceSlice;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * The simulation's DRA state under random placements, removals, drains (placeAll away from a node), node removals
 * and checkpoint rollbacks, for pods that each own a claim for one GPU on nodes with one or two GPUs: no device is
 * ever allocated to two claims; a claim is allocated exactly when its pod is on a node, on a device of that node, and
 * reserved for that pod only; a rollback brings back every claim as it was at the checkpoint.
 */
final class SimulatedClusterDraPropertyTest {
  private static final String DRIVER = "gpu.example.com";
  private static final ResourceList CAP = ResourceList.builder().put("cpu", "64").put("memory", "64Gi")
      .put("pods", "110").build();

  private static Pod pod(int i) {
    return Pod.builder().namespace("default").name("p" + i).uid("uid-p" + i)
        .container("c", "img", ResourceList.ofCpuMemory(100, 0))
        .resourceClaim(PodResourceClaim.ofClaim("gpu", "c" + i)).build();
  }

  private static ResourceClaim claim(int i) {
    return ResourceClaim.of(ObjectMeta.builder().namespace("default").name("c" + i).uid("uid-c" + i)
        .ownerReference(new OwnerReference("v1", "Pod", "p" + i, "uid-p" + i, true, true)).build(),
        ResourceClaimSpec.of(new DeviceRequest("gpu", ExactDeviceRequest.count(DRIVER, 1))));
  }

  @Property(tries = 300)
  void devicesNeverShared_claimsFollowTheirPods_rollbackRestores(@ForAll @IntRange(min = 1, max = 5) int nodeCount,
      @ForAll @IntRange(min = 1, max = 8) int podCount, @ForAll @IntRange(min = 1, max = 50) int steps,
      @ForAll long seed) {
    Random rnd = new Random(seed);
    List<ResourceClaim> claims = new ArrayList<>();
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < podCount; i++) {
      claims.add(claim(i));
      pods.add(pod(i));
    }
    SimulatedCluster sim = SimulatedCluster.create(DefaultPlugins.profile(), PluginRegistry.defaults(),
        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC),
        Map.of(DeviceClass.class, List.of(DeviceClass.of(DRIVER)), ResourceClaim.class, claims));
    List<String> names = new ArrayList<>();
    for (int n = 0; n < nodeCount; n++) {
      String name = "gpu-" + n;
      Device[] devices = rnd.nextBoolean() ? new Device[] {Device.of("d0")}
          : new Device[] {Device.of("d0"), Device.of("d1")};
      sim.addNode(Node.builder().name(name).capacity(CAP).build(),
          List.of(ResourceSliceTemplate.of(DRIVER, "gpus", devices).sliceFor(name)));
      names.add(name);
    }
    Map<String, ResourceClaim> atCheckpoint = null;
    boolean placed = false;
    for (int s = 0; s < steps; s++) {
      int op = rnd.nextInt(6);
      Pod p = pods.get(rnd.nextInt(podCount));
      String on = nodeOf(sim, p);
      if (op <= 1 && on == null) {
        PodInfo pi = PodInfos.of(p);
        String fit = sim.findFit(pi, n -> true);
        if (fit != null) {
          sim.addPod(fit, pi);
          placed = true;
        }
      } else if (op == 2 && on != null) {
        sim.removePod(on, p.metadata().key());
      } else if (op == 3 && on != null) {
        // a drain of the pod's node: its pods moved elsewhere, the node then removed if they all moved
        NodeInfo n = sim.nodeInfo(on);
        List<PodInfo> away = new ArrayList<>();
        for (PodInfo pi : n.pods()) {
          away.add(PodInfos.of(pi.pod().withNodeName("")));
        }
        if (sim.placeAll(away, new int[] {0}, sim.slot(on))) {
          sim.removeNode(on);
        }
      } else if (op == 4 && sim.size() > 0 && rnd.nextInt(3) == 0) {
        sim.removeNode(sim.nodes().get(rnd.nextInt(sim.size())).name());
      } else if (op == 5) {
        if (atCheckpoint == null) {
          sim.checkpoint();
          atCheckpoint = snapshot(sim, podCount);
        } else {
          sim.rollback();
          assertThat(snapshot(sim, podCount)).isEqualTo(atCheckpoint);
          atCheckpoint = null;
        }
      }
      check(sim, pods);
    }
    Statistics.label("a pod placed").collect(placed);
    Statistics.label("a pod placed").coverage(c -> c.check(true).percentage(pc -> pc > 50));
  }

  private static Map<String, ResourceClaim> snapshot(SimulatedCluster sim, int podCount) {
    Map<String, ResourceClaim> out = new HashMap<>();
    for (int i = 0; i < podCount; i++) {
      out.put("c" + i, sim.claim("default", "c" + i));
    }
    return out;
  }

  /** The node pod {@code p} (by key) is on, or null; a pod is on at most one node. */
  private static String nodeOf(SimulatedCluster sim, Pod p) {
    String found = null;
    for (NodeInfo n : sim.nodes()) {
      for (PodInfo pi : n.pods()) {
        if (pi.key().equals(p.metadata().key())) {
          assertThat(found).as("pod %s on two nodes", p.metadata().key()).isNull();
          found = n.name();
        }
      }
    }
    return found;
  }

  private static void check(SimulatedCluster sim, List<Pod> pods) {
    Set<String> devices = new HashSet<>();
    for (int i = 0; i < pods.size(); i++) {
      Pod p = pods.get(i);
      ResourceClaim c = sim.claim("default", "c" + i);
      String on = nodeOf(sim, p);
      AllocationResult a = c.status().allocation();
      if (on == null) {
        assertThat(a).as("claim of %s, on no node", p.metadata().name()).isNull();
        assertThat(c.status().reservedFor()).isEmpty();
        continue;
      }
      assertThat(a).as("claim of %s on %s", p.metadata().name(), on).isNotNull();
      DeviceRequestAllocationResult r = a.devices().get(0);
      assertThat(r.pool()).isEqualTo(on + "-gpus");
      assertThat(devices.add(r.pool() + "/" + r.device())).as("device %s/%s allocated twice", r.pool(), r.device())
          .isTrue();
      assertThat(c.status().reservedFor()).containsExactly(ResourceClaimConsumerReference.pod(p.metadata().name(),
          p.metadata().uid()));
    }
  }
}
