package io.fleetkit.admission;

import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.resource.dra.DeviceClaim;
import io.fleetkit.api.resource.dra.DeviceRequest;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimTemplate;
import io.fleetkit.api.store.ObjectStore;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * DRA admin access is for namespaces labelled {@value #LABEL}{@code : "true"}: a ResourceClaim or ResourceClaimTemplate
 * with a request asking for {@code adminAccess} may only be created in such a namespace. Kubernetes makes this check
 * in the claim and template registries ({@code AuthorizedForAdmin}, {@code pkg/registry/resource}), against the
 * namespace as stored, with these messages: the first request asking for admin access is named. Only creation is
 * checked (the specs are immutable); deletion and status updates are always allowed.
 */
public final class DraAdminAccessPlugin implements ValidatingAdmissionPlugin {
  public static final String NAME = "DRAAdminAccess";
  /** Kubernetes' {@code DRAAdminNamespaceLabelKey}. */
  public static final String LABEL = "resource.kubernetes.io/admin-access";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public AdmissionVerdict validate(AdmissionRequest request, ObjectStore store) {
    if (request.operation() != AdmissionOperation.CREATE) {
      return AdmissionVerdict.allow();
    }
    String field;
    if (request.object() instanceof ResourceClaim claim) {
      field = adminAccessField("spec.devices", claim.spec().devices());
    } else if (request.object() instanceof ResourceClaimTemplate template) {
      field = adminAccessField("spec.spec.devices", template.spec().spec().devices());
    } else {
      return AdmissionVerdict.allow();
    }
    if (field == null) {
      return AdmissionVerdict.allow();
    }
    Optional<Namespace> ns = store.get(Namespace.class, "", request.namespace());
    if (ns.isEmpty()) {
      return AdmissionVerdict.deny(field, "Internal error: could not retrieve namespace to verify admin access: "
          + "namespaces \"" + request.namespace() + "\" not found");
    }
    if (!"true".equals(ns.get().metadata().labels().get(LABEL))) {
      return AdmissionVerdict.deny(field, "Forbidden: admin access to devices requires the `" + LABEL
          + ": true` label on the containing namespace");
    }
    return AdmissionVerdict.allow();
  }

  /** The field of the first request asking for admin access, or {@code null}. */
  private static @Nullable String adminAccessField(String prefix, DeviceClaim devices) {
    List<DeviceRequest> requests = devices.requests();
    for (int i = 0; i < requests.size(); i++) {
      var exactly = requests.get(i).exactly();
      if (exactly != null && exactly.adminAccess()) {
        return prefix + ".requests[" + i + "].exactly.adminAccess";
      }
    }
    return null;
  }
}
