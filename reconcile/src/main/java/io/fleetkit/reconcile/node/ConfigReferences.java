package io.fleetkit.reconcile.node;

import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.EnvFromSource;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.EnvVarSource;
import io.fleetkit.api.core.KeyToPath;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeProjection;
import io.fleetkit.api.core.VolumeSource;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The kubelet's rules for a pod's references to ConfigMaps and Secrets, as pure functions of the pod and the objects
 * a {@link Lookup} finds: whether a container's environment can be made ({@code makeEnvironmentVariables}: else the
 * container waits in {@code CreateContainerConfigError}) and whether the pod's config map and secret volumes can be
 * set up (the config map, secret and projected volume plugins' {@code SetUpAt}: else the pod waits in
 * {@code ContainerCreating}, with a {@code FailedMount} event per volume). Messages are the kubelet's. Stateless.
 */
final class ConfigReferences {
  /** The container waiting reason of a container whose configuration could not be made. */
  static final String CREATE_CONTAINER_CONFIG_ERROR = "CreateContainerConfigError";
  /** The kubelet's event reason for a container it could not create ({@code events.FailedToCreateContainer}). */
  static final String FAILED = "Failed";
  /** The kubelet's event reason for a volume it could not set up ({@code events.FailedMountVolume}). */
  static final String FAILED_MOUNT = "FailedMount";

  /** Finds the objects of a namespace by name, as the kubelet's config map and secret managers do. */
  interface Lookup {
    @Nullable ConfigMap configMap(String namespace, String name);

    @Nullable Secret secret(String namespace, String name);
  }

  /** A volume that could not be set up: its name and the {@code FailedMount} event's message. */
  record MountFailure(String volume, String message) {}

  private ConfigReferences() {}

  /**
   * The error {@code makeEnvironmentVariables} stops at for container {@code c} of {@code pod}, or {@code null} when
   * its environment can be made: first its {@code envFrom} sources in order, then its {@code env} variables in order
   * (a literal value needs nothing; a field or resource of the pod is always there). A missing object is
   * {@code configmap "name" not found} (or {@code secret}), a missing key {@code couldn't find key k in ConfigMap
   * ns/name} (or {@code Secret}); an optional reference that misses is left out instead.
   */
  static @Nullable String envError(Pod pod, Container c, Lookup lookup) {
    String ns = pod.metadata().namespace();
    for (EnvFromSource from : c.envFrom()) {
      EnvFromSource.Reference cm = from.configMapRef();
      EnvFromSource.Reference s = from.secretRef();
      if (cm != null && !cm.optional() && lookup.configMap(ns, cm.name()) == null) {
        return notFound("configmap", cm.name());
      } else if (cm == null && s != null && !s.optional() && lookup.secret(ns, s.name()) == null) {
        return notFound("secret", s.name());
      }
    }
    for (EnvVar e : c.env()) {
      EnvVarSource from = e.valueFrom();
      if (!e.value().isEmpty() || from == null) {
        continue;
      }
      EnvVarSource.KeySelector cm = from.configMapKeyRef();
      EnvVarSource.KeySelector s = from.secretKeyRef();
      if (from.fieldRef() != null || from.resourceFieldRef() != null) {
        continue; // the kubelet's switch takes the first source set; these always resolve in a valid pod
      }
      String error = null;
      if (cm != null) {
        ConfigMap map = lookup.configMap(ns, cm.name());
        error = keyError("ConfigMap", ns, cm, map == null ? null : map.data().keySet());
      } else if (s != null) {
        Secret secret = lookup.secret(ns, s.name());
        error = keyError("Secret", ns, s, secret == null ? null : secret.data().keySet());
      }
      if (error != null) {
        return error;
      }
    }
    return null;
  }

  /**
   * A key reference's error: the object of {@code kind} missing ({@code keys} null) or without the key, unless the
   * reference is optional.
   */
  private static @Nullable String keyError(String kind, String ns, EnvVarSource.KeySelector ref,
      java.util.@Nullable Set<String> keys) {
    if (ref.optional()) {
      return null;
    } else if (keys == null) {
      return notFound(kind.toLowerCase(java.util.Locale.ROOT), ref.name());
    }
    return keys.contains(ref.key()) ? null
        : "couldn't find key " + ref.key() + " in " + kind + " " + ns + "/" + ref.name();
  }

