package io.fleetkit.admission;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.NamespaceSpec;
import io.fleetkit.api.core.NamespaceStatus;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes' namespace controller ({@code pkg/controller/namespace/deletion/namespaced_resources_deleter.go}),
 * embedded. For a namespace marked for deletion it makes the phase Terminating; unless the namespace's
 * {@code spec.finalizers} are already empty, it deletes every object of the given kinds in it (with
 * {@code propagationPolicy: Background}, as upstream, so no object waits for a garbage collector), records how that went
 * in the namespace's conditions ({@link io.fleetkit.api.core.NamespaceCondition}), and once nothing is left takes
 * the {@value Namespace#KUBERNETES_FINALIZER} finalizer out of {@code spec.finalizers} through
 * {@link ObjectStore#finalizeNamespace}. The store removes the namespace when that leaves both its
 * {@code spec.finalizers} and its {@code metadata.finalizers} empty; finalizers in {@code metadata.finalizers} are
 * ordinary object finalizers, which this controller never touches. Objects with finalizers of their own keep the
 * namespace until they are gone.
 *
 * <p>{@link #sync} is idempotent and may be called from any thread; {@link #start} runs it from store watches.
 */
public final class NamespaceController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceController.class);

  private final ObjectStore store;
  private final List<Class<? extends ApiObject<?>>> kinds;
  private final Clock clock;
  private final String finalizerToken;
  private final List<Watch> watches = new ArrayList<>();

  private NamespaceController(ObjectStore store, List<Class<? extends ApiObject<?>>> kinds, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.kinds = List.copyOf(kinds);
    this.clock = Objects.requireNonNull(clock, "clock");
    this.finalizerToken = Namespace.KUBERNETES_FINALIZER;
  }

  /** A controller for {@code kinds} (the namespaced kinds whose objects a namespace's deletion removes), not started. */
  public static NamespaceController of(ObjectStore store, List<Class<? extends ApiObject<?>>> kinds) {
    return new NamespaceController(store, kinds, Clock.systemUTC());
  }

  /** As {@link #of(ObjectStore, List)}, with {@code clock} for the conditions' transition times. */
  public static NamespaceController of(ObjectStore store, List<Class<? extends ApiObject<?>>> kinds, Clock clock) {
    return new NamespaceController(store, kinds, clock);
  }

  /**
   * Starts watching namespaces (and deletions of the given kinds, which may let a namespace finish) and syncs
   * every namespace already marked.
   */
  public NamespaceController start() {
    watches.add(store.watch(Namespace.class, "", (e) -> {
      if (e.type() != WatchEventType.DELETED && e.object().metadata().deletionTimestamp() != null) {
        sync(e.object().metadata().name());
      }
    }));
    for (Class<? extends ApiObject<?>> kind : kinds) {
      watches.add(watchDeletions(kind));
    }
    for (Namespace ns : store.list(Namespace.class).items()) {
      if (ns.metadata().deletionTimestamp() != null) {
        sync(ns.metadata().name());
      }
    }
    return this;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private Watch watchDeletions(Class<? extends ApiObject<?>> kind) {
    return store.watch((Class) kind, "", e -> {
      ApiObject<?> o = ((io.fleetkit.api.store.WatchEvent<? extends ApiObject<?>>) e).object();
      if (e.type() == WatchEventType.DELETED) {
        store.get(Namespace.class, "", o.metadata().namespace())
            .filter(ns -> ns.metadata().deletionTimestamp() != null)
            .ifPresent(ns -> sync(ns.metadata().name()));
      }
    });
  }

  /**
   * Moves the deletion of {@code namespace} forward (upstream's {@code Delete}): nothing for a namespace that is gone
   * or not marked; otherwise phase Terminating, and unless {@code spec.finalizers} is already empty, the content's
   * deletion, the conditions and, when no content is left, the finalize write. Conflicts are retried on the latest
   * namespace, as long as it is the same namespace (same uid).
   *
   * @return whether nothing is left to do for this controller (the namespace is gone, not marked, or its
   *     {@code spec.finalizers} are empty); {@code false} while content remains or could not be deleted
   */
  public boolean sync(String namespace) {
    Namespace ns = store.get(Namespace.class, "", namespace).orElse(null);
    if (ns == null || ns.metadata().deletionTimestamp() == null) {
      return true;
    }
    try {
      ns = retryOnConflict(ns, this::terminating);
      if (ns.metadata().deletionTimestamp() == null || ns.finalized()) {
        return true;
      }
      Namespace emptied = deleteAllContent(ns);
      if (emptied == null) {
        return false;
      }
      retryOnConflict(emptied, this::finalizeNamespace);
      return true;
    } catch (NotFoundException gone) {
      return true; // deleted meanwhile: nothing left to do
    } catch (UidChangedException e) {
      LOG.debug("namespace {}: {}", namespace, e.getMessage());
      return false;
    }
  }

  /** Upstream's {@code updateNamespaceStatusFunc}: phase Terminating for a marked namespace. */
  private Namespace terminating(Namespace ns) {
    if (ns.metadata().deletionTimestamp() == null || ns.status().phase() == NamespacePhase.Terminating) {
      return ns;
    }
    return store.updateStatus(ns.withStatus(ns.status().withPhase(NamespacePhase.Terminating)));
  }

  /**
   * Upstream's {@code finalizeNamespace}: {@code spec.finalizers} without this controller's token, as a sorted set.
   */
  private Namespace finalizeNamespace(Namespace ns) {
    TreeSet<String> rest = new TreeSet<>(ns.spec().finalizers());
    rest.remove(finalizerToken);
    return store.finalizeNamespace(ns.withSpec(new NamespaceSpec(List.copyOf(rest))));
  }

  /** Upstream's {@code retryOnConflictError}: on a conflict, reads the namespace again and retries. */
  private Namespace retryOnConflict(Namespace ns, UnaryOperator<Namespace> write) {
    Namespace latest = ns;
    while (true) {
      try {
        return write.apply(latest);
      } catch (ConflictException e) {
        Namespace previous = latest;
        latest = store.require(Namespace.class, "", previous.metadata().name());
        if (!previous.metadata().uid().equals(latest.metadata().uid())) {
          throw new UidChangedException();
        }
      }
    }
  }

  /**
   * Upstream's {@code deleteAllContent}: deletes each object of each kind in the namespace, lists what is left, and
   * writes the conditions when they change.
   *
   * @return the namespace as this pass left it (with its conditions) if all content is gone and every deletion
   *     succeeded, else {@code null}
   */
  private @Nullable Namespace deleteAllContent(Namespace ns) {
    String namespace = ns.metadata().name();
    NamespaceDeletionConditions conditions = new NamespaceDeletionConditions();
    Map<String, Integer> remainingByResource = new TreeMap<>();
    Map<String, Integer> remainingByFinalizer = new TreeMap<>();
    boolean failed = false;
    for (Class<? extends ApiObject<?>> kind : kinds) {
      try {
        deleteEach(kind, namespace);
        List<? extends ApiObject<?>> left = list(kind, namespace);
        if (left.isEmpty()) {
          continue;
        }
        remainingByResource.put(resource(left.get(0)), left.size());
        boolean anyFinalizer = false;
        for (ApiObject<?> o : left) {
          for (String f : o.metadata().finalizers()) {
            remainingByFinalizer.merge(f, 1, Integer::sum);
            anyFinalizer = true;
          }
        }
        if (!anyFinalizer) {
          // Nothing holds them, so they should have been deleted: upstream's error for this case.
          failed = true;
          conditions.deleteContentError("unexpected items still remain in namespace: " + namespace + " for gvr: "
              + groupVersionResource(left.get(0)));
        }
      } catch (RuntimeException e) { // a deletion refused (admission, a conflict) or a store failure
        failed = true;
        conditions.deleteContentError(kind.getSimpleName() + ": " + e.getMessage());
      }
    }
    conditions.contentTotals(remainingByResource, remainingByFinalizer, clock.instant());
    // Always written when changed: a condition may go back to its "ok" variant after a failure.
    NamespaceStatus status = conditions.apply(ns.status(), clock.instant());
    Namespace latest = ns;
    if (status != ns.status()) {
      try {
        latest = store.updateStatus(ns.withStatus(status));
      } catch (ConflictException | NotFoundException e) {
        LOG.debug("namespace {}: could not update the status conditions: {}", namespace, e.getMessage());
      }
    }
    if (!remainingByResource.isEmpty()) {
      LOG.debug("namespace {}: content remains: {}", namespace, remainingByResource);
    }
    return !failed && remainingByResource.isEmpty() ? latest : null;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private List<? extends ApiObject<?>> list(Class<? extends ApiObject<?>> kind, String namespace) {
    return store.list((Class) kind, namespace).items();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void deleteEach(Class<? extends ApiObject<?>> kind, String namespace) {
    for (ApiObject<?> o : list(kind, namespace)) {
      if (o.metadata().deletionTimestamp() == null) {
        try {
          // as upstream's namespaced_resources_deleter: propagationPolicy Background, whatever the kind's default
          store.delete((Class) kind, namespace, o.metadata().name(), DeleteOptions.background());
        } catch (NotFoundException gone) {
          // deleted meanwhile
        }
      }
    }
  }

  /** Upstream's key of a resource in the conditions: {@code resource.group}, e.g. {@code pods.}. */
  static String resource(ApiObject<?> o) {
    return plural(o.kind()) + "." + group(o.apiVersion());
  }

  /** As Go prints a {@code GroupVersionResource}: {@code group/version, Resource=resource}. */
  private static String groupVersionResource(ApiObject<?> o) {
    String v = o.apiVersion();
    int slash = v.indexOf('/');
    return group(v) + "/" + (slash < 0 ? v : v.substring(slash + 1)) + ", Resource=" + plural(o.kind());
  }

  private static String group(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  /** The resource name of a kind, as kube's default REST mapper guesses it (lower case, plural). */
  private static String plural(String kind) {
    String k = kind.toLowerCase(Locale.ROOT);
    if (k.endsWith("s")) {
      return k + "es";
    }
    if (k.endsWith("y") && k.length() > 1 && "aeiou".indexOf(k.charAt(k.length() - 2)) < 0) {
      return k.substring(0, k.length() - 1) + "ies";
    }
    return k + "s";
  }

  @Override
  public void close() {
    for (Watch w : watches) {
      w.close();
    }
    watches.clear();
  }

  /** The namespace was replaced by another of the same name while a write was retried. */
  private static final class UidChangedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UidChangedException() {
      super("namespace uid has changed across retries", null, false, false);
    }
  }
}
