package io.fleetkit.cli;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import java.util.function.Consumer;

/** A store that reports every successful write as a line {@code WRITE <op> <kind> <namespace>/<name>}. */
final class WriteLog extends ForwardingObjectStore {
  private final Consumer<String> report;

  WriteLog(ObjectStore store, Consumer<String> report) {
    super(store);
    this.report = report;
  }

  private <T extends ApiObject<T>> T said(String op, T o) {
    report.accept("WRITE " + op + " " + o.getClass().getSimpleName() + " " + o.metadata().namespace() + "/"
        + o.metadata().name());
    return o;
  }

  @Override
  public <T extends ApiObject<T>> T create(T object) {
    return said("create", super.create(object));
  }

  @Override
  public <T extends ApiObject<T>> T update(T object) {
    return said("update", super.update(object));
  }

  @Override
  public <T extends ApiObject<T>> T updateStatus(T object) {
    return said("status", super.updateStatus(object));
  }

  @Override
  public io.fleetkit.api.core.Namespace finalizeNamespace(io.fleetkit.api.core.Namespace namespace) {
    return said("finalize", super.finalizeNamespace(namespace));
  }

  @Override
  public io.fleetkit.api.core.Pod resize(io.fleetkit.api.core.Pod pod) {
    return said("resize", super.resize(pod));
  }

  /** One write of metadata, spec and status (a binding), reported as an update. */
  @Override
  public <T extends ApiObject<T>> T updateWithStatus(T object) {
    return said("update", super.updateWithStatus(object));
  }

  @Override
  public <T extends ApiObject<T>> T delete(Class<T> kind, String namespace, String name, DeleteOptions options) {
    return said("delete", super.delete(kind, namespace, name, options));
  }
}
