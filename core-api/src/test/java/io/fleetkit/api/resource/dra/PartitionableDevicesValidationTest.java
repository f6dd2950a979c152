package io.fleetkit.api.resource.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The ResourceSlice rules for partitionable devices, as kubernetes' {@code validateResourceSliceSpec},
 * {@code validateCounterSet}, {@code validateDevice} and {@code validateDeviceCounterConsumption}
 * ({@code pkg/apis/resource/validation/validation.go}): field paths and messages.
 */
final class PartitionableDevicesValidationTest {
  private static final NodeSelector RACK = new NodeSelector(List.of(new NodeSelectorTerm(List.of(
      new NodeSelectorRequirement("rack", NodeSelectorOperator.In, List.of("r1"))), List.of())));

  private static Map<String, Quantity> memory(String q) {
    return Map.of("memory", Quantity.parse(q));
  }

  private static ResourceSliceSpec.Builder spec() {
    return ResourceSliceSpec.builder("driver.example.com", new ResourcePool("pool", 1, 2));
  }

  private static List<String> violations(ResourceSliceSpec spec) {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> ResourceSlice.of("slice", spec));
    assertThat(e).as("expected a ValidationException").isNotNull();
    return e.violations().stream().map(v -> v.field() + ": " + v.rule()).toList();
  }

  @Test
  void countersSliceAndPartitionsSlice_accepted() {
    assertThatCode(() -> ResourceSlice.of("counters", spec().nodeName("node")
        .counterSet(new CounterSet("gpu-0", memory("80Gi"))).build())).doesNotThrowAnyException();
    assertThatCode(() -> ResourceSlice.of("parts", spec().perDeviceNodeSelection()
        .device(Device.builder("a").consumesCounters(new DeviceCounterConsumption("gpu-0", memory("40Gi")))
            .nodeName("node").build())
        .device(Device.builder("b").nodeSelector(RACK).build())
        .device(Device.builder("c").allNodes().build()).build())).doesNotThrowAnyException();
  }

  @Test
  void devicesAndSharedCounters_onlyOneAllowed() {
    assertThat(violations(spec().nodeName("node").counterSet(new CounterSet("set", memory("1Gi")))
        .device(Device.of("a")).build()))
        .containsExactly("spec: Invalid value: \"\": only one of `sharedCounters` or `devices` is allowed");
  }

  @Test
  void perDeviceNodeSelection_eachDeviceExactlyOne_otherwiseNone() {
    assertThat(violations(spec().perDeviceNodeSelection().device(Device.of("a"))
        .device(Device.builder("b").nodeName("n").allNodes().build()).build()))
        .containsExactly("spec.devices[0]: Required value: exactly one of `nodeName`, `nodeSelector`, or `allNodes` is "
                + "required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec",
            "spec.devices[1]: Invalid value: {`nodeName`, `allNodes`}: exactly one of `nodeName`, `nodeSelector`, or "
                + "`allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec");
    assertThat(violations(spec().nodeName("node").device(Device.builder("a").allNodes().build()).build()))
        .containsExactly("spec.devices[0]: Invalid value: null: `nodeName`, `nodeSelector` and `allNodes` can only be "
            + "set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec");
    assertThat(violations(spec().allNodes().perDeviceNodeSelection().build()))
        .containsExactly("spec: Invalid value: {`allNodes`, `perDeviceNodeSelection`}: exactly one of `nodeName`, "
            + "`nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set");
  }

  @Test
  void counterSets_namesCountersAndLimits() {
    assertThat(violations(spec().nodeName("node").counterSet(new CounterSet("", Map.of()))
        .counterSet(new CounterSet("Bad_Name", memory("1Gi"))).counterSet(new CounterSet("bad-name", memory("1Gi")))
        .counterSet(new CounterSet("bad-name", Map.of("Memory", Quantity.parse("1")))).build()))
        .contains("spec.sharedCounters[0].name: Required value", "spec.sharedCounters[0].counters: Required value",
            "spec.sharedCounters[3].name: Duplicate value")
        .anyMatch(v -> v.startsWith("spec.sharedCounters[1].name: a lowercase RFC 1123 label"))
        .anyMatch(v -> v.startsWith("spec.sharedCounters[3].counters[Memory]: a lowercase RFC 1123 label"));
    ResourceSliceSpec.Builder nine = spec().nodeName("node");
    for (int i = 0; i < 9; i++) {
      nine.counterSet(new CounterSet("set-" + i, memory("1Gi")));
    }
    assertThat(violations(nine.build())).containsExactly("spec.sharedCounters: Too many: must have at most 8 items");
  }

  @Test
  void consumesCounters_atMostTwoUniqueSetsWithCounters() {
    Device three = Device.of("a").withConsumesCounters(new DeviceCounterConsumption("x", memory("1Gi")),
        new DeviceCounterConsumption("x", memory("1Gi")), new DeviceCounterConsumption("y", Map.of()));
    assertThat(violations(spec().nodeName("node").device(three).build())).containsExactly(
        "spec.devices[0].consumesCounters: Too many: must have at most 2 items",
        "spec.devices[0].consumesCounters[1]: Duplicate value",
        "spec.devices[0].consumesCounters[2].counters: Required value");
  }

  @Test
  void devicesConsumingCounters_atMost64() {
    List<Device> devices = new ArrayList<>();
    for (int i = 0; i < 65; i++) {
      devices.add(Device.of("d-" + i));
    }
    devices.set(7, devices.get(7).withConsumesCounters(new DeviceCounterConsumption("set", memory("1Gi"))));
    assertThat(violations(spec().nodeName("node").devices(devices).build()))
        .containsExactly("spec.devices: Too many: must have at most 64 items");
  }

  @Test
  void builders_refuseSettingTwice() {
    Map<String, Quantity> m = new LinkedHashMap<>(memory("1Gi"));
    assertThat(catchThrowableOfType(IllegalStateException.class,
        () -> Device.builder("a").nodeName("n").nodeName("m"))).hasMessage("device a: nodeName already set to n");
    assertThat(new CounterSet("s", m).counters()).isEqualTo(m);
  }
}
