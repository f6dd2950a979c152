package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceStatus;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.AnalysisRunStatus;
import io.fleetkit.api.rollouts.AnalysisTemplate;
import io.fleetkit.api.rollouts.BlueGreenStrategy;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricProvider;
import io.fleetkit.api.rollouts.PauseCondition;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutAnalysis;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.internal.TemplateHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Rollout controller's events, with Argo Rollouts' types, reasons and notes ({@code utils/conditions/conditions.go}
 * and the {@code recorder.Eventf}/{@code Warnf} calls of {@code rollout/sync.go}, {@code rollout/canary.go} and
 * {@code rollout/service.go}, commit 9f8d111d), through whole rollouts: a stepping controller with no ReplicaSet
 * controller, every ReplicaSet's pods made available by {@link #settle()}. The sequences are FleetKit's runs, checked
 * against the order in which Argo's sync records them; upstream has no test of these sequences (its
 * TestSendStateChangeEvents is ported in {@code RolloutStateChangeEventsTest}).
 */
final class RolloutEventsTest {
  /** One recorded event, as {@code "Type Reason: note"}, with what it was about. */
  record Recorded(ObjectReference regarding, @Nullable ObjectReference related, String action, String line) { }

  private final List<Recorded> events = new ArrayList<>();
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = RolloutControllerClaimTest.store(clock);
  private final RolloutController rc = RolloutController.builder(store).clock(clock).stepping()
      .events((regarding, related, type, reason, action, note) ->
          events.add(new Recorded(regarding, related, action, type + " " + reason + ": " + note))).build();

  RolloutEventsTest() {
    rc.start().join();
  }

  @AfterEach
  void close() {
    rc.close();
    store.close();
  }

  private static Rollout canary(String image, CanaryStep... steps) {
    return canaryBuilder(image, steps).build();
  }

  /** Rollout {@code default/web}: 2 replicas of {@code image}, a basic canary (maxSurge 1, maxUnavailable 0). */
  private static Rollout.Builder canaryBuilder(String image, CanaryStep... steps) {
    CanaryStrategy c = new CanaryStrategy(List.of(steps), IntOrPercent.of(1), IntOrPercent.of(0), null, null, null,
        null, false, null, null);
    return Rollout.builder().namespace("default").name("web").replicas(2).matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", image, ResourceList.EMPTY).build()).canary(c);
  }

  private static String hash(Rollout r) {
    return TemplateHash.compute(r.spec().template(), null);
  }

  /** Runs the controller, with every ReplicaSet's pods ready and available at once, until nothing changes. */
  private void settle() {
    for (int i = 0; i < 50; i++) {
      rc.runUntilIdle();
      boolean changed = false;
      for (ReplicaSet rs : store.list(ReplicaSet.class, "default").items()) {
        int n = rs.spec().replicas();
        if (rs.status().replicas() != n || rs.status().availableReplicas() != n) {
          store.updateStatus(rs.withStatus(new ReplicaSetStatus(n, n, n, n, 0)));
          changed = true;
        }
      }
      if (!changed) {
        rc.runUntilIdle();
        return;
      }
    }
    throw new AssertionError("no settling");
  }

  private List<String> lines() {
    List<String> out = new ArrayList<>();
    for (Recorded e : events) {
      out.add(e.line());
    }
    return out;
  }

  private void update(String image) {
    Rollout r = store.require(Rollout.class, "default", "web");
    store.update(r.withSpec(r.spec().withTemplate(canary(image).spec().template())));
  }

  private Rollout rollout() {
    return store.require(Rollout.class, "default", "web");
  }

  /** Writes an annotation on the rollout: a reconcile that has nothing to change. */
  private void touch(String value) {
    Rollout r = rollout();
    store.update(r.withMetadata(r.metadata().toBuilder().annotation("touched", value).build()));
  }

  private void service(String name) {
    store.create(new Service(ObjectMeta.of("default", name), ServiceSpec.builder().selector(Map.of("app", "web"))
        .ports(List.of(ServicePort.of(80))).build(), ServiceStatus.EMPTY));
  }

