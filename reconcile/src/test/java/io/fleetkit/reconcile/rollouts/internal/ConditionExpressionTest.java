package io.fleetkit.reconcile.rollouts.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricProvider;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Cases ported from argoproj/argo-rollouts {@code utils/evaluate/evaluate_test.go}. */
final class ConditionExpressionTest {
  private static final String INVALID_REF = "a == true";

  private static Metric metric(String success, String failure) {
    return Metric.of("m", new MetricProvider.Simulated("x")).withConditions(success, failure);
  }

  private static AnalysisPhase eval(Object result, String success, String failure) {
    return MetricConditions.evaluate(result, metric(success, failure)).phase();
  }

  // TestEvaluateResult* (8 tests)
  @Test
  void evaluateResult_table() {
    assertThat(eval(true, "true", "false")).isEqualTo(AnalysisPhase.Successful);
    assertThat(eval(true, "true", "true")).isEqualTo(AnalysisPhase.Failed);
    assertThat(eval(true, "false", "false")).isEqualTo(AnalysisPhase.Inconclusive);
    assertThat(eval(true, "", "false")).isEqualTo(AnalysisPhase.Successful);
    assertThat(eval(true, "false", "")).isEqualTo(AnalysisPhase.Failed);
    assertThat(eval(true, "", "")).isEqualTo(AnalysisPhase.Successful);
    MetricConditions.Verdict successErr = MetricConditions.evaluate(true, metric(INVALID_REF, "true"));
    assertThat(successErr.phase()).isEqualTo(AnalysisPhase.Error);
    assertThat(successErr.message()).isNotEmpty();
    MetricConditions.Verdict failureErr = MetricConditions.evaluate(true, metric("true", INVALID_REF));
    assertThat(failureErr.phase()).isEqualTo(AnalysisPhase.Error);
    assertThat(failureErr.message()).contains("failureCondition");
  }

  // TestEvaluateConditionWithSuccess / WithFailure / TestErrorWithNonBoolReturn / TestErrorWithInvalidReference
  @Test
  void evalCondition_basics() {
    assertThat(ConditionExpression.evalCondition(true, "result == true")).isTrue();
    assertThat(ConditionExpression.evalCondition(true, "result == false")).isFalse();
    assertThatThrownBy(() -> ConditionExpression.evalCondition(true, "1")).hasMessage("expected bool, but got int");
    assertThatThrownBy(() -> ConditionExpression.evalCondition(true, "invalidVariable"))
        .hasMessage("unknown name invalidVariable");
  }

  // TestEvaluateArray, TestEvaluateInOperator, TestEvaluateFloat64, TestEvaluateInvalidStruct
  @Test
  void evalCondition_arraysMapsAndOperators() {
    Map<String, Object> apdex = new java.util.HashMap<>();
    apdex.put("label", null);
    apdex.put("values", Map.of("values", List.of(2.0, 2.0)));
    assertThat(ConditionExpression.evalCondition(Map.of("service_apdex", apdex),
        "all(result.service_apdex.values.values, {# > 1})")).isTrue();
    assertThat(ConditionExpression.evalCondition(List.of(2.0, 2.0), "2 in result")).isTrue();
    assertThat(ConditionExpression.evalCondition(5.0, "result > 1")).isTrue();
    assertThatThrownBy(() -> ConditionExpression.evalCondition(true, "result.Name() == 'hi'"))
        .isInstanceOf(ConditionExpression.EvalException.class);
  }

