package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The controller's Job events are once per transition, under random Job arrivals (suspended or not, random priorities
 * and sizes, an unknown queue), completions, deletions and users resuming waiting Jobs, with cycles per reconcile or
 * per round: each Job's {@code Started} and {@code Stopped} events are exactly the controller's writes of its {@code
 * spec.suspend} (true to false, false to true), in order; a Job's workload is created once, before the Job is started;
 * and its {@code FinishedWorkload} is recorded at most once, for a Job that finished.
 */
final class QueueJobEventsPropertiesTest {
  sealed interface Op permits Create, Finish, Delete, Resume {}

  record Create(int cpu, int priority, boolean suspend, boolean missingQueue) implements Op {}

  record Finish(int index) implements Op {}

  record Delete(int index) implements Op {}

  record Resume(int index) implements Op {}

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Op> create = Combinators.combine(Arbitraries.integers().between(1, 3),
        Arbitraries.integers().between(0, 2), Arbitraries.of(true, false),
        Arbitraries.integers().between(0, 5).map(i -> i == 0)).as(Create::new);
    Arbitrary<Integer> index = Arbitraries.integers().between(0, 30);
    Arbitrary<Op> op = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, create),
        net.jqwik.api.Tuple.of(3, index.map(Finish::new)),
        net.jqwik.api.Tuple.of(1, index.map(Delete::new)),
        net.jqwik.api.Tuple.of(2, index.map(Resume::new)));
    return op.list().ofMinSize(1).ofMaxSize(30);
  }

  @Property(tries = 100)
  void startedAndStoppedAreTheControllersSuspendWrites_createdOnceBeforeStart_finishedOnce(
      @ForAll("ops") List<Op> ops, @ForAll boolean perRound) {
    ManualClock clock = ManualClock.atEpoch2026();
    ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
    /** Per Job: its Started/Stopped events, and the controller's suspend writes, as "Started"/"Stopped". */
    Map<String, List<String>> events = new HashMap<>();
    Map<String, List<String>> writes = new HashMap<>();
    Map<String, Integer> created = new HashMap<>();
    Map<String, Integer> finished = new HashMap<>();
    Map<String, Boolean> suspended = new HashMap<>();
    boolean[] stepping = {false};
    Watch watch = store.watch(Job.class, store.list(Job.class).resourceVersion(), e -> {
      String name = e.object().metadata().name();
      if (e.type() == WatchEventType.DELETED) {
        suspended.remove(name);
        return;
      }
      Boolean before = suspended.put(name, e.object().spec().suspend());
      if (stepping[0] && before != null && before != e.object().spec().suspend()) {
        writes.computeIfAbsent(name, k -> new ArrayList<>()).add(before ? "Started" : "Stopped");
      }
    });
    QueueAdmissionController.Builder b = QueueAdmissionController.builder(store,
        QueueFixtures.engine(clock.asClock(), "4")).clock(clock).stepping()
        .events((ref, related, type, reason, action, note) -> {
          switch (reason) {
            case "Started", "Stopped" -> events.computeIfAbsent(ref.name(), k -> new ArrayList<>()).add(reason);
            case "CreatedWorkload" -> {
              assertThat(events.getOrDefault(ref.name(), List.of())).as("events of %s before its workload",
                  ref.name()).doesNotContain("Started");
              created.merge(ref.name(), 1, Integer::sum);
            }
            case "FinishedWorkload" -> finished.merge(ref.name(), 1, Integer::sum);
            default -> { }
          }
        });
    QueueAdmissionController ctl = (perRound ? b.cyclesPerRound() : b).build();
    List<String> names = new ArrayList<>();
    try {
      ctl.start().join();
      for (Op op : ops) {
        apply(op, store, clock, names);
        for (int round = 0; round < 3; round++) {
          stepping[0] = true;
          ctl.runUntilIdle();
          stepping[0] = false;
          clock.advance(Duration.ofSeconds(2));
        }
      }
      for (String name : names) {
        assertThat(events.getOrDefault(name, List.of())).as("Started/Stopped events of %s", name)
            .isEqualTo(writes.getOrDefault(name, List.of()));
        assertThat(created.getOrDefault(name, 0)).as("CreatedWorkload events of %s", name).isLessThanOrEqualTo(1);
        if (events.getOrDefault(name, List.of()).contains("Started")) {
          assertThat(created.getOrDefault(name, 0)).as("CreatedWorkload events of started %s", name).isEqualTo(1);
        }
        assertThat(finished.getOrDefault(name, 0)).as("FinishedWorkload events of %s", name).isLessThanOrEqualTo(1);
        if (finished.containsKey(name)) {
          assertThat(store.get(Job.class, NS, name).map(j -> j.status().isFinished()).orElse(true))
              .as("%s finished or gone", name).isTrue();
        }
      }
    } finally {
      watch.close();
      ctl.close();
      store.close();
    }
  }

  private static void apply(Op op, ObjectStore store, ManualClock clock, List<String> names) {
    if (op instanceof Create c) {
      String name = "j" + names.size();
      names.add(name);
      store.create(QueueFixtures.job(name, c.missingQueue() ? "lq-missing" : "lq", 1, String.valueOf(c.cpu()),
          c.priority(), c.suspend(), 10));
    } else if (op instanceof Finish f) {
      pick(store, names, f.index()).filter(QueueFixtures::running).ifPresent(j -> store.updateStatus(
          j.withStatus(new JobStatus(0, 1, 0, null, List.of(new JobCondition(JobCondition.COMPLETE,
              ConditionStatus.True, "", "", clock.now(), clock.now())), null, clock.now(), ""))));
    } else if (op instanceof Delete d) {
      pick(store, names, d.index()).ifPresent(j -> store.delete(Job.class, NS, j.metadata().name(),
          DeleteOptions.background()));
    } else if (op instanceof Resume r) {
      pick(store, names, r.index()).filter(j -> j.spec().suspend() && !j.status().isFinished())
          .ifPresent(j -> store.update(j.withSpec(j.spec().withSuspend(false))));
    }
  }

  private static java.util.Optional<Job> pick(ObjectStore store, List<String> names, int index) {
    return names.isEmpty() ? java.util.Optional.empty()
        : store.get(Job.class, NS, names.get(index % names.size()));
  }
}
