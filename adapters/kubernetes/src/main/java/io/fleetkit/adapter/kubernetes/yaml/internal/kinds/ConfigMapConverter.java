package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** v1 ConfigMap: {@code data} as text, {@code binaryData} as base64 in YAML. */
public final class ConfigMapConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.ConfigMap, ConfigMap> {
  public ConfigMapConverter() {
    super(ConfigMap.API_VERSION, ConfigMap.KIND, true,
        io.fabric8.kubernetes.api.model.ConfigMap.class, ConfigMap.class);
  }

  @Override
  public @Nullable ConfigMap toCore(io.fabric8.kubernetes.api.model.ConfigMap in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    Map<String, String> data = Values.stringMap(in.getData(), "data", ctx);
    Map<String, Bytes> binary = SecretConverter.base64Map(in.getBinaryData(), "binaryData", ctx);
    return ctx.build("", () -> new ConfigMap(meta, data, binary, Values.boolOr(in.getImmutable(), false)));
  }

  @Override
  public io.fabric8.kubernetes.api.model.ConfigMap toFabric8(ConfigMap in) {
    return new ConfigMapBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withData(Values.emptyToNull(in.data()))
        .withBinaryData(SecretConverter.base64(in.binaryData()))
        .withImmutable(in.immutable() ? Boolean.TRUE : null)
        .build();
  }
}
