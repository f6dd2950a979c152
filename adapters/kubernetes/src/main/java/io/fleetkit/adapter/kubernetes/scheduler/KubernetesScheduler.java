package io.fleetkit.adapter.kubernetes.scheduler;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fleetkit.adapter.kubernetes.scheduler.internal.ApiRequests;
import io.fleetkit.adapter.kubernetes.scheduler.internal.ClusterFeed;
import io.fleetkit.adapter.kubernetes.scheduler.internal.EvictedPods;
import io.fleetkit.adapter.kubernetes.scheduler.internal.ForgottenPods;
import io.fleetkit.adapter.kubernetes.scheduler.internal.PodBindingBinder;
import io.fleetkit.adapter.kubernetes.scheduler.internal.PodStatusWriter;
import io.fleetkit.adapter.kubernetes.scheduler.internal.PreemptionEvictor;
import io.fleetkit.adapter.kubernetes.scheduler.internal.SchedulingEvents;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.SchedulerBuilder;
import io.fleetkit.scheduler.plugins.coscheduling.CoschedulingPlugin;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * FleetKit as a Kubernetes custom scheduler (kube-scheduler's "second scheduler" mode). It watches nodes, every pod
 * (bound pods account node usage), PersistentVolumes, PersistentVolumeClaims, StorageClasses, PodGroups
 * (scheduling.x-k8s.io/v1alpha1, gangs via the coscheduling label {@code scheduling.x-k8s.io/pod-group}),
 * PodDisruptionBudgets and PriorityClasses; places the pods whose {@code spec.schedulerName} is this scheduler's name
 * and that have no node with FleetKit's {@link Scheduler}; binds them through the {@code pods/binding} subresource;
 * and posts {@code Scheduled} / {@code FailedScheduling} Events (the latter with the diagnosis, e.g.
 * {@code 0/3 nodes are available: 3 Insufficient cpu.}). Like kube-scheduler, it records a failure on the pod through
 * {@code pods/status} ({@code PodScheduled=False}, reason {@code Unschedulable} or {@code SchedulerError}, the
 * diagnosis as message, and {@code status.nominatedNodeName}), only when that changes; and it carries out preemption:
 * each victim is marked {@code DisruptionTarget=True} (reason {@code PreemptionByScheduler}) and deleted with its uid
 * as a precondition.
 *
 * <p>Binding is asynchronous, as kube-scheduler's: once a pod is assumed on its node, its {@code pods/binding}
 * request runs on one of {@link Builder#bindParallelism} binding threads while the next pod is scheduled.
 *
 * <p>Failures: a binding answered 409 (already bound) or 404 (pod gone) is final (the pod is forgotten, not
 * retried); 429, 5xx and timeouts are retried with exponential backoff. Watches that drop are re-established by the
 * informers, which relist on 410 Gone. With {@link LeaderElection} only the Lease holder binds; a replica that loses
 * the lease stops binding before its lease can expire, and runs for election again. Only the leader writes: no
 * binding, status patch or deletion comes from a follower.
 *
 * <pre>{@code
 * try (KubernetesClient client = new KubernetesClientBuilder().build();
 *      KubernetesScheduler s = KubernetesScheduler.builder(client)
 *          .leaderElection(LeaderElection.of("fleetkit-system", System.getenv("POD_NAME")))
 *          .build()) {
 *   s.start();
 *   ...
 * }
 * }</pre>
 *
 * <p>On fewer than three CPUs run the JVM with {@code -Djava.util.concurrent.ForkJoinPool.common.parallelism=2} (as
 * {@link KubernetesSchedulerMain} does): with the common pool's default single thread, the JDK HTTP client starts a
 * thread for every response. {@link #start()} logs a warning otherwise.
 *
 * <p>Thread-safe. The client stays the caller's: {@link #close()} does not close it.
 */
public final class KubernetesScheduler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KubernetesScheduler.class);
  /** Binding threads unless configured otherwise: at 5 ms per {@code pods/binding} round trip, up to 6,400 pods/s. */
  public static final int DEFAULT_BIND_PARALLELISM = 32;
  /** The scheduler name pods opt in with, unless configured otherwise. */
  public static final String DEFAULT_SCHEDULER_NAME = "fleetkit";

  private final KubernetesClient client;
  private final String schedulerName;
  private final @Nullable LeaderElection election;
  private final String identity;
  private final Duration syncTimeout;
  private final Duration loopPeriod;
  private final ForgottenPods forgotten = new ForgottenPods();
  private final EvictedPods evicted = new EvictedPods();
  private final PodBindingBinder binder;
  private final PodStatusWriter statusWriter;
  private final PreemptionEvictor evictor;
  private final SchedulingEvents events;
  private final Scheduler scheduler;
  private final ClusterFeed feed;
  private final Object signal = new Object();
  private volatile boolean leading;
  private volatile boolean running;
  private volatile boolean closed;
  private boolean dirty;
  private @Nullable Thread loop;
  private volatile @Nullable CompletableFuture<?> electionFuture;
  private volatile boolean ready;

  private KubernetesScheduler(Builder b) {
    this.client = b.client;
    this.schedulerName = b.effectiveName();
    this.election = b.election;
    this.identity = b.identity != null ? b.identity : b.election != null ? b.election.identity() : defaultIdentity();
    this.syncTimeout = b.syncTimeout != null ? b.syncTimeout : Duration.ofSeconds(60);
    this.loopPeriod = b.loopPeriod != null ? b.loopPeriod : Duration.ofMillis(100);
    Clock clock = b.clock != null ? b.clock : Clock.systemUTC();
    ApiRequests api = new ApiRequests(client, () -> leading && !closed,
        b.bindAttempts != null ? b.bindAttempts : 5,
        b.bindInitialBackoff != null ? b.bindInitialBackoff : Duration.ofMillis(100),
        b.bindMaxBackoff != null ? b.bindMaxBackoff : Duration.ofSeconds(5),
        b.requestTimeout != null ? b.requestTimeout : Duration.ofSeconds(10));
    this.binder = new PodBindingBinder(api, forgotten);
    this.events = new SchedulingEvents(client, schedulerName, identity, clock);
    this.statusWriter = new PodStatusWriter(api, clock);
    // The feed is built after the engine; the evictor reaches the informer's copies through it lazily.
    this.evictor = new PreemptionEvictor(api, statusWriter, evicted, events, schedulerName,
        key -> feed().current(key));
    SchedulerProfile profile = b.profile != null ? b.profile
        : CoschedulingPlugin.enableIn(DefaultPlugins.profile(schedulerName));
    SchedulerBuilder sb = Scheduler.builder().profile(profile).binder(binder).evictor(evictor).clock(clock)
        .onResult(this::onResult)
        .bindParallelism(b.bindParallelism != null ? b.bindParallelism : DEFAULT_BIND_PARALLELISM);
    if (b.registry != null) {
      sb.registry(b.registry);
    }
    if (b.metrics != null) {
      sb.metrics(b.metrics);
    }
    if (b.initialBackoff != null && b.maxBackoff != null) {
      sb.backoff(b.initialBackoff, b.maxBackoff);
    }
    this.scheduler = sb.build();
    this.feed = new ClusterFeed(client, scheduler, forgotten, evicted, this::wake, key -> {
      statusWriter.podDeleted(key);
    });
  }

  private ClusterFeed feed() {
    return feed;
  }

  /** A builder for a scheduler that talks to the API server through {@code client}. */
  public static Builder builder(KubernetesClient client) {
    return new Builder(client);
  }

  /**
   * Starts the informers (returning once they have listed), the scheduling loop, and the leader election, if
   * configured (without it this replica binds at once).
   *
   * @throws IllegalStateException if already started or closed, or if the informers do not sync within the sync
   *     timeout (the scheduler is then closed)
   */
  public synchronized KubernetesScheduler start() {
    if (running || closed) {
      throw new IllegalStateException("kubernetes scheduler " + schedulerName + ": "
          + (closed ? "closed" : "already started"));
    }
    running = true;
    if (ForkJoinPool.getCommonPoolParallelism() < 2) {
      LOG.warn("the JDK's common fork-join pool has {} thread: the JDK HTTP client then completes every request on a"
          + " new thread (CompletableFuture's default executor), which costs more CPU than the request; start the JVM"
          + " with -D{}=2", ForkJoinPool.getCommonPoolParallelism(), KubernetesSchedulerMain.COMMON_POOL_PARALLELISM);
    }
    try {
      feed.start(syncTimeout);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    ready = true;
    Thread t = new Thread(this::runLoop, "fleetkit-k8s-scheduler-" + schedulerName);
    t.setDaemon(true);
    loop = t;
    t.start();
    if (election == null) {
      leading = true;
      wake();
    } else {
      elect(election);
    }
    LOG.info("kubernetes scheduler {} started as {}{}", schedulerName, identity,
        election == null ? "" : " (leader election on Lease " + election.namespace() + "/" + election.leaseName()
            + ")");
    return this;
  }

  /** Whether the informers have synced and the scheduler runs (what {@code /readyz} reports). */
  public boolean isReady() {
    return ready && !closed;
  }

  /** The name pods select this scheduler by ({@code spec.schedulerName}). */
  public String schedulerName() {
    return schedulerName;
  }

  /** This replica's identity (Lease holder identity and Events' {@code reportingInstance}). */
  public String identity() {
    return identity;
  }

  /** Whether this replica binds pods now: it holds the Lease, or runs without leader election. */
  public boolean isLeader() {
    return leading && running;
  }

  /** The scheduling engine, for introspection ({@link Scheduler#pending()}, {@link Scheduler#nodeOf}). */
  public Scheduler scheduler() {
    return scheduler;
  }

  /** How many {@code pods/binding} requests this replica has sent, retries included. */
  public long bindingRequests() {
    return binder.postedRequests();
  }

  /** How many {@code pods/status} patches this replica has sent (PodScheduled, DisruptionTarget), retries excluded. */
  public long statusPatches() {
    return statusWriter.patches();
  }

  /**
   * How many Events this replica dropped without posting them because {@value SchedulingEvents#MAX_QUEUED} were
   * already waiting to be posted (client-go's {@code maxQueuedEvents}).
   */
  public long droppedEvents() {
    return events.dropped();
  }

  /** How many preemption victims this replica has deleted (a victim found already gone counts too). */
  public long preemptionDeletes() {
    return evictor.deleted();
  }

  private void onResult(ScheduleResult r) {
    // Victims whose eviction failed (or was not sent: not the leader) go back into the engine's cache before the
    // next cycle, so that the preemptor is not placed on room that was not freed.
    for (String key : evicted.drainResyncs()) {
      feed.refeedFromScheduling(key);
    }
    int slash = r.podKey().indexOf('/');
    String ns = r.podKey().substring(0, slash);
    String name = r.podKey().substring(slash + 1);
    String uid = feed.uidOf(r.podKey());
    if (r.isBound() && r.nodeName() != null) {
      events.scheduled(ns, name, uid, r.nodeName());
    } else if (r.code() != Status.Code.WAIT && !forgotten.isForgotten(r.podKey(), uid)) {
      events.failed(ns, name, uid, r.message());
      if (leading && !closed && r.code() != Status.Code.SKIP) { // a skipped pod (being deleted) gets no status
        // kube's handleSchedulingFailure: PodScheduled=False and the nomination, written only when they change.
        String reason = r.code() == Status.Code.ERROR ? PodCondition.REASON_SCHEDULER_ERROR
            : PodCondition.REASON_UNSCHEDULABLE;
        statusWriter.schedulingFailed(feed.current(r.podKey()), reason, r.message(),
            r.nominatedNodeName() == null ? "" : r.nominatedNodeName());
      }
    }
  }

  private void runLoop() {
    long periodMillis = Math.max(1, loopPeriod.toMillis());
    while (running) {
      try {
        if (leading) {
          scheduler.runUntilIdle();
        }
        for (ForgottenPods.Entry e : forgotten.drain()) {
          feed.forget(e);
        }
        for (String key : evicted.drainResyncs()) {
          feed.refeed(key);
        }
      } catch (RuntimeException e) {
        if (!running) {
          return;
        }
        LOG.warn("scheduling loop failed; continuing", e);
      }
      synchronized (signal) {
        if (!dirty && running) {
          try {
            signal.wait(periodMillis);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
        }
        dirty = false;
      }
    }
  }

  private void wake() {
    synchronized (signal) {
      dirty = true;
      signal.notifyAll();
    }
  }

  private void elect(LeaderElection le) {
    LeaderElectionConfig config = new LeaderElectionConfigBuilder()
        .withName(le.leaseName())
        .withLock(new LeaseLock(le.namespace(), le.leaseName(), le.identity()))
        .withLeaseDuration(le.leaseDuration())
        .withRenewDeadline(le.renewDeadline())
        .withRetryPeriod(le.retryPeriod())
        .withReleaseOnCancel(true)
        .withLeaderCallbacks(new LeaderCallbacks(
            () -> {
              LOG.info("{} became the leader of {}", identity, schedulerName);
              leading = true;
              wake();
            },
            () -> {
              LOG.info("{} stopped leading {}", identity, schedulerName);
              leading = false;
            },
            id -> LOG.info("the leader of {} is now {}", schedulerName, id)))
        .build();
    CompletableFuture<?> f = client.leaderElector().withConfig(config).build().start();
    electionFuture = f;
    f.whenComplete((v, t) -> {
      leading = false;
      if (running && !closed) {
        LOG.info("{}: leader election ended ({}); running for election again", identity,
            t == null ? "lost the lease" : t.toString());
        CompletableFuture.runAsync(() -> {
          synchronized (this) {
            if (running && !closed) {
              elect(le);
            }
          }
        }, CompletableFuture.delayedExecutor(le.retryPeriod().toMillis(), TimeUnit.MILLISECONDS));
      }
    });
  }

  /**
   * Stops binding, releases the Lease (if held), stops the informers and the scheduling loop, and posts the queued
   * Events. Idempotent; the client is not closed.
   */
  @Override
  public void close() {
    Thread t;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      leading = false;
      CompletableFuture<?> f = electionFuture;
      if (f != null) {
        f.cancel(true);
      }
      running = false;
      t = loop;
      loop = null;
    }
    wake();
    if (t != null && t != Thread.currentThread()) {
      try {
        t.join(5000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    feed.close();
    scheduler.close();
    events.close();
    LOG.info("kubernetes scheduler {} ({}) closed", schedulerName, identity);
  }

  private static String defaultIdentity() {
    String host = System.getenv("HOSTNAME");
    return host == null || host.isEmpty() ? "fleetkit-scheduler" : host;
  }

  /**
   * Configures a {@link KubernetesScheduler}. Every setting is optional; a setting made twice fails with a message
   * naming the earlier value. Not thread-safe.
   */
  public static final class Builder {
    private final KubernetesClient client;
    private @Nullable String schedulerName;
    private @Nullable SchedulerProfile profile;
    private @Nullable PluginRegistry registry;
    private @Nullable LeaderElection election;
    private @Nullable String identity;
    private @Nullable Integer bindAttempts;
    private @Nullable Integer bindParallelism;
    private @Nullable Duration bindInitialBackoff;
    private @Nullable Duration bindMaxBackoff;
    private @Nullable Duration requestTimeout;
    private @Nullable Duration syncTimeout;
    private @Nullable Duration loopPeriod;
    private @Nullable Duration initialBackoff;
    private @Nullable Duration maxBackoff;
    private @Nullable Clock clock;
    private io.fleetkit.api.metrics.@Nullable MetricsRegistry metrics;

    private Builder(KubernetesClient client) {
      this.client = Objects.requireNonNull(client, "client");
    }

    /** The {@code spec.schedulerName} pods choose this scheduler with; {@value #DEFAULT_SCHEDULER_NAME} by default. */
    public Builder schedulerName(String name) {
      once("schedulerName", schedulerName);
      Objects.requireNonNull(name, "name");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("kubernetes scheduler builder: schedulerName must not be empty");
      }
      if (profile != null && !profile.schedulerName().equals(name)) {
        throw new IllegalArgumentException("kubernetes scheduler builder: schedulerName \"" + name
            + "\" conflicts with the profile's schedulerName \"" + profile.schedulerName() + "\"");
      }
      this.schedulerName = name;
      return this;
    }

    /**
     * The scheduling profile (its {@code schedulerName} is the scheduler's name). Default: kube's default plugins
     * with Coscheduling for gangs ({@code CoschedulingPlugin.enableIn(DefaultPlugins.profile(name))}).
     */
    public Builder profile(SchedulerProfile profile) {
      once("profile", this.profile);
      Objects.requireNonNull(profile, "profile");
      if (schedulerName != null && !schedulerName.equals(profile.schedulerName())) {
        throw new IllegalArgumentException("kubernetes scheduler builder: profile schedulerName \""
            + profile.schedulerName() + "\" conflicts with schedulerName \"" + schedulerName + "\"");
      }
      this.profile = profile;
      return this;
    }

    /** The plugin registry the profile picks from; {@link PluginRegistry#defaults()} by default. */
    public Builder registry(PluginRegistry registry) {
      once("registry", this.registry);
      this.registry = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /** Elects a leader on a Lease; without it, this replica binds from the start (run one replica only). */
    public Builder leaderElection(LeaderElection election) {
      once("leaderElection", this.election);
      this.election = Objects.requireNonNull(election, "election");
      return this;
    }

    /** Events' {@code reportingInstance}; the leader election identity, else {@code $HOSTNAME}. */
    public Builder identity(String identity) {
      once("identity", this.identity);
      this.identity = Objects.requireNonNull(identity, "identity");
      return this;
    }

    /**
     * Retries of a binding that failed transiently (429, 5xx, timeout, connection failure): at most
     * {@code attempts} requests (default 5), backing off from {@code initial} (100 ms), doubling, up to {@code max}
     * (5 s).
     */
    public Builder bindRetry(int attempts, Duration initial, Duration max) {
      once("bindRetry", bindAttempts);
      if (attempts < 1) {
        throw new IllegalArgumentException("kubernetes scheduler builder: bindRetry attempts " + attempts
            + " must be at least 1");
      }
      positive("bindRetry initial", initial);
      positive("bindRetry max", max);
      this.bindAttempts = attempts;
      this.bindInitialBackoff = initial;
      this.bindMaxBackoff = max;
      return this;
    }

    /**
     * How many {@code pods/binding} requests may be under way at once ({@value #DEFAULT_BIND_PARALLELISM} by
     * default). As in kube-scheduler, a pod's binding runs on its own thread once the pod is assumed on its node,
     * while the next pod is scheduled; a binding that fails for good un-assumes the pod and re-queues it. 0 binds on
     * the scheduling thread, one request at a time.
     *
     * @throws IllegalArgumentException if {@code threads} is negative
     */
    public Builder bindParallelism(int threads) {
      once("bindParallelism", bindParallelism);
      if (threads < 0) {
        throw new IllegalArgumentException("kubernetes scheduler builder: bindParallelism " + threads
            + " must not be negative");
      }
      this.bindParallelism = threads;
      return this;
    }

    /** The timeout of one binding request; 10 s by default. */
    public Builder requestTimeout(Duration timeout) {
      once("requestTimeout", requestTimeout);
      positive("requestTimeout", timeout);
      this.requestTimeout = timeout;
      return this;
    }

    /** How long {@link #start()} waits for the informers to list; 60 s by default. */
    public Builder syncTimeout(Duration timeout) {
      once("syncTimeout", syncTimeout);
      positive("syncTimeout", timeout);
      this.syncTimeout = timeout;
      return this;
    }

    /** How often the scheduling loop runs without events (backoff expiry, Permit timeouts); 100 ms by default. */
    public Builder loopPeriod(Duration period) {
      once("loopPeriod", loopPeriod);
      positive("loopPeriod", period);
      this.loopPeriod = period;
      return this;
    }

    /** The engine's pod backoff after a failed attempt (kube's 1 s to 10 s by default). */
    public Builder podBackoff(Duration initial, Duration max) {
      once("podBackoff", initialBackoff);
      positive("podBackoff initial", initial);
      positive("podBackoff max", max);
      this.initialBackoff = initial;
      this.maxBackoff = max;
      return this;
    }

    /** The clock of the engine (queue, backoff, Permit timeouts) and of Events; the system clock by default. */
    public Builder clock(Clock clock) {
      once("clock", this.clock);
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Builds the scheduler (not started).
     *
     * @throws IllegalArgumentException if the profile names plugins the registry lacks
     */
    /** Records kube-scheduler's metrics into {@code registry} (serve them with a {@link MetricsServer}). */
    public Builder metrics(io.fleetkit.api.metrics.MetricsRegistry registry) {
      if (metrics != null) {
        throw new IllegalStateException("kubernetes scheduler builder: metrics was already set to " + metrics);
      }
      metrics = Objects.requireNonNull(registry, "registry");
      return this;
    }

    public KubernetesScheduler build() {
      return new KubernetesScheduler(this);
    }

    private String effectiveName() {
      return profile != null ? profile.schedulerName() : schedulerName != null ? schedulerName
          : DEFAULT_SCHEDULER_NAME;
    }

    private static void once(String field, @Nullable Object old) {
      if (old != null) {
        throw new IllegalStateException("kubernetes scheduler builder: " + field + " was already set to " + old);
      }
    }

    private static void positive(String field, Duration d) {
      Objects.requireNonNull(d, field);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("kubernetes scheduler builder: " + field + " " + d
            + " must be positive");
      }
    }
  }
}
