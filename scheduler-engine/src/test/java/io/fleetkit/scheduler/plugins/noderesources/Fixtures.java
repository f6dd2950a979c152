package io.fleetkit.scheduler.plugins.noderesources;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.StateKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/** Test helpers mirroring upstream's st.MakePod()/MakeNode() wrappers and a HashMap-backed CycleState. */
final class Fixtures {
  private static final AtomicInteger SEQ = new AtomicInteger();

  private Fixtures() {}

  /** A plain CycleState for tests (the engine's is array-backed and concurrent). */
  static final class MapCycleState implements CycleState {
    private final Map<StateKey<?>, Object> values = new HashMap<>();

    @Override
    public <T> void write(StateKey<T> key, T value) {
      values.put(key, value);
    }

    @Override
    public <T> @Nullable T read(StateKey<T> key) {
      return key.type().cast(values.get(key));
    }

    @Override
    public CycleState copy() {
      MapCycleState c = new MapCycleState();
      c.values.putAll(values);
      return c;
    }

    @Override
    public boolean isPreemptionDryRun() {
      return false;
    }
  }

  /** A resource list from name/quantity pairs: {@code res("cpu", "3000", "memory", "5000")}. */
  static ResourceList res(String... nameQuantity) {
    ResourceList.Builder b = ResourceList.builder();
    for (int i = 0; i < nameQuantity.length; i += 2) {
      b.put(nameQuantity[i], nameQuantity[i + 1]);
    }
    return b.build();
  }

  /** Upstream fit_test's framework.Resource{MilliCPU, Memory, EphemeralStorage, ScalarResources}. */
  static ResourceList resource(long milliCpu, long memory, long ephemeral, String... scalarNameValue) {
    ResourceList.Builder b = ResourceList.builder()
        .put("cpu", Quantity.ofMilli(milliCpu))
        .put("memory", Quantity.of(memory))
        .put("ephemeral-storage", Quantity.of(ephemeral));
    for (int i = 0; i < scalarNameValue.length; i += 2) {
      b.put(scalarNameValue[i], Quantity.of(Long.parseLong(scalarNameValue[i + 1])));
    }
    return b.build();
  }

  /** A pod with one regular container per request list (upstream newResourcePod / st.MakePod().Req(..)...). */
  static Pod pod(ResourceList... containers) {
    Pod.Builder b = Pod.builder().name("pod-" + SEQ.incrementAndGet());
    if (containers.length == 0) {
      b.container("c0", "pause", ResourceList.EMPTY);
    }
    for (int i = 0; i < containers.length; i++) {
      b.container("c" + i, "pause", containers[i]);
    }
    return b.build();
  }

  /** {@code pod} with init containers (upstream newResourceInitPod). */
  static Pod withInit(Pod pod, ResourceList... inits) {
    Pod.Builder b = pod.toBuilder();
    for (int i = 0; i < inits.length; i++) {
      b.initContainer(Container.of("init" + i, "pause", inits[i]));
    }
    return b.build();
  }

  static PodInfo info(Pod pod) {
    return PodInfos.of(pod);
  }

  static PodInfo info(ResourceList... containers) {
    return PodInfos.of(pod(containers));
  }

  /**
   * Upstream's {@code st.MakePod().Obj()}: a pod without containers, whose non-zero scoring requests are 0 (kube
   * applies the 100m/200Mi defaults per container). FleetKit pods need a container, so the PodInfo says so directly.
   */
  static PodInfo containerless() {
    PodInfo p = PodInfos.of(pod());
    return new PodInfo() {
      @Override public Pod pod() { return p.pod(); }
      @Override public String key() { return p.key(); }
      @Override public ResourceList requests() { return ResourceList.EMPTY; }
      @Override public long nonZeroMilliCpu() { return 0; }
      @Override public long nonZeroMemory() { return 0; }
      @Override public int priority() { return 0; }
    };
  }

  static Node node(String name, ResourceList allocatable) {
    return Node.builder().name(name).capacity(allocatable).allocatable(allocatable).build();
  }

  /** Upstream test_util makeNode: cpu in milli, memory in bytes, extended resources in units. */
  static Node makeNode(String name, long milliCpu, long memory, String... extNameValue) {
    ResourceList.Builder b = ResourceList.builder().put("cpu", Quantity.ofMilli(milliCpu)).put("memory", Quantity.of(memory));
    for (int i = 0; i < extNameValue.length; i += 2) {
      b.put(extNameValue[i], Quantity.of(Long.parseLong(extNameValue[i + 1])));
    }
    return node(name, b.build());
  }

  static NodeInfo nodeInfo(Node node, PodInfo... pods) {
    return NodeInfos.of(node, List.of(pods));
  }

  static NodeInfo nodeInfo(Node node, List<PodInfo> pods) {
    return NodeInfos.of(node, pods);
  }

  /** Like upstream's cache.NewSnapshot: the pods bound to each node, in node order. */
  static List<NodeInfo> snapshot(List<Node> nodes, Map<String, List<PodInfo>> podsByNode) {
    List<NodeInfo> out = new ArrayList<>();
    for (Node n : nodes) {
      out.add(NodeInfos.of(n, podsByNode.getOrDefault(n.name(), List.of())));
    }
    return out;
  }
}
