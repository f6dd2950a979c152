package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The engine's two-phase admission: reservation, admission checks, and the reactions to their states. */
final class AdmissionCheckEngineTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private final ManualClock clock = new ManualClock(T0);

  /** A controller answering with the verdicts given, one per call (the last one repeated). */
  private static final class Scripted implements AdmissionCheckController {
    final List<CheckVerdict> verdicts;
    final List<String> asked = new ArrayList<>();

    Scripted(CheckVerdict... verdicts) {
      this.verdicts = List.of(verdicts);
    }

    @Override
    public String controllerName() {
      return "example.com/scripted";
    }

    @Override
    public CheckVerdict evaluate(AdmissionCheck check, Workload workload, QuotaReservation reservation,
        AdmissionCheckState current) {
      asked.add(workload.key() + ":" + check.name());
      return verdicts.get(Math.min(asked.size() - 1, verdicts.size() - 1));
    }
  }

  private AdmissionEngine.Builder base(ClusterQueue cq) {
    return AdmissionEngine.builder().clock(clock).resourceFlavors("on-demand", "spot").clusterQueue(cq)
        .localQueue(LocalQueue.of("ns", "lq", cq.name()));
  }

  private static ClusterQueue.Builder cq(String cpu) {
    return ClusterQueue.builder("cq").resourceGroup(
        FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", cpu)),
        FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", cpu)));
  }

  private static Workload wl(String name, String cpu) {
    return Workload.builder("ns", name).queueName("lq").request("cpu", cpu)
        .creationTime(T0.plusSeconds(name.hashCode() & 0xff)).build();
  }

  @Test
  void noChecks_reservationIsAdmission() {
    AdmissionEngine e = base(cq("4").build()).build();
    e.submit(wl("a", "1"));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).hasSize(1);
    assertThat(r.checks()).isEmpty();
    assertThat(e.isAdmitted("ns/a")).isTrue();
    assertThat(e.admissionChecks("ns/a")).isEmpty();
  }

  @Test
  void controllerReady_admitsInTheReservingCycle() {
    Scripted ctl = new Scripted(CheckVerdict.ready("provisioned"));
    AdmissionEngine e = base(cq("4").admissionChecks("prov").build())
        .admissionCheck(AdmissionCheck.of("prov", ctl.controllerName())).admissionCheckController(ctl).build();
    e.submit(wl("a", "1"));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).extracting(QuotaReservation::workload).containsExactly("ns/a");
    assertThat(r.checks()).containsExactly(new CheckOutcome("ns/a", "cq", CheckOutcome.Kind.ADMITTED,
        "The workload is admitted"));
    assertThat(e.isAdmitted("ns/a")).isTrue();
    assertThat(e.admissionChecks("ns/a")).singleElement()
        .satisfies(s -> assertThat(s.message()).isEqualTo("provisioned"));
  }

  @Test
  void controllerPending_isAskedAgainInLaterCycles() {
    Scripted ctl = new Scripted(CheckVerdict.pending("waiting for capacity"), CheckVerdict.ready("ok"));
    AdmissionEngine e = base(cq("4").admissionChecks("prov").build())
        .admissionCheck(AdmissionCheck.of("prov", ctl.controllerName())).admissionCheckController(ctl).build();
    e.submit(wl("a", "1"));
    assertThat(e.schedule().checks()).isEmpty();
    assertThat(e.admission("ns/a")).isPresent();
    assertThat(e.isAdmitted("ns/a")).isFalse();
    assertThat(e.admissionChecks("ns/a").get(0).message()).isEqualTo("waiting for capacity");
    assertThat(e.schedule().checks()).extracting(CheckOutcome::kind).containsExactly(CheckOutcome.Kind.ADMITTED);
    assertThat(ctl.asked).containsExactly("ns/a:prov", "ns/a:prov");
    e.schedule();
    assertThat(ctl.asked).hasSize(2); // a Ready check is not asked again
  }

  @Test
  void missingCheck_queueInactiveUntilAdded() {
    AdmissionEngine e = base(cq("4").admissionChecks("prov").build()).build();
    assertThat(e.inactiveReason("cq"))
        .contains("Can't admit new workloads: references missing AdmissionCheck(s): prov.");
    e.submit(wl("a", "1"));
    assertThat(e.schedule().admitted()).isEmpty();
    e.putAdmissionCheck(AdmissionCheck.of("prov", "x"));
    assertThat(e.inactiveReason("cq")).isEmpty();
    assertThat(e.schedule().admitted()).hasSize(1);
    assertThat(e.isAdmitted("ns/a")).isFalse(); // quota reserved, check pending
  }

  @Test
  void inactiveCheck_queueInactiveUntilActive() {
    AdmissionEngine e = base(cq("4").admissionChecks("prov", "mk").build())
        .admissionCheck(AdmissionCheck.of("prov", "x").withActive(false)).build();
    assertThat(e.inactiveReason("cq")).contains("Can't admit new workloads: references missing AdmissionCheck(s): "
        + "mk, references inactive AdmissionCheck(s): prov.");
    e.putAdmissionCheck(AdmissionCheck.of("mk", "y"));
    assertThat(e.inactiveReason("cq"))
        .contains("Can't admit new workloads: references inactive AdmissionCheck(s): prov.");
    e.putAdmissionCheck(e.admissionCheck("prov").orElseThrow().withActive(true));
    assertThat(e.inactiveReason("cq")).isEmpty();
    assertThat(e.removeAdmissionCheck("mk")).isTrue();
    assertThat(e.inactiveReason("cq")).contains("Can't admit new workloads: references missing AdmissionCheck(s): mk.");
  }

  @Test
  void retryWithDelay_releasesQuotaToTheNextWorkloadAndRequeuesAfterTheDelay() {
    Scripted ctl = new Scripted(CheckVerdict.retry("no capacity", Duration.ofSeconds(30)), CheckVerdict.ready("ok"));
    AdmissionEngine e = base(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "1")))
            .queueingStrategy(QueueingStrategy.STRICT_FIFO).admissionChecks("prov").build())
        .admissionCheck(AdmissionCheck.of("prov", ctl.controllerName())).admissionCheckController(ctl).build();
    e.submit(Workload.builder("ns", "first").queueName("lq").request("cpu", "1").creationTime(T0).build());
    e.submit(Workload.builder("ns", "second").queueName("lq").request("cpu", "1").creationTime(T0.plusSeconds(1))
        .build());
    CycleResult r = e.schedule();
    assertThat(r.admitted()).extracting(QuotaReservation::workload).containsExactly("ns/first");
    assertThat(r.checks()).containsExactly(new CheckOutcome("ns/first", "cq", CheckOutcome.Kind.EVICTED,
        "Evicted due to AdmissionCheck in Retry state: \"prov\" (no capacity)"));
    assertThat(e.admission("ns/first")).isEmpty();
    assertThat(e.usage("cq", "on-demand", "cpu").milliValue()).isZero();
    assertThat(e.admissionChecks("ns/first")).singleElement().satisfies(s -> {
      assertThat(s.state()).isEqualTo(CheckState.PENDING);
      assertThat(s.retryCount()).isEqualTo(1);
      assertThat(s.requeueAfterSeconds()).isEqualTo(30);
    });
    assertThat(e.pending("cq")).containsExactly("ns/second", "ns/first"); // first waits out its delay
    CycleResult next = e.schedule();
    assertThat(next.admitted()).extracting(QuotaReservation::workload).containsExactly("ns/second");
    assertThat(next.checks()).extracting(CheckOutcome::kind).containsExactly(CheckOutcome.Kind.ADMITTED);
    e.delete("ns/second");
    assertThat(e.schedule().admitted()).isEmpty(); // 30 s not over
    clock.advance(Duration.ofSeconds(30));
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("ns/first");
    assertThat(e.isAdmitted("ns/first")).isTrue();
  }

  /**
   * Kueue's {@code Ordering.GetQueueOrderTimestamp} (pkg/workload/workload.go, commit ff69552e): a workload evicted by
   * an admission check is ordered by the time of its eviction, not its creation, so the workloads that waited behind
   * it go first.
   */
  @Test
  void retryWithoutDelay_evictedWorkloadIsOrderedByItsEvictionTime() {
    Scripted ctl = new Scripted(CheckVerdict.retry("no capacity", Duration.ZERO), CheckVerdict.ready("ok"));
    AdmissionEngine e = base(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "1")))
            .queueingStrategy(QueueingStrategy.STRICT_FIFO).admissionChecks("prov").build())
        .admissionCheck(AdmissionCheck.of("prov", ctl.controllerName())).admissionCheckController(ctl).build();
    e.submit(Workload.builder("ns", "first").queueName("lq").request("cpu", "1").creationTime(T0).build());
    e.submit(Workload.builder("ns", "second").queueName("lq").request("cpu", "1").creationTime(T0.plusSeconds(1))
        .build());
    clock.advance(Duration.ofSeconds(10));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).extracting(QuotaReservation::workload).containsExactly("ns/first");
    assertThat(r.checks()).extracting(CheckOutcome::kind).containsExactly(CheckOutcome.Kind.EVICTED);
    // evicted at T0+10s: behind second, created at T0+1s (by creation time it would stay ahead)
    assertThat(e.pending("cq")).containsExactly("ns/second", "ns/first");
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("ns/second");
  }

  @Test
  void pendingWorkloadWithFailedCheck_isNotConsideredUntilTheCheckChanges() {
    AdmissionEngine e = base(cq("4").admissionChecks("prov").build())
        .admissionCheck(AdmissionCheck.of("prov", "x")).build();
    e.submit(wl("a", "1"));
    assertThat(e.setCheckState("ns/a", AdmissionCheckState.of("prov", CheckState.RETRY, "later"))).isEmpty();
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(r.pending()).containsEntry("ns/a", AdmissionChecks.FAILED_CHECKS);
    e.setCheckState("ns/a", AdmissionCheckState.of("prov", CheckState.PENDING, ""));
    assertThat(e.schedule().admitted()).hasSize(1);
  }

  @Test
  void rejected_deactivatesUntilReactivated() {
    Scripted ctl = new Scripted(CheckVerdict.rejected("never"), CheckVerdict.ready("ok"));
    AdmissionEngine e = base(cq("4").admissionChecks("prov").build())
        .admissionCheck(AdmissionCheck.of("prov", ctl.controllerName())).admissionCheckController(ctl).build();
    e.submit(wl("a", "1"));
    CycleResult r = e.schedule();
    assertThat(r.checks()).extracting(CheckOutcome::kind).containsExactly(CheckOutcome.Kind.DEACTIVATED);
    assertThat(e.deactivated("ns/a"))
        .contains("The workload is deactivated due to AdmissionCheck in Rejected state: \"prov\" (never)");
    assertThat(e.pendingCount()).isZero();
    assertThat(e.schedule().progressed()).isFalse();
    assertThatThrownBy(() -> e.submit(wl("a", "1"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already submitted");
    assertThat(e.reactivate("ns/a")).isTrue();
    assertThat(e.reactivate("ns/a")).isFalse();
    assertThat(e.schedule().checks()).extracting(CheckOutcome::kind).containsExactly(CheckOutcome.Kind.ADMITTED);
    assertThat(e.isAdmitted("ns/a")).isTrue();
  }

  @Test
  void strategyPerFlavor_checkOnlyForItsFlavor() {
    AdmissionEngine e = base(cq("1").admissionCheckStrategy(AdmissionCheckStrategyRule.of("spot-ok", "spot")).build())
        .admissionCheck(AdmissionCheck.of("spot-ok", "x")).build();
    e.submit(wl("a", "1"));
    e.submit(wl("b", "1"));
    e.scheduleUntilIdle(10);
    QuotaReservation a = e.admission("ns/a").orElseThrow();
    QuotaReservation b = e.admission("ns/b").orElseThrow();
    QuotaReservation onDemand = a.flavorOf("cpu").equals("on-demand") ? a : b;
    QuotaReservation spot = onDemand == a ? b : a;
    assertThat(spot.flavorOf("cpu")).isEqualTo("spot");
    assertThat(e.isAdmitted(onDemand.workload())).isTrue();
    assertThat(e.admissionChecks(onDemand.workload())).isEmpty();
    assertThat(e.isAdmitted(spot.workload())).isFalse();
    assertThat(e.admissionChecks(spot.workload())).extracting(AdmissionCheckState::name).containsExactly("spot-ok");
  }

  @Test
  void podSetUpdates_validated() {
    AdmissionEngine e = base(cq("4").admissionChecks("prov").build())
        .admissionCheck(AdmissionCheck.of("prov", "x")).build();
    e.submit(wl("a", "1"));
    e.schedule();
    AdmissionCheckState bad = AdmissionCheckState.of("prov", CheckState.READY, "").withPodSetUpdates(List.of(
        PodSetUpdate.of("workers"), PodSetUpdate.of("main").withLabels(Map.of("bad key!", "v"))));
    assertThatThrownBy(() -> e.setCheckState("ns/a", bad)).isInstanceOf(ValidationException.class)
        .hasMessageContaining("Workload ns/a")
        .hasMessageContaining("status.admissionChecks[name=prov].podSetUpdates[0].name")
        .hasMessageContaining("supported values: \"main\"")
        .hasMessageContaining("status.admissionChecks[name=prov].podSetUpdates[1].labels");
    assertThat(e.isAdmitted("ns/a")).isFalse(); // nothing was set
    AdmissionCheckState ok = AdmissionCheckState.of("prov", CheckState.READY, "")
        .withPodSetUpdates(List.of(PodSetUpdate.of("main").withNodeSelector(Map.of("zone", "a"))));
    e.setCheckState("ns/a", ok);
    assertThatThrownBy(() -> e.setCheckState("ns/a", ok.withPodSetUpdates(List.of())))
        .isInstanceOf(ValidationException.class).hasMessageContaining("field is immutable");
    assertThatThrownBy(() -> e.setCheckState("ns/a", AdmissionCheckState.of("other", CheckState.READY, "")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("status.admissionChecks[name=other]: the workload has no such admission check (its "
            + "checks: prov)");
  }

  @Test
  void controllerThatThrows_leavesTheCheckPending() {
    AtomicInteger calls = new AtomicInteger();
    AdmissionCheckController broken = new AdmissionCheckController() {
      @Override
      public String controllerName() {
        return "broken";
      }

      @Override
      public CheckVerdict evaluate(AdmissionCheck c, Workload w, QuotaReservation r, AdmissionCheckState s) {
        calls.incrementAndGet();
        throw new IllegalStateException("backend down");
      }
    };
    AdmissionEngine e = base(cq("4").admissionChecks("prov").build())
        .admissionCheck(AdmissionCheck.of("prov", "broken")).admissionCheckController(broken).build();
    e.submit(wl("a", "1"));
    assertThat(e.schedule().checks()).isEmpty();
    assertThat(calls).hasValue(1);
    assertThat(e.admissionChecks("ns/a")).singleElement().satisfies(s -> {
      assertThat(s.state()).isEqualTo(CheckState.PENDING);
      assertThat(s.message()).isEqualTo("admission check controller broken failed: backend down");
    });
  }

  @Test
  void builder_refusesTwoControllersOfOneName() {
    Scripted a = new Scripted(CheckVerdict.pending(""));
    Scripted b = new Scripted(CheckVerdict.pending(""));
    assertThatThrownBy(() -> base(cq("1").build()).admissionCheckController(a).admissionCheckController(b).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("example.com/scripted is already registered");
  }

  @Test
  void clusterQueue_refusesBothChecksAndStrategy() {
    assertThatThrownBy(() -> cq("1").admissionChecks("a").admissionCheckStrategy(AdmissionCheckStrategyRule.of("b"))
        .build()).isInstanceOf(ValidationException.class)
        .hasMessageContaining("Either AdmissionChecks or AdmissionCheckStrategy can be set, but not both");
    assertThatThrownBy(() -> cq("1").admissionChecks("a", "a").build()).isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.admissionChecks[1]");
  }

  @Test
  void assumeAdmitted_takesTheApplicableChecksAsReady() {
    AdmissionEngine e = base(cq("4").admissionCheckStrategy(AdmissionCheckStrategyRule.of("spot-ok", "spot"),
            AdmissionCheckStrategyRule.of("prov")).build())
        .admissionCheck(AdmissionCheck.of("spot-ok", "x")).admissionCheck(AdmissionCheck.of("prov", "x")).build();
    e.assumeAdmitted(wl("a", "1"), "cq", Map.of("cpu", "on-demand"), T0);
    assertThat(e.isAdmitted("ns/a")).isTrue();
    assertThat(e.admissionChecks("ns/a")).extracting(AdmissionCheckState::name, AdmissionCheckState::state)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("prov", CheckState.READY));
    // the check lost (Kueue's "check lost"): no longer admitted, and a cycle leaves it waiting
    assertThat(e.setCheckState("ns/a", AdmissionCheckState.of("prov", CheckState.PENDING, "re-checking"))).isEmpty();
    assertThat(e.isAdmitted("ns/a")).isFalse();
    assertThat(e.schedule().checks()).isEmpty();
    assertThat(e.setCheckState("ns/a", AdmissionCheckState.of("prov", CheckState.READY, "")))
        .get().extracting(CheckOutcome::kind).isEqualTo(CheckOutcome.Kind.ADMITTED);
  }

  @Test
  void preemptedWorkload_hasItsChecksReset() {
    AdmissionEngine e = base(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "1")))
            .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
            .admissionChecks("prov").build())
        .admissionCheck(AdmissionCheck.of("prov", "x")).build();
    e.submit(Workload.builder("ns", "low").queueName("lq").request("cpu", "1").build());
    e.schedule();
    e.setCheckState("ns/low", AdmissionCheckState.of("prov", CheckState.READY, "ok"));
    assertThat(e.isAdmitted("ns/low")).isTrue();
    e.submit(Workload.builder("ns", "high").queueName("lq").priority(10).request("cpu", "1").build());
    assertThat(e.schedule().preempted()).extracting(Preemption::workload).containsExactly("ns/low");
    assertThat(e.isAdmitted("ns/low")).isFalse();
    assertThat(e.admissionChecks("ns/low")).singleElement().satisfies(s -> {
      assertThat(s.state()).isEqualTo(CheckState.PENDING);
      assertThat(s.message()).isEqualTo("Reset to Pending after eviction. Previously: Ready");
    });
  }
}
