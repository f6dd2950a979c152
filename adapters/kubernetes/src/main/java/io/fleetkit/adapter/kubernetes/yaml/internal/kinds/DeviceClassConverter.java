package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.dra.DeviceClass;
import io.fleetkit.api.resource.dra.DeviceClassSpec;
import org.jspecify.annotations.Nullable;

/**
 * resource.k8s.io/v1 DeviceClass: {@code spec.selectors} (CEL). Class configuration and extended resource names are
 * refused: FleetKit does not model them.
 */
public final class DeviceClassConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.resource.v1.DeviceClass, DeviceClass> {
  public DeviceClassConverter() {
    super(DeviceClass.API_VERSION, DeviceClass.KIND, false,
        io.fabric8.kubernetes.api.model.resource.v1.DeviceClass.class, DeviceClass.class);
  }

  @Override
  public @Nullable DeviceClass toCore(io.fabric8.kubernetes.api.model.resource.v1.DeviceClass in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    var s = in.getSpec();
    if (s == null) {
      return ctx.build("", () -> new DeviceClass(meta, DeviceClassSpec.of()));
    }
    DraYaml.unsupported(s.getConfig(), "spec.config", "class configuration (opaque driver parameters)", ctx);
    DraYaml.unsupported(s.getExtendedResourceName(), "spec.extendedResourceName",
        "extended resources backed by device classes", ctx);
    var selectors = DraYaml.selectors(s.getSelectors(), "spec.selectors", ctx);
    return ctx.hasErrors() ? null : ctx.build("", () -> new DeviceClass(meta, new DeviceClassSpec(selectors)));
  }

  @Override
  public io.fabric8.kubernetes.api.model.resource.v1.DeviceClass toFabric8(DeviceClass in) {
    var spec = new io.fabric8.kubernetes.api.model.resource.v1.DeviceClassSpec();
    spec.setSelectors(DraYaml.selectors(in.spec().selectors()));
    var out = new io.fabric8.kubernetes.api.model.resource.v1.DeviceClass();
    out.setApiVersion(apiVersion());
    out.setKind(kind());
    out.setMetadata(Fabric8Meta.toFabric8(in.metadata()));
    out.setSpec(spec);
    return out;
  }
}
