package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetStatus;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutStatus;
import java.util.List;
import java.util.function.UnaryOperator;
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
final class RolloutRollbackToStableTest extends RolloutControllerFixture {
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
