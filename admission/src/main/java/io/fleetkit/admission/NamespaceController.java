package io.fleetkit.admission;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespaceStatus;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes' namespace controller ({@code pkg/controller/namespace/deletion/namespaced_resources_deleter.go}),
 * embedded: when a namespace is marked for deletion it sets the phase Terminating, deletes every object of the
 * given kinds in it, and once none is left removes the {@value Namespace#KUBERNETES_FINALIZER} finalizer, so the
 * store removes the namespace. Objects with finalizers of their own keep the namespace until they are gone.
 *
 * <p>{@link #sync} is idempotent and may be called from any thread; {@link #start} runs it from store watches.
 */
public final class NamespaceController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceController.class);

  private final ObjectStore store;
  private final List<Class<? extends ApiObject<?>>> kinds;
  private final List<Watch> watches = new ArrayList<>();

  private NamespaceController(ObjectStore store, List<Class<? extends ApiObject<?>>> kinds) {
    this.store = Objects.requireNonNull(store, "store");
    this.kinds = List.copyOf(kinds);
  }

  /** A controller for {@code kinds} (the namespaced kinds whose objects a namespace's deletion removes), not started. */
  public static NamespaceController of(ObjectStore store, List<Class<? extends ApiObject<?>>> kinds) {
    return new NamespaceController(store, kinds);
  }

  /**
   * Starts watching namespaces (and deletions of the given kinds, which may let a namespace finish) and syncs
   * every namespace already marked.
   */
  public NamespaceController start() {
    watches.add(store.watch(Namespace.class, "", (e) -> {
      if (e.type() != WatchEventType.DELETED && e.object().terminating()) {
        sync(e.object().metadata().name());
      }
    }));
    for (Class<? extends ApiObject<?>> kind : kinds) {
      watches.add(watchDeletions(kind));
    }
    for (Namespace ns : store.list(Namespace.class).items()) {
      if (ns.terminating()) {
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
        store.get(Namespace.class, "", o.metadata().namespace()).filter(Namespace::terminating)
            .ifPresent(ns -> sync(ns.metadata().name()));
      }
    });
  }

  /**
   * Moves the deletion of {@code namespace} forward.
   *
   * @return whether the namespace is gone or not being deleted (nothing left to do)
   */
  public boolean sync(String namespace) {
    Namespace ns = store.get(Namespace.class, "", namespace).orElse(null);
    if (ns == null || !ns.terminating()) {
      return true;
    }
    if (ns.status().phase() != io.fleetkit.api.core.NamespacePhase.Terminating) {
      try {
        ns = store.updateStatus(ns.withStatus(NamespaceStatus.TERMINATING));
      } catch (ConflictException | NotFoundException e) {
        return false; // a newer version's event syncs again
      }
    }
    int remaining = 0;
    for (Class<? extends ApiObject<?>> kind : kinds) {
      remaining += deleteAll(kind, namespace);
    }
    if (remaining > 0) {
      LOG.debug("namespace {}: {} objects left to delete", namespace, remaining);
      return false;
    }
    ObjectMeta m = ns.metadata();
    if (m.finalizers().contains(Namespace.KUBERNETES_FINALIZER)) {
      List<String> rest = new ArrayList<>(m.finalizers());
      rest.remove(Namespace.KUBERNETES_FINALIZER);
      try {
        store.update(ns.withMetadata(m.toBuilder().finalizers(rest).build()));
      } catch (ConflictException | NotFoundException e) {
        return false;
      }
    }
    return true;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private int deleteAll(Class<? extends ApiObject<?>> kind, String namespace) {
    List<? extends ApiObject<?>> items = store.list((Class) kind, namespace).items();
    int left = 0;
    for (ApiObject<?> o : items) {
      if (o.metadata().deletionTimestamp() == null) {
        try {
          ApiObject<?> after = store.delete((Class) kind, namespace, o.metadata().name());
          if (!after.metadata().finalizers().isEmpty()) {
            left++;
          }
        } catch (NotFoundException gone) {
          // deleted meanwhile
        }
      } else {
        left++;
      }
    }
    return left;
  }

  @Override
  public void close() {
    for (Watch w : watches) {
      w.close();
    }
    watches.clear();
  }
}
