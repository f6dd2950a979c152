package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/scheduler_afs_test.go}, {@code TestScheduleForAFS} (at commit
 * ff69552e), through the engine: ClusterQueue {@code cq1} (8 CPUs, 8Gi) with usage-based admission fair sharing,
 * LocalQueues {@code lq-a}, {@code lq-b}, {@code lq-c} of weight 1 and {@code lq-zero} of weight 0, a half-life of
 * 10s sampled every second, as many cycles as workloads on a clock that does not move. Upstream seeds the ledger
 * ({@code initialUsage}); here each LocalQueue's usage is restored as its status ({@link
 * AdmissionEngine#assumeLocalQueueFairSharing}), which the first cycle seeds unchanged. Each case checks the workloads
 * admitted and the {@code QuotaReserved=False} message of those left waiting where upstream has one. 6 of 8 cases:
 * "admits workload when another LQ is deleted" and "admits workload even if its localqueue was deleted" delete the
 * LocalQueue from the API server only, the queue manager keeping it; in the engine removing a LocalQueue is the
 * manager's deletion, after which its workloads wait (docs/conformance.md).
 *
 * <p>Also {@code TestShouldApplyEntryPenalty} (4 of 4), through the engine: whether a cycle's reservation pushes an
 * entry penalty, seen as the LocalQueue's usage while the reservation waits for an admission check ({@code
 * 4 x (1 - 0.5^(1s / 10s))}); the second-pass workload already holding a reservation is one restored with {@link
 * AdmissionEngine#assumeReserved}, which a cycle only admits.
 */
final class KueueScheduleForAfsPortTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final AdmissionFairSharing AFS =
      new AdmissionFairSharing(Duration.ofSeconds(10), Duration.ofSeconds(1), Map.of());

  /** A workload: name, LocalQueue, CPUs, seconds after now it was created. */
  record W(String name, String queue, String cpu, int createdAfter) {}

  record Case(String name, boolean afs, Map<String, String> initialCpu, List<W> workloads, Set<String> wantAdmitted,
      Map<String, String> wantPending) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static String noQuota(String more) {
    return "couldn't assign flavors to pod set one: insufficient unused quota for cpu in flavor default, " + more
        + " more needed";
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        new Case("admits workload from less active localqueue", true, Map.of("lq-a", "8", "lq-b", "2"),
            List.of(new W("wl-a1", "lq-a", "8", 0), new W("wl-b1", "lq-b", "8", 1)),
            Set.of("default/wl-b1"), Map.of("default/wl-a1", noQuota("8"))),
        // 0 usage over weight 0 is +Inf, not NaN: the zero-weight queue comes last though its workload is older
        new Case("does not prioritize a zero-weight localqueue", true, Map.of("lq-a", "0", "lq-zero", "0"),
            List.of(new W("wl-z1", "lq-zero", "8", 0), new W("wl-a1", "lq-a", "8", 1)),
            Set.of("default/wl-a1"), Map.of("default/wl-z1", noQuota("8"))),
        new Case("without AFS: classic admission decision ignores queue usage", false,
            Map.of("lq-a", "8", "lq-b", "2"),
            List.of(new W("wl-a1", "lq-a", "8", 0), new W("wl-b1", "lq-b", "8", 1)),
            Set.of("default/wl-a1"), Map.of("default/wl-b1", noQuota("8"))),
        // a1 first by age at equal usage; its entry penalty then puts lq-a above lq-b
        new Case("admits one workload from each localqueue when quota is limited", true,
            Map.of("lq-a", "4", "lq-b", "4"),
            List.of(new W("wl-a1", "lq-a", "4", 0), new W("wl-a2", "lq-a", "4", 1), new W("wl-b1", "lq-b", "4", 2),
                new W("wl-b2", "lq-b", "4", 3)),
            Set.of("default/wl-a1", "default/wl-b1"), Map.of("default/wl-a2", noQuota("4"))),
        new Case("schedules normally when queues have equal usage", true,
            Map.of("lq-a", "2", "lq-b", "2", "lq-c", "2"),
            List.of(new W("wl-a1", "lq-a", "4", 0), new W("wl-b1", "lq-b", "3", 1), new W("wl-c1", "lq-c", "1", 2)),
            Set.of("default/wl-a1", "default/wl-b1", "default/wl-c1"), Map.of()),
        new Case("admits workload from lq-b with uninitialized cache", true, Map.of("lq-a", "8"),
            List.of(new W("wl-a1", "lq-a", "8", 0), new W("wl-b1", "lq-b", "8", 1)),
            Set.of("default/wl-b1"), Map.of("default/wl-a1", noQuota("8"))))
        .map(Arguments::of);
  }

  static Stream<Arguments> entryPenalty() {
    return Stream.of(
        Arguments.of("pushes for a first-pass workload on a usage-based ClusterQueue", true, true, false, true),
        Arguments.of("skips when no AdmissionFairSharing config is set", false, true, false, false),
        Arguments.of("skips for a ClusterQueue without usage-based admission mode", true, false, false, false),
        Arguments.of("skips a second-pass workload that already holds a quota reservation", true, true, true, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("entryPenalty")
  void schedule_testShouldApplyEntryPenaltyCase_pushesAsUpstream(String name, boolean config, boolean usageBased,
      boolean reserved, boolean want) {
    ClusterQueue.Builder cq = ClusterQueue.builder("cq")
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "8"))).admissionChecks("prov");
    if (usageBased) {
      cq.admissionMode(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING);
    }
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(new ManualClock(NOW)).resourceFlavors("default")
        .clusterQueue(cq.build()).localQueue(LocalQueue.of("ns", "lq", "cq"))
        .admissionCheck(AdmissionCheck.of("prov", "x"));
    if (config) {
      b.admissionFairSharing(AFS);
    }
    AdmissionEngine e = b.build();
    Workload wl = Workload.builder("ns", "wl").queueName("lq").request("cpu", "4").creationTime(NOW).build();
    if (reserved) {
      e.assumeReserved(wl, "cq", List.of(new PodSetAssignment(wl.podSets().get(0).name(), 1,
          Map.of("cpu", "default"), wl.podSets().get(0).requests())), NOW);
    } else {
      e.submit(wl);
    }

    e.schedule();

    assertThat(e.admission("ns/wl")).isPresent();
    assertThat(e.isAdmitted("ns/wl")).isFalse(); // the check is pending: the penalty, if any, is not settled
    double penalty = 4 * (1 - Math.pow(0.5, 0.1));
    assertThat(e.localQueueUsage("ns", "lq")).isCloseTo(want ? penalty : 0, org.assertj.core.data.Offset.offset(1e-8));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void schedule_upstreamCase_admitsAsUpstream(Case tc) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(new ManualClock(NOW)).resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq1")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "8"),
                FlavorResourceQuota.of("memory", "8Gi")))
            .admissionMode(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING).build());
    for (String lq : List.of("lq-a", "lq-b", "lq-c")) {
      b.localQueue(LocalQueue.of("default", lq, "cq1"));
    }
    b.localQueue(LocalQueue.of("default", "lq-zero", "cq1").withFairSharingWeight(Quantity.ZERO));
    if (tc.afs()) {
      b.admissionFairSharing(AFS);
    }
    AdmissionEngine e = b.build();
    if (tc.afs()) {
      tc.initialCpu().forEach((lq, cpu) -> e.assumeLocalQueueFairSharing("default", lq,
          new LocalQueueFairSharingStatus(Map.of("cpu", Quantity.parse(cpu)), NOW)));
    }
    for (W w : tc.workloads()) {
      e.submit(Workload.builder("default", w.name()).queueName(w.queue()).creationTime(NOW.plusSeconds(w.createdAfter()))
          .podSet(PodSet.of("one", 1, io.fleetkit.api.resource.ResourceList.builder()
              .put("cpu", Quantity.parse(w.cpu())).build()))
          .build());
    }

    Set<String> admitted = new LinkedHashSet<>();
    Map<String, String> pending = new HashMap<>();
    for (int i = 0; i < tc.workloads().size(); i++) {
      CycleResult r = e.schedule();
      r.admitted().forEach(q -> admitted.add(q.workload()));
      pending.putAll(r.pending());
    }

    assertThat(admitted).containsExactlyInAnyOrderElementsOf(tc.wantAdmitted());
    for (Map.Entry<String, String> want : tc.wantPending().entrySet()) {
      assertThat(pending).containsEntry(want.getKey(), want.getValue());
    }
    for (String key : admitted) {
      assertThat(e.isAdmitted(key)).isTrue();
      assertThat(e.admission(key).orElseThrow().podSets().get(0).flavors()).containsEntry("cpu", "default");
    }
  }
}
