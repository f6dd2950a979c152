package io.fleetkit.scheduler.plugins.podtopologyspread;

import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.FOO;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.node;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.labels.Selector;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link SpreadConstraint#recount}, the count of a node's changed view from its earlier view's count and the pods
 * that differ, always equals a fresh {@link SpreadConstraint#countMatching} of the new view, whatever pods were added,
 * removed or replaced between the two, and however many edits lie between them.
 */
final class SpreadRecountPropertiesTest {
  private static final Selector SELECTOR = FOO.toSelector();

  /** One pod: matching ({@code foo}) or not, in the pod's namespace or another, terminating or not. */
  @Provide
  Arbitrary<Integer> kinds() {
    return Arbitraries.integers().between(0, 7);
  }

  private static PodInfo podOf(int kind, int seq) {
    SpreadFixtures.PodW p = pod("p" + seq);
    if ((kind & 1) != 0) {
      p.label("foo", "");
    }
    if ((kind & 2) != 0) {
      p.ns("other");
    }
    if ((kind & 4) != 0 && seq % 3 == 0) {
      p.terminating();
    }
    return PodInfos.of(p.obj());
  }

  @Property(tries = 300)
  void recount_afterAnyEdits_equalsFreshCount(@ForAll @Size(max = 12) List<@IntRange(max = 7) Integer> initial,
      @ForAll @Size(min = 1, max = 6) List<@IntRange(max = 2) Integer> edits,
      @ForAll @Size(min = 6, max = 6) List<@IntRange(max = 1000) Integer> picks,
      @ForAll @IntRange(max = 7) int addedKind) {
    Node n = node("n1").obj();
    int seq = 0;
    List<PodInfo> pods = new ArrayList<>();
    for (int kind : initial) {
      pods.add(podOf(kind, seq++));
    }
    NodeInfo before = NodeInfos.of(n, pods);
    int beforeCount = SpreadConstraint.countMatching(before.pods(), SELECTOR, "default");
    for (int e = 0; e < edits.size(); e++) {
      int pick = picks.get(e);
      switch (edits.get(e)) {
        case 0 -> pods.add(pods.isEmpty() ? 0 : pick % (pods.size() + 1), podOf(addedKind + e, seq++));
        case 1 -> {
          if (!pods.isEmpty()) {
            pods.remove(pick % pods.size());
          }
        }
        default -> {
          if (!pods.isEmpty()) {
            pods.set(pick % pods.size(), podOf(addedKind ^ e, seq++));
          }
        }
      }
    }
    NodeInfo after = NodeInfos.of(n, pods);
    assertThat(SpreadConstraint.recount(before, beforeCount, after, SELECTOR, "default"))
        .isEqualTo(SpreadConstraint.countMatching(after.pods(), SELECTOR, "default"));
  }

  @Property(tries = 100)
  void recount_ofAnotherNode_countsAfresh(@ForAll @Size(max = 8) List<@IntRange(max = 7) Integer> kinds) {
    List<PodInfo> pods = new ArrayList<>();
    for (int i = 0; i < kinds.size(); i++) {
      pods.add(podOf(kinds.get(i), i));
    }
    NodeInfo before = NodeInfos.of(node("n1").obj(), pods);
    NodeInfo other = NodeInfos.of(node("n2").obj(), pods);
    // a wrong earlier count is not carried over to a view of another node
    assertThat(SpreadConstraint.recount(before, 99, other, SELECTOR, "default"))
        .isEqualTo(SpreadConstraint.countMatching(pods, SELECTOR, "default"));
  }
}
