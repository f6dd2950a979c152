package io.fleetkit.api.admission;

import io.fleetkit.api.store.ObjectStore;

/**
 * Accepts or refuses an object after every mutating plugin has run, in chain order. It may not change the object;
 * it may have a side effect that it reports with {@link AdmissionVerdict#allowWithUndo}.
 */
public interface ValidatingAdmissionPlugin extends AdmissionPlugin {

  /**
   * Decides on {@code request}: {@link AdmissionVerdict#allow()}, {@link AdmissionVerdict#allowWithUndo} or
   * {@link AdmissionVerdict#deny}.
   *
   * @param store the store being written, for reads and for {@code updateStatus} of other objects
   */
  AdmissionVerdict validate(AdmissionRequest request, ObjectStore store);
}
