package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceAllocationResult;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.dra.AllocationResult;
import io.fleetkit.api.resource.dra.DeviceClaim;
import io.fleetkit.api.resource.dra.DeviceRequestAllocationResult;
import io.fleetkit.api.resource.dra.ResourceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimConsumerReference;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourceClaimStatus;
import io.fleetkit.api.scheduling.NodeSelector;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * resource.k8s.io/v1 ResourceClaim, as {@code kubectl get resourceclaims -o yaml} prints it: {@code spec.devices}
 * (requests with {@code exactly}, admin access and tolerations included, or with a prioritized list
 * {@code firstAvailable}; constraints with {@code matchAttribute}) and the status the scheduler writes,
 * {@code status.allocation} ({@code devices.results}, naming {@code request/subrequest} for an alternative, with
 * {@code adminAccess} and the request's {@code tolerations}, and {@code nodeSelector}) and {@code status.reservedFor}.
 * Claim configuration, capacity requests, allocated device status ({@code status.devices}) and binding
 * conditions are refused: FleetKit does not model them.
 */
public final class ResourceClaimConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim, ResourceClaim> {
  public ResourceClaimConverter() {
    super(ResourceClaim.API_VERSION, ResourceClaim.KIND, true,
        io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim.class, ResourceClaim.class);
  }

  @Override
  public @Nullable ResourceClaim toCore(io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    DeviceClaim devices = DraYaml.deviceClaim(in.getSpec() == null ? null : in.getSpec().getDevices(),
        "spec.devices", ctx);
    ResourceClaimStatus status = status(in.getStatus(), ctx);
    if (ctx.hasErrors()) {
      return null;
    }
    return ctx.build("", () -> new ResourceClaim(meta, new ResourceClaimSpec(devices), status));
  }

  private static ResourceClaimStatus status(io.fabric8.kubernetes.api.model.resource.v1.@Nullable ResourceClaimStatus s,
      DocumentContext ctx) {
    if (s == null) {
      return ResourceClaimStatus.INITIAL;
    }
    DraYaml.unsupported(s.getDevices(), "status.devices", "the device status drivers report", ctx);
    AllocationResult allocation = null;
    var a = s.getAllocation();
    if (a != null) {
      DraYaml.unsupported(a.getAllocationTimestamp(), "status.allocation.allocationTimestamp", "binding conditions",
          ctx);
      List<DeviceRequestAllocationResult> results = List.of();
      if (a.getDevices() != null) {
        DraYaml.unsupported(a.getDevices().getConfig(), "status.allocation.devices.config",
            "allocated configuration (opaque driver parameters)", ctx);
        results = Fabric8Scheduling.list(a.getDevices().getResults(), "status.allocation.devices.results", ctx,
            ResourceClaimConverter::result);
      }
      NodeSelector selector = Fabric8Scheduling.nodeSelector(a.getNodeSelector(), "status.allocation.nodeSelector",
          ctx);
      allocation = new AllocationResult(results, selector);
    }
    List<ResourceClaimConsumerReference> reserved = Fabric8Scheduling.list(s.getReservedFor(), "status.reservedFor",
        ctx, (r, p, cx) -> new ResourceClaimConsumerReference(Values.orEmpty(r.getApiGroup()),
            Values.orEmpty(r.getResource()), Values.orEmpty(r.getName()), Values.orEmpty(r.getUid())));
    return new ResourceClaimStatus(allocation, reserved);
  }

  private static DeviceRequestAllocationResult result(
      io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult r, String p, DocumentContext ctx) {
    DraYaml.unsupported(r.getBindingConditions(), p + ".bindingConditions", "binding conditions", ctx);
    DraYaml.unsupported(r.getBindingFailureConditions(), p + ".bindingFailureConditions", "binding conditions", ctx);
    DraYaml.unsupported(r.getConsumedCapacity(), p + ".consumedCapacity", "consumable capacity", ctx);
    DraYaml.unsupported(r.getShareID(), p + ".shareID", "consumable capacity", ctx);
    DraYaml.unsupported(r.getSkipNodeOperations(), p + ".skipNodeOperations", "node operations", ctx);
    return new DeviceRequestAllocationResult(Values.orEmpty(r.getRequest()), Values.orEmpty(r.getDriver()),
        Values.orEmpty(r.getPool()), Values.orEmpty(r.getDevice()), Values.boolOr(r.getAdminAccess(), false),
        DraYaml.tolerations(r.getTolerations(), p + ".tolerations", ctx));
  }

  @Override
  public io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim toFabric8(ResourceClaim in) {
    var spec = new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec();
    spec.setDevices(DraYaml.deviceClaim(in.spec().devices()));
    var out = new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim();
    out.setApiVersion(apiVersion());
    out.setKind(kind());
    out.setMetadata(Fabric8Meta.toFabric8(in.metadata()));
    out.setSpec(spec);
    out.setStatus(status(in.status()));
    return out;
  }

  private static io.fabric8.kubernetes.api.model.resource.v1.@Nullable ResourceClaimStatus status(
      ResourceClaimStatus s) {
    AllocationResult a = s.allocation();
    if (a == null && s.reservedFor().isEmpty()) {
      return null;
    }
    var out = new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus();
    if (a != null) {
      var devices = new DeviceAllocationResult();
      devices.setResults(new ArrayList<>(a.devices().stream().map(ResourceClaimConverter::result).toList()));
      var allocation = new io.fabric8.kubernetes.api.model.resource.v1.AllocationResult();
      allocation.setDevices(devices);
      allocation.setNodeSelector(Fabric8Scheduling.nodeSelector(a.nodeSelector()));
      out.setAllocation(allocation);
    }
    out.setReservedFor(Fabric8Scheduling.out(s.reservedFor(), r -> {
      var f = new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference();
      f.setApiGroup(Values.emptyToNull(r.apiGroup()));
      f.setResource(r.resource());
      f.setName(r.name());
      f.setUid(r.uid());
      return f;
    }));
    return out;
  }

  private static io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult result(
      DeviceRequestAllocationResult r) {
    var out = new io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult();
    out.setRequest(r.request());
    out.setDriver(r.driver());
    out.setPool(r.pool());
    out.setDevice(r.device());
    out.setAdminAccess(r.adminAccess() ? Boolean.TRUE : null);
    out.setTolerations(DraYaml.tolerations(r.tolerations()));
    return out;
  }
}
