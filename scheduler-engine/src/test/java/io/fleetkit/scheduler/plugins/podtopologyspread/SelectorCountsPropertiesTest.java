package io.fleetkit.scheduler.plugins.podtopologyspread;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The {@link SelectorCounts} kept across node changes (pods added, removed and replaced anywhere in a node's list, nodes
 * relabelled, added, removed and reordered) always gives what counting every node's pods afresh gives: per node and
 * per topology domain, for anchored selectors ({@code app=a}), unanchored ones ({@code app in (a,b)},
 * {@code tier}) and a selector tracked only late in the sequence.
 */
final class SelectorCountsPropertiesTest {
  private static final List<Selector> SELECTORS = List.of(Selector.parse("app=a"), Selector.parse("app=b,tier=web"),
      Selector.parse("app in (a,b)"), Selector.parse("tier"), Selector.parse("app!=a"));
  private static final Selector LATE = Selector.parse("app=b");

  private static PodInfo podOf(int kind, int seq) {
    SpreadFixtures.PodW p = pod("p" + seq);
    switch (kind % 4) {
      case 0 -> p.label("app", "a");
      case 1 -> p.label("app", "b");
      case 2 -> p.label("app", "c");
      default -> { }
    }
    if ((kind & 4) != 0) {
      p.label("tier", "web");
    }
    if ((kind & 8) != 0) {
      p.ns("other");
    }
    if (kind % 16 == 15) {
      p.terminating();
    }
    return PodInfos.of(p.obj());
  }

  private static Node nodeOf(String name, int zone) {
    SpreadFixtures.NodeW n = node(name).label("kubernetes.io/hostname", name);
    if (zone < 3) {
      n.label("zone", "z" + zone);
    }
    return n.obj();
  }

  @Property(tries = 200)
  void index_afterAnyChanges_equalsFreshCounts(
      @ForAll @Size(min = 1, max = 60) List<@IntRange(max = 5) Integer> actions,
      @ForAll @Size(min = 60, max = 60) List<@IntRange(max = 1000) Integer> picks) {
    Map<String, List<PodInfo>> pods = new LinkedHashMap<>();
    Map<String, Integer> zones = new LinkedHashMap<>();
    for (int i = 0; i < 4; i++) {
      pods.put("n" + i, new ArrayList<>());
      zones.put("n" + i, i % 4);
    }
    SelectorCounts index = new SelectorCounts();
    List<SelectorCounts.Tracked> tracked = new ArrayList<>();
    List<NodeInfo> list = views(pods, zones, List.of());
    index.sync(list, null);
    for (Selector s : SELECTORS) {
      tracked.add(index.track(s, "default"));
    }
    int seq = 0;
    for (int step = 0; step < actions.size(); step++) {
      int pick = picks.get(step);
      List<String> names = new ArrayList<>(pods.keySet());
      String target = names.get(pick % names.size());
      List<PodInfo> on = pods.get(target);
      switch (actions.get(step)) {
        case 0, 1 -> on.add(on.isEmpty() ? 0 : pick % (on.size() + 1), podOf(pick / 7, seq++));
        case 2 -> {
          if (!on.isEmpty()) {
            on.remove(pick % on.size());
          }
        }
        case 3 -> {
          if (!on.isEmpty()) {
            on.set(pick % on.size(), podOf(pick / 11, seq++));
          }
        }
        case 4 -> zones.put(target, pick % 4);
        default -> {
          if (pick % 2 == 0 && pods.size() > 1) {
            pods.remove(target);
            zones.remove(target);
          } else {
            pods.put("m" + seq, new ArrayList<>(List.of(podOf(pick, seq))));
            zones.put("m" + seq++, pick % 4);
          }
        }
      }
      list = views(pods, zones, list);
      if (pick % 3 == 0) {
        java.util.Collections.rotate(list = new ArrayList<>(list), 1); // the index follows nodes, not positions
      }
      index.sync(list, null);
      if (step == actions.size() / 2) {
        tracked.add(index.track(LATE, "default"));
      }
      List<Selector> all = new ArrayList<>(SELECTORS);
      if (tracked.size() > SELECTORS.size()) {
        all.add(LATE);
      }
      for (int t = 0; t < all.size(); t++) {
        Selector s = all.get(t);
        for (int n = 0; n < list.size(); n++) {
          assertThat(index.count(tracked.get(t), n)).as("%s on %s at step %s", s, list.get(n).name(), step)
              .isEqualTo(SpreadConstraint.countMatching(list.get(n).pods(), s, "default"));
        }
        assertThat(index.sums(tracked.get(t), new String[] {"zone"}, "zone").toCounts().asMap())
            .as("%s by zone at step %s", s, step).isEqualTo(fresh(list, s, true));
        SelectorCounts.DomainSums loose = index.sums(tracked.get(t), new String[0], "zone");
        Map<String, Integer> expected = fresh(list, s, false);
        for (Map.Entry<String, Integer> e : expected.entrySet()) {
          assertThat(loose.total(e.getKey())).as("%s in zone '%s' at step %s", s, e.getKey(), step)
              .isEqualTo(e.getValue());
        }
      }
    }
  }

