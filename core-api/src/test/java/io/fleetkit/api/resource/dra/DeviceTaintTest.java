package io.fleetkit.api.resource.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * Device taints and tolerations: matching as kubernetes' {@code resourceclaim.ToleratesTaint}
 * ({@code staging/src/k8s.io/dynamic-resource-allocation/resourceclaim/devicetoleration.go}) and the allocator's
 * {@code taintPreventsAllocation}, and the rules of {@code validateDeviceTaint} and {@code validateDeviceToleration}
 * ({@code pkg/apis/resource/validation/validation.go}) with their field paths and messages.
 */
final class DeviceTaintTest {
  private static final DeviceTaint NO_SCHEDULE = DeviceTaint.of("taint-key", "taint-value", DeviceTaintEffect.NO_SCHEDULE);
  private static final DeviceTaint NO_EXECUTE = DeviceTaint.of("taint-key", "taint-value-2",
      DeviceTaintEffect.NO_EXECUTE);
  private static final DeviceTaint NONE = DeviceTaint.of("taint-key", "taint-value", DeviceTaintEffect.NONE);

  @Test
  void toleratesTaint_effectKeyAndValueMustMatch() {
    assertThat(DeviceToleration.exists("taint-key", DeviceTaintEffect.NO_SCHEDULE).toleratesTaint(NO_SCHEDULE))
        .isTrue();
    assertThat(DeviceToleration.exists("taint-key", DeviceTaintEffect.NO_SCHEDULE).toleratesTaint(NO_EXECUTE))
        .isFalse();
    assertThat(DeviceToleration.equal("taint-key", "taint-value-2", DeviceTaintEffect.NO_EXECUTE)
        .toleratesTaint(NO_EXECUTE)).isTrue();
    assertThat(DeviceToleration.equal("taint-key", "taint-value", null).toleratesTaint(NO_EXECUTE)).isFalse();
    assertThat(DeviceToleration.equal("other-key", "taint-value", null).toleratesTaint(NO_SCHEDULE)).isFalse();
    assertThat(DeviceToleration.exists("", null).toleratesTaint(NO_EXECUTE)).isTrue();
    // an empty key with Equal matches every key with that value (upstream does not refuse it)
    assertThat(DeviceToleration.equal("", "taint-value", null).toleratesTaint(NO_SCHEDULE)).isTrue();
  }

  @Test
  void preventsAllocation_onlyUntoleratedNoScheduleAndNoExecute() {
    assertThat(NONE.preventsAllocation(List.of())).isFalse();
    assertThat(NO_SCHEDULE.preventsAllocation(List.of())).isTrue();
    assertThat(NO_EXECUTE.preventsAllocation(List.of())).isTrue();
    assertThat(NO_EXECUTE.preventsAllocation(List.of(DeviceToleration.exists("taint-key", null)))).isFalse();
    assertThat(NO_EXECUTE.preventsAllocation(List.of(DeviceToleration.exists("taint-key",
        DeviceTaintEffect.NO_SCHEDULE)))).isTrue();
  }

  @Property
  void existsWithEmptyKeyAndNoEffect_toleratesEveryTaint(@ForAll("taints") DeviceTaint taint) {
    assertThat(DeviceToleration.exists("", null).toleratesTaint(taint)).isTrue();
    assertThat(taint.preventsAllocation(List.of(DeviceToleration.exists("", null)))).isFalse();
  }

  @Property
  void aTolerationForTheTaintItself_toleratesIt(@ForAll("taints") DeviceTaint taint) {
    assertThat(DeviceToleration.equal(taint.key(), taint.value(), taint.effect()).toleratesTaint(taint)).isTrue();
    assertThat(DeviceToleration.exists(taint.key(), taint.effect()).toleratesTaint(taint)).isTrue();
  }

