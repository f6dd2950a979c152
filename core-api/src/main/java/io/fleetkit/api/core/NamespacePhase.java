package io.fleetkit.api.core;

/** The lifecycle phase of a {@link Namespace}. */
public enum NamespacePhase {
  /** The namespace accepts new objects. */
  Active,
  /** The namespace is being deleted: no new objects may be created in it, its content is being removed. */
  Terminating
}
