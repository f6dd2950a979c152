package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.DownwardAPIVolumeFile;
import io.fleetkit.api.core.KeyToPath;
import io.fleetkit.api.core.VolumeProjection;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.resource.Quantity;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes' rules for the volumes that write files (projected, downward API, secret and config map volumes:
 * {@code validateProjectedVolumeSource}, {@code validateDownwardAPIVolumeSource}, {@code validateDownwardAPIVolumeFile},
 * {@code validateKeyToPath}, {@code validateObjectFieldSelector}, {@code validateContainerResourceFieldSelector},
 * {@code validateContainerResourceDivisor}, {@code validateLocalNonReservedPath}, {@code validatePathNoBacksteps} in
 * {@code pkg/apis/core/validation/validation.go}), and the host path of a pod volume and of a PersistentVolume
 * ({@code validateHostPathVolumeSource}, {@code validateHostPathType}), with Kubernetes' messages. Stateless.
 */
public final class VolumeFileChecks {
  /** Upstream's {@code fileModeErrorMsg}. */
  static final String FILE_MODE = "must be a number between 0 and 0777 (octal), both inclusive";
  /** Upstream's {@code validVolumeDownwardAPIFieldPathExpressions}, sorted as its error lists them. */
  static final List<String> FIELD_PATHS = List.of("metadata.annotations", "metadata.labels", "metadata.name",
      "metadata.namespace", "metadata.uid");
  /** Upstream's {@code validContainerResourceFieldPathExpressions}, sorted. */
  static final List<String> RESOURCES = List.of("limits.cpu", "limits.ephemeral-storage", "limits.memory",
      "requests.cpu", "requests.ephemeral-storage", "requests.memory");
  /** Upstream's {@code supportedHostPathTypes} (the unset type is empty), sorted as its error lists them. */
  static final List<String> HOST_PATH_TYPES = List.of("", "BlockDevice", "CharDevice", "Directory",
      "DirectoryOrCreate", "File", "FileOrCreate", "Socket");
  /**
   * The field paths {@code ConvertDownwardAPIFieldLabel} (in {@code pkg/apis/core/pods/helpers.go}) knows for a v1
   * pod, before a volume's own list narrows them; {@code spec.host} is its old name of {@code spec.nodeName}.
   */
  private static final List<String> CONVERTIBLE_FIELD_PATHS = List.of("metadata.annotations", "metadata.labels",
      "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.restartPolicy",
      "spec.serviceAccountName", "spec.schedulerName", "status.phase", "status.hostIP", "status.hostIPs",
      "status.podIP", "status.podIPs", "spec.host");
  /** Upstream's {@code validContainerResourceDivisorForCPU}, as its canonical quantity texts. */
  private static final List<String> CPU_DIVISORS = List.of("1m", "1");
  /** Upstream's divisors for memory, ephemeral storage and huge pages (the same thirteen). */
  private static final List<String> BYTE_DIVISORS = List.of("1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi",
      "1Gi", "1Ti", "1Pi", "1Ei");
  private static final int MAX_MODE = 0777;
  private static final long MIN_TOKEN_SECONDS = 10 * 60;
  private static final long MAX_TOKEN_SECONDS = 1L << 32;

  private VolumeFileChecks() {}

  /**
   * Checks a host path at {@code path} ({@code spec.volumes[0].hostPath} of a pod, {@code spec.hostPath} of a
   * PersistentVolume), as upstream's {@code validateHostPathVolumeSource} does for both: the path is required (and
   * nothing else is checked without it), has no {@code ..} element, and {@code type} is empty or one of
   * {@link #HOST_PATH_TYPES}.
   */
  public static void hostPath(String hostPath, String type, String path, Violations v) {
    if (hostPath.isEmpty()) {
      v.required(path + ".path");
      return;
    }
    noBacksteps(hostPath, path + ".path", v);
    if (!HOST_PATH_TYPES.contains(type)) {
      v.add(path + ".type", LifecycleChecks.unsupported(HOST_PATH_TYPES), type);
    }
  }

