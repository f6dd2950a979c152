package io.fleetkit.api.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

final class TaintsTest {
  private static final TaintEffect NS = TaintEffect.NoSchedule;
  private static final TaintEffect NE = TaintEffect.NoExecute;
  private static final TaintEffect PNS = TaintEffect.PreferNoSchedule;

  private static Toleration tol(String key, TolerationOperator op, String value, @Nullable TaintEffect effect) {
    return new Toleration(key, op, value, effect, null);
  }

  // Ported from kubernetes staging/src/k8s.io/api/core/v1/toleration_test.go TestTolerationToleratesTaint: the 6
  // cases without the Gt/Lt operators; the 8 Gt/Lt cases are in TolerationNumericOperatorsTest.
  @Test
  void toleratesTaint_upstreamCases() {
    assertThat(Toleration.exists("foo", NS).toleratesTaint(Taint.of("foo", "", NS))).isTrue();
    assertThat(Toleration.exists("foo", NS).toleratesTaint(Taint.of("foo", "bar", NS))).isTrue();
    assertThat(Toleration.exists("", NS).toleratesTaint(Taint.of("foo", "bar", NS))).isTrue();
    assertThat(Toleration.equal("foo", "bar", NS).toleratesTaint(Taint.of("foo", "bar", NS))).isTrue();
    assertThat(Toleration.equal("foo", "value1", NS).toleratesTaint(Taint.of("foo", "value2", NS))).isFalse();
    assertThat(Toleration.equal("foo", "bar", NS).toleratesTaint(Taint.of("foo", "bar", NE))).isFalse();
  }

  @Test
  void toleratesTaint_nullEffectAndEmptyKeyExists_toleratesEverything() {
    Toleration all = Toleration.exists("", null);
    for (TaintEffect e : TaintEffect.values()) {
      assertThat(all.toleratesTaint(Taint.of("any", "v", e))).isTrue();
      assertThat(Toleration.equal("k", "v", null).toleratesTaint(Taint.of("k", "v", e))).isTrue();
    }
    assertThat(Toleration.exists("other", null).toleratesTaint(Taint.of("k", "v", NS))).isFalse();
    // Empty key with Equal (invalid, but defined upstream): compares the value only.
    assertThat(Toleration.equal("", "v", null).toleratesTaint(Taint.of("k", "v", NS))).isTrue();
  }

  // Ported from kubernetes component-helpers scheduling/corev1/helpers_test.go TestFindMatchingUntoleratedTaint
  // (kubernetes/component-helpers 1961876b): the 6 cases without the Gt/Lt operators; the 4 with them follow.
  @Test
  void findMatchingUntoleratedTaint_upstreamCases() {
    Predicate<Taint> all = t -> true;
    Toleration fooNs = tol("foo", TolerationOperator.Exists, "", NS);
    assertThat(Taints.findMatchingUntoleratedTaint(List.of(), List.of(), all)).isEmpty();
    assertThat(Taints.findMatchingUntoleratedTaint(List.of(), List.of(fooNs), all)).isEmpty();
    assertThat(Taints.findMatchingUntoleratedTaint(List.of(Taint.of("foo", "", NS)), List.of(fooNs), all)).isEmpty();
    assertThat(Taints.findMatchingUntoleratedTaint(List.of(Taint.of("bar", "", NS)), List.of(fooNs), t -> false))
        .isEmpty();
    assertThat(Taints.findMatchingUntoleratedTaint(List.of(Taint.of("bar", "", NS)), List.of(fooNs), null))
        .contains(Taint.of("bar", "", NS));
    assertThat(Taints.findMatchingUntoleratedTaint(List.of(Taint.of("foo", "", NE), Taint.of("bar", "", NS)),
        List.of(tol("foo", TolerationOperator.Exists, "", NE)), Taints.NO_EXECUTE)).isEmpty();
  }

