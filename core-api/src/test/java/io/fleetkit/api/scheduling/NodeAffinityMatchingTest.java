package io.fleetkit.api.scheduling;

import static io.fleetkit.api.scheduling.NodeSelectorOperator.DoesNotExist;
import static io.fleetkit.api.scheduling.NodeSelectorOperator.Exists;
import static io.fleetkit.api.scheduling.NodeSelectorOperator.Gt;
import static io.fleetkit.api.scheduling.NodeSelectorOperator.In;
import static io.fleetkit.api.scheduling.NodeSelectorOperator.Lt;
import static io.fleetkit.api.scheduling.NodeSelectorOperator.NotIn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Cases ported from kubernetes staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity_test.go
 * and the node-selector cases of scheduling/corev1/helpers_test.go.
 */
final class NodeAffinityMatchingTest {

  private static NodeSelectorRequirement r(String key, NodeSelectorOperator op, String... values) {
    return new NodeSelectorRequirement(key, op, List.of(values));
  }

  private static NodeSelectorTerm exprs(NodeSelectorRequirement... rs) {
    return new NodeSelectorTerm(List.of(rs), List.of());
  }

  private static NodeSelectorTerm fields(NodeSelectorRequirement... rs) {
    return new NodeSelectorTerm(List.of(), List.of(rs));
  }

  private static NodeSelectorTerm both(NodeSelectorRequirement e, NodeSelectorRequirement f) {
    return new NodeSelectorTerm(List.of(e), List.of(f));
  }

  private static NodeSelector ns(NodeSelectorTerm... terms) {
    return new NodeSelector(List.of(terms));
  }

  private static final NodeSelectorRequirement LABEL1 = r("label_1", In, "label_1_val");
  private static final NodeSelectorRequirement HOST1 = r("metadata.name", In, "host_1");

  // helpers_test.go TestMatchNodeSelectorTerms: 10 cases
  @Test
  void matches_upstreamMatchNodeSelectorTermsCases() {
    assertThat(NodeSelectors.matches(null, "", Map.of())).isFalse();
    assertThat(NodeSelectors.matches(ns(exprs(LABEL1)), "", Map.of("label_1", "label_1_val"))).isTrue();
    assertThat(NodeSelectors.matches(ns(fields(HOST1)), "host_1", Map.of())).isTrue();
    assertThat(NodeSelectors.matches(ns(fields(r("metadata.name", In, "host_1", "host_2"))), "host_1", Map.of()))
        .isFalse();
    assertThat(NodeSelectors.matches(ns(fields(HOST1)), "not_host_1", Map.of("metadata.name", "host_1"))).isFalse();
    assertThat(NodeSelectors.matches(ns(exprs(r("metadata.name", In, "host_1"))), "host_1", Map.of())).isFalse();
    assertThat(NodeSelectors.matches(ns(both(LABEL1, HOST1)), "host_1", Map.of())).isFalse();
    assertThat(NodeSelectors.matches(ns(both(LABEL1, HOST1)), "host_1", Map.of("label_1", "label_1_val"))).isTrue();
    assertThat(NodeSelectors.matches(ns(both(LABEL1, HOST1)), "host_1", Map.of("label_1", "label_1_val-failed")))
        .isFalse();
    assertThat(NodeSelectors.matches(ns(exprs(LABEL1), fields(HOST1)), "host_1",
        Map.of("label_1", "label_1_val-failed"))).isTrue();
  }

  // helpers_test.go TestMatchNodeSelectorTermsStateless: 1 of 9 cases (the others check that Go does not sort the
  // caller's slices in place; selectors here are immutable records); matching never reorders the values.
  @Test
  void matches_unorderedValues_selectorUnchanged() {
    NodeSelector s = ns(both(r("label_1", In, "label_2_val", "label_1_val"), r("metadata.name", In, "host_2", "host_1")));
    NodeSelector copy = ns(both(r("label_1", In, "label_2_val", "label_1_val"),
        r("metadata.name", In, "host_2", "host_1")));
    NodeSelectors.matches(s, "host_1", Map.of("label_1", "label_1_val"));
    assertThat(s).isEqualTo(copy);
    assertThat(s.nodeSelectorTerms().get(0).matchExpressions().get(0).values())
        .containsExactly("label_2_val", "label_1_val");
  }

