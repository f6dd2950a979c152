package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ConfigMapProjectionBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapVolumeSourceBuilder;
import io.fabric8.kubernetes.api.model.DownwardAPIProjectionBuilder;
import io.fabric8.kubernetes.api.model.DownwardAPIVolumeFileBuilder;
import io.fabric8.kubernetes.api.model.DownwardAPIVolumeSourceBuilder;
import io.fabric8.kubernetes.api.model.KeyToPathBuilder;
import io.fabric8.kubernetes.api.model.ObjectFieldSelectorBuilder;
import io.fabric8.kubernetes.api.model.ProjectedVolumeSourceBuilder;
import io.fabric8.kubernetes.api.model.ResourceFieldSelectorBuilder;
import io.fabric8.kubernetes.api.model.SecretProjectionBuilder;
import io.fabric8.kubernetes.api.model.SecretVolumeSourceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountTokenProjectionBuilder;
import io.fabric8.kubernetes.api.model.VolumeProjectionBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.DownwardAPIVolumeFile;
import io.fleetkit.api.core.KeyToPath;
import io.fleetkit.api.core.VolumeProjection;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.resource.Quantity;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Projected, downward API, secret and config map volume sources (the sources that write files) both ways. A
 * projection source FleetKit does not model ({@code clusterTrustBundle}, {@code podCertificate}) is left out with a
 * not-modelled warning; a projection with two sources is refused as upstream refuses it (with the missing secret or
 * config map name upstream also reports).
 */
final class ProjectedVolumes {
  private ProjectedVolumes() {}

  static VolumeSource.@Nullable Projected projected(io.fabric8.kubernetes.api.model.ProjectedVolumeSource s,
      String p, DocumentContext ctx) {
    List<VolumeProjection> sources = Fabric8Scheduling.list(s.getSources(), p + ".sources", ctx,
        ProjectedVolumes::projection);
    return ctx.build(p, () -> new VolumeSource.Projected(sources, s.getDefaultMode()));
  }

  static VolumeSource.@Nullable DownwardAPI downwardAPI(io.fabric8.kubernetes.api.model.DownwardAPIVolumeSource s,
      String p, DocumentContext ctx) {
    List<DownwardAPIVolumeFile> items = Fabric8Scheduling.list(s.getItems(), p + ".items", ctx,
        ProjectedVolumes::file);
    return ctx.build(p, () -> new VolumeSource.DownwardAPI(items, s.getDefaultMode()));
  }

  static VolumeSource.@Nullable Secret secret(io.fabric8.kubernetes.api.model.SecretVolumeSource s, String p,
      DocumentContext ctx) {
    List<KeyToPath> items = Fabric8Scheduling.list(s.getItems(), p + ".items", ctx, ProjectedVolumes::key);
    return ctx.build(p, () -> new VolumeSource.Secret(Values.orEmpty(s.getSecretName()), items, s.getDefaultMode(),
        Values.boolOr(s.getOptional(), false)));
  }

  static VolumeSource.@Nullable ConfigMap configMap(io.fabric8.kubernetes.api.model.ConfigMapVolumeSource s,
      String p, DocumentContext ctx) {
    List<KeyToPath> items = Fabric8Scheduling.list(s.getItems(), p + ".items", ctx, ProjectedVolumes::key);
    return ctx.build(p, () -> new VolumeSource.ConfigMap(Values.orEmpty(s.getName()), items, s.getDefaultMode(),
        Values.boolOr(s.getOptional(), false)));
  }

