package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.ResourceQuotaSpecBuilder;
import io.fabric8.kubernetes.api.model.ResourceQuotaStatusBuilder;
import io.fabric8.kubernetes.api.model.ScopeSelectorBuilder;
import io.fabric8.kubernetes.api.model.ScopedResourceSelectorRequirementBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaScope;
import io.fleetkit.api.core.ResourceQuotaSpec;
import io.fleetkit.api.core.ResourceQuotaStatus;
import io.fleetkit.api.core.ScopeSelectorOperator;
import io.fleetkit.api.core.ScopedResourceSelectorRequirement;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** v1 ResourceQuota: hard limits, scopes, scope selector, and the status (hard, used). */
public final class ResourceQuotaConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.ResourceQuota, ResourceQuota> {
  public ResourceQuotaConverter() {
    super(ResourceQuota.API_VERSION, ResourceQuota.KIND, true,
        io.fabric8.kubernetes.api.model.ResourceQuota.class, ResourceQuota.class);
  }

  @Override
  public @Nullable ResourceQuota toCore(io.fabric8.kubernetes.api.model.ResourceQuota in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec() == null ? new io.fabric8.kubernetes.api.model.ResourceQuotaSpec() : in.getSpec();
    ResourceList hard = quotaResources(s.getHard(), "spec.hard", ctx);
    List<ResourceQuotaScope> scopes = Values.enumList(ResourceQuotaScope.class, s.getScopes(), "spec.scopes", ctx);
    List<ScopedResourceSelectorRequirement> selector = Fabric8Scheduling.list(
        s.getScopeSelector() == null ? null : s.getScopeSelector().getMatchExpressions(),
        "spec.scopeSelector.matchExpressions", ctx, (r, p, cx) -> {
          var scope = Values.requiredEnum(ResourceQuotaScope.class, r.getScopeName(), p + ".scopeName", cx);
          var op = Values.requiredEnum(ScopeSelectorOperator.class, r.getOperator(), p + ".operator", cx);
          var values = Values.stringList(r.getValues(), p + ".values", cx);
          return scope == null || op == null ? null
              : cx.build(p, () -> new ScopedResourceSelectorRequirement(scope, op, values));
        });
    var st = in.getStatus();
    ResourceQuotaStatus status = st == null ? ResourceQuotaStatus.EMPTY : new ResourceQuotaStatus(
        quotaResources(st.getHard(), "status.hard", ctx), quotaResources(st.getUsed(), "status.used", ctx));
    return ctx.build("", () -> new ResourceQuota(meta, new ResourceQuotaSpec(hard, scopes, selector), status));
  }

  /**
   * Like {@link Values#resources} but also checks whole numbers for counts here, before {@link ResourceList}
   * rounds {@code pods} to whole units (which would hide {@code pods: 1500m}).
   */
  private static ResourceList quotaResources(@Nullable Map<String, io.fabric8.kubernetes.api.model.Quantity> in,
      String path, DocumentContext ctx) {
    if (in == null) {
      return ResourceList.EMPTY;
    }
    Map<String, io.fabric8.kubernetes.api.model.Quantity> whole = new java.util.LinkedHashMap<>(in);
    for (Map.Entry<String, io.fabric8.kubernetes.api.model.Quantity> e : in.entrySet()) {
      String name = e.getKey();
      var q = e.getValue();
      if (q != null && ResourceQuota.isIntegerResource(name)) {
        try {
          if (Quantity.parse(q.toString()).milliValue() % 1000 != 0) {
            ctx.error(path + "[" + name + "]", "must be an integer", q.toString());
            whole.remove(name);
          }
        } catch (RuntimeException ignored) {
          // a malformed quantity is reported by Values.resources below
        }
      }
    }
    return Values.resources(whole, path, ctx);
  }

  @Override
  public io.fabric8.kubernetes.api.model.ResourceQuota toFabric8(ResourceQuota in) {
    ResourceQuotaSpec s = in.spec();
    ResourceQuotaStatus st = in.status();
    return new ResourceQuotaBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new ResourceQuotaSpecBuilder()
            .withHard(Values.resources(s.hard()))
            .withScopes(Values.names(s.scopes()))
            .withScopeSelector(s.scopeSelector().isEmpty() ? null : new ScopeSelectorBuilder()
                .withMatchExpressions(s.scopeSelector().stream().map(r -> new ScopedResourceSelectorRequirementBuilder()
                    .withScopeName(r.scopeName().name()).withOperator(r.operator().name())
                    .withValues(Values.emptyToNull(r.values())).build()).toList())
                .build())
            .build())
        .withStatus(st.equals(ResourceQuotaStatus.EMPTY) ? null : new ResourceQuotaStatusBuilder()
            .withHard(Values.resources(st.hard())).withUsed(Values.resources(st.used())).build())
        .build();
  }
}
