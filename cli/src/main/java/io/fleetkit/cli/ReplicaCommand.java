package io.fleetkit.cli;

import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.LeaderCallbacks;
import io.fleetkit.reconcile.LeaderElectionConfig;
import io.fleetkit.reconcile.controllers.DeploymentController;
import io.fleetkit.reconcile.controllers.ReplicaSetController;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.StoreScheduler;
import io.fleetkit.store.etcd.EtcdLeaderElector;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fleetkit replica --store etcd://HOST:PORT}: one replica of a FleetKit control plane (the scheduler and the
 * Deployment and ReplicaSet controllers) sharing its state with the other replicas in etcd. The replicas campaign on
 * an etcd lease; only the leader runs the control loops, and every write it makes goes through the election's fenced
 * store, which etcd refuses once the leader has lost the lease. When the leader dies, a follower takes over once
 * etcd lets the lease expire. A replica that stops leading exits with status 3 (as kube-scheduler exits when it
 * loses its lease), to be restarted as a follower by whatever runs it.
 *
 * <p>It reports on stdout, one line each: {@code STARTED <id>}, {@code LEADER <id>} when it sees a new leader,
 * {@code LEADING <id>} when it becomes the leader, {@code STOPPED <id>} when it stops leading, and with
 * {@code --report-writes} {@code WRITE <op> <kind> <namespace>/<name>} after each write it makes.
 */
@Command(name = "replica", mixinStandardHelpOptions = true,
    description = {"Run one replica of the FleetKit control plane on an etcd store, with leader election.",
        "The control plane is the scheduler and the Deployment and ReplicaSet controllers; the leader is elected on"
            + " an etcd lease, and only the leader acts."})
final class ReplicaCommand implements Callable<Integer> {
  /** The exit status of a replica that stopped leading. */
  static final int STOPPED_LEADING = 3;

  @Spec
  private CommandSpec spec;

  @CommandLine.Mixin
  private StoreOptions storeOptions = new StoreOptions();

  @Option(names = "--id", paramLabel = "NAME",
      description = "This replica's identity in the election (default: the JVM's pid@host).")
  private String id = ManagementFactory.getRuntimeMXBean().getName();

  @Option(names = "--prefix", paramLabel = "/PATH", defaultValue = "/fleetkit",
      description = "The etcd key prefix the replicas share (default: ${DEFAULT-VALUE}).")
  private String prefix;

  @Option(names = "--lease-duration", defaultValue = "15s", converter = SimulateCommand.DurationConverter.class,
      description = "How long etcd keeps a dead leader's lease (default: ${DEFAULT-VALUE}).")
  private Duration leaseDuration;

  @Option(names = "--renew-deadline", defaultValue = "10s", converter = SimulateCommand.DurationConverter.class,
      description = "A leader that could not renew for this long steps down (default: ${DEFAULT-VALUE}).")
  private Duration renewDeadline;

  @Option(names = "--retry-period", defaultValue = "2s", converter = SimulateCommand.DurationConverter.class,
      description = "How often candidates try and leaders renew (default: ${DEFAULT-VALUE}).")
  private Duration retryPeriod;

  @Option(names = "--report-writes", description = "Print a WRITE line for every write this replica makes.")
  private boolean reportWrites;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    LeaderElectionConfig config;
    ObjectStore store;
    try {
      if (!storeOptions.isEtcd()) {
        throw new IllegalArgumentException("--store must name etcd (etcd://HOST:PORT or etcds://HOST:PORT): the"
            + " replicas share their state and their election there");
      }
      config = new LeaderElectionConfig("kube-system", "fleetkit", id, leaseDuration, renewDeadline, retryPeriod,
          true);
      store = storeOptions.etcd().prefix(prefix).build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      err.println("replica: " + CliText.clipLine(String.valueOf(e.getMessage())));
      err.flush();
      return 2;
    } catch (FleetKitException e) {
      err.println("replica: " + CliText.clipLine(String.valueOf(e.getMessage())));
      err.flush();
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    AtomicReference<EtcdLeaderElector> elector = new AtomicReference<>();
    LeaderCallbacks callbacks = new LeaderCallbacks() {
      @Override
      public void onStartedLeading() {
        say(out, "LEADING " + id);
        // Off the elector's thread: callbacks must return quickly.
        Thread t = new Thread(() -> lead(elector.get().fencedStore(), out), "fleetkit-replica-lead");
        t.setDaemon(true);
        t.start();
      }

      @Override
      public void onStoppedLeading() {
        say(out, "STOPPED " + id);
        stopped.countDown();
      }

      @Override
      public void onNewLeader(String identity) {
        say(out, "LEADER " + identity);
      }
    };
    try {
      elector.set(EtcdLeaderElector.onLease(store, config, callbacks, TimerClock.system()));
      say(out, "STARTED " + id);
      elector.get().start();
      stopped.await(); // until it stops leading, or the process is ended
    } finally {
      store.close();
    }
    return STOPPED_LEADING;
  }

  /** The control loops of a leader, all writing through the fenced store. */
  private void lead(ObjectStore fenced, PrintWriter out) {
    ObjectStore store = reportWrites ? new WriteLog(fenced, line -> say(out, line)) : fenced;
    DeploymentController.builder(store).workers(2).build().start();
    ReplicaSetController.builder(store).workers(2).build().start();
    StoreScheduler.attach(Scheduler.builder().store(store).build(), store).start(Duration.ofMillis(50));
  }

  private static void say(PrintWriter out, String line) {
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }
}
