package io.fleetkit.scheduler.plugins.interpodaffinity;

import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.in;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.labels;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.makePod;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.node;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.selector;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.term;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.Status.Code;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** FleetKit-specific behaviour of {@link InterPodAffinityPlugin}: args, label keys, the hostname fast path, the memo. */
final class InterPodAffinityPluginTest {
  private static final String HOST = InterPodAffinityPlugin.LABEL_HOSTNAME;

  private static InterPodAffinityPlugin plugin(Snapshot s) {
    return new InterPodAffinityPlugin(InterPodAffinityArgs.DEFAULT, () -> s);
  }

  private static List<Status> filterAll(InterPodAffinityPlugin p, TestSnapshot s, Pod pod) {
    CycleState state = new TestCycleState();
    PodInfo pi = PodInfos.of(pod);
    Status pre = p.preFilter(state, pi, s).status();
    List<Status> out = new ArrayList<>();
    for (NodeInfo n : s.nodes()) {
      out.add(pre.isSkip() ? Status.success() : pre.isSuccess() ? p.filter(state, pi, n) : pre);
    }
    return out;
  }

  private static List<Code> codes(List<Status> statuses) {
    return statuses.stream().map(Status::code).toList();
  }

  @Test
  void filter_matchLabelKeys_mergesOwnLabelValueIntoSelector() {
    // Anti-affinity against pods of the same app *and the same revision* (matchLabelKeys: [rev]).
    PodAffinityTerm t = new PodAffinityTerm(selector(in("app", "web")), List.of(), "zone", null, List.of("rev"),
        List.of());
    Pod incoming = makePod().labels(labels("app", "web", "rev", "2")).requiredAntiAffinity(t).obj();
    TestSnapshot s = TestSnapshot.of(
        List.of(makePod().node("n1").labels(labels("app", "web", "rev", "1")).obj(),
            makePod().node("n2").labels(labels("app", "web", "rev", "2")).obj()),
        List.of(node("n1", labels("zone", "a")), node("n2", labels("zone", "b"))));
    assertThat(codes(filterAll(plugin(s), s, incoming)))
        .containsExactly(Code.SUCCESS, Code.UNSCHEDULABLE);
  }

  @Test
  void filter_mismatchLabelKeys_excludesPodsWithOwnLabelValue() {
    // Affinity to web pods of *another* tenant (mismatchLabelKeys: [tenant]).
    PodAffinityTerm t = new PodAffinityTerm(selector(in("app", "web")), List.of(), "zone", null, List.of(),
        List.of("tenant"));
    Pod incoming = makePod().labels(labels("app", "web", "tenant", "x")).requiredAffinity(t).obj();
    TestSnapshot s = TestSnapshot.of(
        List.of(makePod().node("n1").labels(labels("app", "web", "tenant", "x")).obj(),
            makePod().node("n2").labels(labels("app", "web", "tenant", "y")).obj()),
        List.of(node("n1", labels("zone", "a")), node("n2", labels("zone", "b"))));
    assertThat(codes(filterAll(plugin(s), s, incoming)))
        .containsExactly(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, Code.SUCCESS);
  }

  @Test
  void filter_existingPodHostnameAntiAffinity_rejectsOnlyItsNode() {
    Pod existing = makePod().node("n1").namespace("a").label("app", "db")
        .requiredAntiAffinity(term(selector(in("app", "web")), HOST, List.of("b"), null)).obj();
    TestSnapshot s = TestSnapshot.of(List.of(existing),
        List.of(node("n1", labels(HOST, "n1")), node("n2", labels(HOST, "n2"))));
    Pod incoming = makePod().namespace("b").label("app", "web").obj();
    List<Status> got = filterAll(plugin(s), s, incoming);
    assertThat(got.get(0).reasons()).containsExactly(InterPodAffinityPlugin.ERR_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);
    assertThat(got.get(1).isSuccess()).isTrue();
  }

