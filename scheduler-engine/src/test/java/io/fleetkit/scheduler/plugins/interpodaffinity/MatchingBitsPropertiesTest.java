package io.fleetkit.scheduler.plugins.interpodaffinity;

import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.in;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.labels;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.makePod;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.node;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.selector;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.term;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link MatchIndex#matchingBits()} kept across cycles, one bit per node position (what Filter reads), against the
 * definition (the node holds a pod of the selected colour) and a fresh index's bits: over random streams of node
 * changes on up to 200 nodes (several words, flips on both sides of a word's edge, none or more changes than the
 * index tracks one by one, nodes added), every position answers the same, positions past the array's end hold none,
 * and arrays handed out earlier never change afterwards (a cycle may still be reading them).
 */
final class MatchingBitsPropertiesTest {
  private static final String HOST = InterPodAffinityPlugin.LABEL_HOSTNAME;
  private static final String[] COLORS = {"red", "blue", "green"};

  @Property(tries = 150)
  void keptBits_equalDefinitionAndFreshIndex_andStayUnchanged(@ForAll long seed,
      @ForAll @IntRange(min = 1, max = 200) int nodeCount) {
    Random r = new Random(seed);
    String selected = COLORS[r.nextInt(COLORS.length)];
    List<AffinityTerm> terms = PodTerms.of(makePod().name("incoming").namespace("default").label("color", "red")
        .requiredAntiAffinity(term(selector(in("color", selected)), HOST)).obj()).requiredAntiAffinity;
    List<Node> nodes = new ArrayList<>();
    List<List<PodInfo>> pods = new ArrayList<>();
    List<NodeInfo> infos = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      addNode(nodes, pods, infos, i);
    }
    NodeMemo memo = new NodeMemo();
    MatchIndex.Cache kept = new MatchIndex.Cache();
    List<long[]> handedOut = new ArrayList<>();
    List<long[]> copies = new ArrayList<>();
    int podSeq = 0;
    int matched = 0;
    for (int step = 0; step < 40; step++) {
      memo.refresh(infos);
      long[] actual = kept.get(terms, List.of(HOST), memo).matchingBits();
      NodeMemo freshMemo = new NodeMemo();
      freshMemo.refresh(infos);
      long[] fresh = new MatchIndex.Cache().get(terms, List.of(HOST), freshMemo).matchingBits();
      for (int i = 0; i < infos.size(); i++) {
        boolean defined = pods.get(i).stream()
            .anyMatch(p -> selected.equals(p.pod().metadata().labels().get("color")));
        assertThat(MatchIndex.matches(actual, i)).as("step %d position %d", step, i).isEqualTo(defined);
        assertThat(MatchIndex.matches(fresh, i)).as("fresh, step %d position %d", step, i).isEqualTo(defined);
        matched += defined ? 1 : 0;
      }
      assertThat(MatchIndex.matches(actual, actual.length * 64)).as("past the end").isFalse();
      handedOut.add(actual);
      copies.add(actual.clone());
      for (int h = 0; h < handedOut.size(); h++) {
        assertThat(handedOut.get(h)).as("bits handed out at step %d", h).containsExactly(copies.get(h));
      }
      int changes = switch (r.nextInt(4)) {
        case 0 -> 0;
        case 1 -> 40 + r.nextInt(20);
        default -> 1 + r.nextInt(3);
      };
      List<NodeInfo> next = new ArrayList<>(infos);
      for (int c = 0; c < changes; c++) {
        int k = r.nextInt(4) == 0 ? Math.min(nodes.size() - 1, 63 + r.nextInt(2)) : r.nextInt(nodes.size());
        List<PodInfo> onNode = pods.get(k);
        if (!onNode.isEmpty() && r.nextInt(3) == 0) {
          onNode.remove(r.nextInt(onNode.size()));
        } else {
          onNode.add(PodInfos.of(makePod().name("p" + podSeq++).namespace("default")
              .label("color", COLORS[r.nextInt(COLORS.length)]).obj()));
        }
        next.set(k, NodeInfos.of(nodes.get(k), List.copyOf(onNode)));
      }
      infos = next;
      if (r.nextInt(8) == 0) {
        addNode(nodes, pods, infos, nodes.size());
      }
    }
    assertThat(matched).as("positions holding a matching pod, over all steps").isGreaterThan(0);
  }

  private static void addNode(List<Node> nodes, List<List<PodInfo>> pods, List<NodeInfo> infos, int i) {
    Node node = node("n" + i, labels(HOST, "n" + i));
    nodes.add(node);
    pods.add(new ArrayList<>());
    infos.add(NodeInfos.of(node, List.of()));
  }
}
