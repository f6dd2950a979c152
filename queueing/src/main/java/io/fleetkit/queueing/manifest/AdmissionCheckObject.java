package io.fleetkit.queueing.manifest;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.queueing.AdmissionCheck;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A Kueue {@code AdmissionCheck} read from a manifest: its metadata and the queueing module's {@link AdmissionCheck}
 * ({@code spec.controllerName} and the optional {@code spec.parameters}). Whether the check is Active is its
 * controller's to say, not the manifest's: {@link KueueManifests#addTo} decides it from the controllers a run has.
 *
 * <p>Validation, as Kueue's CRD schema does on creation ({@code apis/kueue/v1beta2/admissioncheck_types.go}), all
 * problems at once: {@code spec.controllerName} 1 to 253 characters; with {@code spec.parameters}, its {@code
 * apiGroup} a DNS subdomain, its {@code kind} a letter then letters, digits and dashes (at most 63), its {@code name}
 * a DNS label, each required.
 *
 * @param apiVersion the version it was written in, one of {@link KueueObject#VERSIONS}
 * @param metadata its metadata; the name is the record's
 * @param spec the desired state
 */
public record AdmissionCheckObject(String apiVersion, ObjectMeta metadata, AdmissionCheck spec)
    implements KueueObject<AdmissionCheckObject> {
  /** Kueue's limit on {@code spec.controllerName}. */
  public static final int MAX_CONTROLLER_NAME = 253;
  private static final Pattern KIND = Pattern.compile("^(?i)[a-z]([-a-z0-9]*[a-z0-9])?$");

  public AdmissionCheckObject {
    Objects.requireNonNull(spec, "spec");
    KueueObject.check(AdmissionCheck.KIND, apiVersion, metadata, spec.name(), "");
    Violations v = new Violations(AdmissionCheck.KIND, "", spec.name());
    if (spec.controllerName().length() > MAX_CONTROLLER_NAME) {
      v.add("spec.controllerName", "must be no more than " + MAX_CONTROLLER_NAME + " characters",
          spec.controllerName().length());
    }
    AdmissionCheck.Parameters p = spec.parameters();
    if (p != null) {
      v.dnsSubdomain("spec.parameters.apiGroup", p.apiGroup());
      if (p.kind().isEmpty()) {
        v.required("spec.parameters.kind");
      } else if (p.kind().length() > 63 || !KIND.matcher(p.kind()).matches()) {
        v.add("spec.parameters.kind", "must be at most 63 characters, a letter followed by letters, digits and"
            + " '-', ending with a letter or digit (regex '^(?i)[a-z]([-a-z0-9]*[a-z0-9])?$')", p.kind());
      }
      v.dnsLabel("spec.parameters.name", p.name());
    }
    v.throwIfAny();
  }

  /** The object of {@code spec} in Kueue's storage version, with only a name as metadata. */
  public static AdmissionCheckObject of(AdmissionCheck spec) {
    return new AdmissionCheckObject(V1BETA2, ObjectMeta.of(spec.name()), spec);
  }

  @Override
  public String kind() {
    return AdmissionCheck.KIND;
  }

  @Override
  public boolean namespaced() {
    return false;
  }

  @Override
  public AdmissionCheckObject withMetadata(ObjectMeta newMetadata) {
    return new AdmissionCheckObject(apiVersion, newMetadata, spec);
  }
}
