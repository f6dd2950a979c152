package io.fleetkit.api.store.spi;

import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespacePhase;

/**
 * Kubernetes' {@code ValidateNamespaceStatusUpdate}: a namespace's phase is {@code Active} while it has no
 * {@code deletionTimestamp} and {@code Terminating} once it has one. The timestamp is the stored one: a status
 * write keeps the stored metadata, and only a deletion sets it. (The spec and metadata rules of
 * {@code ValidateNamespaceUpdate} and {@code ValidateNamespaceFinalizeUpdate} are the namespace's own checks when
 * it is built.) Stateless.
 */
final class NamespaceStatusRule {
  static final String ACTIVE = "may only be 'Active' if `deletionTimestamp` is empty";
  static final String TERMINATING = "may only be 'Terminating' if `deletionTimestamp` is not empty";

  private NamespaceStatusRule() {}

  static void check(Namespace stored, Namespace updated) {
    NamespacePhase phase = updated.status().phase();
    if (phase == stored.status().phase()) {
      return;
    }
    boolean deleting = stored.metadata().deletionTimestamp() != null;
    if (!deleting && phase != NamespacePhase.Active) {
      UpdateChecks.violations(updated).add("status.phase", ACTIVE, phase).throwIfAny();
    } else if (deleting && phase != NamespacePhase.Terminating) {
      UpdateChecks.violations(updated).add("status.phase", TERMINATING, phase).throwIfAny();
    }
  }
}
