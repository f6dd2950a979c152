package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Kueue's cohort tree through the engine: validation, quota lent down the tree, lending limits, cycles. */
final class CohortTreeTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private static FlavorQuotas cpu(String nominal) {
    return FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", nominal));
  }

  private static ClusterQueue cq(String name, String cohort, String nominal) {
    return ClusterQueue.builder(name).cohort(cohort).resourceGroup(cpu(nominal)).build();
  }

  private static AdmissionEngine.Builder engine(List<Cohort> cohorts, ClusterQueue... queues) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(Clock.fixed(NOW, ZoneOffset.UTC))
        .resourceFlavors("default");
    for (ClusterQueue q : queues) {
      b.clusterQueue(q).localQueue(LocalQueue.of("team", q.name(), q.name()));
    }
    cohorts.forEach(b::cohort);
    return b;
  }

  private static Workload wl(String name, String queue, String cpu) {
    return Workload.builder("team", name).queueName(queue).creationTime(NOW).request("cpu", cpu).build();
  }

  @Test
  void aCohortsOwnQuotaIsLentToEveryQueueBelowIt() {
    // org(4) <- team(0) <- a(0); org <- b(0)
    AdmissionEngine e = engine(List.of(Cohort.builder("org").resourceGroup(cpu("4")).build(), Cohort.of("team", "org")),
        cq("a", "team", "0"), cq("b", "org", "0")).build();
    e.submit(wl("first", "a", "3"));
    e.submit(wl("second", "b", "2"));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).extracting(QuotaReservation::workload).containsExactly("team/first");
    assertThat(r.admitted().get(0).borrowing()).isTrue();
    assertThat(r.pending().get("team/second")).isEqualTo("workload no longer fits after processing another workload");
    assertThat(e.schedule().pending().get("team/second")).isEqualTo("couldn't assign flavors to pod set main: "
        + "insufficient unused quota for cpu in flavor default, 1 more needed");
    assertThat(e.delete("team/first")).isTrue();
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("team/second");
  }

  @Test
  void aChildCohortsLendingLimitHoldsQuotaBackFromItsSiblings() {
    // root <- left(6, lends at most 2) <- a(0); root <- b(0)
    Cohort left = Cohort.builder("left").parent("root").resourceGroup(FlavorQuotas.of("default",
        FlavorResourceQuota.of("cpu", "6").withLendingLimit("2"))).build();
    AdmissionEngine e = engine(List.of(left), cq("a", "left", "0"), cq("b", "root", "0")).build();
    e.submit(wl("outside", "b", "3"));
    assertThat(e.schedule().admitted()).isEmpty();
    assertThat(e.pending("b")).containsExactly("team/outside");
    e.delete("team/outside");
    e.submit(wl("outside-small", "b", "2"));
    e.submit(wl("inside", "a", "4"));
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload)
        .containsExactlyInAnyOrder("team/outside-small", "team/inside");
    assertThat(e.usage("a", "default", "cpu").milliValue()).isEqualTo(4000);
  }

  @Test
  void aRootCohortsLimitsAreRefusedWithTheField() {
    assertThatThrownBy(() -> Cohort.builder("org").resourceGroup(FlavorQuotas.of("default",
            FlavorResourceQuota.of("cpu", "4", "2"))).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Cohort org")
        .hasMessageContaining("spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit")
        .hasMessageContaining("must be nil when parent is empty");
  }

  @Test
  void aCohortsLendingLimitMayExceedItsOwnNominalQuota() {
    Cohort c = Cohort.builder("team").parent("org").resourceGroup(FlavorQuotas.of("default",
        FlavorResourceQuota.of("cpu", "1").withLendingLimit("5"))).build();
    assertThat(c.parent()).isEqualTo("org");
  }

  @Test
  void aCohortCannotBeItsOwnParent() {
    assertThatThrownBy(() -> Cohort.of("org", "org"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.parentName")
        .hasMessageContaining("must not be the cohort itself");
  }

  @Test
  void aCycleOfParentsIsRefusedWhenTheEngineIsBuilt() {
    assertThatThrownBy(() -> engine(List.of(Cohort.of("a", "b"), Cohort.of("b", "a")), cq("q", "a", "1")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cohort a: spec.parentName forms a cycle a -> b -> a");
  }

  @Test
  void aCohortDeclaredTwiceIsRefused() {
    assertThatThrownBy(() -> engine(List.of(Cohort.of("a", null), Cohort.of("a", null)), cq("q", "a", "1")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cohort a added twice");
  }

  // As in Kueue, a Cohort's quota in a flavor not (yet) created is counted; only ClusterQueues naming it are inactive
  @Test
  void aCohortNamingAFlavorNotYetCreatedLendsItOnceItIs() {
    Cohort c = Cohort.builder("org").resourceGroup(FlavorQuotas.of("gpu", FlavorResourceQuota.of("cpu", "4"))).build();
    ClusterQueue q = ClusterQueue.builder("q").cohort("org")
        .resourceGroup(FlavorQuotas.of("gpu", FlavorResourceQuota.of("cpu", "0"))).build();
    AdmissionEngine e = engine(List.of(c), q).build();
    e.submit(wl("w", "q", "3"));
    assertThat(e.schedule().admitted()).isEmpty();
    assertThat(e.inactiveReason("q")).contains("Can't admit new workloads: references missing ResourceFlavor(s): gpu.");
    e.addResourceFlavor(ResourceFlavor.of("gpu"));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).extracting(QuotaReservation::workload).containsExactly("team/w");
    assertThat(r.admitted().get(0).borrowing()).isTrue();
  }


  @Test
  void preemptionsNameThePathsOfBothQueues() {
    // root <- left(0) <- a(2, reclaims Any); root <- right <- b(0)
    ClusterQueue a = ClusterQueue.builder("a").cohort("left").resourceGroup(cpu("2"))
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.NEVER, QueuePreemptionPolicy.ANY)).build();
    AdmissionEngine e = engine(List.of(Cohort.of("left", "root"), Cohort.of("right", "root")), a,
        cq("b", "right", "0")).build();
    e.submit(wl("borrower", "b", "2"));
    assertThat(e.schedule().admitted()).hasSize(1);
    e.submit(wl("owner", "a", "2"));
    Preemption p = e.schedule().preempted().get(0);
    assertThat(p.workload()).isEqualTo("team/borrower");
    assertThat(p.message()).isEqualTo("Preempted to accommodate a workload (team/owner) due to reclamation within "
        + "the cohort; preemptor path: /root/left/a; preemptee path: /root/right/b");
  }
}
