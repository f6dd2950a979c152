package io.fleetkit.store.etcd.internal;

import tools.jackson.core.JsonParser;
import tools.jackson.databind.DatabindException;

/**
 * Stored JSON that does not fit this version's form of a kind: a property it does not know, a required property
 * missing or {@code null}, values the record's constructor refuses, or a value that matches none of a sealed type's
 * records. Jackson prepends the path of properties and indexes to it as it unwinds; {@link ObjectCodec#decode} turns
 * it into the message the caller sees.
 */
final class StoredFormException extends DatabindException {
  private static final long serialVersionUID = 1L;

  /** The problem of a property this version does not know. */
  static final String UNKNOWN = "is not known to this FleetKit version (written by a newer one?); the object is not "
      + "read, so that a later write cannot drop it";

  /** What is wrong, in words that follow the property's path ("is not known to this FleetKit version", ...). */
  final String problem;

  StoredFormException(JsonParser p, String problem, Throwable cause) {
    super(p, problem, cause);
    this.problem = problem;
  }

  StoredFormException(JsonParser p, String problem) {
    super(p, problem);
    this.problem = problem;
  }
}
