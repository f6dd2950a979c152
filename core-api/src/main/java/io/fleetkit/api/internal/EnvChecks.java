package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.DownwardAPIVolumeFile;
import io.fleetkit.api.core.EnvFromSource;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.EnvVarSource;
import io.fleetkit.api.labels.Validation;
import java.util.List;

/**
 * Kubernetes' rules for a container's {@code env} and {@code envFrom} ({@code ValidateEnv},
 * {@code validateEnvVarValueFrom}, {@code validateConfigMapKeySelector}, {@code validateSecretKeySelector},
 * {@code ValidateEnvFrom}, {@code validateConfigMapEnvSource}, {@code validateSecretEnvSource} in
 * {@code pkg/apis/core/validation/validation.go}), with Kubernetes' messages. The field selectors' rules are shared
 * with downward API volume files ({@link VolumeFileChecks}). Stateless.
 */
public final class EnvChecks {
  /** Upstream's {@code validEnvDownwardAPIFieldPathExpressions}, sorted as its error lists them. */
  static final List<String> FIELD_PATHS = List.of("metadata.name", "metadata.namespace", "metadata.uid",
      "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs");

  private EnvChecks() {}

  /**
   * Checks {@code vars} at {@code path} (e.g. {@code spec.containers[0].env}): each name is required and valid
   * ({@link Validation#isRelaxedEnvVarName} when {@code relaxed}, as pods are checked; else
   * {@link Validation#isEnvVarName}), and a {@code valueFrom} has exactly one source, which is valid, and no
   * {@code value} beside it.
   */
  public static void env(List<EnvVar> vars, String path, boolean relaxed, Violations v) {
    for (int i = 0; i < vars.size(); i++) {
      EnvVar e = vars.get(i);
      String at = path + "[" + i + "]";
      if (e.name().isEmpty()) {
        v.required(at + ".name");
      } else {
        name(e.name(), at + ".name", relaxed, v);
      }
      if (e.valueFrom() != null) {
        valueFrom(e, e.valueFrom(), at + ".valueFrom", v);
      }
    }
  }

  /**
   * Checks {@code sources} at {@code path} (e.g. {@code spec.containers[0].envFrom}): a set prefix is a valid name
   * (as {@link #env}), each source has exactly one reference (the error on {@code path} itself, as upstream), and the
   * reference's name is required and a DNS subdomain.
   */
  public static void envFrom(List<EnvFromSource> sources, String path, boolean relaxed, Violations v) {
    for (int i = 0; i < sources.size(); i++) {
      EnvFromSource s = sources.get(i);
      String at = path + "[" + i + "]";
      if (!s.prefix().isEmpty()) {
        name(s.prefix(), at + ".prefix", relaxed, v);
      }
      int count = 0;
      if (s.configMapRef() != null) {
        count++;
        referenceName(s.configMapRef().name(), at + ".configMapRef.name", v);
      }
      if (s.secretRef() != null) {
        count++;
        referenceName(s.secretRef().name(), at + ".secretRef.name", v);
      }
      if (count == 0) {
        v.add(path, "must specify one of: `configMapRef` or `secretRef`", "");
      } else if (count > 1) {
        v.add(path, "may not have more than one field specified at a time", "");
      }
    }
  }

  private static void name(String name, String path, boolean relaxed, Violations v) {
    for (String rule : relaxed ? Validation.isRelaxedEnvVarName(name) : Validation.isEnvVarName(name)) {
      v.add(path, rule, name);
    }
  }

  /** Upstream's {@code validateEnvVarValueFrom}: each source's own rules, then the count of sources. */
  private static void valueFrom(EnvVar e, EnvVarSource from, String path, Violations v) {
    int count = 0;
    DownwardAPIVolumeFile.FieldRef field = from.fieldRef();
    if (field != null) {
      count++;
      VolumeFileChecks.fieldRef(field, FIELD_PATHS, true, path + ".fieldRef", v);
    }
    DownwardAPIVolumeFile.ResourceFieldRef resource = from.resourceFieldRef();
    if (resource != null) {
      count++;
      VolumeFileChecks.resourceFieldRef(resource, path + ".resourceFieldRef", false, v);
    }
    if (from.configMapKeyRef() != null) {
      count++;
      keySelector(from.configMapKeyRef(), path + ".configMapKeyRef", v);
    }
    if (from.secretKeyRef() != null) {
      count++;
      keySelector(from.secretKeyRef(), path + ".secretKeyRef", v);
    }
    if (count == 0) {
      v.add(path, "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`", "");
    } else if (!e.value().isEmpty()) {
      v.add(path, "may not be specified when `value` is not empty", "");
    } else if (count > 1) {
      v.add(path, "may not have more than one field specified at a time", "");
    }
  }

  /**
   * Upstream's {@code validateConfigMapKeySelector} and {@code validateSecretKeySelector} (the same rules): the name a
   * DNS subdomain (an empty one is invalid, not missing, as upstream reports it), the key required and a valid config
   * key.
   */
  private static void keySelector(EnvVarSource.KeySelector s, String path, Violations v) {
    if (!Names.isDnsSubdomain(s.name())) {
      for (String rule : Validation.isDNS1123Subdomain(s.name())) {
        v.add(path + ".name", rule, s.name());
      }
    }
    if (s.key().isEmpty()) {
      v.required(path + ".key");
    } else {
      for (String rule : Validation.isConfigMapKey(s.key())) {
        v.add(path + ".key", rule, s.key());
      }
    }
  }

  /**
   * Upstream's {@code validateConfigMapEnvSource} and {@code validateSecretEnvSource}: required, and a DNS subdomain
   * once a trailing {@code -} is masked (they check the name as a prefix of generated names, {@code prefix=true}).
   */
  private static void referenceName(String name, String path, Violations v) {
    if (name.isEmpty()) {
      v.required(path);
      return;
    }
    String masked = name.endsWith("-") ? name.substring(0, name.length() - 1) + "a" : name;
    if (!Names.isDnsSubdomain(masked)) {
      for (String rule : Validation.isDNS1123Subdomain(masked)) {
        v.add(path, rule, name);
      }
    }
  }
}