  @Property
  void preventsAllocation_isNoneOfTheTolerationsTolerating(@ForAll("taints") DeviceTaint taint,
      @ForAll("tolerationLists") List<DeviceToleration> tolerations) {
    boolean tolerated = tolerations.stream().anyMatch(t -> t.toleratesTaint(taint));
    assertThat(taint.preventsAllocation(tolerations))
        .isEqualTo(taint.effect() != DeviceTaintEffect.NONE && !tolerated);
  }

  @Provide
  Arbitrary<DeviceTaint> taints() {
    return Combinators.combine(Arbitraries.of("a", "b", "example.com/c"), Arbitraries.of("", "x", "y"),
        Arbitraries.of(DeviceTaintEffect.class)).as(DeviceTaint::of);
  }

  @Provide
  Arbitrary<List<DeviceToleration>> tolerationLists() {
    Arbitrary<DeviceToleration> one = Combinators.combine(Arbitraries.of("", "a", "b", "example.com/c"),
        Arbitraries.of(DeviceTolerationOperator.class), Arbitraries.of("", "x", "y"),
        Arbitraries.of(DeviceTaintEffect.class).injectNull(0.3)).as((k, op, v, e) ->
        new DeviceToleration(k, op, op == DeviceTolerationOperator.EXISTS ? "" : v, e, null));
    return one.list().ofMaxSize(3);
  }

  // ---- validation -------------------------------------------------------------------------------------------------

  private static ResourceSlice slice(Device... devices) {
    return ResourceSlice.of("slice", ResourceSliceSpec.builder("driver.example.com", ResourcePool.of("pool"))
        .nodeName("node").devices(List.of(devices)).build());
  }

