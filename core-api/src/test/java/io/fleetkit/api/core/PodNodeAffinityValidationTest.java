package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pod whose node affinity can never match is refused when it is built, naming the expression (Kubernetes'
 * {@code ValidateNodeSelectorRequirement}), instead of being accepted and never fitting.
 */
final class PodNodeAffinityValidationTest {
  private static final String EXPR = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
      + ".nodeSelectorTerms[0].matchExpressions[0]";

  private static ValidationException build(NodeSelectorOperator op, String... values) {
    NodeSelector required = new NodeSelector(List.of(new NodeSelectorTerm(
        List.of(new NodeSelectorRequirement("disk", op, List.of(values))), List.of())));
    return catchThrowableOfType(ValidationException.class, () -> Pod.builder().name("web")
        .container("app", "img", ResourceList.builder().put("cpu", "1").build())
        .affinity(new Affinity(new NodeAffinity(required, List.of()), null, null)).build());
  }

  @Test
  void build_inWithoutValues_refusedNamingTheField() {
    ValidationException e = build(NodeSelectorOperator.In);
    assertThat(e).isNotNull();
    Violation v = e.violations().get(0);
    assertThat(v.object()).isEqualTo("Pod default/web");
    assertThat(v.field()).isEqualTo(EXPR + ".values");
    assertThat(v.rule()).isEqualTo("must be specified when `operator` is 'In' or 'NotIn'");
  }

  @Test
  void build_gtWithANonInteger_refusedNamingTheValue() {
    ValidationException e = build(NodeSelectorOperator.Gt, "abc");
    assertThat(e).isNotNull();
    Violation v = e.violations().get(0);
    assertThat(v.field()).isEqualTo(EXPR + ".values[0]");
    assertThat(v.value()).isEqualTo("abc");
    assertThat(v.rule()).isEqualTo("for 'Gt', 'Lt' operators, the value must be an integer");
  }

  /** The scheduler's strconv.ParseInt reads ASCII digits only; Long.parseLong took "\u0663" (Arabic-Indic 3). */
  @Test
  void build_gtWithADigitOfAnotherScript_refused() {
    ValidationException e = build(NodeSelectorOperator.Gt, "\u0663");
    assertThat(e).isNotNull();
    Violation v = e.violations().get(0);
    assertThat(v.field()).isEqualTo(EXPR + ".values[0]");
    assertThat(v.value()).isEqualTo("\u0663");
    assertThat(v.rule()).isEqualTo("for 'Gt', 'Lt' operators, the value must be an integer");
    assertThat(build(NodeSelectorOperator.Lt, "+3")).as("a sign is an integer to ParseInt").isNull();
  }

  @Test
  void build_existsWithValues_refused() {
    assertThat(build(NodeSelectorOperator.Exists, "x").violations()).extracting(Violation::field)
        .containsExactly(EXPR + ".values");
  }

  @Test
  void build_validExpressions_accepted() {
    assertThat(build(NodeSelectorOperator.Gt, "-5")).isNull();
    assertThat(build(NodeSelectorOperator.In, "ssd", "nvme")).isNull();
  }
}
