package io.fleetkit.api.core;

import io.fleetkit.api.Violations;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Rules shared by PersistentVolume and PersistentVolumeClaim validation. */
final class VolumeRules {
  /** The resource name of a volume's size. */
  static final String STORAGE = "storage";

  private VolumeRules() {}

  /** At least one mode, no duplicates, and ReadWriteOncePod only on its own. */
  static void checkAccessModes(Violations v, String field, List<PersistentVolumeAccessMode> modes,
      String whenEmpty) {
    if (modes.isEmpty()) {
      v.required(field, whenEmpty);
      return;
    }
    Set<PersistentVolumeAccessMode> seen = EnumSet.noneOf(PersistentVolumeAccessMode.class);
    for (int i = 0; i < modes.size(); i++) {
      if (!seen.add(modes.get(i))) {
        v.add(field + "[" + i + "]", Violations.DUPLICATE, modes.get(i));
      }
    }
    if (seen.contains(PersistentVolumeAccessMode.ReadWriteOncePod) && seen.size() > 1) {
      v.add(field, "may not use ReadWriteOncePod with other access modes", modes);
    }
  }
}