  // TestEvaluateAsIntPanic, TestEvaluateAsInt (3), TestEvaluateAsFloatError (2), TestEvaluateAsFloat (7)
  @Test
  void asIntAndAsFloat() {
    assertThatThrownBy(() -> ConditionExpression.evalCondition("1.1", "asInt(result) == 1.1"))
        .isInstanceOf(ConditionExpression.EvalException.class);
    assertThat(ConditionExpression.evalCondition("1", "asInt(result) == 1")).isTrue();
    assertThat(ConditionExpression.evalCondition(1L, "asInt(result) == 1")).isTrue();
    assertThat(ConditionExpression.evalCondition(1.123, "asInt(result) == 1")).isTrue();
    assertThatThrownBy(() -> ConditionExpression.evalCondition("NotANum", "asFloat(result) == 1.1"))
        .hasMessageContaining("strconv.ParseFloat: parsing \"NotANum\": invalid syntax");
    assertThatThrownBy(() -> ConditionExpression.evalCondition("1.1", "asFloat(result) == \"1.1\""))
        .hasMessageContaining("invalid operation: == (mismatched types float64 and string)");
    for (Object[] c : new Object[][] {{"1.1", "asFloat(result) == 1.1"}, {"1.1", "asFloat(result) >= 1.1"},
        {"1.1", "asFloat(result) <= 1.1"}, {1.1, "asFloat(result) == 1.1"}, {1L, "asFloat(result) == 1"},
        {1L, "asFloat(result) >= 1"}, {1L, "asFloat(result) >= 1"}}) {
      assertThat(ConditionExpression.evalCondition(c[0], (String) c[1])).as(Arrays.toString(c)).isTrue();
    }
  }

  /** asInt is strconv.ParseInt(i, 10, 64): ASCII digits, no spaces; its error is Go's NumError text. */
  @Test
  void asInt_digitsOfAnotherScriptOrSpaces_goError() {
    assertThatThrownBy(() -> ConditionExpression.asInt("\u0663")).isInstanceOf(RuntimeException.class)
        .hasMessage("strconv.ParseInt: parsing \"\u0663\": invalid syntax");
    assertThatThrownBy(() -> ConditionExpression.asInt(" 1")).hasMessage("strconv.ParseInt: parsing \" 1\": "
        + "invalid syntax");
    assertThatThrownBy(() -> ConditionExpression.asInt("9223372036854775808"))
        .hasMessage("strconv.ParseInt: parsing \"9223372036854775808\": value out of range");
    assertThat(ConditionExpression.asInt("+7")).isEqualTo(7);
    assertThatThrownBy(() -> ConditionExpression.evalCondition("\uff13", "asInt(result) == 3"))
        .hasMessageContaining("strconv.ParseInt: parsing \"\uff13\": invalid syntax");
  }

  /** asFloat is strconv.ParseFloat(i, 64): Go's inf and nan spellings, no spaces and no Java d/f suffix. */
  @Test
  void asFloat_goFloatGrammar() {
    assertThat(ConditionExpression.asFloat("inf")).isInfinite();
    assertThat(ConditionExpression.asFloat("-Infinity")).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(ConditionExpression.asFloat("1_000.5")).isEqualTo(1000.5);
    assertThatThrownBy(() -> ConditionExpression.asFloat("1.5d")).isInstanceOf(RuntimeException.class)
        .hasMessage("strconv.ParseFloat: parsing \"1.5d\": invalid syntax");
    assertThatThrownBy(() -> ConditionExpression.asFloat(" 1")).hasMessage("strconv.ParseFloat: parsing \" 1\": "
        + "invalid syntax");
    assertThatThrownBy(() -> ConditionExpression.asFloat("1e400"))
        .hasMessage("strconv.ParseFloat: parsing \"1e400\": value out of range");
  }

