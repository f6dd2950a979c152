/**
 * The controller runtime: what client-go and controller-runtime are to Kubernetes, over the embedded
 * {@link io.fleetkit.api.store.ObjectStore}.
 *
 * <p>Entry types:
 * <ul>
 *   <li>work queues: {@link io.fleetkit.reconcile.WorkQueue}, {@link io.fleetkit.reconcile.DelayingQueue},
 *       {@link io.fleetkit.reconcile.RateLimitingQueue} with client-go's semantics, and
 *       {@link io.fleetkit.reconcile.RateLimiter} / {@link io.fleetkit.reconcile.RateLimiters};</li>
 *   <li>informers: {@link io.fleetkit.reconcile.Informer} (list + watch + indexed cache + resync),
 *       {@link io.fleetkit.reconcile.Lister}, {@link io.fleetkit.reconcile.ResourceEventHandler}, and
 *       {@link io.fleetkit.reconcile.SharedInformers}, one informer per kind for several controllers;</li>
 *   <li>controllers: the {@link io.fleetkit.reconcile.Reconciler} SPI, its
 *       {@link io.fleetkit.reconcile.ReconcileContext} and {@link io.fleetkit.reconcile.Result}, and
 *       {@link io.fleetkit.reconcile.Controller} (threaded workers or single-threaded stepping), and
 *       {@link io.fleetkit.reconcile.SimulatedController}, a stepping controller as a whole-cluster simulation
 *       drives it;</li>
 *   <li>{@link io.fleetkit.reconcile.GarbageCollector} (owner references, cascading deletion);</li>
 *   <li>leader election: {@link io.fleetkit.reconcile.LeaderElector},
 *       {@link io.fleetkit.reconcile.LeaderElectionConfig}, {@link io.fleetkit.reconcile.LeaderCallbacks} and the
 *       {@link io.fleetkit.reconcile.LeaderLease} kind;</li>
 *   <li>time: every timed behaviour takes core-api's {@link io.fleetkit.api.time.TimerClock}; simulations and tests
 *       pass a {@link io.fleetkit.api.time.ManualClock}.</li>
 * </ul>
 *
 * <p>Threading: every public type is thread-safe unless its javadoc says otherwise; each type documents on which
 * threads it calls user code. Implementations live in {@code io.fleetkit.reconcile.internal}, which is not part of
 * the contract.
 */
@NullMarked
package io.fleetkit.reconcile;

import org.jspecify.annotations.NullMarked;
