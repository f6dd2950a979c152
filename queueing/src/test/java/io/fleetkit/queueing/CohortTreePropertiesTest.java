package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Admission on a two-level cohort tree (root {@code r} with cohorts {@code a} and {@code b} under it; queues on any of
 * the three) never uses more than the tree holds: recomputed from the admissions and the specs alone, the root's
 * usage stays within its subtree quota, every cohort and queue within its borrowing limit, and each queue's usage is
 * the sum of its admissions. With fair sharing too, whatever the weights of the queues and cohorts.
 */
final class CohortTreePropertiesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String[] COHORTS = {"r", "a", "b"};

  /** A quota; limits -1 for none. */
  record Quota(int nominal, int borrowingLimit, int lendingLimit) {}

  record Queue(int cohort, Quota quota, boolean preempt) {}

  record Job(int queue, int priority, int pods, int cpuPerPod) {}

  record Scenario(int rootNominal, Quota a, Quota b, List<Queue> queues, List<Job> jobs) {}

  /** Fair sharing on, with a weight per cohort {@code a}, {@code b} and per queue (0 to 2). */
  record Fairness(boolean on, List<Integer> weights) {}

  @Provide
  Arbitrary<Fairness> fairness() {
    return Combinators.combine(Arbitraries.of(true, false), Arbitraries.integers().between(0, 2).list().ofSize(6))
        .as(Fairness::new);
  }

  @Provide
  Arbitrary<Scenario> scenarios() {
    Arbitrary<Quota> quota = Combinators.combine(Arbitraries.integers().between(0, 6),
            Arbitraries.integers().between(-1, 4), Arbitraries.integers().between(-1, 6))
        .as(Quota::new);
    Arbitrary<Queue> queue = Combinators.combine(Arbitraries.integers().between(0, 2), quota,
            Arbitraries.of(true, false))
        .as((c, q, p) -> new Queue(c, new Quota(q.nominal(), q.borrowingLimit(),
            q.lendingLimit() < 0 ? -1 : Math.min(q.lendingLimit(), q.nominal())), p));
    Arbitrary<Job> job = Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.integers().between(-2, 2),
            Arbitraries.integers().between(1, 3), Arbitraries.integers().between(1, 3))
        .as(Job::new);
    return Combinators.combine(Arbitraries.integers().between(0, 4), quota, quota, queue.list().ofSize(4),
            job.list().ofMaxSize(20))
        .as(Scenario::new);
  }

  private static FlavorResourceQuota cpu(Quota q) {
    FlavorResourceQuota r = new FlavorResourceQuota("cpu", Quantity.of(q.nominal()),
        q.borrowingLimit() < 0 ? null : Quantity.of(q.borrowingLimit()), null);
    return q.lendingLimit() < 0 ? r : r.withLendingLimit(String.valueOf(q.lendingLimit()));
  }

  private static AdmissionEngine engine(Scenario s, Fairness f) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().resourceFlavors("default").fairSharing(f.on())
        .cohort(Cohort.builder("r").resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu",
            String.valueOf(s.rootNominal())))).build())
        .cohort(Cohort.builder("a").parent("r").fairSharingWeight(Quantity.of(f.weights().get(0)))
            .resourceGroup(FlavorQuotas.of("default", cpu(s.a()))).build())
        .cohort(Cohort.builder("b").parent("r").fairSharingWeight(Quantity.of(f.weights().get(1)))
            .resourceGroup(FlavorQuotas.of("default", cpu(s.b()))).build());
    for (int i = 0; i < s.queues().size(); i++) {
      Queue q = s.queues().get(i);
      b.clusterQueue(ClusterQueue.builder("cq" + i).cohort(COHORTS[q.cohort()])
          .fairSharingWeight(Quantity.of(f.weights().get(2 + i)))
          .preemption(q.preempt()
              ? ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.ANY)
              : ClusterQueuePreemption.NEVER)
          .resourceGroup(FlavorQuotas.of("default", cpu(q.quota())))
          .build());
      b.localQueue(LocalQueue.of("ns", "q" + i, "cq" + i));
    }
    return b.build();
  }

  /** Subtree quota and usage of a node, in milli-CPU. */
  private record Node(long quota, long usage, long localQuota) {}

  private static long localQuota(long quota, int lendingLimit) {
    return lendingLimit < 0 ? 0 : Math.max(0, quota - lendingLimit * 1000L);
  }

  @Property(tries = 150)
  void admissionStaysWithinTheTree(@ForAll("scenarios") Scenario s, @ForAll("fairness") Fairness f) {
    AdmissionEngine e = engine(s, f);
    for (int i = 0; i < s.jobs().size(); i++) {
      Job j = s.jobs().get(i);
      e.submit(Workload.builder("ns", "w" + i).queueName("q" + j.queue()).priority(j.priority())
          .creationTime(T0.plusSeconds(i))
          .podSet("main", j.pods(), ResourceList.builder().put("cpu", Quantity.of(j.cpuPerPod())).build())
          .build());
    }
    e.scheduleUntilIdle(200);
    long[] quota = new long[3];
    long[] usage = new long[3];
    quota[0] = s.rootNominal() * 1000L;
    quota[1] = s.a().nominal() * 1000L;
    quota[2] = s.b().nominal() * 1000L;
    for (int i = 0; i < s.queues().size(); i++) {
      Queue q = s.queues().get(i);
      long sum = 0;
      for (QuotaReservation r : e.admitted("cq" + i)) {
        sum += r.podSets().get(0).resourceUsage().milliValue("cpu");
      }
      long used = e.usage("cq" + i, "default", "cpu").milliValue();
      assertThat(used).as("usage of cq%d is the sum of its admissions", i).isEqualTo(sum);
      long nominal = q.quota().nominal() * 1000L;
      if (q.quota().borrowingLimit() >= 0) {
        assertThat(used).as("cq%d within its borrowing limit", i)
            .isLessThanOrEqualTo(nominal + q.quota().borrowingLimit() * 1000L);
      }
      long guaranteed = localQuota(nominal, q.quota().lendingLimit());
      quota[q.cohort()] += nominal - guaranteed;
      usage[q.cohort()] += Math.max(0, used - guaranteed);
    }
    Quota[] limits = {null, s.a(), s.b()};
    for (int c = 1; c <= 2; c++) {
      long lq = localQuota(quota[c], limits[c].lendingLimit());
      if (limits[c].borrowingLimit() >= 0) {
        assertThat(Math.max(0, usage[c] - lq)).as("cohort %s within its borrowing limit", COHORTS[c])
            .isLessThanOrEqualTo(quota[c] - lq + limits[c].borrowingLimit() * 1000L);
      }
      quota[0] += quota[c] - lq;
      usage[0] += Math.max(0, usage[c] - lq);
    }
    assertThat(usage[0]).as("the root's usage within its subtree quota").isLessThanOrEqualTo(quota[0]);
  }
}
