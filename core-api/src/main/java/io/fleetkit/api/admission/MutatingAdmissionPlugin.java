package io.fleetkit.api.admission;

import io.fleetkit.api.store.ObjectStore;

/**
 * Changes an object before it is validated and stored (defaults, annotations). Runs before every validating plugin,
 * in chain order, each seeing the changes of those before it.
 */
public interface MutatingAdmissionPlugin extends AdmissionPlugin {

  /**
   * Admits {@code request}, possibly changed: {@link AdmissionVerdict#allow()},
   * {@link AdmissionVerdict#mutate(io.fleetkit.api.meta.ApiObject)} or {@link AdmissionVerdict#deny}.
   *
   * @param store the store being written, for reads (never call a write that is itself admitted from here)
   */
  AdmissionVerdict mutate(AdmissionRequest request, ObjectStore store);
}
