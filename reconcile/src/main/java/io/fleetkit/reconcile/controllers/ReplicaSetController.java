package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerBuilder;
import io.fleetkit.reconcile.Informer;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ResourceEventHandler;
import io.fleetkit.reconcile.SchedulingClock;
import io.fleetkit.reconcile.controllers.internal.ControllerExpectations;
import io.fleetkit.reconcile.controllers.internal.ReplicaSetReconciler;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Keeps {@code spec.replicas} active pods for every {@link ReplicaSet}, as Kubernetes' ReplicaSet controller: pods
 * are created from the template with a generated name ({@code NAME-xxxxx}) and a controller owner reference,
 * matching orphans are adopted, and surplus pods are deleted in upstream's victim order ({@link ActivePods}).
 * Expectations keep it from creating or deleting again before its own earlier writes reach its cache. Status
 * counts replicas, ready and available (ready for {@code minReadySeconds} on the controller's clock) pods.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class ReplicaSetController implements AutoCloseable {
  private static final char[] ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789".toCharArray();

  private final Controller<ReplicaSet> controller;
  private final Informer<Pod> podInformer;
  private final ControllerExpectations expectations = new ControllerExpectations();

  private ReplicaSetController(Builder b) {
    Random random = new Random(b.seed);
    ReplicaSetReconciler reconciler = new ReplicaSetReconciler(expectations, b.burstReplicas, () -> {
      char[] s = new char[5];
      synchronized (random) {
        for (int i = 0; i < s.length; i++) {
          s[i] = ALPHANUMS[random.nextInt(ALPHANUMS.length)];
        }
      }
      return new String(s);
    });
    ControllerBuilder<ReplicaSet> cb = Controller.builder(b.store, ReplicaSet.class).name(b.name)
        .reconciler(reconciler).owns(Pod.class);
    if (b.clock != null) {
      cb.clock(b.clock);
    }
    if (b.stepping) {
      cb.stepping();
    } else {
      cb.workers(b.workers);
    }
    controller = cb.build();
    podInformer = Informer.builder(b.store, Pod.class)
        .clock(b.clock != null ? b.clock : SchedulingClock.system()).build();
    podInformer.addEventHandler(new ExpectationsHandler());
  }

  /** A builder for a ReplicaSet controller over {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /** Starts the informers (and workers); completes when synced. */
  public CompletableFuture<Void> start() {
    return podInformer.start().thenCompose(v -> controller.start());
  }

  /** Stepping mode: reconciles until no key is ready; returns how many keys were processed. */
  public int runUntilIdle() {
    return controller.runUntilIdle();
  }

  /** The underlying controller (queue, lister, enqueue). */
  public Controller<ReplicaSet> controller() {
    return controller;
  }

  /** Creations the controller still waits to observe for {@code key}. */
  public int pendingCreations(ObjectKey key) {
    return expectations.pendingCreations(key);
  }

  @Override
  public void close() {
    controller.close();
    podInformer.close();
  }

  /** Feeds expectations from pod events and wakes the owner, as the upstream pod event handlers. */
  private final class ExpectationsHandler implements ResourceEventHandler<Pod> {
    @Override
    public void onAdd(Pod pod) {
      ObjectKey owner = owner(pod);
      if (owner != null) {
        if (pod.metadata().deletionTimestamp() != null) {
          expectations.deletionObserved(owner, pod.metadata().key());
        } else {
          expectations.creationObserved(owner);
        }
        controller.enqueue(owner);
      }
    }

    @Override
    public void onUpdate(Pod oldPod, Pod newPod) {
      ObjectKey owner = owner(newPod);
      if (owner != null && oldPod.metadata().deletionTimestamp() == null
          && newPod.metadata().deletionTimestamp() != null) {
        expectations.deletionObserved(owner, newPod.metadata().key());
        controller.enqueue(owner);
      }
    }

    @Override
    public void onDelete(Pod pod, boolean finalStateUnknown) {
      ObjectKey owner = owner(pod);
      if (owner != null) {
        expectations.deletionObserved(owner, pod.metadata().key());
        controller.enqueue(owner);
      }
    }

    private @Nullable ObjectKey owner(Pod pod) {
      OwnerReference ref = pod.metadata().controllerRef();
      return ref != null && ref.kind().equals(ReplicaSet.KIND)
          ? ObjectKey.of(pod.metadata().namespace(), ref.name()) : null;
    }
  }

  /** Configures a {@link ReplicaSetController}; each setting once. Not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private String name = "replicaset";
    private @Nullable SchedulingClock clock;
    private boolean stepping;
    private int workers = 1;
    private int burstReplicas = ReplicaSetReconciler.DEFAULT_BURST_REPLICAS;
    private long seed = 1;

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** The controller name (logs, thread names); default {@code replicaset}. */
    public Builder name(String v) {
      name = Objects.requireNonNull(v, "name");
      return this;
    }

    /** The clock (queue delays, minReadySeconds, expectations TTL); default the system clock. */
    public Builder clock(SchedulingClock v) {
      if (clock != null) {
        throw new IllegalStateException("ReplicaSetController: clock was already set to " + clock);
      }
      clock = Objects.requireNonNull(v, "clock");
      return this;
    }

    /** Stepping mode: no threads, drive with {@link ReplicaSetController#runUntilIdle()}. */
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
        throw new IllegalArgumentException("ReplicaSetController: workers must be at least 1 but was " + n);
      }
      workers = n;
      return this;
    }

    /**
     * Most pods created or deleted per sync (upstream's burstReplicas, default 500).
     *
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public Builder burstReplicas(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("ReplicaSetController: burstReplicas must be at least 1 but was " + n);
      }
      burstReplicas = n;
      return this;
    }

    /** Seed of the generated pod-name suffixes (default 1), for reproducible simulations. */
    public Builder seed(long v) {
      seed = v;
      return this;
    }

    public ReplicaSetController build() {
      return new ReplicaSetController(this);
    }
  }
}
