package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.controllers.internal.ReplicaSetReconciler;

/**
 * The settings of the controllers that run the ReplicaSet reconciler ({@link ReplicaSetController} and
 * {@link ReplicationManager}) beside those of every workload controller: the burst size and the seed of generated pod
 * names. Only this package's controllers extend it. Not thread-safe.
 *
 * @param <B> the concrete builder, which every setter returns
 * @param <C> the controller it builds
 */
public abstract class ReplicaControllerBuilder<B extends ReplicaControllerBuilder<B, C>, C>
    extends WorkloadControllerBuilder<B, C> {
  private final String owner;
  private int burstReplicas = ReplicaSetReconciler.DEFAULT_BURST_REPLICAS;
  private long seed = 1;

  ReplicaControllerBuilder(ObjectStore store, String owner, String defaultName) {
    super(store, owner, defaultName);
    this.owner = owner;
  }

  /**
   * Most pods created or deleted per sync (upstream's burstReplicas, default 500).
   *
   * @throws IllegalArgumentException if {@code n < 1}
   */
  public final B burstReplicas(int n) {
    if (n < 1) {
      throw new IllegalArgumentException(owner + ": burstReplicas must be at least 1 but was " + n);
    }
    burstReplicas = n;
    return self();
  }

  /** Seed of the generated pod-name suffixes (default 1), for reproducible simulations. */
  public final B seed(long v) {
    seed = v;
    return self();
  }

  final int burst() {
    return burstReplicas;
  }

  final long nameSeed() {
    return seed;
  }
}