  // nodeaffinity_test.go TestNodeSelectorMatch: 5 cases
  @Test
  void nodeSelectorMatcher_upstreamNodeSelectorMatchCases() {
    NodeSelector invalid = ns(fields(r("metadata.name", In, "host_1", "host_2")), both(LABEL1, HOST1),
        exprs(r("invalid key", In, "label_value")));
    assertThatThrownBy(() -> NodeSelectorMatcher.of(invalid)).isInstanceOf(IllegalArgumentException.class);
    List<String> errors = NodeSelectorMatcher.lazy(invalid).errors();
    assertThat(errors).hasSize(2);
    assertThat(errors.get(0)).startsWith("nodeSelectorTerms[0].matchFields[0].values: Invalid value: ")
        .endsWith(": must have one element");
    assertThat(errors.get(1)).startsWith("nodeSelectorTerms[2].matchExpressions[0].key: Invalid value: ")
        .endsWith(": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
            + "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
            + "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
    // The valid middle term still matches in lazy mode.
    assertThat(NodeSelectorMatcher.lazy(invalid).matches("host_1", Map.of("label_1", "label_1_val"))).isTrue();

    assertThat(NodeSelectorMatcher.of(ns(both(LABEL1, HOST1))).matches("host_1", Map.of())).isFalse();
    assertThat(NodeSelectorMatcher.of(ns(both(LABEL1, HOST1))).matches("host_1", Map.of("label_1", "label_1_val")))
        .isTrue();
    assertThat(NodeSelectorMatcher.of(ns(exprs(LABEL1), fields(HOST1))).matches("host_1", Map.of())).isTrue();
  }

  // nodeaffinity_test.go TestPreferredSchedulingTermsScore: 3 cases
  @Test
  void preferredSchedulingTerms_upstreamScoreCases() {
    assertThatThrownBy(() -> PreferredSchedulingTerms.of(List.of(
        new PreferredSchedulingTerm(1, fields(r("metadata.name", In, "host_1", "host_2"))),
        new PreferredSchedulingTerm(1, both(LABEL1, HOST1)),
        new PreferredSchedulingTerm(1, exprs(r("invalid key", In, "label_value"))))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[0].matchFields[0].values: Invalid value: [\"host_1\",\"host_2\"]: must have one element")
        .hasMessageContaining("[2].matchExpressions[0].key: Invalid value: \"invalid key\": name part must");
    PreferredSchedulingTerms zeroWeight = PreferredSchedulingTerms.of(List.of(
        new PreferredSchedulingTerm(0, fields(r("metadata.name", In, "host_1", "host_2")))));
    assertThat(zeroWeight.score("host_1", Map.of())).isZero();
    assertThat(zeroWeight.isEmpty()).isTrue();
    PreferredSchedulingTerms terms = PreferredSchedulingTerms.of(List.of(
        new PreferredSchedulingTerm(5, fields(HOST1)),
        new PreferredSchedulingTerm(7, exprs(r("unknown_label", In, "unknown_label_val"))),
        new PreferredSchedulingTerm(11, exprs(LABEL1))));
    assertThat(terms.score("host_1", Map.of("label_1", "label_1_val"))).isEqualTo(16);
  }

  // nodeaffinity_test.go TestNodeSelectorRequirementsAsSelector: 6 cases, as match behaviour and errors
  @Test
  void requirementsAsSelector_upstreamCases() {
    // nil / empty matchExpressions: an empty term matches nothing
    assertThat(NodeSelectors.matches(ns(exprs()), "n", Map.of("foo", "bar"))).isFalse();
    assertThat(NodeSelectors.matches(ns(new NodeSelectorTerm(List.of(), List.of())), "n", Map.of())).isFalse();
    // foo in (baz,bar)
    NodeSelectorMatcher in = NodeSelectorMatcher.of(ns(exprs(r("foo", In, "bar", "baz"))));
    assertThat(in.matches("n", Map.of("foo", "baz"))).isTrue();
    assertThat(in.matches("n", Map.of("foo", "qux"))).isFalse();
    // Exists with values is an error
    assertThat(NodeSelectorMatcher.lazy(ns(exprs(r("foo", Exists, "bar", "baz")))).errors()).singleElement()
        .asString().isEqualTo("nodeSelectorTerms[0].matchExpressions[0].values: Invalid value: [\"bar\",\"baz\"]: "
            + "values set must be empty for exists and does not exist");
    // foo>1, bar<7
    NodeSelectorMatcher gt = NodeSelectorMatcher.of(ns(exprs(r("foo", Gt, "1"))));
    assertThat(gt.matches("n", Map.of("foo", "2"))).isTrue();
    assertThat(gt.matches("n", Map.of("foo", "1"))).isFalse();
    NodeSelectorMatcher lt = NodeSelectorMatcher.of(ns(exprs(r("bar", Lt, "7"))));
    assertThat(lt.matches("n", Map.of("bar", "6"))).isTrue();
    assertThat(lt.matches("n", Map.of("bar", "seven"))).isFalse();
  }

  @Test
  void gtLt_badBound_errorAndNeverMatches() {
    NodeSelectorMatcher m = NodeSelectorMatcher.lazy(ns(exprs(r("cpu", Gt, "two")), exprs(r("cpu", Lt, "1", "2"))));
    assertThat(m.errors()).containsExactly(
        "nodeSelectorTerms[0].matchExpressions[0].values[0]: Invalid value: \"two\": for 'Gt', 'Lt' operators, "
            + "the value must be an integer",
        "nodeSelectorTerms[1].matchExpressions[0].values: Invalid value: [\"1\",\"2\"]: for 'Gt', 'Lt' operators, "
            + "exactly one value is required");
    assertThat(m.matches("n", Map.of("cpu", "0"))).isFalse();
  }

  @Test
  void matchFields_notInAndNamelessNode_upstreamSemantics() {
    NodeSelectorMatcher notIn = NodeSelectorMatcher.of(ns(fields(r("metadata.name", NotIn, "n1"))));
    assertThat(notIn.matches("n1", Map.of())).isFalse();
    assertThat(notIn.matches("n2", Map.of())).isTrue();
    // As upstream, field requirements are not checked against a node without a name.
    assertThat(NodeSelectorMatcher.of(ns(fields(HOST1))).matches("", Map.of())).isTrue();
    // Unsupported matchFields operator.
    assertThat(NodeSelectorMatcher.lazy(ns(fields(r("metadata.name", Exists)))).errors()).containsExactly(
        "nodeSelectorTerms[0].matchFields[0].operator: Unsupported value: \"Exists\": supported values: \"In\", "
            + "\"NotIn\"");
  }

  private static boolean podMatches(Map<String, String> nodeSelector, @Nullable NodeSelector required,
      Map<String, String> labels, String nodeName) {
    Affinity affinity = new Affinity(new NodeAffinity(required, List.of()), null, null);
    return RequiredNodeAffinity.fromAffinity(nodeSelector, affinity).match(nodeName, labels);
  }

  // nodeaffinity_test.go TestPodMatchesNodeSelectorAndAffinityTerms: 27 cases
  @Test
  void requiredNodeAffinity_upstreamPodMatchesCases() {
    Map<String, String> fooBar = Map.of("foo", "bar");
    assertThat(RequiredNodeAffinity.fromAffinity(Map.of(), null).match("", Map.of())).isTrue();
    assertThat(RequiredNodeAffinity.of(fooBar, null).match("", Map.of())).isFalse();
    assertThat(RequiredNodeAffinity.of(fooBar, null).match("", fooBar)).isTrue();
    assertThat(RequiredNodeAffinity.of(fooBar, null).match("", Map.of("foo", "bar", "baz", "blah"))).isTrue();
    assertThat(RequiredNodeAffinity.of(Map.of("foo", "bar", "baz", "blah"), null).match("", fooBar)).isFalse();
    assertThat(podMatches(Map.of(), ns(exprs(r("foo", In, "bar", "value2"))), fooBar, "")).isTrue();
    assertThat(podMatches(Map.of(), ns(exprs(r("kernel-version", Gt, "0204"))), Map.of("kernel-version", "0206"), ""))
        .isTrue();
    assertThat(podMatches(Map.of(), ns(exprs(r("mem-type", NotIn, "DDR", "DDR2"))), Map.of("mem-type", "DDR3"), ""))
        .isTrue();
    assertThat(podMatches(Map.of(), ns(exprs(r("GPU", Exists))), Map.of("GPU", "NVIDIA-GRID-K1"), "")).isTrue();
    assertThat(podMatches(Map.of(), ns(exprs(r("foo", In, "value1", "value2"))), fooBar, "")).isFalse();
    assertThat(podMatches(Map.of(), new NodeSelector(List.of()), fooBar, "")).isFalse();
    assertThat(podMatches(Map.of(), ns(), fooBar, "")).isFalse();
    assertThat(podMatches(Map.of(), ns(exprs()), fooBar, "")).isFalse();
    assertThat(RequiredNodeAffinity.fromAffinity(Map.of(), Affinity.NONE).match("", fooBar)).isTrue();
    assertThat(podMatches(Map.of(), null, fooBar, "")).isTrue();
    assertThat(podMatches(Map.of(), ns(exprs(r("GPU", Exists), r("GPU", NotIn, "AMD", "INTER"))),
        Map.of("GPU", "NVIDIA-GRID-K1"), "")).isTrue();
    assertThat(podMatches(Map.of(), ns(exprs(r("GPU", Exists), r("GPU", In, "AMD", "INTER"))),
        Map.of("GPU", "NVIDIA-GRID-K1"), "")).isFalse();
    assertThat(podMatches(Map.of(), ns(exprs(r("foo", In, "bar", "value2")), exprs(r("diffkey", In, "wrong", "value2"))),
        fooBar, "")).isTrue();
    assertThat(podMatches(fooBar, ns(exprs(r("foo", Exists))), fooBar, "")).isTrue();
    assertThat(podMatches(fooBar, ns(exprs(r("foo", Exists))), Map.of("foo", "barrrrrr"), "")).isFalse();
    assertThat(podMatches(Map.of(), ns(exprs(r("foo", NotIn, "invalid value: ___@#$%^"))), fooBar, "")).isFalse();
    NodeSelectorRequirement node1 = r("metadata.name", In, "node_1");
    assertThat(podMatches(Map.of(), ns(fields(node1)), Map.of(), "node_1")).isTrue();
    assertThat(podMatches(Map.of(), ns(fields(node1)), Map.of(), "node_2")).isFalse();
    assertThat(podMatches(Map.of(), ns(fields(node1), exprs(r("foo", In, "bar"))), fooBar, "node_2")).isTrue();
    assertThat(podMatches(Map.of(), ns(both(r("foo", In, "bar"), node1)), fooBar, "node_2")).isFalse();
    assertThat(podMatches(Map.of(), ns(both(r("foo", In, "bar"), node1)), fooBar, "node_1")).isTrue();
    assertThat(podMatches(Map.of(), ns(fields(node1), exprs(r("foo", In, "not-match-to-bar"))), fooBar, "node_2"))
        .isFalse();
  }

  @Test
  void requiredNodeAffinity_invalidTerm_reportsErrorsAndIsNotEmpty() {
    RequiredNodeAffinity a = RequiredNodeAffinity.of(Map.of(),
        new NodeAffinity(ns(exprs(r("foo", DoesNotExist, "x"))), List.of()));
    assertThat(a.isEmpty()).isFalse();
    assertThat(a.errors()).hasSize(1);
    assertThat(a.match("n", Map.of())).isFalse();
    assertThat(RequiredNodeAffinity.of(Map.of(), null).isEmpty()).isTrue();
  }

  // The NodeAffinity plugin's PreFilter node-name narrowing.
  @Test
  void nodeNames_allTermsPinNames_unionOfIntersections() {
    RequiredNodeAffinity pinned = RequiredNodeAffinity.of(Map.of(), new NodeAffinity(ns(
        new NodeSelectorTerm(List.of(), List.of(r("metadata.name", In, "a"), r("metadata.name", In, "a"))),
        fields(r("metadata.name", In, "b"))), List.of()));
    assertThat(pinned.nodeNames()).hasValueSatisfying(s -> assertThat(s).containsExactlyInAnyOrder("a", "b"));
    RequiredNodeAffinity disjoint = RequiredNodeAffinity.of(Map.of(), new NodeAffinity(ns(
        new NodeSelectorTerm(List.of(), List.of(r("metadata.name", In, "a"), r("metadata.name", In, "b")))),
        List.of()));
    assertThat(disjoint.nodeNames()).hasValueSatisfying(s -> assertThat(s).isEmpty());
    RequiredNodeAffinity open = RequiredNodeAffinity.of(Map.of(), new NodeAffinity(ns(
        fields(r("metadata.name", In, "a")), exprs(LABEL1)), List.of()));
    assertThat(open.nodeNames()).isEmpty();
    assertThat(RequiredNodeAffinity.of(Map.of("x", "y"), null).nodeNames()).isEmpty();
  }
}
