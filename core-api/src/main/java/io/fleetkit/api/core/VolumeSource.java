package io.fleetkit.api.core;

import io.fleetkit.api.resource.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where a pod volume's data comes from: exactly one of the kinds below (a subset of Kubernetes'). Kubernetes' other
 * sources (nfs, csi, iscsi, cloud disks...) are not modelled; see the YAML loader for how it reads them.
 */
public sealed interface VolumeSource {

  /**
   * The Secrets this source reads, by name: a secret volume's, and a projected volume's secret sources' (as
   * Kubernetes' {@code VisitPodSecretNames} visits them); empty for other sources.
   */
  default List<String> secretNames() {
    return List.of();
  }

  /** The ConfigMaps this source reads, by name (as Kubernetes' {@code VisitPodConfigmapNames}); often empty. */
  default List<String> configMapNames() {
    return List.of();
  }

  /** A persistent volume claim in the pod's namespace. */
  record PersistentVolumeClaim(String claimName, boolean readOnly) implements VolumeSource {
    public PersistentVolumeClaim {
      Objects.requireNonNull(claimName, "claimName");
    }
  }

  /** Scratch space that lives as long as the pod; {@code sizeLimit} is {@code null} when unbounded. */
  record EmptyDir(String medium, @Nullable Quantity sizeLimit) implements VolumeSource {
    public static final EmptyDir DEFAULT = new EmptyDir("", null);

    public EmptyDir {
      Objects.requireNonNull(medium, "medium");
    }
  }

  /**
   * A path on the node (Kubernetes' {@code HostPathVolumeSource}).
   *
   * @param type what must be at the path ({@code Directory}, {@code FileOrCreate}, {@code Socket}...), empty when
   *     unset (nothing is checked)
   */
  record HostPath(String path, String type) implements VolumeSource {
    public HostPath {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(type, "type");
    }

    /** A path of any type. */
    public HostPath(String path) {
      this(path, "");
    }
  }

  /**
   * A config map's data, by name (Kubernetes' {@code ConfigMapVolumeSource}): every key as a file, or the keys of
   * {@code items} at their paths.
   *
   * @param defaultMode the files' permission bits (0 to 0777) where an item does not set them, or {@code null} for
   *     0644
   * @param optional whether the pod may start while the config map or a key of {@code items} is missing
   */
  record ConfigMap(String name, List<KeyToPath> items, @Nullable Integer defaultMode, boolean optional)
      implements VolumeSource {
    public ConfigMap {
      Objects.requireNonNull(name, "name");
      items = List.copyOf(items);
    }

    /** Every key of the config map {@code name}, with the default mode. */
    public ConfigMap(String name) {
      this(name, List.of(), null, false);
    }

    @Override
    public List<String> configMapNames() {
      return List.of(name);
    }
  }

  /**
   * Several sources (ConfigMaps, Secrets, downward API files, a service account token) projected into one
   * directory, as Kubernetes' {@code ProjectedVolumeSource}; the volume every pod gets for its service account
   * token ({@code kube-api-access-*}) is one.
   *
   * @param defaultMode the files' permission bits (0 to 0777) where a source does not set them, or {@code null}
   *     for 0644
   */
  record Projected(List<VolumeProjection> sources, @Nullable Integer defaultMode) implements VolumeSource {
    public Projected {
      sources = List.copyOf(sources);
    }

    @Override
    public List<String> secretNames() {
      List<String> out = new ArrayList<>();
      for (VolumeProjection s : sources) {
        if (s instanceof VolumeProjection.Secret sec) {
          out.add(sec.secretName());
        }
      }
      return List.copyOf(out);
    }

    @Override
    public List<String> configMapNames() {
      List<String> out = new ArrayList<>();
      for (VolumeProjection s : sources) {
        if (s instanceof VolumeProjection.ConfigMap cm) {
          out.add(cm.name());
        }
      }
      return List.copyOf(out);
    }

    /** Whether a source is a service account token. */
    public boolean hasServiceAccountToken() {
      for (VolumeProjection s : sources) {
        if (s instanceof VolumeProjection.ServiceAccountToken) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * Fields of the pod and resources of its containers, one file each (Kubernetes' {@code DownwardAPIVolumeSource}).
   *
   * @param defaultMode the files' permission bits (0 to 0777), or {@code null} for 0644
   */
  record DownwardAPI(List<DownwardAPIVolumeFile> items, @Nullable Integer defaultMode) implements VolumeSource {
    public DownwardAPI {
      items = List.copyOf(items);
    }
  }

  /**
   * A generic ephemeral volume: a claim made from {@code volumeClaimTemplate} for each pod, named
   * {@code <pod name>-<volume name>}, in the pod's namespace and owned by the pod, so that it lives as long as the
   * pod (Kubernetes' {@code EphemeralVolumeSource}, GA in 1.23). The ephemeral volume controller creates the claim;
   * the scheduler waits for it.
   */
  record Ephemeral(PersistentVolumeClaimTemplate volumeClaimTemplate) implements VolumeSource {
    public Ephemeral {
      Objects.requireNonNull(volumeClaimTemplate, "volumeClaimTemplate");
    }

    /** The name of the claim made for the volume {@code volumeName} of the pod {@code podName}. */
    public static String claimName(String podName, String volumeName) {
      return podName + "-" + volumeName;
    }
  }

  /**
   * A secret's data, by name (Kubernetes' {@code SecretVolumeSource}): every key as a file, or the keys of
   * {@code items} at their paths.
   *
   * @param defaultMode the files' permission bits (0 to 0777) where an item does not set them, or {@code null} for
   *     0644
   * @param optional whether the pod may start while the secret or a key of {@code items} is missing
   */
  record Secret(String secretName, List<KeyToPath> items, @Nullable Integer defaultMode, boolean optional)
      implements VolumeSource {
    public Secret {
      Objects.requireNonNull(secretName, "secretName");
      items = List.copyOf(items);
    }

    /** Every key of the secret {@code secretName}, with the default mode. */
    public Secret(String secretName) {
      this(secretName, List.of(), null, false);
    }

    @Override
    public List<String> secretNames() {
      return List.of(secretName);
    }
  }
}
