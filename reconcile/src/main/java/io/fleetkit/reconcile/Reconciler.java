package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;

/**
 * The one thing a controller author writes: bring the world in line with the desired state of one object, as
 * Java Operator SDK's {@code Reconciler} and controller-runtime's {@code Reconciler}.
 *
 * <p>Contract:
 * <ul>
 *   <li><b>Idempotent and level-triggered.</b> The call gets a key, not an event: read the current state (through
 *       {@link ReconcileContext#object()} and the listers), compare with the desired state, act. Being called
 *       twice in a row, or after a crash, must be harmless. The object may be gone (deleted): clean up then.</li>
 *   <li><b>Never concurrent for one key.</b> The controller never reconciles the same key on two threads at once;
 *       different keys may run in parallel on different workers.</li>
 *   <li><b>Outcome.</b> Return {@link Result#done()} when the object is in its desired state,
 *       {@link Result#requeue()} to be called again after a rate-limited backoff, or
 *       {@link Result#requeueAfter} to be called again after a fixed time. Throwing is a failure: the error is
 *       logged and the key is retried with per-item exponential backoff (5 ms doubling to 1000 s by default).</li>
 * </ul>
 *
 * @param <T> the primary kind
 */
@FunctionalInterface
public interface Reconciler<T extends ApiObject<T>> {
  /**
   * Reconciles the object named by {@code context.key()}.
   *
   * @throws Exception any failure; the key is retried with backoff
   */
  Result reconcile(ReconcileContext<T> context) throws Exception;
}