  /**
   * Checks a projected volume's source at {@code path} (e.g. {@code spec.volumes[0].projected}). As upstream, a
   * downward API file's errors name its projection ({@code sources[0].downwardAPI.path}, no item index), a path used
   * twice is reported on the volume ({@code projected}) with the source's name (a downward API file: the path), and
   * the token's path is checked on {@code projected.path}.
   */
  static void projected(VolumeSource.Projected p, String path, Violations v) {
    if (p == lastValidProjected) {
      return; // the same instance, found valid before (records cannot change)
    }
    boolean clean = v.isEmpty();
    projectedSources(p, path, v);
    if (clean && v.isEmpty()) {
      lastValidProjected = p;
    }
  }

  /**
   * The last projected source found valid. A source shared by many pods (ServiceAccount admission's
   * {@code kube-api-access-*} volume: one instance for every pod) is then checked once, not once per pod.
   */
  private static volatile VolumeSource.@Nullable Projected lastValidProjected;

  private static void projectedSources(VolumeSource.Projected p, String path, Violations v) {
    mode(p.defaultMode(), path + ".defaultMode", v);
    Set<String> paths = new HashSet<>();
    for (int i = 0; i < p.sources().size(); i++) {
      VolumeProjection s = p.sources().get(i);
      String at = path + ".sources[" + i + "]";
      if (s instanceof VolumeProjection.Secret sec) {
        if (sec.secretName().isEmpty()) {
          v.required(at + ".secret.name");
        }
        keys(sec.items(), at + ".secret.items", v, paths, path, sec.secretName());
      } else if (s instanceof VolumeProjection.ConfigMap cm) {
        if (cm.name().isEmpty()) {
          v.required(at + ".configMap.name");
        }
        keys(cm.items(), at + ".configMap.items", v, paths, path, cm.name());
      } else if (s instanceof VolumeProjection.DownwardAPI d) {
        for (DownwardAPIVolumeFile f : d.items()) {
          file(f, at + ".downwardAPI", v);
          unique(f.path(), paths, path, f.path(), v);
        }
      } else if (s instanceof VolumeProjection.ServiceAccountToken t) {
        String tp = at + ".serviceAccountToken";
        Long seconds = t.expirationSeconds();
        if (seconds != null && seconds < MIN_TOKEN_SECONDS) {
          v.add(tp + ".expirationSeconds", "may not specify a duration less than 10 minutes", seconds);
        } else if (seconds != null && seconds > MAX_TOKEN_SECONDS) {
          v.add(tp + ".expirationSeconds", "may not specify a duration larger than 2^32 seconds", seconds);
        }
        // upstream names the volume's path here, not the token's; a pod may only keep a non-local token path it
        // already had (AllowNonLocalProjectedTokenPath, an update option), so a new one must be local
        if (t.path().isEmpty()) {
          v.required(path + ".path");
        } else {
          localPath(t.path(), path + ".path", v);
        }
      }
    }
  }

  /** Checks a downward API volume's source at {@code path} (e.g. {@code spec.volumes[0].downwardAPI}). */
  static void downwardAPI(VolumeSource.DownwardAPI d, String path, Violations v) {
    mode(d.defaultMode(), path + ".defaultMode", v);
    for (DownwardAPIVolumeFile f : d.items()) {
      file(f, path, v); // upstream names the volume, not the item: downwardAPI.path, downwardAPI.mode
    }
  }

  /**
   * Checks a secret or config map volume's {@code defaultMode} and {@code items} at {@code path} (e.g.
   * {@code spec.volumes[0].secret}): upstream's {@code validateSecretVolumeSource} and
   * {@code validateConfigMapVolumeSource} after the name.
   */
  static void keyFiles(@Nullable Integer defaultMode, List<KeyToPath> items, String path, Violations v) {
    mode(defaultMode, path + ".defaultMode", v);
    keys(items, path + ".items", v, null, path, "");
  }

  /** Upstream's {@code validateKeyToPath} for each item; with {@code paths}, a projection's duplicate check. */
  private static void keys(List<KeyToPath> items, String path, Violations v, @Nullable Set<String> paths,
      String volumePath, String sourceName) {
    for (int i = 0; i < items.size(); i++) {
      KeyToPath k = items.get(i);
      String at = path + "[" + i + "]";
      if (k.key().isEmpty()) {
        v.required(at + ".key");
      }
      if (k.path().isEmpty()) {
        v.required(at + ".path");
      } else {
        localPath(k.path(), at + ".path", v);
      }
      mode(k.mode(), at + ".mode", v);
      if (paths != null) {
        unique(k.path(), paths, volumePath, sourceName, v);
      }
    }
  }

