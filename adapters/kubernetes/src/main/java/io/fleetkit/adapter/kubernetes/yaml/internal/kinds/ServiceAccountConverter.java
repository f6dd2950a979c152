package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.LocalObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.ServiceAccount;
import io.fleetkit.api.meta.ObjectMeta;
import org.jspecify.annotations.Nullable;

/** v1 ServiceAccount: secret and image-pull-secret references by name. */
public final class ServiceAccountConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.ServiceAccount, ServiceAccount> {
  public ServiceAccountConverter() {
    super(ServiceAccount.API_VERSION, ServiceAccount.KIND, true,
        io.fabric8.kubernetes.api.model.ServiceAccount.class, ServiceAccount.class);
  }

  @Override
  public @Nullable ServiceAccount toCore(io.fabric8.kubernetes.api.model.ServiceAccount in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var secrets = Fabric8Scheduling.list(in.getSecrets(), "secrets", ctx,
        (r, p, cx) -> Values.required(r.getName(), p + ".name", cx));
    var pull = Fabric8Scheduling.list(in.getImagePullSecrets(), "imagePullSecrets", ctx,
        (r, p, cx) -> Values.required(r.getName(), p + ".name", cx));
    return ctx.build("", () -> new ServiceAccount(meta, secrets, pull, in.getAutomountServiceAccountToken()));
  }

  @Override
  public io.fabric8.kubernetes.api.model.ServiceAccount toFabric8(ServiceAccount in) {
    return new ServiceAccountBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSecrets(Values.emptyToNull(in.secrets().stream()
            .map(n -> new ObjectReferenceBuilder().withName(n).build()).toList()))
        .withImagePullSecrets(Values.emptyToNull(in.imagePullSecrets().stream()
            .map(n -> new LocalObjectReferenceBuilder().withName(n).build()).toList()))
        .withAutomountServiceAccountToken(in.automountServiceAccountToken())
        .build();
  }
}
