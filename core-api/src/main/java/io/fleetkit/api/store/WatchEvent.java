package io.fleetkit.api.store;

import io.fleetkit.api.meta.ApiObject;
import java.util.Objects;

/**
 * One change delivered to a {@link WatchListener}.
 *
 * @param type what happened
 * @param object the object after the change; for {@link WatchEventType#DELETED} its last state, stamped with the
 *     resourceVersion of the removal
 * @param <T> the kind
 */
public record WatchEvent<T extends ApiObject<T>>(WatchEventType type, T object) {
  public WatchEvent {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(object, "object");
  }

  /** The resourceVersion of the change, equal to {@code object().metadata().resourceVersion()}. */
  public String resourceVersion() {
    return object.metadata().resourceVersion();
  }

  @Override
  public String toString() {
    return type + " " + object.describe() + " @" + resourceVersion();
  }
}
