package io.fleetkit.admission;

import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.MutatingAdmissionPlugin;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.DownwardAPIVolumeFile;
import io.fleetkit.api.core.EnvFromSource;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.EnvVarSource;
import io.fleetkit.api.core.KeyToPath;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ServiceAccount;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeMount;
import io.fleetkit.api.core.VolumeProjection;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.text.GoBools;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes' ServiceAccount admission ({@code plugin/pkg/admission/serviceaccount/admission.go}). On pod create:
 *
 * <ul>
 *   <li>a mirror pod (annotation {@value #MIRROR_POD_ANNOTATION}, a kubelet's static pod) is not changed, and may
 *       neither name a service account ({@code a mirror pod may not reference service accounts}) nor name a secret,
 *       as an image pull secret, in a container's {@code envFrom} or {@code env}, or in a volume
 *       ({@code a mirror pod may not reference secrets});
 *   <li>any other pod without {@code spec.serviceAccountName} gets {@value PodSpec#DEFAULT_SERVICE_ACCOUNT};
 *   <li>the service account must exist in the pod's namespace, else the pod is refused:
 *       {@code error looking up service account ns/name: serviceaccount "name" not found}. Upstream looks the
 *       {@code default} account up again for a second or two before refusing, because the ServiceAccounts controller
 *       ({@link ServiceAccountsController}) creates it right after the namespace; here the store is read directly,
 *       and a pod created before that controller has run is refused, as upstream once its retries are spent;
 *   <li>unless {@code automountServiceAccountToken} is {@code false} (the pod's, or when the pod leaves it unset, the
 *       account's), every init container and container that mounts nothing at {@value #TOKEN_MOUNT_PATH} gets a
 *       read-only mount there of the token volume, and the pod gets that volume if any container got the mount: a
 *       pod's volume named {@value #TOKEN_VOLUME_PREFIX}{@code *} already there, else a new one of
 *       {@link #TOKEN_VOLUME_SOURCE} named {@value #TOKEN_VOLUME_PREFIX} and five characters. Upstream draws them at
 *       random; here they are a hash of the pod's namespace and name ({@link #tokenVolumeName}), so that runs of the
 *       same inputs name the volumes alike;
 *   <li>a pod without {@code spec.imagePullSecrets} gets the account's {@code imagePullSecrets};
 *   <li>when secret references are limited ({@link #limitingSecretReferences()}, upstream's
 *       {@code LimitSecretReferences}) or the account is annotated {@value #ENFORCE_MOUNTABLE_SECRETS}{@code : "true"},
 *       each secret volume, and each secret an init container's or container's {@code env} ({@code secretKeyRef}) or
 *       {@code envFrom} ({@code secretRef}) refers to, must name a secret of the account's {@code secrets}, and each of
 *       the pod's {@code imagePullSecrets} one of the account's {@code imagePullSecrets}.
 * </ul>
 *
 * <p>Updates, deletions and other kinds pass, except that a pod updated without a service account, image pull secrets
 * or the token volume keeps those it has (a manifest applied again replaces the whole spec here, where kubectl's
 * patch would leave the fields alone). Ephemeral containers are not modelled. Stateless and thread-safe.
 */
public final class ServiceAccountPlugin implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  public static final String NAME = "ServiceAccount";
  /** Kubernetes' {@code kubernetes.io/config.mirror}: the pod is the API server's copy of a static pod. */
  public static final String MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror";
  /** Upstream's {@code EnforceMountableSecretsAnnotation}. */
  public static final String ENFORCE_MOUNTABLE_SECRETS = "kubernetes.io/enforce-mountable-secrets";
  /** Where the token volume is mounted (upstream's {@code DefaultAPITokenMountPath}). */
  public static final String TOKEN_MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
  /** The token volume's name before its generated part (upstream's {@code ServiceAccountVolumeName} and a dash). */
  public static final String TOKEN_VOLUME_PREFIX = "kube-api-access-";
  /** The token's lifetime asked for ({@code serviceaccount.WarnOnlyBoundTokenExpirationSeconds}). */
  public static final long TOKEN_EXPIRATION_SECONDS = 3607;
  /**
   * The token volume's source (upstream's {@code TokenVolumeSource()}): a token of the pod's account at {@code token},
   * {@code ca.crt} of the {@value ConfigMap#ROOT_CA_NAME} ConfigMap, and the pod's namespace at {@code namespace},
   * files of mode 0644. One instance serves every pod.
   */
  public static final VolumeSource.Projected TOKEN_VOLUME_SOURCE = new VolumeSource.Projected(List.of(
      new VolumeProjection.ServiceAccountToken("", TOKEN_EXPIRATION_SECONDS, "token"),
      new VolumeProjection.ConfigMap(ConfigMap.ROOT_CA_NAME,
          List.of(new KeyToPath(ConfigMap.ROOT_CA_KEY, ConfigMap.ROOT_CA_KEY, null)), false),
      new VolumeProjection.DownwardAPI(List.of(new DownwardAPIVolumeFile("namespace",
          new DownwardAPIVolumeFile.FieldRef("v1", "metadata.namespace"), null, null)))), 0644);
  /** {@code rand.String}'s alphabet: no vowels, no characters easily confused. */
  private static final char[] ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789".toCharArray();

  private final boolean limitSecretReferences;
  private final Function<Pod, String> tokenVolumeNames;

  /** Upstream's plugin: secret references are checked only for accounts annotated to enforce them. */
  public ServiceAccountPlugin() {
    this(false, ServiceAccountPlugin::tokenVolumeName);
  }

  /** The plugin naming new token volumes with {@code tokenVolumeNames} (upstream's tests' {@code generateName}). */
  ServiceAccountPlugin(boolean limitSecretReferences, Function<Pod, String> tokenVolumeNames) {
    this.limitSecretReferences = limitSecretReferences;
    this.tokenVolumeNames = tokenVolumeNames;
  }

  /** The plugin with {@code LimitSecretReferences} on: every pod's secret volumes must be its account's secrets. */
  public static ServiceAccountPlugin limitingSecretReferences() {
    return new ServiceAccountPlugin(true, ServiceAccountPlugin::tokenVolumeName);
  }

  /**
   * The name of the token volume this plugin adds to {@code pod}: {@value #TOKEN_VOLUME_PREFIX} and five characters
   * of upstream's alphabet, from a hash (FNV-1a) of the pod's namespace and name. The same pod is named alike in
   * every run; pods made by controllers have seeded names, so a run's volume names follow its seed.
   */
  public static String tokenVolumeName(Pod pod) {
    long h = 0xcbf29ce484222325L;
    String key = pod.metadata().namespace() + "/" + pod.metadata().name();
    for (int i = 0; i < key.length(); i++) {
      h = (h ^ key.charAt(i)) * 0x100000001b3L;
    }
    char[] out = new char[TOKEN_VOLUME_PREFIX.length() + 5];
    TOKEN_VOLUME_PREFIX.getChars(0, TOKEN_VOLUME_PREFIX.length(), out, 0);
    for (int i = TOKEN_VOLUME_PREFIX.length(); i < out.length; i++) {
      out[i] = ALPHANUMS[(int) Long.remainderUnsigned(h, ALPHANUMS.length)];
      h = Long.divideUnsigned(h, ALPHANUMS.length);
    }
    return new String(out);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public AdmissionVerdict mutate(AdmissionRequest request, ObjectStore store) {
    if (request.operation() == AdmissionOperation.UPDATE && request.object() instanceof Pod pod
        && request.oldObject() instanceof Pod old) {
      // a whole spec written again without what this plugin gave (an apply of the original manifest) keeps it, as a
      // patch would, instead of failing as a change of an immutable field (FleetKit's; see Priority's)
      Pod out = pod.spec().serviceAccountName().isEmpty() && !old.spec().serviceAccountName().isEmpty()
          ? pod.withServiceAccountName(old.spec().serviceAccountName()) : pod;
      if (pod.spec().imagePullSecrets().isEmpty() && !old.spec().imagePullSecrets().isEmpty()) {
        out = new Pod(out.metadata(), out.spec().withImagePullSecrets(old.spec().imagePullSecrets()), out.status());
      }
      out = keepTokenVolume(out, old);
      return out == pod ? AdmissionVerdict.allow() : AdmissionVerdict.mutate(out);
    }
    if (request.operation() != AdmissionOperation.CREATE || !(request.object() instanceof Pod pod) || isMirror(pod)) {
      return AdmissionVerdict.allow();
    }
    Pod out = pod.spec().serviceAccountName().isEmpty()
        ? pod.withServiceAccountName(PodSpec.DEFAULT_SERVICE_ACCOUNT) : pod;
    // the account's token volume and image pull secrets (a missing account is refused by validate)
    ServiceAccount account = store.get(ServiceAccount.class, request.namespace(), out.spec().serviceAccountName())
        .orElse(null);
    if (account != null && automounts(account, pod.spec())) {
      out = mountToken(out, tokenVolumeNames);
    }
    if (account != null && pod.spec().imagePullSecrets().isEmpty() && !account.imagePullSecrets().isEmpty()) {
      out = out.withSpec(out.spec().withImagePullSecrets(account.imagePullSecrets()));
    }
    return out == pod ? AdmissionVerdict.allow() : AdmissionVerdict.mutate(out);
  }

  /** Upstream's {@code shouldAutomount}: the pod's {@code automountServiceAccountToken}, else the account's, else true. */
  private static boolean automounts(ServiceAccount account, PodSpec spec) {
    Boolean pods = spec.automountServiceAccountToken();
    if (pods != null) {
      return pods;
    }
    return !Boolean.FALSE.equals(account.automountServiceAccountToken());
  }

  /**
   * Upstream's {@code mountServiceAccountToken}: {@code pod} with the token volume mounted read-only at
   * {@value #TOKEN_MOUNT_PATH} in each init container and container that mounts nothing there, and with the volume,
   * named by {@code names}, when one of them got the mount and the pod has no {@value #TOKEN_VOLUME_PREFIX}{@code *}
   * volume yet; {@code pod} itself when every container mounts that path already.
   */
  private static Pod mountToken(Pod pod, Function<Pod, String> names) {
    Volume existing = tokenVolume(pod.spec());
    String volumeName = existing != null ? existing.name() : names.apply(pod);
    return pod.withVolumeMountedInAll(existing != null ? null : new Volume(volumeName, TOKEN_VOLUME_SOURCE),
        VolumeMount.of(volumeName, TOKEN_MOUNT_PATH, true));
  }

  /** The spec's first volume named {@value #TOKEN_VOLUME_PREFIX}{@code *}, or {@code null}. */
  private static @Nullable Volume tokenVolume(PodSpec spec) {
    for (Volume v : spec.volumes()) {
      if (v.name().startsWith(TOKEN_VOLUME_PREFIX)) {
        return v;
      }
    }
    return null;
  }

  /**
   * {@code pod} (an update) with the token volume of {@code old} and the containers' mounts of it back, when its spec
   * has no {@value #TOKEN_VOLUME_PREFIX}{@code *} volume (a manifest applied again: the fields are immutable, and
   * kubectl's patch would leave them alone); {@code pod} itself otherwise.
   */
  private static Pod keepTokenVolume(Pod pod, Pod old) {
    Volume token = tokenVolume(old.spec());
    if (token == null || tokenVolume(pod.spec()) != null) {
      return pod;
    }
    return pod.withVolumeMountedInAll(token, VolumeMount.of(token.name(), TOKEN_MOUNT_PATH, true));
  }

  @Override
  public AdmissionVerdict validate(AdmissionRequest request, ObjectStore store) {
    if (request.operation() != AdmissionOperation.CREATE || !(request.object() instanceof Pod pod)) {
      return AdmissionVerdict.allow();
    }
    List<Volume> volumes = pod.spec().volumes();
    if (isMirror(pod)) {
      if (!pod.spec().serviceAccountName().isEmpty()) {
        return AdmissionVerdict.deny("spec.serviceAccountName", "a mirror pod may not reference service accounts");
      }
      // the secrets upstream's VisitPodSecretNames visits, in its order: image pull secrets, then the containers'
      // (init containers first; envFrom before env), then those of secret volumes and of projected volumes' sources
      if (!pod.spec().imagePullSecrets().isEmpty()) {
        return AdmissionVerdict.deny("spec.imagePullSecrets[0]", "a mirror pod may not reference secrets");
      }
      for (String field : List.of("initContainers", "containers")) {
        List<Container> containers = field.equals("containers") ? pod.spec().containers()
            : pod.spec().initContainers();
        for (int i = 0; i < containers.size(); i++) {
          String ref = secretReference(containers.get(i), "spec." + field + "[" + i + "]");
          if (ref != null) {
            return AdmissionVerdict.deny(ref, "a mirror pod may not reference secrets");
          }
        }
      }
      for (int i = 0; i < volumes.size(); i++) {
        VolumeSource s = volumes.get(i).source();
        if (!s.secretNames().isEmpty()) {
          return AdmissionVerdict.deny("spec.volumes[" + i + (s instanceof VolumeSource.Secret ? "].secret"
              : "].projected"), "a mirror pod may not reference secrets");
        }
      }
      for (int i = 0; i < volumes.size(); i++) {
        if (volumes.get(i).source() instanceof VolumeSource.Projected p && p.hasServiceAccountToken()) {
          return AdmissionVerdict.deny("spec.volumes[" + i + "].projected",
              "a mirror pod may not use ServiceAccountToken volume projections");
        }
      }
      return AdmissionVerdict.allow();
    }
    String namespace = request.namespace();
    String name = pod.spec().serviceAccountName();
    ServiceAccount account = store.get(ServiceAccount.class, namespace, name).orElse(null);
    if (account == null) {
      return AdmissionVerdict.deny("spec.serviceAccountName", "error looking up service account " + namespace + "/"
          + name + ": serviceaccount \"" + name + "\" not found");
    }
    if (limitSecretReferences
        || GoBools.isTrue(account.metadata().annotations().get(ENFORCE_MOUNTABLE_SECRETS))) {
      for (int i = 0; i < volumes.size(); i++) {
        if (volumes.get(i).source() instanceof VolumeSource.Secret s && !account.secrets().contains(s.secretName())) {
          return AdmissionVerdict.deny("spec.volumes[" + i + "].secret.secretName", "volume with secret.secretName=\""
              + s.secretName() + "\" is not allowed because service account " + name
              + " does not reference that secret");
        }
      }
      for (String field : List.of("initContainers", "containers")) {
        List<Container> containers = field.equals("containers") ? pod.spec().containers()
            : pod.spec().initContainers();
        String what = field.equals("containers") ? "container " : "init container ";
        for (int i = 0; i < containers.size(); i++) {
          Container c = containers.get(i);
          List<EnvVar> env = c.env();
          for (int j = 0; j < env.size(); j++) {
            EnvVarSource from = env.get(j).valueFrom();
            String secret = from == null || from.secretKeyRef() == null ? null : from.secretKeyRef().name();
            if (secret != null && !account.secrets().contains(secret)) {
              return AdmissionVerdict.deny("spec." + field + "[" + i + "].env[" + j + "].valueFrom.secretKeyRef.name",
                  what + c.name() + " with envVar " + env.get(j).name() + " referencing secret.secretName=\""
                  + secret + "\" is not allowed because service account " + name + " does not reference that secret");
            }
          }
          List<EnvFromSource> envFrom = c.envFrom();
          for (int j = 0; j < envFrom.size(); j++) {
            EnvFromSource.Reference ref = envFrom.get(j).secretRef();
            if (ref != null && !account.secrets().contains(ref.name())) {
              return AdmissionVerdict.deny("spec." + field + "[" + i + "].envFrom[" + j + "].secretRef.name",
                  what + c.name() + " with envFrom referencing secret.secretName=\"" + ref.name()
                  + "\" is not allowed because service account " + name + " does not reference that secret");
            }
          }
        }
      }
      List<String> pullSecrets = pod.spec().imagePullSecrets();
      for (int i = 0; i < pullSecrets.size(); i++) {
        if (!account.imagePullSecrets().contains(pullSecrets.get(i))) {
          return AdmissionVerdict.deny("spec.imagePullSecrets[" + i + "].name", "imagePullSecrets[" + i + "].name=\""
              + pullSecrets.get(i) + "\" is not allowed because service account " + name
              + " does not reference that imagePullSecret");
        }
      }
    }
    return AdmissionVerdict.allow();
  }

  /**
   * The field of the first secret {@code c} refers to in its environment, as {@code VisitPodSecretNames} visits them
   * (its {@code envFrom}, then its {@code env}); {@code null} when none.
   */
  private static @Nullable String secretReference(Container c, String path) {
    for (int j = 0; j < c.envFrom().size(); j++) {
      if (c.envFrom().get(j).secretRef() != null) {
        return path + ".envFrom[" + j + "].secretRef";
      }
    }
    for (int j = 0; j < c.env().size(); j++) {
      EnvVarSource from = c.env().get(j).valueFrom();
      if (from != null && from.secretKeyRef() != null) {
        return path + ".env[" + j + "].valueFrom.secretKeyRef";
      }
    }
    return null;
  }

  private static boolean isMirror(Pod pod) {
    return pod.metadata().annotations().containsKey(MIRROR_POD_ANNOTATION);
  }
}
