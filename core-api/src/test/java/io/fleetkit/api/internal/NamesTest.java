package io.fleetkit.api.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.labels.Validation;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fast pre-checks agree with {@link Validation}. Fixed cases from kubernetes/apimachinery
 * {@code pkg/util/validation/validation_test.go} TestIsDNS1123Label / TestIsDNS1123Subdomain.
 */
final class NamesTest {

  @ParameterizedTest
  @ValueSource(strings = {"a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2",
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
  void dnsLabel_good_true(String s) {
    assertThat(Names.isDnsLabel(s)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a",
      "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ", " a", "a b", "1 ", " 1", "1 2",
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
  void dnsLabel_bad_false(String s) {
    assertThat(Names.isDnsLabel(s)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2",
      "a.a", "ab.a", "abc.a", "a1.a", "a-1.a", "a--1--2--b.a", "a.1", "ab.1", "abc.1", "a1.1", "a-1.1",
      "a--1--2--b.1", "0.a", "01.a", "012.a", "1a.a", "1-a.a", "1--a--b--2", "0.1", "01.1", "012.1", "1a.1",
      "1-a.1", "1--a--b--2.1", "a.b.c.d.e", "aa.bb.cc.dd.ee", "1.2.3.4.5", "11.22.33.44.55"})
  void dnsSubdomain_good_true(String s) {
    assertThat(Names.isDnsSubdomain(s)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a",
      "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a..b", "1.", ".1", "1..2", " ", "a ", " a", "a b", "1 ", " 1",
      "1 2", "A.a", "aB.a", "ab.A", "A1.a", "a1.A", "A.1", "aB.1", "A1.1", "1A.1", "0.A", "01.A", "012.A", "1A.a",
      "1a.A", "A.B.C.D.E", "AA.BB.CC.DD.EE", "a.B.c.d.e", "aa.bB.cc.dd.ee", "a@b", "a,b", "a_b", "a;b", "a:b",
      "a%b", "a?b", "a$b"})
  void dnsSubdomain_bad_false(String s) {
    assertThat(Names.isDnsSubdomain(s)).isFalse();
  }

  @Property
  void fastChecks_agreeWithValidation(@ForAll @StringLength(max = 70) @CharRange(from = 'a', to = 'c')
      @CharRange(from = 'A', to = 'B') @CharRange(from = '0', to = '1') @Chars({'-', '.', '_', '/', ' '}) String s) {
    assertThat(Names.isDnsLabel(s)).isEqualTo(Validation.isDNS1123Label(s).isEmpty());
    assertThat(Names.isDnsSubdomain(s)).isEqualTo(Validation.isDNS1123Subdomain(s).isEmpty());
    assertThat(Names.isDns1035Label(s)).isEqualTo(Validation.isDNS1035Label(s).isEmpty());
    assertThat(Names.isQualifiedName(s)).isEqualTo(Validation.isQualifiedName(s).isEmpty());
    assertThat(Names.isLabelValue(s)).isEqualTo(Validation.isValidLabelValue(s).isEmpty());
    assertThat(Names.areLabels(Map.of(s, s))).isEqualTo(Validation.validateLabels(Map.of(s, s), "f").isEmpty());
  }

  @org.junit.jupiter.api.Test
  void dnsSubdomain_lengthLimit() {
    assertThat(Names.isDnsSubdomain("a".repeat(254))).isFalse();
    assertThat(Names.isDnsSubdomain("a".repeat(253))).isTrue(); // upstream's regex has no per-part limit
    assertThat(Validation.isDNS1123Subdomain("a".repeat(253))).isEmpty();
    assertThat(Names.isDnsLabel("a".repeat(64))).isFalse();
  }
}
