package io.fleetkit.api.labels;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.Violation;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Cases ported from kubernetes staging/src/k8s.io/apimachinery/pkg/util/validation/validation_test.go
 * (TestIsDNS1123Label, TestIsDNS1123Subdomain, TestIsDNS1035Label, TestIsQualifiedName, TestIsValidLabelValue,
 * TestIsConfigMapKey, TestIsRelaxedEnvVarName; the
 * last two are also content/kube_test.go TestIsLabelKey/TestIsLabelValue) plus exact-message checks.
 */
final class ValidationTest {

  private static void assertValid(Function<String, List<String>> check, List<String> values) {
    for (String v : values) {
      assertThat(check.apply(v)).as("expected valid: '%s'", v).isEmpty();
    }
  }

  private static void assertInvalid(Function<String, List<String>> check, List<String> values) {
    for (String v : values) {
      assertThat(check.apply(v)).as("expected invalid: '%s'", v).isNotEmpty();
    }
  }

  static final List<String> DNS1123_LABEL_GOOD = List.of(
      "a", "ab", "abc", "a1", "a-1", "a--1--2--b",
      "0", "01", "012", "1a", "1-a", "1--a--b--2",
      "a".repeat(63));
  static final List<String> DNS1123_LABEL_BAD = List.of(
      "", "A", "ABC", "aBc", "A1", "A-1", "1-A",
      "-", "a-", "-a", "1-", "-1",
      "_", "a_", "_a", "a_b", "1_", "_1", "1_2",
      ".", "a.", ".a", "a.b", "1.", ".1", "1.2",
      " ", "a ", " a", "a b", "1 ", " 1", "1 2",
      "a".repeat(64));

  // TestIsDNS1123Label: 13 good + 34 bad
  @Test
  void isDNS1123Label_upstreamCases_classified() {
    assertValid(Validation::isDNS1123Label, DNS1123_LABEL_GOOD);
    assertInvalid(Validation::isDNS1123Label, DNS1123_LABEL_BAD);
  }

  // TestIsDNS1123Subdomain: 41 good + 60 bad
  @Test
  void isDNS1123Subdomain_upstreamCases_classified() {
    assertValid(Validation::isDNS1123Subdomain, List.of(
        "a", "ab", "abc", "a1", "a-1", "a--1--2--b",
        "0", "01", "012", "1a", "1-a", "1--a--b--2",
        "a.a", "ab.a", "abc.a", "a1.a", "a-1.a", "a--1--2--b.a",
        "a.1", "ab.1", "abc.1", "a1.1", "a-1.1", "a--1--2--b.1",
        "0.a", "01.a", "012.a", "1a.a", "1-a.a", "1--a--b--2",
        "0.1", "01.1", "012.1", "1a.1", "1-a.1", "1--a--b--2.1",
        "a.b.c.d.e", "aa.bb.cc.dd.ee", "1.2.3.4.5", "11.22.33.44.55",
        "a".repeat(253)));
    assertInvalid(Validation::isDNS1123Subdomain, List.of(
        "", "A", "ABC", "aBc", "A1", "A-1", "1-A",
        "-", "a-", "-a", "1-", "-1",
        "_", "a_", "_a", "a_b", "1_", "_1", "1_2",
        ".", "a.", ".a", "a..b", "1.", ".1", "1..2",
        " ", "a ", " a", "a b", "1 ", " 1", "1 2",
        "A.a", "aB.a", "ab.A", "A1.a", "a1.A",
        "A.1", "aB.1", "A1.1", "1A.1",
        "0.A", "01.A", "012.A", "1A.a", "1a.A",
        "A.B.C.D.E", "AA.BB.CC.DD.EE", "a.B.c.d.e", "aa.bB.cc.dd.ee",
        "a@b", "a,b", "a_b", "a;b",
        "a:b", "a%b", "a?b", "a$b",
        "a".repeat(254)));
  }

  // TestIsDNS1035Label: 7 good + 40 bad
  @Test
  void isDNS1035Label_upstreamCases_classified() {
    assertValid(Validation::isDNS1035Label, List.of(
        "a", "ab", "abc", "a1", "a-1", "a--1--2--b", "a".repeat(63)));
    assertInvalid(Validation::isDNS1035Label, List.of(
        "0", "01", "012", "1a", "1-a", "1--a--b--2",
        "", "A", "ABC", "aBc", "A1", "A-1", "1-A",
        "-", "a-", "-a", "1-", "-1",
        "_", "a_", "_a", "a_b", "1_", "_1", "1_2",
        ".", "a.", ".a", "a.b", "1.", ".1", "1.2",
        " ", "a ", " a", "a b", "1 ", " 1", "1 2",
        "a".repeat(64)));
  }

  // TestIsQualifiedName: 17 success + 10 error
  @Test
  void isQualifiedName_upstreamCases_classified() {
    assertValid(Validation::isQualifiedName, List.of(
        "simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple", "now-with-dashes/simple",
        "now-with-dashes/now-with-dashes", "now.with.dots/simple", "now-with.dashes-and.dots/simple",
        "1-num.2-num/3-num", "1234/5678", "1.2.3.4/5678", "Uppercase_Is_OK_123", "example.com/Uppercase_Is_OK_123",
        "requests.storage-foo", "a".repeat(63), "a".repeat(253) + "/" + "b".repeat(63)));
    assertInvalid(Validation::isQualifiedName, List.of(
        "nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-", "only/one/slash", "Example.com/abc",
        "example_com/abc", "example.com/", "/simple", "a".repeat(64), "a".repeat(254) + "/abc"));
  }

