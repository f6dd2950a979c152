package io.fleetkit.api.policy;

import io.fleetkit.api.meta.IntOrPercent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class PodDisruptionBudgetTest {
  private static final ObjectMeta META = ObjectMeta.of("default", "web-pdb");
  private static final LabelSelector WEB = LabelSelector.of(Map.of("app", "web"));

  private static List<Violation> violations(Runnable r) {
    return catchThrowableOfType(ValidationException.class, r::run).violations();
  }

  @Test
  void of_minAvailable_validWithEmptyStatus() {
    PodDisruptionBudget pdb = PodDisruptionBudget.of(META,
        PodDisruptionBudgetSpec.minAvailable(WEB, IntOrPercent.of(2)));

    assertThat(pdb.spec().minAvailable()).isEqualTo(IntOrPercent.of(2));
    assertThat(pdb.spec().effectiveUnhealthyPodEvictionPolicy())
        .isEqualTo(UnhealthyPodEvictionPolicyType.IfHealthyBudget);
    assertThat(pdb.status()).isEqualTo(PodDisruptionBudgetStatus.EMPTY);
    assertThat(pdb.apiVersion()).isEqualTo("policy/v1");
  }

  @Test
  void constructor_bothSetAndOutOfRange_reportsEveryViolation() {
    PodDisruptionBudgetSpec spec =
        new PodDisruptionBudgetSpec(IntOrPercent.of(-1), WEB, IntOrPercent.ofPercent(101), null);

    List<Violation> v = violations(() -> PodDisruptionBudget.of(META, spec));

    assertThat(v).extracting(Violation::toString).containsExactly(
        "PodDisruptionBudget default/web-pdb: spec \"minAvailable: -1, maxUnavailable: 101%\" minAvailable and "
            + "maxUnavailable cannot be both set",
        "PodDisruptionBudget default/web-pdb: spec.minAvailable \"-1\" must be greater than or equal to 0",
        "PodDisruptionBudget default/web-pdb: spec.maxUnavailable \"101%\" must not be greater than 100%");
  }

  // Ported from kubernetes/kubernetes pkg/apis/policy/validation/validation_test.go TestValidatePodDisruptionBudgetSpec:
  // successCases "0%", "1%", "100%", 0, 1, 100; failureCases "1.1%", "nope", "-1%" (malformed strings, rejected by
  // IntOrPercent.parse here), "101%", -1 (rejected by the PodDisruptionBudget constructor). Applied to both fields.
  @Test
  void constructor_upstreamSpecCases_acceptedOrRejected() {
    for (IntOrPercent value : List.of(IntOrPercent.parse("0%"), IntOrPercent.parse("1%"), IntOrPercent.parse("100%"),
        IntOrPercent.of(0), IntOrPercent.of(1), IntOrPercent.of(100))) {
      assertThat(PodDisruptionBudget.of(META, PodDisruptionBudgetSpec.minAvailable(WEB, value)).spec().minAvailable())
          .isEqualTo(value);
      assertThat(PodDisruptionBudget.of(META, PodDisruptionBudgetSpec.maxUnavailable(WEB, value)).spec()
          .maxUnavailable()).isEqualTo(value);
    }
    for (String malformed : List.of("1.1%", "nope", "-1%")) {
      assertThatThrownBy(() -> IntOrPercent.parse(malformed)).as(malformed)
          .isInstanceOf(IllegalArgumentException.class);
    }
    for (IntOrPercent value : List.of(IntOrPercent.parse("101%"), IntOrPercent.of(-1))) {
      assertThat(violations(() -> PodDisruptionBudget.of(META, PodDisruptionBudgetSpec.minAvailable(WEB, value))))
          .as(value.toString()).extracting(Violation::field).containsExactly("spec.minAvailable");
      assertThat(violations(() -> PodDisruptionBudget.of(META, PodDisruptionBudgetSpec.maxUnavailable(WEB, value))))
          .as(value.toString()).extracting(Violation::field).containsExactly("spec.maxUnavailable");
    }
  }

  @Test
  void constructor_neitherSet_required() {
    assertThat(violations(() -> PodDisruptionBudget.of(META, new PodDisruptionBudgetSpec(null, WEB, null, null))))
        .singleElement().satisfies(v -> assertThat(v.toString()).isEqualTo(
            "PodDisruptionBudget default/web-pdb: spec Required value: one of minAvailable or maxUnavailable must be "
                + "set"));
  }

  @Test
  void constructor_negativeStatusCounts_rejected() {
    PodDisruptionBudget pdb = PodDisruptionBudget.of(META, PodDisruptionBudgetSpec.minAvailable(WEB,
        IntOrPercent.of(1)));
    PodDisruptionBudgetStatus bad = new PodDisruptionBudgetStatus(1, Map.of(), -1, 0, -2, 0, List.of());

    assertThat(violations(() -> pdb.withStatus(bad))).extracting(Violation::field)
        .containsExactly("status.disruptionsAllowed", "status.desiredHealthy");
  }

  @Test
  void intOrPercent_parseAndScale_likeUpstream() {
    assertThat(IntOrPercent.parse("50%")).isEqualTo(IntOrPercent.ofPercent(50));
    assertThat(IntOrPercent.ofPercent(50).toString()).isEqualTo("50%");
    assertThat(IntOrPercent.of(3).toString()).isEqualTo("3");
    assertThatThrownBy(() -> IntOrPercent.parse("5")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a valid percent string must be a numeric string followed by an ending '%'");
    assertThatThrownBy(() -> IntOrPercent.parse("-5%")).isInstanceOf(IllegalArgumentException.class);
    // GetScaledValueFromIntOrPercent: 50% of 5 is 3 rounded up, 2 rounded down; ints are kept as they are.
    assertThat(IntOrPercent.ofPercent(50).scaledValue(5, true)).isEqualTo(3);
    assertThat(IntOrPercent.ofPercent(50).scaledValue(5, false)).isEqualTo(2);
    assertThat(IntOrPercent.ofPercent(10).scaledValue(10, true)).isEqualTo(1);
    assertThat(IntOrPercent.ofPercent(0).scaledValue(7, true)).isZero();
    assertThat(IntOrPercent.of(4).scaledValue(2, true)).isEqualTo(4);
  }

  @Test
  void withStatusOf_takesStatusOnly() {
    PodDisruptionBudget mine = PodDisruptionBudget.of(META, PodDisruptionBudgetSpec.minAvailable(WEB,
        IntOrPercent.of(1)));
    PodDisruptionBudget theirs = PodDisruptionBudget.of(META, PodDisruptionBudgetSpec.maxUnavailable(WEB,
        IntOrPercent.ofPercent(25))).withStatus(new PodDisruptionBudgetStatus(3, Map.of(), 1, 3, 2, 3,
        List.of(Condition.of(PodDisruptionBudgetStatus.DISRUPTION_ALLOWED, ConditionStatus.True,
            PodDisruptionBudgetStatus.SUFFICIENT_PODS, ""))));

    PodDisruptionBudget merged = mine.withStatusOf(theirs);

    assertThat(merged.status().disruptionsAllowed()).isEqualTo(1);
    assertThat(merged.status().conditions()).singleElement().matches(Condition::isTrue);
    assertThat(merged.spec()).isEqualTo(mine.spec());
  }
}
