package io.fleetkit.reconcile;

/**
 * What a {@link LeaderElector} tells its owner, as client-go's {@code LeaderCallbacks}. Calls are made on the
 * thread that runs the elector's step (the caller of {@link LeaderElector#tryAcquireOrRenew()} /
 * {@link LeaderElector#release()}, or the clock's timer thread when started); they must return quickly (start
 * controllers asynchronously). One elector never calls its callbacks concurrently.
 */
public interface LeaderCallbacks {
  /** This elector became the leader. */
  default void onStartedLeading() {}

  /** This elector stopped being the leader (lost, expired or released the lease, or was closed). */
  default void onStoppedLeading() {}

  /** The observed leader changed to {@code identity} ({@code ""}: nobody holds the lease). */
  default void onNewLeader(String identity) {}
}
