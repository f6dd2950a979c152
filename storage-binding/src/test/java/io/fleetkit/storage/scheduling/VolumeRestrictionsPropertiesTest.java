package io.fleetkit.storage.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.jspecify.annotations.Nullable;

/**
 * Invariants of {@link VolumeRestrictionsPlugin} over random clusters: four claims c0..c3 in two namespaces (a bit mask
 * picks the ReadWriteOncePod ones), pods on three nodes mounting random subsets.
 */
final class VolumeRestrictionsPropertiesTest {
  private static final String[] NAMESPACES = {"default", "other"};
  private static final ResourceList REQUESTS = ResourceList.builder().put("cpu", "100m").build();

  private static Pod pod(String ns, String name, @Nullable String node, int claimMask) {
    Pod.Builder b = Pod.builder().namespace(ns).name(name).uid(ns + "-" + name).container("c", "img", REQUESTS);
    if (node != null) {
      b.nodeName(node);
    }
    for (int i = 0; i < 4; i++) {
      if ((claimMask & (1 << i)) != 0) {
        b.volume(Volume.persistentVolumeClaim("v" + i, "c" + i));
      }
    }
    return b.build();
  }

  /**
   * The pod is rejected on every node exactly when some pod of its namespace already mounts one of its ReadWriteOncePod
   * claims; a preemption dry run that removes every such pod lets it pass, and adding them back rejects it again.
   */
  @Property(tries = 300)
  void verdict_isSharedReadWriteOncePodClaim_andDryRunRemovalClearsIt(
      @ForAll @IntRange(min = 0, max = 15) int rwopMask,
      @ForAll @IntRange(min = 0, max = 15) int podMask,
      @ForAll @Size(max = 6) List<@IntRange(min = 0, max = 31) Integer> existing) {
    ObjectStore store = ObjectStore.inMemory();
    for (String ns : NAMESPACES) {
      for (int i = 0; i < 4; i++) {
        PersistentVolumeAccessMode mode = (rwopMask & (1 << i)) != 0
            ? PersistentVolumeAccessMode.ReadWriteOncePod : PersistentVolumeAccessMode.ReadWriteMany;
        store.create(PersistentVolumeClaim.of(ObjectMeta.of(ns, "c" + i),
            PersistentVolumeClaimSpec.builder().storage("1Gi").accessMode(mode).build()));
      }
    }
    List<List<PodInfo>> perNode = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    List<PodInfo> users = new ArrayList<>();
    int[] taken = new int[NAMESPACES.length]; // ReadWriteOncePod claims a pod already mounts, per namespace
    for (int i = 0; i < existing.size(); i++) {
      int e = existing.get(i);
      int nsIndex = e >> 4;
      String ns = NAMESPACES[nsIndex];
      // as in a real cluster, at most one pod mounts a ReadWriteOncePod claim
      int mask = e & 15 & ~(taken[nsIndex] & rwopMask);
      taken[nsIndex] |= mask;
      PodInfo p = PodInfos.of(pod(ns, "p" + i, "n" + (i % 3), mask));
      perNode.get(i % 3).add(p);
      if (ns.equals("default") && (mask & podMask & rwopMask) != 0) {
        users.add(p);
      }
    }
    List<NodeInfo> nodes = new ArrayList<>();
    for (int n = 0; n < 3; n++) {
      nodes.add(NodeInfos.of(Node.builder().name("n" + n).build(), perNode.get(n)));
    }
    VolumeRestrictionsPlugin plugin = new VolumeRestrictionsPlugin(store);
    PodInfo pod = PodInfos.of(pod("default", "new", null, podMask));
    CycleState state = new MapCycleState();

    PreFilterResult pre = plugin.preFilter(state, pod, new Nodes(nodes));

    if (users.isEmpty()) {
      assertThat(pre.status()).isEqualTo(Status.skip());
      return;
    }
    assertThat(pre.status()).isEqualTo(Status.success());
    for (NodeInfo node : nodes) {
      assertThat(plugin.filter(state, pod, node).reasons())
          .containsExactly(VolumeRestrictionsPlugin.REASON_READ_WRITE_ONCE_POD_CONFLICT);
    }
    CycleState dryRun = state.copy();
    for (PodInfo u : users) {
      assertThat(plugin.removePod(dryRun, pod, u, nodes.get(0)).isSuccess()).isTrue();
    }
    assertThat(plugin.filter(dryRun, pod, nodes.get(0))).isEqualTo(Status.success());
    assertThat(plugin.filter(state, pod, nodes.get(0)).isSuccess()).isFalse();
    plugin.addPod(dryRun, pod, users.get(0), nodes.get(0));
    assertThat(plugin.filter(dryRun, pod, nodes.get(0)).isSuccess()).isFalse();
  }

  /** A snapshot of fixed nodes. */
  private record Nodes(List<NodeInfo> nodes) implements Snapshot {
    @Override
    public List<NodeInfo> nodesWithAffinityPods() {
      return List.of();
    }

    @Override
    public List<NodeInfo> nodesWithRequiredAntiAffinityPods() {
      return List.of();
    }

    @Override
    public @Nullable NodeInfo get(String nodeName) {
      return nodes.stream().filter(n -> n.name().equals(nodeName)).findFirst().orElse(null);
    }

    @Override
    public int size() {
      return nodes.size();
    }
  }
}
