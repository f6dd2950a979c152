package io.fleetkit.api.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ScenarioTest {
  private static Scenario scenario(Duration duration, List<WorkloadLoad> loads, List<ScenarioFault> faults) {
    return new Scenario(ObjectMeta.builder().name("day").build(), new ScenarioSpec(duration, 1,
        ScenarioSpec.DEFAULT_SAMPLE_INTERVAL, loads, faults, ScenarioFeatures.ALL));
  }

  private static WorkloadLoad load(String kind, String name, LoadPattern p) {
    return new WorkloadLoad(kind, "shop", name, p, 2, 0);
  }

  @Test
  void valid_keepsEverything() {
    Scenario s = scenario(Duration.ofHours(24), List.of(load("Deployment", "web", LoadPattern.constant(5))),
        List.of(new ScenarioFault(Duration.ofHours(3), FaultType.ZoneFailure, "zone-b", Duration.ofHours(1))));
    assertThat(s.kind()).isEqualTo("Scenario");
    assertThat(s.apiVersion()).isEqualTo("simulation.fleetkit.io/v1");
    assertThat(s.spec().loads()).hasSize(1);
    assertThat(s.spec().loads().get(0).target()).isEqualTo("Deployment/shop/web");
  }

  @Test
  void zeroDuration_rejectedNamingTheField() {
    assertThatThrownBy(() -> scenario(Duration.ZERO, List.of(), List.of()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Scenario day").hasMessageContaining("spec.duration");
  }

  private static Scenario sampled(Duration duration, Duration interval) {
    return new Scenario(ObjectMeta.builder().name("day").build(), new ScenarioSpec(duration, 1, interval, List.of(),
        List.of(), ScenarioFeatures.ALL));
  }

  @Test
  void samples_countTheStartEveryIntervalAndTheEnd() {
    assertThat(Scenario.samples(Duration.ofHours(24), Duration.ofMinutes(5))).isEqualTo(289);
    assertThat(Scenario.samples(Duration.ofSeconds(10), Duration.ofSeconds(3))).isEqualTo(5); // 0, 3, 6, 9, 10
    assertThat(Scenario.samples(Duration.ofSeconds(10), Duration.ofDays(1000_000))).isEqualTo(2);
  }

  @Test
  void tooManySamples_rejectedNamingTheIntervalThatWould() {
    // a day at 1 s is 86,401 samples: allowed
    assertThat(sampled(Duration.ofDays(1), Duration.ofSeconds(1)).spec().sampleInterval()).hasSeconds(1);
    assertThat(sampled(Duration.ofSeconds(99_999), Duration.ofSeconds(1)).spec().duration()).hasSeconds(99_999);
    // 31 days at 1 s would hold 2,678,401 values per series
    assertThatThrownBy(() -> sampled(Duration.ofDays(31), Duration.ofSeconds(1)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.sampleInterval").hasMessageContaining("must leave at most 100000 samples over"
            + " spec.duration 744h0m0s (it gives 2678401; an interval of at least 27s does)");
    assertThat(sampled(Duration.ofDays(31), Duration.ofSeconds(27)).spec().sampleInterval()).hasSeconds(27);
    assertThatThrownBy(() -> sampled(Duration.ofSeconds(100_000), Duration.ofSeconds(1)))
        .isInstanceOf(ValidationException.class).hasMessageContaining("it gives 100001");
    // an interval far beyond the run is two samples; a duration beyond the limit is named alone
    assertThat(sampled(Duration.ofHours(1), Duration.ofDays(100_000_000)).spec().duration()).hasHours(1);
    assertThatThrownBy(() -> sampled(Duration.ofDays(100_000_000), Duration.ofSeconds(1)))
        .isInstanceOf(ValidationException.class).hasMessageContaining("spec.duration")
        .hasMessageNotContaining("spec.sampleInterval");
  }

  @Test
  void badLoads_everyProblemNamed() {
    assertThatThrownBy(() -> scenario(Duration.ofHours(1), List.of(
        load("Pod", "web", LoadPattern.constant(1)),
        load("Deployment", "api", LoadPattern.diurnal(10, 5, Duration.ZERO, LoadPattern.DAY)),
        load("Deployment", "api", LoadPattern.spike(1, 2, Duration.ZERO, Duration.ZERO))), List.of()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.loads[0].target.kind")
        .hasMessageContaining("spec.loads[1].diurnal.peak")
        .hasMessageContaining("spec.loads[2].target")
        .hasMessageContaining("spec.loads[2].spike.length");
  }

  @Test
  void diurnalPeakAtOrAfterItsPeriod_rejectedNamingThePeriod() {
    assertThatThrownBy(() -> scenario(Duration.ofHours(1), List.of(
        load("Deployment", "web", LoadPattern.diurnal(1, 5, Duration.ofHours(30), LoadPattern.DAY)),
        load("Deployment", "api", LoadPattern.diurnal(1, 5, Duration.ofMinutes(90), Duration.ofMinutes(90)))),
        List.of()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.loads[0].diurnal.peakAt \"30h\" must be less than the period 24h")
        .hasMessageContaining("spec.loads[1].diurnal.peakAt \"1h30m\" must be less than the period 1h30m");
    // the last moment of the period is still a peak time
    assertThat(scenario(Duration.ofHours(1), List.of(load("Deployment", "web",
        LoadPattern.diurnal(1, 5, Duration.ofHours(24).minusSeconds(1), LoadPattern.DAY))), List.of())
        .spec().loads()).hasSize(1);
  }

  @Test
  void csvRowsOutOfOrder_rejected() {
    LoadPattern p = LoadPattern.csv(List.of(new RatePoint(Duration.ofSeconds(60), 1),
        new RatePoint(Duration.ofSeconds(30), 2)));
    assertThatThrownBy(() -> scenario(Duration.ofHours(1), List.of(load("Deployment", "web", p)), List.of()))
        .isInstanceOf(ValidationException.class).hasMessageContaining("spec.loads[0].csv row 2 seconds");
  }

  @Test
  void faultWithNonPositiveRecovery_rejected() {
    assertThatThrownBy(() -> scenario(Duration.ofHours(1), List.of(),
        List.of(new ScenarioFault(Duration.ofMinutes(-1), FaultType.NodeFailure, "n1", Duration.ZERO))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.faults[0].at").hasMessageContaining("spec.faults[0].recoverAfter");
  }

  @Test
  void capacityStockout_zoneOnlyForIt_poolAndZoneChecked() {
    Scenario ok = scenario(Duration.ofHours(1), List.of(), List.of(
        ScenarioFault.capacityStockout(Duration.ofMinutes(5), "gpu-a100", "zone-a", Duration.ofMinutes(30)),
        ScenarioFault.capacityStockout(Duration.ZERO, "cpu", null, null)));
    assertThat(ok.spec().faults()).extracting(ScenarioFault::zone).containsExactly("zone-a", null);
    assertThatThrownBy(() -> scenario(Duration.ofHours(1), List.of(), List.of(
        new ScenarioFault(Duration.ZERO, FaultType.ZoneFailure, "zone-a", null, 0, null, "zone-a"),
        ScenarioFault.capacityStockout(Duration.ZERO, "GPU_pool", "", Duration.ofMinutes(-1)),
        ScenarioFault.capacityStockout(Duration.ZERO, "", null, null))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.faults[0].zone").hasMessageContaining("is only for capacityStockout")
        .hasMessageContaining("spec.faults[1].capacityStockout").hasMessageContaining("spec.faults[1].zone")
        .hasMessageContaining("must not be empty").hasMessageContaining("spec.faults[1].recoverAfter")
        .hasMessageContaining("spec.faults[2].capacityStockout");
  }

  @Test
  void spotInterruption_nodesAndNoticeOnlyForIt_checked() {
    Scenario ok = scenario(Duration.ofHours(1), List.of(), List.of(
        ScenarioFault.spotInterruption(Duration.ofMinutes(5), "spot", 2, Duration.ofMinutes(2)),
        ScenarioFault.spotInterruption(Duration.ZERO, "spot", 1, Duration.ZERO)));
    assertThat(ok.spec().faults()).extracting(ScenarioFault::nodes).containsExactly(2, 1);
    assertThat(ok.spec().faults().get(0).notice()).isEqualTo(ScenarioFault.DEFAULT_SPOT_NOTICE);
    assertThatThrownBy(() -> scenario(Duration.ofHours(1), List.of(), List.of(
        ScenarioFault.spotInterruption(Duration.ZERO, "spot", 0, Duration.ofMinutes(-1)),
        new ScenarioFault(Duration.ZERO, FaultType.SpotInterruption, "Spot_Pool", Duration.ofMinutes(5), 0, null,
            null, 1, null),
        new ScenarioFault(Duration.ZERO, FaultType.NodeFailure, "a-1", null, 0, null, null, 2,
            Duration.ofMinutes(1)))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.faults[0].nodes").hasMessageContaining("must be at least 1")
        .hasMessageContaining("spec.faults[0].notice").hasMessageContaining(Violations.NON_NEGATIVE)
        .hasMessageContaining("spec.faults[1].spotInterruption").hasMessageContaining("spec.faults[1].recoverAfter")
        .hasMessageContaining("spec.faults[1].notice").hasMessageContaining("Required value")
        .hasMessageContaining("spec.faults[2].nodes").hasMessageContaining("spec.faults[2].notice")
        .hasMessageContaining("is only for spotInterruption");
  }

  @Test
  void unknownSchedulerProfile_rejectedNamingTheFieldAndTheAllowedValues() {
    ScenarioSpec spec = new ScenarioSpec(Duration.ofHours(1), 1, ScenarioSpec.DEFAULT_SAMPLE_INTERVAL, List.of(),
        List.of(), ScenarioFeatures.ALL).withScheduler(new ScenarioScheduler("binpack", ""));
    assertThatThrownBy(() -> new Scenario(ObjectMeta.builder().name("day").build(), spec))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.scheduler.profile").hasMessageContaining("default, mostAllocated")
        .hasMessageContaining("binpack");
    Scenario ok = new Scenario(ObjectMeta.builder().name("day").build(),
        spec.withScheduler(new ScenarioScheduler("mostAllocated", "FGD")));
    assertThat(ok.spec().scheduler().describe()).isEqualTo("profile mostAllocated, GPU policy FGD");
  }
}
