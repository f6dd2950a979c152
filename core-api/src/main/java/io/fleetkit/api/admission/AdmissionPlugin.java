package io.fleetkit.api.admission;

/**
 * An admission plugin: code the store runs, in process, before it stores a create, update or delete (the embedded
 * form of Kubernetes' admission controllers and webhooks). A plugin implements {@link MutatingAdmissionPlugin},
 * {@link ValidatingAdmissionPlugin} or both; a plugin that is both runs in each phase.
 */
public interface AdmissionPlugin {
  /** A unique name, e.g. {@code ResourceQuota}; denials name it. */
  String name();
}
