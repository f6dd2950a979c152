package io.fleetkit.queueing.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

final class BackfillPropertiesTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final int NODES = 8;
  private static final BackfillScheduler BACKFILL = new BackfillScheduler(BackfillConfig.DEFAULT,
      List.of(Partition.of("batch", null, Duration.ofHours(6))));

  record Scenario(List<RunningJob> running, List<BatchJob> pending) {}

  @Provide
  Arbitrary<Scenario> scenarios() {
    Arbitrary<RunningJob> running = Combinators.combine(
            Arbitraries.integers().between(1, 3), Arbitraries.integers().between(1, 240))
        .as((n, m) -> new RunningJob("r", n, NOW, Duration.ofMinutes(m)));
    Arbitrary<BatchJob> pending = Combinators.combine(
            Arbitraries.integers().between(1, NODES), Arbitraries.integers().between(1, 300))
        .as((n, m) -> BatchJob.of("p", n, Duration.ofMinutes(m), NOW));
    return Combinators.combine(running.list().ofMaxSize(4), pending.list().ofMinSize(1).ofMaxSize(12))
        .as((r, p) -> {
          List<RunningJob> rs = new ArrayList<>();
          int busy = 0;
          for (RunningJob x : r) {
            if (busy + x.nodes() <= NODES) {
              busy += x.nodes();
              rs.add(new RunningJob("r" + rs.size(), x.nodes(), x.start(), x.timeLimit()));
            }
          }
          List<BatchJob> ps = new ArrayList<>();
          for (BatchJob x : p) {
            ps.add(BatchJob.of("p" + ps.size(), x.nodes(), x.timeLimit(), NOW));
          }
          return new Scenario(rs, ps);
        });
  }

  @Property(tries = 200)
  void backfill_neverDelaysTheTopJobsReservedStart(@ForAll("scenarios") Scenario s) {
    BatchJob top = s.pending().get(0);
    Instant alone = BACKFILL.plan(NOW, NODES, s.running(), List.of(top)).expectedStart().get(top.id());
    Instant withOthers = BACKFILL.plan(NOW, NODES, s.running(), s.pending()).expectedStart().get(top.id());
    assertThat(withOthers).isEqualTo(alone);
  }

  @Property(tries = 100)
  void backfill_noJobIsDelayedByLowerPriorityJobs(@ForAll("scenarios") Scenario s) {
    BackfillPlan full = BACKFILL.plan(NOW, NODES, s.running(), s.pending());
    for (int i = 0; i < s.pending().size(); i++) {
      BatchJob j = s.pending().get(i);
      BackfillPlan prefix = BACKFILL.plan(NOW, NODES, s.running(), s.pending().subList(0, i + 1));
      assertThat(full.expectedStart().get(j.id())).isEqualTo(prefix.expectedStart().get(j.id()));
    }
  }

  @Property(tries = 200)
  void backfill_plannedUsageNeverExceedsThePool(@ForAll("scenarios") Scenario s) {
    BackfillPlan plan = BACKFILL.plan(NOW, NODES, s.running(), s.pending());
    TreeMap<Instant, Integer> delta = new TreeMap<>();
    for (RunningJob r : s.running()) {
      delta.merge(NOW, r.nodes(), Integer::sum);
      delta.merge(r.start().plus(r.timeLimit()), -r.nodes(), Integer::sum);
    }
    for (BatchJob j : s.pending()) {
      Instant start = plan.expectedStart().get(j.id());
      if (start != null) {
        delta.merge(start, j.nodes(), Integer::sum);
        delta.merge(start.plus(j.timeLimit()), -j.nodes(), Integer::sum);
      }
    }
    int used = 0;
    for (Map.Entry<Instant, Integer> e : delta.entrySet()) {
      used += e.getValue();
      assertThat(used).as("nodes in use at %s", e.getKey()).isLessThanOrEqualTo(NODES);
    }
  }
}
