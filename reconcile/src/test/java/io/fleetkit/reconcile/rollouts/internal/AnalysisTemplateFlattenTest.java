package io.fleetkit.reconcile.rollouts.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.rollouts.AnalysisArgument;
import io.fleetkit.api.rollouts.AnalysisRunSpec;
import io.fleetkit.api.rollouts.AnalysisTemplate;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricProvider;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Argo Rollouts {@code utils/analysis/helpers_test.go} TestFlattenTemplates and TestNewAnalysisRunFromTemplates: how
 * the metrics and arguments of several templates make one run. A FleetKit template holds at least one metric, so the
 * upstream argument cases' templates without metrics get one each (distinct names; only the arguments are asserted).
 */
final class AnalysisTemplateFlattenTest {
  private static int counter;

  private static Metric metric(String name, String successCondition) {
    return Metric.of(name, new MetricProvider.Simulated("m")).withConditions(successCondition, "");
  }

  private static AnalysisTemplate template(List<Metric> metrics, List<AnalysisArgument> args) {
    return new AnalysisTemplate(ObjectMeta.of("default", "t" + (++counter)), metrics, args);
  }

  private static AnalysisTemplate argsOnly(AnalysisArgument... args) {
    return template(List.of(metric("m" + (counter + 1), "true")), List.of(args));
  }

  // TestFlattenTemplates "Handle empty list"
  @Test
  void flatten_noTemplates_noMetricsNoArgs() {
    AnalysisRuns.Flattened flat = AnalysisRuns.flatten(List.of());
    assertThat(flat.metrics()).isEmpty();
    assertThat(flat.args()).isEmpty();
  }

  // "No changes on single template"
  @Test
  void flatten_singleTemplate_unchanged() {
    AnalysisTemplate orig = template(List.of(metric("foo", "{{args.test}}")),
        List.of(AnalysisArgument.of("test", "true")));
    AnalysisRuns.Flattened flat = AnalysisRuns.flatten(List.of(orig));
    assertThat(flat.metrics()).isEqualTo(orig.metrics());
    assertThat(flat.args()).isEqualTo(orig.args());
  }

  // "Merge multiple metrics successfully" (its dry-run and measurement-retention entries are not modelled)
  @Test
  void flatten_twoTemplates_metricsInOrderNoArgs() {
    Metric foo = metric("foo", "true");
    Metric bar = metric("bar", "true");
    AnalysisRuns.Flattened flat = AnalysisRuns.flatten(List.of(template(List.of(foo), List.of()),
        template(List.of(bar), List.of())));
    assertThat(flat.args()).isEmpty();
    assertThat(flat.metrics()).hasSize(2);
    assertThat(flat.metrics().get(0)).isEqualTo(foo);
    assertThat(flat.metrics().get(1)).isEqualTo(bar);
  }

  // "Merge fail with name collision"
  @Test
  void flatten_sameMetricNameTwice_refused() {
    Metric foo = metric("foo", "true");
    assertThatThrownBy(() -> AnalysisRuns.flatten(List.of(template(List.of(foo), List.of()),
        template(List.of(foo), List.of())))).isInstanceOf(IllegalStateException.class)
        .hasMessage("two metrics have the same name 'foo'");
  }

  // "Merge multiple args successfully"
  @Test
  void flatten_argsOfTwoTemplates_inOrder() {
    AnalysisArgument foo = AnalysisArgument.of("foo", "true");
    AnalysisArgument bar = AnalysisArgument.of("bar", "true");
    AnalysisRuns.Flattened flat = AnalysisRuns.flatten(List.of(argsOnly(foo), argsOnly(bar)));
    assertThat(flat.args()).hasSize(2);
    assertThat(flat.args().get(0)).isEqualTo(foo);
    assertThat(flat.args().get(1)).isEqualTo(bar);
  }

  // " Merge args with same name but only one has value" (the valued one first, as upstream; and the other order)
  @Test
  void flatten_sameArgWithAndWithoutValue_valueKept() {
    AnalysisArgument withValue = AnalysisArgument.of("foo", "true");
    AnalysisArgument noValue = new AnalysisArgument("foo", null);
    AnalysisRuns.Flattened flat = AnalysisRuns.flatten(List.of(argsOnly(withValue), argsOnly(noValue)));
    assertThat(flat.args()).hasSize(1).contains(withValue);
    assertThat(AnalysisRuns.flatten(List.of(argsOnly(noValue), argsOnly(withValue))).args())
        .containsExactly(withValue);
  }

  // "Error: merge args with same name and both have values"
  @Test
  void flatten_sameArgWithDifferentValues_refused() {
    assertThatThrownBy(() -> AnalysisRuns.flatten(List.of(argsOnly(AnalysisArgument.of("foo", "true")),
        argsOnly(AnalysisArgument.of("foo", "false"))))).isInstanceOf(IllegalStateException.class)
        .hasMessage("Argument `foo` specified multiple times with different values: 'true', 'false'");
  }

  // TestNewAnalysisRunFromTemplates: the run's arguments come from the rollout's values (the secretKeyRef argument is
  // not modelled; a value stands in); then an undeclared-valued argument, then a second template repeating the
  // metric: the flattening error comes first. The run's name and namespace are given by the caller here
  // (AnalysisRuns.ensure), not by this function.
  @Test
  void newRunFromTemplates_argsResolved_thenUnresolved_thenMetricCollision() {
    List<AnalysisArgument> declared = new ArrayList<>(List.of(new AnalysisArgument("my-arg", null),
        new AnalysisArgument("my-secret", null)));
    List<Metric> metrics = List.of(Metric.of("success-rate", new MetricProvider.Simulated("m")));
    AnalysisArgument arg = AnalysisArgument.of("my-arg", "my-val");
    AnalysisArgument secretArg = AnalysisArgument.of("my-secret", "from-secret");
    List<AnalysisArgument> args = List.of(arg, secretArg);

    AnalysisRunSpec run = AnalysisRuns.runSpec(List.of(template(metrics, declared)), args);
    assertThat(run.args()).hasSize(2).contains(arg, secretArg);
    assertThat(run.metrics()).extracting(Metric::name).containsExactly("success-rate");
    assertThat(run.terminate()).isFalse();

    declared.add(new AnalysisArgument("unresolved", null));
    AnalysisTemplate withUnresolved = template(metrics, declared);
    assertThatThrownBy(() -> AnalysisRuns.runSpec(List.of(withUnresolved), args))
        .isInstanceOf(IllegalStateException.class).hasMessage("args.unresolved was not resolved");

    AnalysisTemplate matchingMetric = template(List.of(Metric.of("success-rate", new MetricProvider.Simulated("m"))),
        List.of());
    assertThatThrownBy(() -> AnalysisRuns.runSpec(List.of(withUnresolved, matchingMetric), args))
        .isInstanceOf(IllegalStateException.class).hasMessage("two metrics have the same name 'success-rate'");
  }
}
