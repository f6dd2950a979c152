package io.fleetkit.scheduler.plugins.interpodaffinity;

import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.doesNotExist;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.exists;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.in;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.labels;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.makePod;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.node;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.notIn;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.selector;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.term;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.Status.Code;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes/kubernetes pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go (case data;
 * names are upstream's). Namespaces that are not DNS labels upstream are renamed as {@link Fixtures} explains.
 */
final class InterPodAffinityFilteringTest {
  /** Upstream's {@code namespaces} fixture (scoring_test.go), with DNS-label names. Others do not exist. */
  static final Map<String, Map<String, String>> NAMESPACES = Map.of(
      "subteam1-team1", Map.of("team", "team1"),
      "subteam2-team1", Map.of("team", "team1"),
      "subteam1-team2", Map.of("team", "team2"),
      "subteam2-team2", Map.of("team", "team2"));

  static InterPodAffinityPlugin plugin(TestSnapshot snapshot) {
    return new InterPodAffinityPlugin(InterPodAffinityArgs.DEFAULT.withNamespaceLabels(NAMESPACES::get),
        () -> snapshot);
  }

  private static final Status OK = Status.success();
  private static final Status AFFINITY = Status.unresolvable(InterPodAffinityPlugin.ERR_AFFINITY_RULES_NOT_MATCH);
  private static final Status ANTI = Status.unschedulable(InterPodAffinityPlugin.ERR_ANTI_AFFINITY_RULES_NOT_MATCH);
  private static final Status EXISTING =
      Status.unschedulable(InterPodAffinityPlugin.ERR_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);
  private static final Status SKIP = Status.skip();

  private static final String DEFAULT_NS = "";
  private static final Map<String, String> POD_LABEL = labels("service", "securityscan");
  private static final Map<String, String> POD_LABEL2 = labels("security", "S1");

  private static Pod createPodWithAffinityTerms(String namespace, Map<String, String> labels,
      List<io.fleetkit.api.scheduling.PodAffinityTerm> affinity,
      List<io.fleetkit.api.scheduling.PodAffinityTerm> antiAffinity) {
    return makePod().namespace(namespace).labels(labels)
        .requiredAffinity(affinity.toArray(io.fleetkit.api.scheduling.PodAffinityTerm[]::new))
        .requiredAntiAffinity(antiAffinity.toArray(io.fleetkit.api.scheduling.PodAffinityTerm[]::new)).obj();
  }

  private static List<String> vals(String... v) {
    return Arrays.asList(v);
  }

  // ---- TestRequiredAffinitySingleNode ----

  record SingleNodeCase(String name, Pod pod, List<Pod> pods, @Nullable Status wantPreFilter,
      @Nullable Status wantFilter) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<SingleNodeCase> requiredAffinitySingleNode() {
    Pod pod = makePod().labels(POD_LABEL).node("node1").obj();
    LabelSelector team1 = selector(in("team", "team1"));
    LabelSelector securityscan = selector(in("service", "securityscan", "value2"));
    return Stream.of(
        new SingleNodeCase("A pod that has no required pod affinity scheduling rules can schedule onto a node with "
            + "no existing pods", makePod().obj(), List.of(), SKIP, null),
        new SingleNodeCase("satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In "
            + "operator that matches the existing pod",
            makePod().namespace(DEFAULT_NS).labels(POD_LABEL2)
                .podAffinityIn("service", "region", vals("securityscan", "value2")).obj(),
            List.of(pod), null, OK),
        new SingleNodeCase("satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity "
            + "using not in operator in labelSelector that matches the existing pod",
            makePod().namespace(DEFAULT_NS).labels(POD_LABEL2)
                .podAffinityNotIn("service", "region", vals("securityscan3", "value3")).obj(),
            List.of(pod), null, OK),
        new SingleNodeCase("Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
            createPodWithAffinityTerms(DEFAULT_NS, POD_LABEL2,
                List.of(term(securityscan, "", List.of("diffnamespace"), null)), List.of()),
            List.of(makePod().namespace("ns").label("service", "securityscan").node("node1").obj()), null,
            AFFINITY),
        new SingleNodeCase("Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing "
            + "pod",
            makePod().namespace(DEFAULT_NS).labels(POD_LABEL)
                .podAffinityIn("service", "", vals("antivirusscan", "value2")).obj(),
            List.of(pod), null, AFFINITY),
        new SingleNodeCase("satisfies the PodAffinity with different label Operators in multiple "
            + "RequiredDuringSchedulingIgnoredDuringExecution ",
            createPodWithAffinityTerms(DEFAULT_NS, POD_LABEL2, List.of(
                term(selector(exists("service"), doesNotExist("wrongkey")), "region"),
                term(selector(in("service", "securityscan"), notIn("service", "WrongValue")), "region")),
                List.of()),
            List.of(pod), null, OK),
        new SingleNodeCase("The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot "
            + "schedule onto the node because one of the matchExpression item don't match.",
            createPodWithAffinityTerms(DEFAULT_NS, POD_LABEL2, List.of(
                term(selector(exists("service"), doesNotExist("wrongkey")), "region"),
                term(selector(in("service", "securityscan2"), notIn("service", "WrongValue")), "region")),
                List.of()),
            List.of(pod), null, AFFINITY),
        new SingleNodeCase("satisfies the PodAffinity and PodAntiAffinity with the existing pod",
            makePod().namespace(DEFAULT_NS).labels(POD_LABEL2)
                .podAffinityIn("service", "region", vals("securityscan", "value2"))
                .podAntiAffinityIn("service", "node", vals("antivirusscan", "value2")).obj(),
            List.of(pod), null, OK),
        new SingleNodeCase("satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the "
            + "existing pod",
            makePod().namespace(DEFAULT_NS).labels(POD_LABEL2)
                .podAffinityIn("service", "region", vals("securityscan", "value2"))
                .podAntiAffinityIn("service", "node", vals("antivirusscan", "value2")).obj(),
            List.of(makePod().namespace(DEFAULT_NS).node("node1").labels(POD_LABEL)
                .podAntiAffinityIn("service", "node", vals("antivirusscan", "value2")).obj()),
            null, OK),
        new SingleNodeCase("satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
            makePod().namespace(DEFAULT_NS).labels(POD_LABEL2)
                .podAffinityIn("service", "region", vals("securityscan", "value2"))
                .podAntiAffinityIn("service", "zone", vals("securityscan", "value2")).obj(),
            List.of(pod), null, ANTI),
        new SingleNodeCase("satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity "
            + "symmetry with the existing pod",
            makePod().namespace(DEFAULT_NS).labels(POD_LABEL)
                .podAffinityIn("service", "region", vals("securityscan", "value2"))
                .podAntiAffinityIn("service", "node", vals("antivirusscan", "value2")).obj(),
            List.of(makePod().namespace(DEFAULT_NS).labels(POD_LABEL).node("node1")
                .podAntiAffinityIn("service", "zone", vals("securityscan", "value2")).obj()),
            null, EXISTING),
        new SingleNodeCase("pod matches its own Label in PodAffinity and that matches the existing pod Labels",
            makePod().namespace(DEFAULT_NS).labels(POD_LABEL)
                .podAffinityNotIn("service", "region", vals("securityscan", "value2")).obj(),
            List.of(makePod().label("service", "securityscan").node("node2").obj()), null, AFFINITY),
        new SingleNodeCase("verify that PodAntiAffinity from existing pod is respected when pod has no "
            + "AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
            makePod().labels(POD_LABEL).obj(),
            List.of(makePod().namespace(DEFAULT_NS).node("node1").labels(POD_LABEL)
                .podAntiAffinityIn("service", "zone", vals("securityscan", "value2")).obj()),
            null, EXISTING),
        new SingleNodeCase("verify that PodAntiAffinity from existing pod is respected when pod has no "
            + "AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod",
            makePod().labels(POD_LABEL).obj(),
            List.of(makePod().namespace(DEFAULT_NS).node("node1").labels(POD_LABEL)
                .podAntiAffinityNotIn("service", "zone", vals("securityscan", "value2")).obj()),
            SKIP, null),
        new SingleNodeCase("satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity "
            + "symmetry with incoming pod",
            makePod().namespace(DEFAULT_NS).labels(POD_LABEL)
                .podAntiAffinityExists("service", "region").podAntiAffinityExists("security", "region").obj(),
            List.of(makePod().namespace(DEFAULT_NS).node("node1").labels(POD_LABEL2)
                .podAntiAffinityExists("security", "zone").obj()),
            null, ANTI),
        new SingleNodeCase("PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each "
            + "other on AffinityTerms",
            makePod().namespace(DEFAULT_NS).labels(POD_LABEL)
                .podAntiAffinityExists("service", "zone").podAntiAffinityExists("security", "zone").obj(),
            List.of(makePod().namespace(DEFAULT_NS).node("node1").labels(POD_LABEL2)
                .podAntiAffinityExists("security", "zone").obj()),
            null, ANTI),
        new SingleNodeCase("PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each "
            + "other on AffinityTerms",
            makePod().namespace(DEFAULT_NS).labels(POD_LABEL2).podAntiAffinityExists("security", "zone").obj(),
            List.of(makePod().namespace(DEFAULT_NS).node("node1").labels(POD_LABEL)
                .podAntiAffinityExists("service", "zone").podAntiAffinityExists("security", "zone").obj()),
            null, EXISTING),
        new SingleNodeCase("PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each "
            + "other on AffinityTerms",
            makePod().namespace(DEFAULT_NS).labels(labels("abc", "", "xyz", ""))
                .podAntiAffinityExists("abc", "zone").podAntiAffinityExists("def", "zone").obj(),
            List.of(makePod().namespace(DEFAULT_NS).node("node1").labels(labels("def", "", "xyz", ""))
                .podAntiAffinityExists("abc", "zone").podAntiAffinityExists("def", "zone").obj()),
            null, ANTI),
        new SingleNodeCase("PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each "
            + "other on AffinityTerms",
            makePod().namespace(DEFAULT_NS).labels(labels("def", "", "xyz", ""))
                .podAntiAffinityExists("abc", "zone").podAntiAffinityExists("def", "zone").obj(),
            List.of(makePod().namespace(DEFAULT_NS).node("node1").labels(labels("abc", "", "xyz", ""))
                .podAntiAffinityExists("abc", "zone").podAntiAffinityExists("def", "zone").obj()),
            null, ANTI),
        new SingleNodeCase("PodAffinity fails PreFilter with an invalid affinity label syntax",
            makePod().namespace(DEFAULT_NS).labels(POD_LABEL)
                .podAffinityIn("service", "region", vals("{{.bad-value.}}"))
                .podAffinityIn("service", "node", vals("antivirusscan", "value2")).obj(),
            List.of(), Status.unresolvable("parsing pod: "), null),
        new SingleNodeCase("PodAntiAffinity fails PreFilter with an invalid antiaffinity label syntax",
            makePod().namespace(DEFAULT_NS).labels(POD_LABEL)
                .podAffinityIn("service", "region", vals("foo"))
                .podAffinityIn("service", "node", vals("{{.bad-value.}}")).obj(),
            List.of(), Status.unresolvable("parsing pod: "), null),
        new SingleNodeCase("affinity with NamespaceSelector",
            createPodWithAffinityTerms(DEFAULT_NS, POD_LABEL2,
                List.of(term(securityscan, "region", List.of(), team1)), List.of()),
            List.of(makePod().node("node1").namespace("subteam1-team1").labels(POD_LABEL).obj()), null, OK),
        new SingleNodeCase("affinity with non-matching NamespaceSelector",
            createPodWithAffinityTerms(DEFAULT_NS, POD_LABEL2,
                List.of(term(securityscan, "region", List.of(), team1)), List.of()),
            List.of(makePod().node("node1").namespace("subteam1-team2").labels(POD_LABEL).obj()), null, AFFINITY),
        new SingleNodeCase("anti-affinity with matching NamespaceSelector",
            createPodWithAffinityTerms("subteam1-team1", POD_LABEL2, List.of(),
                List.of(term(securityscan, "zone", List.of(), team1))),
            List.of(makePod().node("node1").namespace("subteam2-team1").labels(POD_LABEL).obj()), null, ANTI),
        new SingleNodeCase("anti-affinity with matching all NamespaceSelector",
            createPodWithAffinityTerms("subteam1-team1", POD_LABEL2, List.of(),
                List.of(term(securityscan, "zone", List.of(), LabelSelector.EVERYTHING))),
            List.of(makePod().node("node1").namespace("subteam2-team1").labels(POD_LABEL).obj()), null, ANTI),
        new SingleNodeCase("anti-affinity with non-matching NamespaceSelector",
            createPodWithAffinityTerms("subteam1-team1", POD_LABEL2, List.of(),
                List.of(term(securityscan, "zone", List.of(), team1))),
            List.of(makePod().node("node1").namespace("subteam1-team2").labels(POD_LABEL).obj()), null, OK));
  }

  /** filtering_test.go TestRequiredAffinitySingleNode: 26 cases. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("requiredAffinitySingleNode")
  void filter_requiredAffinitySingleNode_matchesUpstream(SingleNodeCase c) {
    Node node1 = node("node1", labels("region", "r1", "zone", "z11"));
    TestSnapshot snapshot = TestSnapshot.of(c.pods(), List.of(node1));
    InterPodAffinityPlugin p = plugin(snapshot);
    CycleState state = new TestCycleState();
    var podInfo = PodInfos.of(c.pod());
    PreFilterResult pre = p.preFilter(state, podInfo, snapshot);
    Status wantPre = c.wantPreFilter() == null ? OK : c.wantPreFilter();
    assertThat(pre.status().code()).isEqualTo(wantPre.code());
    assertThat(pre.status().message()).startsWith(wantPre.message());
    if (!pre.status().isSuccess()) {
      if (pre.status().isRejected()) {
        assertThat(pre.status().message()).contains("{{.bad-value.}}");
      }
      return;
    }
    assertStatus(p.filter(state, podInfo, snapshot.node("node1")), c.wantFilter());
  }

  private static void assertStatus(Status got, @Nullable Status want) {
    Status w = want == null ? OK : want;
    assertThat(got.code()).isEqualTo(w.code());
    assertThat(got.reasons()).isEqualTo(w.reasons());
  }

  // ---- TestRequiredAffinityMultipleNodes ----

  record MultiNodeCase(String name, Pod pod, List<Pod> pods, List<Node> nodes, List<Status> wantFilter,
      @Nullable Status wantPreFilter) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<MultiNodeCase> requiredAffinityMultipleNodes() {
    Map<String, String> podLabelA = labels("foo", "bar");
    Map<String, String> rgChina = labels("region", "China");
    Map<String, String> rgChinaAzAz1 = labels("region", "China", "az", "az1");
    Map<String, String> rgIndia = labels("region", "India");
    List<Node> abRegionZ1 = List.of(
        node("nodeA", labels("region", "r1", "zone", "z1", "hostname", "nodeA")),
        node("nodeB", labels("region", "r1", "zone", "z1", "hostname", "nodeB")));
    List<Node> abZ1Z2 = List.of(
        node("nodeA", labels("region", "r1", "zone", "z1", "hostname", "nodeA")),
        node("nodeB", labels("region", "r1", "zone", "z2", "hostname", "nodeB")));
    List<Node> chinaIndia = List.of(node("nodeA", rgChina), node("nodeB", rgChinaAzAz1), node("nodeC", rgIndia));
    return Stream.of(
        new MultiNodeCase("A pod can be scheduled onto all the nodes that have the same topology key & label value "
            + "with one of them has an existing pod that matches the affinity rules",
            makePod().namespace(DEFAULT_NS).podAffinityIn("foo", "region", vals("bar")).obj(),
            List.of(makePod().name("p1").node("node1").labels(podLabelA).obj()),
            List.of(node("node1", rgChina), node("node2", rgChinaAzAz1), node("node3", rgIndia)),
            List.of(OK, OK, AFFINITY), null),
        new MultiNodeCase("The affinity rule is to schedule all of the pods of this collection to the same zone. The "
            + "first pod of the collection should not be blocked from being scheduled onto any node, even there's no "
            + "existing pod that matches the rule anywhere.",
            makePod().namespace(DEFAULT_NS).labels(labels("foo", "bar", "service", "securityscan"))
                .podAffinityIn("foo", "zone", vals("bar")).podAffinityIn("service", "zone", vals("securityscan"))
                .obj(),
            List.of(makePod().name("p1").node("nodeA").labels(labels("foo", "bar")).obj()),
            List.of(node("nodeA", labels("zone", "az1", "hostname", "h1")),
                node("nodeB", labels("zone", "az2", "hostname", "h2"))),
            List.of(OK, OK), null),
        new MultiNodeCase("The first pod of the collection can only be scheduled on nodes labelled with the "
            + "requested topology keys",
            makePod().namespace(DEFAULT_NS).labels(labels("foo", "bar", "service", "securityscan"))
                .podAffinityIn("foo", "zone", vals("bar")).podAffinityIn("service", "zone", vals("securityscan"))
                .obj(),
            List.of(makePod().name("p1").node("nodeA").labels(labels("foo", "bar")).obj()),
            List.of(node("nodeA", labels("zoneLabel", "az1", "hostname", "h1")),
                node("nodeB", labels("zoneLabel", "az2", "hostname", "h2"))),
            List.of(AFFINITY, AFFINITY), null),
        new MultiNodeCase("NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that "
            + "matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
            makePod().namespace(DEFAULT_NS).podAntiAffinityIn("foo", "region", vals("abc")).obj(),
            List.of(makePod().node("nodeA").labels(labels("foo", "abc")).obj()),
            List.of(node("nodeA", labels("region", "r1", "hostname", "nodeA")),
                node("nodeB", labels("region", "r1", "hostname", "nodeB"))),
            List.of(ANTI, ANTI), null),
        new MultiNodeCase("This test ensures that anti-affinity matches a pod when any term of the anti-affinity "
            + "rule matches a pod.",
            makePod().namespace(DEFAULT_NS).podAntiAffinityIn("foo", "region", vals("abc"))
                .podAntiAffinityIn("service", "zone", vals("securityscan")).obj(),
            List.of(makePod().node("nodeA").labels(labels("foo", "abc", "service", "securityscan")).obj()),
            List.of(node("nodeA", labels("region", "r1", "zone", "z1", "hostname", "nodeA")),
                node("nodeB", labels("region", "r1", "zone", "z2", "hostname", "nodeB"))),
            List.of(ANTI, ANTI), null),
        new MultiNodeCase("NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that "
            + "matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be "
            + "scheduled onto nodeC",
            makePod().namespace(DEFAULT_NS).podAntiAffinityIn("foo", "region", vals("abc")).obj(),
            List.of(makePod().node("nodeA").labels(labels("foo", "abc")).obj()),
            chinaIndia, List.of(ANTI, ANTI, OK), null),
        new MultiNodeCase("NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that "
            + "matches the inter pod affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be "
            + "scheduled onto nodeC (NodeC has an existing pod that match the inter pod affinity rule but in "
            + "different namespace)",
            makePod().namespace("ns1").labels(labels("foo", "123")).podAntiAffinityIn("foo", "region", vals("bar"))
                .obj(),
            List.of(makePod().node("nodeA").namespace("ns1").labels(labels("foo", "bar")).obj(),
                makePod().node("nodeC").namespace("ns2").podAntiAffinityIn("foo", "region", vals("123")).obj()),
            chinaIndia, List.of(ANTI, ANTI, OK), null),
        new MultiNodeCase("Test existing pod's anti-affinity: if an existing pod has a term with invalid "
            + "topologyKey, labelSelector of the term is firstly checked, and then topologyKey of the term is also "
            + "checked",
            makePod().label("foo", "").obj(),
            List.of(makePod().node("nodeA").namespace(DEFAULT_NS).podAntiAffinityExists("foo", "invalid-node-label")
                .obj()),
            abRegionZ1, List.of(OK, OK), SKIP),
        new MultiNodeCase("Test incoming pod's anti-affinity: even if labelSelector matches, we still check if "
            + "topologyKey matches",
            makePod().node("nodeA").namespace(DEFAULT_NS).podAntiAffinityExists("foo", "invalid-node-label").obj(),
            List.of(makePod().node("nodeA").labels(labels("foo", "")).obj()),
            abRegionZ1, List.of(OK, OK), null),
        new MultiNodeCase("Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it "
            + "violates each existingPod's terms on all nodes",
            makePod().label("foo", "").label("bar", "").obj(),
            List.of(makePod().node("nodeA").namespace(DEFAULT_NS).podAntiAffinityExists("foo", "zone").obj(),
                makePod().node("nodeA").namespace(DEFAULT_NS).podAntiAffinityExists("bar", "region").obj()),
            abZ1Z2, List.of(EXISTING, EXISTING), null),
        new MultiNodeCase("Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at "
            + "least violates one anti-affinity rule of existingPod",
            makePod().namespace(DEFAULT_NS).podAntiAffinityExists("foo", "zone")
                .podAntiAffinityExists("bar", "region").obj(),
            List.of(makePod().node("nodeA").labels(labels("foo", "")).obj(),
                makePod().node("nodeB").labels(labels("bar", "")).obj()),
            abZ1Z2, List.of(ANTI, ANTI), null),
        new MultiNodeCase("Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, "
            + "it's counted as a single term match - case when one term has invalid topologyKey",
            makePod().label("foo", "").label("bar", "").obj(),
            List.of(makePod().node("nodeA").namespace(DEFAULT_NS).podAntiAffinityExists("foo", "invalid-node-label")
                .podAntiAffinityExists("bar", "zone").obj()),
            abZ1Z2, List.of(EXISTING, OK), null),
        new MultiNodeCase("Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, "
            + "it's counted as a single term match - case when one term has invalid topologyKey",
            makePod().namespace(DEFAULT_NS).podAntiAffinityExists("foo", "invalid-node-label")
                .podAntiAffinityExists("bar", "zone").obj(),
            List.of(makePod().name("podA").node("nodeA").labels(labels("foo", "", "bar", "")).obj()),
            abZ1Z2, List.of(ANTI, OK), null),
        new MultiNodeCase("Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, "
            + "it's counted as a single term match - case when all terms have valid topologyKey",
            makePod().label("foo", "").label("bar", "").obj(),
            List.of(makePod().namespace(DEFAULT_NS).node("nodeA").podAntiAffinityExists("foo", "region")
                .podAntiAffinityExists("bar", "zone").obj()),
            abZ1Z2, List.of(EXISTING, EXISTING), null),
        new MultiNodeCase("Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, "
            + "it's counted as a single term match - case when all terms have valid topologyKey",
            makePod().namespace(DEFAULT_NS).podAntiAffinityExists("foo", "region")
                .podAntiAffinityExists("bar", "zone").obj(),
            List.of(makePod().node("nodeA").labels(labels("foo", "", "bar", "")).obj()),
            abZ1Z2, List.of(ANTI, ANTI), null),
        new MultiNodeCase("Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one "
            + "anti-affinity term matches incoming pod, so incoming pod can only be scheduled to nodeC",
            makePod().label("foo", "").label("bar", "").obj(),
            List.of(makePod().node("nodeA").namespace(DEFAULT_NS).podAntiAffinityExists("foo", "zone")
                    .podAntiAffinityExists("labelA", "zone").obj(),
                makePod().node("nodeB").namespace(DEFAULT_NS).podAntiAffinityExists("bar", "zone")
                    .podAntiAffinityExists("labelB", "zone").obj()),
            List.of(node("nodeA", labels("region", "r1", "zone", "z1", "hostname", "nodeA")),
                node("nodeB", labels("region", "r1", "zone", "z2", "hostname", "nodeB")),
                node("nodeC", labels("region", "r1", "zone", "z3", "hostname", "nodeC"))),
            List.of(EXISTING, EXISTING, OK), null),
        new MultiNodeCase("Test incoming pod's affinity: firstly check if all affinityTerms match, and then check "
            + "if all topologyKeys match",
            makePod().namespace(DEFAULT_NS).podAffinityExists("foo", "region").podAffinityExists("bar", "zone")
                .obj(),
            List.of(makePod().name("pod1").labels(labels("foo", "", "bar", "")).node("nodeA").obj()),
            abRegionZ1, List.of(OK, OK), null),
        new MultiNodeCase("Test incoming pod's affinity: firstly check if all affinityTerms match, and then check "
            + "if all topologyKeys match, and the match logic should be satisfied on the same pod",
            makePod().namespace(DEFAULT_NS).podAffinityExists("foo", "region").podAffinityExists("bar", "zone")
                .obj(),
            List.of(makePod().node("nodeA").name("pod1").namespace(DEFAULT_NS).labels(labels("foo", "")).obj(),
                makePod().node("nodeB").name("pod2").namespace(DEFAULT_NS).labels(labels("bar", "")).obj()),
            abZ1Z2, List.of(AFFINITY, AFFINITY), null));
  }

  /** filtering_test.go TestRequiredAffinityMultipleNodes: 18 cases. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("requiredAffinityMultipleNodes")
  void filter_requiredAffinityMultipleNodes_matchesUpstream(MultiNodeCase c) {
    TestSnapshot snapshot = TestSnapshot.of(c.pods(), c.nodes());
    InterPodAffinityPlugin p = new InterPodAffinityPlugin(
        InterPodAffinityArgs.DEFAULT.withNamespaceLabels(ns -> ns.equals("ns1") ? Map.of() : null), () -> snapshot);
    CycleState state = new TestCycleState();
    var podInfo = PodInfos.of(c.pod());
    PreFilterResult pre = p.preFilter(state, podInfo, snapshot);
    assertThat(pre.status().code()).isEqualTo(c.wantPreFilter() == null ? Code.SUCCESS : c.wantPreFilter().code());
    if (pre.status().isSkip()) {
      return;
    }
    List<Status> got = new ArrayList<>();
    for (Node n : c.nodes()) {
      got.add(p.filter(state, podInfo, snapshot.node(n.metadata().name())));
    }
    assertThat(got).hasSameSizeAs(c.wantFilter());
    for (int i = 0; i < got.size(); i++) {
      assertStatus(got.get(i), c.wantFilter().get(i));
    }
  }

  // ---- TestPreFilterStateAddRemovePod ----

  record AddRemoveCase(String name, Pod pendingPod, Pod addedPod, List<Pod> existingPods,
      Map<String, Long> expectedAntiAffinity, Map<String, Long> expectedAffinity) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<AddRemoveCase> preFilterStateAddRemovePod() {
    var antiAffinityFooBar = Fixtures.required(term(selector(in("foo", "bar")), "region"));
    var antiAffinityComplex = Fixtures.required(term(selector(in("foo", "bar", "buzz")), "region"),
        term(selector(notIn("service", "bar", "security", "test")), "zone"));
    var affinityComplex = antiAffinityComplex;
    Map<String, String> selector1 = labels("foo", "bar");
    return Stream.of(
        new AddRemoveCase("preFilterState anti-affinity terms are updated correctly after adding and removing a pod",
            makePod().name("pending").labels(selector1).affinity(antiOnly(antiAffinityFooBar)).obj(),
            makePod().name("addedPod").labels(selector1).node("nodeB").affinity(antiOnly(antiAffinityFooBar)).obj(),
            List.of(makePod().name("p1").labels(selector1).node("nodeA").obj(),
                makePod().name("p2").node("nodeC").affinity(antiOnly(antiAffinityFooBar)).obj()),
            Map.of("region=r1", 2L), Map.of()),
        new AddRemoveCase("preFilterState anti-affinity terms are updated correctly after adding and removing a pod",
            makePod().name("pending").labels(selector1).affinity(antiOnly(antiAffinityComplex)).obj(),
            makePod().name("addedPod").labels(selector1).node("nodeA").affinity(antiOnly(antiAffinityComplex)).obj(),
            List.of(makePod().name("p1").labels(selector1).node("nodeA").obj(),
                makePod().name("p2").node("nodeC").affinity(antiOnly(antiAffinityFooBar)).obj()),
            Map.of("region=r1", 2L, "zone=z11", 2L, "zone=z21", 1L), Map.of()),
        new AddRemoveCase("preFilterState matching pod affinity and anti-affinity are updated correctly after "
            + "adding and removing a pod",
            makePod().name("pending").labels(selector1)
                .affinity(new io.fleetkit.api.scheduling.Affinity(null, affinityComplex, null)).obj(),
            makePod().name("addedPod").labels(selector1).node("nodeA").affinity(antiOnly(antiAffinityComplex)).obj(),
            List.of(makePod().name("p1").labels(selector1).node("nodeA").obj(),
                makePod().name("p2").node("nodeC")
                    .affinity(new io.fleetkit.api.scheduling.Affinity(null, affinityComplex, antiAffinityFooBar))
                    .obj()),
            Map.of(), Map.of("region=r1", 2L, "zone=z11", 2L)));
  }

  private static io.fleetkit.api.scheduling.Affinity antiOnly(io.fleetkit.api.scheduling.PodAffinity anti) {
    return new io.fleetkit.api.scheduling.Affinity(null, null, anti);
  }

  private static PreFilterState preFilterState(InterPodAffinityPlugin p, CycleState state, Pod pod,
      TestSnapshot snapshot) {
    PreFilterResult r = p.preFilter(state, PodInfos.of(pod), snapshot);
    assertThat(r.status().isSuccess()).as("prefilter status %s", r.status()).isTrue();
    return state.require(InterPodAffinityPlugin.PRE_FILTER_KEY);
  }

  private static void assertSameCounts(PreFilterState got, PreFilterState want) {
    assertThat(got.existingAntiAffinityCounts.asMap()).isEqualTo(want.existingAntiAffinityCounts.asMap());
    assertThat(got.affinityCounts.asMap()).isEqualTo(want.affinityCounts.asMap());
    assertThat(got.antiAffinityCounts.asMap()).isEqualTo(want.antiAffinityCounts.asMap());
  }

  /** filtering_test.go TestPreFilterStateAddRemovePod: 3 cases. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("preFilterStateAddRemovePod")
  void addPodRemovePod_preFilterState_matchesStateComputedFromScratch(AddRemoveCase c) {
    List<Node> nodes = List.of(node("nodeA", labels("region", "r1", "zone", "z11")),
        node("nodeB", labels("region", "r1", "zone", "z12")),
        node("nodeC", labels("region", "r2", "zone", "z21")));
    List<Pod> all = new ArrayList<>(c.existingPods());
    all.add(c.addedPod());
    TestSnapshot allSnapshot = TestSnapshot.of(all, nodes);
    PreFilterState allPodsState = preFilterState(plugin(allSnapshot), new TestCycleState(), c.pendingPod(),
        allSnapshot);

    TestSnapshot snapshot = TestSnapshot.of(c.existingPods(), nodes);
    InterPodAffinityPlugin p = plugin(snapshot);
    CycleState state = new TestCycleState();
    PreFilterState original = preFilterState(p, state, c.pendingPod(), snapshot);
    Map<String, Long> originalExisting = original.existingAntiAffinityCounts.asMap();
    var nodeInfo = snapshot.node(c.addedPod().spec().nodeName());
    var pending = PodInfos.of(c.pendingPod());
    var added = PodInfos.of(c.addedPod());

    assertThat(p.addPod(state, pending, added, nodeInfo).isSuccess()).isTrue();
    PreFilterState afterAdd = state.require(InterPodAffinityPlugin.PRE_FILTER_KEY);
    assertThat(afterAdd.antiAffinityCounts.asMap()).isEqualTo(c.expectedAntiAffinity());
    assertThat(afterAdd.affinityCounts.asMap()).isEqualTo(c.expectedAffinity());
    assertSameCounts(afterAdd, allPodsState);
    // AddPod copied the state: the original written by PreFilter (shared by CycleState.copy()) is untouched.
    assertThat(original.existingAntiAffinityCounts.asMap()).isEqualTo(originalExisting);

    assertThat(p.removePod(state, pending, added, nodeInfo).isSuccess()).isTrue();
    assertSameCounts(state.require(InterPodAffinityPlugin.PRE_FILTER_KEY), original);
  }

  // ---- TestGetTPMapMatchingIncomingAffinityAntiAffinity ----

  record IncomingCountsCase(String name, List<Pod> existingPods, Pod pod, Map<String, Long> wantAffinity,
      Map<String, Long> wantAntiAffinity) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<IncomingCountsCase> incomingAffinityAntiAffinityCounts() {
    Pod normalPodA = makePod().name("normal").node("nodeA").label("aaa", "").obj();
    Pod normalPodB = makePod().name("normal").node("nodeA").label("bbb", "").obj();
    Pod normalPodAB = makePod().name("normal").node("nodeA").label("aaa", "").label("bbb", "").obj();
    Map<String, Long> one = Map.of("hostname=nodeA", 1L);
    return Stream.of(
        new IncomingCountsCase("nil test", List.of(), makePod().name("aaa-normal").obj(), Map.of(), Map.of()),
        new IncomingCountsCase("incoming pod without affinity/anti-affinity causes a no-op", List.of(normalPodA),
            makePod().name("aaa-normal").obj(), Map.of(), Map.of()),
        new IncomingCountsCase("no pod has label that violates incoming pod's affinity and anti-affinity",
            List.of(normalPodB), makePod().name("aaa-anti").podAffinityExists("aaa", "hostname")
                .podAntiAffinityExists("aaa", "hostname").obj(), Map.of(), Map.of()),
        new IncomingCountsCase("existing pod matches incoming pod's affinity and anti-affinity - single term case",
            List.of(normalPodA), makePod().name("affi-antiaffi").podAffinityExists("aaa", "hostname")
                .podAntiAffinityExists("aaa", "hostname").obj(), one, one),
        new IncomingCountsCase("existing pod matches incoming pod's affinity and anti-affinity - multiple terms case",
            List.of(normalPodAB), makePod().name("affi-antiaffi").podAffinityExists("aaa", "hostname")
                .podAffinityExists("bbb", "hostname").podAntiAffinityExists("aaa", "hostname").obj(),
            Map.of("hostname=nodeA", 2L), one),
        new IncomingCountsCase("existing pod not match incoming pod's affinity but matches anti-affinity",
            List.of(normalPodA), makePod().name("affi-antiaffi").podAffinityExists("aaa", "hostname")
                .podAffinityExists("bbb", "hostname").podAntiAffinityExists("aaa", "hostname")
                .podAntiAffinityExists("bbb", "hostname").obj(), Map.of(), one),
        new IncomingCountsCase("incoming pod's anti-affinity has more than one term - existing pod violates partial "
            + "term - case 1", List.of(normalPodAB), makePod().name("anaffi-antiaffiti")
                .podAffinityExists("aaa", "hostname").podAffinityExists("ccc", "hostname")
                .podAntiAffinityExists("aaa", "hostname").podAntiAffinityExists("ccc", "hostname").obj(),
            Map.of(), one),
        new IncomingCountsCase("incoming pod's anti-affinity has more than one term - existing pod violates partial "
            + "term - case 2", List.of(normalPodB), makePod().name("affi-antiaffi")
                .podAffinityExists("aaa", "hostname").podAffinityExists("bbb", "hostname")
                .podAntiAffinityExists("aaa", "hostname").podAntiAffinityExists("bbb", "hostname").obj(),
            Map.of(), one));
  }

  /**
   * filtering_test.go TestGetTPMapMatchingIncomingAffinityAntiAffinity: 8 cases, observed through the PreFilter
   * state (a skipped PreFilter has no state: both counts are empty).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("incomingAffinityAntiAffinityCounts")
  void preFilter_incomingTerms_countsMatchingPodsPerTopologyPair(IncomingCountsCase c) {
    TestSnapshot snapshot = TestSnapshot.of(c.existingPods(), List.of(node("nodeA", labels("hostname", "nodeA"))));
    CycleState state = new TestCycleState();
    PreFilterResult r = plugin(snapshot).preFilter(state, PodInfos.of(c.pod()), snapshot);
    PreFilterState s = state.read(InterPodAffinityPlugin.PRE_FILTER_KEY);
    assertThat(s == null).isEqualTo(r.status().isSkip());
    assertThat(s == null ? Map.of() : s.affinityCounts.asMap()).isEqualTo(c.wantAffinity());
    assertThat(s == null ? Map.of() : s.antiAffinityCounts.asMap()).isEqualTo(c.wantAntiAffinity());
  }

  // ---- TestPreFilterDisabled ----

  /** filtering_test.go TestPreFilterDisabled: Filter without PreFilter state is an error. */
  @Test
  void filter_withoutPreFilterState_returnsError() {
    TestSnapshot snapshot = TestSnapshot.of(List.of(), List.of(node("node1", Map.of())));
    Status got = plugin(snapshot).filter(new TestCycleState(), PodInfos.of(makePod().obj()), snapshot.node("node1"));
    assertThat(got.code()).isEqualTo(Code.ERROR);
    assertThat(got.message()).contains("PreFilterInterPodAffinity");
  }
}
