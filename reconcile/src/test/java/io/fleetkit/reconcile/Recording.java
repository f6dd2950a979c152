package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A handler that records what it was told as strings like {@code add ns/a} or {@code update ns/a 3->4}. */
final class Recording<T extends ApiObject<T>> implements ResourceEventHandler<T> {
  final List<String> events = new CopyOnWriteArrayList<>();

  @Override
  public void onAdd(T object) {
    events.add("add " + object.metadata().key());
  }

  @Override
  public void onUpdate(T oldObject, T newObject) {
    events.add("update " + newObject.metadata().key() + " " + oldObject.metadata().resourceVersion() + "->"
        + newObject.metadata().resourceVersion());
  }

  @Override
  public void onDelete(T object, boolean finalStateUnknown) {
    events.add("delete " + object.metadata().key() + (finalStateUnknown ? " (unknown)" : ""));
  }
}
