package io.fleetkit.autoscale.vpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The selector of a VPA's target, as upstream's {@code pkg/target/vpa_target_selector_fetcher.go} reads it: the
 * well-known controllers' own selectors, a CronJob's job template pod labels, other kinds through their scale
 * subresource.
 */
final class VpaTargetsTest {
  private final ObjectStore store = ObjectStore.inMemory();

  @AfterEach
  void close() {
    store.close();
  }

  private static PodSpec pod(RestartPolicy restart) {
    return PodSpec.builder().restartPolicy(restart).container("app", "nginx:1", ResourceList.EMPTY).build();
  }

  private static CrossVersionObjectReference ref(String apiVersion, String kind, String name) {
    return CrossVersionObjectReference.of(apiVersion, kind, name);
  }

  @Test
  void selector_deployment_itsSpecSelector() {
    store.create(Deployment.builder().namespace("ns").name("web").replicas(2).matchLabels(Map.of("app", "web"))
        .podSpec(pod(RestartPolicy.Always)).build());

    assertThat(VpaTargets.selector(store, "ns", CrossVersionObjectReference.deployment("web")))
        .isEqualTo(LabelSelector.of(Map.of("app", "web")));
  }

  @Test
  void selector_replicationController_itsEqualitySelector() {
    store.create(io.fleetkit.api.core.ReplicationController.builder().namespace("ns").name("frontend")
        .selector(Map.of("app", "frontend")).template(Map.of("app", "frontend", "v", "4"), pod(RestartPolicy.Always))
        .build());

    assertThat(VpaTargets.selector(store, "ns", ref("v1", "ReplicationController", "frontend")))
        .isEqualTo(LabelSelector.of(Map.of("app", "frontend")));
  }

  @Test
  void selector_daemonSet_itsSpecSelector() {
    store.create(DaemonSet.builder().namespace("ns").name("agent").matchLabels(Map.of("app", "agent"))
        .podSpec(pod(RestartPolicy.Always)).build());

    assertThat(VpaTargets.selector(store, "ns", ref("apps/v1", DaemonSet.KIND, "agent")))
        .isEqualTo(LabelSelector.of(Map.of("app", "agent")));
  }

  @Test
  void selector_jobWithoutSelector_theControllerUidSelectorKubernetesGenerates() {
    Job job = store.create(Job.builder().namespace("ns").name("train").podSpec(pod(RestartPolicy.Never)).build());

    assertThat(VpaTargets.selector(store, "ns", ref("batch/v1", Job.KIND, "train")))
        .isEqualTo(LabelSelector.of(Map.of(WorkloadLabels.JOB_CONTROLLER_UID, job.metadata().uid())));
  }

  @Test
  void selector_cronJob_itsJobTemplatesPodLabels() {
    store.create(CronJob.builder().namespace("ns").name("report").schedule("*/5 * * * *").jobSpec(Job.builder()
        .name("x").templateLabels(Map.of("app", "report")).podSpec(pod(RestartPolicy.Never)).build().spec()).build());

    assertThat(VpaTargets.selector(store, "ns", ref("batch/v1", CronJob.KIND, "report")))
        .isEqualTo(LabelSelector.of(Map.of("app", "report")));
  }

  @Test
  void selector_missingTarget_notFound() {
    assertThatThrownBy(() -> VpaTargets.selector(store, "ns", ref("apps/v1", DaemonSet.KIND, "none")))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void selector_kindNeitherWellKnownNorScalable_refusedNamingTheKind() {
    assertThatThrownBy(() -> VpaTargets.selector(store, "ns", ref("example.com/v1", "Custom", "c")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"Custom\"");
  }
}