  /**
   * The pod's config map, secret and projected volumes that cannot be set up, in spec order, each with the volume
   * manager's message ({@code MountVolume.SetUp failed for volume "v" : } and the plugin's error). A config map or
   * secret volume fails on its object missing ({@code configmap "name" not found}, {@code secret "name" not found})
   * or, for an item whose key the object lacks, {@code configmap references non-existent config key: k} /
   * {@code references non-existent secret key: k}; an optional volume whose object or key misses is set up without
   * it. A projected volume (the projected plugin's {@code collectData}) checks its config map and secret sources in
   * order by the same rules, each source's own {@code optional}; its errors are joined as an aggregate error is
   * ({@code [e1, e2]} when there are several different ones). Its service account token and downward API sources need
   * nothing: the token is always issued, a valid pod's fields always resolve (cluster trust bundle sources are not
   * modelled).
   */
  static List<MountFailure> mountFailures(Pod pod, Lookup lookup) {
    List<MountFailure> out = null;
    String ns = pod.metadata().namespace();
    for (Volume v : pod.spec().volumes()) {
      String error = null;
      if (v.source() instanceof VolumeSource.ConfigMap cm) {
        error = configMapError(lookup, ns, cm.name(), cm.items(), cm.optional());
      } else if (v.source() instanceof VolumeSource.Secret sec) {
        error = secretError(lookup, ns, sec.secretName(), sec.items(), sec.optional());
      } else if (v.source() instanceof VolumeSource.Projected p) {
        error = projectedError(lookup, ns, p);
      }
      if (error != null) {
        if (out == null) {
          out = new ArrayList<>(1);
        }
        out.add(new MountFailure(v.name(), "MountVolume.SetUp failed for volume \"" + v.name() + "\" : " + error));
      }
    }
    return out == null ? List.of() : out;
  }

  /** The config map plugin's error for config map {@code name} with {@code items} (or a projection of it), or null. */
  private static @Nullable String configMapError(Lookup lookup, String ns, String name, List<KeyToPath> items,
      boolean optional) {
    ConfigMap map = lookup.configMap(ns, name);
    return payloadError("configmap", name, map == null ? null : map.data().keySet(),
        map == null ? java.util.Set.of() : map.binaryData().keySet(), items, optional,
        "configmap references non-existent config key: ");
  }

  /** The secret plugin's error for secret {@code name} with {@code items} (or a projection of it), or null. */
  private static @Nullable String secretError(Lookup lookup, String ns, String name, List<KeyToPath> items,
      boolean optional) {
    Secret secret = lookup.secret(ns, name);
    return payloadError("secret", name, secret == null ? null : secret.data().keySet(), java.util.Set.of(), items,
        optional, "references non-existent secret key: ");
  }

  /**
   * A volume plugin's error for object {@code name} of {@code resource} whose keys are {@code keys} ({@code null}:
   * it is missing): nothing when optional (the plugin sets up what there is), else the object not found or the first
   * item whose key it lacks ({@code MakePayload}).
   */
  private static @Nullable String payloadError(String resource, String name, java.util.@Nullable Set<String> keys,
      java.util.Set<String> binaryKeys, List<KeyToPath> items, boolean optional, String missingKeyMessage) {
    if (optional) {
      return null;
    } else if (keys == null) {
      return notFound(resource, name);
    }
    String key = missingKey(items, keys, binaryKeys);
    return key == null ? null : missingKeyMessage + key;
  }

  /**
   * The projected plugin's {@code collectData} error, or null: every config map and secret source's error, in
   * source order, as one aggregate ({@code utilerrors.NewAggregate}: one message alone, several distinct ones as
   * {@code [a, b]}, a repeated message once).
   */
  private static @Nullable String projectedError(Lookup lookup, String ns, VolumeSource.Projected p) {
    java.util.Set<String> errors = null;
    for (VolumeProjection s : p.sources()) {
      String error = null;
      if (s instanceof VolumeProjection.ConfigMap cm) {
        error = configMapError(lookup, ns, cm.name(), cm.items(), cm.optional());
      } else if (s instanceof VolumeProjection.Secret sec) {
        error = secretError(lookup, ns, sec.secretName(), sec.items(), sec.optional());
      }
      if (error != null) {
        if (errors == null) {
          errors = new java.util.LinkedHashSet<>();
        }
        errors.add(error);
      }
    }
    if (errors == null) {
      return null;
    }
    return errors.size() == 1 ? errors.iterator().next() : "[" + String.join(", ", errors) + "]";
  }

  /**
   * Whether the pod has a config map or secret volume, or a projected volume with a config map or secret source: only
   * such a pod has anything to wait for.
   */
  static boolean hasConfigVolumes(Pod pod) {
    for (Volume v : pod.spec().volumes()) {
      if (v.source() instanceof VolumeSource.ConfigMap || v.source() instanceof VolumeSource.Secret
          || v.source() instanceof VolumeSource.Projected p
          && (!p.configMapNames().isEmpty() || !p.secretNames().isEmpty())) {
        return true;
      }
    }
    return false;
  }

  private static @Nullable String missingKey(List<KeyToPath> items, java.util.Set<String> keys,
      java.util.Set<String> binaryKeys) {
    for (KeyToPath k : items) {
      if (!keys.contains(k.key()) && !binaryKeys.contains(k.key())) {
        return k.key();
      }
    }
    return null;
  }

  /** The API's not-found error as the kubelet's managers make it: the resource in the singular, lower case. */
  private static String notFound(String resource, String name) {
    return resource + " \"" + name + "\" not found";
  }
}
