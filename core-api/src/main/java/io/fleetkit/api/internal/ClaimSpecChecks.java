package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimTemplate;
import io.fleetkit.api.labels.Validation;
import io.fleetkit.api.resource.Quantity;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The rules of a claim's spec (Kubernetes' {@code ValidatePersistentVolumeClaimSpec} for the fields FleetKit
 * models), shared by PersistentVolumeClaim and by the claim templates of generic ephemeral volumes
 * ({@code ValidatePersistentVolumeClaimTemplate}), and the access-mode rule PersistentVolume shares.
 */
public final class ClaimSpecChecks {
  /** The resource name of a claim's size. */
  public static final String STORAGE = "storage";
  /** Upstream's {@code TotalAnnotationSizeLimitB}: keys and values together, in bytes. */
  static final int TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

  private ClaimSpecChecks() {}

  /** At least one mode, no duplicates, and ReadWriteOncePod only on its own. */
  public static void accessModes(Violations v, String field, List<PersistentVolumeAccessMode> modes,
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

  /**
   * A claim's spec under {@code path} (e.g. {@code spec}): at least one access mode, {@code resources.requests
   * .storage} greater than zero, a valid selector, a class name (when not empty) and a volume name that are DNS-1123
   * subdomains.
   */
  public static void spec(Violations v, String path, PersistentVolumeClaimSpec spec) {
    accessModes(v, path + ".accessModes", spec.accessModes(), "at least 1 access mode is required");
    if (!spec.resources().requests().has(STORAGE)) {
      v.required(path + ".resources.requests.storage");
    } else {
      Quantity q = spec.resources().requests().get(STORAGE);
      if (q.signum() <= 0) {
        v.add(path + ".resources.requests.storage", "must be greater than zero", q);
      }
    }
    v.labelSelector(path + ".selector", spec.selector());
    String className = spec.storageClassName();
    if (className != null && !className.isEmpty()) {
      v.dnsSubdomain(path + ".storageClassName", className);
    }
    if (!spec.volumeName().isEmpty()) {
      v.dnsSubdomain(path + ".volumeName", spec.volumeName());
    }
  }

  /**
   * A claim template under {@code path} (upstream's {@code ValidatePersistentVolumeClaimTemplate}): the labels, the
   * annotation keys ({@code ValidateAnnotations}: qualified names in any case, at most 256 KiB in all) and the spec.
   */
  public static void template(Violations v, String path, PersistentVolumeClaimTemplate t) {
    annotations(v, path + ".metadata.annotations", t.annotations());
    v.labels(path + ".metadata.labels", t.labels());
    spec(v, path + ".spec", t.spec());
  }

  /**
   * Kubernetes' {@code ValidateAnnotations}: every key a qualified name (in any case), keys and values at most 256 KiB
   * in all.
   */
  public static void annotations(Violations v, String field, Map<String, String> annotations) {
    long size = 0;
    for (Map.Entry<String, String> e : annotations.entrySet()) {
      for (String msg : Validation.isQualifiedName(e.getKey().toLowerCase(Locale.ROOT))) {
        v.add(field, msg, e.getKey());
      }
      size += e.getKey().getBytes(StandardCharsets.UTF_8).length
          + e.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
      v.add(field, "Too long: must have at most " + TOTAL_ANNOTATION_SIZE_LIMIT + " bytes", size);
    }
  }
}
