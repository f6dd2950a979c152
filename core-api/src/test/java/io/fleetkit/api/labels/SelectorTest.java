package io.fleetkit.api.labels;

import static io.fleetkit.api.labels.SelectionOperator.DoesNotExist;
import static io.fleetkit.api.labels.SelectionOperator.DoubleEquals;
import static io.fleetkit.api.labels.SelectionOperator.Equals;
import static io.fleetkit.api.labels.SelectionOperator.Exists;
import static io.fleetkit.api.labels.SelectionOperator.GreaterThan;
import static io.fleetkit.api.labels.SelectionOperator.In;
import static io.fleetkit.api.labels.SelectionOperator.LessThan;
import static io.fleetkit.api.labels.SelectionOperator.NotEquals;
import static io.fleetkit.api.labels.SelectionOperator.NotIn;
import static io.fleetkit.api.labels.SelectorParser.Token.CLOSED_PAR;
import static io.fleetkit.api.labels.SelectorParser.Token.COMMA;
import static io.fleetkit.api.labels.SelectorParser.Token.DOES_NOT_EXIST;
import static io.fleetkit.api.labels.SelectorParser.Token.DOUBLE_EQUALS;
import static io.fleetkit.api.labels.SelectorParser.Token.END_OF_STRING;
import static io.fleetkit.api.labels.SelectorParser.Token.EQUALS;
import static io.fleetkit.api.labels.SelectorParser.Token.GREATER_THAN;
import static io.fleetkit.api.labels.SelectorParser.Token.IDENTIFIER;
import static io.fleetkit.api.labels.SelectorParser.Token.IN;
import static io.fleetkit.api.labels.SelectorParser.Token.LESS_THAN;
import static io.fleetkit.api.labels.SelectorParser.Token.NOT_EQUALS;
import static io.fleetkit.api.labels.SelectorParser.Token.NOT_IN;
import static io.fleetkit.api.labels.SelectorParser.Token.OPEN_PAR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.labels.SelectorParser.Token;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Cases ported from kubernetes staging/src/k8s.io/apimachinery/pkg/labels/selector_test.go: TestSelectorParse,
 * TestDeterministicParse, TestEverything, TestSelectorMatches, TestSetMatches, TestNilMapIsValid/TestSetIsEmpty,
 * TestLexer, TestLexerSequence, TestParserLookahead, TestRequirementConstructor, TestToString,
 * TestRequirementSelectorMatching, TestSetSelectorParser, TestSafeSort (via toString).
 */
final class SelectorTest {

  /** Upstream getRequirement: values go through sets.String.List(), i.e. sorted and deduplicated. */
  private static Requirement req(String key, SelectionOperator op, String... values) {
    return Requirement.of(key, op, List.copyOf(new TreeSet<>(Arrays.asList(values))));
  }

  private static Selector sel(Requirement... reqs) {
    return Selector.of(List.of(reqs));
  }

  // TestSelectorParse: 10 good strings (re-stringed without spaces) and 4 bad ones.
  @Test
  void parse_upstreamGoodStrings_roundTripWithoutSpaces() {
    for (String s : List.of("x=a,y=b,z=c", "", "x!=a,y=b", "x=", "x= ", "x=,z= ", "x= ,z= ", "!x", "x>1",
        "x>1,z<5")) {
      assertThat(Selector.parse(s).toString()).as(s).isEqualTo(s.replace(" ", ""));
    }
  }

  @Test
  void parse_upstreamBadStrings_throw() {
    for (String s : List.of("x=a||y=b", "x==a==b", "!x=a", "x<a")) {
      assertThatThrownBy(() -> Selector.parse(s)).as(s).isInstanceOf(SelectorParseException.class);
    }
  }

  // TestDeterministicParse
  @Test
  void parse_sameRequirementsInOtherOrder_sameString() {
    assertThat(Selector.parse("x=a,a=x").toString()).isEqualTo(Selector.parse("a=x,x=a").toString())
        .isEqualTo("a=x,x=a");
  }

  // TestEverything
  @Test
  void everything_anyLabels_matchesAndIsEmpty() {
    assertThat(Selector.everything().matches(Map.of("x", "y"))).isTrue();
    assertThat(Selector.everything().isEmpty()).isTrue();
    assertThat(Selector.nothing().matches(Map.of())).isFalse();
    assertThat(Selector.nothing().isEmpty()).isFalse();
    assertThat(Selector.nothing().matchesNothing()).isTrue();
  }

