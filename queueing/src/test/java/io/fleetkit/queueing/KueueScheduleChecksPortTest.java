package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.resource.ResourceList;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/scheduler_test.go} (commit ff69552e), {@code TestSchedule},
 * its two admission-check cases: "workload fits in single clusterQueue, with check state pending" and "pending
 * admission check with nofit and fit flavors". Upstream's workloads carry the state of a check {@code check} that
 * its base ClusterQueues do not name; in FleetKit a workload's checks are those of its queue, so {@code sales} and
 * {@code eng-beta} name {@code check} here (otherwise the same queues as {@code KueueSchedulePortTest}). The cycle
 * reserves quota ({@code QuotaReserved=True}) and the workload is not admitted ({@code Admitted=False}, {@code The
 * workload has not all checks ready}), with upstream's assignments. "with check state pending" also checks upstream's
 * {@code wantEvents} (workload, type, reason; upstream ignores the notes): {@code QuotaReserved} alone. The other case's
 * {@code wantEvents} compares the note, whose {@code Flavors considered: ...} part the engine does not write.
 */
final class KueueScheduleChecksPortTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private static LabelSelector dep(String value) {
    return new LabelSelector(Map.of(), List.of(new LabelSelectorRequirement("dep", LabelSelectorOperator.In,
        List.of(value))));
  }

  private static FlavorQuotas fq(String flavor, String resource, String nominal, String borrowing) {
    return FlavorQuotas.of(flavor, FlavorResourceQuota.of(resource, nominal, borrowing));
  }

  private static AdmissionEngine engine() {
    return engine(io.fleetkit.api.events.EventRecorder.NOOP);
  }

  private static AdmissionEngine engine(io.fleetkit.api.events.EventRecorder events) {
    return AdmissionEngine.builder().clock(Clock.fixed(NOW, ZoneOffset.UTC)).events(events)
        .resourceFlavors("default", "on-demand", "spot", "model-a")
        .namespace("eng-alpha", Map.of("dep", "eng"))
        .namespace("eng-beta", Map.of("dep", "eng"))
        .namespace("sales", Map.of("dep", "sales"))
        .clusterQueue(ClusterQueue.builder("sales").namespaceSelector(dep("sales"))
            .queueingStrategy(QueueingStrategy.STRICT_FIFO)
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "50")))
            .admissionChecks("check").build())
        .clusterQueue(ClusterQueue.builder("eng-alpha").cohort("eng").namespaceSelector(dep("eng"))
            .queueingStrategy(QueueingStrategy.STRICT_FIFO)
            .resourceGroup(fq("on-demand", "cpu", "50", "50"), fq("spot", "cpu", "100", "0")).build())
        .clusterQueue(ClusterQueue.builder("eng-beta").cohort("eng").namespaceSelector(dep("eng"))
            .queueingStrategy(QueueingStrategy.STRICT_FIFO)
            .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.ANY))
            .resourceGroup(fq("on-demand", "cpu", "50", "10"), fq("spot", "cpu", "0", "100"))
            .resourceGroup(fq("model-a", "example.com/gpu", "20", "0"))
            .admissionChecks("check").build())
        .localQueue(LocalQueue.of("sales", "main", "sales"))
        .localQueue(LocalQueue.of("eng-alpha", "main", "eng-alpha"))
        .localQueue(LocalQueue.of("eng-beta", "main", "eng-beta"))
        .admissionCheck(AdmissionCheck.of("check", "example.com/check"))
        .build();
  }

  private static void assertReservedNotAdmitted(AdmissionEngine e, CycleResult r, String key) {
    assertThat(r.admitted()).extracting(QuotaReservation::workload).containsExactly(key);
    assertThat(r.checks()).isEmpty();
    assertThat(e.admission(key)).isPresent(); // QuotaReserved=True
    assertThat(e.isAdmitted(key)).isFalse(); // Admitted=False, UnsatisfiedAdmissionChecks
    assertThat(e.admissionChecks(key)).singleElement().satisfies(s -> {
      assertThat(s.name()).isEqualTo("check");
      assertThat(s.state()).isEqualTo(CheckState.PENDING);
    });
    assertThat(AdmissionChecks.syncAdmitted(true, e.admissionChecks(key), null, null, NOW).condition())
        .satisfies(c -> {
          assertThat(c.status()).isFalse();
          assertThat(c.reason()).isEqualTo(AdmissionChecks.REASON_UNSATISFIED_CHECKS);
          assertThat(c.message()).isEqualTo("The workload has not all checks ready");
        });
  }

  @Test
  void workloadFitsInSingleClusterQueueWithCheckStatePending() {
    RecordedEvents ev = new RecordedEvents();
    AdmissionEngine e = engine(ev);
    e.submit(Workload.builder("sales", "foo").queueName("main").creationTime(NOW)
        .podSet("one", 10, ResourceList.builder().put("cpu", "1").build()).build());
    CycleResult r = e.schedule();
    assertReservedNotAdmitted(e, r, "sales/foo");
    QuotaReservation a = e.admission("sales/foo").orElseThrow();
    assertThat(a.clusterQueue()).isEqualTo("sales");
    assertThat(a.podSets()).singleElement().satisfies(p -> {
      assertThat(p.name()).isEqualTo("one");
      assertThat(p.count()).isEqualTo(10);
      assertThat(p.flavors()).containsExactly(Map.entry("cpu", "default"));
      assertThat(p.resourceUsage().get("cpu").milliValue()).isEqualTo(10_000);
    });
    assertThat(ev.withoutNotes()).containsExactly("sales/foo Normal QuotaReserved");
  }

  @Test
  void pendingAdmissionCheckWithNofitAndFitFlavors() {
    AdmissionEngine e = engine();
    e.submit(Workload.builder("eng-beta", "pending-check").queueName("main").creationTime(NOW).request("cpu", "80")
        .build());
    CycleResult r = e.schedule();
    assertReservedNotAdmitted(e, r, "eng-beta/pending-check");
    QuotaReservation a = e.admission("eng-beta/pending-check").orElseThrow();
    assertThat(a.clusterQueue()).isEqualTo("eng-beta");
    assertThat(a.flavorOf("cpu")).isEqualTo("spot");
    assertThat(a.borrowing()).isTrue(); // upstream's event: spot(Fit;borrow=1)
  }
}
