package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/workload/workload_test.go} (commit ff69552e): {@code
 * TestFilterChecksForAdmission} (7 of 7) and {@code TestAdmissionChecksForWorkload} (2 of 2). The cases whose
 * ClusterQueue names a flavor it does not have in {@code onFlavors} describe queues Kueue's webhook refuses on create
 * ({@code spec.admissionChecksStrategy.admissionChecks[0].onFlavors[0]: Unsupported value}); FleetKit's {@link
 * ClusterQueue} refuses them the same way (asserted), and the rule itself is run on the checks such a queue would have
 * ({@link AdmissionChecks#checksForWorkload(Map, Set, QuotaReservation)}).
 */
final class KueueAdmissionChecksForWorkloadPortTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private static ClusterQueue.Builder cq(String... flavors) {
    FlavorQuotas[] fqs = new FlavorQuotas[flavors.length];
    for (int i = 0; i < flavors.length; i++) {
      fqs[i] = FlavorQuotas.of(flavors[i], FlavorResourceQuota.of("cpu", "10"), FlavorResourceQuota.of("memory", "10"));
    }
    return ClusterQueue.builder("cq").resourceGroup(fqs);
  }

  private static QuotaReservation reservation(Map<String, String> flavors) {
    return new QuotaReservation("ns/wl", "cq",
        List.of(new PodSetAssignment("main", 1, flavors, ResourceList.EMPTY)), NOW, false);
  }

  private static Map<String, Set<String>> checks(Object... nameThenFlavors) {
    java.util.Map<String, Set<String>> out = new java.util.TreeMap<>();
    for (int i = 0; i < nameThenFlavors.length; i += 2) {
      out.put((String) nameThenFlavors[i], Set.of((String[]) nameThenFlavors[i + 1]));
    }
    return out;
  }

  // TestFilterChecksForAdmission

  @Test
  void filter_strategyWithAFlavor() {
    ClusterQueue q = cq("flavor1", "flavor2").admissionCheckStrategy(AdmissionCheckStrategyRule.of("ac1", "flavor1"))
        .build();
    assertThat(AdmissionChecks.checksForWorkload(q, reservation(Map.of("cpu", "flavor1")))).containsExactly("ac1");
  }

  @Test
  void filter_strategyWithAnUnmatchedFlavor() {
    assertThatThrownBy(() -> cq("flavor1", "flavor2")
        .admissionCheckStrategy(AdmissionCheckStrategyRule.of("ac1", "unmatched-flavor")).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.admissionChecksStrategy.admissionChecks[0].onFlavors[0]")
        .hasMessageContaining("supported values: \"flavor1\", \"flavor2\"");
    assertThat(AdmissionChecks.checksForWorkload(checks("ac1", new String[] {"unmatched-flavor"}),
        Set.of("flavor1", "flavor2"), reservation(Map.of("cpu", "flavor1")))).isEmpty();
  }

  @Test
  void filter_strategyWithoutAFlavor() {
    ClusterQueue q = cq("flavor1", "flavor2").admissionCheckStrategy(AdmissionCheckStrategyRule.of("ac1")).build();
    assertThat(AdmissionChecks.checksForWorkload(q, reservation(Map.of("cpu", "flavor1")))).containsExactly("ac1");
  }

  @Test
  void filter_twoStrategiesOneWithFlavorOneWithout() {
    ClusterQueue q = cq("flavor1", "flavor2").admissionCheckStrategy(AdmissionCheckStrategyRule.of("ac1", "flavor1"),
        AdmissionCheckStrategyRule.of("ac2")).build();
    assertThat(AdmissionChecks.checksForWorkload(q, reservation(Map.of("cpu", "flavor1"))))
        .containsExactly("ac1", "ac2");
  }

  @Test
  void filter_strategyWithOnlyANonExistentFlavor() {
    assertThatThrownBy(() -> cq("flavor1")
        .admissionCheckStrategy(AdmissionCheckStrategyRule.of("ac1", "flavor-nonexistent")).build())
        .isInstanceOf(ValidationException.class).hasMessageContaining("onFlavors[0]");
    assertThat(AdmissionChecks.checksForWorkload(checks("ac1", new String[] {"flavor-nonexistent"}),
        Set.of("flavor1"), reservation(Map.of("cpu", "flavor1")))).isEmpty();
  }

  @Test
  void filter_strategyWithAnAdditionalNonExistentFlavor() {
    assertThatThrownBy(() -> cq("flavor1")
        .admissionCheckStrategy(AdmissionCheckStrategyRule.of("ac1", "flavor1", "flavor-nonexistent")).build())
        .isInstanceOf(ValidationException.class).hasMessageContaining("onFlavors[1]");
    assertThat(AdmissionChecks.checksForWorkload(checks("ac1", new String[] {"flavor1", "flavor-nonexistent"}),
        Set.of("flavor1"), reservation(Map.of("cpu", "flavor1")))).containsExactly("ac1");
  }

  @Test
  void filter_twoStrategiesCoveringOneFlavorEach() {
    ClusterQueue q = cq("flavor1", "flavor2").admissionCheckStrategy(AdmissionCheckStrategyRule.of("ac1", "flavor1"),
        AdmissionCheckStrategyRule.of("ac2", "flavor2")).build();
    assertThat(AdmissionChecks.checksForWorkload(q, reservation(Map.of("cpu", "flavor1", "memory", "flavor2"))))
        .containsExactly("ac1", "ac2");
  }

  // TestAdmissionChecksForWorkload: the queue's rules ac4 and ac5 name "non-existent-flavor", which the webhook
  // refuses; the rules run on the checks such a queue would have

  private static final Map<String, Set<String>> WORKLOAD_CHECKS = checks(
      "ac1", new String[] {"flavor1"},
      "ac2", new String[] {"flavor2"},
      "ac3", new String[] {"flavor1", "flavor2"},
      "ac4", new String[] {"flavor1", "flavor2", "non-existent-flavor"},
      "ac5", new String[] {"non-existent-flavor"},
      "ac6", new String[] {"flavor1", "flavor2"});

  @Test
  void forWorkload_onlyRelevantChecksForAnAdmittedWorkload() {
    assertThat(AdmissionChecks.checksForWorkload(WORKLOAD_CHECKS, Set.of("flavor1", "flavor2"),
        reservation(Map.of("cpu", "flavor1", "memory", "flavor2"))))
        .containsExactly("ac1", "ac2", "ac3", "ac4", "ac6");
  }

  @Test
  void forWorkload_onlyChecksCoveringAllFlavorsWithoutQuotaReserved() {
    assertThat(AdmissionChecks.checksForWorkload(WORKLOAD_CHECKS, Set.of("flavor1", "flavor2"), null))
        .containsExactly("ac3", "ac4", "ac6");
    // the same with the queue FleetKit accepts (without the unknown flavor): ac6 has no flavors, so all of them
    ClusterQueue q = cq("flavor1", "flavor2").admissionCheckStrategy(AdmissionCheckStrategyRule.of("ac1", "flavor1"),
        AdmissionCheckStrategyRule.of("ac2", "flavor2"), AdmissionCheckStrategyRule.of("ac3", "flavor1", "flavor2"),
        AdmissionCheckStrategyRule.of("ac6")).build();
    assertThat(AdmissionChecks.checksForWorkload(q, null)).containsExactly("ac3", "ac6");
  }
}
