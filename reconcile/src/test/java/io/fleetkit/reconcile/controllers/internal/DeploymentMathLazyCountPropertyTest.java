package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.reconcile.controllers.internal.DeploymentMath.RsView;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The new ReplicaSet's next size with the pod count read lazily equals the size computed from the count read
 * eagerly, and the count is read only when the new ReplicaSet is below the Deployment's size.
 */
final class DeploymentMathLazyCountPropertyTest {
  @Property(tries = 2000)
  void lazyCount_anyInputs_sameTargetAsEagerAndReadOnlyWhenBelowSize(@ForAll @IntRange(max = 50) int replicas,
      @ForAll @IntRange(max = 20) int maxSurge, @ForAll @IntRange(max = 120) int currentPodCount,
      @ForAll @IntRange(max = 60) int newReplicas) {
    RsView newRs = new RsView("web-new", newReplicas, 0, null);
    AtomicInteger reads = new AtomicInteger();
    int lazy = DeploymentMath.reconcileNewReplicaSet(replicas, maxSurge, () -> {
      reads.incrementAndGet();
      return currentPodCount;
    }, newRs);
    assertThat(lazy).isEqualTo(DeploymentMath.reconcileNewReplicaSet(replicas, maxSurge, currentPodCount, newRs));
    assertThat(reads.get()).isEqualTo(newReplicas < replicas ? 1 : 0);
  }
}
