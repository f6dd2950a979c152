package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.internal.IndexedCache;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes' {@code ControllerRefManager} ({@code pkg/controller/controller_ref_manager.go}, {@code ClaimObject}
 * with {@code ClaimPods} and {@code ClaimReplicaSets} over it): one controller takes the objects its selector
 * matches. For each candidate:
 * <ul>
 *   <li>controlled by another owner (a {@code controller=true} reference with another uid): ignored;</li>
 *   <li>controlled by this one and matching (selector and filter): claimed, even while the controller or the object
 *       is being deleted (keeping what it has takes no write);</li>
 *   <li>controlled by this one and no longer matching: released (the owner reference removed, with the manager's
 *       finalizers), unless the controller is being deleted;</li>
 *   <li>an orphan (no controller reference): adopted (this controller's reference added as controller, with the
 *       manager's finalizers) if it matches, neither it nor the controller is being deleted, it is in the
 *       controller's namespace (any namespace for a cluster-scoped controller), and the "can adopt" check passes.
 *       That check is upstream's {@code RecheckDeletionTimestamp}: before the first adoption the controller is read
 *       again from the store, since the copy the caller has (from a cache) may miss a deletion or a re-creation
 *       under the same name; it is made at most once per manager.</li>
 * </ul>
 * A write that finds the object gone is not an error (nothing is claimed); any other failed write, and an adoption
 * the check refuses, is recorded in {@link Claim#errors()}, and the sync should be retried with backoff, as
 * upstream's controllers return the aggregate error. The ReplicaSet, Deployment (of ReplicaSets), StatefulSet and
 * Job reconcilers, and the Rollout reconciler (of ReplicaSets), all claim through this class.
 *
 * <p>One manager serves one sync: create it per reconcile (the adoption check is remembered). Not thread-safe.
 *
 * @param <C> the controller's kind
 */
public final class ControllerRefManager<C extends ApiObject<C>> {
  private static final Logger LOG = LoggerFactory.getLogger(ControllerRefManager.class);

  private final ObjectStore store;
  private final C controller;
  private final LabelSelector selector;
  private final Supplier<@Nullable String> canAdopt;
  private final List<String> finalizers;
  private boolean canAdoptAsked;
  private @Nullable String cannotAdopt;

  /**
   * @param store where adoptions and releases are written
   * @param controller the claiming controller as the caller read it (usually from its cache)
   * @param selector the controller's selector
   * @param canAdopt asked at most once, before the first adoption: null if adoptions may go ahead, else why not
   * @param finalizers added to adopted objects and removed from released ones (upstream's Job tracking
   *     finalizer); usually none
   */
  public ControllerRefManager(ObjectStore store, C controller, LabelSelector selector,
      Supplier<@Nullable String> canAdopt, List<String> finalizers) {
    this.store = Objects.requireNonNull(store, "store");
    this.controller = Objects.requireNonNull(controller, "controller");
    this.selector = Objects.requireNonNull(selector, "selector");
    this.canAdopt = Objects.requireNonNull(canAdopt, "canAdopt");
    this.finalizers = List.copyOf(finalizers);
  }

  /**
   * A manager for one sync of {@code controller}, with upstream's adoption check ({@link #recheckDeletion}) and no
   * finalizers: what every workload controller uses.
   */
  public static <C extends ApiObject<C>> ControllerRefManager<C> forSync(ObjectStore store, C controller,
      LabelSelector selector) {
    return new ControllerRefManager<>(store, controller, selector, recheckDeletion(store, controller), List.of());
  }

  /**
   * Upstream's {@code RecheckDeletionTimestamp} with the uid check its controllers add: the controller read again
   * from {@code store} must still exist, have the same uid and not be being deleted.
   *
   * @return a check answering null when adoptions may go ahead, else the reason
   */
  @SuppressWarnings("unchecked")
  public static <C extends ApiObject<C>> Supplier<@Nullable String> recheckDeletion(ObjectStore store, C controller) {
    return () -> {
      ObjectMeta m = controller.metadata();
      String who = controller.kind() + " " + m.key();
      Optional<C> fresh = store.get((Class<C>) controller.getClass(), m.namespace(), m.name());
      if (fresh.isEmpty()) {
        return "original " + who + " is gone";
      }
      ObjectMeta f = fresh.get().metadata();
      if (!f.uid().equals(m.uid())) {
        return "original " + who + " is gone: got uid " + f.uid() + ", wanted " + m.uid();
      }
      if (f.deletionTimestamp() != null) {
        return who + " has just been deleted at " + f.deletionTimestamp();
      }
      return null;
    };
  }

  /**
   * What a claim found: the objects the controller now controls (an unmodifiable list; when nothing was adopted or
   * released, the cache's own list, so that a caller can tell cheaply that it has not changed), and the writes that
   * failed.
   */
  public record Claim<D>(List<D> claimed, List<String> errors) {
    public Claim {
      Objects.requireNonNull(claimed, "claimed");
      errors = List.copyOf(errors);
    }

    /** Whether some adoption or release failed: the sync should stop and be retried with backoff. */
    public boolean failed() {
      return !errors.isEmpty();
    }
  }

  /** {@link #claim(List, Predicate)} with no filter: upstream's {@code ClaimPods(pods)}. */
  public <D extends ApiObject<D>> Claim<D> claim(List<D> candidates) {
    return claim(candidates, d -> true);
  }

  /**
   * Claims among {@code candidates}, in their order: upstream's {@code ClaimPods(pods, filters...)}. An object
   * matches when the selector matches its labels and {@code filter} accepts it (the StatefulSet's membership).
   *
   * @return the claimed objects (adopted ones as the store returned them) and the failed writes
   */
  public <D extends ApiObject<D>> Claim<D> claim(List<D> candidates, Predicate<? super D> filter) {
    List<D> claimed = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (D obj : candidates) {
      D owned = claimObject(obj, filter, errors);
      if (owned != null) {
        claimed.add(owned);
      }
    }
    return new Claim<>(Collections.unmodifiableList(claimed), errors);
  }

  /**
   * Claims among the objects of {@code objects} that the controller controls or its selector matches in its
   * namespace, in key order: the only ones {@link #claim(List, Predicate)} could claim or release from the whole
   * namespace, read through the controller index and the selection instead of walking the namespace. When the two
   * are the same objects (the usual case: it controls exactly what it selects) there is nothing to adopt or release
   * and the cached list is returned as it is.
   */
  public <D extends ApiObject<D>> Claim<D> claim(Lister<D> objects) {
    String uid = controller.metadata().uid();
    String namespace = controller.metadata().namespace();
    if (objects.indexMatchesSelection(Lister.CONTROLLER_INDEX, uid, namespace, selector)) {
      return new Claim<>(objects.byIndex(Lister.CONTROLLER_INDEX, uid), List.of());
    }
    return claim(claimCandidates(objects, namespace, uid, selector));
  }

  /** {@link #claim(List, Predicate)} over the candidates of {@link #claim(Lister)}, which are a superset. */
  public <D extends ApiObject<D>> Claim<D> claim(Lister<D> objects, Predicate<? super D> filter) {
    String uid = controller.metadata().uid();
    return claim(claimCandidates(objects, controller.metadata().namespace(), uid, selector), filter);
  }

  /**
   * The objects {@code ClaimPods} (or {@code ClaimReplicaSets}) has to look at: those the owner
   * {@code uid} controls plus those its selector matches (the only ones it may adopt), in listing order. Upstream
   * walks the whole namespace; the two index reads give the same objects at the cost of the answer, which keeps a
   * namespace of many owners linear instead of quadratic.
   */
  static <T extends ApiObject<T>> List<T> claimCandidates(Lister<T> objects, String namespace, String uid,
      LabelSelector selector) {
    // both answers come in key order: merge them (an object in both once), no sorting
    List<T> owned = objects.byIndex(Lister.CONTROLLER_INDEX, uid);
    List<T> selected = objects.list(namespace, selector);
    if (Lister.sameObjects(owned, selected)) { // the usual case: the owner controls exactly what it selects
      return Collections.unmodifiableList(selected);
    }
    List<T> out = new ArrayList<>(Math.max(owned.size(), selected.size()));
    int i = 0;
    int j = 0;
    while (i < owned.size() || j < selected.size()) {
      T a = i < owned.size() ? owned.get(i) : null;
      if (a != null && !a.metadata().namespace().equals(namespace)) {
        i++;
        continue;
      }
      T b = j < selected.size() ? selected.get(j) : null;
      int c = a == null ? 1 : b == null ? -1 : IndexedCache.KEY_ORDER.compare(a.metadata().key(),
          b.metadata().key());
      if (c < 0) {
        out.add(a);
        i++;
      } else {
        out.add(b);
        j++;
        if (c == 0) {
          i++;
        }
      }
    }
    return Collections.unmodifiableList(out);
  }

  /** Upstream's {@code ClaimObject}: the object if the controller controls it afterwards, else null. */
  private <D extends ApiObject<D>> @Nullable D claimObject(D obj, Predicate<? super D> filter, List<String> errors) {
    ObjectMeta meta = obj.metadata();
    ObjectMeta owner = controller.metadata();
    OwnerReference ref = meta.controllerRef();
    boolean matches = selector.matches(meta.labels()) && filter.test(obj);
    if (ref != null) {
      if (!ref.uid().equals(owner.uid())) {
        return null; // another controller's
      }
      if (matches) {
        return obj;
      }
      if (owner.deletionTimestamp() == null) {
        release(obj, errors);
      }
      return null;
    }
    if (owner.deletionTimestamp() != null || !matches || meta.deletionTimestamp() != null) {
      return null;
    }
    if (!owner.namespace().isEmpty() && !owner.namespace().equals(meta.namespace())) {
      return null;
    }
    return adopt(obj, errors);
  }

  private <D extends ApiObject<D>> @Nullable D adopt(D obj, List<String> errors) {
    ObjectMeta meta = obj.metadata();
    if (!canAdoptAsked) {
      canAdoptAsked = true;
      cannotAdopt = canAdopt.get();
    }
    if (cannotAdopt != null) {
      errors.add("can't adopt " + obj.kind() + " " + meta.key() + " (" + meta.uid() + "): " + cannotAdopt);
      return null;
    }
    String uid = controller.metadata().uid();
    List<OwnerReference> refs = new ArrayList<>();
    for (OwnerReference r : meta.ownerReferences()) {
      if (!r.uid().equals(uid)) { // a plain (non-controller) reference to the same owner becomes the controller one
        refs.add(r);
      }
    }
    refs.add(OwnerReference.controllerOf(controller));
    List<String> fins = new ArrayList<>(meta.finalizers());
    for (String f : finalizers) {
      if (!fins.contains(f)) {
        fins.add(f);
      }
    }
    try {
      return store.update(obj.withMetadata(meta.toBuilder().ownerReferences(refs).finalizers(fins).build()));
    } catch (NotFoundException e) {
      return null;
    } catch (FleetKitException e) {
      errors.add("adopting " + obj.kind() + " " + meta.key() + " for " + controller.kind() + " "
          + controller.metadata().key() + ": " + e.getMessage());
      return null;
    }
  }

  private <D extends ApiObject<D>> void release(D obj, List<String> errors) {
    ObjectMeta meta = obj.metadata();
    String uid = controller.metadata().uid();
    LOG.debug("{} {}: releasing {} {}, which no longer matches", controller.kind(), controller.metadata().key(),
        obj.kind(), meta.key());
    List<OwnerReference> refs = new ArrayList<>();
    for (OwnerReference r : meta.ownerReferences()) {
      if (!r.uid().equals(uid)) {
        refs.add(r);
      }
    }
    List<String> fins = new ArrayList<>(meta.finalizers());
    fins.removeAll(finalizers);
    try {
      store.update(obj.withMetadata(meta.toBuilder().ownerReferences(refs).finalizers(fins).build()));
    } catch (NotFoundException e) {
      // gone: nothing to release
    } catch (FleetKitException e) {
      errors.add("releasing " + obj.kind() + " " + meta.key() + " from " + controller.kind() + " "
          + controller.metadata().key() + ": " + e.getMessage());
    }
  }
}