  /**
   * Past the remembered maximum the least recently used selectors are dropped (their sums leave the shared domain
   * layouts); a dropped selector asked for again counts afresh, and the ones kept still follow node changes.
   */
  @Example
  void droppedSelectors_countAfreshWhenAskedAgain() {
    Map<String, List<PodInfo>> pods = new LinkedHashMap<>();
    Map<String, Integer> zones = new LinkedHashMap<>();
    pods.put("n0", new ArrayList<>(List.of(podOf(0, 0), podOf(1, 1))));
    zones.put("n0", 0);
    pods.put("n1", new ArrayList<>(List.of(podOf(0, 2))));
    zones.put("n1", 1);
    SelectorCounts index = new SelectorCounts();
    List<NodeInfo> list = views(pods, zones, List.of());
    index.sync(list, null);
    Selector first = Selector.parse("app=a,n!=0");
    index.sums(index.track(first, "default"), new String[] {"zone"}, "zone");
    for (int i = 1; i <= 1100; i++) {
      SelectorCounts.Tracked t = index.track(Selector.parse("app=a,n!=" + i), "default");
      index.sums(t, new String[] {"zone"}, "zone");
    }
    pods.get("n1").add(podOf(0, 3));
    list = views(pods, zones, list);
    index.sync(list, null);
    SelectorCounts.Tracked kept = index.track(Selector.parse("app=a,n!=1100"), "default");
    SelectorCounts.Tracked again = index.track(first, "default");
    for (SelectorCounts.Tracked t : List.of(kept, again)) { // no pod has the label n: both match the app=a pods
      assertThat(index.count(t, 0)).isEqualTo(1);
      assertThat(index.count(t, 1)).isEqualTo(2);
      assertThat(index.sums(t, new String[] {"zone"}, "zone").toCounts().asMap()).isEqualTo(Map.of("z0", 1, "z1", 2));
    }
  }

  /** The nodes as views; a node whose pods and zone did not change keeps its view from {@code before}. */
  private static List<NodeInfo> views(Map<String, List<PodInfo>> pods, Map<String, Integer> zones,
      List<NodeInfo> before) {
    List<NodeInfo> out = new ArrayList<>();
    for (Map.Entry<String, List<PodInfo>> e : pods.entrySet()) {
      NodeInfo old = before.stream().filter(v -> v.name().equals(e.getKey())).findFirst().orElse(null);
      Node n = nodeOf(e.getKey(), zones.get(e.getKey()));
      if (old != null && old.pods().equals(e.getValue()) && old.labels().equals(n.metadata().labels())) {
        out.add(old);
      } else {
        out.add(NodeInfos.of(n, e.getValue()));
      }
    }
    return out;
  }

  /** Matching pods per zone counted afresh: nodes without a zone skipped ({@code required}) or counted under "". */
  private static Map<String, Integer> fresh(List<NodeInfo> list, Selector s, boolean required) {
    Map<String, Integer> out = new TreeMap<>();
    for (NodeInfo n : list) {
      String zone = n.labels().get("zone");
      if (zone == null && required) {
        continue;
      }
      out.merge(zone == null ? "" : zone, SpreadConstraint.countMatching(n.pods(), s, "default"), Integer::sum);
    }
    return out;
  }
}
