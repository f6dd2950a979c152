package io.fleetkit.store.etcd.internal;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.common.exception.ErrorCode;
import io.etcd.jetcd.common.exception.EtcdException;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.fleetkit.api.ConflictException;
import io.fleetkit.api.ExpiredException;
import io.grpc.Status;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.StoreUnavailableException;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchListener;
import io.fleetkit.api.store.spi.ResourceVersions;
import io.fleetkit.api.store.spi.WriteRules;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ObjectStore} on etcd v3 through jetcd. See {@code EtcdStore} for how the contract maps onto etcd; this
 * class documents the mechanics.
 *
 * <p>Writes: read the key (object and {@code mod_revision}), apply {@link WriteRules} to get the change, commit it
 * with a transaction {@code if mod_revision(key) == read then put/delete}. A transaction that loses a race is
 * retried from the read: the rules then see the newer object, so a caller's stale resourceVersion becomes a
 * conflict and an unconditional update is applied on top. A create is {@code if version(key) == 0 then put}.
 * Stored JSON carries no resourceVersion; every object read is stamped with its key's {@code mod_revision} (less
 * the prefix's offset).
 *
 * <p>Watches: an etcd watch on the kind's key range from the start revision, with previous values, feeding a
 * {@link io.fleetkit.api.store.spi.WatchQueue} per watch (the delivery rules of the in-memory store). jetcd calls
 * back on its network threads, which only decode and queue; listeners run on the delivery executor. In direct mode
 * a write from outside a listener waits until this store's watches have delivered everything this store wrote.
 */
public final class EtcdObjectStore implements ObjectStore {
  private static final Logger LOG = LoggerFactory.getLogger(EtcdObjectStore.class);
  /** Set while a listener of this store runs on the current thread: its writes must not wait for delivery. */
  static final ThreadLocal<Boolean> IN_LISTENER = ThreadLocal.withInitial(() -> Boolean.FALSE);
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final EtcdSettings settings;
  private final Client client;
  /**
   * The connection watches use, made at the first watch and shared by fenced views. Not {@link #client}'s: one jetcd
   * client is one HTTP/2 connection served by one network thread, and with watch events (decoded there) on the same
   * thread as every request's answer, that thread was the bottleneck of an 8-thread write load.
   */
  private final WatchConnection watchConnection;
  private final KV kv;
  private final ObjectCodec codec = new ObjectCodec();
  private final String objectsPrefix;
  private final ByteSequence genesisKey;
  /** etcd revision = resourceVersion + offset. */
  private final long offset;
  private final Executor executor;
  private final @Nullable ExecutorService ownedExecutor;
  private final CopyOnWriteArrayList<EtcdWatch<?>> watches;
  /** The newest etcd revision this store wrote, per kind: what direct-mode writes wait for. */
  private final ConcurrentHashMap<Class<?>, Long> written;
  private final Object progress;
  private final AtomicLong compactedTo;
  /** The compaction last asked of etcd; a watch from the past waits for it before it checks its start. */
  private final java.util.concurrent.atomic.AtomicReference<CompletableFuture<?>> lastCompaction;
  /**
   * Objects as last read, by key, with their mod_revision: an update naming that version skips its own read (the
   * transaction's compare on mod_revision proves the object unchanged). Bounded by {@link #RECENT_LIMIT}.
   */
  private final ConcurrentHashMap<ByteSequence, Stored<?>> recent;
  private static final int RECENT_LIMIT = 4096;
  /** The store this one is a fenced view of ({@code null} for a store that owns its connection). */
  private final @Nullable EtcdObjectStore base;
  private final @Nullable Fence fence;
  private volatile boolean closed;

  /**
   * What a fenced view's writes require: the key {@code key} exists and was created at revision
   * {@code revision.getAsLong()} (0: the fence holder holds nothing now, so every write is refused).
   *
   * @param holder who holds the fence, for messages
   */
  public record Fence(String key, java.util.function.LongSupplier revision, String holder) {
    public Fence {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(revision, "revision");
      Objects.requireNonNull(holder, "holder");
    }
  }

