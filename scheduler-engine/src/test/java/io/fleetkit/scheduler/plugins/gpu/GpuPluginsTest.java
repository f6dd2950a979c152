package io.fleetkit.scheduler.plugins.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.Binder;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

final class GpuPluginsTest {
  /** Records the pods the scheduler binds, annotations included. */
  static final class RecordingBinder implements Binder {
    final Map<String, Pod> bound = new HashMap<>();

    @Override
    public synchronized io.fleetkit.api.framework.Status bind(Pod pod, String nodeName) {
      bound.put(pod.metadata().key(), pod.withNodeName(nodeName));
      return io.fleetkit.api.framework.Status.success();
    }
  }

  static Node gpuNode(String name, String model, int gpus, int groups) {
    Node.Builder b = Node.builder().name(name).capacity(ResourceList.builder().put("cpu", Quantity.of(64))
        .put("memory", Quantity.ofBytes(256L << 30)).put("pods", Quantity.of(110)).build()).ready();
    for (int i = 0; i < gpus; i++) {
      b.gpu(new GpuDevice("gpu" + i, model, 16384, i * groups / gpus, "nvl" + (i * groups / gpus)));
    }
    return b.build();
  }

  static Pod gpuPod(String name, int whole, int milli, String models) {
    ResourceList.Builder r = ResourceList.builder().put("cpu", "100m");
    if (whole > 0) {
      r.put(GpuRequests.WHOLE, Quantity.of(whole));
    }
    if (milli > 0) {
      r.put(GpuRequests.MILLI, Quantity.of(milli));
    }
    Pod.Builder b = Pod.builder().name(name).container("c", "img", r.build());
    if (!models.isEmpty()) {
      b.annotation(GpuRequests.MODELS_ANNOTATION, models);
    }
    return b.build();
  }

  private static Scheduler scheduler(GpuPlugins gpu, Binder binder) {
    return Scheduler.builder().registry(gpu.registry(PluginRegistry.defaults())).profile(gpu.profile())
        .binder(gpu.binder(binder)).parallelism(1).seed(1).build();
  }

  @Test
  void schedule_wholeAndShared_devicesRecordedAndNeverShared() {
    GpuPlugins gpu = GpuPlugins.create(false);
    RecordingBinder binder = new RecordingBinder();
    try (Scheduler s = scheduler(gpu, binder)) {
      s.addNode(gpuNode("n1", "T4", 2, 1));
      s.addPod(gpuPod("whole", 1, 0, ""));
      s.addPod(gpuPod("share-a", 0, 600, ""));
      s.addPod(gpuPod("share-b", 0, 600, ""));
      List<ScheduleResult> r = s.runUntilIdle();
      assertThat(r).filteredOn(x -> x.nodeName() != null).hasSize(2);
      assertThat(GpuRequests.assignedIds(binder.bound.get("default/whole").metadata())).containsExactly("gpu0");
      assertThat(GpuRequests.assignedIds(binder.bound.get("default/share-a").metadata())).containsExactly("gpu1");
      assertThat(s.pending()).hasSize(1);
      assertThat(s.pending().get(0).message()).contains(GpuFilterPlugin.REASON_INSUFFICIENT);
    }
  }

  @Test
  void schedule_modelConstraint_onlyAcceptedModel() {
    GpuPlugins gpu = GpuPlugins.create(false);
    RecordingBinder binder = new RecordingBinder();
    try (Scheduler s = scheduler(gpu, binder)) {
      s.addNode(gpuNode("a", "T4", 4, 1));
      s.addNode(gpuNode("b", "V100M32", 4, 1));
      s.addPod(gpuPod("p", 0, 500, "V100M16|V100M32"));
      s.addPod(gpuPod("q", 1, 0, "A100"));
      s.runUntilIdle();
      assertThat(s.nodeOf("default/p")).contains("b");
      assertThat(s.nodeOf("default/q")).isEmpty();
      assertThat(s.pending().get(0).message()).contains(GpuFilterPlugin.REASON_MODEL);
    }
  }

  @Test
  void schedule_multiGpu_prefersOneInterconnectGroup() {
    GpuPlugins gpu = GpuPlugins.create(true);
    RecordingBinder binder = new RecordingBinder();
    try (Scheduler s = scheduler(gpu, binder)) {
      s.addNode(gpuNode("n", "A100", 8, 2)); // groups nvl0 = gpu0..3, nvl1 = gpu4..7
      s.addPod(gpuPod("one", 1, 0, ""));
      s.runUntilIdle();
      s.addPod(gpuPod("four", 4, 0, ""));
      s.runUntilIdle();
      assertThat(GpuRequests.assignedIds(binder.bound.get("default/four").metadata()))
          .containsExactly("gpu4", "gpu5", "gpu6", "gpu7");
      s.addPod(gpuPod("four-b", 4, 0, ""));
      s.runUntilIdle();
      // 3 free devices remain, in one group: the required topology rejects a 4-GPU pod even with 3 free
      assertThat(s.nodeOf("default/four-b")).isEmpty();
    }
  }

  @Test
  void ledger_podRemoved_devicesFreed() {
    GpuPlugins gpu = GpuPlugins.create(false);
    RecordingBinder binder = new RecordingBinder();
    try (Scheduler s = scheduler(gpu, binder)) {
      s.addNode(gpuNode("n", "T4", 1, 1));
      s.addPod(gpuPod("a", 1, 0, ""));
      s.addPod(gpuPod("b", 1, 0, ""));
      s.runUntilIdle();
      assertThat(s.nodeOf("default/b")).isEmpty();
      s.removePod("default/a");
      s.removePod("default/b");
      s.addPod(gpuPod("c", 1, 0, ""));
      s.runUntilIdle();
      assertThat(s.nodeOf("default/c")).contains("n");
    }
  }

