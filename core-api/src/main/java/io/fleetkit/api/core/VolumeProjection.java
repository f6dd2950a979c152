package io.fleetkit.api.core;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One source of a projected volume ({@link VolumeSource.Projected}): exactly one of the kinds below (Kubernetes'
 * {@code VolumeProjection}; its {@code clusterTrustBundle} and {@code podCertificate} are not modelled).
 */
public sealed interface VolumeProjection {

  /**
   * Keys of a Secret, by name ({@code secretName}, as in {@link VolumeSource.Secret}; upstream's field is
   * {@code name}); every key when {@code items} is empty.
   */
  record Secret(String secretName, List<KeyToPath> items, boolean optional) implements VolumeProjection {
    public Secret {
      Objects.requireNonNull(secretName, "secretName");
      items = List.copyOf(items);
    }
  }

  /** Keys of a ConfigMap, by name; every key when {@code items} is empty. */
  record ConfigMap(String name, List<KeyToPath> items, boolean optional) implements VolumeProjection {
    public ConfigMap {
      Objects.requireNonNull(name, "name");
      items = List.copyOf(items);
    }
  }

  /** Fields of the pod and resources of its containers, one file each. */
  record DownwardAPI(List<DownwardAPIVolumeFile> items) implements VolumeProjection {
    public DownwardAPI {
      items = List.copyOf(items);
    }
  }

  /**
   * A token of the pod's service account, written at {@code path}, for {@code audience} (empty: the API server),
   * valid for {@code expirationSeconds} ({@code null}: an hour).
   */
  record ServiceAccountToken(String audience, @Nullable Long expirationSeconds, String path)
      implements VolumeProjection {
    public ServiceAccountToken {
      Objects.requireNonNull(audience, "audience");
      Objects.requireNonNull(path, "path");
    }
  }
}
