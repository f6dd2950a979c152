package io.fleetkit.api.core;

import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.ClaimSpecChecks;
import java.util.List;

/** Rules shared by PersistentVolume and PersistentVolumeClaim validation. */
final class VolumeRules {
  /** The resource name of a volume's size. */
  static final String STORAGE = ClaimSpecChecks.STORAGE;

  private VolumeRules() {}

  /** At least one mode, no duplicates, and ReadWriteOncePod only on its own. */
  static void checkAccessModes(Violations v, String field, List<PersistentVolumeAccessMode> modes,
      String whenEmpty) {
    ClaimSpecChecks.accessModes(v, field, modes, whenEmpty);
  }
}