  /** Creates the canary at version 1, settles it and rolls version 2 out one second later. */
  private String[] deployThenUpdate(CanaryStep... steps) {
    Rollout v1 = store.create(canary("web:1", steps));
    settle();
    clock.advance(Duration.ofSeconds(1));
    events.clear();
    update("web:2");
    return new String[] {"web-" + hash(v1), "web-" + hash(canary("web:2", steps))};
  }

  @Test
  void canary_stepsPauseResumeAndComplete_recordsArgoEventsOnTheRollout() {
    Rollout v1 = store.create(canary("web:1", new CanaryStep.SetWeight(50),
        new CanaryStep.Pause(Duration.ofSeconds(30)), CanaryStep.Pause.indefinite()));
    String h1 = hash(v1);
    settle();
    assertThat(lines()).containsExactly(
        "Normal RolloutUpdated: Rollout updated to revision 1",
        "Normal NewReplicaSetCreated: Created ReplicaSet web-" + h1 + " (revision 1)",
        "Normal ScalingReplicaSet: Scaled up ReplicaSet web-" + h1 + " (revision 1) from 0 to 2",
        "Normal RolloutCompleted: Rollout completed update to revision 1 (" + h1 + "): Initial deploy");

    clock.advance(Duration.ofSeconds(1));
    events.clear();
    update("web:2");
    String h2 = hash(rollout());
    settle();
    assertThat(lines()).containsExactly(
        "Normal RolloutUpdated: Rollout updated to revision 2",
        "Normal NewReplicaSetCreated: Created ReplicaSet web-" + h2 + " (revision 2)",
        "Normal ScalingReplicaSet: Scaled up ReplicaSet web-" + h2 + " (revision 2) from 0 to 1",
        "Normal ScalingReplicaSet: Scaled down ReplicaSet web-" + h1 + " (revision 1) from 2 to 1",
        "Normal RolloutStepCompleted: Rollout step 1/3 completed (setWeight: 50)",
        "Normal RolloutPaused: Rollout is paused (CanaryPauseStep)");

    events.clear();
    clock.advance(Duration.ofSeconds(30));
    settle();
    // Argo ends the timed pause in one sync and starts the next in another; FleetKit does both in one, same events
    assertThat(lines()).containsExactly(
        "Normal RolloutStepCompleted: Rollout step 2/3 completed (pause: 30s)",
        "Normal RolloutResumed: Rollout is resumed",
        "Normal RolloutPaused: Rollout is paused (CanaryPauseStep)");

    events.clear();
    RolloutController.promote(store, "default", "web", false);
    settle();
    // the promote clears the pause conditions itself, so the controller sees no resume (as kubectl argo rollouts)
    assertThat(lines()).containsExactly(
        "Normal RolloutStepCompleted: Rollout step 3/3 completed (pause)",
        "Normal ScalingReplicaSet: Scaled up ReplicaSet web-" + h2 + " (revision 2) from 1 to 2",
        "Normal ScalingReplicaSet: Scaled down ReplicaSet web-" + h1 + " (revision 1) from 1 to 0",
        "Normal RolloutCompleted: Rollout completed update to revision 2 (" + h2 + "): Completed all 3 canary steps");
    ObjectReference web = ObjectReference.to(rollout());
    assertThat(events).allSatisfy(e -> {
      assertThat(e.regarding()).isEqualTo(web);
      assertThat(e.related()).isNull();
    });
    assertThat(events).extracting(Recorded::action)
        .containsExactly("Step", "Scale", "Scale", "Promote");
  }

  @Test
  void reconcileWithoutChange_recordsNothingNew() {
    deployThenUpdate(new CanaryStep.SetWeight(50), CanaryStep.Pause.indefinite());
    settle();
    assertThat(lines()).contains("Normal RolloutPaused: Rollout is paused (CanaryPauseStep)");
    events.clear();
    long version = Long.parseLong(rollout().metadata().resourceVersion());
    touch("1");
    settle();
    touch("2");
    settle();
    assertThat(Long.parseLong(rollout().metadata().resourceVersion())).as("the touches were written")
        .isGreaterThan(version);
    assertThat(lines()).isEmpty();
  }

