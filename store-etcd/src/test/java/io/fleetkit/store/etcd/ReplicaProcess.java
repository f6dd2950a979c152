package io.fleetkit.store.etcd;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchListener;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.LeaderCallbacks;
import io.fleetkit.reconcile.LeaderElectionConfig;
import io.fleetkit.reconcile.controllers.ReplicaSetController;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.StoreScheduler;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * One FleetKit replica as its own process, for {@link EtcdTwoProcessFailoverTest}: connects to etcd, campaigns on an
 * etcd lease, and only once it leads starts a scheduler and a ReplicaSet controller, both writing through the
 * elector's fenced store. It reports on stdout, one line each: {@code LEADER <id>} when it sees a new leader,
 * {@code LEADING <id>} when it becomes the leader, {@code WRITE <op> <kind> <name>} after each write it made, and it
 * halts when it stops leading (as kube-scheduler exits when it loses its lease).
 *
 * <p>Arguments: etcd endpoint, store prefix, identity, lease duration, renew deadline, retry period (milliseconds).
 */
public final class ReplicaProcess {
  private ReplicaProcess() {}

  public static void main(String[] args) throws Exception {
    String endpoint = args[0];
    String prefix = args[1];
    String id = args[2];
    LeaderElectionConfig config = new LeaderElectionConfig("kube-system", "fleetkit", id,
        Duration.ofMillis(Long.parseLong(args[3])), Duration.ofMillis(Long.parseLong(args[4])),
        Duration.ofMillis(Long.parseLong(args[5])), false);
    ObjectStore store = EtcdStore.builder(endpoint).prefix(prefix).build();
    AtomicReference<EtcdLeaderElector> elector = new AtomicReference<>();
    LeaderCallbacks callbacks = new LeaderCallbacks() {
      @Override
      public void onStartedLeading() {
        say("LEADING " + id);
        // Start the controllers off the elector's thread (callbacks must return quickly).
        Thread t = new Thread(() -> act(new LoggingStore(elector.get().fencedStore())), "replica-start");
        t.setDaemon(true);
        t.start();
      }

      @Override
      public void onStoppedLeading() {
        say("STOPPED " + id);
        Runtime.getRuntime().halt(3);
      }

      @Override
      public void onNewLeader(String identity) {
        say("LEADER " + identity);
      }
    };
    elector.set(EtcdLeaderElector.onLease(store, config, callbacks, TimerClock.system()));
    say("STARTED " + id);
    elector.get().start();
    new CountDownLatch(1).await(); // until killed
  }

  private static void act(ObjectStore store) {
    ReplicaSetController replicaSets = ReplicaSetController.builder(store).workers(2).build();
    replicaSets.start();
    Scheduler scheduler = Scheduler.builder().store(store).build();
    StoreScheduler.attach(scheduler, store).start(Duration.ofMillis(50));
  }

  static synchronized void say(String line) {
    System.out.println(line);
    System.out.flush();
  }

  /** Reports every successful write on stdout. */
  private record LoggingStore(ObjectStore store) implements ObjectStore {
    private static <T extends ApiObject<T>> T said(String op, T o) {
      say("WRITE " + op + " " + o.getClass().getSimpleName() + " " + o.metadata().namespace() + "/"
          + o.metadata().name());
      return o;
    }

    @Override
    public <T extends ApiObject<T>> T create(T object) {
      return said("create", store.create(object));
    }

    @Override
    public <T extends ApiObject<T>> Optional<T> get(Class<T> kind, String namespace, String name) {
      return store.get(kind, namespace, name);
    }

    @Override
    public <T extends ApiObject<T>> T require(Class<T> kind, String namespace, String name) {
      return store.require(kind, namespace, name);
    }

    @Override
    public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace) {
      return store.list(kind, namespace);
    }

    @Override
    public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace, LabelSelector selector) {
      return store.list(kind, namespace, selector);
    }

    @Override
    public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace,
        Predicate<? super T> filter) {
      return store.list(kind, namespace, filter);
    }

    @Override
    public <T extends ApiObject<T>> T update(T object) {
      return said("update", store.update(object));
    }

    @Override
    public <T extends ApiObject<T>> T updateStatus(T object) {
      return said("status", store.updateStatus(object));
    }

    @Override
    public <T extends ApiObject<T>> T delete(Class<T> kind, String namespace, String name,
        DeletePreconditions preconditions) {
      return said("delete", store.delete(kind, namespace, name, preconditions));
    }

    @Override
    public <T extends ApiObject<T>> Watch watch(Class<T> kind, String fromResourceVersion,
        WatchListener<T> listener) {
      return store.watch(kind, fromResourceVersion, listener);
    }

    @Override
    public String resourceVersion() {
      return store.resourceVersion();
    }

    @Override
    public void close() {
      store.close();
    }
  }
}
