package io.fleetkit.storage.provision;

import io.fleetkit.api.core.PersistentVolume;
import java.util.Objects;

/** The outcome of {@link VolumeProvisioner#provision}: a new volume, or why there is none. */
public sealed interface ProvisionResult {

  /** The volume to create. The controller sets its claim reference, annotations and phase. */
  record Provisioned(PersistentVolume volume) implements ProvisionResult {
    public Provisioned {
      Objects.requireNonNull(volume, "volume");
    }
  }

  /** Provisioning failed; {@code message} says why (shown on the claim's ProvisioningFailed condition). */
  record Failed(String message) implements ProvisionResult {
    public Failed {
      Objects.requireNonNull(message, "message");
    }
  }

  static ProvisionResult provisioned(PersistentVolume volume) {
    return new Provisioned(volume);
  }

  static ProvisionResult failed(String message) {
    return new Failed(message);
  }
}
