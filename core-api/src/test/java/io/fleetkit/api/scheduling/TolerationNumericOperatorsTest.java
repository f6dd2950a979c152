package io.fleetkit.api.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.Violation;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Gt and Lt toleration operators (KEP-5471). Upstream cases ported from kubernetes/api
 * {@code core/v1/toleration_test.go} at commit 10b39a39bcee995dfe7cd5e8e7b922be5e46f1e2 (published from
 * kubernetes/kubernetes ae5d4d35): the 8 Gt/Lt cases of TestTolerationToleratesTaint (all with the feature gate on,
 * which FleetKit always is) and the 30 cases of TestCompareNumericValues.
 */
final class TolerationNumericOperatorsTest {
  private static final TaintEffect NS = TaintEffect.NoSchedule;
  private static final String SLA = "node.kubernetes.io/sla";

  private static Toleration tol(String key, TolerationOperator op, String value) {
    return new Toleration(key, op, value, NS, null);
  }

  // ------------------------------------------------------ TestTolerationToleratesTaint (Gt/Lt cases)

  record ToleratesCase(String description, Toleration toleration, Taint taint, boolean expectTolerated,
      boolean expectError) {
    @Override
    public String toString() {
      return description;
    }
  }

  static Stream<ToleratesCase> toleratesTaintCases() {
    TolerationOperator gt = TolerationOperator.Gt;
    TolerationOperator lt = TolerationOperator.Lt;
    return Stream.of(
        new ToleratesCase("toleration with Gt operator - taint value less than toleration value, expect not tolerated",
            tol(SLA, gt, "950"), Taint.of(SLA, "800", NS), false, false),
        new ToleratesCase("toleration with Gt operator - taint value greater than toleration value, expect tolerated",
            tol(SLA, gt, "750"), Taint.of(SLA, "950", NS), true, false),
        new ToleratesCase("toleration with Lt operator - taint value greater than toleration value, expect not"
            + " tolerated", tol(SLA, lt, "800"), Taint.of(SLA, "950", NS), false, false),
        new ToleratesCase("toleration with Lt operator - taint value less than toleration value, expect tolerated",
            tol(SLA, lt, "950"), Taint.of(SLA, "800", NS), true, false),
        new ToleratesCase("toleration with Gt operator and taint with equal numeric value, expect not tolerated",
            tol(SLA, gt, "950"), Taint.of(SLA, "950", NS), false, false),
        new ToleratesCase("toleration with Gt operator and taint with non-numeric value, expect not tolerated",
            tol(SLA, gt, "950"), Taint.of(SLA, "high", NS), false, true),
        new ToleratesCase("toleration with Gt operator and negative numeric values - taint value less than threshold,"
            + " expect not tolerated", tol("test-key", gt, "-100"), Taint.of("test-key", "-200", NS), false, false),
        new ToleratesCase("toleration with Gt operator and large int64 values - taint value less than threshold,"
            + " expect not tolerated",
            tol("test-key", gt, "9223372036854775806"), Taint.of("test-key", "100", NS), false, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("toleratesTaintCases")
  void toleratesTaint_upstreamGtLtCases(ToleratesCase c) {
    assertThat(c.toleration().toleratesTaint(c.taint())).isEqualTo(c.expectTolerated());
    // upstream's expectError (a parse error, logged there): here comparisonError says it
    assertThat(c.toleration().comparisonError(c.taint()) != null).isEqualTo(c.expectError());
  }

  // ------------------------------------------------------ TestCompareNumericValues (30 cases)

  record CompareCase(String description, String tolerationVal, String taintVal, TolerationOperator operator,
      boolean expectedResult) {
    @Override
    public String toString() {
      return description;
    }
  }

  static Stream<CompareCase> compareNumericValuesCases() {
    TolerationOperator gt = TolerationOperator.Gt;
    TolerationOperator lt = TolerationOperator.Lt;
    return Stream.of(
        // Valid Gt operator cases
        new CompareCase("Gt operator - taint value greater than toleration value, expect true", "100", "200", gt,
            true),
        new CompareCase("Gt operator - taint value less than toleration value, expect false", "200", "100", gt,
            false),
        new CompareCase("Gt operator - taint value equal to toleration value, expect false", "100", "100", gt, false),
        new CompareCase("Gt operator - negative numbers, taint greater, expect true", "-100", "-50", gt, true),
        new CompareCase("Gt operator - negative numbers, taint less, expect false", "-50", "-100", gt, false),
        new CompareCase("Gt operator - zero and positive, expect true", "0", "1", gt, true),
        new CompareCase("Gt operator - large int64 values, taint greater, expect true", "9223372036854775806",
            "9223372036854775807", gt, true),
        // Valid Lt operator cases
        new CompareCase("Lt operator - taint value less than toleration value, expect true", "200", "100", lt, true),
        new CompareCase("Lt operator - taint value greater than toleration value, expect false", "100", "200", lt,
            false),
        new CompareCase("Lt operator - taint value equal to toleration value, expect false", "100", "100", lt, false),
        new CompareCase("Lt operator - negative numbers, taint less, expect true", "-50", "-100", lt, true),
        new CompareCase("Lt operator - negative numbers, taint greater, expect false", "-100", "-50", lt, false),
        new CompareCase("Lt operator - zero and negative, expect true", "0", "-1", lt, true),
        // Invalid toleration values - should return false
        new CompareCase("Gt operator - invalid toleration value (non-numeric), expect false", "abc", "100", gt,
            false),
        new CompareCase("Gt operator - invalid toleration value (empty string), expect false", "", "100", gt, false),
        new CompareCase("Gt operator - invalid toleration value (leading zero), expect false", "0100", "200", gt,
            false),
        new CompareCase("Gt operator - invalid toleration value (plus sign), expect false", "+100", "200", gt, false),
        new CompareCase("Gt operator - invalid toleration value (floating point), expect false", "100.5", "200", gt,
            false),
        new CompareCase("Gt operator - invalid toleration value (just minus sign), expect false", "-", "100", gt,
            false),
        // Invalid taint values - should return false
        new CompareCase("Gt operator - invalid taint value (non-numeric), expect false", "100", "xyz", gt, false),
        new CompareCase("Gt operator - invalid taint value (empty string), expect false", "100", "", gt, false),
        new CompareCase("Gt operator - invalid taint value (leading zero), expect false", "100", "0200", gt, false),
        new CompareCase("Lt operator - invalid taint value (plus sign), expect false", "100", "+200", lt, false),
        new CompareCase("Lt operator - invalid taint value (spaces), expect false", "100", " 200 ", lt, false),
        // Invalid operator - should return false
        new CompareCase("Equal operator (unsupported for numeric comparison), expect false", "100", "100",
            TolerationOperator.Equal, false),
        new CompareCase("Exists operator (unsupported for numeric comparison), expect false", "100", "100",
            TolerationOperator.Exists, false),
        // Edge cases with zero
        new CompareCase("Gt operator - both zero, expect false", "0", "0", gt, false),
        new CompareCase("Lt operator - both zero, expect false", "0", "0", lt, false),
        // Int64 boundary cases
        new CompareCase("Gt operator - max int64 as taint, expect true", "0", "9223372036854775807", gt, true),
        new CompareCase("Lt operator - min int64 as taint, expect true", "0", "-9223372036854775808", lt, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("compareNumericValuesCases")
  void compareNumericValues_upstreamCases(CompareCase c) {
    assertThat(Toleration.compareNumericValues(c.tolerationVal(), c.taintVal(), c.operator()))
        .isEqualTo(c.expectedResult());
  }

  @Test
  void compareNumericValues_upstreamTable_has30Cases() {
    assertThat(compareNumericValuesCases().count()).isEqualTo(30);
    assertThat(toleratesTaintCases().count()).isEqualTo(8);
  }

  // ------------------------------------------------------ FleetKit: errors, matching rules, validation

  @Test
  void comparisonError_nonNumericTaintValue_namesValueAndRule() {
    assertThat(tol(SLA, TolerationOperator.Gt, "950").comparisonError(Taint.of(SLA, "high", NS)))
        .isEqualTo("failed to parse taint value \"high\" as int64: must be a valid decimal integer in canonical form");
    assertThat(tol(SLA, TolerationOperator.Lt, "950").comparisonError(Taint.of(SLA, "", NS)))
        .isEqualTo("failed to parse taint value \"\" as int64: must be non-empty");
    assertThat(tol(SLA, TolerationOperator.Lt, "950").comparisonError(Taint.of(SLA, "9223372036854775808", NS)))
        .isEqualTo("failed to parse taint value \"9223372036854775808\" as int64: value out of range");
    // the toleration's own value is reported first
    assertThat(tol(SLA, TolerationOperator.Gt, "0950").comparisonError(Taint.of(SLA, "high", NS)))
        .isEqualTo("failed to parse toleration value \"0950\" as int64: must be a valid decimal integer in canonical"
            + " form");
  }

  @Test
  void comparisonError_otherKeyEffectOrOperator_isNull() {
    Taint high = Taint.of(SLA, "high", NS);
    assertThat(tol("other", TolerationOperator.Gt, "1").comparisonError(high)).isNull();
    assertThat(new Toleration(SLA, TolerationOperator.Gt, "1", TaintEffect.NoExecute, null).comparisonError(high))
        .isNull();
    assertThat(tol(SLA, TolerationOperator.Equal, "1").comparisonError(high)).isNull();
    assertThat(tol(SLA, TolerationOperator.Gt, "1").comparisonError(Taint.of(SLA, "2", NS))).isNull();
    assertThat(Taints.comparisonError(List.of(tol("other", TolerationOperator.Gt, "1"),
        tol(SLA, TolerationOperator.Lt, "5")), high)).startsWith("failed to parse taint value \"high\"");
    assertThat(Taints.comparisonError(List.of(Toleration.exists(SLA, NS)), high)).isNull();
  }

  @Test
  void toleratesTaint_gtLt_keyAndEffectRulesAsForEqual() {
    // a null effect matches every effect; the key must match
    Toleration any = new Toleration(SLA, TolerationOperator.Gt, "10", null, null);
    for (TaintEffect e : TaintEffect.values()) {
      assertThat(any.toleratesTaint(Taint.of(SLA, "11", e))).isTrue();
    }
    assertThat(any.toleratesTaint(Taint.of("other", "11", NS))).isFalse();
    assertThat(new Toleration(SLA, TolerationOperator.Lt, "10", TaintEffect.NoExecute, null)
        .toleratesTaint(Taint.of(SLA, "9", NS))).isFalse();
    assertThat(Toleration.greaterThan(SLA, 900, NS)).isEqualTo(tol(SLA, TolerationOperator.Gt, "900"));
    assertThat(Toleration.lessThan(SLA, -5, NS)).isEqualTo(tol(SLA, TolerationOperator.Lt, "-5"));
  }

  @Test
  void decimalInt64_canonicalFormAndRange() {
    for (String ok : List.of("0", "7", "-7", "100", "-100", "9223372036854775807", "-9223372036854775808",
        "9223372036854775799", "1000000000000000000")) {
      assertThat(DecimalInt64.error(ok)).as(ok).isNull();
    }
    for (String bad : List.of("-0", "00", "0700", "-01", "+5", "+0", "1.5", "1e3", " 1", "1 ", "0x10", "١")) {
      assertThat(DecimalInt64.error(bad)).as(bad).isEqualTo(DecimalInt64.NOT_CANONICAL);
    }
    for (String big : List.of("9223372036854775808", "-9223372036854775809", "12345678901234567890",
        "99999999999999999999")) {
      assertThat(DecimalInt64.error(big)).as(big).isEqualTo(DecimalInt64.OUT_OF_RANGE);
    }
    assertThat(DecimalInt64.error("")).isEqualTo(DecimalInt64.EMPTY);
  }

  @Property
  void compareNumericValues_anyTwoLongs_agreesWithLongCompare(@ForAll long toleration, @ForAll long taint) {
    String tv = Long.toString(toleration);
    String xv = Long.toString(taint);
    assertThat(DecimalInt64.error(tv)).isNull();
    assertThat(Toleration.compareNumericValues(tv, xv, TolerationOperator.Gt)).isEqualTo(taint > toleration);
    assertThat(Toleration.compareNumericValues(tv, xv, TolerationOperator.Lt)).isEqualTo(taint < toleration);
  }

  @Property
  void decimalInt64_anyString_acceptedExactlyWhenItIsALongsOwnSpelling(@ForAll String s) {
    boolean canonical;
    try {
      canonical = Long.toString(Long.parseLong(s)).equals(s);
    } catch (NumberFormatException e) {
      canonical = false;
    }
    assertThat(DecimalInt64.error(s) == null).isEqualTo(canonical);
  }

  @Test
  void validateTolerations_gtLt_requireCanonicalInt64Value() {
    List<Violation> v = SchedulingValidation.validateTolerations(List.of(
        tol(SLA, TolerationOperator.Gt, "950"),
        tol(SLA, TolerationOperator.Lt, "-9223372036854775808"),
        tol(SLA, TolerationOperator.Gt, ""),
        tol(SLA, TolerationOperator.Lt, "high"),
        tol(SLA, TolerationOperator.Gt, "0950"),
        tol(SLA, TolerationOperator.Gt, "+1"),
        tol(SLA, TolerationOperator.Lt, "9223372036854775808"),
        tol("", TolerationOperator.Gt, "1")), "spec.tolerations");
    assertThat(v).extracting(Violation::field).containsExactly(
        "spec.tolerations[2].value",
        "spec.tolerations[3].value",
        "spec.tolerations[4].value",
        "spec.tolerations[5].value",
        "spec.tolerations[6].value",
        "spec.tolerations[7].operator");
    assertThat(v).extracting(Violation::rule).containsExactly(
        "Required value",
        "must be a valid decimal integer in canonical form",
        "must be a valid decimal integer in canonical form",
        "must be a valid decimal integer in canonical form",
        "must be in the range -9223372036854775808 to 9223372036854775807",
        "operator must be Exists when `key` is empty, which means \"match all values and all keys\"");
    assertThat(v).extracting(Violation::value).containsExactly(
        null, "high", "0950", "+1", "9223372036854775808", "Gt");
  }

  @Test
  void validateTolerations_gtLtWithNoExecuteSeconds_valid() {
    assertThat(SchedulingValidation.validateTolerations(List.of(
        new Toleration(SLA, TolerationOperator.Gt, "0", TaintEffect.NoExecute, 30L),
        new Toleration(SLA, TolerationOperator.Lt, "5", null, null)), "spec.tolerations")).isEmpty();
  }
}
