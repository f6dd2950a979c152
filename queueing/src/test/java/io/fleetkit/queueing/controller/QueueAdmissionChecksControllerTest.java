package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static io.fleetkit.queueing.controller.QueueFixtures.job;
import static io.fleetkit.queueing.controller.QueueFixtures.quotaReserved;
import static io.fleetkit.queueing.controller.QueueFixtures.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.queueing.AdmissionCheck;
import io.fleetkit.queueing.AdmissionCheckController;
import io.fleetkit.queueing.AdmissionCheckState;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.CheckVerdict;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.PodSetUpdate;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Workload;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Jobs through a ClusterQueue with an admission check: they start only once it is Ready, with its PodSetUpdates. */
final class QueueAdmissionChecksControllerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  /** The check controller's answer per Job name (pending when absent). */
  private final Map<String, CheckVerdict> verdicts = new HashMap<>();
  private AdmissionEngine engine;
  private QueueAdmissionController ctl;

  private final AdmissionCheckController provisioning = new AdmissionCheckController() {
    @Override
    public String controllerName() {
      return "example.com/provisioning";
    }

    @Override
    public CheckVerdict evaluate(AdmissionCheck check, Workload workload, QuotaReservation reservation,
        AdmissionCheckState current) {
      return verdicts.getOrDefault(workload.name(), CheckVerdict.pending("provisioning nodes"));
    }
  };

  private void start(String cpus) {
    engine = AdmissionEngine.builder().clock(clock.asClock())
        .resourceFlavor(new ResourceFlavor("batch", QueueFixtures.POOL))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("batch", FlavorResourceQuota.of("cpu", cpus)))
            .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
            .admissionChecks("prov")
            .build())
        .localQueue(LocalQueue.of(NS, "lq", "cq"))
        .admissionCheck(AdmissionCheck.of("prov", provisioning.controllerName()))
        .admissionCheckController(provisioning)
        .build();
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().build();
    ctl.start().join();
  }

  @AfterEach
  void close() {
    if (ctl != null) {
      ctl.close();
    }
    store.close();
  }

  private Job get(String name) {
    return store.require(Job.class, NS, name);
  }

  /** Lets the controller ask the checks again. */
  private void poll() {
    clock.advance(Duration.ofSeconds(2));
    ctl.runUntilIdle();
  }

  @Test
  void pendingCheck_jobWaitsSuspendedWithQuotaReserved() {
    start("4");
    store.create(job("a", "lq", 2, "1", 0, true, 10));
    ctl.runUntilIdle();
    Job a = get("a");
    assertThat(a.spec().suspend()).isTrue();
    assertThat(engine.admission(NS + "/a")).isPresent();
    assertThat(engine.isAdmitted(NS + "/a")).isFalse();
    assertThat(quotaReserved(a).status()).isEqualTo(ConditionStatus.True);
    assertThat(quotaReserved(a).reason()).isEqualTo(QueueLabels.REASON_WAITING_FOR_CHECKS);
    assertThat(quotaReserved(a).message()).isEqualTo("Quota reserved in ClusterQueue cq, waiting for admission "
        + "checks: \"prov\" (Pending: provisioning nodes)");
    poll();
    assertThat(get("a").spec().suspend()).isTrue();
  }

  @Test
  void readyCheck_startsTheJobWithItsPodSetUpdates_andAPreemptionTakesThemOutAgain() {
    start("2");
    Toleration t = Toleration.equal("provisioned", "true", TaintEffect.NoSchedule);
    verdicts.put("a", CheckVerdict.ready("nodes ready", PodSetUpdate.of("main")
        .withLabels(Map.of("autoscaling.example.com/request", "a-1"))
        .withAnnotations(Map.of("example.com/provisioned-by", "prov"))
        .withNodeSelector(Map.of("example.com/node-group", "ng-a"))
        .withTolerations(List.of(t))));
    store.create(job("a", "lq", 2, "1", 0, true, 10));
    ctl.runUntilIdle();

    Job a = get("a");
    assertThat(running(a)).isTrue();
    assertThat(engine.isAdmitted(NS + "/a")).isTrue();
    assertThat(quotaReserved(a).reason()).isEqualTo(QueueLabels.REASON_ADMITTED);
    var template = a.spec().template();
    assertThat(template.metadata().labels()).containsEntry("autoscaling.example.com/request", "a-1")
        .containsEntry("job", "a");
    assertThat(template.metadata().annotations()).containsEntry("example.com/provisioned-by", "prov");
    assertThat(template.spec().nodeSelector()).containsEntry("example.com/node-group", "ng-a")
        .containsEntry("pool", "batch");
    assertThat(template.spec().tolerations()).contains(t);

    // a higher-priority Job preempts a: it is stopped and its template is as it was (Kueue's RestorePodSpec)
    store.create(job("urgent", "lq", 2, "1", 10, true, 10));
    ctl.runUntilIdle();
    a = get("a");
    assertThat(a.spec().suspend()).isTrue();
    assertThat(a.spec().template().metadata().labels()).doesNotContainKey("autoscaling.example.com/request");
    assertThat(a.spec().template().metadata().annotations()).doesNotContainKey("example.com/provisioned-by");
    assertThat(a.spec().template().spec().nodeSelector()).isEmpty();
    assertThat(a.spec().template().spec().tolerations()).doesNotContain(t);
    assertThat(a.metadata().annotations()).doesNotContainKeys(QueueLabels.INJECTED_TEMPLATE_LABELS,
        QueueLabels.INJECTED_TEMPLATE_ANNOTATIONS);
    assertThat(engine.admissionChecks(NS + "/a")).singleElement()
        .satisfies(s -> assertThat(s.message()).isEqualTo("Reset to Pending after eviction. Previously: Ready"));
  }

  @Test
  void retryCheck_evictsAndTheJobWaitsWithReasonAdmissionCheck() {
    start("4");
    verdicts.put("a", CheckVerdict.retry("no capacity", Duration.ofMinutes(5)));
    store.create(job("a", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    Job a = get("a");
    assertThat(a.spec().suspend()).isTrue();
    assertThat(engine.admission(NS + "/a")).isEmpty();
    assertThat(quotaReserved(a).status()).isEqualTo(ConditionStatus.False);
    assertThat(quotaReserved(a).reason()).isEqualTo(QueueLabels.REASON_ADMISSION_CHECK);
    assertThat(quotaReserved(a).message())
        .isEqualTo("Evicted due to AdmissionCheck in Retry state: \"prov\" (no capacity)");
    assertThat(engine.pending("cq")).containsExactly(NS + "/a");
  }

  @Test
  void rejectedCheck_deactivatesAndTheJobStaysSuspended() {
    start("4");
    verdicts.put("a", CheckVerdict.rejected("quota exceeded"));
    store.create(job("a", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    poll();
    Job a = get("a");
    assertThat(a.spec().suspend()).isTrue();
    assertThat(quotaReserved(a).reason()).isEqualTo(QueueLabels.REASON_DEACTIVATED);
    assertThat(quotaReserved(a).message()).isEqualTo(
        "The workload is deactivated due to AdmissionCheck in Rejected state: \"prov\" (quota exceeded)");
    assertThat(engine.deactivated(NS + "/a")).isPresent();
    assertThat(engine.pendingCount()).isZero();
  }

  @Test
  void conflictingPodSetUpdate_failsToStartAndReleasesTheQuota() {
    start("1");
    // the template already has label job=a
    verdicts.put("a", CheckVerdict.ready("ok", PodSetUpdate.of("main").withLabels(Map.of("job", "other"))));
    store.create(job("a", "lq", 1, "1", 0, true, 10));
    store.create(job("b", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    Job a = get("a");
    assertThat(a.spec().suspend()).isTrue();
    assertThat(quotaReserved(a).reason()).isEqualTo(QueueLabels.REASON_FAILED_TO_START);
    assertThat(quotaReserved(a).message()).isEqualTo("Workload default/a: spec.podSets[name=main].template: invalid "
        + "admission check PodSetUpdate: conflict for labels: conflict for key=job, value1=a, value2=other");
    assertThat(engine.admission(NS + "/a")).isEmpty();
    // b gets the released quota
    verdicts.put("b", CheckVerdict.ready("ok"));
    poll();
    assertThat(running(get("b"))).isTrue();
    assertThat(get("a").spec().suspend()).isTrue();
  }

  /**
   * Kueue keeps a workload that failed to start as a finished Workload object; FleetKit keeps the Job's
   * {@code QuotaReserved=False/FailedToStart} condition, so a restarted controller does not queue it again.
   */
  @Test
  void failedToStart_survivesAControllerRestart() {
    start("1");
    verdicts.put("a", CheckVerdict.ready("ok", PodSetUpdate.of("main").withLabels(Map.of("job", "other"))));
    store.create(job("a", "lq", 1, "1", 0, true, 10));
    store.create(job("b", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    verdicts.put("b", CheckVerdict.ready("ok"));
    poll();
    assertThat(running(get("b"))).isTrue();
    String message = quotaReserved(get("a")).message();

    ctl.close();
    // the check would now let a start: a finished workload is not admitted again all the same
    verdicts.put("a", CheckVerdict.ready("ok"));
    start("2"); // a new engine and controller over the same store, with room for a
    ctl.runUntilIdle();
    poll();
    assertThat(engine.admission(NS + "/a")).as("not queued again").isEmpty();
    assertThat(engine.pendingCount()).isZero();
    assertThat(get("a").spec().suspend()).isTrue();
    assertThat(quotaReserved(get("a")).reason()).isEqualTo(QueueLabels.REASON_FAILED_TO_START);
    assertThat(quotaReserved(get("a")).message()).isEqualTo(message);
    assertThat(running(get("b"))).as("b's admission restored").isTrue();
    assertThat(engine.admission(NS + "/b")).isPresent();
  }
}