  private EtcdObjectStore(EtcdSettings settings, Client client, long offset) {
    this.settings = settings;
    this.client = client;
    this.watchConnection = new WatchConnection(settings);
    this.kv = client.getKVClient();
    this.objectsPrefix = settings.prefix() + "/objects/";
    this.genesisKey = bytes(settings.prefix() + "/genesis");
    this.offset = offset;
    this.watches = new CopyOnWriteArrayList<>();
    this.written = new ConcurrentHashMap<>();
    this.progress = new Object();
    this.compactedTo = new AtomicLong();
    this.lastCompaction = new java.util.concurrent.atomic.AtomicReference<>(CompletableFuture.completedFuture(null));
    this.recent = new ConcurrentHashMap<>();
    this.base = null;
    this.fence = null;
    if (settings.deliveryExecutor() != null) {
      ownedExecutor = null;
      executor = settings.deliveryExecutor();
    } else {
      ownedExecutor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fleetkit-store-watch-etcd-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
      });
      executor = ownedExecutor;
    }
  }

  private EtcdObjectStore(EtcdObjectStore base, Fence fence) {
    this.settings = base.settings;
    this.client = base.client;
    this.watchConnection = base.watchConnection;
    this.kv = base.kv;
    this.objectsPrefix = base.objectsPrefix;
    this.genesisKey = base.genesisKey;
    this.offset = base.offset;
    this.executor = base.executor;
    this.ownedExecutor = null;
    this.watches = base.watches;
    this.written = base.written;
    this.progress = base.progress;
    this.compactedTo = base.compactedTo;
    this.lastCompaction = base.lastCompaction;
    this.recent = base.recent;
    this.base = base;
    this.fence = fence;
  }

  /**
   * A view of this store whose writes (create, update, status update, delete) commit only while {@code fence}
   * holds, checked in the same etcd transaction as the write: a write when it does not hold fails with a
   * {@link io.fleetkit.api.ConflictException} naming the fence. Reads and watches are this store's. Closing the
   * view closes only the view; closing this store closes the view too.
   */
  public EtcdObjectStore fenced(Fence fence) {
    Objects.requireNonNull(fence, "fence");
    checkOpen();
    return new EtcdObjectStore(base != null ? base : this, fence);
  }

  /** The jetcd client (shared by fenced views). */
  public Client client() {
    return client;
  }

  /** The settings the store was built with. */
  public EtcdSettings settings() {
    return settings;
  }

  /**
   * Connects and finds (or makes) the prefix's genesis key, whose revision fixes the version offset.
   *
   * @throws StoreUnavailableException if etcd does not answer in time
   */
  public static ObjectStore open(EtcdSettings settings) {
    Client client = connect(settings);
    try {
      ByteSequence genesis = bytes(settings.prefix() + "/genesis");
      TxnResponse r = call(settings, client.getKVClient().txn()
          .If(new Cmp(genesis, Cmp.Op.EQUAL, CmpTarget.version(0)))
          .Then(Op.put(genesis, bytes("fleetkit object store"), PutOption.DEFAULT))
          .Else(Op.get(genesis, GetOption.DEFAULT))
          .commit(), "open the store at prefix " + settings.prefix());
      long base = r.isSucceeded() ? r.getHeader().getRevision()
          : r.getGetResponses().get(0).getKvs().get(0).getCreateRevision();
      LOG.debug("etcd store {} at {}: prefix created at revision {}", settings.prefix(), settings.where(), base);
      return new EtcdObjectStore(settings, client, base - 1);
    } catch (RuntimeException e) {
      client.close();
      throw e;
    }
  }

  /** A new jetcd client (one connection) to the settings' endpoints, with their TLS and credentials. */
  private static Client connect(EtcdSettings settings) {
    Duration connect = settings.requestTimeout().compareTo(Duration.ofSeconds(5)) < 0
        ? settings.requestTimeout() : Duration.ofSeconds(5);
    io.etcd.jetcd.ClientBuilder builder = Client.builder()
        .endpoints(settings.endpoints().toArray(new java.net.URI[0]))
        .connectTimeout(connect)
        .retryMaxDuration(settings.requestTimeout())
        .maxInboundMessageSize(256 * 1024 * 1024);
    EtcdSettings.Security security = settings.security();
    if (security.tls()) {
      builder.sslContext(tlsContext(security));
    }
    if (security.user() != null && security.password() != null) {
      builder.user(bytes(security.user())).password(bytes(security.password()));
    }
    return builder.build();
  }

  /** The watch connection: made on first use, closed with the store. Thread-safe. */
  private static final class WatchConnection {
    private final EtcdSettings settings;
    private @Nullable Client client;
    private boolean closed;

    WatchConnection(EtcdSettings settings) {
      this.settings = settings;
    }

    synchronized io.etcd.jetcd.Watch watches() {
      if (closed) {
        throw new IllegalStateException("object store is closed");
      }
      if (client == null) {
        client = connect(settings);
      }
      return client.getWatchClient();
    }

    void close() {
      Client c;
      synchronized (this) {
        closed = true;
        c = client;
        client = null;
      }
      if (c != null) {
        c.close();
      }
    }
  }

  /** A TLS context for gRPC: the given CAs (else the JDK's) and, when given, a client certificate. */
  private static io.netty.handler.ssl.SslContext tlsContext(EtcdSettings.Security security) {
    io.netty.handler.ssl.SslContextBuilder b = io.grpc.netty.GrpcSslContexts.forClient();
    String file = "";
    try {
      if (security.trustedCertificates() != null) {
        file = "trustedCertificates " + security.trustedCertificates();
        b.trustManager(security.trustedCertificates().toFile());
      }
      if (security.clientCertificate() != null && security.clientKey() != null) {
        file = "clientCertificate " + security.clientCertificate() + " with key " + security.clientKey();
        b.keyManager(security.clientCertificate().toFile(), security.clientKey().toFile());
      }
      return b.build();
    } catch (javax.net.ssl.SSLException | IllegalArgumentException e) {
      throw new IllegalArgumentException("etcd store: " + (file.isEmpty() ? "TLS" : file)
          + " could not be used (PEM certificates and an unencrypted PKCS#8 PEM key are expected): "
          + e.getMessage(), e);
    }
  }

  // ---------------------------------------------------------------------------------------------------- create

  @Override
  public <T extends ApiObject<T>> T create(T object) {
    Objects.requireNonNull(object, "object");
    checkOpen();
    return WriteRules.create(this, settings.admission(), object, this::doCreate);
  }

  private <T extends ApiObject<T>> T doCreate(T object) {
    ObjectMeta meta = object.metadata();
    ByteSequence key = key(kindOf(object), meta.namespace(), meta.name());
    T created = WriteRules.created(object, settings.uids().get(), "", settings.clock().instant());
    String what = "create " + object.describe();
    long token = fenceToken(what);
    TxnResponse r = call(fencedTxn(token, new Cmp(key, Cmp.Op.EQUAL, CmpTarget.version(0)),
        Op.put(key, ByteSequence.from(codec.encode(created)), PutOption.DEFAULT), null), what);
    if (!r.isSucceeded()) {
      checkFence(r, token, what);
      throw WriteRules.alreadyExists(object);
    }
    long rev = r.getHeader().getRevision();
    afterWrite(kindOf(object), rev);
    return WriteRules.withVersion(created, version(rev));
  }

  // ------------------------------------------------------------------------------------------------------ read

  @Override
  public <T extends ApiObject<T>> Optional<T> get(Class<T> kind, String namespace, String name) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    checkOpen();
    return read(kind, namespace, name).map(Stored::object);
  }

  @Override
  public <T extends ApiObject<T>> T require(Class<T> kind, String namespace, String name) {
    return get(kind, namespace, name).orElseThrow(() -> WriteRules.notFound(kind, namespace, name));
  }

  @Override
  public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace) {
    return list(kind, namespace, (Predicate<? super T>) o -> true);
  }

  @Override
  public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace, LabelSelector selector) {
    Objects.requireNonNull(selector, "selector");
    return list(kind, namespace, (Predicate<? super T>) o -> selector.matches(o.metadata().labels()));
  }

  @Override
  public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace, Predicate<? super T> filter) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(filter, "filter");
    checkOpen();
    String prefix = namespace.isEmpty() ? kindPrefix(kind) : kindPrefix(kind) + namespace + "/";
    // One range read: etcd answers it at a single revision, so the snapshot holds exactly the writes up to it.
    GetResponse r = call(kv.get(bytes(prefix), GetOption.builder().isPrefix(true).build()),
        "list " + kind.getSimpleName() + (namespace.isEmpty() ? "" : " in namespace " + namespace));
    List<T> items = new ArrayList<>(r.getKvs().size());
    for (KeyValue e : r.getKvs()) {
      T o = decode(e, kind);
      if (filter.test(o)) {
        items.add(o);
      }
    }
    return new ListResult<>(items, version(r.getHeader().getRevision()));
  }

  @Override
  public String resourceVersion() {
    checkOpen();
    return version(currentRevision("read the current resourceVersion"));
  }

  /** Always: other processes may open the same prefix. */
  @Override
  public boolean sharedWithOtherProcesses() {
    return true;
  }

  // ---------------------------------------------------------------------------------------------------- update

  @Override
  public <T extends ApiObject<T>> T update(T object) {
    Objects.requireNonNull(object, "object");
    checkOpen();
    ObjectMeta meta = object.metadata();
    return WriteRules.update(this, settings.admission(), object, admitted -> write(kindOf(object), meta.namespace(),
        meta.name(), "update", meta.resourceVersion(), s -> WriteRules.update(s, admitted)));
  }

  /** One compare-and-swap of the resized pod (see the contract). */
  @Override
  public io.fleetkit.api.core.Pod resize(io.fleetkit.api.core.Pod pod) {
    Objects.requireNonNull(pod, "pod");
    checkOpen();
    ObjectMeta meta = pod.metadata();
    return WriteRules.update(this, settings.admission(), pod, admitted -> write(io.fleetkit.api.core.Pod.class,
        meta.namespace(), meta.name(), "resize", meta.resourceVersion(), s -> WriteRules.resize(s, admitted)));
  }

  /** One compare-and-swap of the namespace with its new {@code spec.finalizers}; not admitted (see the contract). */
  @Override
  public io.fleetkit.api.core.Namespace finalizeNamespace(io.fleetkit.api.core.Namespace namespace) {
    Objects.requireNonNull(namespace, "namespace");
    checkOpen();
    ObjectMeta meta = namespace.metadata();
    return write(io.fleetkit.api.core.Namespace.class, meta.namespace(), meta.name(), "finalize",
        meta.resourceVersion(), s -> WriteRules.finalizeNamespace(s, namespace));
  }

  /** One compare-and-swap of metadata, spec and status: the store's binding path (see the contract). */
  @Override
  public <T extends ApiObject<T>> T updateWithStatus(T object) {
    Objects.requireNonNull(object, "object");
    checkOpen();
    ObjectMeta meta = object.metadata();
    return WriteRules.update(this, settings.admission(), object, admitted -> write(kindOf(admitted),
        meta.namespace(), meta.name(), "update", meta.resourceVersion(),
        s -> WriteRules.updateWithStatus(s, admitted)));
  }

  @Override
  public <T extends ApiObject<T>> T updateStatus(T object) {
    Objects.requireNonNull(object, "object");
    checkOpen();
    ObjectMeta meta = object.metadata();
    return write(kindOf(object), meta.namespace(), meta.name(), "update the status of", meta.resourceVersion(),
        s -> WriteRules.updateStatus(s, object));
  }

  @Override
  public <T extends ApiObject<T>> T delete(Class<T> kind, String namespace, String name, DeleteOptions options) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(options, "options");
    checkOpen();
    // One compare-and-swap whether the rules remove the object or mark it with its GC finalizers: upstream's
    // GuaranteedUpdate (updateForGracefulDeletionAndFinalizers) and then Storage.Delete are one decision here, taken
    // again from the object as it is if another write wins the race.
    return WriteRules.delete(this, settings.admission(), kind, namespace, name, () -> write(kind, namespace, name,
        "delete", "", s -> WriteRules.delete(s, options, settings.clock().instant())));
  }

  /**
   * Read, apply the rule, compare-and-swap on the key's mod_revision; if another write won, again from the object
   * as the failed transaction read it. The first read is skipped when the caller names the version this store last
   * read for the key ({@code expectedVersion}): that object is the stored one if the compare succeeds.
   */
  @SuppressWarnings("unchecked")
  private <T extends ApiObject<T>> T write(Class<T> kind, String namespace, String name, String operation,
      String expectedVersion, Function<T, WriteRules.Change<T>> rule) {
    ByteSequence key = key(kind, namespace, name);
    String what = operation + " " + kind.getSimpleName() + " " + (namespace.isEmpty() ? name : namespace + "/" + name);
    Stored<?> cached = expectedVersion.isEmpty() ? null : recent.get(key);
    Stored<T> stored = cached != null && kind.isInstance(cached.object())
        && version(cached.modRevision()).equals(expectedVersion) ? (Stored<T>) cached
        : read(kind, namespace, name).orElseThrow(() -> WriteRules.notFound(kind, namespace, name));
    while (true) {
      WriteRules.Change<T> change = rule.apply(stored.object());
      if (change.effect() == WriteRules.Effect.NONE) {
        return stored.object();
      }
      Op op = change.effect() == WriteRules.Effect.REMOVE
          ? Op.delete(key, DeleteOption.DEFAULT)
          : Op.put(key, ByteSequence.from(codec.encode(WriteRules.withVersion(change.object(), ""))),
              PutOption.DEFAULT);
      long token = fenceToken(what);
      TxnResponse r = call(fencedTxn(token, new Cmp(key, Cmp.Op.EQUAL, CmpTarget.modRevision(stored.modRevision())),
          op, key), what);
      if (r.isSucceeded()) {
        recent.remove(key);
        long rev = r.getHeader().getRevision();
        afterWrite(kind, rev);
        return WriteRules.withVersion(change.object(), version(rev));
      }
      checkFence(r, token, what);
      // Another write came between our read and our transaction: let the rules decide on the object as it is now.
      List<KeyValue> now = r.getGetResponses().get(0).getKvs();
      if (now.isEmpty()) {
        recent.remove(key);
        throw WriteRules.notFound(kind, namespace, name);
      }
      // Even a key that now holds exactly the bytes this write would put was written by another write (the same
      // change made concurrently, e.g. two increments of one counter from the same read): the transaction is never
      // resent (jetcd retries a Txn only on an expired auth token, refused before it executes), so taking that for
      // this write's success would lose an update. A lost answer is a StoreUnavailableException instead.
      stored = remember(key, new Stored<>(decode(now.get(0), kind), now.get(0).getModRevision()));
    }
  }

  private <T> Stored<T> remember(ByteSequence key, Stored<T> stored) {
    if (recent.size() >= RECENT_LIMIT) {
      recent.clear();
    }
    recent.put(key, stored);
    return stored;
  }

  /** The fence revision a write must see, checked before the write (0 when there is no fence). */
  private long fenceToken(String what) {
    if (fence == null) {
      return 0;
    }
    long token = fence.revision().getAsLong();
    if (token <= 0) {
      throw new ConflictException("etcd store " + settings.prefix() + ": " + what + " refused: "
          + fence.holder() + " does not hold " + fence.key() + " (writes are fenced by it)");
    }
    return token;
  }

  /**
   * {@code if cmp then op else get(elseGet)}; for a fenced view the condition also requires the fence key's create
   * revision to be {@code token}, and the else branch also reads the fence key, last (so that a failure can tell a
   * lost fence from a lost race).
   */
  private CompletableFuture<TxnResponse> fencedTxn(long token, Cmp cmp, Op op, @Nullable ByteSequence elseGet) {
    List<Op> otherwise = new ArrayList<>(2);
    if (elseGet != null) {
      otherwise.add(Op.get(elseGet, GetOption.DEFAULT));
    }
    if (fence == null) {
      return kv.txn().If(cmp).Then(op).Else(otherwise.toArray(new Op[0])).commit();
    }
    ByteSequence fenceKey = bytes(fence.key());
    otherwise.add(Op.get(fenceKey, GetOption.DEFAULT));
    return kv.txn().If(cmp, new Cmp(fenceKey, Cmp.Op.EQUAL, CmpTarget.createRevision(token)))
        .Then(op).Else(otherwise.toArray(new Op[0])).commit();
  }

  /** After a failed fenced transaction: a {@link ConflictException} if the fence no longer held. */
  private void checkFence(TxnResponse r, long token, String what) {
    if (fence == null) {
      return;
    }
    List<GetResponse> reads = r.getGetResponses();
    List<KeyValue> kvs = reads.isEmpty() ? List.of() : reads.get(reads.size() - 1).getKvs();
    long now = kvs.isEmpty() ? 0 : kvs.get(0).getCreateRevision();
    if (now != token) {
      throw new ConflictException("etcd store " + settings.prefix() + ": " + what + " refused: " + fence.holder()
          + " no longer holds " + fence.key() + " (held from revision " + token + "; "
          + (now == 0 ? "now nobody holds it" : "now held from revision " + now) + ")");
    }
  }

  private void afterWrite(Class<?> kind, long revision) {
    written.merge(kind, revision, Math::max);
    if (settings.historyLimit() > 0) {
      compactKeeping(revision, settings.historyLimit());
    }
    if (settings.directDelivery() && !IN_LISTENER.get()) {
      awaitDelivery();
    }
  }

  /**
   * Compacts etcd so that it keeps at least the last {@code keep} versions, once per {@code keep} writes rather than
   * after every write (a compaction is a raft commit plus backend work: asked after every write it cost the
   * 8-thread contract load 1.4 to 1.75 times its time). etcd thus holds between {@code keep} and {@code 2 * keep}
   * old revisions; {@link #watch} refuses a start older than the last {@code keep} itself, so the window a watch
   * sees is exact either way.
   */
  private void compactKeeping(long revision, int keep) {
    long to = revision - keep + 1;
    long prev = compactedTo.get();
    long floor = Math.max(prev, offset + 1);
    if (to <= offset + 1 || to < floor + keep || !compactedTo.compareAndSet(prev, to)) {
      return;
    }
    // Asked, not awaited: the write returns without this round trip; a watch from the past awaits it (below).
    // A failure means another store (or etcd's own compactor) got there first, or etcd is away: the next write
    // compacts again.
    lastCompaction.set(kv.compact(to).exceptionally(e -> {
      LOG.debug("etcd store {}: compaction to revision {} failed: {}", settings.prefix(), to, e.getMessage());
      return null;
    }));
  }

  /** Waits (at most the request timeout) for the compaction last asked, so that a watch sees its effect. */
  private void awaitCompaction() {
    try {
      lastCompaction.get().get(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      LOG.debug("etcd store {}: compaction not confirmed: {}", settings.prefix(), e.getMessage());
    }
  }

  /** Direct mode: waits until every open watch of this store has delivered this store's writes of its kind. */
  private void awaitDelivery() {
    long deadline = System.nanoTime() + settings.requestTimeout().toNanos();
    synchronized (progress) {
      while (true) {
        EtcdWatch<?> behind = null;
        for (EtcdWatch<?> w : watches) {
          Long target = written.get(w.kind());
          if (target != null && !w.isClosed() && w.deliveredRevision() < target) {
            behind = w;
            break;
          }
        }
        long left = deadline - System.nanoTime();
        if (behind == null) {
          return;
        }
        if (left <= 0) {
          LOG.debug("etcd store {}: {} did not catch up within {}; the write returns anyway", settings.prefix(),
              behind, settings.requestTimeout());
          return;
        }
        try {
          progress.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 100)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** Called by a watch after each delivered event. */
  void delivered() {
    synchronized (progress) {
      progress.notifyAll();
    }
  }

  // ----------------------------------------------------------------------------------------------------- watch

  @Override
  public <T extends ApiObject<T>> Watch watch(Class<T> kind, String fromResourceVersion, WatchListener<T> listener) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(fromResourceVersion, "fromResourceVersion");
    Objects.requireNonNull(listener, "listener");
    checkOpen();
    long from = ResourceVersions.parse(fromResourceVersion);
    if (settings.historyLimit() > 0) {
      awaitCompaction();
    }
    long now = currentRevision("start a watch on " + kind.getSimpleName());
    if (from > now - offset) {
      throw new IllegalArgumentException("watch on " + kind.getSimpleName() + ": resourceVersion "
          + fromResourceVersion + " is newer than the store's current version " + version(now));
    }
    if (from != 0 && settings.historyLimit() > 0 && from + offset < now - settings.historyLimit()) {
      // Older than the history this store keeps, whether or not etcd has compacted that far yet (see compactKeeping).
      throw new ExpiredException("too old resource version: " + from + " ("
          + version(now - settings.historyLimit()) + ")");
    }
    long start = from == 0 ? now + 1 : from + offset + 1;
    ByteSequence prefix = bytes(kindPrefix(kind));
    EtcdWatch<T> watch = new EtcdWatch<>(this, kind, listener, executor, settings.watchQueueLimit(), start - 1);
    watches.add(watch);
    watch.attach(watchConnection.watches().watch(prefix,
        WatchOption.builder().isPrefix(true).withPrevKV(true).withRevision(start).build(), watch));
    if (start <= now && isCompacted(prefix, start, kind)) {
      long compactRevision = watch.awaitCompaction(settings.requestTimeout());
      watch.closeQuietly();
      throw new ExpiredException("too old resource version: " + from + " ("
          + (compactRevision > 0 ? Long.toString(compactRevision - 1 - offset) : "compacted") + ")");
    }
    watch.started();
    if (settings.directDelivery() && start <= now && hasChangesSince(prefix, start, now, kind)) {
      // As the in-memory store's direct mode: the replay is delivered before watch() returns.
      watch.awaitCaughtUp(now, settings.requestTimeout());
    }
    return watch;
  }

  /**
   * Whether the kind changed in revisions {@code [from, now]}: a key there modified since {@code from}, or one there
   * before {@code from} and gone at {@code now}. (An object both created and deleted in between is not seen; a
   * direct-mode replay of only such objects is then delivered shortly after watch() returns.)
   */
  private boolean hasChangesSince(ByteSequence prefix, long from, long now, Class<?> kind) {
    String what = "start a watch on " + kind.getSimpleName();
    GetOption.Builder keysAtNow = GetOption.builder().isPrefix(true).withKeysOnly(true).withRevision(now);
    if (call(kv.get(prefix, GetOption.builder().isPrefix(true).withCountOnly(true).withRevision(now)
        .withMinModRevision(from).build()), what).getCount() > 0) {
      return true;
    }
    try {
      List<KeyValue> before = call(kv.get(prefix, GetOption.builder().isPrefix(true).withKeysOnly(true)
          .withRevision(from - 1).build()), what).getKvs();
      if (before.isEmpty()) {
        return false;
      }
      java.util.Set<ByteSequence> after = new java.util.HashSet<>();
      for (KeyValue e : call(kv.get(prefix, keysAtNow.build()), what).getKvs()) {
        after.add(e.getKey());
      }
      for (KeyValue e : before) {
        if (!after.contains(e.getKey())) {
          return true;
        }
      }
      return false;
    } catch (CompactedRevisionException e) {
      return true;
    }
  }

  /** Whether etcd has compacted away {@code revision} (a range read there is refused). */
  private boolean isCompacted(ByteSequence prefix, long revision, Class<?> kind) {
    try {
      call(kv.get(prefix, GetOption.builder().isPrefix(true).withCountOnly(true).withRevision(revision).build()),
          "start a watch on " + kind.getSimpleName());
      return false;
    } catch (CompactedRevisionException e) {
      return true;
    }
  }

  void forget(EtcdWatch<?> watch) {
    watches.remove(watch);
    delivered();
  }

  // ----------------------------------------------------------------------------------------------------- close

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (base != null) {
      return; // a view: the connection and the watches are its base's
    }
    for (EtcdWatch<?> w : watches) {
      w.closeQuietly();
    }
    watches.clear();
    watchConnection.close();
    client.close();
    if (ownedExecutor != null) {
      ownedExecutor.shutdown();
    }
  }

  @Override
  public String toString() {
    return "EtcdObjectStore{" + settings.where() + ", prefix=" + settings.prefix() + "}";
  }

  // --------------------------------------------------------------------------------------------------- helpers

  /** An object as read, with the mod_revision its CAS must name. */
  private record Stored<T>(T object, long modRevision) {}

  private <T extends ApiObject<T>> Optional<Stored<T>> read(Class<T> kind, String namespace, String name) {
    GetResponse r = call(kv.get(key(kind, namespace, name)),
        "read " + kind.getSimpleName() + " " + (namespace.isEmpty() ? name : namespace + "/" + name));
    if (r.getKvs().isEmpty()) {
      return Optional.empty();
    }
    KeyValue e = r.getKvs().get(0);
    return Optional.of(remember(r.getKvs().get(0).getKey(), new Stored<>(decode(e, kind), e.getModRevision())));
  }

  private long currentRevision(String what) {
    return call(kv.get(genesisKey, GetOption.builder().withCountOnly(true).build()), what).getHeader().getRevision();
  }

  <T extends ApiObject<T>> T decode(KeyValue e, Class<T> kind) {
    T o = codec.decode(e.getValue().getBytes(), kind, e.getKey().toString(StandardCharsets.UTF_8));
    return WriteRules.withVersion(o, version(e.getModRevision()));
  }

  String version(long revision) {
    return Long.toString(revision - offset);
  }

  long offset() {
    return offset;
  }

  private String kindPrefix(Class<?> kind) {
    return objectsPrefix + kind.getName() + "/";
  }

  private ByteSequence key(Class<?> kind, String namespace, String name) {
    return bytes(kindPrefix(kind) + namespace + "/" + name);
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  private <R> R call(CompletableFuture<R> f, String what) {
    return call(settings, f, what);
  }

  /**
   * Waits for an etcd answer. Unreachable, slow or failing etcd becomes a {@link StoreUnavailableException} naming
   * the endpoints and the operation; a compacted revision a {@link CompactedRevisionException}.
   */
  public static <R> R call(EtcdSettings settings, CompletableFuture<R> f, String what) {
    Duration timeout = settings.requestTimeout();
    try {
      return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      throw new StoreUnavailableException("etcd at " + settings.where() + ": " + what + ": no answer within "
          + timeout.toMillis() + " ms (is etcd running and reachable?)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      f.cancel(true);
      throw new StoreUnavailableException("etcd at " + settings.where() + ": " + what + ": interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      String message = String.valueOf(cause.getMessage());
      Status.Code code = cause instanceof EtcdException ee ? grpcCode(ee.getErrorCode())
          : Status.fromThrowable(cause).getCode();
      if (code == Status.Code.OUT_OF_RANGE && message.contains("compacted")) {
        throw new CompactedRevisionException(message);
      }
      if (code == Status.Code.UNAUTHENTICATED) {
        throw new FleetKitException("etcd at " + settings.where() + " refused to " + what + ": the credentials were"
            + " not accepted (" + message + "; check the user and password"
            + (settings.security().user() == null ? ": none were given and etcd has authentication enabled)" : ")"),
            cause);
      }
      if (isRefusal(code)) {
        throw new FleetKitException("etcd at " + settings.where() + " refused to " + what + ": " + message, cause);
      }
      throw new StoreUnavailableException("etcd at " + settings.where() + ": " + what + " failed: " + message,
          cause);
    }
  }

  private static Status.Code grpcCode(ErrorCode code) {
    try {
      return Status.Code.valueOf(code.name());
    } catch (IllegalArgumentException e) {
      return Status.Code.UNKNOWN;
    }
  }

  /** Errors that are etcd's answer to this request (too large, not allowed), not a failure to get one. */
  private static boolean isRefusal(Status.Code code) {
    return code == Status.Code.INVALID_ARGUMENT || code == Status.Code.PERMISSION_DENIED
        || code == Status.Code.RESOURCE_EXHAUSTED || code == Status.Code.FAILED_PRECONDITION
        || code == Status.Code.UNAUTHENTICATED || code == Status.Code.OUT_OF_RANGE;
  }

  /** A read at a revision etcd has compacted away. */
  static final class CompactedRevisionException extends RuntimeException {
    CompactedRevisionException(String message) {
      super(message, null, false, false);
    }
  }

  @SuppressWarnings("unchecked")
  private static <T extends ApiObject<T>> Class<T> kindOf(T object) {
    return (Class<T>) object.getClass();
  }

  private void checkOpen() {
    if (closed || (base != null && base.closed)) {
      throw new IllegalStateException("object store is closed");
    }
  }
}
