package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerBuilder;
import io.fleetkit.reconcile.SchedulingClock;
import io.fleetkit.reconcile.controllers.internal.StatefulSetReconciler;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Keeps the pods of every {@link StatefulSet}, as Kubernetes' StatefulSet controller: pods with stable names
 * {@code NAME-0..N-1} (labels {@value WorkloadLabels#STATEFULSET_POD_NAME} and {@value WorkloadLabels#POD_INDEX};
 * hostname and subdomain in annotations {@value WorkloadLabels#HOSTNAME} and {@value WorkloadLabels#SUBDOMAIN}), a
 * claim {@code <template>-NAME-<ordinal>} per volumeClaimTemplate created before the pod and kept on scale-down
 * (retention Retain), OrderedReady or Parallel pod management, RollingUpdate with partition or OnDelete, revisions in
 * label {@value WorkloadLabels#CONTROLLER_REVISION_HASH} and {@code status.currentRevision/updateRevision}.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class StatefulSetController implements AutoCloseable {
  private final Controller<StatefulSet> controller;

  private StatefulSetController(Builder b) {
    ControllerBuilder<StatefulSet> cb = Controller.builder(b.store, StatefulSet.class).name(b.name)
        .reconciler(new StatefulSetReconciler()).owns(Pod.class);
    if (b.clock != null) {
      cb.clock(b.clock);
    }
    if (b.stepping) {
      cb.stepping();
    } else {
      cb.workers(b.workers);
    }
    controller = cb.build();
  }

  /** A builder for a StatefulSet controller over {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /** Starts the informers (and workers); completes when synced. */
  public CompletableFuture<Void> start() {
    return controller.start();
  }

  /** Stepping mode: reconciles until no key is ready; returns how many keys were processed. */
  public int runUntilIdle() {
    return controller.runUntilIdle();
  }

  /** The underlying controller (queue, lister, enqueue). */
  public Controller<StatefulSet> controller() {
    return controller;
  }

  @Override
  public void close() {
    controller.close();
  }

  /** Configures a {@link StatefulSetController}. Not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private String name = "statefulset";
    private @Nullable SchedulingClock clock;
    private boolean stepping;
    private int workers = 1;

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** The controller name (logs, thread names); default {@code statefulset}. */
    public Builder name(String v) {
      name = Objects.requireNonNull(v, "name");
      return this;
    }

    /** The clock (queue delays, minReadySeconds); default the system clock. */
    public Builder clock(SchedulingClock v) {
      if (clock != null) {
        throw new IllegalStateException("StatefulSetController: clock was already set to " + clock);
      }
      clock = Objects.requireNonNull(v, "clock");
      return this;
    }

    /** Stepping mode: no threads, drive with {@link StatefulSetController#runUntilIdle()}. */
    public Builder stepping() {
      stepping = true;
      return this;
    }

    /**
     * Threaded mode with {@code n} workers (default 1).
     *
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public Builder workers(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("StatefulSetController: workers must be at least 1 but was " + n);
      }
      workers = n;
      return this;
    }

    public StatefulSetController build() {
      return new StatefulSetController(this);
    }
  }
}
