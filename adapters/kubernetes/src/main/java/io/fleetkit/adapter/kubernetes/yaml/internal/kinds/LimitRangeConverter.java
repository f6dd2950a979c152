package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.LimitRangeItemBuilder;
import io.fabric8.kubernetes.api.model.LimitRangeSpecBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.LimitRange;
import io.fleetkit.api.core.LimitRangeItem;
import io.fleetkit.api.core.LimitRangeSpec;
import io.fleetkit.api.core.LimitType;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/** v1 LimitRange: items of type Container, Pod or PersistentVolumeClaim; Container items get the API defaults. */
public final class LimitRangeConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.LimitRange, LimitRange> {
  public LimitRangeConverter() {
    super(LimitRange.API_VERSION, LimitRange.KIND, true,
        io.fabric8.kubernetes.api.model.LimitRange.class, LimitRange.class);
  }

  @Override
  public @Nullable LimitRange toCore(io.fabric8.kubernetes.api.model.LimitRange in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var items = Fabric8Scheduling.list(in.getSpec() == null ? null : in.getSpec().getLimits(), "spec.limits", ctx,
        (i, p, cx) -> {
          LimitType type = Values.requiredEnum(LimitType.class, i.getType(), p + ".type", cx);
          var max = Values.resources(i.getMax(), p + ".max", cx);
          var min = Values.resources(i.getMin(), p + ".min", cx);
          var dflt = Values.resources(i.getDefault(), p + ".default", cx);
          var dreq = Values.resources(i.getDefaultRequest(), p + ".defaultRequest", cx);
          Map<String, Quantity> ratio = new LinkedHashMap<>();
          if (i.getMaxLimitRequestRatio() != null) {
            i.getMaxLimitRequestRatio().forEach((k, q) -> {
              Quantity parsed = Values.quantity(q == null ? null : q.toString(), p + ".maxLimitRequestRatio." + k,
                  cx);
              if (parsed != null) {
                ratio.put(k, parsed);
              }
            });
          }
          // The API server defaults Container items (SetDefaults_LimitRangeItem) before storing them.
          return type == null ? null
              : cx.build(p, () -> new LimitRangeItem(type, max, min, dflt, dreq, ratio).defaulted());
        });
    return ctx.build("", () -> new LimitRange(meta, new LimitRangeSpec(items)));
  }

  @Override
  public io.fabric8.kubernetes.api.model.LimitRange toFabric8(LimitRange in) {
    return new LimitRangeBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new LimitRangeSpecBuilder().withLimits(in.spec().limits().stream().map(i -> {
          Map<String, io.fabric8.kubernetes.api.model.Quantity> ratio = new TreeMap<>();
          i.maxLimitRequestRatio().forEach((k, q) -> ratio.put(k, new io.fabric8.kubernetes.api.model.Quantity(
              q.toString())));
          return new LimitRangeItemBuilder().withType(i.type().name())
              .withMax(Values.resources(i.max())).withMin(Values.resources(i.min()))
              .withDefault(Values.resources(i.defaultLimit()))
              .withDefaultRequest(Values.resources(i.defaultRequest()))
              .withMaxLimitRequestRatio(Values.emptyToNull(ratio)).build();
        }).toList()).build())
        .build();
  }
}
