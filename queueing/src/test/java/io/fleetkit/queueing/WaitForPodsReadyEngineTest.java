package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The engine's {@code waitForPodsReady}: timeouts, backoff, blockAdmission and the requeuing timestamp. */
final class WaitForPodsReadyEngineTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private final ManualClock clock = new ManualClock(T0);

  private AdmissionEngine engine(WaitForPodsReady cfg, String cpu) {
    return AdmissionEngine.builder().clock(clock).resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", cpu))).build())
        .localQueue(LocalQueue.of("ns", "lq", "cq"))
        .waitForPodsReady(cfg)
        .build();
  }

  private static Workload wl(String name, Instant created) {
    return Workload.builder("ns", name).queueName("lq").request("cpu", "1").creationTime(created).build();
  }

  private static List<String> admittedBy(CycleResult r) {
    return r.admitted().stream().map(QuotaReservation::workload).toList();
  }

  @Test
  void blockAdmission_holdsTheNextWorkloadUntilTheAdmittedOneIsPodsReady() {
    AdmissionEngine e = engine(WaitForPodsReady.builder().blockAdmission(true).build(), "10");
    e.submit(wl("a", T0));
    e.submit(wl("b", T0.plusSeconds(1)));
    assertThat(admittedBy(e.schedule())).containsExactly("ns/a");
    CycleResult first = e.schedule(); // b, the next head, fits but a is not PodsReady
    assertThat(first.admitted()).isEmpty();
    assertThat(first.pending()).containsEntry("ns/b",
        "waiting for all admitted workloads to be in PodsReady condition");

    CycleResult blocked = e.schedule();
    assertThat(blocked.admitted()).isEmpty();
    assertThat(e.pending("cq")).containsExactly("ns/b"); // kept at the head, not parked
    assertThat(e.inadmissible("cq")).isEmpty();

    assertThat(e.setPodsReady("ns/a", true).reason()).isEqualTo(PodsReadyCondition.REASON_STARTED);
    assertThat(admittedBy(e.schedule())).containsExactly("ns/b");
  }

  @Test
  void withoutBlockAdmission_admitsEverythingThatFits() {
    AdmissionEngine e = engine(WaitForPodsReady.defaults(), "10");
    e.submit(wl("a", T0));
    e.submit(wl("b", T0.plusSeconds(1)));
    assertThat(e.scheduleUntilIdle(10)).flatExtracting(WaitForPodsReadyEngineTest::admittedBy)
        .containsExactly("ns/a", "ns/b");
  }

  @Test
  void timeout_evictsOnlyOnceItPassed_andPodsReadyStopsTheClock() {
    AdmissionEngine e = engine(WaitForPodsReady.builder().timeout(Duration.ofMinutes(5)).backoffJitter(0).build(),
        "10");
    e.submit(wl("a", T0));
    e.submit(wl("b", T0));
    e.scheduleUntilIdle(10);
    clock.advance(Duration.ofMinutes(1));
    assertThat(e.podsReadyTimeout("ns/a")).get().extracting(WaitForPodsReady.Timeout::recheckAfter)
        .isEqualTo(Duration.ofMinutes(4));
    e.setPodsReady("ns/b", true);
    assertThat(e.podsReadyTimeout("ns/b")).isEmpty();

    clock.advance(Duration.ofMinutes(4).minusSeconds(1));
    assertThat(e.schedule().podsReadyEvictions()).isEmpty();
    clock.advance(Duration.ofSeconds(1));
    CycleResult r = e.schedule();
    assertThat(r.podsReadyEvictions()).extracting(PodsReadyEviction::workload).containsExactly("ns/a");
    assertThat(e.admission("ns/b")).isPresent();
    assertThat(e.requeueState("ns/a")).contains(new RequeueState(1, clock.instant().plusSeconds(60)));
    assertThat(e.requeueState("ns/b")).isEmpty();
  }

  @Test
  void recovery_notReadyAfterReady_evictsAfterTheRecoveryTimeout() {
    AdmissionEngine e = engine(WaitForPodsReady.builder().timeout(Duration.ofMinutes(5))
        .recoveryTimeout(Duration.ofMinutes(1)).backoffJitter(0).build(), "10");
    e.submit(wl("a", T0));
    e.schedule();
    e.setPodsReady("ns/a", true);
    clock.advance(Duration.ofMinutes(10));
    assertThat(e.schedule().podsReadyEvictions()).isEmpty(); // ready: no timeout runs
    assertThat(e.setPodsReady("ns/a", false).reason()).isEqualTo(PodsReadyCondition.REASON_WAIT_FOR_RECOVERY);
    clock.advance(Duration.ofSeconds(59));
    assertThat(e.schedule().podsReadyEvictions()).isEmpty();
    // recovered in time: Recovered, no eviction
    assertThat(e.setPodsReady("ns/a", true).reason()).isEqualTo(PodsReadyCondition.REASON_RECOVERED);
    clock.advance(Duration.ofMinutes(2));
    assertThat(e.schedule().podsReadyEvictions()).isEmpty();
    e.setPodsReady("ns/a", false);
    clock.advance(Duration.ofMinutes(1));
    assertThat(e.schedule().podsReadyEvictions()).extracting(PodsReadyEviction::cause)
        .containsExactly(WaitForPodsReady.CAUSE_WAIT_FOR_RECOVERY);
  }

  @Test
  void readmission_countsTheTimeoutFromTheNewAdmission() {
    AdmissionEngine e = engine(WaitForPodsReady.builder().timeout(Duration.ofMinutes(1)).backoffBaseSeconds(10)
        .backoffJitter(0).build(), "10");
    e.submit(wl("a", T0));
    e.schedule();
    e.setPodsReady("ns/a", true);
    e.setPodsReady("ns/a", false); // WaitForRecovery; the recovery timeout is the timeout, 1 minute
    clock.advance(Duration.ofMinutes(1));
    assertThat(e.schedule().podsReadyEvictions()).hasSize(1);
    clock.advance(Duration.ofSeconds(10));
    assertThat(admittedBy(e.schedule())).containsExactly("ns/a");
    // the job integration wrote WaitForStart while it was not admitted: the timeout counts from this admission
    assertThat(e.podsReady("ns/a")).get().extracting(PodsReadyCondition::reason)
        .isEqualTo(PodsReadyCondition.REASON_WAIT_FOR_START);
    assertThat(e.podsReadyTimeout("ns/a")).get().extracting(WaitForPodsReady.Timeout::recheckAfter)
        .isEqualTo(Duration.ofMinutes(1));
    clock.advance(Duration.ofMinutes(1));
    assertThat(e.schedule().podsReadyEvictions()).hasSize(1);
    assertThat(e.requeueState("ns/a")).contains(new RequeueState(2, clock.instant().plusSeconds(20)));
  }

  @Test
  void evictionTimestamp_ordersTheEvictedWorkloadByItsEviction_creationTimestampByItsCreation() {
    for (WaitForPodsReady.RequeuingTimestamp ts : WaitForPodsReady.RequeuingTimestamp.values()) {
      ManualClock c = new ManualClock(T0);
      AdmissionEngine e = AdmissionEngine.builder().clock(c).resourceFlavors("default")
          .clusterQueue(ClusterQueue.builder("cq")
              .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "1"))).build())
          .localQueue(LocalQueue.of("ns", "lq", "cq"))
          .waitForPodsReady(WaitForPodsReady.builder().timeout(Duration.ofMinutes(1)).backoffBaseSeconds(0)
              .backoffJitter(0).timestamp(ts).build())
          .build();
      e.submit(wl("old", T0.minusSeconds(100)));
      e.submit(wl("new", T0.minusSeconds(50)));
      assertThat(admittedBy(e.schedule())).containsExactly("ns/old");
      c.advance(Duration.ofMinutes(1));
      CycleResult r = e.schedule(); // evicts old, queues it at once (no backoff), admits the first in queue order
      assertThat(r.podsReadyEvictions()).extracting(PodsReadyEviction::workload).containsExactly("ns/old");
      assertThat(admittedBy(r)).containsExactly(ts == WaitForPodsReady.RequeuingTimestamp.EVICTION ? "ns/new"
          : "ns/old");
    }
  }

  @Test
  void unlimitedBackoffLimit_neverDeactivates() {
    AdmissionEngine e = engine(WaitForPodsReady.builder().timeout(Duration.ofSeconds(1)).backoffBaseSeconds(0)
        .backoffJitter(0).build(), "1");
    e.submit(wl("a", T0));
    for (int i = 1; i <= 20; i++) {
      e.schedule();
      clock.advance(Duration.ofSeconds(1));
    }
    assertThat(e.deactivated("ns/a")).isEmpty();
    assertThat(e.requeueState("ns/a").orElseThrow().count()).isGreaterThanOrEqualTo(10);
  }

  @Test
  void jitter_isDrawnFromTheGivenRandom_andBounded() {
    WaitForPodsReady cfg = WaitForPodsReady.builder().timeout(Duration.ofSeconds(1)).build();
    Instant[] at = new Instant[2];
    for (int run = 0; run < 2; run++) {
      ManualClock c = new ManualClock(T0);
      AdmissionEngine e = AdmissionEngine.builder().clock(c).resourceFlavors("default")
          .clusterQueue(ClusterQueue.builder("cq")
              .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "1"))).build())
          .localQueue(LocalQueue.of("ns", "lq", "cq")).waitForPodsReady(cfg).random(new SplittableRandom(42))
          .build();
      e.submit(wl("a", T0));
      e.schedule();
      c.advance(Duration.ofSeconds(1));
      e.schedule();
      at[run] = e.requeueState("ns/a").orElseThrow().requeueAt();
    }
    assertThat(at[0]).isEqualTo(at[1]); // seeded: reproducible
    Instant evictedAt = T0.plusSeconds(1);
    assertThat(at[0]).isBetween(evictedAt.plusSeconds(60), evictedAt.plusSeconds(60).plusMillis(6));
  }

  @Test
  void setPodsReady_onAWorkloadWithoutQuota_isRefused() {
    AdmissionEngine e = engine(WaitForPodsReady.defaults(), "0");
    e.submit(wl("a", T0));
    assertThatThrownBy(() -> e.setPodsReady("ns/a", true)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Workload ns/a: has no quota reserved");
  }

  @Test
  void builder_refusesASecondConfiguration() {
    AdmissionEngine.Builder b = AdmissionEngine.builder().waitForPodsReady(WaitForPodsReady.defaults());
    assertThatThrownBy(() -> b.waitForPodsReady(WaitForPodsReady.defaults()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("waitForPodsReady was already set");
  }

  @Test
  void configurationBuilder_refusesASettingMadeTwice() {
    WaitForPodsReady.Builder b = WaitForPodsReady.builder().timeout(Duration.ofMinutes(5));
    assertThatThrownBy(() -> b.timeout(Duration.ofMinutes(10))).isInstanceOf(IllegalStateException.class)
        .hasMessage("waitForPodsReady: timeout was already set to 5m");
    WaitForPodsReady.Builder r = WaitForPodsReady.builder().withoutRecoveryTimeout();
    assertThatThrownBy(() -> r.recoveryTimeout(Duration.ofMinutes(1))).isInstanceOf(IllegalStateException.class)
        .hasMessage("waitForPodsReady: recoveryTimeout was already set to null");
  }

  @Test
  void withoutWaitForPodsReady_noTimeoutRuns() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "1"))).build())
        .localQueue(LocalQueue.of("ns", "lq", "cq")).build();
    e.submit(wl("a", T0));
    e.schedule();
    clock.advance(Duration.ofDays(1));
    assertThat(e.schedule().podsReadyEvictions()).isEmpty();
    assertThat(e.podsReadyTimeout("ns/a")).isEmpty();
    assertThat(e.admission("ns/a")).isPresent();
  }

  @Property
  void requeueDelay_doublesUpToTheCap(@ForAll @IntRange(min = 0, max = 600) int base,
      @ForAll @IntRange(min = 1, max = 100_000) int max, @ForAll @IntRange(min = 1, max = 200) int count) {
    WaitForPodsReady cfg = WaitForPodsReady.builder().backoffBaseSeconds(base).backoffMaxSeconds(max).build();
    Duration d = cfg.requeueDelay(count);
    long uncapped = base == 0 ? 0 : count > 40 ? Long.MAX_VALUE : (long) base << (count - 1);
    assertThat(d).isEqualTo(Duration.ofSeconds(Math.min(uncapped, max)));
    assertThat(cfg.requeueDelay(count + 1)).isGreaterThanOrEqualTo(d);
    assertThat(cfg.requeueDelay(count, 0.999_999)).isBetween(d, d.plus(Duration.ofNanos((long) (d.toNanos() * 1e-4))));
  }
}
