package io.fleetkit.api.core;

import io.fleetkit.api.resource.Quantity;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where an environment variable's value comes from (Kubernetes' {@code EnvVarSource}). Exactly one of the four
 * sources is set in a valid pod; the record holds what it is given, and the pod's validation reports none or more than
 * one, as Kubernetes does.
 *
 * @param fieldRef a field of the pod ({@code metadata.name}, {@code status.podIP}, a label by
 *     {@code metadata.labels['app']}...), or {@code null}
 * @param resourceFieldRef a resource of a container ({@code limits.memory}); its {@code containerName} may be empty
 *     for the variable's own container; or {@code null}
 * @param configMapKeyRef a key of a ConfigMap in the pod's namespace, or {@code null}
 * @param secretKeyRef a key of a Secret in the pod's namespace, or {@code null}
 */
public record EnvVarSource(DownwardAPIVolumeFile.@Nullable FieldRef fieldRef,
    DownwardAPIVolumeFile.@Nullable ResourceFieldRef resourceFieldRef, @Nullable KeySelector configMapKeyRef,
    @Nullable KeySelector secretKeyRef) {

  /** The field {@code fieldPath} of the pod, in API version {@code v1}. */
  public static EnvVarSource field(String fieldPath) {
    return new EnvVarSource(new DownwardAPIVolumeFile.FieldRef("v1", fieldPath), null, null, null);
  }

  /**
   * The resource {@code resource} ({@code requests.cpu}) of container {@code containerName} (empty: the variable's
   * own), divided by {@code divisor} ({@code null}: 1).
   */
  public static EnvVarSource resource(String containerName, String resource, @Nullable Quantity divisor) {
    return new EnvVarSource(null, new DownwardAPIVolumeFile.ResourceFieldRef(containerName, resource, divisor), null,
        null);
  }

  /** Key {@code key} of ConfigMap {@code name}; when {@code optional}, a missing map or key leaves the variable out. */
  public static EnvVarSource configMapKey(String name, String key, boolean optional) {
    return new EnvVarSource(null, null, new KeySelector(name, key, optional), null);
  }

  /** Key {@code key} of Secret {@code name}; when {@code optional}, a missing secret or key leaves the variable out. */
  public static EnvVarSource secretKey(String name, String key, boolean optional) {
    return new EnvVarSource(null, null, null, new KeySelector(name, key, optional));
  }

  /**
   * One key of a ConfigMap or a Secret of the pod's namespace (Kubernetes' {@code ConfigMapKeySelector} and
   * {@code SecretKeySelector}, which have the same fields).
   *
   * @param name the object's name
   * @param key the key of its data
   * @param optional whether the container may start without it (the variable is then left out)
   */
  public record KeySelector(String name, String key, boolean optional) {
    public KeySelector {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(key, "key");
    }
  }
}
