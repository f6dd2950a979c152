package io.fleetkit.api.labels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.Violation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

final class LabelSelectorTest {

  private static LabelSelectorRequirement expr(String key, LabelSelectorOperator op, String... values) {
    return new LabelSelectorRequirement(key, op, List.of(values));
  }

  // Ported from kubernetes staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/helpers_test.go
  // TestLabelSelectorAsSelector: 6 cases.
  @Test
  void fromLabelSelector_upstreamAsSelectorCases() {
    Map<String, String> matchLabels = Map.of("foo", "bar");
    List<LabelSelectorRequirement> matchExpressions = List.of(expr("baz", LabelSelectorOperator.In, "qux", "norf"));
    assertThat(Selector.fromLabelSelector(null)).isSameAs(Selector.nothing());
    assertThat(Selector.fromLabelSelector(LabelSelector.EVERYTHING)).isSameAs(Selector.everything());
    assertThat(LabelSelector.of(matchLabels).toSelector().toString())
        .isEqualTo(Selector.parse("foo=bar").toString());
    assertThat(new LabelSelector(Map.of(), matchExpressions).toSelector().toString())
        .isEqualTo(Selector.parse("baz in (norf,qux)").toString());
    assertThat(new LabelSelector(matchLabels, matchExpressions).format())
        .isEqualTo(Selector.parse("baz in (norf,qux),foo=bar").toString())
        .isEqualTo("baz in (norf,qux),foo=bar");
    LabelSelector bad = new LabelSelector(Map.of(), List.of(expr("baz", LabelSelectorOperator.Exists, "qux", "norf")));
    assertThatThrownBy(bad::toSelector).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("values set must be empty for exists and does not exist");
  }

  @Test
  void matches_allOperators_upstreamSemantics() {
    LabelSelector s = new LabelSelector(Map.of("app", "web"), List.of(
        expr("tier", LabelSelectorOperator.In, "fe", "be"),
        expr("env", LabelSelectorOperator.NotIn, "prod"),
        expr("zone", LabelSelectorOperator.Exists),
        expr("legacy", LabelSelectorOperator.DoesNotExist)));
    Map<String, String> ok = Map.of("app", "web", "tier", "fe", "zone", "a");
    assertThat(s.matches(ok)).isTrue();
    assertThat(s.matches(with(ok, "env", "dev"))).isTrue();
    assertThat(s.matches(with(ok, "env", "prod"))).isFalse();
    assertThat(s.matches(with(ok, "legacy", ""))).isFalse();
    assertThat(s.matches(with(ok, "tier", "db"))).isFalse();
    assertThat(s.matches(with(ok, "app", "api"))).isFalse();
    assertThat(s.matches(Map.of("app", "web", "tier", "fe"))).isFalse();
    assertThat(LabelSelector.EVERYTHING.matches(Map.of())).isTrue();
  }

  private static Map<String, String> with(Map<String, String> m, String k, String v) {
    Map<String, String> out = new HashMap<>(m);
    out.put(k, v);
    return out;
  }

  @Test
  void validate_validOrNull_noViolations() {
    assertThat(LabelSelector.validate(null, "spec.selector")).isEmpty();
    assertThat(LabelSelector.validate(new LabelSelector(Map.of("a", "b"),
        List.of(expr("example.com/k", LabelSelectorOperator.In, "x", ""))), "spec.selector")).isEmpty();
  }

  @Test
  void validate_everyBrokenRule_oneViolationEach() {
    LabelSelector s = new LabelSelector(Map.of("bad key", "ok"), List.of(
        expr("k", LabelSelectorOperator.In),
        expr("k", LabelSelectorOperator.DoesNotExist, "x"),
        expr("-k", LabelSelectorOperator.Exists),
        expr("k", LabelSelectorOperator.NotIn, "bad value")));
    List<Violation> v = LabelSelector.validate(s, "spec.selector");
    assertThat(v).extracting(Violation::field).containsExactly(
        "spec.selector.matchLabels",
        "spec.selector.matchExpressions[0].values",
        "spec.selector.matchExpressions[1].values",
        "spec.selector.matchExpressions[2].key",
        "spec.selector.matchExpressions[3].values[0]");
    assertThat(v.get(1).rule()).isEqualTo("must be specified when `operator` is 'In' or 'NotIn'");
    assertThat(v.get(2).rule()).isEqualTo("may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
    assertThat(v.get(3).value()).isEqualTo("-k");
    assertThat(v.get(4).rule()).startsWith("a valid label must be an empty string");
    assertThat(v).extracting(Violation::object).containsOnly("");
  }

  @Provide
  Arbitrary<LabelSelector> selectors() {
    Arbitrary<String> keys = Arbitraries.of("a", "b", "c");
    Arbitrary<String> vals = Arbitraries.of("1", "2", "3");
    Arbitrary<LabelSelectorRequirement> reqs = Combinators.combine(keys,
        Arbitraries.of(LabelSelectorOperator.class), vals.list().ofMinSize(1).ofMaxSize(3))
        .as((k, op, vs) -> new LabelSelectorRequirement(k, op,
            op == LabelSelectorOperator.In || op == LabelSelectorOperator.NotIn ? vs : List.of()));
    return Combinators.combine(Arbitraries.maps(keys, vals).ofMaxSize(2), reqs.list().ofMaxSize(4))
        .as(LabelSelector::new);
  }

  @Provide
  Arbitrary<Map<String, String>> labelSets() {
    return Arbitraries.maps(Arbitraries.of("a", "b", "c", "d"), Arbitraries.of("1", "2", "3")).ofMaxSize(4);
  }

  @Property(tries = 500)
  void matches_validSelector_agreesWithCompiledAndParsedForms(@ForAll("selectors") LabelSelector s,
      @ForAll("labelSets") Map<String, String> labels) {
    Selector compiled = s.toSelector();
    boolean direct = s.matches(labels);
    assertThat(compiled.matches(labels)).isEqualTo(direct);
    assertThat(Selector.parse(compiled.toString()).matches(labels)).isEqualTo(direct);
  }

  // Duplicate values are printed as given (upstream too: "a in (1,1)"); parsing deduplicates, after which the
  // canonical form is a fixed point.
  @Property(tries = 200)
  void toString_parsedAgain_isFixedPoint(@ForAll("selectors") LabelSelector s) {
    Selector parsed = Selector.parse(s.format());
    assertThat(Selector.parse(parsed.toString())).isEqualTo(parsed);
    assertThat(parsed.toString()).isEqualTo(Selector.parse(parsed.toString()).toString());
    assertThat(new ArrayList<>(parsed.requirements())).hasSameSizeAs(s.toSelector().requirements());
  }
}
