package io.fleetkit.queueing.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class MultifactorPriorityTest {
  private static final Instant NOW = Instant.parse("2026-01-15T00:00:00Z");

  /**
   * The worked example of SchedMD/slurm {@code doc/html/classic_fair_share.shtml} ("Example"): accounts A (40) and D
   * (60); B (30) and C (10) under A; E (25) and F (35) under D; user 1 in B, users 2 and 3 in C (1 share each), user 4
   * in E, user 5 in F; normalized usage 0.2, 0.25 and 0.25 for users 1, 2 and 4.
   */
  static FairShareTree slurmExample() {
    return FairShareTree.builder()
        .account("A", "root", 40).account("D", "root", 60)
        .account("B", "A", 30).account("C", "A", 10)
        .account("E", "D", 25).account("F", "D", 35)
        .user("user1", "B", 1, 0.2).user("user2", "C", 1, 0.25).user("user3", "C", 1, 0)
        .user("user4", "E", 1, 0.25).user("user5", "F", 1, 0)
        .totalUsage(1.0)
        .build();
  }

  @Test
  void fairShare_slurmClassicExample_matchesTheDocumentedFactors() {
    FairShareTree t = slurmExample();
    assertThat(t.accountEffectiveUsage("B")).isCloseTo(0.3875, within(1e-9));
    assertThat(t.accountEffectiveUsage("C")).isCloseTo(0.3, within(1e-9));
    assertThat(t.accountEffectiveUsage("F")).isCloseTo(0.1458, within(1e-4));
    assertThat(t.effectiveUsage("user2", "C")).isCloseTo(0.275, within(1e-9));
    assertThat(t.effectiveUsage("user3", "C")).isCloseTo(0.15, within(1e-9));
    assertThat(t.normalizedShares("user2", "C")).isCloseTo(0.05, within(1e-12));
    assertThat(t.factor("user1", "B")).isCloseTo(0.408479, within(1e-6));
    assertThat(t.factor("user2", "C")).isCloseTo(0.022097, within(1e-6));
    assertThat(t.factor("user3", "C")).isCloseTo(0.125, within(1e-9));
    assertThat(t.factor("user4", "E")).isCloseTo(0.5, within(1e-9));
    assertThat(t.factor("user5", "F")).isCloseTo(0.749154, within(2e-5));
  }

  @Test
  void fairShare_dampeningFactor_softensTheExponent() {
    FairShareTree t = FairShareTree.builder().account("A", "root", 1).user("u", "A", 1, 1).dampeningFactor(2).build();
    // U_E = 1, S = 1: 2^(-1/1/2).
    assertThat(t.factor("u", "A")).isCloseTo(Math.pow(2, -0.5), within(1e-12));
  }

  @Test
  void decay_halfLife_halvesUsage() {
    assertThat(FairShareTree.decay(100, Duration.ofDays(7), Duration.ofDays(7))).isCloseTo(50, within(1e-9));
    assertThat(FairShareTree.decay(100, Duration.ofDays(14), Duration.ofDays(7))).isCloseTo(25, within(1e-9));
  }

  private static MultifactorPriority priority(PriorityWeights w, FairShareTree fs) {
    return new MultifactorPriority(w, 16, 256,
        List.of(new Partition("batch", 10, 1, null, null), new Partition("debug", 40, 1, null, null),
            new Partition("urgent", 1, 2, null, null)),
        List.of(new Qos("normal", 100), new Qos("high", 400)), fs);
  }

  @Test
  void factors_eachFactorIsNormalizedAndWeighted() {
    // The weights of the documentation's configuration example, with a QOS weight added.
    PriorityWeights w = PriorityWeights.of(1000, 10000, 1000, 1000, 2000).withMaxAge(Duration.ofDays(14));
    MultifactorPriority mp = priority(w, slurmExample());
    BatchJob job = new BatchJob("1", "user4", "E", "batch", "normal", 4, 0, Duration.ofHours(1),
        NOW.minus(Duration.ofDays(7)), 0);
    PriorityFactors f = mp.factors(job, NOW);
    assertThat(f.age()).isCloseTo(0.5, within(1e-12));
    assertThat(f.fairShare()).isCloseTo(0.5, within(1e-12));
    assertThat(f.jobSize()).isCloseTo(4.0 / 16, within(1e-12));
    assertThat(f.partition()).isCloseTo(10.0 / 40, within(1e-12));
    assertThat(f.qos()).isCloseTo(100.0 / 400, within(1e-12));
    assertThat(f.priority()).isEqualTo(500 + 5000 + 250 + 250 + 500);
    assertThat(mp.factors(job.withNice(1000), NOW).priority()).isEqualTo(5500);
  }

  @Test
  void factors_ageReachesOneAtMaxAgeAndPriorityIsAtLeastOne() {
    MultifactorPriority mp = priority(PriorityWeights.of(1000, 0, 0, 0, 0), slurmExample());
    BatchJob old = BatchJob.of("old", 1, null, NOW.minus(Duration.ofDays(30)));
    assertThat(mp.factors(old, NOW).age()).isEqualTo(1.0);
    assertThat(mp.factors(old, NOW).priority()).isEqualTo(1000);
    assertThat(mp.factors(BatchJob.of("new", 1, null, NOW), NOW).priority()).isEqualTo(1);
  }

  @Test
  void factors_jobSize_favorLargeSmallCpusAndRelativeToTime() {
    MultifactorPriority large = priority(PriorityWeights.of(0, 0, 1000, 0, 0), slurmExample());
    BatchJob eight = BatchJob.of("j", 8, Duration.ofMinutes(60), NOW);
    assertThat(large.factors(eight, NOW).jobSize()).isCloseTo(0.5, within(1e-12));
    assertThat(large.factors(eight.withCpus(64), NOW).jobSize()).isCloseTo((0.5 + 0.25) / 2, within(1e-12));
    MultifactorPriority small = priority(PriorityWeights.of(0, 0, 1000, 0, 0).withFavorSmall(true), slurmExample());
    assertThat(small.factors(BatchJob.of("j", 4, null, NOW), NOW).jobSize()).isCloseTo(0.75, within(1e-12));
    MultifactorPriority rel =
        priority(PriorityWeights.of(0, 0, 1000, 0, 0).withSmallRelativeToTime(true), slurmExample());
    // A full-system job with a one-minute limit gets 1.0; the same job for an hour gets 1/60.
    assertThat(rel.factors(BatchJob.of("j", 16, Duration.ofMinutes(1), NOW), NOW).jobSize()).isEqualTo(1.0);
    assertThat(rel.factors(BatchJob.of("j", 16, Duration.ofMinutes(60), NOW), NOW).jobSize())
        .isCloseTo(1.0 / 60, within(1e-12));
  }

  @Test
  void order_partitionTierDominatesPriority() {
    MultifactorPriority mp = priority(PriorityWeights.of(1000, 0, 0, 1000, 0), slurmExample());
    BatchJob oldBatch = BatchJob.of("old-batch", 1, null, NOW.minus(Duration.ofDays(7)));
    BatchJob debug = BatchJob.of("debug", 1, null, NOW).withPartition("debug");
    BatchJob urgent = BatchJob.of("urgent", 1, null, NOW).withPartition("urgent");
    List<BatchJob> jobs = new ArrayList<>(List.of(oldBatch, debug, urgent));
    jobs.sort(mp.order(NOW));
    // urgent: tier 2. Then old-batch: 1000 + 250 beats debug: 1000.
    assertThat(jobs).extracting(BatchJob::id).containsExactly("urgent", "old-batch", "debug");
  }
}
