package io.fleetkit.admission;

import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.MutatingAdmissionPlugin;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.EnvFromSource;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.EnvVarSource;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ServiceAccount;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.text.GoBools;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes' ServiceAccount admission ({@code plugin/pkg/admission/serviceaccount/admission.go}), the part that
 * applies without tokens. On pod create:
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
 *   <li>a pod without {@code spec.imagePullSecrets} gets the account's {@code imagePullSecrets};
 *   <li>when secret references are limited ({@link #limitingSecretReferences()}, upstream's
 *       {@code LimitSecretReferences}) or the account is annotated {@value #ENFORCE_MOUNTABLE_SECRETS}{@code : "true"},
 *       each secret volume, and each secret an init container's or container's {@code env} ({@code secretKeyRef}) or
 *       {@code envFrom} ({@code secretRef}) refers to, must name a secret of the account's {@code secrets}, and each of
 *       the pod's {@code imagePullSecrets} one of the account's {@code imagePullSecrets}.
 * </ul>
 *
 * <p>Not done, as FleetKit has no tokens or volume mounts on pods: the token volume upstream adds (when
 * {@code automountServiceAccountToken}, the pod's or else the account's, is not {@code false}). Updates, deletions and other kinds pass, except that a pod updated
 * without a service account keeps the one it has (a manifest applied again replaces the whole spec here, where
 * kubectl's patch would leave the field alone). Stateless and thread-safe.
 */
public final class ServiceAccountPlugin implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  public static final String NAME = "ServiceAccount";
  /** Kubernetes' {@code kubernetes.io/config.mirror}: the pod is the API server's copy of a static pod. */
  public static final String MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror";
  /** Upstream's {@code EnforceMountableSecretsAnnotation}. */
  public static final String ENFORCE_MOUNTABLE_SECRETS = "kubernetes.io/enforce-mountable-secrets";

  private final boolean limitSecretReferences;

  /** Upstream's plugin: secret references are checked only for accounts annotated to enforce them. */
  public ServiceAccountPlugin() {
    this(false);
  }

  private ServiceAccountPlugin(boolean limitSecretReferences) {
    this.limitSecretReferences = limitSecretReferences;
  }

  /** The plugin with {@code LimitSecretReferences} on: every pod's secret volumes must be its account's secrets. */
  public static ServiceAccountPlugin limitingSecretReferences() {
    return new ServiceAccountPlugin(true);
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
      return out == pod ? AdmissionVerdict.allow() : AdmissionVerdict.mutate(out);
    }
    if (request.operation() != AdmissionOperation.CREATE || !(request.object() instanceof Pod pod) || isMirror(pod)) {
      return AdmissionVerdict.allow();
    }
    Pod out = pod.spec().serviceAccountName().isEmpty()
        ? pod.withServiceAccountName(PodSpec.DEFAULT_SERVICE_ACCOUNT) : pod;
    if (pod.spec().imagePullSecrets().isEmpty()) {
      // the account's image pull secrets (a missing account is refused by validate)
      ServiceAccount account = store.get(ServiceAccount.class, request.namespace(), out.spec().serviceAccountName())
          .orElse(null);
      if (account != null && !account.imagePullSecrets().isEmpty()) {
        out = new Pod(out.metadata(), out.spec().withImagePullSecrets(account.imagePullSecrets()), out.status());
      }
    }
    return out == pod ? AdmissionVerdict.allow() : AdmissionVerdict.mutate(out);
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
