package io.fleetkit.cli;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchListener;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** A store that reports every successful write as a line {@code WRITE <op> <kind> <namespace>/<name>}. */
record WriteLog(ObjectStore store, Consumer<String> report) implements ObjectStore {
  private <T extends ApiObject<T>> T said(String op, T o) {
    report.accept("WRITE " + op + " " + o.getClass().getSimpleName() + " " + o.metadata().namespace() + "/"
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
  public boolean sharedWithOtherProcesses() {
    return store.sharedWithOtherProcesses();
  }

  @Override
  public void close() {
    store.close();
  }
}
