package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ConfigMapEnvSourceBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapKeySelectorBuilder;
import io.fabric8.kubernetes.api.model.EnvFromSourceBuilder;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.EnvVarSourceBuilder;
import io.fabric8.kubernetes.api.model.SecretEnvSourceBuilder;
import io.fabric8.kubernetes.api.model.SecretKeySelectorBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.DownwardAPIVolumeFile;
import io.fleetkit.api.core.EnvFromSource;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.EnvVarSource;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A container's {@code env} and {@code envFrom}, between fabric8 and core-api. A field selector's absent
 * {@code apiVersion} is read as {@code v1}, what the API server's defaulting writes
 * ({@code SetDefaults_ObjectFieldSelector}); the pod's validation then checks what the manifest says. Fields the fabric8 model has and FleetKit does not (a
 * {@code fileKeyRef}) are reported by the loader's not-modelled check, as everywhere.
 */
final class EnvVars {
  private EnvVars() {}

  static List<EnvVar> env(io.fabric8.kubernetes.api.model.Container c, String p, DocumentContext ctx) {
    return Fabric8Scheduling.list(c.getEnv(), p + ".env", ctx, (e, ep, cx) -> {
      String name = Values.required(e.getName(), ep + ".name", cx);
      var from = e.getValueFrom();
      if (from == null) {
        return cx.build(ep, () -> new EnvVar(name, Values.orEmpty(e.getValue())));
      }
      String vp = ep + ".valueFrom";
      DownwardAPIVolumeFile.FieldRef field = ProjectedVolumes.fieldRef(from.getFieldRef(), "v1", vp + ".fieldRef",
          cx);
      DownwardAPIVolumeFile.ResourceFieldRef resource = ProjectedVolumes.resourceFieldRef(
          from.getResourceFieldRef(), vp + ".resourceFieldRef", cx);
      var cm = from.getConfigMapKeyRef();
      EnvVarSource.KeySelector configMap = cm == null ? null : cx.build(vp + ".configMapKeyRef",
          () -> new EnvVarSource.KeySelector(Values.orEmpty(cm.getName()), Values.orEmpty(cm.getKey()),
              Values.boolOr(cm.getOptional(), false)));
      var sk = from.getSecretKeyRef();
      EnvVarSource.KeySelector secret = sk == null ? null : cx.build(vp + ".secretKeyRef",
          () -> new EnvVarSource.KeySelector(Values.orEmpty(sk.getName()), Values.orEmpty(sk.getKey()),
              Values.boolOr(sk.getOptional(), false)));
      return cx.build(ep, () -> new EnvVar(name, Values.orEmpty(e.getValue()),
          new EnvVarSource(field, resource, configMap, secret)));
    });
  }

  static List<EnvFromSource> envFrom(io.fabric8.kubernetes.api.model.Container c, String p, DocumentContext ctx) {
    return Fabric8Scheduling.list(c.getEnvFrom(), p + ".envFrom", ctx, (e, ep, cx) -> {
      var cm = e.getConfigMapRef();
      var s = e.getSecretRef();
      return cx.build(ep, () -> new EnvFromSource(Values.orEmpty(e.getPrefix()),
          cm == null ? null : new EnvFromSource.Reference(Values.orEmpty(cm.getName()),
              Values.boolOr(cm.getOptional(), false)),
          s == null ? null : new EnvFromSource.Reference(Values.orEmpty(s.getName()),
              Values.boolOr(s.getOptional(), false))));
    });
  }

  // ---- back to fabric8

  static @Nullable List<io.fabric8.kubernetes.api.model.EnvVar> env(List<EnvVar> env) {
    return Fabric8Scheduling.out(env, e -> new EnvVarBuilder().withName(e.name())
        .withValue(Values.emptyToNull(e.value())).withValueFrom(valueFrom(e.valueFrom())).build());
  }

  static @Nullable List<io.fabric8.kubernetes.api.model.EnvFromSource> envFrom(List<EnvFromSource> envFrom) {
    return Fabric8Scheduling.out(envFrom, e -> new EnvFromSourceBuilder().withPrefix(Values.emptyToNull(e.prefix()))
        .withConfigMapRef(e.configMapRef() == null ? null : new ConfigMapEnvSourceBuilder()
            .withName(e.configMapRef().name()).withOptional(optional(e.configMapRef().optional())).build())
        .withSecretRef(e.secretRef() == null ? null : new SecretEnvSourceBuilder()
            .withName(e.secretRef().name()).withOptional(optional(e.secretRef().optional())).build())
        .build());
  }

  private static io.fabric8.kubernetes.api.model.@Nullable EnvVarSource valueFrom(@Nullable EnvVarSource from) {
    if (from == null) {
      return null;
    }
    EnvVarSource.KeySelector cm = from.configMapKeyRef();
    EnvVarSource.KeySelector s = from.secretKeyRef();
    return new EnvVarSourceBuilder().withFieldRef(ProjectedVolumes.fieldRef(from.fieldRef()))
        .withResourceFieldRef(ProjectedVolumes.resourceFieldRef(from.resourceFieldRef()))
        .withConfigMapKeyRef(cm == null ? null : new ConfigMapKeySelectorBuilder().withName(cm.name())
            .withKey(cm.key()).withOptional(optional(cm.optional())).build())
        .withSecretKeyRef(s == null ? null : new SecretKeySelectorBuilder().withName(s.name()).withKey(s.key())
            .withOptional(optional(s.optional())).build())
        .build();
  }

  private static @Nullable Boolean optional(boolean optional) {
    return optional ? Boolean.TRUE : null;
  }
}
