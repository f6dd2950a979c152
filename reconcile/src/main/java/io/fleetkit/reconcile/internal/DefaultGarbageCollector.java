package io.fleetkit.reconcile.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.GarbageCollector;
import io.fleetkit.reconcile.Informer;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.RateLimiters;
import io.fleetkit.reconcile.ResourceEventHandler;
import io.fleetkit.reconcile.SharedInformers;
import java.util.function.Function;
import io.fleetkit.api.time.TimerClock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One informer per watched kind (with an index by owner uid), one rate-limited queue of objects to check, and a
 * worker. Checking an object reads it and its owners from the store, not the caches, so informer lag between kinds
 * can never make a live owner look absent.
 */
public final class DefaultGarbageCollector implements GarbageCollector {
  private static final Logger LOG = LoggerFactory.getLogger(DefaultGarbageCollector.class);
  static final String OWNER_UID_INDEX = "ownerUid";

  /** What to do with one object. */
  private record Item(Class<?> kind, ObjectKey key, Mode mode) {}

  private enum Mode {
    /** Delete the object if no owner is live, drop references to owners gone or deleting in the foreground. */
    COLLECT,
    /** An owner deleted with the orphan finalizer: release its dependents. */
    ORPHAN,
    /** An owner deleted with the foreground finalizer: delete its dependents, then let it go. */
    FOREGROUND
  }

  private final ObjectStore store;
  private final DefaultWorkQueue<Item> queue;
  private final Map<Class<?>, Informer<?>> informers = new LinkedHashMap<>();
  /** group/kind → class, learned from observed objects. */
  private final Map<String, Class<?>> kindsByName = new ConcurrentHashMap<>();
  /** Per watched kind, the apiVersion and kind last recorded in {@link #kindsByName} from one of its objects. */
  private final Map<Class<?>, String[]> namesSeen = new ConcurrentHashMap<>();
  private final AtomicLong deleted = new AtomicLong();
  /**
   * The owners being deleted in the foreground, by uid: the deletion of a dependent that blocks one of them queues
   * the owner again (upstream's graph builder on a removed node). Without such owners a deletion costs one look-up
   * per blocking reference.
   */
  private final Map<String, Item> deletingDependents = new ConcurrentHashMap<>();
  private final WorkerLifecycle lifecycle;

  public DefaultGarbageCollector(ObjectStore store, Set<Class<?>> kinds, Map<String, Class<?>> declaredNames,
      int workers, TimerClock clock) {
    this(store, kinds, declaredNames, workers, clock, null);
  }

  /** As above; with {@code shared} not null the informers are views of the shared ones, with the owner index. */
  public DefaultGarbageCollector(ObjectStore store, Set<Class<?>> kinds, Map<String, Class<?>> declaredNames,
      int workers, TimerClock clock, @Nullable SharedInformers shared) {
    this.store = store;
    this.queue = new DefaultWorkQueue<>(clock, RateLimiters.defaultController(clock));
    this.lifecycle = new WorkerLifecycle("garbage collector", "fleetkit-garbage-collector-", workers,
        this::workLoop, informers.values(), queue::shutDown);
    kindsByName.putAll(declaredNames);
    for (Class<?> kind : kinds) {
      addInformer(kind, clock, shared);
    }
  }

