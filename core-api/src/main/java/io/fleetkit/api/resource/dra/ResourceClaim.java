package io.fleetkit.api.resource.dra;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A ResourceClaim ({@code resource.k8s.io/v1}, namespaced): a request for devices, and once allocated, the devices.
 *
 * <p>The constructor checks Kubernetes' rules ({@code ValidateResourceClaim} and the status rules): the name is a
 * DNS-1123 subdomain; at most 32 requests with unique DNS-label names, each with exactly one of {@code exactly} and
 * {@code firstAvailable} (at most 8 alternatives with unique DNS-label names); a class name that is a DNS subdomain;
 * count at least 1 for ExactCount and unset for All; at most 32 selectors per request, each in the supported CEL
 * subset; at most 32 constraints naming requests of the claim ({@code request} or {@code request/subrequest}) with a
 * fully qualified {@code matchAttribute}; at most 16 tolerations per request or alternative, each with a label-name
 * key (when set) and, for Equal, a label value (Exists: no value); allocation results naming requests of the claim the same way, at most 32; {@code reservedFor} only when allocated, unique by UID, at most
 * 256. It throws {@link io.fleetkit.api.ValidationException} when a rule is broken.
 */
public record ResourceClaim(ObjectMeta metadata, ResourceClaimSpec spec, ResourceClaimStatus status)
    implements ApiObject<ResourceClaim> {
  public static final String API_VERSION = "resource.k8s.io/v1";
  public static final String KIND = "ResourceClaim";

  public ResourceClaim {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    validate(metadata, spec, status);
  }

  /** A new, unallocated claim. */
  public static ResourceClaim of(ObjectMeta metadata, ResourceClaimSpec spec) {
    return new ResourceClaim(metadata, spec, ResourceClaimStatus.INITIAL);
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public ResourceClaim withMetadata(ObjectMeta m) {
    return new ResourceClaim(m, spec, status);
  }

  public ResourceClaim withStatus(ResourceClaimStatus s) {
    return new ResourceClaim(metadata, spec, s);
  }

  @Override
  public ResourceClaim withStatusOf(ResourceClaim other) {
    return withStatus(other.status);
  }

  /** Whether {@code status.allocation} is set. */
  public boolean allocated() {
    return status.allocation() != null;
  }

  private static void validate(ObjectMeta metadata, ResourceClaimSpec spec, ResourceClaimStatus status) {
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    DraChecks.deviceClaim(v, "spec.devices", spec.devices());
    AllocationResult a = status.allocation();
    if (a != null) {
      Set<String> requests = DraChecks.requestNames(spec.devices());
      List<DeviceRequestAllocationResult> results = a.devices();
      if (results.size() > AllocationResult.MAX_RESULTS) {
        v.add("status.allocation.devices.results", DraChecks.tooMany(AllocationResult.MAX_RESULTS),
            results.size());
      }
      for (int i = 0; i < results.size(); i++) {
        DeviceRequestAllocationResult r = results.get(i);
        String path = "status.allocation.devices.results[" + i + "]";
        DraChecks.requestNameRef(v, path + ".request", r.request(), requests);
        DraChecks.driverName(v, path + ".driver", r.driver());
        DraChecks.poolName(v, path + ".pool", r.pool());
        v.dnsLabel(path + ".device", r.device());
        DraChecks.tolerations(v, path + ".tolerations", r.tolerations());
      }
    }
    List<ResourceClaimConsumerReference> reserved = status.reservedFor();
    if (a == null && !reserved.isEmpty()) {
      v.add("status.reservedFor", "Forbidden: may not be specified when `allocated` is not set", null);
    }
    if (reserved.size() > ResourceClaimStatus.MAX_RESERVED_FOR) {
      v.add("status.reservedFor", DraChecks.tooMany(ResourceClaimStatus.MAX_RESERVED_FOR), reserved.size());
    }
    Set<String> uids = new HashSet<>();
    for (int i = 0; i < reserved.size(); i++) {
      ResourceClaimConsumerReference r = reserved.get(i);
      String path = "status.reservedFor[" + i + "]";
      if (r.resource().isEmpty()) {
        v.required(path + ".resource");
      }
      if (r.name().isEmpty()) {
        v.required(path + ".name");
      }
      if (r.uid().isEmpty()) {
        v.required(path + ".uid");
      } else if (!uids.add(r.uid())) {
        v.add(path, Violations.DUPLICATE, r.uid());
      }
    }
    v.throwIfAny();
  }
}