  // TestSelectorMatches: 17 + 6 cases
  @Test
  void matches_upstreamSelectorMatchesCases() {
    expectMatch("", Map.of("x", "y"));
    expectMatch("x=y", Map.of("x", "y"));
    expectMatch("x=y,z=w", Map.of("x", "y", "z", "w"));
    expectMatch("x!=y,z!=w", Map.of("x", "z", "z", "a"));
    expectMatch("notin=in", Map.of("notin", "in"));
    expectMatch("x", Map.of("x", "z"));
    expectMatch("!x", Map.of("y", "z"));
    expectMatch("x>1", Map.of("x", "2"));
    expectMatch("x<1", Map.of("x", "0"));
    expectNoMatch("x=z", Map.of());
    expectNoMatch("x=y", Map.of("x", "z"));
    expectNoMatch("x=y,z=w", Map.of("x", "w", "z", "w"));
    expectNoMatch("x!=y,z!=w", Map.of("x", "z", "z", "w"));
    expectNoMatch("x", Map.of("y", "z"));
    expectNoMatch("!x", Map.of("x", "z"));
    expectNoMatch("x>1", Map.of("x", "0"));
    expectNoMatch("x<1", Map.of("x", "2"));
    Map<String, String> labelset = Map.of("foo", "bar", "baz", "blah");
    expectMatch("foo=bar", labelset);
    expectMatch("baz=blah", labelset);
    expectMatch("foo=bar,baz=blah", labelset);
    expectNoMatch("foo=blah", labelset);
    expectNoMatch("baz=bar", labelset);
    expectNoMatch("foo=bar,foobar=bar,baz=blah", labelset);
  }

  private static void expectMatch(String selector, Map<String, String> labels) {
    assertThat(Selector.parse(selector).matches(labels)).as("%s matches %s", selector, labels).isTrue();
  }

  private static void expectNoMatch(String selector, Map<String, String> labels) {
    assertThat(Selector.parse(selector).matches(labels)).as("%s does not match %s", selector, labels).isFalse();
  }

  // TestSetMatches (4 cases), TestNilMapIsValid, TestSetIsEmpty
  @Test
  void fromSet_upstreamCases_matchAndEmptiness() {
    Map<String, String> labelset = Map.of("foo", "bar", "baz", "blah");
    assertThat(Selector.fromSet(Map.of()).matches(labelset)).isTrue();
    assertThat(Selector.fromSet(Map.of("foo", "bar")).matches(labelset)).isTrue();
    assertThat(Selector.fromSet(Map.of("baz", "blah")).matches(labelset)).isTrue();
    assertThat(Selector.fromSet(Map.of("foo", "bar", "baz", "blah")).matches(labelset)).isTrue();
    assertThat(Selector.fromSet(Map.of("foo", "baz")).matches(labelset)).isFalse();
    assertThat(Selector.fromSet(Map.of()).isEmpty()).isTrue();
    assertThat(Selector.of(List.of()).isEmpty()).isTrue();
    assertThat(Selector.fromSet(Map.of("b", "2", "a", "1")).toString()).isEqualTo("a=1,b=2");
  }

  // TestLexer: 14 cases
  @Test
  void lexer_upstreamSingleTokens() {
    Object[][] cases = {
        {"", END_OF_STRING}, {",", COMMA}, {"notin", NOT_IN}, {"in", IN}, {"=", EQUALS}, {"==", DOUBLE_EQUALS},
        {">", GREATER_THAN}, {"<", LESS_THAN}, {"!", DOES_NOT_EXIST}, {"!=", NOT_EQUALS}, {"(", OPEN_PAR},
        {")", CLOSED_PAR}, {"~", IDENTIFIER}, {"||", IDENTIFIER}};
    for (Object[] c : cases) {
      SelectorParser.Item item = new SelectorParser.Lexer((String) c[0]).lex();
      assertThat(item.token()).as("'%s'", c[0]).isEqualTo(c[1]);
      assertThat(item.literal()).isEqualTo(c[0]);
    }
  }

