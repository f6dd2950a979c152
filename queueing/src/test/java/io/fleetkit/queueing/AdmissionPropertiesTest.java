package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

final class AdmissionPropertiesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  record Queue(int nominal, int borrowingLimit, int lendingLimit, boolean strict, boolean preempt) {}

  record Job(int queue, int priority, int pods, int cpuPerPod, int gpuPerPod) {}

  record Scenario(List<Queue> queues, List<Job> jobs, boolean fairSharing) {}

  @Provide
  Arbitrary<Scenario> scenarios() {
    Arbitrary<Queue> queue = Combinators.combine(
            Arbitraries.integers().between(0, 8), Arbitraries.integers().between(-1, 6),
            Arbitraries.integers().between(-1, 8), Arbitraries.of(true, false), Arbitraries.of(true, false))
        .as((n, b, l, s, p) -> new Queue(n, b, l < 0 ? -1 : Math.min(l, n), s, p));
    Arbitrary<Job> job = Combinators.combine(
            Arbitraries.integers().between(0, 3), Arbitraries.integers().between(-2, 2),
            Arbitraries.integers().between(1, 3), Arbitraries.integers().between(1, 3),
            Arbitraries.integers().between(0, 1))
        .as(Job::new);
    return Combinators.combine(queue.list().ofSize(4), job.list().ofMaxSize(25), Arbitraries.of(true, false))
        .as(Scenario::new);
  }

  private static FlavorResourceQuota quota(String resource, Queue q) {
    FlavorResourceQuota r = new FlavorResourceQuota(resource, Quantity.of(q.nominal()),
        q.borrowingLimit() < 0 ? null : Quantity.of(q.borrowingLimit()), null);
    return q.lendingLimit() < 0 ? r : r.withLendingLimit(String.valueOf(q.lendingLimit()));
  }

  private static AdmissionEngine engine(Scenario s) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().resourceFlavors("on-demand", "spot").fairSharing(s.fairSharing());
    for (int i = 0; i < s.queues().size(); i++) {
      Queue q = s.queues().get(i);
      b.clusterQueue(ClusterQueue.builder("cq" + i).cohort("all")
          .queueingStrategy(q.strict() ? QueueingStrategy.STRICT_FIFO : QueueingStrategy.BEST_EFFORT_FIFO)
          .preemption(q.preempt()
              ? ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.LOWER_PRIORITY)
              : ClusterQueuePreemption.NEVER)
          .resourceGroup(FlavorQuotas.of("on-demand", quota("cpu", q), quota("gpu", q)),
              FlavorQuotas.of("spot", quota("cpu", q), quota("gpu", q)))
          .build());
      b.localQueue(LocalQueue.of("ns", "q" + i, "cq" + i));
    }
    return b.build();
  }

  @Property(tries = 100)
  void admission_neverExceedsQuotasAndIsAllOrNothing(@ForAll("scenarios") Scenario s) {
    AdmissionEngine e = engine(s);
    List<Workload> all = new ArrayList<>();
    for (int i = 0; i < s.jobs().size(); i++) {
      Job j = s.jobs().get(i);
      Workload w = Workload.builder("ns", "w" + i).queueName("q" + j.queue()).priority(j.priority())
          .creationTime(T0.plusSeconds(i))
          .podSet("main", j.pods(), ResourceList.builder().put("cpu", Quantity.of(j.cpuPerPod()))
              .put("gpu", Quantity.of(j.gpuPerPod())).build())
          .build();
      all.add(w);
      e.submit(w);
    }
    e.scheduleUntilIdle(200);
    long[] cohortBorrowed = new long[4];
    long[] cohortLendable = new long[4];
    String[] frs = {"on-demand/cpu", "on-demand/gpu", "spot/cpu", "spot/gpu"};
    for (int i = 0; i < s.queues().size(); i++) {
      Queue q = s.queues().get(i);
      String cq = "cq" + i;
      long[] sum = new long[4];
      for (QuotaReservation a : e.admitted(cq)) {
        Workload w = all.stream().filter(x -> x.key().equals(a.workload())).findFirst().orElseThrow();
        assertThat(a.podSets()).hasSize(w.podSets().size());
        for (PodSetAssignment p : a.podSets()) {
          for (String r : List.of("cpu", "gpu")) {
            String f = p.flavors().get(r);
            assertThat(f).as("every requested resource has a flavor").isNotNull();
            sum[java.util.Arrays.asList(frs).indexOf(f + "/" + r)] += p.resourceUsage().milliValue(r);
          }
        }
      }
      long guaranteed = q.lendingLimit() < 0 ? 0 : q.nominal() - q.lendingLimit();
      for (int k = 0; k < 4; k++) {
        String[] fr = frs[k].split("/");
        long used = e.usage(cq, fr[0], fr[1]).milliValue();
        assertThat(used).as("usage of %s %s is the sum of its admissions", cq, frs[k]).isEqualTo(sum[k]);
        if (q.borrowingLimit() >= 0) {
          assertThat(used).isLessThanOrEqualTo((q.nominal() + q.borrowingLimit()) * 1000L);
        }
        cohortBorrowed[k] += Math.max(0, used - guaranteed * 1000);
        cohortLendable[k] += (q.nominal() - guaranteed) * 1000L;
      }
    }
    for (int k = 0; k < 4; k++) {
      assertThat(cohortBorrowed[k]).as("cohort use of %s beyond guaranteed quota", frs[k])
          .isLessThanOrEqualTo(cohortLendable[k]);
    }
  }
}
