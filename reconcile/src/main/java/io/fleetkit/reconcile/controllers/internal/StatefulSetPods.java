package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.apps.ClaimTemplate;
import io.fleetkit.api.apps.RollingUpdateStatefulSetStrategy;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeMode;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeResourceRequirements;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.controllers.ActivePods;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The identity rules of StatefulSet pods, after {@code pkg/controller/statefulset/stateful_set_utils.go}: names
 * {@code <set>-<ordinal>}, identity labels and annotations, one claim per template and ordinal, revision labels.
 * Stateless and thread-safe.
 */
public final class StatefulSetPods {
  private static final Pattern STATEFUL_POD = Pattern.compile("(.*)-([0-9]+)$");

  /** The parent's name and the ordinal of a pod name; ordinal -1 (and empty parent) when it is not a member name. */
  public record ParentAndOrdinal(String parent, int ordinal) {}

  private StatefulSetPods() {}

  /** Upstream's {@code getParentNameAndOrdinal}. */
  public static ParentAndOrdinal parentAndOrdinal(String podName) {
    Matcher m = STATEFUL_POD.matcher(podName);
    if (!m.matches()) {
      return new ParentAndOrdinal("", -1);
    }
    try {
      return new ParentAndOrdinal(m.group(1), Integer.parseInt(m.group(2)));
    } catch (NumberFormatException e) {
      return new ParentAndOrdinal("", -1); // more digits than an int: not an ordinal we could have made
    }
  }

  /** The ordinal of {@code pod}, or -1. */
  public static int ordinal(Pod pod) {
    return parentAndOrdinal(pod.metadata().name()).ordinal();
  }

  /** Upstream's {@code isMemberOf}: the pod's name says it belongs to {@code set}. */
  public static boolean isMemberOf(StatefulSet set, Pod pod) {
    return parentAndOrdinal(pod.metadata().name()).parent().equals(set.metadata().name());
  }

  /** Upstream's {@code identityMatches}: name, namespace, pod-name label, hostname and subdomain. */
  public static boolean identityMatches(StatefulSet set, Pod pod) {
    ParentAndOrdinal po = parentAndOrdinal(pod.metadata().name());
    Map<String, String> labels = pod.metadata().labels();
    Map<String, String> annotations = pod.metadata().annotations();
    return po.ordinal() >= 0 && set.metadata().name().equals(po.parent())
        && set.metadata().namespace().equals(pod.metadata().namespace())
        && pod.metadata().name().equals(labels.get(WorkloadLabels.STATEFULSET_POD_NAME))
        && Integer.toString(po.ordinal()).equals(labels.get(WorkloadLabels.POD_INDEX))
        && pod.metadata().name().equals(annotations.get(WorkloadLabels.HOSTNAME))
        && set.spec().serviceName().equals(annotations.getOrDefault(WorkloadLabels.SUBDOMAIN, ""))
        && annotations.containsKey(WorkloadLabels.SUBDOMAIN);
  }