  private static List<String> sliceViolations(Device... devices) {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> slice(devices));
    assertThat(e).as("expected a ValidationException").isNotNull();
    return e.violations().stream().map(v -> v.field() + ": " + v.rule()).toList();
  }

  @Test
  void slice_validTaints_accepted() {
    assertThatCode(() -> slice(Device.of("dev").withTaints(NO_SCHEDULE, NO_EXECUTE, NONE,
        DeviceTaint.of("example.com/key", "", DeviceTaintEffect.NO_SCHEDULE)))).doesNotThrowAnyException();
  }

  @Test
  void slice_taintWithoutKey_refused() {
    assertThat(sliceViolations(Device.of("dev").withTaints(DeviceTaint.of("", "v", DeviceTaintEffect.NO_SCHEDULE))))
        .first().asString().startsWith("spec.devices[0].taints[0].key: name part must be non-empty");
  }

  @Test
  void slice_taintWithBadValue_labelValueMessage() {
    assertThat(sliceViolations(Device.of("dev").withTaints(DeviceTaint.of("k", "a b", DeviceTaintEffect.NO_SCHEDULE))))
        .singleElement().asString()
        .startsWith("spec.devices[0].taints[0].value: a valid label must be an empty string or consist of");
  }

  @Test
  void slice_seventeenTaints_tooMany() {
    DeviceTaint[] taints = new DeviceTaint[17];
    for (int i = 0; i < taints.length; i++) {
      taints[i] = DeviceTaint.of("k" + i, "", DeviceTaintEffect.NO_SCHEDULE);
    }
    assertThat(sliceViolations(Device.of("dev").withTaints(taints)))
        .containsExactly("spec.devices[0].taints: Too many: must have at most 16 items");
  }

  @Test
  void slice_taintedDevices_atMost64() {
    List<Device> devices = new ArrayList<>();
    for (int i = 0; i < 65; i++) {
      devices.add(i == 0 ? Device.of("dev-" + i).withTaints(NO_SCHEDULE) : Device.of("dev-" + i));
    }
    assertThat(sliceViolations(devices.toArray(Device[]::new)))
        .containsExactly("spec.devices: Too many: must have at most 64 items");
    devices.set(0, Device.of("dev-0"));
    assertThatCode(() -> slice(devices.toArray(Device[]::new))).doesNotThrowAnyException();
  }

  private static List<String> claimViolations(DeviceRequest request) {
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> ResourceClaim.of(ObjectMeta.of("ns", "claim"), ResourceClaimSpec.of(request)));
    assertThat(e).as("expected a ValidationException").isNotNull();
    return e.violations().stream().map(Violation::field).toList();
  }

  @Test
  void claim_validTolerations_accepted() {
    assertThatCode(() -> ResourceClaim.of(ObjectMeta.of("ns", "claim"), ResourceClaimSpec.of(
        new DeviceRequest("req", ExactDeviceRequest.count("class", 1).withTolerations(
            DeviceToleration.exists("", null), DeviceToleration.equal("example.com/k", "v", DeviceTaintEffect.NONE)
                .withTolerationSeconds(30L))),
        DeviceRequest.firstAvailable("pl", DeviceSubRequest.count("sub", "class", 1).withTolerations(
            DeviceToleration.exists("k", DeviceTaintEffect.NO_EXECUTE))))))
        .doesNotThrowAnyException();
  }

  @Test
  void claim_existsWithValue_mustBeEmpty() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> ResourceClaim.of(
        ObjectMeta.of("ns", "claim"), ResourceClaimSpec.of(new DeviceRequest("req", ExactDeviceRequest.count("class",
            1).withTolerations(new DeviceToleration("k", DeviceTolerationOperator.EXISTS, "v", null, null))))));
    assertThat(e.violations()).singleElement().satisfies(v -> {
      assertThat(v.field()).isEqualTo("spec.devices.requests[0].exactly.tolerations[0].value");
      assertThat(v.rule()).isEqualTo("must be empty for operator `Exists`");
      assertThat(v.value()).isEqualTo("v");
    });
  }

  @Test
  void claim_badKeyAndBadEqualValue_inASubRequest_refused() {
    assertThat(claimViolations(DeviceRequest.firstAvailable("req", DeviceSubRequest.count("sub", "class", 1)
        .withTolerations(DeviceToleration.equal("bad key!", "bad value!", null)))))
        .contains("spec.devices.requests[0].firstAvailable[0].tolerations[0].key",
            "spec.devices.requests[0].firstAvailable[0].tolerations[0].value");
  }

  @Test
  void claim_seventeenTolerations_tooMany() {
    DeviceToleration[] ts = new DeviceToleration[17];
    java.util.Arrays.fill(ts, DeviceToleration.exists("k", null));
    assertThat(claimViolations(new DeviceRequest("req", ExactDeviceRequest.count("class", 1).withTolerations(ts))))
        .containsExactly("spec.devices.requests[0].exactly.tolerations");
  }

  @Test
  void claim_allocationResultTolerations_validated() {
    ResourceClaim c = ResourceClaim.of(ObjectMeta.of("ns", "claim"), ResourceClaimSpec.of(DeviceRequest.of("req",
        "class", 1)));
    AllocationResult bad = new AllocationResult(List.of(new DeviceRequestAllocationResult("req", "driver", "pool",
        "dev", false, List.of(new DeviceToleration("k", DeviceTolerationOperator.EXISTS, "v", null, null)))), null);
    assertThatThrownBy(() -> c.withStatus(ResourceClaimStatus.INITIAL.withAllocation(bad)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("status.allocation.devices.results[0].tolerations[0].value");
  }

  @Test
  void enums_parseWireNames_refuseOthers() {
    assertThat(DeviceTaintEffect.parse("NoExecute")).isEqualTo(DeviceTaintEffect.NO_EXECUTE);
    assertThat(DeviceTolerationOperator.parse("Exists")).isEqualTo(DeviceTolerationOperator.EXISTS);
    assertThatThrownBy(() -> DeviceTaintEffect.parse("PreferNoSchedule"))
        .hasMessage("Unsupported value: \"PreferNoSchedule\": supported values: \"NoExecute\", \"NoSchedule\", "
            + "\"None\"");
    assertThatThrownBy(() -> DeviceTolerationOperator.parse("Gt"))
        .hasMessage("Unsupported value: \"Gt\": supported values: \"Equal\", \"Exists\"");
  }
}
