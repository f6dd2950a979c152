package io.fleetkit.scheduler.plugins.interpodaffinity;

import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.in;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.labels;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.makePod;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.node;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.selector;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.term;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The compiled terms shared between pods ({@link PodTerms.RecentTerms}) equal the terms compiled for each pod afresh,
 * and {@link MatchIndex.Cache} found by identity answers as a fresh cache: over random owners (namespaces, labels,
 * weights) of term objects drawn from a pool larger than what is kept (some with {@code matchLabelKeys}, namespace
 * lists or namespace selectors), and over random sequences of lookups mixing shared terms, equal terms compiled
 * apart and other selectors and topology keys, while the nodes' pods change.
 */
final class RecentTermsPropertiesTest {
  private static final String HOST = InterPodAffinityPlugin.LABEL_HOSTNAME;
  private static final String ZONE = "topology.kubernetes.io/zone";
  private static final String[] COLORS = {"red", "blue", "green"};
  private static final String[] NAMESPACES = {"default", "a", "b"};

  @Property(tries = 200)
  void sharedTerms_equalFreshlyCompiledTerms(@ForAll long seed) {
    Random r = new Random(seed);
    List<PodAffinityTerm> pool = new ArrayList<>();
    for (int i = 0; i < PodTerms.RecentTerms.SIZE + 8; i++) {
      LabelSelector sel = selector(in("color", COLORS[r.nextInt(COLORS.length)]));
      // the first term can be shared (no matchLabelKeys): step 1 repeats step 0 with it, so sharing is always tried
      pool.add(i == 0 ? term(sel, r.nextBoolean() ? HOST : ZONE) : switch (r.nextInt(4)) {
        case 0 -> term(sel, r.nextBoolean() ? HOST : ZONE);
        case 1 -> Fixtures.term(sel, HOST, List.of(NAMESPACES[r.nextInt(NAMESPACES.length)]), null);
        case 2 -> Fixtures.term(sel, ZONE, List.of(), r.nextBoolean() ? LabelSelector.EVERYTHING
            : selector(in("team", "x")));
        default -> new PodAffinityTerm(sel, List.of(), HOST, null, List.of("app"), List.of("tier"));
      });
    }
    PodTerms.RecentTerms recent = new PodTerms.RecentTerms();
    List<AffinityTerm> returned = new ArrayList<>();
    int shared = 0;
    PodAffinityTerm source = pool.get(0);
    String namespace = NAMESPACES[0];
    int weight = 0;
    for (int step = 0; step < 120; step++) {
      if (step != 1) { // step 1: step 0's term, namespace and weight for another owner
        source = step == 0 ? pool.get(0) : pool.get(r.nextInt(r.nextBoolean() ? 4 : pool.size()));
        namespace = NAMESPACES[r.nextInt(NAMESPACES.length)];
        weight = r.nextInt(3) * 5;
      }
      Pod owner = makePod().name("p" + step).namespace(namespace)
          .label("app", "app" + r.nextInt(2)).label("tier", "t" + r.nextInt(2)).obj();
      AffinityTerm got = recent.compile(owner, source, weight, "requiredAntiAffinityTerms", 0, new ArrayList<>());
      AffinityTerm fresh = PodTerms.compileTerm(owner, source, weight, "requiredAntiAffinityTerms[0]",
          new ArrayList<>());
      assertThat(got).isNotNull();
      assertThat(got.matchKey).as("step %d", step).isEqualTo(fresh.matchKey);
      assertThat(got.topologyKey).isEqualTo(fresh.topologyKey);
      assertThat(got.weight).isEqualTo(fresh.weight);
      assertThat(got.hostScoped).isEqualTo(fresh.hostScoped);
      assertThat(got.usesNamespaceLabels).isEqualTo(fresh.usesNamespaceLabels);
      for (AffinityTerm earlier : returned) {
        if (earlier == got) {
          shared++;
          break;
        }
      }
      returned.add(got);
    }
    assertThat(shared).as("terms shared with an earlier owner").isGreaterThan(0);
  }

  @Property(tries = 100)
  void indexesFoundByIdentity_answerAsAFreshCache(@ForAll long seed,
      @ForAll @IntRange(min = 1, max = 40) int nodeCount) {
    Random r = new Random(seed);
    PodAffinityTerm red = term(selector(in("color", "red")), HOST);
    List<List<AffinityTerm>> choices = new ArrayList<>();
    List<AffinityTerm> redTerms = terms(red);
    choices.add(redTerms);
    choices.add(redTerms);
    choices.add(terms(term(selector(in("color", "red")), HOST))); // an equal term object: compiled apart
    choices.add(terms(term(selector(in("color", "blue")), HOST)));
    choices.add(terms(term(selector(in("color", "red", "green")), ZONE)));
    List<Node> nodes = new ArrayList<>();
    List<List<PodInfo>> pods = new ArrayList<>();
    List<NodeInfo> infos = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      Node n = node("n" + i, labels(HOST, "n" + i, ZONE, "z" + (i % 3)));
      nodes.add(n);
      pods.add(new ArrayList<>());
      infos.add(NodeInfos.of(n, List.of()));
    }
    NodeMemo memo = new NodeMemo();
    MatchIndex.Cache kept = new MatchIndex.Cache();
    int podSeq = 0;
    for (int step = 0; step < 40; step++) {
      memo.refresh(infos);
      List<AffinityTerm> terms = choices.get(r.nextInt(choices.size()));
      List<String> keys = r.nextBoolean() ? List.of(HOST) : new ArrayList<>(List.of(HOST, ZONE));
      boolean[] actual = kept.get(terms, keys, memo).matching();
      NodeMemo freshMemo = new NodeMemo();
      freshMemo.refresh(infos);
      boolean[] expected = new MatchIndex.Cache().get(terms, keys, freshMemo).matching();
      for (int i = 0; i < infos.size(); i++) {
        boolean a = i < actual.length && actual[i];
        boolean e = i < expected.length && expected[i];
        assertThat(a).as("step %d position %d", step, i).isEqualTo(e);
      }
      int changes = r.nextInt(4);
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
    }
  }

  private static List<AffinityTerm> terms(PodAffinityTerm t) {
    return PodTerms.of(makePod().name("incoming").namespace("default").label("color", "red")
        .requiredAntiAffinity(t).obj()).requiredAntiAffinity;
  }
}