  @Test
  void userAbort_recordsOneWarningAndNoResume() {
    String[] rs = deployThenUpdate(new CanaryStep.SetWeight(50), CanaryStep.Pause.indefinite());
    settle();
    events.clear();
    RolloutController.abort(store, "default", "web");
    settle();
    touch("after");
    settle();
    // the stable is scaled up and the abort written in one sync; the canary goes once the stable is available
    assertThat(lines()).containsExactly(
        "Normal ScalingReplicaSet: Scaled up ReplicaSet " + rs[0] + " (revision 1) from 1 to 2",
        "Warning RolloutAborted: Rollout aborted update to revision 2",
        "Normal ScalingReplicaSet: Scaled down ReplicaSet " + rs[1] + " (revision 2) from 1 to 0");
    assertThat(events).filteredOn(e -> e.line().contains("RolloutAborted")).extracting(Recorded::action)
        .containsExactly("Abort");
  }

  @Test
  void missedProgressDeadline_abortsWithTheReason() {
    store.create(canaryBuilder("web:1", new CanaryStep.SetWeight(50)).progressDeadlineSeconds(10)
        .progressDeadlineAbort(true).build());
    settle();
    clock.advance(Duration.ofSeconds(1));
    update("web:2");
    String h2 = hash(rollout());
    rc.runUntilIdle(); // the canary's pods never become available
    events.clear();
    clock.advance(Duration.ofSeconds(11));
    rc.runUntilIdle();
    rc.runUntilIdle();
    assertThat(lines()).filteredOn(l -> l.startsWith("Warning")).containsExactly(
        "Warning RolloutAborted: Rollout aborted update to revision 2: ProgressDeadlineExceeded: ReplicaSet \"web-"
            + h2 + "\" has timed out progressing.");
  }

  @Test
  void events_givenTwice_failsNamingTheOldRecorder() {
    RolloutController.Builder b = RolloutController.builder(store).events(EventRecorder.NOOP);
    assertThatThrownBy(() -> b.events(EventRecorder.NOOP)).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("rollout controller: events was already set to ");
  }

  @Test
  void failedStepAnalysis_abortsWithTheRunsReason() {
    store.create(new AnalysisTemplate(ObjectMeta.of("default", "errors"),
        List.of(Metric.of("error-rate", new MetricProvider.Simulated("error-rate"))), List.of()));
    String[] rs = deployThenUpdate(new CanaryStep.SetWeight(50),
        new CanaryStep.Analysis(RolloutAnalysis.of("errors")));
    settle();
    String run = rollout().status().analysisRun();
    assertThat(run).as("the step's run was created").isNotEmpty();
    assertThat(lines()).last().isEqualTo("Normal RolloutStepCompleted: Rollout step 1/2 completed (setWeight: 50)");
    events.clear();
    AnalysisRun ar = store.require(AnalysisRun.class, "default", run);
    store.updateStatus(ar.withStatus(new AnalysisRunStatus(AnalysisPhase.Failed, "Metric \"error-rate\" assessed "
        + "Failed due to failed (1) > failureLimit (0)", List.of(), clock.instant())));
    settle();
    // the sync that judges the run records its phase change (rollout/analysis.go emitAnalysisRunStatusChanges: the
    // run was last seen just created, Argo's empty phase) and writes the abort; the next one scales for it
    assertThat(lines()).containsExactly(
        "Warning AnalysisRunFailed: Step Analysis Run '" + run + "' Status New: 'Failed' Previous: ''",
        "Warning RolloutAborted: Rollout aborted update to revision 2: AnalysisRun " + run + " Failed: Metric "
            + "\"error-rate\" assessed Failed due to failed (1) > failureLimit (0)",
        "Normal ScalingReplicaSet: Scaled up ReplicaSet " + rs[0] + " (revision 1) from 1 to 2",
        "Normal ScalingReplicaSet: Scaled down ReplicaSet " + rs[1] + " (revision 2) from 1 to 0");
  }

