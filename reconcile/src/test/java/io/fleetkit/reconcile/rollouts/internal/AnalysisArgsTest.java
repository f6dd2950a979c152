package io.fleetkit.reconcile.rollouts.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.rollouts.AnalysisArgument;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricProvider;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Argo Rollouts {@code utils/analysis/helpers_test.go} TestMergeArgs: how a run's arguments come from the templates'
 * declarations and the rollout's values; {@code utils/analysis/factory_test.go} TestResolveMetricArgs and
 * TestResolveMetricArgsWithQuotes: the values put in place of {@code {{args.NAME}}} in a metric.
 */
final class AnalysisArgsTest {
  private static AnalysisArgument unset(String name) {
    return new AnalysisArgument(name, null);
  }

  // "nil list" and "empty list": no arguments either way
  @Test
  void noArguments_none() {
    assertThat(AnalysisRuns.mergeArgs(List.of(), List.of())).isEmpty();
  }

  // "use defaults": the template's value (the second argument's secretKeyRef is not modelled; a value stands in)
  @Test
  void templateDefaults_used() {
    List<AnalysisArgument> args = AnalysisRuns.mergeArgs(List.of(),
        List.of(AnalysisArgument.of("foo", "bar"), AnalysisArgument.of("my-secret", "from-secret")));
    assertThat(args).containsExactly(AnalysisArgument.of("foo", "bar"), AnalysisArgument.of("my-secret", "from-secret"));
  }

  // "overwrite defaults"
  @Test
  void incomingValue_overwritesDefault() {
    assertThat(AnalysisRuns.mergeArgs(List.of(AnalysisArgument.of("foo", "overwrite")),
        List.of(AnalysisArgument.of("foo", "bar")))).containsExactly(AnalysisArgument.of("foo", "overwrite"));
  }

  // "not resolved"
  @Test
  void noValueAnywhere_notResolved() {
    assertThatThrownBy(() -> AnalysisRuns.mergeArgs(List.of(unset("foo")), List.of(unset("foo"))))
        .isInstanceOf(IllegalStateException.class).hasMessage("args.foo was not resolved");
  }

  // "extra arg": an incoming argument no template declares is dropped
  @Test
  void undeclaredIncomingArgument_dropped() {
    assertThat(AnalysisRuns.mergeArgs(List.of(AnalysisArgument.of("foo", "my-value"),
        AnalysisArgument.of("extra-arg", "extra-value")), List.of(unset("foo"))))
        .containsExactly(AnalysisArgument.of("foo", "my-value"));
  }

  // factory_test.go TestResolveMetricArgs: each metric's success condition gets its argument's value
  @Test
  void resolveMetricArgs_successConditions() {
    List<AnalysisArgument> args = List.of(AnalysisArgument.of("metric-name", "success-rate"),
        AnalysisArgument.of("metric-name2", "success-rate2"));
    Metric m1 = Metric.of("metric-name", new MetricProvider.Simulated("m"))
        .withConditions("result > {{args.metric-name}}", "");
    Metric m2 = Metric.of("metric-name2", new MetricProvider.Simulated("m"))
        .withConditions("result < {{args.metric-name2}}", "");
    assertThat(AnalysisRuns.substitute(m1, args).successCondition()).isEqualTo("result > success-rate");
    assertThat(AnalysisRuns.substitute(m2, args).successCondition()).isEqualTo("result < success-rate2");
  }

  // factory_test.go TestResolveMetricArgsWithQuotes: a value with quotes goes in unchanged
  @Test
  void resolveMetricArgs_valueWithQuotes_unchanged() {
    String value = "foo \"bar\" baz";
    Metric m = Metric.of("rate", new MetricProvider.Simulated("m")).withConditions("{{args.rate}}", "");
    assertThat(AnalysisRuns.substitute(m, List.of(AnalysisArgument.of("rate", value))).successCondition())
        .isEqualTo(value);
  }
}