  @Test
  void ledger_restartFromRecordedIds_sameDevicesHeld() {
    GpuPlugins gpu = GpuPlugins.create(false);
    RecordingBinder binder = new RecordingBinder();
    Node n = gpuNode("n", "T4", 2, 1);
    try (Scheduler s = scheduler(gpu, binder)) {
      s.addNode(n);
      s.addPod(gpuPod("a", 0, 700, ""));
      s.runUntilIdle();
    }
    Pod a = binder.bound.get("default/a");
    // a fresh engine learns gpu0 holds 700 from the recorded ids alone
    GpuPlugins gpu2 = GpuPlugins.create(false);
    RecordingBinder binder2 = new RecordingBinder();
    try (Scheduler s = scheduler(gpu2, binder2)) {
      s.addNode(n);
      s.addPod(a);
      s.addPod(gpuPod("b", 0, 300, ""));
      s.addPod(gpuPod("c", 0, 500, ""));
      s.runUntilIdle();
      assertThat(GpuRequests.assignedIds(binder2.bound.get("default/b").metadata())).containsExactly("gpu0");
      assertThat(GpuRequests.assignedIds(binder2.bound.get("default/c").metadata())).containsExactly("gpu1");
    }
  }

  @Test
  void schedule_nonGpuPod_gpuPluginsSkip() {
    GpuPlugins gpu = GpuPlugins.create(true);
    RecordingBinder binder = new RecordingBinder();
    try (Scheduler s = scheduler(gpu, binder)) {
      s.addNode(gpuNode("n", "T4", 1, 1));
      s.addPod(Pod.builder().name("web").container("c", "img", ResourceList.ofCpuMemory(100, 1 << 20)).build());
      s.runUntilIdle();
      assertThat(s.nodeOf("default/web")).contains("n");
      assertThat(binder.bound.get("default/web").metadata().annotations()).doesNotContainKey(GpuRequests.IDS_ANNOTATION);
    }
  }

  record Scenario(List<int[]> nodes, List<int[]> pods) {}

  @Provide
  Arbitrary<Scenario> scenarios() {
    Arbitrary<int[]> node = Combinators.combine(Arbitraries.integers().between(1, 8),
        Arbitraries.integers().between(1, 2), Arbitraries.integers().between(0, 1))
        .as((g, grp, model) -> new int[] {g, grp, model});
    Arbitrary<int[]> pod = Combinators.combine(Arbitraries.of(0, 0, 0, 1, 1, 2, 4, 8),
        Arbitraries.integers().between(1, 999), Arbitraries.integers().between(0, 2))
        .as((w, m, model) -> new int[] {w, m, model});
    return Combinators.combine(node.list().ofMinSize(1).ofMaxSize(6), pod.list().ofMinSize(1).ofMaxSize(60))
        .as(Scenario::new);
  }

  @Property(tries = 60)
  void schedule_randomPodsAndNodes_noDeviceOvercommitted(@ForAll("scenarios") Scenario sc) {
    String[] models = {"T4", "V100M32"};
    String[] accepted = {"", "T4", "V100M16|V100M32"};
    GpuPlugins gpu = GpuPlugins.create(false);
    RecordingBinder binder = new RecordingBinder();
    Map<String, Node> nodes = new HashMap<>();
    try (Scheduler s = scheduler(gpu, binder)) {
      for (int i = 0; i < sc.nodes().size(); i++) {
        int[] n = sc.nodes().get(i);
        Node node = gpuNode("n" + i, models[n[2]], n[0], n[1]);
        nodes.put(node.metadata().name(), node);
        s.addNode(node);
      }
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < sc.pods().size(); i++) {
        int[] p = sc.pods().get(i);
        s.addPod(gpuPod("p" + i, p[0], p[0] == 0 ? p[1] : 0, accepted[p[2]]));
        keys.add("default/p" + i);
        if (i % 9 == 8) {
          s.removePod(keys.get(i / 2));
          binder.bound.remove(keys.get(i / 2));
        }
        s.runUntilIdle();
      }
    }
    Map<String, Integer> used = new HashMap<>();
    for (Pod p : binder.bound.values()) {
      List<String> ids = GpuRequests.assignedIds(p.metadata());
      long whole = GpuRequests.whole(p.effectiveRequests());
      long milli = GpuRequests.milli(p.effectiveRequests());
      assertThat(ids).hasSize(whole > 0 ? (int) whole : 1);
      List<String> accept = GpuRequests.acceptedModels(p.metadata());
      Node n = nodes.get(p.spec().nodeName());
      for (String id : ids) {
        GpuDevice d = n.status().gpus().stream().filter(g -> g.id().equals(id)).findFirst().orElseThrow();
        assertThat(accept.isEmpty() || accept.contains(d.model())).isTrue();
        int add = whole > 0 ? 1000 : (int) milli;
        String k = n.metadata().name() + "/" + id;
        int before = used.getOrDefault(k, 0);
        if (whole > 0) {
          assertThat(before).as("whole device %s already used", k).isZero();
        }
        used.put(k, before + add);
        assertThat(used.get(k)).as("device %s", k).isLessThanOrEqualTo(1000);
      }
    }
  }
}