  /**
   * The hostname fast path (terms keyed by kubernetes.io/hostname checked against the node's own pods) gives the
   * same Filter results as the topology-pair path, which is what the same cluster gets with the key renamed.
   */
  @Test
  void filter_hostnameFastPath_equalsTopologyPairPathOnRandomClusters() {
    Random rnd = new Random(42);
    String other = "example.com/host";
    for (int iter = 0; iter < 400; iter++) {
      int nodes = 2 + rnd.nextInt(5);
      List<Node> fast = new ArrayList<>();
      List<Node> slow = new ArrayList<>();
      for (int i = 0; i < nodes; i++) {
        Map<String, String> l = new HashMap<>();
        l.put("zone", "z" + rnd.nextInt(2));
        boolean hasHost = rnd.nextInt(8) != 0;
        Map<String, String> lf = new HashMap<>(l);
        Map<String, String> ls = new HashMap<>(l);
        if (hasHost) {
          lf.put(HOST, "h" + i);
          ls.put(other, "h" + i);
        }
        fast.add(node("n" + i, lf));
        slow.add(node("n" + i, ls));
      }
      List<Pod> podsFast = new ArrayList<>();
      List<Pod> podsSlow = new ArrayList<>();
      int pods = rnd.nextInt(6);
      for (int j = 0; j < pods; j++) {
        String nodeName = "n" + rnd.nextInt(nodes);
        long seed = rnd.nextLong();
        podsFast.add(randomPod(new Random(seed), nodeName, HOST));
        podsSlow.add(randomPod(new Random(seed), nodeName, other));
      }
      long seed = rnd.nextLong();
      Pod inFast = randomPod(new Random(seed), "", HOST);
      Pod inSlow = randomPod(new Random(seed), "", other);
      TestSnapshot sf = TestSnapshot.of(podsFast, fast);
      TestSnapshot ss = TestSnapshot.of(podsSlow, slow);
      List<Status> gotFast = filterAll(plugin(sf), sf, inFast);
      List<Status> gotSlow = filterAll(plugin(ss), ss, inSlow);
      assertThat(gotFast).as("iteration %d: %s on %s", iter, inFast, podsFast).isEqualTo(gotSlow);
    }
  }

  private static Pod randomPod(Random r, String nodeName, String hostKey) {
    Fixtures.MakePod b = makePod().node(nodeName);
    if (r.nextBoolean()) {
      b.label("app", r.nextBoolean() ? "web" : "db");
    }
    int terms = r.nextInt(3);
    for (int k = 0; k < terms; k++) {
      String key = r.nextBoolean() ? hostKey : "zone";
      PodAffinityTerm t = term(selector(in("app", r.nextBoolean() ? "web" : "db")), key);
      switch (r.nextInt(3)) {
        case 0 -> b.requiredAffinity(t);
        default -> b.requiredAntiAffinity(t);
      }
    }
    return b.obj();
  }

  @Test
  void preFilter_afterNodeChanges_seesNewExistingAntiAffinity() {
    Node n1 = node("n1", labels("zone", "a"));
    Node n2 = node("n2", labels("zone", "b"));
    Pod incoming = makePod().label("app", "web").obj();
    TestSnapshot[] current = {TestSnapshot.of(List.of(makePod().node("n2").label("x", "y")
        .requiredAntiAffinity(term(selector(in("app", "nothing")), "zone")).obj()), List.of(n1, n2))};
    InterPodAffinityPlugin p = new InterPodAffinityPlugin(InterPodAffinityArgs.DEFAULT, () -> current[0]);
    assertThat(codes(filterAll(p, current[0], incoming))).containsExactly(Code.SUCCESS, Code.SUCCESS);
    // The same plugin instance (and memo), a new snapshot where n1 gained an anti-affine pod.
    current[0] = TestSnapshot.of(List.of(
        makePod().node("n1").requiredAntiAffinity(term(selector(in("app", "web")), "zone")).obj(),
        makePod().node("n2").label("x", "y").requiredAntiAffinity(term(selector(in("app", "nothing")), "zone"))
            .obj()), List.of(n1, n2));
    assertThat(codes(filterAll(p, current[0], incoming))).containsExactly(Code.UNSCHEDULABLE, Code.SUCCESS);
  }

  @Test
  void preScore_afterNodeChanges_seesNewPreferredTermsOfExistingPods() {
    Node n1 = node("n1", labels("zone", "a"));
    Node n2 = node("n2", labels("zone", "b"));
    Pod incoming = makePod().label("app", "web").obj();
    Pod likesWeb = makePod().node("n2").preferredAffinity(Fixtures.weighted(10,
        term(selector(in("app", "web")), "zone"))).obj();
    TestSnapshot[] current = {TestSnapshot.of(List.of(), List.of(n1, n2))};
    InterPodAffinityPlugin p = new InterPodAffinityPlugin(InterPodAffinityArgs.DEFAULT, () -> current[0]);
    assertThat(p.preScore(new TestCycleState(), PodInfos.of(incoming), current[0].nodes()).isSkip()).isTrue();
    current[0] = TestSnapshot.of(List.of(likesWeb), List.of(n1, n2));
    CycleState state = new TestCycleState();
    assertThat(p.preScore(state, PodInfos.of(incoming), current[0].nodes()).isSuccess()).isTrue();
    assertThat(p.score(state, PodInfos.of(incoming), current[0].node("n2"))).isEqualTo(10);
    assertThat(p.score(state, PodInfos.of(incoming), current[0].node("n1"))).isZero();
  }

  @Test
  void addPod_whenPreFilterSkipped_succeedsWithoutState() {
    TestSnapshot s = TestSnapshot.of(List.of(), List.of(node("n1", Map.of())));
    InterPodAffinityPlugin p = plugin(s);
    CycleState state = new TestCycleState();
    PodInfo pod = PodInfos.of(makePod().obj());
    assertThat(p.preFilter(state, pod, s).status().isSkip()).isTrue();
    assertThat(p.addPod(state, pod, PodInfos.of(makePod().node("n1").obj()), s.node("n1")).isSuccess()).isTrue();
    assertThat(state.read(InterPodAffinityPlugin.PRE_FILTER_KEY)).isNull();
  }

