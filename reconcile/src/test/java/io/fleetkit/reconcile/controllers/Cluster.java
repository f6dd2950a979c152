package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.DeploymentSpec;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.List;

/** A store, a ReplicaSet and a Deployment controller in stepping mode on one manual clock. */
final class Cluster implements AutoCloseable {
  final ManualClock clock = ManualClock.atEpoch2026();
  final ObjectStore store = Sim.store(clock);
  final ReplicaSetController rsc = ReplicaSetController.builder(store).clock(clock).stepping().build();
  final DeploymentController dc = DeploymentController.builder(store).clock(clock).stepping().build();
  private int nodeCounter;

  Cluster() {
    rsc.start().join();
    dc.start().join();
  }

  /** Runs both controllers until neither has a ready key. */
  void settle() {
    for (int i = 0; i < 10_000; i++) {
      // the kubelets end the deleted pods at once (their containers stop on SIGTERM)
      if (dc.runUntilIdle() + rsc.runUntilIdle() + Sim.finishTerminating(store) == 0) {
        return;
      }
    }
    throw new AssertionError("controllers did not settle");
  }

  /** Runs one controller step pair: the Deployment controller, then the ReplicaSet controller. */
  int step() {
    return dc.runUntilIdle() + rsc.runUntilIdle();
  }

  /** Marks every active pod that is not ready Running and Ready on a fresh node. */
  void readyAll() {
    for (Pod p : pods()) {
      if (ActivePods.isActive(p) && !p.isReady()) {
        Sim.ready(store, clock, p, "node-" + (nodeCounter++ % 3));
      }
    }
  }

  List<Pod> pods() {
    return store.list(Pod.class, "").items();
  }

  List<ReplicaSet> replicaSets() {
    return store.list(ReplicaSet.class, "").items();
  }

  Deployment deployment(String name) {
    return store.require(Deployment.class, "ns", name);
  }

  static Deployment web(int replicas) {
    return Deployment.builder().namespace("ns").name("web").replicas(replicas)
        .matchLabels(java.util.Map.of("app", "web")).podSpec(podSpec("nginx:1")).build();
  }

  static PodSpec podSpec(String image) {
    return PodSpec.builder().container("app", image, ResourceList.EMPTY).build();
  }

  /** Changes the image of the Deployment's template. */
  Deployment setImage(String name, String image) {
    Deployment d = deployment(name);
    DeploymentSpec s = d.spec();
    PodTemplateSpec t = new PodTemplateSpec(s.template().metadata(), podSpec(image));
    return store.update(d.withSpec(new DeploymentSpec(s.replicas(), s.selector(), t, s.strategy(),
        s.minReadySeconds(), s.revisionHistoryLimit(), s.progressDeadlineSeconds(), s.paused())));
  }

  Deployment update(String name, java.util.function.UnaryOperator<DeploymentSpec> change) {
    Deployment d = deployment(name);
    return store.update(d.withSpec(change.apply(d.spec())));
  }

  static DeploymentSpec paused(DeploymentSpec s, boolean paused) {
    return new DeploymentSpec(s.replicas(), s.selector(), s.template(), s.strategy(), s.minReadySeconds(),
        s.revisionHistoryLimit(), s.progressDeadlineSeconds(), paused);
  }

  @Override
  public void close() {
    dc.close();
    rsc.close();
    store.close();
  }
}
