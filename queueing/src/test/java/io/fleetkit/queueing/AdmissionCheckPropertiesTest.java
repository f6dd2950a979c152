package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants of two-phase admission over random runs: workloads are submitted, cycles run, and check states are set
 * (by hand and by a controller answering at random), the clock moves, workloads finish and are reactivated.
 */
final class AdmissionCheckPropertiesTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final List<String> CHECKS = List.of("prov", "budget", "spot-only");

  /** One step: 0 submit, 1 schedule, 2 set a check state, 3 advance the clock, 4 delete, 5 reactivate. */
  record Step(int kind, int workload, int check, CheckState state, int delaySeconds) {}

  @Provide
  Arbitrary<List<Step>> runs() {
    Arbitrary<Step> step = Combinators.combine(Arbitraries.integers().between(0, 5),
            Arbitraries.integers().between(0, 5), Arbitraries.integers().between(0, 2),
            Arbitraries.of(CheckState.class), Arbitraries.of(0, 0, 5, 20))
        .as(Step::new);
    return step.list().ofMinSize(1).ofMaxSize(40);
  }

  /** A controller for {@code budget} whose answer is drawn from the run's steps. */
  private static final class Dice implements AdmissionCheckController {
    int next;

    @Override
    public String controllerName() {
      return "dice";
    }

    @Override
    public CheckVerdict evaluate(AdmissionCheck check, Workload workload, QuotaReservation reservation,
        AdmissionCheckState current) {
      return switch (Math.floorMod(next++ * 7 + workload.name().hashCode(), 5)) {
        case 0 -> CheckVerdict.retry("busy", Duration.ofSeconds(10));
        case 1 -> CheckVerdict.retry("busy");
        case 2 -> CheckVerdict.rejected("no");
        default -> CheckVerdict.ready("ok");
      };
    }
  }

  @Property(tries = 200)
  void neverAdmittedWithACheckNotReady_andRetryAlwaysReleasesQuota(@ForAll("runs") List<Step> run) {
    ManualClock clock = new ManualClock(T0);
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).resourceFlavors("on-demand", "spot")
        .clusterQueue(ClusterQueue.builder("cq").resourceGroup(
                FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "2")),
                FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", "2")))
            .admissionCheckStrategy(AdmissionCheckStrategyRule.of("prov"), AdmissionCheckStrategyRule.of("budget"),
                AdmissionCheckStrategyRule.of("spot-only", "spot"))
            .build())
        .localQueue(LocalQueue.of("ns", "lq", "cq"))
        .admissionCheck(AdmissionCheck.of("prov", "manual"))
        .admissionCheck(AdmissionCheck.of("budget", "dice"))
        .admissionCheck(AdmissionCheck.of("spot-only", "manual"))
        .admissionCheckController(new Dice())
        .build();
    for (Step s : run) {
      String key = "ns/w" + s.workload();
      switch (s.kind()) {
        case 0 -> {
          if (e.admission(key).isEmpty() && !e.pending("cq").contains(key) && e.deactivated(key).isEmpty()) {
            e.submit(Workload.builder("ns", "w" + s.workload()).queueName("lq").request("cpu", "1").build());
          }
        }
        case 1 -> {
          CycleResult r = e.schedule();
          for (CheckOutcome o : r.checks()) {
            assertReleasedIfEvicted(e, o);
          }
        }
        case 2 -> {
          String check = CHECKS.get(s.check());
          boolean has = e.admissionChecks(key).stream().anyMatch(c -> c.name().equals(check));
          if (has) {
            boolean reserved = e.admission(key).isPresent();
            Optional<CheckOutcome> o = e.setCheckState(key, AdmissionCheckState.of(check, s.state(), "by hand")
                .withRequeueAfterSeconds(s.delaySeconds() == 0 ? null : s.delaySeconds()));
            o.ifPresent(x -> assertReleasedIfEvicted(e, x));
            if (reserved && (s.state() == CheckState.RETRY || s.state() == CheckState.REJECTED)) {
              assertThat(e.admission(key)).as("a Retry or Rejected check releases %s's quota", key).isEmpty();
              assertThat(o).isPresent();
            }
          }
        }
        case 3 -> clock.advance(Duration.ofSeconds(s.delaySeconds() + 1));
        case 4 -> e.delete(key);
        default -> e.reactivate(key);
      }
      assertInvariants(e);
    }
  }

  private static void assertReleasedIfEvicted(AdmissionEngine e, CheckOutcome o) {
    if (o.kind() != CheckOutcome.Kind.ADMITTED) {
      assertThat(e.admission(o.workload())).as("%s %s still holds quota", o.kind(), o.workload()).isEmpty();
    } else {
      assertThat(e.isAdmitted(o.workload())).isTrue();
    }
  }

  private static void assertInvariants(AdmissionEngine e) {
    long used = 0;
    for (QuotaReservation r : e.admitted("cq")) {
      used += 1000;
      List<AdmissionCheckState> states = e.admissionChecks(r.workload());
      boolean allReady = states.stream().allMatch(c -> c.state() == CheckState.READY);
      assertThat(e.isAdmitted(r.workload())).as("admitted iff every check is ready: %s %s", r.workload(), states)
          .isEqualTo(allReady);
      // the checks that apply to the reservation: prov and budget always, spot-only on spot
      List<String> want = r.flavorOf("cpu").equals("spot") ? List.of("budget", "prov", "spot-only")
          : List.of("budget", "prov");
      assertThat(states).extracting(AdmissionCheckState::name).containsExactlyElementsOf(want);
      // a reserved workload never keeps a failed check: Retry and Rejected are reacted to at once
      assertThat(states).extracting(AdmissionCheckState::state)
          .doesNotContain(CheckState.RETRY, CheckState.REJECTED);
    }
    assertThat(e.usage("cq", "on-demand", "cpu").milliValue() + e.usage("cq", "spot", "cpu").milliValue())
        .isEqualTo(used);
    for (int i = 0; i < 6; i++) {
      String key = "ns/w" + i;
      if (e.admission(key).isEmpty()) {
        assertThat(e.isAdmitted(key)).as("%s admitted without quota", key).isFalse();
      }
    }
  }
}