  private static @Nullable VolumeProjection projection(io.fabric8.kubernetes.api.model.VolumeProjection s, String p,
      DocumentContext ctx) {
    Object[] given = {s.getSecret(), s.getDownwardAPI(), s.getConfigMap(), s.getServiceAccountToken(),
        s.getClusterTrustBundle(), s.getPodCertificate()};
    String[] names = {"secret", "downwardAPI", "configMap", "serviceAccountToken", "clusterTrustBundle",
        "podCertificate"};
    int found = 0;
    for (Object o : given) {
      found += o == null ? 0 : 1;
    }
    if (found > 1) {
      // upstream checks each projection given before refusing the source; a missing name is reported here too (the
      // projections' other rules are checked once the source has one projection)
      if (s.getSecret() != null && Values.orEmpty(s.getSecret().getName()).isEmpty()) {
        ctx.error(p + ".secret.name", "Required value", null);
      }
      if (s.getConfigMap() != null && Values.orEmpty(s.getConfigMap().getName()).isEmpty()) {
        ctx.error(p + ".configMap.name", "Required value", null);
      }
      ctx.error(p, "Forbidden: may not specify more than 1 volume type per source", null);
      return null;
    }
    if (s.getSecret() != null) {
      var sec = s.getSecret();
      List<KeyToPath> items = Fabric8Scheduling.list(sec.getItems(), p + ".secret.items", ctx,
          ProjectedVolumes::key);
      return ctx.build(p + ".secret", () -> new VolumeProjection.Secret(Values.orEmpty(sec.getName()), items,
          Values.boolOr(sec.getOptional(), false)));
    }
    if (s.getConfigMap() != null) {
      var cm = s.getConfigMap();
      List<KeyToPath> items = Fabric8Scheduling.list(cm.getItems(), p + ".configMap.items", ctx,
          ProjectedVolumes::key);
      return ctx.build(p + ".configMap", () -> new VolumeProjection.ConfigMap(Values.orEmpty(cm.getName()), items,
          Values.boolOr(cm.getOptional(), false)));
    }
    if (s.getDownwardAPI() != null) {
      List<DownwardAPIVolumeFile> items = Fabric8Scheduling.list(s.getDownwardAPI().getItems(),
          p + ".downwardAPI.items", ctx, ProjectedVolumes::file);
      return ctx.build(p + ".downwardAPI", () -> new VolumeProjection.DownwardAPI(items));
    }
    if (s.getServiceAccountToken() != null) {
      var t = s.getServiceAccountToken();
      return ctx.build(p + ".serviceAccountToken", () -> new VolumeProjection.ServiceAccountToken(
          Values.orEmpty(t.getAudience()), t.getExpirationSeconds(), Values.orEmpty(t.getPath())));
    }
    for (int i = 4; i < given.length; i++) {
      if (given[i] != null) {
        ctx.notModelled(p, names[i]);
        return null;
      }
    }
    ctx.error(p, "Required value: must specify one volume type per source (secret, configMap, downwardAPI or"
        + " serviceAccountToken)", null);
    return null;
  }

  private static @Nullable KeyToPath key(io.fabric8.kubernetes.api.model.KeyToPath k, String p,
      DocumentContext ctx) {
    return ctx.build(p, () -> new KeyToPath(Values.orEmpty(k.getKey()), Values.orEmpty(k.getPath()), k.getMode()));
  }

  private static @Nullable DownwardAPIVolumeFile file(io.fabric8.kubernetes.api.model.DownwardAPIVolumeFile f,
      String p, DocumentContext ctx) {
    DownwardAPIVolumeFile.FieldRef field = fieldRef(f.getFieldRef(), "", p + ".fieldRef", ctx);
    DownwardAPIVolumeFile.ResourceFieldRef resource = resourceFieldRef(f.getResourceFieldRef(),
        p + ".resourceFieldRef", ctx);
    return ctx.build(p, () -> new DownwardAPIVolumeFile(Values.orEmpty(f.getPath()), field, resource, f.getMode()));
  }

  /**
   * A field selector ({@code ObjectFieldSelector}) at {@code p}, its absent {@code apiVersion} read as
   * {@code absentApiVersion}; {@code null} when absent.
   */
  static DownwardAPIVolumeFile.@Nullable FieldRef fieldRef(
      io.fabric8.kubernetes.api.model.@Nullable ObjectFieldSelector fr, String absentApiVersion, String p,
      DocumentContext ctx) {
    return fr == null ? null : ctx.build(p, () -> new DownwardAPIVolumeFile.FieldRef(
        fr.getApiVersion() == null ? absentApiVersion : fr.getApiVersion(), Values.orEmpty(fr.getFieldPath())));
  }

  /** A resource selector ({@code ResourceFieldSelector}) at {@code p}; {@code null} when absent. */
  static DownwardAPIVolumeFile.@Nullable ResourceFieldRef resourceFieldRef(
      io.fabric8.kubernetes.api.model.@Nullable ResourceFieldSelector rr, String p, DocumentContext ctx) {
    if (rr == null) {
      return null;
    }
    Quantity divisor = rr.getDivisor() == null ? null
        : Values.quantity(rr.getDivisor().toString(), p + ".divisor", ctx);
    return ctx.build(p, () -> new DownwardAPIVolumeFile.ResourceFieldRef(Values.orEmpty(rr.getContainerName()),
        Values.orEmpty(rr.getResource()), divisor));
  }