  // TestLexerSequence (10 cases) and TestParserLookahead (11 cases: the same sequences plus "", with END)
  @Test
  void scan_upstreamSequences_tokens() {
    Map<String, List<Token>> cases = new java.util.LinkedHashMap<>();
    cases.put("key in ( value )", List.of(IDENTIFIER, IN, OPEN_PAR, IDENTIFIER, CLOSED_PAR));
    cases.put("key notin ( value )", List.of(IDENTIFIER, NOT_IN, OPEN_PAR, IDENTIFIER, CLOSED_PAR));
    cases.put("key in ( value1, value2 )",
        List.of(IDENTIFIER, IN, OPEN_PAR, IDENTIFIER, COMMA, IDENTIFIER, CLOSED_PAR));
    cases.put("key", List.of(IDENTIFIER));
    cases.put("!key", List.of(DOES_NOT_EXIST, IDENTIFIER));
    cases.put("()", List.of(OPEN_PAR, CLOSED_PAR));
    cases.put("", List.of());
    cases.put("x in (),y", List.of(IDENTIFIER, IN, OPEN_PAR, CLOSED_PAR, COMMA, IDENTIFIER));
    cases.put("== != (), = notin", List.of(DOUBLE_EQUALS, NOT_EQUALS, OPEN_PAR, CLOSED_PAR, COMMA, EQUALS, NOT_IN));
    cases.put("key>2", List.of(IDENTIFIER, GREATER_THAN, IDENTIFIER));
    cases.put("key<1", List.of(IDENTIFIER, LESS_THAN, IDENTIFIER));
    cases.forEach((s, tokens) -> {
      List<Token> expected = new ArrayList<>(tokens);
      expected.add(END_OF_STRING);
      assertThat(SelectorParser.scan(s)).as(s).extracting(SelectorParser.Item::token).isEqualTo(expected);
    });
  }

  @Test
  void scan_tokens_recordStartPositions() {
    assertThat(SelectorParser.scan("key  in (a)")).extracting(SelectorParser.Item::position)
        .containsExactly(0, 5, 8, 9, 10, 11);
  }

  // TestRequirementConstructor: 18 of 19 cases (key, operator, values, the fields of the expected errors; upstream
  // compares type, field and bad value). Not ported: "x18" with operator "unsupportedOp" (operators are an enum).
  @Test
  void requirementOf_upstreamConstructorCases() {
    Object[][] cases = {
        {"x1", In, List.of(), List.of("values")},
        {"x2", NotIn, List.of(), List.of("values")},
        {"x3", In, List.of("foo"), List.of()},
        {"x4", NotIn, List.of("foo"), List.of()},
        {"x5", Equals, List.of("bar", "foo"), List.of("values")},
        {"x6", Exists, List.of(), List.of()},
        {"x7", DoesNotExist, List.of(), List.of()},
        {"x8", Exists, List.of("foo"), List.of("values")},
        {"x9", In, List.of("bar"), List.of()},
        {"x10", In, List.of("bar"), List.of()},
        {"x11", GreaterThan, List.of("1"), List.of()},
        {"x12", LessThan, List.of("6"), List.of()},
        {"x13", GreaterThan, List.of(), List.of("values")},
        {"x14", GreaterThan, List.of("bar"), List.of("values[0]")},
        {"x15", LessThan, List.of("bar"), List.of("values[0]")},
        {"a".repeat(254), Exists, List.of(), List.of("key")},
        {"x16", Equals, List.of("a".repeat(254)), List.of("values[0][x16]")},
        {"x17", Equals, List.of("a b"), List.of("values[0][x17]")}};
    for (Object[] c : cases) {
      @SuppressWarnings("unchecked")
      List<String> values = (List<String>) c[2];
      @SuppressWarnings("unchecked")
      List<String> fields = (List<String>) c[3];
      List<String> errs = Requirement.validate((String) c[0], (SelectionOperator) c[1], values, "");
      assertThat(errs).as("%s %s %s", c[0], c[1], values)
          .extracting(e -> e.substring(0, e.indexOf(": Invalid value: ")))
          .containsExactlyElementsOf(fields);
    }
  }