  /** Upstream's {@code validateDownwardAPIVolumeFile}. */
  private static void file(DownwardAPIVolumeFile f, String path, Violations v) {
    if (f.path().isEmpty()) {
      v.required(path + ".path");
    } else {
      localPath(f.path(), path + ".path", v);
    }
    DownwardAPIVolumeFile.FieldRef field = f.fieldRef();
    DownwardAPIVolumeFile.ResourceFieldRef resource = f.resourceFieldRef();
    if (field != null) {
      fieldRef(field, FIELD_PATHS, false, path + ".fieldRef", v);
      if (resource != null) {
        v.add(path, "fieldRef and resourceFieldRef can not be specified simultaneously", "resource");
      }
    } else if (resource != null) {
      resourceFieldRef(resource, path + ".resourceFieldRef", true, v);
    } else {
      v.required(path, "one of fieldRef and resourceFieldRef is required");
    }
    mode(f.mode(), path + ".mode", v);
  }

  /**
   * Upstream's {@code validateContainerResourceFieldSelector} (one error of the container name, the resource or its
   * support; the container name is required in a volume only), then {@code validateContainerResourceDivisor}.
   */
  static void resourceFieldRef(DownwardAPIVolumeFile.ResourceFieldRef resource, String rp, boolean volume,
      Violations v) {
    if (volume && resource.containerName().isEmpty()) {
      v.required(rp + ".containerName");
    } else if (resource.resource().isEmpty()) {
      v.required(rp + ".resource");
    } else if (!RESOURCES.contains(resource.resource()) && !resource.resource().startsWith("requests.hugepages-")
        && !resource.resource().startsWith("limits.hugepages-")) {
      v.add(rp + ".resource", LifecycleChecks.unsupported(RESOURCES), resource.resource());
    }
    divisor(resource.resource(), resource.divisor(), rp, v); // upstream checks it after any of the above
  }

  /**
   * Upstream's {@code validateObjectFieldSelector} against {@code expressions} (the downward API volume's
   * {@link #FIELD_PATHS} or an environment variable's): with {@code apiVersionRequired} (an environment variable's
   * reference) the API version is required first; the path is required; {@code ConvertDownwardAPIFieldLabel} must know
   * it for the API version (an empty one is v1, what the API server's defaulting writes), a subscript being allowed
   * on labels and annotations only; a subscript must be a qualified name (an annotation's lower-cased), reported on
   * the reference itself as upstream does; a plain path must be one of {@code expressions}.
   */
  static void fieldRef(DownwardAPIVolumeFile.FieldRef ref, List<String> expressions, boolean apiVersionRequired,
      String path, Violations v) {
    if (apiVersionRequired && ref.apiVersion().isEmpty()) {
      v.required(path + ".apiVersion");
      return;
    }
    String fieldPath = ref.fieldPath();
    if (fieldPath.isEmpty()) {
      v.required(path + ".fieldPath");
      return;
    }
    String apiVersion = ref.apiVersion().isEmpty() ? "v1" : ref.apiVersion();
    String[] subscripted = splitSubscript(fieldPath);
    String conversionError = null;
    if (!apiVersion.equals("v1")) {
      conversionError = "unsupported pod version: " + apiVersion;
    } else if (subscripted != null && !subscripted[0].equals("metadata.annotations")
        && !subscripted[0].equals("metadata.labels")) {
      conversionError = "field label does not support subscript: " + fieldPath;
    } else if (subscripted == null && !CONVERTIBLE_FIELD_PATHS.contains(fieldPath)) {
      conversionError = "field label not supported: " + fieldPath;
    }
    if (conversionError != null) {
      v.add(path + ".fieldPath", "error converting fieldPath: " + conversionError, fieldPath);
    } else if (subscripted != null) {
      boolean annotation = subscripted[0].equals("metadata.annotations");
      v.qualifiedName(path, annotation ? subscripted[1].toLowerCase(java.util.Locale.ROOT) : subscripted[1]);
    } else if (!expressions.contains(fieldPath.equals("spec.host") ? "spec.nodeName" : fieldPath)) {
      v.add(path + ".fieldPath", LifecycleChecks.unsupported(expressions), fieldPath.equals("spec.host")
          ? "spec.nodeName" : fieldPath);
    }
  }

