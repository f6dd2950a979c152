package io.fleetkit.queueing;

/**
 * The extension point for admission check controllers (Kueue's AdmissionCheck controllers, such as its
 * ProvisioningRequest or MultiKueue controllers): it evaluates the checks whose {@link AdmissionCheck#controllerName()}
 * is its {@link #controllerName()}.
 *
 * <p>The engine asks it, during {@linkplain AdmissionEngine#schedule() cycles} and under the engine's lock, about every
 * {@link CheckState#PENDING} check of every workload that has quota reserved (right after the reservation, and again
 * in every later cycle while the check stays pending). It must be idempotent, quick and must not call back into the
 * engine. A runtime exception leaves the check pending, with the exception's message as the check's message.
 */
public interface AdmissionCheckController {
  /** The {@link AdmissionCheck#controllerName()} this controller evaluates. */
  String controllerName();

  /**
   * Decides the check {@code check} of {@code workload}, whose quota {@code reservation} reserved.
   *
   * @param current the check's current state (pending)
   * @return the verdict; {@link CheckVerdict#pending} to be asked again
   */
  CheckVerdict evaluate(AdmissionCheck check, Workload workload, QuotaReservation reservation,
      AdmissionCheckState current);
}
