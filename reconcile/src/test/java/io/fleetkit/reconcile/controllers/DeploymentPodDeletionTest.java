package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.DeploymentStrategy;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.Informer;
import io.fleetkit.reconcile.ObjectKey;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which pod events wake the Deployment controller: only deletions, and only of a Recreate Deployment's last pod, as
 * upstream's {@code deletePod}. The first four cases are ported from kubernetes
 * pkg/controller/deployment/deployment_controller_test.go ({@code TestPodDeletion*}); where upstream's pod lister
 * still holds the deleted pod, here another pod of the same ReplicaSet stays (our cache no longer holds a deleted
 * pod when the handler runs, client-go's neither once the informer processed the delete).
 */
final class DeploymentPodDeletionTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = Sim.store(clock);
  private final Informer<Pod> pods = Informer.builder(store, Pod.class).clock(clock).build();

  DeploymentPodDeletionTest() {
    pods.start().join();
  }

  @AfterEach
  void close() {
    pods.close();
    store.close();
  }

  private Deployment foo(DeploymentStrategy strategy) {
    return store.create(Deployment.builder().namespace("default").name("foo").replicas(1)
        .matchLabels(Map.of("foo", "bar")).podSpec(Cluster.podSpec("nginx:1")).strategy(strategy).build());
  }

  private ReplicaSet rs(String name, Deployment owner) {
    ReplicaSet.Builder b = ReplicaSet.builder().namespace("default").name(name).label("foo", "bar").replicas(1)
        .matchLabels(Map.of("foo", "bar")).podSpec(Cluster.podSpec("nginx:1"));
    if (owner != null) {
      b.ownerReference(OwnerReference.controllerOf(owner));
    }
    return store.create(b.build());
  }

  private Pod pod(String name, ReplicaSet rs) {
    return store.create(Pod.builder().namespace("default").name(name).labels(Map.of("foo", "bar"))
        .ownerReference(OwnerReference.controllerOf(rs)).spec(Cluster.podSpec("nginx:1")).build());
  }

  /** Deletes {@code pod} and returns what the Deployment controller's pod-delete mapping answers. */
  private java.util.List<ObjectKey> delete(Pod pod) {
    store.delete(Pod.class, pod.metadata().namespace(), pod.metadata().name());
    assertThat(pods.lister().get("default", pod.metadata().name())).isEmpty();
    return DeploymentController.deletedPod(store, pod, pods.lister());
  }

  @Test
  void podDeletionEnqueuesRecreateDeployment_lastPodGone_deploymentQueued() {
    Deployment foo = foo(DeploymentStrategy.RECREATE);
    Pod p = pod("foo-1-a", rs("foo-1", foo));
    assertThat(delete(p)).containsExactly(ObjectKey.of("default", "foo"));
  }

  @Test
  void podDeletionDoesntEnqueueRecreateDeployment_podOfAnotherOwnedReplicaSetLeft_nothingQueued() {
    Deployment foo = foo(DeploymentStrategy.RECREATE);
    Pod p1 = pod("foo-1-a", rs("foo-1", foo));
    pod("foo-2-a", rs("foo-2", foo));
    assertThat(delete(p1)).isEmpty();
  }

  @Test
  void podDeletionPartialReplicaSetOwnershipEnqueueRecreateDeployment_orphanReplicaSetIgnored_deploymentQueued() {
    Deployment foo = foo(DeploymentStrategy.RECREATE);
    Pod p = pod("foo-1-a", rs("foo-1", foo));
    rs("foo-2", null);
    assertThat(delete(p)).containsExactly(ObjectKey.of("default", "foo"));
  }

  @Test
  void podDeletionPartialReplicaSetOwnershipDoesntEnqueueRecreateDeployment_podLeft_nothingQueued() {
    Deployment foo = foo(DeploymentStrategy.RECREATE);
    ReplicaSet rs1 = rs("foo-1", foo);
    rs("foo-2", null);
    Pod p = pod("foo-1-a", rs1);
    pod("foo-1-b", rs1);
    assertThat(delete(p)).isEmpty();
  }

  @Test
  void podDeletion_rollingUpdateDeployment_nothingQueued() {
    Deployment foo = foo(DeploymentStrategy.ROLLING_UPDATE);
    Pod p = pod("foo-1-a", rs("foo-1", foo));
    assertThat(delete(p)).isEmpty();
  }

  @Test
  void podDeletion_replicaSetRecreatedWithAnotherUid_nothingQueued() {
    Deployment foo = foo(DeploymentStrategy.RECREATE);
    ReplicaSet old = rs("foo-1", foo);
    Pod p = pod("foo-1-a", old);
    store.delete(ReplicaSet.class, "default", "foo-1");
    rs("foo-1", foo);
    assertThat(delete(p)).isEmpty();
  }

  @Test
  void podDeletion_podOfAnOrphanReplicaSet_nothingQueued() {
    foo(DeploymentStrategy.RECREATE);
    Pod p = pod("foo-1-a", rs("foo-1", null));
    assertThat(delete(p)).isEmpty();
  }

  @Test
  void podEvents_addAndUpdate_neverQueueTheDeployment() {
    try (Cluster c = new Cluster()) {
      c.store.create(Cluster.web(2));
      c.settle();
      assertThat(c.dc.controller().queue().len()).isZero();
      c.readyAll(); // pod updates only: the ReplicaSet's status, not the pods, wakes the Deployment
      assertThat(c.dc.controller().queue().len()).isZero();
      assertThat(c.rsc.controller().queue().len()).isPositive();
      c.settle();
      assertThat(c.deployment("web").status().readyReplicas()).isEqualTo(2);
    }
  }

  @Test
  void recreateRollout_newTemplate_completesWithOnlyPodDeletionsAndReplicaSetEvents() {
    try (Cluster c = new Cluster()) {
      c.store.create(Deployment.builder().namespace("ns").name("web").replicas(2)
          .matchLabels(Map.of("app", "web")).podSpec(Cluster.podSpec("nginx:1"))
          .strategy(DeploymentStrategy.RECREATE).build());
      c.settle();
      c.readyAll();
      c.settle();
      c.setImage("web", "nginx:2"); // old pods deleted at once here (no kubelet), then the new ones made
      c.settle();
      assertThat(c.pods()).hasSize(2).allMatch(p -> p.spec().containers().get(0).image().equals("nginx:2"));
    }
  }
}
