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
 * {@link MatchIndex#matching()} kept across cycles answers as one built from scratch: over random streams of node
 * changes (pods added and removed, several nodes or none changed per cycle, sometimes more than the index tracks
 * one by one, nodes added), each position's answer equals a fresh index's, and an array handed out earlier is never
 * changed afterwards (a cycle may still be reading it).
 */
final class MatchIndexPropertiesTest {
  private static final String HOST = InterPodAffinityPlugin.LABEL_HOSTNAME;
  private static final String[] COLORS = {"red", "blue", "green"};

  @Property(tries = 150)
  void keptMatching_equalsFreshIndex_andHandedOutArraysStayUnchanged(@ForAll long seed,
      @ForAll @IntRange(min = 1, max = 60) int nodeCount) {
    Random r = new Random(seed);
    List<AffinityTerm> terms = PodTerms.of(makePod().name("incoming").namespace("default").label("color", "red")
        .requiredAntiAffinity(term(selector(in("color", COLORS[r.nextInt(COLORS.length)])), HOST)).obj())
        .requiredAntiAffinity;
    List<Node> nodes = new ArrayList<>();
    List<List<PodInfo>> pods = new ArrayList<>();
    List<NodeInfo> infos = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      addNode(nodes, pods, infos, i);
    }
    NodeMemo memo = new NodeMemo();
    MatchIndex.Cache kept = new MatchIndex.Cache();
    List<boolean[]> handedOut = new ArrayList<>();
    List<boolean[]> copies = new ArrayList<>();
    int podSeq = 0;
    int matched = 0;
    for (int step = 0; step < 40; step++) {
      memo.refresh(infos);
      boolean[] actual = kept.get(terms, List.of(HOST), memo).matching();
      NodeMemo freshMemo = new NodeMemo();
      freshMemo.refresh(infos);
      boolean[] expected = new MatchIndex.Cache().get(terms, List.of(HOST), freshMemo).matching();
      for (int i = 0; i < infos.size(); i++) {
        boolean a = i < actual.length && actual[i];
        boolean e = i < expected.length && expected[i];
        assertThat(a).as("step %d position %d", step, i).isEqualTo(e);
        matched += e ? 1 : 0;
      }
      handedOut.add(actual);
      copies.add(actual.clone());
      for (int h = 0; h < handedOut.size(); h++) {
        assertThat(handedOut.get(h)).as("array handed out at step %d", h).containsExactly(copies.get(h));
      }
      // the next cycle's changes: none, a few, or many (past what the index tracks one by one); sometimes a new node
      int changes = switch (r.nextInt(4)) {
        case 0 -> 0;
        case 1 -> 40 + r.nextInt(20);
        default -> 1 + r.nextInt(3);
      };
      List<NodeInfo> next = new ArrayList<>(infos);
      for (int c = 0; c < changes; c++) {
        int k = r.nextInt(nodes.size());
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