  // ---- back to fabric8

  static io.fabric8.kubernetes.api.model.@Nullable ObjectFieldSelector fieldRef(
      DownwardAPIVolumeFile.@Nullable FieldRef fr) {
    return fr == null ? null : new ObjectFieldSelectorBuilder()
        .withApiVersion(Values.emptyToNull(fr.apiVersion())).withFieldPath(fr.fieldPath()).build();
  }

  static io.fabric8.kubernetes.api.model.@Nullable ResourceFieldSelector resourceFieldRef(
      DownwardAPIVolumeFile.@Nullable ResourceFieldRef rr) {
    return rr == null ? null : new ResourceFieldSelectorBuilder()
        .withContainerName(Values.emptyToNull(rr.containerName())).withResource(rr.resource())
        .withDivisor(rr.divisor() == null ? null
            : new io.fabric8.kubernetes.api.model.Quantity(rr.divisor().toString())).build();
  }

  static io.fabric8.kubernetes.api.model.ProjectedVolumeSource projected(VolumeSource.Projected s) {
    return new ProjectedVolumeSourceBuilder().withDefaultMode(s.defaultMode())
        .withSources(Fabric8Scheduling.out(s.sources(), ProjectedVolumes::projection)).build();
  }

  static io.fabric8.kubernetes.api.model.DownwardAPIVolumeSource downwardAPI(VolumeSource.DownwardAPI s) {
    return new DownwardAPIVolumeSourceBuilder().withDefaultMode(s.defaultMode())
        .withItems(Fabric8Scheduling.out(s.items(), ProjectedVolumes::file)).build();
  }

  static io.fabric8.kubernetes.api.model.SecretVolumeSource secret(VolumeSource.Secret s) {
    return new SecretVolumeSourceBuilder().withSecretName(s.secretName()).withDefaultMode(s.defaultMode())
        .withItems(Fabric8Scheduling.out(s.items(), ProjectedVolumes::key))
        .withOptional(s.optional() ? Boolean.TRUE : null).build();
  }

  static io.fabric8.kubernetes.api.model.ConfigMapVolumeSource configMap(VolumeSource.ConfigMap s) {
    return new ConfigMapVolumeSourceBuilder().withName(s.name()).withDefaultMode(s.defaultMode())
        .withItems(Fabric8Scheduling.out(s.items(), ProjectedVolumes::key))
        .withOptional(s.optional() ? Boolean.TRUE : null).build();
  }

  private static io.fabric8.kubernetes.api.model.VolumeProjection projection(VolumeProjection s) {
    VolumeProjectionBuilder b = new VolumeProjectionBuilder();
    if (s instanceof VolumeProjection.Secret sec) {
      b.withSecret(new SecretProjectionBuilder().withName(sec.secretName())
          .withItems(Fabric8Scheduling.out(sec.items(), ProjectedVolumes::key))
          .withOptional(sec.optional() ? Boolean.TRUE : null).build());
    } else if (s instanceof VolumeProjection.ConfigMap cm) {
      b.withConfigMap(new ConfigMapProjectionBuilder().withName(cm.name())
          .withItems(Fabric8Scheduling.out(cm.items(), ProjectedVolumes::key))
          .withOptional(cm.optional() ? Boolean.TRUE : null).build());
    } else if (s instanceof VolumeProjection.DownwardAPI d) {
      b.withDownwardAPI(new DownwardAPIProjectionBuilder()
          .withItems(Fabric8Scheduling.out(d.items(), ProjectedVolumes::file)).build());
    } else if (s instanceof VolumeProjection.ServiceAccountToken t) {
      b.withServiceAccountToken(new ServiceAccountTokenProjectionBuilder()
          .withAudience(Values.emptyToNull(t.audience())).withExpirationSeconds(t.expirationSeconds())
          .withPath(t.path()).build());
    }
    return b.build();
  }

  private static io.fabric8.kubernetes.api.model.KeyToPath key(KeyToPath k) {
    return new KeyToPathBuilder().withKey(k.key()).withPath(k.path()).withMode(k.mode()).build();
  }

  private static io.fabric8.kubernetes.api.model.DownwardAPIVolumeFile file(DownwardAPIVolumeFile f) {
    return new DownwardAPIVolumeFileBuilder().withPath(f.path()).withMode(f.mode())
        .withFieldRef(fieldRef(f.fieldRef())).withResourceFieldRef(resourceFieldRef(f.resourceFieldRef())).build();
  }
}
