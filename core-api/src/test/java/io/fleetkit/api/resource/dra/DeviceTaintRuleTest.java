package io.fleetkit.api.resource.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * DeviceTaintRule: the cases of {@code TestValidateDeviceTaint} in kubernetes'
 * {@code pkg/apis/resource/validation/validation_devicetaintrule_test.go} (0b1dcaba), with their field paths and
 * messages, and the selector's matching (upstream's {@code ruleMatchesDevice} in
 * {@code pkg/controller/devicetainteviction/device_taint_eviction.go}).
 *
 * <p>Skipped cases: "bad-class", "CEL-compile-errors", "CEL-length" and "CEL-cost" test {@code deviceClassName} and
 * CEL {@code selectors}, which the newest API ({@code v1beta2}/{@code v1}) no longer has; "generate-name", "uid",
 * "resource-version", "generation", "creation-timestamp", "deletion-grace-period-seconds", "owner-references",
 * "finalizers", "managed-fields" set metadata FleetKit checks alike for every kind (ObjectMeta's own tests) or does
 * not model; "bad-annotations" (FleetKit does not check annotation keys); "invalid-taint" (a taint without an effect
 * cannot be built: {@link DeviceTaintEffect} is a required enum, the YAML reader reports the missing field).
 */
final class DeviceTaintRuleTest {
  private static final String GOOD = "foo";
  private static final String BAD = "!@#$%^";
  private static final String LABEL_MESSAGE = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
      + "characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
      + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  private static final String SUBDOMAIN_MESSAGE = "a lowercase RFC 1123 subdomain must consist of lower case "
      + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
      + "'example.com', regex used for validation is "
      + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  private static final DeviceTaint TAINT = DeviceTaint.of("example.com/taint", "tainted",
      DeviceTaintEffect.NO_SCHEDULE);
  private static final DeviceTaintSelector SELECTOR = new DeviceTaintSelector("test.example.com", GOOD, GOOD);

  private static DeviceTaintRule rule(ObjectMeta meta, DeviceTaintSelector selector, DeviceTaint taint) {
    return new DeviceTaintRule(meta, new DeviceTaintRuleSpec(selector, taint), DeviceTaintRuleStatus.EMPTY);
  }

  private static List<String> violations(ObjectMeta meta, DeviceTaintSelector selector, DeviceTaint taint) {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> rule(meta, selector, taint));
    assertThat(e).as("expected a ValidationException").isNotNull();
    List<String> out = new ArrayList<>();
    for (Violation v : e.violations()) {
      out.add(v.field() + " " + v.rule() + (v.value() == null ? "" : " [" + v.value() + "]"));
    }
    return out;
  }

  @Test
  void good_accepted() {
    assertThatCode(() -> rule(ObjectMeta.of(GOOD), SELECTOR, TAINT)).doesNotThrowAnyException();
  }

  @Test
  void missingName_required() {
    assertThat(violations(ObjectMeta.of(""), SELECTOR, TAINT))
        .containsExactly("metadata.name Required value: name or generateName is required");
  }

  @Test
  void badName_subdomainMessage() {
    assertThat(violations(ObjectMeta.of(BAD), SELECTOR, TAINT))
        .containsExactly("metadata.name " + SUBDOMAIN_MESSAGE + " [" + BAD + "]");
  }

  @Test
  void goodLabels_accepted() {
    ObjectMeta meta = ObjectMeta.of(GOOD).withLabels(Map.of("apps.kubernetes.io/name", "test"));
    assertThatCode(() -> rule(meta, SELECTOR, TAINT)).doesNotThrowAnyException();
  }

  @Test
  void goodAnnotations_accepted() {
    ObjectMeta meta = ObjectMeta.of(GOOD).toBuilder().annotation("foo", "bar").build();
    assertThatCode(() -> rule(meta, SELECTOR, TAINT)).doesNotThrowAnyException();
  }

  @Test
  void badLabels_labelValueMessage() {
    ObjectMeta meta = ObjectMeta.of(GOOD).withLabels(Map.of("hello-world", "spaces not allowed"));
    List<String> vs = violations(meta, SELECTOR, TAINT);
    assertThat(vs).hasSize(1);
    assertThat(vs.get(0)).startsWith("metadata.labels a valid label must be an empty string or consist of");
  }

  @Test
  void badDriver_subdomainMessage() {
    assertThat(violations(ObjectMeta.of(GOOD), new DeviceTaintSelector(BAD, GOOD, GOOD), TAINT))
        .containsExactly("spec.deviceSelector.driver " + SUBDOMAIN_MESSAGE + " [" + BAD + "]");
  }

  @Test
  void badPool_subdomainMessage() {
    assertThat(violations(ObjectMeta.of(GOOD), new DeviceTaintSelector("test.example.com", BAD, GOOD), TAINT))
        .containsExactly("spec.deviceSelector.pool " + SUBDOMAIN_MESSAGE + " [" + BAD + "]");
  }

  @Test
  void badDevice_labelMessage() {
    assertThat(violations(ObjectMeta.of(GOOD), new DeviceTaintSelector("test.example.com", GOOD, BAD), TAINT))
        .containsExactly("spec.deviceSelector.device " + LABEL_MESSAGE + " [" + BAD + "]");
  }

  @Test
  void validTaint_noExecuteAccepted() {
    assertThatCode(() -> rule(ObjectMeta.of(GOOD), SELECTOR, DeviceTaint.of(GOOD, GOOD,
        DeviceTaintEffect.NO_EXECUTE))).doesNotThrowAnyException();
  }

  @Test
  void badTaintKeyAndValue_namedWithTheirPaths() {
    List<String> vs = violations(ObjectMeta.of(GOOD), SELECTOR, DeviceTaint.of("", "spaces not allowed",
        DeviceTaintEffect.NO_EXECUTE));
    // an empty key breaks IsQualifiedName twice (empty name part, and its pattern), as upstream
    assertThat(vs).hasSize(3);
    assertThat(vs.subList(0, 2)).allMatch(v -> v.startsWith("spec.taint.key "));
    assertThat(vs.get(2)).startsWith("spec.taint.value a valid label must be an empty string");
  }

  @Test
  void status_atMostEightConditionsOfDistinctTypes() {
    List<Condition> nine = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      nine.add(Condition.of("Type" + i, ConditionStatus.True, "R", ""));
    }
    DeviceTaintRule r = rule(ObjectMeta.of(GOOD), SELECTOR, TAINT);
    assertThatThrownBy(() -> r.withStatus(new DeviceTaintRuleStatus(nine)))
        .isInstanceOf(ValidationException.class).hasMessageContaining("status.conditions")
        .hasMessageContaining("must have at most 8 items");
    Condition c = Condition.of(DeviceTaintRuleStatus.EVICTION_IN_PROGRESS, ConditionStatus.False, "NotStarted", "");
    assertThatThrownBy(() -> r.withStatus(new DeviceTaintRuleStatus(List.of(c, c))))
        .isInstanceOf(ValidationException.class).hasMessageContaining("status.conditions[1].type");
  }

  @Test
  void builder_settingTwiceFailsNamingTheOldValue() {
    assertThatThrownBy(() -> DeviceTaintRule.builder().name("a").name("b"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("name already set to a");
    DeviceTaintRule r = DeviceTaintRule.builder().name("gpu-0-broken")
        .deviceSelector(DeviceTaintSelector.device("gpu.example.com", "node-1", "gpu-0"))
        .taint("example.com/unhealthy", "", DeviceTaintEffect.NO_EXECUTE)
        .timeAdded(Instant.ofEpochSecond(1_700_000_000L)).build();
    assertThat(r.spec().taint().timeAdded()).isEqualTo(Instant.ofEpochSecond(1_700_000_000L));
    assertThat(r.matches("gpu.example.com", "node-1", "gpu-0")).isTrue();
    assertThat(r.matches("gpu.example.com", "node-1", "gpu-1")).isFalse();
  }

  @Test
  void selector_nullMatchesNothingEmptyMatchesEverything() {
    DeviceTaintRule none = new DeviceTaintRule(ObjectMeta.of("none"), new DeviceTaintRuleSpec(null, TAINT),
        DeviceTaintRuleStatus.EMPTY);
    DeviceTaintRule all = DeviceTaintRule.of("all", DeviceTaintSelector.ALL, TAINT);
    assertThat(none.matches("d", "p", "x")).isFalse();
    assertThat(all.matches("d", "p", "x")).isTrue();
  }

  @Test
  void deviceTaints_appendsMatchingRulesAfterTheDevicesOwn() {
    DeviceTaint own = DeviceTaint.of("own", "", DeviceTaintEffect.NONE);
    Device d = Device.builder("gpu-0").taint(own).build();
    DeviceTaintRule match = DeviceTaintRule.of("m", DeviceTaintSelector.driver("drv"), TAINT);
    DeviceTaintRule other = DeviceTaintRule.of("o", DeviceTaintSelector.driver("other"), TAINT);
    assertThat(DeviceTaintRule.deviceTaints("drv", "p", d, List.of(other, match))).containsExactly(own, TAINT);
    assertThat(DeviceTaintRule.deviceTaints("drv", "p", d, List.of(other))).containsExactly(own);
  }

  /** A set criterion must equal the device's; an unset one matches anything: matching is the conjunction. */
  @Property
  void matches_isConjunctionOfSetCriteria(@ForAll("names") String driver, @ForAll("names") String pool,
      @ForAll("names") String device, @ForAll("optionalNames") String sd, @ForAll("optionalNames") String sp,
      @ForAll("optionalNames") String sdev) {
    DeviceTaintSelector s = new DeviceTaintSelector(sd.isEmpty() ? null : sd, sp.isEmpty() ? null : sp,
        sdev.isEmpty() ? null : sdev);
    boolean expected = (sd.isEmpty() || sd.equals(driver)) && (sp.isEmpty() || sp.equals(pool))
        && (sdev.isEmpty() || sdev.equals(device));
    assertThat(s.matches(driver, pool, device)).isEqualTo(expected);
  }

  @Provide
  Arbitrary<String> names() {
    return Arbitraries.of("a", "b", "c");
  }

  @Provide
  Arbitrary<String> optionalNames() {
    return Arbitraries.of("", "a", "b");
  }
}
