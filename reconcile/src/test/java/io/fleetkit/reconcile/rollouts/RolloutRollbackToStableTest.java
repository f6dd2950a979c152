package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.core.ServiceStatus;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.BlueGreenStrategy;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutPhase;
import io.fleetkit.api.rollouts.RolloutStatus;
import io.fleetkit.api.rollouts.TrafficRouting;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.internal.TemplateHash;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Going back to the stable version in the middle of a canary update with traffic routing and
 * {@code dynamicStableScale} (Argo's {@code IsDynamicallyRollingBackToStable}): the weight stays on the previous
 * canary, whose Service and ReplicaSet stay, until the stable ReplicaSet has all its pods available; then the weight
 * goes to 0, the canary Service to the stable version and the previous canary is scaled down. argo-rollouts
 * {@code rollout/trafficrouting_test.go} (commit 9f8d111d) TestDontWeightToZeroWhenDynamicallyRollingBackToStable:
 * the weight handed to the router (10, not 0) and the stable scaled from 1 to 10 (upstream's revision annotation
 * updates have no counterpart; UpdateHash's hashes are the canary Service's selector here); the steps after it are
 * FleetKit's.
 */
final class RolloutRollbackToStableTest {
  /** The weights the router was asked for, in order. */
  private final List<Integer> weights = new java.util.ArrayList<>();
  private final TrafficRouter router = (r, routing, weight) -> {
    weights.add(weight);
    return weight;
  };
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = RolloutControllerClaimTest.store(clock);
  private final RolloutController rc = RolloutController.builder(store).clock(clock).stepping()
      .trafficRouter(router).build();

  RolloutRollbackToStableTest() {
    rc.start().join();
  }

  @AfterEach
  void close() {
    rc.close();
    store.close();
  }

  private static Rollout blueGreen(String image, UnaryOperator<BlueGreenStrategy> f) {
    return Rollout.builder().namespace("default").name("foo").replicas(1).matchLabels(Map.of("foo", "bar"))
        .podSpec(PodSpec.builder().container("app", image, ResourceList.EMPTY).build())
        .blueGreen(f.apply(BlueGreenStrategy.of("bar", null))).build();
  }

  private static Rollout canary(String image, int replicas, UnaryOperator<CanaryStrategy> f) {
    CanaryStrategy c = new CanaryStrategy(List.of(new CanaryStep.SetWeight(10)), IntOrPercent.of(1),
        IntOrPercent.of(1), null, "stable", "canary", new TrafficRouting("route"), false, null, null);
    return Rollout.builder().namespace("default").name("foo").replicas(replicas).matchLabels(Map.of("foo", "bar"))
        .podSpec(PodSpec.builder().container("app", image, ResourceList.EMPTY).build()).canary(f.apply(c)).build();
  }

  private static String hash(Rollout r) {
    return TemplateHash.compute(r.spec().template(), null);
  }

  /** Upstream's {@code newReplicaSetWithStatus(r, replicas, available)}, created one second after the last. */
  private ReplicaSet replicaSet(Rollout r, int replicas, int available, @Nullable String deadline) {
    String h = hash(r);
    ObjectMeta.Builder m = ObjectMeta.builder().namespace("default").name("foo-" + h).label("foo", "bar")
        .label(Rollout.POD_TEMPLATE_HASH_LABEL, h);
    if (deadline != null) {
      m.annotation("argo-rollouts.argoproj.io/scale-down-deadline", deadline);
    }
    ReplicaSet rs = store.create(ReplicaSet.builder().metadata(m.build()).replicas(replicas)
        .matchLabels(Map.of("foo", "bar", Rollout.POD_TEMPLATE_HASH_LABEL, h))
        .template(new io.fleetkit.api.core.PodTemplateSpec(ObjectMeta.builder().label("foo", "bar")
            .label(Rollout.POD_TEMPLATE_HASH_LABEL, h).build(), r.spec().template().spec())).build());
    clock.advance(Duration.ofSeconds(1));
    return store.updateStatus(rs.withStatus(new ReplicaSetStatus(replicas, replicas, available, available, 0)));
  }

  private void service(String name, String hash) {
    store.create(new Service(ObjectMeta.of("default", name), ServiceSpec.builder()
        .selector(Map.of("foo", "bar", Rollout.POD_TEMPLATE_HASH_LABEL, hash)).ports(List.of(ServicePort.of(80)))
        .build(), ServiceStatus.EMPTY));
  }

  private void rollout(Rollout r, RolloutStatus.Builder status) {
    Rollout created = store.create(r);
    store.updateStatus(created.withStatus(status.lastProgressTime(clock.instant()).build()));
  }

  private ReplicaSet rs(Rollout r) {
    return store.require(ReplicaSet.class, "default", "foo-" + hash(r));
  }

  private @Nullable String deadline(Rollout r) {
    return rs(r).metadata().annotations().get("argo-rollouts.argoproj.io/scale-down-deadline");
  }

  private String inSeconds(int s) {
    return clock.instant().plusSeconds(s).truncatedTo(ChronoUnit.SECONDS).toString();
  }

  @Test
  void dynamicRollbackToStable_weightKeptOnPreviousCanaryUntilStableAvailable() {
    UnaryOperator<CanaryStrategy> dynamic = c -> new CanaryStrategy(List.of(new CanaryStep.SetWeight(90),
        CanaryStep.Pause.indefinite()), c.maxSurge(), c.maxUnavailable(), null, "stable", "canary",
        c.trafficRouting(), true, null, null);
    Rollout r1 = canary("web:1", 10, dynamic);
    Rollout r2 = canary("web:2", 10, dynamic);
    replicaSet(r1, 1, 1, null);
    replicaSet(r2, 9, 9, null);
    service("canary", hash(r2));
    service("stable", hash(r1));
    // simulate the rollback to stable: the spec is version 1 again, stable and current are version 1
    rollout(r1, RolloutStatus.builder().currentPodHash(hash(r1)).stableRs(hash(r1)).currentStepIndex(2)
        .canaryWeight(10).canaryWeightHash(hash(r2)));
    rc.runUntilIdle();
    assertThat(weights).as("SetWeight keeps 10 while the stable is short").containsOnly(10);
    assertThat(rs(r1).spec().replicas()).isEqualTo(10);
    assertThat(rs(r2).spec().replicas()).as("the previous canary is still weighted").isEqualTo(9);
    assertThat(store.require(Service.class, "default", "canary").spec().selector())
        .containsEntry(Rollout.POD_TEMPLATE_HASH_LABEL, hash(r2));
    Rollout now = store.require(Rollout.class, "default", "foo");
    assertThat(now.status().canaryWeightHash()).isEqualTo(hash(r2));

    ReplicaSet stable = rs(r1);
    store.updateStatus(stable.withStatus(new ReplicaSetStatus(10, 10, 10, 10, 0)));
    rc.runUntilIdle();
    assertThat(weights.get(weights.size() - 1)).isZero();
    assertThat(store.require(Service.class, "default", "canary").spec().selector())
        .containsEntry(Rollout.POD_TEMPLATE_HASH_LABEL, hash(r1));
    assertThat(rs(r2).spec().replicas()).as("scaled down once no longer weighted").isZero();
    assertThat(store.require(Rollout.class, "default", "foo").status().canaryWeightHash()).isEqualTo(hash(r1));
  }

  /** Without {@code dynamicStableScale} the same rollback sends the weight to 0 at once (nothing to wait for). */
  @Test
  void rollbackToStable_withoutDynamicScale_canaryServiceSwitchedAtOnce() {
    Rollout r1 = canary("web:1", 10, c -> c);
    Rollout r2 = canary("web:2", 10, c -> c);
    replicaSet(r1, 10, 10, null);
    replicaSet(r2, 1, 1, null);
    service("canary", hash(r2));
    service("stable", hash(r1));
    rollout(r1, RolloutStatus.builder().currentPodHash(hash(r1)).stableRs(hash(r1)).currentStepIndex(1)
        .canaryWeight(10).canaryWeightHash(hash(r2)));
    rc.runUntilIdle();
    assertThat(weights).contains(0);
    assertThat(store.require(Service.class, "default", "canary").spec().selector())
        .containsEntry(Rollout.POD_TEMPLATE_HASH_LABEL, hash(r1));
  }
}