  // The 4 TestFindMatchingUntoleratedTaint cases with the Gt/Lt operators (upstream runs them with the
  // TaintTolerationComparisonOperators gate on; FleetKit has no gates). The non-numeric case's expectError is the
  // comparison error FleetKit reports through Taints.comparisonError.
  @Test
  void findMatchingUntoleratedTaint_upstreamGtLtCases() {
    Predicate<Taint> all = t -> true;
    String sla = "node.kubernetes.io/sla";
    // numeric Gt operator with taint value below threshold, expect not tolerated
    assertThat(Taints.findMatchingUntoleratedTaint(List.of(Taint.of(sla, "800", NS)),
        List.of(tol(sla, TolerationOperator.Gt, "950", NS)), all)).contains(Taint.of(sla, "800", NS));
    // numeric Gt operator with taint value above threshold, expect tolerated
    assertThat(Taints.findMatchingUntoleratedTaint(List.of(Taint.of(sla, "950", NS)),
        List.of(tol(sla, TolerationOperator.Gt, "750", NS)), all)).isEmpty();
    // numeric Lt operator with taint value above threshold, expect not tolerated
    assertThat(Taints.findMatchingUntoleratedTaint(List.of(Taint.of(sla, "950", NS)),
        List.of(tol(sla, TolerationOperator.Lt, "800", NS)), all)).contains(Taint.of(sla, "950", NS));
    // numeric Gt operator with non-numeric taint value, expect not tolerated (and an error)
    List<Toleration> gt950 = List.of(tol(sla, TolerationOperator.Gt, "950", NS));
    Taint high = Taint.of(sla, "high", NS);
    assertThat(Taints.findMatchingUntoleratedTaint(List.of(high), gt950, all)).contains(high);
    assertThat(Taints.comparisonError(gt950, high))
        .isEqualTo("failed to parse taint value \"high\" as int64: must be a valid decimal integer in canonical form");
  }

  @Test
  void findMatchingUntoleratedTaint_schedulingFilter_firstUntoleratedHardTaint() {
    List<Taint> taints = List.of(Taint.of("soft", "", PNS), Taint.of("a", "1", NS), Taint.of("b", "", NE));
    assertThat(Taints.findMatchingUntoleratedTaint(taints, List.of(), Taints.NO_SCHEDULE_OR_NO_EXECUTE))
        .contains(Taint.of("a", "1", NS));
    assertThat(Taints.findMatchingUntoleratedTaint(taints, List.of(Toleration.equal("a", "1", null)),
        Taints.NO_SCHEDULE_OR_NO_EXECUTE)).contains(Taint.of("b", "", NE));
    assertThat(Taints.tolerationsTolerateTaint(List.of(Toleration.exists("", null)), taints.get(2))).isTrue();
  }

  @Test
  void countIntolerableTaintsPreferNoSchedule_onlyPreferNoScheduleTolerationsCount() {
    List<Taint> taints = List.of(Taint.of("a", "", PNS), Taint.of("b", "", PNS), Taint.of("c", "", NS));
    assertThat(Taints.countIntolerableTaintsPreferNoSchedule(taints, List.of())).isEqualTo(2);
    assertThat(Taints.countIntolerableTaintsPreferNoSchedule(taints, List.of(Toleration.exists("a", null))))
        .isEqualTo(1);
    // A NoSchedule toleration does not count for PreferNoSchedule taints.
    assertThat(Taints.countIntolerableTaintsPreferNoSchedule(taints, List.of(Toleration.exists("", NS))))
        .isEqualTo(2);
    assertThat(Taints.countIntolerableTaintsPreferNoSchedule(taints, List.of(Toleration.exists("", PNS))))
        .isZero();
  }

  @Test
  void matchingTolerations_andMinTolerationSeconds_taintEvictionSemantics() {
    Toleration t300 = new Toleration("a", TolerationOperator.Exists, "", NE, 300L);
    Toleration t60 = new Toleration("b", TolerationOperator.Exists, "", NE, 60L);
    Toleration forever = Toleration.exists("c", NE);
    assertThat(Taints.matchingTolerations(List.of(), List.of())).contains(List.of());
    assertThat(Taints.matchingTolerations(List.of(Taint.of("a", "", NE)), List.of())).isEmpty();
    Optional<List<Toleration>> used = Taints.matchingTolerations(
        List.of(Taint.of("a", "", NE), Taint.of("b", "", NE)), List.of(t300, t60, forever));
    assertThat(used).contains(List.of(t300, t60));
    assertThat(Taints.minTolerationSeconds(used.orElseThrow())).isEqualTo(60);
    assertThat(Taints.minTolerationSeconds(List.of(forever))).isEqualTo(-1);
    assertThat(Taints.minTolerationSeconds(List.of())).isZero();
    assertThat(Taints.minTolerationSeconds(List.of(t300, new Toleration("d", TolerationOperator.Exists, "", NE, -5L))))
        .isZero();
  }
}
