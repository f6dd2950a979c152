package io.fleetkit.reconcile.rollouts;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutStatus;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerHandle;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.controllers.internal.OrphanEvents;
import io.fleetkit.reconcile.rollouts.internal.RolloutReconciler;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Rolls {@link Rollout}s out, as Argo Rollouts' controller: a canary (the replica math of
 * {@code utils/replicaset/canary.go}, steps with weights, pauses and analysis, background analysis) or a
 * blue-green (preview, pre- and post-promotion analysis, auto-promotion, scale-down delay) over ReplicaSets named
 * {@code NAME-HASH}. ReplicaSets are claimed as a Deployment claims them (Argo's {@code ClaimReplicaSets}): orphans
 * the selector matches are adopted (one appearing wakes every Rollout whose selector matches it), controlled ones
 * that stop matching are released. A failed analysis, or a missed progress deadline with {@code progressDeadlineAbort}, aborts
 * automatically: the canary's weight goes back to 0 (the active Service stays on stable), the new version is scaled
 * down, and the rollout is Degraded with the reason. {@link #promote}, {@link #abort} and {@link #retry} are the
 * {@code kubectl argo rollouts} commands. Pods are made by a ReplicaSet controller, and analysis runs judged by an
 * {@link AnalysisRunController}, which must run beside it.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class RolloutController extends ControllerHandle<Rollout> {
  private RolloutController(Builder b) {
    this(b, new OrphanEvents<Rollout, ReplicaSet>(r -> OrphanEvents.nonEmpty(r.spec().selector())));
  }

  private RolloutController(Builder b, OrphanEvents<Rollout, ReplicaSet> orphans) {
    super(runtime(b, orphans));
    orphans.bind(controller());
  }

  private static Controller<Rollout> runtime(Builder b, OrphanEvents<Rollout, ReplicaSet> orphans) {
    // a ReplicaSet with a controller reference wakes its Rollout (Argo's EnqueueParentObject); an orphan wakes every
    // Rollout whose selector matches it, which adopts it in its next sync, as a Deployment does
    var cb = Controller.builder(b.store, Rollout.class).name(b.name).reconciler(new RolloutReconciler(
        b.router != null ? b.router : HttpRouteTrafficRouter.of(b.store)))
        .owns(ReplicaSet.class).handler(ReplicaSet.class, orphans)
        .watches(AnalysisRun.class, RolloutController::rolloutOf);
    cb.clock(b.clock != null ? b.clock : TimerClock.system())
        .events(b.events != null ? b.events : EventRecorder.NOOP); // ControllerBuilder makes it best effort
    if (b.stepping) {
      cb.stepping();
    }
    return cb.build();
  }

  private static List<ObjectKey> rolloutOf(AnalysisRun run) {
    OwnerReference ref = run.metadata().controllerRef();
    return ref != null && ref.kind().equals(Rollout.KIND)
        ? List.of(ObjectKey.of(run.metadata().namespace(), ref.name())) : List.of();
  }

  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /**
   * {@code kubectl argo rollouts promote}: ends the current pause (or, on a canary that is not paused, skips the
   * current step); with {@code full}, goes straight to 100% skipping the remaining steps, pauses and analysis.
   *
   * @throws io.fleetkit.api.NotFoundException if the rollout does not exist
   * @throws io.fleetkit.api.ConflictException if it changed concurrently; read again and retry
   */
  public static Rollout promote(ObjectStore store, String namespace, String name, boolean full) {
    Rollout r = store.require(Rollout.class, namespace, name);
    if (r.spec().paused()) {
      r = store.update(r.withSpec(r.spec().withPaused(false)));
    }
    RolloutStatus.Builder b = r.status().toBuilder();
    if (full) {
      b.promoteFull(true).pauseConditions(List.of()).controllerPause(false);
    } else if (!r.status().pauseConditions().isEmpty()) {
      b.pauseConditions(List.of()).controllerPause(true);
    } else if (r.canary() != null) {
      int idx = r.status().currentStepIndex() == null ? 0 : r.status().currentStepIndex();
      b.currentStepIndex(Math.min(idx + 1, r.canary().steps().size())).analysisRun("");
    }
    return store.updateStatus(r.withStatus(b.build()));
  }

  /** {@code kubectl argo rollouts abort}: back to the stable version; the rollout is Degraded until retried. */
  public static Rollout abort(ObjectStore store, String namespace, String name) {
    Rollout r = store.require(Rollout.class, namespace, name);
    RolloutStatus.Builder b = r.status().toBuilder().abort(true).message("RolloutAborted: Rollout aborted update to "
        + "revision " + r.status().currentPodHash()).pauseConditions(List.of()).controllerPause(false);
    if (r.canary() != null) {
      b.currentStepIndex(0);
    }
    return store.updateStatus(r.withStatus(b.build()));
  }

  /** {@code kubectl argo rollouts retry}: clears the abort; the steps start again from the first. */
  public static Rollout retry(ObjectStore store, String namespace, String name) {
    Rollout r = store.require(Rollout.class, namespace, name);
    return store.updateStatus(r.withStatus(r.status().toBuilder().abort(false).abortedAt(null).message("")
        .analysisRun("").backgroundAnalysisRun("").build()));
  }

  /** Builder; not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private String name = "rollout";
    private @Nullable TimerClock clock;
    private boolean stepping;
    private @Nullable TrafficRouter router;
    private @Nullable EventRecorder events;

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    public Builder name(String v) {
      name = Objects.requireNonNull(v, "name");
      return this;
    }

    /** The clock for pauses, delays and deadlines; default the system clock. */
    public Builder clock(TimerClock v) {
      clock = Objects.requireNonNull(v, "clock");
      return this;
    }

    /** Stepping mode: no threads; drive with {@link RolloutController#runUntilIdle()}. */
    public Builder stepping() {
      stepping = true;
      return this;
    }

    /**
     * Where canaries with {@code trafficRouting} get their weights applied; default an {@link HttpRouteTrafficRouter}
     * over the controller's store (the backends of the named HTTPRoute). Canaries without {@code trafficRouting}
     * split traffic by the replica ratio.
     */
    public Builder trafficRouter(TrafficRouter v) {
      router = Objects.requireNonNull(v, "trafficRouter");
      return this;
    }

    /**
     * Where the controller records its events on each Rollout, with Argo Rollouts' reasons and notes
     * ({@code RolloutUpdated}, {@code NewReplicaSetCreated}, {@code ScalingReplicaSet}, {@code RolloutStepCompleted},
     * {@code RolloutPaused}, {@code RolloutResumed}, {@code RolloutAborted}, {@code RolloutCompleted},
     * {@code SwitchService}, {@code SkipSteps}, and {@code AnalysisRun<Phase>} when one of its analysis runs changes
     * phase), each once per transition; default {@link EventRecorder#NOOP}, which records nothing and builds no
     * message. What the recorder throws is logged at DEBUG and ignored ({@link EventRecorder#bestEffort}).
     *
     * @throws IllegalStateException if a recorder was already given
     */
    public Builder events(EventRecorder v) {
      Objects.requireNonNull(v, "events");
      if (events != null) {
        throw new IllegalStateException("rollout controller: events was already set to " + events);
      }
      events = v;
      return this;
    }

    public RolloutController build() {
      return new RolloutController(this);
    }
  }
}
