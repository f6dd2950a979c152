package io.fleetkit.api.store;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A store that passes every call to another one; a subclass overrides the calls it observes or changes (a write
 * log, a fault injected into a test) and inherits the rest. Deletions all arrive at
 * {@link #delete(Class, String, String, DeleteOptions)}. Closing it closes the other store. Thread-safe if the
 * other store is and the subclass's overrides are.
 */
public abstract class ForwardingObjectStore implements ObjectStore {
  private final ObjectStore delegate;

  protected ForwardingObjectStore(ObjectStore delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The store every call is passed to. */
  protected final ObjectStore delegate() {
    return delegate;
  }

  @Override
  public <T extends ApiObject<T>> T create(T object) {
    return delegate.create(object);
  }

  @Override
  public <T extends ApiObject<T>> Optional<T> get(Class<T> kind, String namespace, String name) {
    return delegate.get(kind, namespace, name);
  }

  @Override
  public <T extends ApiObject<T>> T require(Class<T> kind, String namespace, String name) {
    return delegate.require(kind, namespace, name);
  }

  @Override
  public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace) {
    return delegate.list(kind, namespace);
  }

  @Override
  public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace, LabelSelector selector) {
    return delegate.list(kind, namespace, selector);
  }

  @Override
  public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace,
      Predicate<? super T> filter) {
    return delegate.list(kind, namespace, filter);
  }

  @Override
  public <T extends ApiObject<T>> T update(T object) {
    return delegate.update(object);
  }

  @Override
  public <T extends ApiObject<T>> T updateStatus(T object) {
    return delegate.updateStatus(object);
  }

  @Override
  public io.fleetkit.api.core.Pod resize(io.fleetkit.api.core.Pod pod) {
    return delegate.resize(pod);
  }

  @Override
  public io.fleetkit.api.core.Namespace finalizeNamespace(io.fleetkit.api.core.Namespace namespace) {
    return delegate.finalizeNamespace(namespace);
  }

  /** Forwarded as one write: it is the store's binding path, which two writes cannot replace. */
  @Override
  public <T extends ApiObject<T>> T updateWithStatus(T object) {
    return delegate.updateWithStatus(object);
  }

  /**
   * Every deletion: the overloads without options or with preconditions only call this one, so a subclass that
   * observes deletions overrides it alone.
   */
  @Override
  public <T extends ApiObject<T>> T delete(Class<T> kind, String namespace, String name, DeleteOptions options) {
    return delegate.delete(kind, namespace, name, options);
  }

  @Override
  public <T extends ApiObject<T>> Watch watch(Class<T> kind, String fromResourceVersion,
      WatchListener<T> listener) {
    return delegate.watch(kind, fromResourceVersion, listener);
  }

  @Override
  public String resourceVersion() {
    return delegate.resourceVersion();
  }

  @Override
  public boolean sharedWithOtherProcesses() {
    return delegate.sharedWithOtherProcesses();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
