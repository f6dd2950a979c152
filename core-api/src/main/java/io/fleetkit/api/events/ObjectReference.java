package io.fleetkit.api.events;

import io.fleetkit.api.meta.ApiObject;
import java.util.Objects;

/**
 * A reference to an object an event is about (core/v1 ObjectReference, as events use it).
 *
 * @param fieldPath the part of the object, e.g. {@code spec.containers{web}}; empty for the whole object
 */
public record ObjectReference(String apiVersion, String kind, String namespace, String name, String uid,
    String fieldPath) {
  public ObjectReference {
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uid, "uid");
    Objects.requireNonNull(fieldPath, "fieldPath");
  }

  /** A reference to the whole of {@code object}. */
  public static ObjectReference to(ApiObject<?> object) {
    return new ObjectReference(object.apiVersion(), object.kind(), object.metadata().namespace(),
        object.metadata().name(), object.metadata().uid(), "");
  }

  /** This reference with {@code fieldPath}. */
  public ObjectReference withFieldPath(String path) {
    return new ObjectReference(apiVersion, kind, namespace, name, uid, path);
  }

  /** {@code Kind namespace/name}. */
  @Override
  public String toString() {
    return kind + " " + (namespace.isEmpty() ? name : namespace + "/" + name);
  }
}
