package io.fleetkit.scheduler.plugins.interpodaffinity;

import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.in;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.labels;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.makePod;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.node;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.selector;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.term;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.weighted;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The cross-cycle indexes ({@link MatchIndex}, {@link ScoreIndex}, the {@link NodeMemo} change log): a plugin kept
 * across many snapshots, where only changed nodes get new views, decides exactly as a fresh plugin does.
 */
final class InterPodAffinityIncrementalTest {
  private static final String HOST = InterPodAffinityPlugin.LABEL_HOSTNAME;
  private static final String[] COLORS = {"red", "blue", "green"};
  private static final String[] KEYS = {HOST, "zone", "rack"};

  @Test
  void longLivedPlugin_randomPodStreams_decidesAsFreshPlugin() {
    for (long seed = 1; seed <= 25; seed++) {
      Random r = new Random(seed);
      List<Node> nodes = new ArrayList<>();
      List<List<PodInfo>> pods = new ArrayList<>();
      List<NodeInfo> infos = new ArrayList<>();
      int n = 4 + r.nextInt(6);
      for (int i = 0; i < n; i++) {
        Node node = r.nextInt(8) == 0 ? node("n" + i, labels("zone", "z" + (i % 3)))
            : node("n" + i, labels(HOST, "n" + i, "zone", "z" + (i % 3), "rack", "r" + (i % 2)));
        nodes.add(node);
        pods.add(new ArrayList<>());
        infos.add(NodeInfos.of(node, List.of()));
      }
      AtomicReference<List<NodeInfo>> current = new AtomicReference<>(infos);
      InterPodAffinityPlugin kept =
          new InterPodAffinityPlugin(InterPodAffinityArgs.DEFAULT, () -> TestSnapshot.ofInfos(current.get()));
      for (int step = 0; step < 40; step++) {
        Pod incoming = randomPod(r, "p" + step);
        TestSnapshot snap = TestSnapshot.ofInfos(current.get());
        assertThat(decide(kept, snap, incoming)).as("seed %d step %d", seed, step)
            .isEqualTo(decide(plugin(current.get()), snap, incoming));
        // Change one or two nodes: add the pod (or remove a pod) and replace only their views.
        List<NodeInfo> next = new ArrayList<>(current.get());
        for (int c = 0; c < 1 + r.nextInt(2); c++) {
          int k = r.nextInt(n);
          List<PodInfo> onNode = pods.get(k);
          if (!onNode.isEmpty() && r.nextInt(4) == 0) {
            onNode.remove(r.nextInt(onNode.size()));
          } else {
            onNode.add(PodInfos.of(randomPod(r, "e" + step + "-" + c)));
          }
          next.set(k, NodeInfos.of(nodes.get(k), List.copyOf(onNode)));
        }
        current.set(next);
      }
    }
  }

  private static InterPodAffinityPlugin plugin(List<NodeInfo> infos) {
    TestSnapshot s = TestSnapshot.ofInfos(infos);
    return new InterPodAffinityPlugin(InterPodAffinityArgs.DEFAULT, () -> s);
  }

  private static PodAffinityTerm randomTerm(Random r) {
    return term(selector(in("color", COLORS[r.nextInt(COLORS.length)])), KEYS[r.nextInt(KEYS.length)]);
  }

  private static Pod randomPod(Random r, String name) {
    Fixtures.MakePod p = makePod().name(name).namespace(r.nextInt(5) == 0 ? "other" : "default")
        .label("color", COLORS[r.nextInt(COLORS.length)]);
    switch (r.nextInt(6)) {
      case 0 -> p.requiredAffinity(randomTerm(r));
      case 1 -> p.requiredAntiAffinity(randomTerm(r));
      case 2 -> p.requiredAffinity(randomTerm(r), randomTerm(r)).requiredAntiAffinity(randomTerm(r));
      case 3 -> p.preferredAffinity(weighted(1 + r.nextInt(10), randomTerm(r)))
          .preferredAntiAffinity(weighted(1 + r.nextInt(10), randomTerm(r)));
      default -> {
        // no affinity
      }
    }
    return p.obj();
  }

  /** PreFilter and Filter on every node, then PreScore and Score on every node, as strings. */
  private static List<String> decide(InterPodAffinityPlugin p, TestSnapshot s, Pod pod) {
    List<String> out = new ArrayList<>();
    CycleState state = new TestCycleState();
    PodInfo pi = PodInfos.of(pod);
    Status pre = p.preFilter(state, pi, s).status();
    out.add("pre " + pre.code());
    for (NodeInfo n : s.nodes()) {
      out.add(pre.isSuccess() ? p.filter(state, pi, n).toString() : "-");
    }
    Status ps = p.preScore(state, pi, s.nodes());
    out.add("preScore " + ps.code());
    if (ps.isSuccess()) {
      long[] scores = new long[s.nodes().size()];
      for (int i = 0; i < scores.length; i++) {
        scores[i] = p.score(state, pi, s.nodes().get(i));
      }
      p.normalizeScores(state, pi, s.nodes(), scores);
      out.add(Arrays.toString(scores));
    }
    return out;
  }
}