  @Test
  void stepAnalysis_runningThenSuccessful_recordsEachPhaseOnceThenCompletesTheStep() {
    store.create(new AnalysisTemplate(ObjectMeta.of("default", "errors"),
        List.of(Metric.of("error-rate", new MetricProvider.Simulated("error-rate"))), List.of()));
    deployThenUpdate(new CanaryStep.SetWeight(50), new CanaryStep.Analysis(RolloutAnalysis.of("errors")));
    settle();
    String run = rollout().status().analysisRun();
    assertThat(lines()).as("a run just created (Pending, Argo's empty phase) records nothing")
        .noneMatch(l -> l.contains("AnalysisRun"));
    events.clear();
    setRunPhase(run, AnalysisPhase.Running);
    settle();
    assertThat(lines()).containsExactly(
        "Normal AnalysisRunRunning: Step Analysis Run '" + run + "' Status New: 'Running' Previous: ''");
    assertThat(events.get(0).regarding().kind()).isEqualTo(Rollout.KIND);
    assertThat(events.get(0).action()).isEqualTo("Analysis");
    events.clear();
    touch("1");
    settle();
    assertThat(lines()).as("the same phase again: nothing").isEmpty();
    setRunPhase(run, AnalysisPhase.Successful);
    settle();
    assertThat(lines()).startsWith(
        "Normal AnalysisRunSuccessful: Step Analysis Run '" + run + "' Status New: 'Successful' Previous: 'Running'",
        "Normal RolloutStepCompleted: Rollout step 2/2 completed (analysis)");
    assertThat(lines()).filteredOn(l -> l.contains("AnalysisRun")).hasSize(1);
  }