  @Test
  void filter_afterPreFilter_doesNotAllocate() {
    List<Pod> pods = new ArrayList<>();
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      nodes.add(node("n" + i, labels(HOST, "n" + i, "zone", "z" + (i % 3))));
      if (i % 2 == 0) {
        pods.add(makePod().node("n" + i).namespace("a").label("color", "green")
            .requiredAntiAffinity(term(selector(in("color", "green")), HOST, List.of("a", "b"), null)).obj());
      }
    }
    TestSnapshot s = TestSnapshot.of(pods, nodes);
    Pod incoming = makePod().namespace("b").label("color", "green")
        .requiredAntiAffinity(term(selector(in("color", "green")), HOST, List.of("a", "b"), null))
        .requiredAntiAffinity(term(selector(in("color", "blue")), "zone"))
        .requiredAffinity(term(LabelSelector.EVERYTHING, "zone")).obj();
    InterPodAffinityPlugin p = plugin(s);
    CycleState state = new TestCycleState();
    PodInfo pi = PodInfos.of(incoming);
    assertThat(p.preFilter(state, pi, s).status().isSuccess()).isTrue();
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    int rejected = 0;
    for (int warm = 0; warm < 20_000; warm++) {
      rejected += p.filter(state, pi, s.nodes().get(warm % 50)).isSuccess() ? 0 : 1;
    }
    long before = mx.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < 10_000; i++) {
      rejected += p.filter(state, pi, s.nodes().get(i % 50)).isSuccess() ? 0 : 1;
    }
    long allocated = mx.getCurrentThreadAllocatedBytes() - before;
    assertThat(rejected).isEqualTo(15_000); // every even node holds a green pod: half the calls are rejected
    assertThat(allocated).as("bytes allocated by 10,000 Filter calls").isLessThan(1024);
  }

  @Test
  void args_fromMap_readsKnownKeysAndRejectsOthers() {
    Function<String, @Nullable Map<String, String>> lookup = ns -> Map.of("team", ns);
    InterPodAffinityArgs a = InterPodAffinityArgs.fromMap(Map.of("hardPodAffinityWeight", 7,
        "ignorePreferredTermsOfExistingPods", true, "namespaceLabels", lookup));
    assertThat(a.hardPodAffinityWeight()).isEqualTo(7);
    assertThat(a.ignorePreferredTermsOfExistingPods()).isTrue();
    assertThat(a.namespaceLabels().apply("x")).isEqualTo(Map.of("team", "x"));
    assertThat(InterPodAffinityArgs.fromMap(Map.of())).isEqualTo(InterPodAffinityArgs.DEFAULT);
    assertThatThrownBy(() -> InterPodAffinityArgs.fromMap(Map.of("hardPodAffinityWeight", 101)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hardPodAffinityWeight 101")
        .hasMessageContaining("0-100");
    assertThatThrownBy(() -> InterPodAffinityArgs.fromMap(Map.of("hardPodAffinityWeight", 1.5)))
        .hasMessageContaining("whole number");
    assertThatThrownBy(() -> InterPodAffinityArgs.fromMap(Map.of("hardPodAffinityWieght", 1)))
        .hasMessageContaining("hardPodAffinityWieght").hasMessageContaining("not an argument of InterPodAffinity");
  }

  @Test
  void factory_createsPluginWithProfileArgs() {
    TestSnapshot s = TestSnapshot.of(List.of(), List.of(node("n1", Map.of())));
    FrameworkHandle handle = new FrameworkHandle() {
      @Override public Clock clock() { return Clock.systemUTC(); }
      @Override public Snapshot snapshot() { return s; }
      @Override public WaitingPods waitingPods() { throw new UnsupportedOperationException(); }
      @Override public <T> List<T> list(Class<T> kind) { return List.of(); }
      @Override public Status runFilterPlugins(CycleState state, PodInfo pod, NodeInfo node) {
        throw new UnsupportedOperationException();
      }
      @Override public Status runPreFilterExtensionAddPod(CycleState st, PodInfo p, PodInfo o, NodeInfo n) {
        throw new UnsupportedOperationException();
      }
      @Override public Status runPreFilterExtensionRemovePod(CycleState st, PodInfo p, PodInfo o, NodeInfo n) {
        throw new UnsupportedOperationException();
      }
      @Override public Map<String, Object> pluginArgs(String pluginName) {
        return pluginName.equals(InterPodAffinityPlugin.NAME) ? Map.of("hardPodAffinityWeight", 3) : Map.of();
      }
    };
    InterPodAffinityPlugin p = (InterPodAffinityPlugin) InterPodAffinityPlugin.FACTORY.create(handle);
    assertThat(p.name()).isEqualTo("InterPodAffinity");
    assertThat(p.args().hardPodAffinityWeight()).isEqualTo(3);
  }
}
