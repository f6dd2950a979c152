package io.fleetkit.api.meta;

import org.jspecify.annotations.Nullable;

/**
 * What every stored kind is: an immutable record with metadata, a desired part (spec) and an observed part
 * (status). The object store relies on this contract to bump {@code generation} when, and only when, the spec
 * changes, and to keep spec and status updates apart.
 *
 * @param <T> the implementing record type
 */
public interface ApiObject<T extends ApiObject<T>> {

  /** The Kubernetes {@code apiVersion}, e.g. {@code v1} or {@code apps/v1}. */
  String apiVersion();

  /** The Kubernetes {@code kind}, e.g. {@code Pod}. */
  String kind();

  /** Whether objects of this kind live in a namespace. */
  boolean namespaced();

  ObjectMeta metadata();

  /** This object with other metadata. */
  T withMetadata(ObjectMeta metadata);

  /**
   * The desired part; the store bumps {@code generation} when it changes. Kinds without a separate spec return a
   * value holding their desired fields.
   */
  Object spec();

  /** The observed part, or {@code null} for kinds without status. */
  @Nullable Object status();

  /** This object with the status of {@code other} (spec and metadata kept). Kinds without status return this. */
  T withStatusOf(T other);

  /** {@code Kind namespace/name}, the way errors and logs name an object. */
  default String describe() {
    return kind() + " " + metadata().key();
  }
}
