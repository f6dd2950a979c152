package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.dra.DeviceTaint;
import io.fleetkit.api.resource.dra.DeviceTaintRule;
import io.fleetkit.api.resource.dra.DeviceTaintRuleSpec;
import io.fleetkit.api.resource.dra.DeviceTaintRuleStatus;
import io.fleetkit.api.resource.dra.DeviceTaintSelector;
import org.jspecify.annotations.Nullable;

/**
 * resource.k8s.io/v1 DeviceTaintRule:
 * <pre>
 * spec:
 *   deviceSelector: {driver: gpu.example.com, pool: node-1, device: gpu-0}   # each optional; {} selects every device
 *   taint: {key: example.com/unhealthy, value: ecc, effect: NoExecute, timeAdded: "2026-01-01T00:00:00Z"}
 * status:
 *   conditions: [{type: EvictionInProgress, status: "False", reason: Completed, ...}]
 * </pre>
 * A rule without {@code deviceSelector} selects no device, as upstream's.
 */
public final class DeviceTaintRuleConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule, DeviceTaintRule> {
  public DeviceTaintRuleConverter() {
    super(DeviceTaintRule.API_VERSION, DeviceTaintRule.KIND, false,
        io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule.class, DeviceTaintRule.class);
  }

  @Override
  public @Nullable DeviceTaintRule toCore(io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    var s = in.getSpec();
    if (s == null || s.getTaint() == null) {
      ctx.error("spec.taint", "is required", null);
      return null;
    }
    var sel = s.getDeviceSelector();
    DeviceTaintSelector selector = sel == null ? null
        : new DeviceTaintSelector(sel.getDriver(), sel.getPool(), sel.getDevice());
    DeviceTaint taint = DraYaml.taint(s.getTaint(), "spec.taint", ctx);
    var st = in.getStatus();
    var conditions = GatewayApiStatusYaml.conditions(st == null ? null : st.getConditions(), "status.conditions",
        ctx);
    if (ctx.hasErrors() || taint == null) {
      return null;
    }
    return ctx.build("", () -> new DeviceTaintRule(meta, new DeviceTaintRuleSpec(selector, taint),
        new DeviceTaintRuleStatus(conditions)));
  }

  @Override
  public io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule toFabric8(DeviceTaintRule in) {
    var spec = new io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleSpec();
    DeviceTaintSelector sel = in.spec().deviceSelector();
    if (sel != null) {
      var f = new io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintSelector();
      f.setDriver(sel.driver());
      f.setPool(sel.pool());
      f.setDevice(sel.device());
      spec.setDeviceSelector(f);
    }
    spec.setTaint(DraYaml.taint(in.spec().taint()));
    var out = new io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule();
    out.setApiVersion(apiVersion());
    out.setKind(kind());
    out.setMetadata(Fabric8Meta.toFabric8(in.metadata()));
    out.setSpec(spec);
    if (!in.status().conditions().isEmpty()) {
      var status = new io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRuleStatus();
      status.setConditions(GatewayApiStatusYaml.conditionsOut(in.status().conditions()));
      out.setStatus(status);
    }
    return out;
  }
}