  @Test
  void backgroundAnalysis_inconclusive_recordedOnce() {
    store.create(new AnalysisTemplate(ObjectMeta.of("default", "errors"),
        List.of(Metric.of("error-rate", new MetricProvider.Simulated("error-rate"))), List.of()));
    CanaryStrategy c = new CanaryStrategy(List.of(new CanaryStep.SetWeight(50), new CanaryStep.Pause(null)),
        IntOrPercent.of(1), IntOrPercent.of(0), RolloutAnalysis.of("errors"), null, null, null, false, null, null);
    store.create(Rollout.builder().namespace("default").name("web").replicas(2).matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "web:1", ResourceList.EMPTY).build()).canary(c).build());
    settle();
    clock.advance(Duration.ofSeconds(1));
    update("web:2");
    settle();
    String run = rollout().status().backgroundAnalysisRun();
    assertThat(run).as("the background run was created").isNotEmpty();
    assertThat(rollout().status().pauseConditions()).extracting(p -> p.reason())
        .containsExactly(PauseCondition.CANARY_PAUSE_STEP);
    events.clear();
    setRunPhase(run, AnalysisPhase.Inconclusive);
    settle();
    // already paused at the step: the inconclusive pause adds no RolloutPaused (sendStateChangeEvents)
    assertThat(lines()).containsExactly(
        "Normal AnalysisRunInconclusive: Background Analysis Run '" + run + "' Status New: 'Inconclusive' "
            + "Previous: ''");
    assertThat(rollout().status().pauseConditions()).extracting(p -> p.reason())
        .contains(PauseCondition.INCONCLUSIVE_ANALYSIS);
    events.clear();
    touch("1");
    settle();
    assertThat(lines()).isEmpty();
  }

  @Test
  void blueGreenPrePromotion_restartedController_recordsTheCurrentPhaseAsNoPreviousStatus() {
    store.create(new AnalysisTemplate(ObjectMeta.of("default", "errors"),
        List.of(Metric.of("error-rate", new MetricProvider.Simulated("error-rate"))), List.of()));
    service("active");
    service("preview");
    BlueGreenStrategy bg = new BlueGreenStrategy("active", "preview", false, 0, 30, null,
        RolloutAnalysis.of("errors"), null, null);
    store.create(Rollout.builder().namespace("default").name("web").replicas(2).matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "web:1", ResourceList.EMPTY).build()).blueGreen(bg).build());
    settle();
    clock.advance(Duration.ofSeconds(1));
    update("web:2");
    settle();
    String run = rollout().status().analysisRun();
    assertThat(run).as("the pre-promotion run was created").isNotEmpty();
    events.clear();
    setRunPhase(run, AnalysisPhase.Running);
    settle();
    assertThat(lines()).containsExactly(
        "Normal AnalysisRunRunning: PrePromotion Analysis Run '" + run + "' Status New: 'Running' Previous: ''");

    // a new controller has seen no phase: Argo's prevStatus == nil
    List<String> seen = new ArrayList<>();
    try (RolloutController restarted = RolloutController.builder(store).clock(clock).stepping()
        .events((regarding, related, type, reason, action, note) -> seen.add(type + " " + reason + ": " + note))
        .build()) {
      restarted.start().join();
      restarted.runUntilIdle();
      touch("1");
      restarted.runUntilIdle();
      assertThat(seen).containsExactly("Normal AnalysisRunRunning: PrePromotion Analysis Run '" + run
          + "' Status New: 'Running' Previous: 'NoPreviousStatus'");
      seen.clear();
      setRunPhase(run, AnalysisPhase.Failed);
      restarted.runUntilIdle();
      assertThat(seen).startsWith("Warning AnalysisRunFailed: PrePromotion Analysis Run '" + run
          + "' Status New: 'Failed' Previous: 'Running'");
    }
  }

  private void setRunPhase(String run, AnalysisPhase phase) {
    AnalysisRun ar = store.require(AnalysisRun.class, "default", run);
    store.updateStatus(ar.withStatus(new AnalysisRunStatus(phase, "", List.of(), clock.instant())));
  }

  @Test
  void blueGreen_pausedThenPromoted_switchesServiceAndCompletes() {
    service("active");
    service("preview");
    BlueGreenStrategy bg = new BlueGreenStrategy("active", "preview", false, 0, 30, null, null, null, null);
    Rollout v1 = store.create(Rollout.builder().namespace("default").name("web").replicas(2)
        .matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "web:1", ResourceList.EMPTY).build()).blueGreen(bg).build());
    String h1 = hash(v1);
    settle();
    assertThat(lines()).containsExactly(
        "Normal RolloutUpdated: Rollout updated to revision 1",
        "Normal NewReplicaSetCreated: Created ReplicaSet web-" + h1 + " (revision 1)",
        "Normal ScalingReplicaSet: Scaled up ReplicaSet web-" + h1 + " (revision 1) from 0 to 2",
        "Normal SwitchService: Switched selector for service 'active' from '' to '" + h1 + "'",
        "Normal SwitchService: Switched selector for service 'preview' from '' to '" + h1 + "'",
        "Normal RolloutCompleted: Rollout completed update to revision 1 (" + h1 + "): Initial deploy");

    clock.advance(Duration.ofSeconds(1));
    events.clear();
    update("web:2");
    String h2 = hash(rollout());
    settle();
    assertThat(lines()).containsExactly(
        "Normal RolloutUpdated: Rollout updated to revision 2",
        "Normal NewReplicaSetCreated: Created ReplicaSet web-" + h2 + " (revision 2)",
        "Normal ScalingReplicaSet: Scaled up ReplicaSet web-" + h2 + " (revision 2) from 0 to 2",
        "Normal SwitchService: Switched selector for service 'preview' from '" + h1 + "' to '" + h2 + "'",
        "Normal RolloutPaused: Rollout is paused (BlueGreenPause)");

    events.clear();
    RolloutController.promote(store, "default", "web", false);
    settle();
    assertThat(lines()).containsExactly(
        "Normal SwitchService: Switched selector for service 'active' from '" + h1 + "' to '" + h2 + "'",
        "Normal RolloutCompleted: Rollout completed update to revision 2 (" + h2 + "): Completed blue-green update");
    events.clear();
    clock.advance(Duration.ofSeconds(30));
    settle();
    assertThat(lines()).containsExactly(
        "Normal ScalingReplicaSet: Scaled down ReplicaSet web-" + h1 + " (revision 1) from 2 to 0");
  }
}