  /** Upstream's {@code storageMatches}: a volume per claim template naming the claim of this ordinal. */
  public static boolean storageMatches(StatefulSet set, Pod pod) {
    int ordinal = ordinal(pod);
    if (ordinal < 0) {
      return false;
    }
    Map<String, Volume> volumes = new LinkedHashMap<>();
    for (Volume v : pod.spec().volumes()) {
      volumes.put(v.name(), v);
    }
    for (ClaimTemplate t : set.spec().volumeClaimTemplates()) {
      Volume v = volumes.get(t.name());
      VolumeSource.PersistentVolumeClaim claim = v == null ? null : v.claim();
      if (claim == null || !claim.claimName().equals(t.claimName(set.metadata().name(), ordinal))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Upstream's {@code updateIdentity}: {@code pod}'s metadata with the set's namespace and identity marks. The spec
   * is left alone: {@code spec.hostname} and {@code spec.subdomain} are immutable once the pod exists (the store
   * refuses changing them, as the API server does), so only {@link #initIdentity} sets them.
   */
  public static Pod updateIdentity(StatefulSet set, Pod pod) {
    int ordinal = ordinal(pod);
    ObjectMeta m = pod.metadata().toBuilder()
        .namespace(set.metadata().namespace())
        .label(WorkloadLabels.STATEFULSET_POD_NAME, pod.metadata().name())
        .label(WorkloadLabels.POD_INDEX, Integer.toString(ordinal))
        .annotation(WorkloadLabels.HOSTNAME, pod.metadata().name())
        .annotation(WorkloadLabels.SUBDOMAIN, set.spec().serviceName())
        .build();
    return pod.withMetadata(m);
  }

  /**
   * Upstream's {@code initIdentity}: {@link #updateIdentity}, and on the pod to be created its
   * {@code spec.hostname}/{@code spec.subdomain} (the pod's DNS name {@code <pod>.<serviceName>.<ns>.svc}).
   */
  public static Pod initIdentity(StatefulSet set, Pod pod) {
    Pod p = updateIdentity(set, pod);
    PodSpec spec = p.spec();
    if (!spec.hostname().equals(p.metadata().name()) || !spec.subdomain().equals(set.spec().serviceName())) {
      spec = spec.toBuilder().hostname(p.metadata().name()).subdomain(set.spec().serviceName()).build();
    }
    return p.withSpec(spec);
  }

  /** Upstream's {@code updateStorage}: {@code pod} with one PVC volume per claim template, others kept. */
  public static Pod updateStorage(StatefulSet set, Pod pod) {
    return pod.withSpec(withClaimVolumes(set, pod.spec(), ordinal(pod)));
  }

  private static PodSpec withClaimVolumes(StatefulSet set, PodSpec spec, int ordinal) {
    List<ClaimTemplate> templates = set.spec().volumeClaimTemplates();
    if (templates.isEmpty()) {
      return spec;
    }
    Map<String, Volume> byName = new LinkedHashMap<>();
    for (ClaimTemplate t : templates) {
      byName.put(t.name(), Volume.persistentVolumeClaim(t.name(), t.claimName(set.metadata().name(), ordinal)));
    }
    List<Volume> volumes = new ArrayList<>();
    for (Volume v : spec.volumes()) {
      if (!byName.containsKey(v.name())) {
        volumes.add(v);
      }
    }
    volumes.addAll(byName.values());
    return spec.toBuilder().volumes(volumes).build();
  }

  /** Upstream's {@code newStatefulSetPod} + {@code setPodRevision}: the pod of {@code ordinal} from a template. */
  public static Pod newPod(StatefulSet set, PodTemplateSpec template, String revision, int ordinal) {
    String name = set.podName(ordinal);
    ObjectMeta tm = template.metadata();
    ObjectMeta meta = ObjectMeta.builder()
        .namespace(set.metadata().namespace())
        .name(name)
        .labels(tm.labels())
        .annotations(tm.annotations())
        .finalizers(tm.finalizers())
        .label(WorkloadLabels.CONTROLLER_REVISION_HASH, revision)
        .ownerReference(OwnerReference.controllerOf(set))
        .build();
    PodSpec spec = withClaimVolumes(set, template.spec().withNodeName(""), ordinal);
    return initIdentity(set, new Pod(meta, spec, PodStatus.PENDING));
  }

  /** The revision label of {@code pod}, empty when absent. */
  public static String revision(Pod pod) {
    return pod.metadata().labels().getOrDefault(WorkloadLabels.CONTROLLER_REVISION_HASH, "");
  }

  /** Upstream's {@code getPersistentVolumeClaims}: the claims of {@code ordinal}, labelled with the selector. */
  public static List<PersistentVolumeClaim> claims(StatefulSet set, int ordinal) {
    List<PersistentVolumeClaim> out = new ArrayList<>();
    for (ClaimTemplate t : set.spec().volumeClaimTemplates()) {
      Map<String, String> labels = new LinkedHashMap<>(t.labels());
      labels.putAll(set.spec().selector().matchLabels());
      ObjectMeta meta = ObjectMeta.builder().namespace(set.metadata().namespace())
          .name(t.claimName(set.metadata().name(), ordinal)).labels(labels).build();
      List<PersistentVolumeAccessMode> modes = new ArrayList<>();
      for (String mode : t.accessModes()) {
        modes.add(PersistentVolumeAccessMode.valueOf(mode));
      }
      PersistentVolumeClaimSpec spec = PersistentVolumeClaimSpec.builder().accessModes(modes)
          .resources(new VolumeResourceRequirements(t.requests(), ResourceList.EMPTY))
          .storageClassName(t.storageClassName()).volumeMode(PersistentVolumeMode.Filesystem).build();
      out.add(PersistentVolumeClaim.of(meta, spec));
    }
    return out;
  }

  /** Upstream's {@code isRunningAndReady}: phase Running and condition Ready. */
  public static boolean isRunningAndReady(Pod pod) {
    return pod.status().phase() == PodPhase.Running && pod.isReady();
  }

  /** Upstream's {@code isRunningAndAvailable}: running, ready, and ready for {@code minReadySeconds}. */
  public static boolean isRunningAndAvailable(Pod pod, int minReadySeconds, Instant now) {
    return pod.status().phase() == PodPhase.Running && ActivePods.isAvailable(pod, minReadySeconds, now);
  }

  /**
   * Upstream's {@code isUnavailable}: not running and available for {@code minReadySeconds}, or being deleted. A pod
   * not created yet is unavailable too (callers count a missing replica as one).
   */
  public static boolean isUnavailable(Pod pod, int minReadySeconds, Instant now) {
    return !isRunningAndAvailable(pod, minReadySeconds, now) || isTerminating(pod);
  }

  /**
   * Upstream's {@code getStatefulSetMaxUnavailable}: {@code maxUnavailable} (1 when the set has no rolling update
   * bounds) against {@code replicas}, a percentage rounded down, and at least 1.
   */
  public static int maxUnavailable(@Nullable RollingUpdateStatefulSetStrategy rollingUpdate, int replicas) {
    IntOrPercent max = rollingUpdate == null ? IntOrPercent.ONE : rollingUpdate.maxUnavailable();
    return Math.max(1, max.scaledValue(replicas, false));
  }

  /** Has a deletion timestamp. */
  public static boolean isTerminating(Pod pod) {
    return pod.metadata().deletionTimestamp() != null;
  }

  /**
   * Upstream's {@code updateStatefulSetAfterInvariantEstablished} ({@code MaxUnavailableStatefulSet}, on by default
   * since Kubernetes 1.35): the pods a rolling update deletes now. With more replicas unavailable than
   * {@code maxUnavailable} ({@link #isUnavailable}; a replica not created counts as unavailable) none; otherwise the
   * pods of other revisions than {@code updateRevision} that are not being deleted, from the highest ordinal down to
   * {@code partition}, as many as {@code maxUnavailable} less the unavailable replicas.
   *
   * @param replicas the replicas in ordinal order from the start ordinal, {@code null} where not created (a pod
   *     created there will be of the update revision, so it is never deleted)
   * @param partition the lowest index (counted from the start ordinal) the update replaces
   */
  public static List<Pod> rollingUpdateDeletions(@Nullable Pod[] replicas, int partition, int maxUnavailable,
      String updateRevision, int minReadySeconds, Instant now) {
    int unavailable = unavailableReplicas(replicas, minReadySeconds, now);
    if (unavailable > maxUnavailable) {
      return List.of();
    }
    List<Pod> out = new ArrayList<>();
    for (int target = replicas.length - 1; target >= partition && out.size() < maxUnavailable - unavailable;
        target--) {
      Pod pod = replicas[target];
      if (pod != null && !revision(pod).equals(updateRevision) && !isTerminating(pod)) {
        out.add(pod);
      }
    }
    return out;
  }

  /** How many of {@code replicas} are missing ({@code null}) or {@linkplain #isUnavailable unavailable}. */
  public static int unavailableReplicas(@Nullable Pod[] replicas, int minReadySeconds, Instant now) {
    int unavailable = 0;
    for (Pod pod : replicas) {
      if (pod == null || isUnavailable(pod, minReadySeconds, now)) {
        unavailable++;
      }
    }
    return unavailable;
  }

  /** Upstream's {@code ascendingOrdinal}. */
  public static Comparator<Pod> ascendingOrdinal() {
    return Comparator.comparingInt(StatefulSetPods::ordinal);
  }
}
