package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.jspecify.annotations.Nullable;

/**
 * The TTL-after-finished controller over random histories of one Job (start time, initial TTL, clock steps of any
 * size, TTL edits and removals, finishing Complete or Failed at any point): the Job is deleted exactly when the
 * controller has had a chance to look at it (after each step) with the Job finished, a TTL set and at least that
 * many seconds gone since it finished. In particular it never deletes an unfinished Job, a Job without TTL or one
 * whose current TTL has not elapsed, and it never misses an expiry.
 */
final class TtlAfterFinishedPropertyTest {

  /** One step of the history. */
  sealed interface Step permits Advance, SetTtl, Finish {}

  record Advance(int seconds) implements Step {}

  record SetTtl(@Nullable Integer ttl) implements Step {}

  record Finish(boolean failed) implements Step {}

  @Provide
  Arbitrary<List<Step>> histories() {
    Arbitrary<Step> advance = Arbitraries.oneOf(Arbitraries.integers().between(0, 5),
        Arbitraries.integers().between(0, 400), Arbitraries.integers().between(0, 20_000)).map(Advance::new);
    Arbitrary<Step> setTtl = Arbitraries.integers().between(0, 600).injectNull(0.2).map(SetTtl::new);
    Arbitrary<Step> finish = Arbitraries.of(true, false).map(Finish::new);
    return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(6, advance), net.jqwik.api.Tuple.of(2, setTtl),
        net.jqwik.api.Tuple.of(1, finish)).list().ofMinSize(1).ofMaxSize(25);
  }

  @Property(tries = 300)
  void deletedExactlyWhenFinishedAndTheCurrentTtlHasElapsed(
      @ForAll @IntRange(min = 0, max = 1_000_000_000) int startSeconds,
      @ForAll @IntRange(min = -1, max = 600) int initialTtl, @ForAll("histories") List<Step> history) {
    ManualClock clock = new ManualClock(Instant.parse("2020-01-01T00:00:00Z").plusSeconds(startSeconds));
    try (ObjectStore store = Sim.store(clock);
        TtlAfterFinishedController c = TtlAfterFinishedController.builder(store).clock(clock).stepping().build()) {
      c.start().join();
      @Nullable Integer ttl = initialTtl < 0 ? null : initialTtl;
      PodSpec pod = PodSpec.builder().restartPolicy(RestartPolicy.Never).container("c", "busybox", ResourceList.EMPTY)
          .build();
      store.create(Job.builder().namespace("ns").name("j").templateLabels(Map.of("app", "j")).podSpec(pod)
          .ttlSecondsAfterFinished(ttl).build());
      c.runUntilIdle();
      @Nullable Instant finishedAt = null;
      boolean deleted = false;
      for (Step step : history) {
        if (deleted) {
          break;
        }
        if (step instanceof Advance a) {
          clock.advance(Duration.ofSeconds(a.seconds()));
        } else if (step instanceof SetTtl s) {
          ttl = s.ttl();
          Job cur = store.require(Job.class, "ns", "j");
          JobSpec sp = cur.spec();
          store.update(cur.withSpec(new JobSpec(sp.parallelism(), sp.completions(), sp.completionMode(),
              sp.backoffLimit(), sp.activeDeadlineSeconds(), ttl, sp.suspend(), sp.selector(), sp.template())));
        } else if (step instanceof Finish f && finishedAt == null) {
          finishedAt = clock.now();
          String type = f.failed() ? JobCondition.FAILED : JobCondition.COMPLETE;
          Job cur = store.require(Job.class, "ns", "j");
          store.updateStatus(cur.withStatus(new JobStatus(0, f.failed() ? 0 : 1, f.failed() ? 1 : 0, null,
              List.of(new JobCondition(type, ConditionStatus.True, "", "", finishedAt, finishedAt)), null, null,
              "")));
        }
        c.runUntilIdle();
        deleted = finishedAt != null && ttl != null && !clock.now().isBefore(finishedAt.plusSeconds(ttl));
        // deleted with propagationPolicy Foreground: marked, held by foregroundDeletion (no collector runs here)
        assertThat(store.get(Job.class, "ns", "j").filter(j -> j.metadata().deletionTimestamp() == null).isPresent())
            .as("at %s: finished %s, ttl %s, after %s", clock.now(), finishedAt, ttl, step).isEqualTo(!deleted);
      }
    }
  }
}
