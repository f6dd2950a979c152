package io.fleetkit.api.admission;

/** The store operation an {@link AdmissionRequest} is about. */
public enum AdmissionOperation {
  CREATE,
  /** {@code update} (metadata and spec); status updates are not admitted, as the plugins here ignore them upstream. */
  UPDATE,
  DELETE
}
