package io.fleetkit.api;

import org.jspecify.annotations.Nullable;

/**
 * The store's backend (for the etcd store: the etcd cluster) could not be reached or did not answer within the
 * store's request timeout. The message names the endpoints, the operation and the object. Whether a write that
 * failed this way took effect is unknown: read the object again before retrying, as after any lost answer. The
 * in-memory store never throws it.
 */
public class StoreUnavailableException extends FleetKitException {
  public StoreUnavailableException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