  // TestAsInt, TestAsFloat, TestIsInf, TestDefaultFunc, TestIsNilFunc (as expressions)
  @Test
  void helpers() {
    assertThat(ConditionExpression.asInt("1")).isEqualTo(1);
    assertThatThrownBy(() -> ConditionExpression.asInt("notint")).isInstanceOf(RuntimeException.class);
    assertThatThrownBy(() -> ConditionExpression.asInt("1.1")).isInstanceOf(RuntimeException.class);
    assertThat(ConditionExpression.asFloat("1")).isEqualTo(1.0);
    assertThat(ConditionExpression.asFloat("1.1")).isEqualTo(1.1);
    assertThatThrownBy(() -> ConditionExpression.asFloat("notfloat")).isInstanceOf(RuntimeException.class);
    assertThat(ConditionExpression.evalCondition(Double.POSITIVE_INFINITY, "isInf(result)")).isTrue();
    assertThat(ConditionExpression.evalCondition(0.0, "isInf(result)")).isFalse();
    assertThat(ConditionExpression.evalCondition(null, "default(result, 0) == 0")).isTrue();
    assertThat(ConditionExpression.evalCondition(null, "default(result, 2) == 2")).isTrue();
    assertThat(ConditionExpression.evalCondition(1.0, "default(result, 0) == 1")).isTrue();
    assertThat(ConditionExpression.evalCondition(null, "isNil(result)")).isTrue();
    assertThat(ConditionExpression.evalCondition(1.0, "isNil(result)")).isFalse();
    assertThat(ConditionExpression.evalCondition(false, "isNil(result)")).isFalse();
    assertThat(ConditionExpression.evalCondition(Double.NaN, "isNaN(result)")).isTrue();
  }

  // TestEvaluateResultErrorMessageWithNilResult, ...WithEmptySlice, ...WithInvalidExpression, ...OnFailureCondition
  @Test
  void errorMessages_nameConditionAndEmptyResult() {
    MetricConditions.Verdict nil = MetricConditions.evaluate(null, metric("result[0] >= 0.95", ""));
    assertThat(nil.phase()).isEqualTo(AnalysisPhase.Error);
    assertThat(nil.message()).contains("metric result is nil or empty").contains("successCondition");
    MetricConditions.Verdict empty = MetricConditions.evaluate(List.of(), metric("result[0] >= 0.95", ""));
    assertThat(empty.phase()).isEqualTo(AnalysisPhase.Error);
    assertThat(empty.message()).contains("metric result is nil or empty").contains("successCondition");
    MetricConditions.Verdict invalid = MetricConditions.evaluate(List.of(0.5), metric("result[0] >= ", ""));
    assertThat(invalid.phase()).isEqualTo(AnalysisPhase.Error);
    assertThat(invalid.message()).contains("could not evaluate successCondition \"result[0] >= \"")
        .doesNotContain("nil or empty");
    MetricConditions.Verdict onFailure = MetricConditions.evaluate(null, metric("", "result[0] < 0.5"));
    assertThat(onFailure.message()).contains("failureCondition").contains("nil or empty");
  }

  @Test
  void typicalPrometheusConditions() {
    assertThat(ConditionExpression.evalCondition(List.of(0.97), "result[0] >= 0.95")).isTrue();
    assertThat(ConditionExpression.evalCondition(List.of(0.9), "result[0] >= 0.95 && result[0] <= 1")).isFalse();
    assertThat(ConditionExpression.evalCondition(0.02, "result < 0.05 || isNaN(result)")).isTrue();
    assertThat(ConditionExpression.evalCondition(3L, "result * 2 - 1 == 5 and not (result > 4)")).isTrue();
    assertThat(ConditionExpression.evalCondition(List.of(1L, 2L, 3L), "len(result) == 3")).isTrue();
  }

  /**
   * expr's lexer starts a number only at an ASCII digit and takes only ASCII digits into it; a digit of another
   * script (Arabic-Indic three, NKo one) is part of a name, as {@code unicode.IsDigit} makes it there.
   */
  @Test
  void evaluate_nonAsciiDigits_neverANumber() {
    assertThatThrownBy(() -> ConditionExpression.evaluate(null, "\u0663 == 3")).hasMessage("unknown name \u0663");
    assertThatThrownBy(() -> ConditionExpression.evaluate(null, "\u07c1 < 2")).hasMessage("unknown name \u07c1");
    assertThatThrownBy(() -> ConditionExpression.evaluate(null, "1\u0663 == 13"))
        .isInstanceOf(ConditionExpression.EvalException.class);
    assertThat(ConditionExpression.evaluate(null, "1.5e1 == 15")).isEqualTo(true);
    assertThatThrownBy(() -> ConditionExpression.evaluate(null, "1.\u0665 == 1.5"))
        .isInstanceOf(ConditionExpression.EvalException.class);
  }
}