  // TestParseOperator: 10 cases. The operator after a key: the seven binary operators parse, and "!", "exists" and
  // "(" are refused with upstream's message (checked through the parser, which reads the operator inline).
  @Test
  void parse_upstreamParseOperatorCases() {
    for (String ok : List.of("x in (a)", "x=a", "x==a", "x>1", "x<1", "x notin (a)", "x!=a")) {
      assertThat(Selector.parse(ok).requirements()).as(ok).hasSize(1);
    }
    for (String bad : List.of("!", "exists", "(")) {
      assertParseError("x " + bad + " a", 2,
          "unable to parse requirement: found '" + bad + "', expected: in, notin, =, ==, !=, gt, lt");
    }
  }

  @Test
  void requirementOf_badValues_fieldErrorsNameTheRule() {
    assertThat(Requirement.validate("x5", Equals, List.of("bar", "foo"), "")).containsExactly(
        "values: Invalid value: [\"bar\",\"foo\"]: exact-match compatibility requires one single value");
    assertThat(Requirement.validate("x14", GreaterThan, List.of("bar"), "")).containsExactly(
        "values[0]: Invalid value: \"bar\": for 'Gt', 'Lt' operators, the value must be an integer");
    assertThat(Requirement.validate("x17", Equals, List.of("a b"), "")).singleElement().asString()
        .startsWith("values[0][x17]: Invalid value: \"a b\": a valid label must be an empty string");
    assertThat(Requirement.validate("x", Exists, List.of("a"), "spec")).containsExactly(
        "spec.values: Invalid value: [\"a\"]: values set must be empty for exists and does not exist");
    assertThatThrownBy(() -> Requirement.of("x", In, List.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("for 'in', 'notin' operators, values set can't be empty");
  }

  // TestToString: 5 valid cases (the 6th builds a zero Requirement, which cannot exist here)
  @Test
  void toString_upstreamCases() {
    assertThat(sel(req("x", In, "abc", "def"), req("y", NotIn, "jkl"), req("z", Exists)).toString())
        .isEqualTo("x in (abc,def),y notin (jkl),z");
    assertThat(sel(req("x", NotIn, "abc", "def"), req("y", NotEquals, "jkl"), req("z", DoesNotExist)).toString())
        .isEqualTo("x notin (abc,def),y!=jkl,!z");
    assertThat(sel(req("x", NotIn, "abc"), req("y", In, "jkl", "mno"), req("z", NotIn, "")).toString())
        .isEqualTo("x notin (abc),y in (jkl,mno),z notin ()");
    assertThat(sel(req("x", Equals, "abc"), req("y", DoubleEquals, "jkl"), req("z", NotEquals, "a"),
        req("z", Exists)).toString()).isEqualTo("x=abc,y==jkl,z!=a,z");
    assertThat(sel(req("x", GreaterThan, "2"), req("y", LessThan, "8"), req("z", Exists)).toString())
        .isEqualTo("x>2,y<8,z");
  }

  // TestSafeSort: 3 of 4 cases, values printed sorted without mutating the requirement ("nil strings" sorts a nil
  // Go slice; a requirement without values prints none).
  @Test
  void toString_unsortedValues_printedSortedValuesKept() {
    Requirement ordered = Requirement.of("k", In, List.of("bar", "foo"));
    assertThat(ordered.toString()).isEqualTo("k in (bar,foo)");
    assertThat(ordered.values()).containsExactly("bar", "foo");
    Requirement unordered = Requirement.of("k", In, List.of("foo", "bar"));
    assertThat(unordered.toString()).isEqualTo("k in (bar,foo)");
    assertThat(unordered.values()).containsExactly("foo", "bar");
    Requirement r = Requirement.of("k", In, List.of("foo", "bar", "foo", "bar"));
    assertThat(r.toString()).isEqualTo("k in (bar,bar,foo,foo)");
    assertThat(r.values()).containsExactly("foo", "bar", "foo", "bar");
  }

  // TestSetSelectorString: 3 cases (upstream's ValidatedSetSelector; fromSet prints the same).
  @Test
  void fromSet_upstreamSetSelectorStringCases() {
    assertThat(Selector.fromSet(Map.of()).toString()).isEmpty();
    assertThat(Selector.fromSet(Map.of("app", "foo")).toString()).isEqualTo("app=foo");
    assertThat(Selector.fromSet(Map.of("app", "foo", "a", "b")).toString()).isEqualTo("a=b,app=foo");
  }

  // TestRequiresExactMatch: 7 cases.
  @Test
  void requiresExactMatch_upstreamCases() {
    assertThat(sel(req("key", In, "value")).requiresExactMatch("key")).contains("value");
    assertThat(sel(req("key", In, "value", "value2")).requiresExactMatch("key")).isEmpty();
    assertThat(sel(req("key", In, "value", "value1"), req("key2", In, "value2")).requiresExactMatch("key2"))
        .contains("value2");
    assertThat(sel(req("key", Equals, "value")).requiresExactMatch("key")).contains("value");
    assertThat(sel(req("key", DoubleEquals, "value")).requiresExactMatch("key")).contains("value");
    assertThat(sel(req("key", NotEquals, "value")).requiresExactMatch("key")).isEmpty();
    assertThat(sel(req("key", In, "value"), req("key2", In, "value2")).requiresExactMatch("key")).contains("value");
  }

  // TestRequirementEqual: 4 cases (upstream builds Equals with two values directly, bypassing validation).
  @Test
  void requirementEquals_upstreamCases() {
    Requirement base = Requirement.unchecked("key", Equals, List.of("foo", "bar"));
    assertThat(base).isEqualTo(Requirement.unchecked("key", Equals, List.of("foo", "bar")))
        .hasSameHashCodeAs(Requirement.unchecked("key", Equals, List.of("foo", "bar")));
    assertThat(Requirement.unchecked("key1", Equals, List.of("foo", "bar")))
        .isNotEqualTo(Requirement.unchecked("key2", Equals, List.of("foo", "bar")));
    assertThat(base).isNotEqualTo(Requirement.unchecked("key", In, List.of("foo", "bar")));
    assertThat(base).isNotEqualTo(Requirement.unchecked("key", Equals, List.of("foobar")));
  }

  // TestMatchesNothing: 14 of 16 cases ("sharedNothingSelector" and "sharedEverythingSelector" are Go package
  // variables; nothing() and everything() are those shared instances here).
  @Test
  void matchesNothing_upstreamCases() {
    assertThat(Selector.nothing().matchesNothing()).isTrue();
    assertThat(Selector.everything().matchesNothing()).isFalse();
    assertThat(Selector.fromSet(Map.of()).matchesNothing()).isFalse();
    assertThat(Selector.fromSet(Map.of("key", "value")).matchesNothing()).isFalse();
    for (String s : List.of("", "a", "!a", "a=b", "a!=b", "a in (b)", "a notin (b)", "a,!a", "a=b,a!=b",
        "a in (b),a notin (b)")) {
      assertThat(Selector.parse(s).matchesNothing()).as(s).isFalse();
    }
  }

  // TestRequirementSelectorMatching: 8 cases (the zero-Requirement case cannot be built here)
  @Test
  void matches_upstreamRequirementSelectorCases() {
    Map<String, String> xy = Map.of("x", "foo", "y", "baz");
    assertThat(sel(req("x", In, "foo"), req("y", NotIn, "alpha")).matches(xy)).isTrue();
    assertThat(sel(req("x", In, "foo"), req("y", In, "alpha")).matches(xy)).isFalse();
    Map<String, String> yEmpty = Map.of("y", "");
    assertThat(sel(req("x", NotIn, ""), req("y", Exists)).matches(yEmpty)).isTrue();
    assertThat(sel(req("x", DoesNotExist), req("y", Exists)).matches(yEmpty)).isTrue();
    assertThat(sel(req("x", NotIn, ""), req("y", DoesNotExist)).matches(yEmpty)).isFalse();
    assertThat(sel(req("x", In, "")).matches(Map.of("y", "baz"))).isFalse();
    assertThat(sel(req("z", GreaterThan, "1")).matches(Map.of("z", "2"))).isTrue();
    assertThat(sel(req("z", GreaterThan, "1")).matches(Map.of("z", "v2"))).isFalse();
  }

  // TestSetSelectorParser: 37 cases (valid ones compared with the expected requirements when upstream does)
  @Test
  void parse_upstreamSetSelectorParserCases() {
    expectParse("", sel());
    expectParse("\rx", sel(req("x", Exists)));
    expectParse("this-is-a-dns.domain.com/key-with-dash", sel(req("this-is-a-dns.domain.com/key-with-dash", Exists)));
    expectParse("this-is-another-dns.domain.com/key-with-dash in (so,what)",
        sel(req("this-is-another-dns.domain.com/key-with-dash", In, "so", "what")));
    expectParse("0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
        sel(req("0.1.2.domain/99", NotIn, "10.10.100.1", "tick.tack.clock")));
    expectParse("foo  in\t (abc)", sel(req("foo", In, "abc")));
    expectParse("x notin\n (abc)", sel(req("x", NotIn, "abc")));
    expectParse("x  notin\t\t\t(abc,def)", sel(req("x", NotIn, "abc", "def")));
    expectParse("x in (abc,def)", sel(req("x", In, "abc", "def")));
    expectParse("x in (abc,)", sel(req("x", In, "abc", "")));
    expectParse("x in (abc,abc)", sel(req("x", In, "abc")));
    expectParse("x in ()", sel(req("x", In, "")));
    expectParse("x in (a,,)", sel(req("x", In, "", "a")));
    expectParse("x in (a,,,)", sel(req("x", In, "", "a")));
    expectParse("x in (a,,,,,,)", sel(req("x", In, "", "a")));
    expectParse("x in (a,,a,,a,,a,,)", sel(req("x", In, "", "a")));
    expectParse("x notin (abc,,def),bar,z in (),w",
        sel(req("bar", Exists), req("w", Exists), req("x", NotIn, "abc", "", "def"), req("z", In, "")));
    expectParse("x,y in (a)", null);
    expectParse("x=a", sel(req("x", Equals, "a")));
    expectParse("x>1", sel(req("x", GreaterThan, "1")));
    expectParse("x<7", sel(req("x", LessThan, "7")));
    expectParse("x=a,y!=b", sel(req("x", Equals, "a"), req("y", NotEquals, "b")));
    expectParse("x=a,y!=b,z in (h,i,j)",
        sel(req("x", Equals, "a"), req("y", NotEquals, "b"), req("z", In, "h", "i", "j")));
    expectInvalid("x=a||y=b");
    expectInvalid("x,,y");
    expectInvalid(",x,y");
    expectInvalid("x nott in (y)");
    expectParse("x notin ( )", sel(req("x", NotIn, "")));
    expectParse("x notin (, a)", sel(req("x", NotIn, "", "a")));
    expectInvalid("a in (xyz),");
    expectInvalid("a in (xyz)b notin ()");
    expectParse("a ", sel(req("a", Exists)));
    expectParse("a in (x,y,notin, z,in)", sel(req("a", In, "in", "notin", "x", "y", "z")));
    expectInvalid("a in (xyz abc)");
    expectInvalid("a notin(");
    expectInvalid("a (");
    expectInvalid("(");
  }

  private static void expectParse(String in, @Nullable Selector expected) {
    Selector got = Selector.parse(in);
    if (expected != null) {
      assertThat(got).as(in).isEqualTo(expected);
    }
  }

  private static void expectInvalid(String in) {
    assertThatThrownBy(() -> Selector.parse(in)).as(in).isInstanceOf(SelectorParseException.class);
  }

  @Test
  void parse_errors_nameThePositionAndTheProblem() {
    // '|' is an ordinary identifier character, so "a||y" is read as a value and rejected as a label value
    assertThat(catchParse("x=a||y=b").reason()).startsWith(
        "unable to parse requirement: values[0][x]: Invalid value: \"a||y\": a valid label must be");
    assertParseError("x,,y", 2, "found ',', expected: identifier after ','");
    assertParseError(",x,y", 0, "found ',', expected: !, identifier, or 'end of string'");
    assertParseError("x nott in (y)", 2,
        "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt");
    assertParseError("a in (xyz),", 11, "found '', expected: identifier after ','");
    assertParseError("a in (xyz)b notin ()", 10, "found 'b', expected: ',' or 'end of string'");
    assertParseError("a in (xyz abc)", 10, "unable to parse requirement: found 'abc', expected: ',' or ')'");
    assertParseError("a notin(", 8, "unable to parse requirement: found '', expected: ',', ')' or identifier");
    assertParseError("a (", 2, "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt");
    assertParseError("(", 0, "found '(', expected: !, identifier, or 'end of string'");
    assertParseError("x==a==b", 4, "found '==', expected: ',' or 'end of string'");
    assertParseError("!x=a", 2, "found '=', expected: ',' or 'end of string'");
    assertParseError("a in x", 5, "unable to parse requirement: found 'x' expected: '('");
  }

  @Test
  void parse_invalidKeyOrValue_fieldErrorAtRequirementStart() {
    SelectorParseException e = catchParse("a=b, bad key=c");
    assertThat(e.position()).isEqualTo(9);
    assertThat(e.reason()).startsWith("unable to parse requirement: found 'key', expected: in, notin");
    e = catchParse("x<a");
    assertThat(e.position()).isZero();
    assertThat(e.reason()).isEqualTo("unable to parse requirement: values[0]: Invalid value: \"a\": "
        + "for 'Gt', 'Lt' operators, the value must be an integer");
    e = catchParse("ok,-bad");
    assertThat(e.position()).isEqualTo(3);
    assertThat(e.reason()).startsWith("unable to parse requirement: Invalid value: \"-bad\": name part must");
    assertThat(e.getMessage()).startsWith("label selector \"ok,-bad\" at position 3: unable to parse");
  }

  private static void assertParseError(String in, int position, String reason) {
    SelectorParseException e = catchParse(in);
    assertThat(e.reason()).as(in).isEqualTo(reason);
    assertThat(e.position()).as(in).isEqualTo(position);
  }

  private static SelectorParseException catchParse(String in) {
    try {
      Selector.parse(in);
    } catch (SelectorParseException e) {
      return e;
    }
    throw new AssertionError("expected a parse error for " + in);
  }

  @Test
  void parse_fullSyntax_matchesAndCanonicalForm() {
    Selector s = Selector.parse("a=b,c!=d,e in (y,x),f notin (z),!g,h");
    assertThat(s.toString()).isEqualTo("a=b,c!=d,e in (x,y),f notin (z),!g,h");
    assertThat(s.matches(Map.of("a", "b", "e", "x", "h", ""))).isTrue();
    assertThat(s.matches(Map.of("a", "b", "e", "x", "h", "", "g", "1"))).isFalse();
    assertThat(s.matches(Map.of("a", "b", "e", "x", "h", "", "c", "d"))).isFalse();
    assertThat(s.matches(Map.of("a", "b", "e", "x", "h", "", "f", "z"))).isFalse();
    assertThat(s.matches(Map.of("a", "b", "e", "w", "h", ""))).isFalse();
    assertThat(s.matches(Map.of("a", "b", "e", "x"))).isFalse();
    assertThat(Selector.parse(s.toString())).isEqualTo(s);
  }

  @Test
  void requiresExactMatch_equalsOrSingleIn_value() {
    Selector s = Selector.parse("a=1,b in (2),c in (3,4),d!=5");
    assertThat(s.requiresExactMatch("a")).contains("1");
    assertThat(s.requiresExactMatch("b")).contains("2");
    assertThat(s.requiresExactMatch("c")).isEmpty();
    assertThat(s.requiresExactMatch("d")).isEmpty();
    assertThat(s.requiresExactMatch("e")).isEmpty();
  }

  @Test
  void matches_gtLtBoundaries_int64Semantics() {
    assertThat(Selector.parse("x>9223372036854775806").matches(Map.of("x", "9223372036854775807"))).isTrue();
    assertThat(Selector.parse("x>1").matches(Map.of("x", "9223372036854775808"))).isFalse();
    assertThat(Selector.parse("x<0").matches(Map.of("x", "-9223372036854775808"))).isTrue();
    assertThat(Selector.parse("x>1").matches(Map.of("x", "+2"))).isTrue();
    assertThat(Selector.parse("x>1").matches(Map.of("x", "0002"))).isTrue();
    assertThat(Selector.parse("x>1").matches(Map.of("x", "1"))).isFalse();
    assertThat(Selector.parse("x<5").matches(Map.of())).isFalse();
  }

  @Test
  void matches_manyValues_usesSetAndAgreesWithScan() {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      values.add("v" + i);
    }
    Requirement r = Requirement.of("k", In, values);
    assertThat(r.matches(Map.of("k", "v19"))).isTrue();
    assertThat(r.matches(Map.of("k", "v20"))).isFalse();
  }
}