  public static String groupKind(String apiVersion, String kind) {
    int slash = apiVersion.indexOf('/');
    return (slash < 0 ? "" : apiVersion.substring(0, slash)) + "/" + kind;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void addInformer(Class<?> kind, TimerClock clock, @Nullable SharedInformers shared) {
    Function<ApiObject<?>, List<String>> byOwner = DefaultGarbageCollector::ownerUids;
    Informer inf = shared != null ? shared.informer((Class) kind, Map.of(OWNER_UID_INDEX, byOwner))
        : Informer.builder(store, (Class) kind).clock(clock).indexer(OWNER_UID_INDEX, (Function) byOwner).build();
    inf.addEventHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(ApiObject object) {
        observe(kind, null, object);
      }

      @Override
      public void onUpdate(ApiObject oldObject, ApiObject newObject) {
        observe(kind, oldObject, newObject);
      }

      @Override
      public void onDelete(ApiObject object, boolean finalStateUnknown) {
        ObjectMeta m = object.metadata();
        deletingDependents.remove(m.uid());
        dependentsChanged(m.uid());
        ownersMayBeFree(m.ownerReferences(), List.of());
      }
    });
    informers.put(kind, inf);
  }

  /** The uids of {@code object}'s owners, in order (the owner-uid index; run on every update of every object). */
  private static List<String> ownerUids(ApiObject<?> object) {
    List<OwnerReference> refs = object.metadata().ownerReferences();
    if (refs.isEmpty()) {
      return List.of();
    }
    if (refs.size() == 1) {
      return List.of(refs.get(0).uid());
    }
    List<String> uids = new ArrayList<>(refs.size());
    for (OwnerReference r : refs) {
      uids.add(r.uid());
    }
    return List.copyOf(uids);
  }

  /**
   * Records the kind's names and queues what the change asks for. An object with owners is checked when it is first
   * seen and when its owner references change, as upstream's graph builder ({@code processGraphChanges}) acts only
   * on added, removed or changed references; an update that keeps them (a status write, a binding) queues nothing,
   * since an owner that goes away queues its dependents itself ({@link #dependentsChanged}).
   */
  private void observe(Class<?> kind, @Nullable ApiObject<?> old, ApiObject<?> object) {
    String[] seen = namesSeen.get(kind);
    if (seen == null || !seen[0].equals(object.apiVersion()) || !seen[1].equals(object.kind())) {
      // entries are never removed, so the same names need no second putIfAbsent (nor its group/kind string)
      kindsByName.putIfAbsent(groupKind(object.apiVersion(), object.kind()), kind);
      namesSeen.put(kind, new String[] {object.apiVersion(), object.kind()});
    }
    ObjectMeta m = object.metadata();
    if (m.deletionTimestamp() != null) {
      if (m.finalizers().contains(ORPHAN_FINALIZER)) {
        queue.add(new Item(kind, ObjectKey.of(object), Mode.ORPHAN));
      }
      if (m.finalizers().contains(FOREGROUND_FINALIZER)) {
        Item item = new Item(kind, ObjectKey.of(object), Mode.FOREGROUND);
        deletingDependents.put(m.uid(), item);
        queue.add(item);
      } else if (!deletingDependents.isEmpty()) {
        deletingDependents.remove(m.uid()); // a later deletion switched the policy away from Foreground
      }
    }
    boolean refsChanged = old == null || !old.metadata().ownerReferences().equals(m.ownerReferences());
    if (!refsChanged) {
      return;
    }
    if (old != null) {
      ownersMayBeFree(old.metadata().ownerReferences(), m.ownerReferences());
    }
    if (!m.ownerReferences().isEmpty()) {
      queue.add(new Item(kind, ObjectKey.of(object), Mode.COLLECT));
    }
  }

  /**
   * A dependent no longer holds the owners it blocked in {@code before} but not in {@code after} (it is gone, the
   * reference was removed or no longer blocks): those being deleted in the foreground are checked again.
   */
  private void ownersMayBeFree(List<OwnerReference> before, List<OwnerReference> after) {
    if (deletingDependents.isEmpty()) {
      return;
    }
    for (OwnerReference ref : before) {
      if (ref.blockOwnerDeletion() && !after.contains(ref)) {
        Item owner = deletingDependents.get(ref.uid());
        if (owner != null) {
          queue.add(owner);
        }
      }
    }
  }

  /** An owner is gone: every object that names it needs a check. */
  private void dependentsChanged(String ownerUid) {
    informers.forEach((kind, inf) -> {
      for (ApiObject<?> dep : inf.lister().byIndex(OWNER_UID_INDEX, ownerUid)) {
        queue.add(new Item(kind, ObjectKey.of(dep), Mode.COLLECT));
      }
    });
  }

  @Override
  public CompletableFuture<Void> start() {
    return lifecycle.start();
  }

  private void workLoop() {
    try {
      Optional<Item> item;
      while ((item = queue.get()).isPresent()) {
        process(item.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void process(Item item) {
    try {
      switch (item.mode) {
        case ORPHAN -> orphanDependents(item);
        case FOREGROUND -> deleteDependents(item);
        default -> collect(item);
      }
      queue.forget(item);
    } catch (ConflictException e) {
      LOG.debug("garbage collector: conflict on {} {}; retrying", item.kind.getSimpleName(), item.key);
      queue.addRateLimited(item);
    } catch (RuntimeException e) {
      LOG.warn("garbage collector: processing {} {} failed; retrying with backoff", item.kind.getSimpleName(),
          item.key, e);
      queue.addRateLimited(item);
    } finally {
      queue.done(item);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private Optional<ApiObject<?>> live(Class<?> kind, ObjectKey key) {
    Object found = store.get((Class) kind, key.namespace(), key.name());
    return (Optional<ApiObject<?>>) found;
  }

  /**
   * Upstream's {@code attemptToDeleteItem} for an object not being deleted: its references are classified as
   * dangling (the owner is gone), waiting (the owner is being deleted in the foreground) or solid. With a solid
   * owner it lives on, without the dangling and waiting references; otherwise it is deleted, in the foreground when
   * an owner waits for it and it has dependents of its own.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private void collect(Item item) {
    Optional<ApiObject<?>> found = live(item.kind, item.key);
    if (found.isEmpty()) {
      return;
    }
    ApiObject obj = found.get();
    ObjectMeta m = obj.metadata();
    if (m.ownerReferences().isEmpty() || m.deletionTimestamp() != null) {
      return;
    }
    List<OwnerReference> dropped = new ArrayList<>(); // dangling and waiting
    boolean solid = false;
    boolean waiting = false;
    for (OwnerReference ref : m.ownerReferences()) {
      switch (ownerState(ref, m.namespace())) {
        case GONE -> dropped.add(ref);
        case WAITING -> {
          dropped.add(ref);
          waiting = true;
        }
        default -> solid = true;
      }
    }
    if (solid) {
      if (!dropped.isEmpty()) {
        List<OwnerReference> kept = new ArrayList<>(m.ownerReferences());
        kept.removeAll(dropped);
        store.update(obj.withMetadata(m.toBuilder().ownerReferences(kept).build()));
        LOG.debug("garbage collector: removed owner references {} (gone or deleting in the foreground) from {}",
            dropped, obj.describe());
      }
      return;
    }
    try {
      if (waiting && hasDependents(m.uid())) {
        deleteInForeground(item, obj);
      } else {
        // upstream: "otherwise, default to background", whatever the kind's own default
        store.delete((Class) item.kind, m.namespace(), m.name(),
            DeleteOptions.background().withPreconditions(DeletePreconditions.uid(m.uid())));
      }
      deleted.incrementAndGet();
      LOG.debug("garbage collector: deleted {}, no live owner left {}", obj.describe(), dropped);
    } catch (NotFoundException e) {
      // already gone
    }
  }

  /**
   * Deletes {@code obj}, whose owner waits for it, in the foreground (it has dependents). If one of its dependents
   * is itself being deleted in the foreground, its references are unblocked first, as upstream's cycle guard does.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private void deleteInForeground(Item item, ApiObject obj) {
    ObjectMeta m = obj.metadata();
    if (anyDependent(m.uid(), d -> d.metadata().deletionTimestamp() != null
        && d.metadata().finalizers().contains(FOREGROUND_FINALIZER))) {
      List<OwnerReference> unblocked = new ArrayList<>();
      for (OwnerReference r : m.ownerReferences()) {
        unblocked.add(r.blockOwnerDeletion()
            ? new OwnerReference(r.apiVersion(), r.kind(), r.name(), r.uid(), r.controller(), false) : r);
      }
      store.update(obj.withMetadata(m.toBuilder().ownerReferences(unblocked).build()));
    }
    // The store sets the foregroundDeletion finalizer and marks the object, as for any foreground deletion.
    store.delete((Class) item.kind, m.namespace(), m.name(),
        DeleteOptions.foreground().withPreconditions(DeletePreconditions.uid(m.uid())));
  }

  /**
   * Upstream's {@code processDeletingDependentsItem}: an owner being deleted in the foreground loses its finalizer
   * once no dependent whose reference blocks it is left; until then its dependents not yet being deleted are
   * collected (which deletes those without another live owner).
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private void deleteDependents(Item item) {
    Optional<ApiObject<?>> found = live(item.kind, item.key);
    if (found.isEmpty()) {
      return;
    }
    ApiObject owner = found.get();
    ObjectMeta om = owner.metadata();
    if (om.deletionTimestamp() == null || !om.finalizers().contains(FOREGROUND_FINALIZER)) {
      return;
    }
    String uid = om.uid();
    boolean blocked = false;
    for (Map.Entry<Class<?>, Informer<?>> e : informers.entrySet()) {
      for (ApiObject<?> cached : e.getValue().lister().byIndex(OWNER_UID_INDEX, uid)) {
        Optional<ApiObject<?>> dep = live(e.getKey(), ObjectKey.of(cached));
        if (dep.isEmpty()) {
          continue;
        }
        ObjectMeta dm = dep.get().metadata();
        boolean names = false;
        for (OwnerReference r : dm.ownerReferences()) {
          if (r.uid().equals(uid)) {
            names = true;
            blocked |= r.blockOwnerDeletion();
          }
        }
        if (names && dm.deletionTimestamp() == null) {
          queue.add(new Item(e.getKey(), ObjectKey.of(dep.get()), Mode.COLLECT));
        }
      }
    }
    if (blocked) {
      return; // queued again when a blocking dependent goes or stops blocking
    }
    List<String> finalizers = new ArrayList<>(om.finalizers());
    finalizers.remove(FOREGROUND_FINALIZER);
    store.update(owner.withMetadata(om.toBuilder().finalizers(finalizers).build()));
    LOG.debug("garbage collector: the dependents of {} are gone; its foreground deletion completes", owner.describe());
  }

  /** Whether any watched object names {@code uid} as an owner (from the caches). */
  private boolean hasDependents(String uid) {
    return anyDependent(uid, d -> true);
  }

  private boolean anyDependent(String uid, java.util.function.Predicate<ApiObject<?>> test) {
    for (Informer<?> inf : informers.values()) {
      for (ApiObject<?> d : inf.lister().byIndex(OWNER_UID_INDEX, uid)) {
        if (test.test(d)) {
          return true;
        }
      }
    }
    return false;
  }

  /** What the owner a reference points at is to its dependent. */
  private enum OwnerState {
    /** No object of the owner's kind with its name and uid. */
    GONE,
    /** Being deleted in the foreground: it waits for its dependents. */
    WAITING,
    /** Live, or of a kind the collector cannot look up (never deleted on a guess). */
    SOLID
  }

  private OwnerState ownerState(OwnerReference ref, String dependentNamespace) {
    Class<?> ownerKind = kindsByName.get(groupKind(ref.apiVersion(), ref.kind()));
    if (ownerKind == null) {
      return OwnerState.SOLID;
    }
    Optional<ApiObject<?>> owner = live(ownerKind, new ObjectKey(dependentNamespace, ref.name()));
    if (owner.isEmpty() && !dependentNamespace.isEmpty()) {
      owner = live(ownerKind, new ObjectKey("", ref.name()));
    }
    if (owner.isEmpty() || !owner.get().metadata().uid().equals(ref.uid())) {
      return OwnerState.GONE;
    }
    ObjectMeta om = owner.get().metadata();
    return om.deletionTimestamp() != null && om.finalizers().contains(FOREGROUND_FINALIZER) ? OwnerState.WAITING
        : OwnerState.SOLID;
  }

  /** Releases the dependents of an owner deleted with the orphan finalizer, then lets the deletion finish. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private void orphanDependents(Item item) {
    Optional<ApiObject<?>> found = live(item.kind, item.key);
    if (found.isEmpty()) {
      return;
    }
    ApiObject owner = found.get();
    String uid = owner.metadata().uid();
    if (owner.metadata().deletionTimestamp() == null || !owner.metadata().finalizers().contains(ORPHAN_FINALIZER)) {
      return;
    }
    for (Map.Entry<Class<?>, Informer<?>> e : informers.entrySet()) {
      for (ApiObject<?> cached : e.getValue().lister().byIndex(OWNER_UID_INDEX, uid)) {
        Optional<ApiObject<?>> dep = live(e.getKey(), ObjectKey.of(cached));
        if (dep.isEmpty()) {
          continue;
        }
        ApiObject d = dep.get();
        List<OwnerReference> refs = new ArrayList<>(d.metadata().ownerReferences());
        if (refs.removeIf(r -> r.uid().equals(uid))) {
          store.update(d.withMetadata(d.metadata().toBuilder().ownerReferences(refs).build()));
        }
      }
    }
    List<String> finalizers = new ArrayList<>(owner.metadata().finalizers());
    finalizers.remove(ORPHAN_FINALIZER);
    store.update(owner.withMetadata(owner.metadata().toBuilder().finalizers(finalizers).build()));
    LOG.debug("garbage collector: orphaned the dependents of {}", owner.describe());
  }

  @Override
  public boolean runOnce() {
    checkStepping("runOnce");
    Optional<Item> item = queue.poll();
    item.ifPresent(this::process);
    return item.isPresent();
  }

  @Override
  public int runUntilIdle() {
    checkStepping("runUntilIdle");
    int n = 0;
    while (runOnce()) {
      n++;
    }
    return n;
  }

  private void checkStepping(String op) {
    lifecycle.checkStepping(op);
  }

  @Override
  public long deletedCount() {
    return deleted.get();
  }

  @Override
  public void close() {
    lifecycle.close();
  }
}
