package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.testing.CapturedTelemetry;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.api.tracing.Tracing;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The trace of the operation that created a workload reaches the pods its controllers create, through the
 * {@value Tracing#TRACEPARENT_ANNOTATION} annotation (which the scheduler continues): Deployment → ReplicaSet → Pod,
 * StatefulSet → Pod and Job → Pod; and the workload controllers trace their reconciles when given a tracing.
 */
final class TraceParentPropagationTest {
  private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  private static final String TEMPLATE_TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  private final ManualClock clock = ManualClock.atEpoch2026();

  @Test
  void deployment_traceparentReachesItsReplicaSetAndPods_overridingTheTemplates() {
    Deployment d = Cluster.web(3);
    d = d.withMetadata(d.metadata().toBuilder().annotation(Tracing.TRACEPARENT_ANNOTATION, TRACEPARENT).build());
    try (ObjectStore store = Sim.store(clock);
        ReplicaSetController rsc = ReplicaSetController.builder(store).clock(clock).stepping().build();
        DeploymentController dc = DeploymentController.builder(store).clock(clock).stepping().build()) {
      rsc.start().join();
      dc.start().join();
      store.create(d);
      dc.runUntilIdle();
      rsc.runUntilIdle();
      List<ReplicaSet> sets = store.list(ReplicaSet.class).items();
      assertThat(sets).singleElement().satisfies(rs ->
          assertThat(rs.metadata().annotations()).containsEntry(Tracing.TRACEPARENT_ANNOTATION, TRACEPARENT));
      List<Pod> pods = store.list(Pod.class).items();
      assertThat(pods).hasSize(3).allSatisfy(p ->
          assertThat(p.metadata().annotations()).containsEntry(Tracing.TRACEPARENT_ANNOTATION, TRACEPARENT));
    }
  }

  @Test
  void deploymentWithoutTrace_podsKeepTheirTemplatesAnnotations() {
    Deployment d = Cluster.web(2);
    var tpl = d.spec().template();
    var s = d.spec();
    d = d.withSpec(new io.fleetkit.api.apps.DeploymentSpec(s.replicas(), s.selector(),
        new io.fleetkit.api.core.PodTemplateSpec(tpl.metadata().toBuilder()
            .annotation(Tracing.TRACEPARENT_ANNOTATION, TEMPLATE_TRACEPARENT).build(), tpl.spec()),
        s.strategy(), s.minReadySeconds(), s.revisionHistoryLimit(), s.progressDeadlineSeconds(), s.paused()));
    try (ObjectStore store = Sim.store(clock);
        ReplicaSetController rsc = ReplicaSetController.builder(store).clock(clock).stepping().build();
        DeploymentController dc = DeploymentController.builder(store).clock(clock).stepping().build()) {
      rsc.start().join();
      dc.start().join();
      store.create(d);
      dc.runUntilIdle();
      rsc.runUntilIdle();
      assertThat(store.list(ReplicaSet.class).items().get(0).metadata().annotations())
          .doesNotContainKey(Tracing.TRACEPARENT_ANNOTATION);
      assertThat(store.list(Pod.class).items()).hasSize(2).allSatisfy(p -> assertThat(p.metadata().annotations())
          .containsEntry(Tracing.TRACEPARENT_ANNOTATION, TEMPLATE_TRACEPARENT));
    }
  }

  @Test
  void job_traceparentReachesItsPods() {
    Job j = Job.builder().namespace("ns").name("calc").parallelism(2).completions(2)
        .podSpec(PodSpec.builder().container("c", "busybox", ResourceList.EMPTY)
            .restartPolicy(io.fleetkit.api.core.RestartPolicy.Never).build())
        .build();
    j = j.withMetadata(j.metadata().toBuilder().annotation(Tracing.TRACEPARENT_ANNOTATION, TRACEPARENT).build());
    try (ObjectStore store = Sim.store(clock);
        JobController c = JobController.builder(store).clock(clock).stepping().build()) {
      c.start().join();
      store.create(j);
      c.runUntilIdle();
      assertThat(store.list(Pod.class, "ns").items()).hasSize(2).allSatisfy(p ->
          assertThat(p.metadata().annotations()).containsEntry(Tracing.TRACEPARENT_ANNOTATION, TRACEPARENT));
    }
  }

  @Test
  void statefulSet_traceparentReachesItsPods_andItsReconcilesAreTraced() {
    CapturedTelemetry telemetry = new CapturedTelemetry();
    StatefulSet set = StatefulSetHarness.burst(StatefulSet.builder().namespace("ns").name("db").replicas(2).matchLabels(Map.of("app", "db"))
        .serviceName("db").podSpec(PodSpec.builder().container("db", "postgres", ResourceList.EMPTY).build()).build());
    set = set.withMetadata(set.metadata().toBuilder().annotation(Tracing.TRACEPARENT_ANNOTATION, TRACEPARENT).build());
    try (ObjectStore store = Sim.store(clock);
        StatefulSetController c = StatefulSetController.builder(store).clock(clock).stepping()
            .tracing(telemetry.tracing()).build()) {
      c.start().join();
      store.create(set);
      c.runUntilIdle();
      assertThat(store.list(Pod.class, "ns").items()).hasSize(2).allSatisfy(p ->
          assertThat(p.metadata().annotations()).containsEntry(Tracing.TRACEPARENT_ANNOTATION, TRACEPARENT));
    }
    assertThat(telemetry.spanNames()).containsExactly(Tracing.SPAN_RECONCILE);
    assertThat(telemetry.lines()).anyMatch(l -> l.contains("fleetkit.object=ns/db"));
  }
}
