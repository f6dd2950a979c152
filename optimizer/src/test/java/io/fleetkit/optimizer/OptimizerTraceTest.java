package io.fleetkit.optimizer;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.lab.gpu.OpenbCsv;
import io.fleetkit.lab.gpu.ReplayResult;
import io.fleetkit.lab.gpu.TraceNode;
import io.fleetkit.lab.gpu.TracePod;
import io.fleetkit.lab.gpu.TraceReplay;
import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import io.fleetkit.traces.OpenbTraces;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The optimiser against the greedy trace replay on the openb multi-GPU traces (docs/optimizer.md). Off by default:
 * {@code -Dfleetkit.optimizer.trace=true}; {@code -Dfleetkit.optimizer.trace.fraction=4} keeps every 4th GPU node
 * (a quarter); {@code -Dfleetkit.optimizer.trace.seconds=30} is the optimiser's limit. The arrival set: the trace's
 * pods shuffled with the seed, taken in order until their GPU demand reaches 100% of the nodes' GPU capacity; the
 * greedy policies replay it one pod at a time in a seeded order ({@link TraceReplay}, inflate = its demand / capacity,
 * so no pod is added or removed), the optimiser gets it as one batch. Results are appended to
 * {@code target/optimizer-trace.txt}.
 */
@EnabledIfSystemProperty(named = "fleetkit.optimizer.trace", matches = "true")
final class OptimizerTraceTest {
  private static final long SEED = 42;

  @ParameterizedTest
  @ValueSource(strings = {"multigpu20", "multigpu50"})
  void optimiser_vsGreedyReplay_placesAtLeastAsMuchGpu(String trace) throws IOException {
    int fraction = Integer.getInteger("fleetkit.optimizer.trace.fraction", 4);
    int seconds = Integer.getInteger("fleetkit.optimizer.trace.seconds", 30);
    List<TraceNode> all = new ArrayList<>(nodes().stream()
        .filter(n -> n.gpus() > 0).sorted(Comparator.comparing(TraceNode::name)).toList());
    List<TraceNode> nodes = new ArrayList<>();
    for (int i = 0; i < all.size(); i += fraction) {
      nodes.add(all.get(i));
    }
    long capacity = nodes.stream().mapToLong(n -> 1000L * n.gpus()).sum();
    List<TracePod> pods = new ArrayList<>(pods(trace));
    pods.sort(Comparator.comparing(TracePod::name));
    Collections.shuffle(pods, new Random(SEED));
    List<TracePod> arrival = new ArrayList<>();
    long demand = 0;
    for (TracePod p : pods) {
      if (demand + p.totalGpuMilli() > capacity) {
        break;
      }
      arrival.add(p);
      demand += p.totalGpuMilli();
    }
    double inflate = (double) demand / capacity;
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%s: %d GPU nodes (1/%d), %d GPUs, %d pods arriving with %.2f%% of GPU"
        + " capacity%n", trace, nodes.size(), fraction, capacity / 1000, arrival.size(), 100.0 * inflate));
    double bestGreedy = 0;
    for (GpuPolicy policy : List.of(GpuPolicy.FGD, GpuPolicy.BEST_FIT)) {
      ReplayResult r = TraceReplay.run(nodes, arrival, policy, SEED, inflate);
      bestGreedy = Math.max(bestGreedy, r.finalAllocation());
      out.append(String.format(Locale.ROOT, "  %-8s allocation %.2f%%, placed %d/%d pods, %.1f ms%n",
          policy.displayName(), r.finalAllocation(), r.placed(), r.arrived(), r.nanos() / 1e6));
    }
    List<Node> apiNodes = nodes.stream().map(OptimizerTraceTest::node).toList();
    List<Pod> apiPods = new ArrayList<>();
    for (int i = 0; i < arrival.size(); i++) {
      apiPods.add(pod(arrival.get(i), i));
    }
    BatchPlan plan = BatchOptimizer.builder().seed(SEED).timeLimit(Duration.ofSeconds(seconds)).build()
        .plan(BatchProblem.of(apiNodes, apiPods));
    double optAlloc = 100.0 * plan.placedGpuMilli() / capacity;
    out.append(String.format(Locale.ROOT, "  %-8s allocation %.2f%% (construction alone %.2f%%), placed %d/%d pods,"
        + " %.1f s, score %s%n", "Optimizer", optAlloc, 100.0 * plan.constructionGpuMilli() / capacity,
        plan.placements().size(), apiPods.size(), plan.timeSpent().toMillis() / 1000.0, plan.score()));
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target/optimizer-trace.txt"), out, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    System.out.print(out);
    assertThat(optAlloc).isGreaterThanOrEqualTo(bestGreedy - 0.5);
  }

  private static Node node(TraceNode t) {
    Node.Builder b = Node.builder().name(t.name()).ready().allocatable(ResourceList.builder()
        .put("cpu", t.milliCpu() + "m").put("memory", t.memoryMiB() + "Mi").put("pods", "1000")
        .put(GpuRequests.WHOLE, String.valueOf(t.gpus())).build());
    for (int i = 0; i < t.gpus(); i++) {
      b.gpu(GpuDevice.of("GPU-" + i, t.model(), 0));
    }
    return b.build();
  }

  private static Pod pod(TracePod t, int i) {
    ResourceList.Builder r = ResourceList.builder().put("cpu", Math.max(t.milliCpu(), 100) + "m")
        .put("memory", t.memoryMiB() + "Mi");
    if (t.numGpu() > 0 && t.gpuMilli() == 1000) {
      r.put(GpuRequests.WHOLE, String.valueOf(t.numGpu()));
    } else if (t.numGpu() > 0 && t.gpuMilli() > 0) {
      r.put(GpuRequests.MILLI, String.valueOf(t.gpuMilli()));
    }
    ResourceList req = r.build();
    Pod.Builder b = Pod.builder().namespace("trace").name("p" + i + "-" + t.name().toLowerCase(Locale.ROOT)
        .replaceAll("[^a-z0-9-]", "-")).container("c", "img", req, req);
    if (!t.models().isEmpty()) {
      b.annotation(GpuRequests.MODELS_ANNOTATION, String.join("|", t.models()));
    }
    return b.build();
  }

  private static List<TraceNode> nodes() throws IOException {
    try (InputStream in = OpenbTraces.openNodes("gpu_node")) {
      return OpenbCsv.loadNodes(OpenbTraces.nodeFileName("gpu_node"), in);
    }
  }

  private static List<TracePod> pods(String trace) throws IOException {
    try (InputStream in = OpenbTraces.openPods(trace)) {
      return OpenbCsv.loadPods(OpenbTraces.podFileName(trace), in);
    }
  }
}