  // TestIsValidLabelValue: 7 success + 8 error
  @Test
  void isValidLabelValue_upstreamCases_classified() {
    assertValid(Validation::isValidLabelValue, List.of(
        "simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", "a".repeat(63), ""));
    assertInvalid(Validation::isValidLabelValue, List.of(
        "nospecialchars%^=@", "Tama-nui-te-rā.is.Māori.sun", "\\backslashes\\are\\bad", "-starts-with-dash",
        "ends-with-dash-", ".starts.with.dot", "ends.with.dot.", "a".repeat(64)));
  }

  // TestIsConfigMapKey: 8 success + 5 failure
  @Test
  void isConfigMapKey_upstreamCases_classified() {
    assertValid(Validation::isConfigMapKey, List.of(
        "a", "good", "good-good", "still.good", "this.is.also.good", ".so.is.this", "THIS_IS_GOOD", "so_is_this_17"));
    assertInvalid(Validation::isConfigMapKey, List.of(".", "..", "..bad", "b*d", "bad!&bad"));
  }

  // TestIsRelaxedEnvVarName: 26 success + 12 failure
  @Test
  void isRelaxedEnvVarName_upstreamCases_classified() {
    assertValid(Validation::isRelaxedEnvVarName, List.of("-", ":", "_", "+a", ">a", "<a", "a.", "a..", "*a", "%a",
        "?a", "a:a", "a_a", "aAz", "~a", "|a", "a0a", "a9", "/a", "a ", "#a", "0a", "0 a", "'a", "(a", "@a"));
    assertInvalid(Validation::isRelaxedEnvVarName, List.of("", "=", "a=", "1=a", "a=b", "#%=&&", "\u0001abc",
        "\u0082abc", "\u00c7 \u00e7", "\u00c4 \u00e4", "\u00d1 \u00f1", "\u00d8 \u00f8"));
  }

  /** IsEnvVarName's message (the strict rule), with upstream's examples and regex. */
  @Test
  void isEnvVarName_digitFirstAndDotDot_exactUpstreamMessages() {
    assertThat(Validation.isEnvVarName("1a")).containsExactly("a valid environment variable name must consist of "
        + "alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or "
        + "'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')");
    assertThat(Validation.isEnvVarName("..a")).containsExactly("must not start with '..'");
    assertThat(Validation.isEnvVarName("a.b-c_D")).isEmpty();
  }

  @Test
  void isDNS1123Subdomain_uppercase_exactUpstreamMessage() {
    assertThat(Validation.isDNS1123Subdomain("A.B")).containsExactly(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
            + "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
            + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  }

  @Test
  void isDNS1123Label_validSubdomainWithDots_saysNoDots() {
    assertThat(Validation.isDNS1123Label("a.b")).containsExactly("must not contain dots");
  }

  @Test
  void isDNS1123Label_tooLongAndBad_reportsBoth() {
    assertThat(Validation.isDNS1123Label("A".repeat(64))).containsExactly(
        "must be no more than 63 characters",
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
            + "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
            + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  }

  @Test
  void isDNS1035Label_leadingDigit_exactUpstreamMessage() {
    assertThat(Validation.isDNS1035Label("1a")).containsExactly(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
            + "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
            + "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
  }

  // Detail text from component-helpers nodeaffinity_test.go "invalid field selector and label selector".
  @Test
  void isQualifiedName_space_exactUpstreamMessage() {
    assertThat(Validation.isQualifiedName("invalid key")).containsExactly(
        "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
            + "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
            + "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
  }

  @Test
  void isQualifiedName_emptyPrefixAndTwoSlashes_prefixAndKeyMessages() {
    assertThat(Validation.isQualifiedName("/simple")).containsExactly("prefix part must be non-empty");
    assertThat(Validation.isQualifiedName("a/b/c")).singleElement().asString()
        .startsWith("a valid label key must consist of alphanumeric characters")
        .endsWith("with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
    assertThat(Validation.isQualifiedName("Example.com/abc")).singleElement().asString()
        .startsWith("prefix part a lowercase RFC 1123 subdomain");
    assertThat(Validation.isQualifiedName("example.com/")).containsExactly("name part must be non-empty",
        "name part " + Validation.regexError(Validation.QUALIFIED_NAME_ERR_MSG, Validation.QUALIFIED_NAME_FMT,
            "MyName", "my.name", "123-abc"));
  }

  @Test
  void isValidLabelValue_tooLong_exactMessages() {
    assertThat(Validation.isValidLabelValue("a".repeat(64))).containsExactly("must be no more than 63 characters");
    assertThat(Validation.isValidLabelValue("a b")).containsExactly(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
            + "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex "
            + "used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
  }

  @Test
  void isValidLabelValue_multibyte_countsUtf8Bytes() {
    // 32 characters of 2 bytes each is 64 bytes: too long, as Go's len() says.
    assertThat(Validation.isValidLabelValue("ā".repeat(32))).contains("must be no more than 63 characters");
  }

  @Test
  void validateLabels_badKeyAndValue_violationsOnFieldPath() {
    List<Violation> v = Validation.validateLabels(Map.of("ok", "fine", "bad key", "-x"), "metadata.labels");
    assertThat(v).hasSize(2);
    assertThat(v).extracting(Violation::field).containsOnly("metadata.labels");
    assertThat(v).extracting(Violation::value).containsExactly("bad key", "-x");
    assertThat(v.get(0).toString()).startsWith("metadata.labels \"bad key\" name part must consist");
  }
}
