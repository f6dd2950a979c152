package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.api.scheduling.PriorityClass;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/util/priority/priority_test.go} (commit ff69552e): {@code
 * TestPriority} (2 of 2), {@code TestGetPriorityFromPriorityClass} (4 of 4) and {@code
 * TestGetPriorityFromWorkloadPriorityClass} (2 of 2), on {@link WorkloadPriority}. Upstream's NotFound error is an
 * empty result here; its {@code priorityClassRef} is the result's source and class name. The defaulting and priority
 * boost tests are listed in docs/conformance.md with the reason they are not ported.
 */
final class KueuePriorityPortTest {
  private static PriorityClass pc(String name, int value, boolean globalDefault) {
    return new PriorityClass(ObjectMeta.of(name), value, globalDefault, PreemptionPolicy.PreemptLowerPriority, "");
  }

  private static Optional<WorkloadPriorityClass> lookup(List<WorkloadPriorityClass> classes, String name) {
    return classes.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  // TestPriority

  @Test
  void priority_priorityIsSpecified() {
    assertThat(Workload.builder("ns", "name").priority(100).request("cpu", "1").build().priority()).isEqualTo(100);
  }

  @Test
  void priority_priorityIsEmpty() {
    Workload w = Workload.builder("ns", "name").request("cpu", "1").build();
    assertThat(w.priority()).isEqualTo(WorkloadPriority.DEFAULT.value()).isZero();
    assertThat(w.priorityClassSource()).isEqualTo(PriorityClassSource.NONE);
  }

  // TestGetPriorityFromPriorityClass

  @Test
  void fromPriorityClass_priorityClassIsSpecifiedAndItExists() {
    assertThat(WorkloadPriority.fromPriorityClass("test", List.of(pc("test", 50, false))))
        .contains(new WorkloadPriority(50, PriorityClassSource.POD_PRIORITY_CLASS, "test"));
  }

  @Test
  void fromPriorityClass_priorityClassIsSpecifiedAndItDoesNotExist() {
    assertThat(WorkloadPriority.fromPriorityClass("test", List.of())).isEmpty();
  }

  @Test
  void fromPriorityClass_priorityClassIsUnspecifiedAndOneGlobalDefaultExists() {
    assertThat(WorkloadPriority.fromPriorityClass("", List.of(pc("global-default", 40, true))))
        .contains(new WorkloadPriority(40, PriorityClassSource.POD_PRIORITY_CLASS, "global-default"));
  }

  @Test
  void fromPriorityClass_priorityClassIsUnspecifiedAndMultipleGlobalDefaultsExist() {
    assertThat(WorkloadPriority.fromPriorityClass("", List.of(pc("global-default1", 90, true),
        pc("global-default2", 20, true), pc("global-default3", 50, true))))
        .contains(new WorkloadPriority(20, PriorityClassSource.POD_PRIORITY_CLASS, "global-default2"));
  }

  @Test
  void fromPriorityClass_unspecifiedWithoutGlobalDefault_isTheDefaultPriority() {
    // FleetKit's: upstream's getDefaultPriority without a default class (no upstream case)
    assertThat(WorkloadPriority.fromPriorityClass("", List.of(pc("other", 7, false))))
        .contains(WorkloadPriority.DEFAULT);
  }

  // TestGetPriorityFromWorkloadPriorityClass

  @Test
  void fromWorkloadPriorityClass_specifiedAndItExists() {
    List<WorkloadPriorityClass> classes = List.of(WorkloadPriorityClass.of("test", 50));
    assertThat(WorkloadPriority.fromWorkloadPriorityClass("test", n -> lookup(classes, n)))
        .contains(new WorkloadPriority(50, PriorityClassSource.WORKLOAD_PRIORITY_CLASS, "test"));
  }

  @Test
  void fromWorkloadPriorityClass_specifiedAndItDoesNotExist() {
    assertThat(WorkloadPriority.fromWorkloadPriorityClass("test", n -> lookup(List.of(), n))).isEmpty();
  }

  @Test
  void workloadPriority_sourceAndNameGoTogether() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new WorkloadPriority(1, PriorityClassSource.WORKLOAD_PRIORITY_CLASS, ""))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a source needs a class name");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new WorkloadPriority(1, PriorityClassSource.NONE, "x"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a class name needs a source");
    assertThat(Map.of("k", WorkloadPriority.of(3))).containsValue(new WorkloadPriority(3, PriorityClassSource.NONE,
        ""));
  }
}