  /**
   * Upstream's {@code fieldpath.SplitMaybeSubscriptedPath}: {@code metadata.labels['app']} is the path and the key
   * ({@code ['metadata.labels', 'app']}); {@code null} when the path has no subscript (it must end in {@code ']}
   * and have a non-empty part before {@code ['}).
   */
  private static String @Nullable [] splitSubscript(String fieldPath) {
    if (!fieldPath.endsWith("']")) {
      return null;
    }
    String s = fieldPath.substring(0, fieldPath.length() - 2);
    int open = s.indexOf("['");
    if (open <= 0) {
      return null;
    }
    return new String[] {s.substring(0, open), s.substring(open + 2)};
  }

  /**
   * Upstream's {@code validateContainerResourceDivisor}: an unset or zero divisor is not checked; otherwise its
   * canonical text must be one the resource allows. As upstream, the error's value is the resource, not the
   * divisor.
   */
  private static void divisor(String resource, @Nullable Quantity divisor, String path, Violations v) {
    if (divisor == null || divisor.isZero()) {
      return;
    }
    String text = divisor.toString();
    String bytes = String.join(", ", BYTE_DIVISORS);
    switch (resource) {
      case "limits.cpu", "requests.cpu" -> {
        if (!CPU_DIVISORS.contains(text)) {
          v.add(path + ".divisor", "only divisor's values 1m and 1 are supported with the cpu resource", resource);
        }
      }
      case "limits.memory", "requests.memory" -> {
        if (!BYTE_DIVISORS.contains(text)) {
          v.add(path + ".divisor", "only divisor's values " + bytes + " are supported with the memory resource",
              resource);
        }
      }
      case "limits.ephemeral-storage", "requests.ephemeral-storage" -> {
        if (!BYTE_DIVISORS.contains(text)) {
          v.add(path + ".divisor", "only divisor's values " + bytes
              + " are supported with the local ephemeral storage resource", resource);
        }
      }
      default -> {
        if ((resource.startsWith("requests.hugepages-") || resource.startsWith("limits.hugepages-"))
            && !BYTE_DIVISORS.contains(text)) {
          v.add(path + ".divisor", "only divisor's values " + bytes + " are supported with the hugepages resource",
              resource);
        }
      }
    }
  }

  /** Upstream's duplicate check of a projected volume: reported on the volume, with {@code value}. */
  private static void unique(String filePath, Set<String> paths, String volumePath, String value, Violations v) {
    if (!filePath.isEmpty() && !paths.add(filePath)) {
      v.add(volumePath, "conflicting duplicate paths", value);
    }
  }

  /**
   * Upstream's {@code validateLocalNonReservedPath}: relative, no {@code ..} element, not starting with {@code ..}
   * (not reported again for {@code ../}).
   */
  static void localPath(String filePath, String path, Violations v) {
    if (filePath.startsWith("/")) {
      v.add(path, "must be a relative path", filePath);
    }
    noBacksteps(filePath, path, v);
    if (filePath.startsWith("..") && !filePath.startsWith("../")) { // "../x" is reported above
      v.add(path, "must not start with '..'", filePath);
    }
  }

  /** Upstream's {@code validatePathNoBacksteps}: no {@code ..} element (one error however many there are). */
  static void noBacksteps(String filePath, String path, Violations v) {
    for (String element : filePath.split("/", -1)) {
      if (element.equals("..")) {
        v.add(path, "must not contain '..'", filePath);
        return;
      }
    }
  }

  private static void mode(@Nullable Integer mode, String path, Violations v) {
    if (mode != null && (mode < 0 || mode > MAX_MODE)) {
      v.add(path, FILE_MODE, mode);
    }
  }
}
