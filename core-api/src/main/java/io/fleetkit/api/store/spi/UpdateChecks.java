package io.fleetkit.api.store.spi;

import io.fleetkit.api.Violations;
import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetSpec;
import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStateType;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.SchedulingValidation;
import io.fleetkit.api.scheduling.Toleration;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The per-kind update rules of the object store: which parts of a stored object an update may change, as the API
 * server's {@code Validate*Update} functions and registry strategies decide (kubernetes {@code
 * pkg/apis/core/validation}, {@code pkg/apis/apps/validation}, {@code pkg/apis/batch/validation}). The new object
 * itself was validated when it was built (every kind checks itself in its compact constructor); these rules only
 * compare it with the stored one. Metadata needs no rule here: the store keeps name, namespace, uid,
 * creationTimestamp and deletionTimestamp itself (see {@link io.fleetkit.api.store.spi.WriteRules}).
 *
 * <p>This class dispatches by kind and holds the pod and workload rules; the rules of Services
 * ({@code ServiceUpdateRule}), PersistentVolumeClaims ({@code ClaimUpdateRule}), PersistentVolumes
 * ({@code PersistentVolumeUpdateRule}) and Nodes ({@code NodeUpdateRule}) are small types of their own beside it.
 * Namespaces need no spec rule here: upstream's {@code ValidateNamespaceUpdate} and {@code
 * ValidateNamespaceFinalizeUpdate} check only what {@link io.fleetkit.api.core.Namespace} checks when it is built
 * (the finalizer names); their status rule is {@code NamespaceStatusRule}.
 *
 * <p>Cheap on the hot path: each kind's rule starts with a reference comparison of the parts it guards (the
 * store's objects are immutable records, an unchanged part is usually the same instance) and falls back to
 * {@code equals} of small records; the error paths alone allocate. Stateless and thread-safe.
 */
public final class UpdateChecks {
  /** Kubernetes' {@code FieldImmutableErrorMsg}. */
  public static final String IMMUTABLE = "field is immutable";
  /** The fields {@code ValidatePodUpdate} lets an update change, in its wording. */
  public static final String POD_UPDATABLE = "pod updates may not change fields other than `spec.containers[*].image`,"
      + "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing"
      + " tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";
  /** {@code ValidateStatefulSetUpdate}'s rule. */
  public static final String STATEFUL_SET_UPDATABLE = "updates to statefulset spec for fields other than 'replicas',"
      + " 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy'"
      + " and 'minReadySeconds' are forbidden";
  /** {@code ValidatePersistentVolumeClaimUpdate}'s rule. */
  public static final String CLAIM_UPDATABLE =
      "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims";

  private UpdateChecks() {}

  /**
   * Checks an update of metadata and spec ({@code ObjectStore.update}).
   *
   * @param binding whether the write is the store's binding path ({@code ObjectStore.updateWithStatus}), which may
   *     also assign an unassigned pod to a node, as the {@code pods/binding} subresource does
   * @throws io.fleetkit.api.ValidationException naming the object, each refused field and its rule
   */
  public static void update(ApiObject<?> stored, ApiObject<?> updated, boolean binding) {
    Class<?> kind = updated.getClass();
    if (kind == Pod.class) {
      pod((Pod) stored, (Pod) updated, binding);
    } else if (kind == ReplicaSet.class) {
      ReplicaSet o = (ReplicaSet) stored;
      ReplicaSet n = (ReplicaSet) updated;
      if (o.spec() != n.spec() && !o.spec().selector().equals(n.spec().selector())) {
        violations(n).add("spec.selector", IMMUTABLE, n.spec().selector()).throwIfAny();
      }
    } else if (kind == Deployment.class) {
      Deployment o = (Deployment) stored;
      Deployment n = (Deployment) updated;
      if (o.spec() != n.spec() && !o.spec().selector().equals(n.spec().selector())) {
        violations(n).add("spec.selector", IMMUTABLE, n.spec().selector()).throwIfAny();
      }
    } else if (kind == StatefulSet.class) {
      statefulSet((StatefulSet) stored, (StatefulSet) updated);
    } else if (kind == Job.class) {
      job((Job) stored, (Job) updated);
    } else if (kind == Service.class) {
      ServiceUpdateRule.check((Service) stored, (Service) updated);
    } else if (kind == PersistentVolumeClaim.class) {
      ClaimUpdateRule.check((PersistentVolumeClaim) stored, (PersistentVolumeClaim) updated);
    } else if (kind == PersistentVolume.class) {
      PersistentVolumeUpdateRule.check((PersistentVolume) stored, (PersistentVolume) updated);
    } else if (kind == Node.class) {
      NodeUpdateRule.spec((Node) stored, (Node) updated);
    } else if (kind == ControllerRevision.class) {
      ControllerRevision o = (ControllerRevision) stored;
      ControllerRevision n = (ControllerRevision) updated;
      if (o.data() != n.data() && !o.data().equals(n.data())) {
        violations(n).add("data", IMMUTABLE, null).throwIfAny();
      }
    } else if (kind == Secret.class) {
      secret((Secret) stored, (Secret) updated);
    } else if (kind == ConfigMap.class) {
      configMap((ConfigMap) stored, (ConfigMap) updated);
    }
  }

  /**
   * Checks an update of the status ({@code ObjectStore.updateStatus}, and the status part of
   * {@code updateWithStatus}): for pods, {@code ValidatePodStatusUpdate}'s container state transitions; for nodes,
   * no duplicate address ({@code ValidateNodeUpdate}); for namespaces, a phase that agrees with the deletion mark
   * ({@code ValidateNamespaceStatusUpdate}); other kinds have no rule beyond their own validation.
   *
   * @throws io.fleetkit.api.ValidationException naming the object, each refused field and its rule
   */
  public static void status(ApiObject<?> stored, ApiObject<?> updated) {
    if (updated.getClass() == Node.class) {
      NodeUpdateRule.status((Node) stored, (Node) updated);
    } else if (updated.getClass() == Namespace.class) {
      NamespaceStatusRule.check((Namespace) stored, (Namespace) updated);
    } else if (updated.getClass() == Pod.class) {
      Pod o = (Pod) stored;
      Pod n = (Pod) updated;
      if (o.status() != n.status() && o.status().containerStatuses() != n.status().containerStatuses()) {
        containerStateTransitions(n, n.status().containerStatuses(), o.status().containerStatuses(),
            o.spec().restartPolicy());
      }
    }
  }

  // ------------------------------------------------------------------------------------------------------- Pod

  /**
   * Kubernetes' {@code ValidatePodUpdate}, including its rules for a pod whose stored version is gated
   * ({@link GatedPodUpdates}); with {@code binding}, also the {@code pods/binding} subresource's rule.
   */
  private static void pod(Pod stored, Pod updated, boolean binding) {
    PodSpec o = stored.spec();
    PodSpec n = updated.spec();
    if (o == n || o.equals(n)) {
      return;
    }
    Violations v = violations(updated);
    if (!containerUpdates(n.containers(), o.containers(), "spec.containers", v)
        || !containerUpdates(n.initContainers(), o.initContainers(), "spec.initContainers", v)) {
      v.throwIfAny();
      return;
    }
    Long newDeadline = n.activeDeadlineSeconds();
    Long oldDeadline = o.activeDeadlineSeconds();
    if (newDeadline != null) {
      if (newDeadline < 0 || newDeadline > Integer.MAX_VALUE) {
        v.add("spec.activeDeadlineSeconds", "must be between 0 and 2147483647, inclusive", newDeadline);
        v.throwIfAny();
      }
      if (oldDeadline != null && oldDeadline < newDeadline) {
        v.add("spec.activeDeadlineSeconds", "must be less than or equal to previous value", newDeadline);
        v.throwIfAny();
      }
    } else if (oldDeadline != null) {
      v.add("spec.activeDeadlineSeconds", "must not update from a positive integer to nil value", null);
    }
    onlyAddedTolerations(n.tolerations(), o.tolerations(), "spec.tolerations", v);

    boolean bound = binding && !n.nodeName().equals(o.nodeName()); // judged here, not as a spec change
    if (bound) {
      // pods/binding (pkg/registry/core/pod/storage assignPod): once, not while the pod is being deleted, and not
      // while the stored pod has scheduling gates. Upstream a binding carries only the node, and the update that
      // clears the gates may not set spec.nodeName, so no single write does both: one that tries is refused here.
      if (!o.nodeName().isEmpty()) {
        v.add("spec.nodeName", "pod " + updated.metadata().name() + " is already assigned to node \""
            + o.nodeName() + "\"", n.nodeName());
      } else if (stored.metadata().deletionTimestamp() != null) {
        v.add("spec.nodeName", "pod " + updated.metadata().name() + " is being deleted, cannot be assigned to a"
            + " host", n.nodeName());
      } else if (!o.schedulingGates().isEmpty()) {
        v.add("spec.nodeName", "pod " + updated.metadata().name() + " has non-empty .spec.schedulingGates",
            n.nodeName());
      }
    }
    long grace = n.terminationGracePeriodSeconds();
    if (o.terminationGracePeriodSeconds() < 0 && grace == 1) {
      grace = o.terminationGracePeriodSeconds();
    }
    onlyDeletedSchedulingGates(n.schedulingGates(), o.schedulingGates(), "spec.schedulingGates", v);
    Map<String, String> nodeSelector = n.nodeSelector();
    Affinity affinity = n.affinity();
    if (!o.schedulingGates().isEmpty()) {
      // a gated pod's node selector and node affinity may be narrowed (mutable scheduling directives, KEP-3838);
      // once judged, the munged spec takes the stored ones, so that only the rule's own violation is reported
      if (!nodeSelector.equals(o.nodeSelector())) {
        GatedPodUpdates.nodeSelectorMutation(nodeSelector, o.nodeSelector(), "spec.nodeSelector", v);
        nodeSelector = o.nodeSelector();
      }
      NodeAffinity oldNodeAffinity = o.affinity().nodeAffinity();
      NodeAffinity newNodeAffinity = affinity.nodeAffinity();
      if (!Objects.equals(oldNodeAffinity, newNodeAffinity)) {
        GatedPodUpdates.nodeAffinityMutation(newNodeAffinity, oldNodeAffinity, "spec.affinity.nodeAffinity", v);
        affinity = GatedPodUpdates.withNodeAffinityOf(affinity, o.affinity());
      }
    }
    PodSpec munged = new PodSpec(withImagesOf(n.containers(), o.containers()),
        withImagesOf(n.initContainers(), o.initContainers()), n.overhead(), n.priority(), n.priorityClassName(),
        n.preemptionPolicy(), nodeSelector, affinity, o.tolerations(), n.topologySpreadConstraints(),
        n.schedulerName(), bound ? o.nodeName() : n.nodeName(), n.volumes(), n.restartPolicy(), grace,
        o.activeDeadlineSeconds(), n.hostname(), n.subdomain(), n.resources(), o.schedulingGates(),
        n.resourceClaims(), n.readinessGates(), n.os(), n.serviceAccountName(), n.automountServiceAccountToken(),
        n.dnsPolicy(), n.dnsConfig(), n.hostAliases(), n.hostNetwork(), n.imagePullSecrets()); // these: immutable
    if (!munged.equals(o)) {
      v.add("spec", "Forbidden: " + POD_UPDATABLE + "; changed: " + changedComponents("spec", o, munged), null);
    }
    v.throwIfAny();
  }

  /** Upstream's {@code validateOnlyDeletedSchedulingGates}: an update may remove gates, never add one. */
  private static void onlyDeletedSchedulingGates(List<String> n, List<String> o, String path, Violations v) {
    for (int i = 0; i < n.size(); i++) {
      if (!o.contains(n.get(i))) {
        v.add(path + "[" + i + "].name", "Forbidden: only deletion is allowed, but found new scheduling gate '"
            + n.get(i) + "'", null);
      }
    }
  }

  /** {@code ValidateContainerUpdates}: false (stop) when containers were added or removed. */
  private static boolean containerUpdates(List<Container> n, List<Container> o, String path, Violations v) {
    if (n == o) {
      return true;
    }
    if (n.size() != o.size()) {
      v.add(path, "Forbidden: pod updates may not add or remove containers", null);
      return false;
    }
    for (int i = 0; i < n.size(); i++) {
      String image = n.get(i).image();
      if (image.isEmpty()) {
        v.required(path + "[" + i + "].image");
      }
      if (image.strip().length() != image.length()) {
        v.add(path + "[" + i + "].image", "must not have leading or trailing whitespace", image);
      }
    }
    return true;
  }

  private static List<Container> withImagesOf(List<Container> n, List<Container> o) {
    if (n == o) {
      return n;
    }
    List<Container> out = null;
    for (int i = 0; i < n.size(); i++) {
      Container c = n.get(i);
      String image = o.get(i).image();
      if (!c.image().equals(image)) {
        if (out == null) {
          out = new ArrayList<>(n);
        }
        out.set(i, c.withImage(image));
      }
    }
    return out == null ? n : out;
  }

  /**
   * {@code validateOnlyAddedTolerations}: every existing toleration is kept, changed at most in its
   * {@code tolerationSeconds}.
   */
  private static void onlyAddedTolerations(List<Toleration> n, List<Toleration> o, String path, Violations v) {
    if (n == o || n.equals(o)) {
      return;
    }
    for (Toleration old : o) {
      boolean found = false;
      for (Toleration t : n) {
        if (old.key().equals(t.key()) && old.operator() == t.operator() && old.value().equals(t.value())
            && old.effect() == t.effect()) {
          found = true;
          break;
        }
      }
      if (!found) {
        v.add(path, "Forbidden: existing toleration can not be modified except its tolerationSeconds", old);
        return;
      }
    }
    v.addAll(SchedulingValidation.validateTolerations(n, path));
  }

  /** {@code ValidateContainerStateTransition}: without restarts, a terminated container stays terminated. */
  private static void containerStateTransitions(Pod pod, List<ContainerStatus> n, List<ContainerStatus> o,
      RestartPolicy policy) {
    if (policy == RestartPolicy.Always) {
      return;
    }
    Violations v = null;
    for (int i = 0; i < o.size(); i++) {
      ContainerStatus old = o.get(i);
      if (old.state().type() != ContainerStateType.Terminated) {
        continue;
      }
      Integer exit = old.state().exitCode();
      if (exit != null && exit != 0 && policy == RestartPolicy.OnFailure) {
        continue;
      }
      for (ContainerStatus s : n) {
        if (s.name().equals(old.name()) && s.state().type() != ContainerStateType.Terminated) {
          if (v == null) {
            v = violations(pod);
          }
          v.add("status.containerStatuses[" + i + "].state",
              "Forbidden: may not be transitioned to non-terminated state", s.state().type());
        }
      }
    }
    if (v != null) {
      v.throwIfAny();
    }
  }

  // ---------------------------------------------------------------------------------------------- pods/resize

  /**
   * The {@code pods/resize} subresource: {@code stored} with the cpu and memory requests and limits of
   * {@code requested}'s containers and sidecars (matched by name), every other change dropped, as the API server's
   * resize strategy does; refused, as {@code ValidatePodResize}, for a pod with pod-level resources, for changes to
   * other resources, and when the pod's QoS class would change.
   *
   * @throws io.fleetkit.api.ValidationException naming the pod, the field and the rule
   */
  public static Pod resized(Pod stored, Pod requested) {
    PodSpec o = stored.spec();
    PodSpec r = requested.spec();
    List<Container> containers = resizedContainers(o.containers(), r.containers(), false);
    List<Container> init = resizedContainers(o.initContainers(), r.initContainers(), true);
    if (containers == o.containers() && init == o.initContainers()) {
      return stored;
    }
    Violations v = violations(stored);
    if (o.hasPodLevelResources()) {
      v.add("spec", "Forbidden: pods with pod-level resources cannot be resized", null);
      v.throwIfAny();
    }
    otherResourcesKept(o.containers(), containers, "spec.containers", v);
    otherResourcesKept(o.initContainers(), init, "spec.initContainers", v);
    PodSpec spec = o.toBuilder().containers(containers).initContainers(init).build();
    if (qos(o) != qos(spec)) {
      v.add("spec", "Forbidden: Pod QOS Class may not change as a result of resizing", null);
    }
    v.throwIfAny();
    return stored.withSpec(spec);
  }

  /** {@code old} with the resources of the same-named containers of {@code requested}; {@code old} if none moved. */
  private static List<Container> resizedContainers(List<Container> old, List<Container> requested,
      boolean sidecarsOnly) {
    List<Container> out = null;
    for (int i = 0; i < old.size(); i++) {
      Container c = old.get(i);
      if (sidecarsOnly && !c.isRestartable()) {
        continue; // only restartable init containers (sidecars) can be resized
      }
      for (Container n : requested) {
        if (n.name().equals(c.name()) && !n.resources().equals(c.resources())) {
          if (out == null) {
            out = new ArrayList<>(old);
          }
          out.set(i, c.withResources(n.resources()));
        }
      }
    }
    return out == null ? old : out;
  }

  private static void otherResourcesKept(List<Container> old, List<Container> resized, String path, Violations v) {
    for (int i = 0; i < old.size(); i++) {
      ResourceRequirementsView a = new ResourceRequirementsView(old.get(i));
      ResourceRequirementsView b = new ResourceRequirementsView(resized.get(i));
      if (!a.others().equals(b.others())) {
        v.add(path + "[" + i + "].resources", "Forbidden: only cpu and memory resources are mutable", null);
      }
    }
  }

  /** A container's requests and limits other than cpu and memory, for {@link #otherResourcesKept}. */
  private record ResourceRequirementsView(Container c) {
    List<Object> others() {
      List<Object> out = new ArrayList<>();
      c.resources().requests().forEach((name, q) -> {
        if (!name.equals("cpu") && !name.equals("memory")) {
          out.add("requests." + name + "=" + q);
        }
      });
      c.resources().limits().forEach((name, q) -> {
        if (!name.equals("cpu") && !name.equals("memory")) {
          out.add("limits." + name + "=" + q);
        }
      });
      return out;
    }
  }

  /** Kubernetes' QoS classes ({@code qos.GetPodQOS}), for the resize rule. */
  enum Qos { BestEffort, Burstable, Guaranteed }

  /** {@code GetPodQOS} over the containers and init containers (cpu and memory only). */
  static Qos qos(PodSpec spec) {
    boolean any = false;
    boolean guaranteed = true;
    List<Container> all = new ArrayList<>(spec.containers());
    all.addAll(spec.initContainers());
    for (Container c : all) {
      ResourceList req = c.resources().requests();
      ResourceList lim = c.resources().limits();
      for (String name : new String[] {"cpu", "memory"}) {
        boolean hasReq = req.has(name) && req.get(name).signum() != 0;
        boolean hasLim = lim.has(name) && lim.get(name).signum() != 0;
        any |= hasReq || hasLim;
        if (!hasLim || (hasReq && req.get(name).compareTo(lim.get(name)) != 0)) {
          guaranteed = false;
        }
      }
    }
    if (!any) {
      return Qos.BestEffort;
    }
    return guaranteed ? Qos.Guaranteed : Qos.Burstable;
  }

  // ----------------------------------------------------------------------------------------------- StatefulSet

  /** Kubernetes' {@code ValidateStatefulSetUpdate} (and apps/v1's immutable selector, part of the same rule). */
  private static void statefulSet(StatefulSet stored, StatefulSet updated) {
    StatefulSetSpec o = stored.spec();
    StatefulSetSpec n = updated.spec();
    if (o == n) {
      return;
    }
    // n with the updatable fields of o: what is left must not differ
    StatefulSetSpec munged = new StatefulSetSpec(o.replicas(), n.selector(), o.template(), n.serviceName(),
        n.volumeClaimTemplates(), n.podManagementPolicy(), o.updateStrategy(), o.revisionHistoryLimit(),
        o.minReadySeconds(), o.persistentVolumeClaimRetentionPolicy(), o.ordinals());
    if (!munged.equals(o)) {
      violations(updated).add("spec", "Forbidden: " + STATEFUL_SET_UPDATABLE + "; changed: "
          + changedComponents("spec", o, munged), null).throwIfAny();
    }
  }

  // ------------------------------------------------------------------------------------------------------- Job

  /** Kubernetes' {@code ValidateJobSpecUpdate}. */
  private static void job(Job stored, Job updated) {
    JobSpec o = stored.spec();
    JobSpec n = updated.spec();
    if (o == n) {
      return;
    }
    Violations v = violations(updated);
    // validateCompletions: immutable, except that an Indexed Job may change it in tandem with parallelism.
    if (!Objects.equals(n.completions(), o.completions())) {
      if (n.completionMode() != CompletionMode.Indexed) {
        v.add("spec.completions", IMMUTABLE, n.completions());
      } else if (n.completions() != null && n.completions() != n.parallelism()) {
        v.add("spec.completions", "can only be modified in tandem with spec.parallelism", n.completions());
      }
    }
    if (!Objects.equals(n.selector(), o.selector())) {
      v.add("spec.selector", IMMUTABLE, n.selector());
    }
    if (n.template() != o.template() && !n.template().equals(o.template())) {
      // validatePodTemplateUpdate: a suspended Job that never started may change its scheduling directives.
      PodTemplateSpec old = o.template();
      if (o.suspend() && stored.status().startTime() == null) {
        old = withSchedulingDirectivesOf(old, n.template());
      }
      if (!n.template().equals(old)) {
        v.add("spec.template", IMMUTABLE + "; changed: " + changedComponents("spec.template.spec",
            old.spec(), n.template().spec()) + (old.metadata().equals(n.template().metadata()) ? ""
            : " spec.template.metadata"), null);
      }
    }
    if (n.completionMode() != o.completionMode()) {
      v.add("spec.completionMode", IMMUTABLE, n.completionMode());
    }
    if (!Objects.equals(n.podFailurePolicy(), o.podFailurePolicy())) {
      v.add("spec.podFailurePolicy", IMMUTABLE, null);
    }
    if (!Objects.equals(n.managedBy(), o.managedBy())) {
      v.add("spec.managedBy", IMMUTABLE, n.managedBy());
    }
    v.throwIfAny();
  }

  /**
   * {@code old} with the node affinity, node selector, tolerations, scheduling gates, labels and annotations of
   * {@code n} (upstream's {@code JobMutableSchedulingDirectives}).
   */
  private static PodTemplateSpec withSchedulingDirectivesOf(PodTemplateSpec old, PodTemplateSpec n) {
    PodSpec s = old.spec();
    PodSpec ns = n.spec();
    Affinity a = s.affinity();
    Affinity na = ns.affinity();
    Affinity affinity = new Affinity(na.nodeAffinity(), a.podAffinity(), a.podAntiAffinity());
    ObjectMeta m = old.metadata();
    ObjectMeta nm = n.metadata();
    ObjectMeta meta = new ObjectMeta(m.name(), m.namespace(), m.uid(), m.resourceVersion(), m.generation(),
        nm.labels(), nm.annotations(), m.ownerReferences(), m.finalizers(), m.creationTimestamp(),
        m.deletionTimestamp(), m.deletionGracePeriodSeconds());
    PodSpec spec = s.toBuilder().nodeSelector(ns.nodeSelector()).affinity(affinity).tolerations(ns.tolerations())
        .schedulingGates(ns.schedulingGates()).build();
    return new PodTemplateSpec(meta, spec);
  }

  // ------------------------------------------------------------------------------------------ Secret, ConfigMap

  /** Kubernetes' {@code ValidateSecretUpdate}. */
  private static void secret(Secret stored, Secret updated) {
    Violations v = null;
    if (!stored.type().equals(updated.type())) {
      v = violations(updated).add("type", IMMUTABLE, updated.type());
    }
    if (stored.immutable()) {
      if (!updated.immutable()) {
        v = (v == null ? violations(updated) : v).add("immutable",
            "Forbidden: field is immutable when `immutable` is set", false);
      }
      if (stored.data() != updated.data() && !stored.data().equals(updated.data())) {
        v = (v == null ? violations(updated) : v).add("data",
            "Forbidden: field is immutable when `immutable` is set", null);
      }
    }
    if (v != null) {
      v.throwIfAny();
    }
  }

  /** Kubernetes' {@code ValidateConfigMapUpdate}. */
  private static void configMap(ConfigMap stored, ConfigMap updated) {
    if (!stored.immutable()) {
      return;
    }
    Violations v = violations(updated);
    if (!updated.immutable()) {
      v.add("immutable", "Forbidden: field is immutable when `immutable` is set", false);
    }
    if (stored.data() != updated.data() && !stored.data().equals(updated.data())) {
      v.add("data", "Forbidden: field is immutable when `immutable` is set", null);
    }
    if (stored.binaryData() != updated.binaryData() && !stored.binaryData().equals(updated.binaryData())) {
      v.add("binaryData", "Forbidden: field is immutable when `immutable` is set", null);
    }
    v.throwIfAny();
  }

  // --------------------------------------------------------------------------------------------------- helpers

  static Violations violations(ApiObject<?> o) {
    return Violations.forObject(o.kind(), o.metadata());
  }

  /**
   * The paths of the components in which two records of one type differ, e.g. {@code spec.nodeName,
   * spec.volumes}: what upstream's spec diff tells the user. Runs on error paths only (reflection).
   */
  static String changedComponents(String prefix, Record a, Record b) {
    List<String> changed = new ArrayList<>();
    for (RecordComponent c : a.getClass().getRecordComponents()) {
      try {
        if (!Objects.equals(c.getAccessor().invoke(a), c.getAccessor().invoke(b))) {
          changed.add(prefix + "." + c.getName());
        }
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("reading " + c, e);
      }
    }
    return String.join(", ", changed);
  }
}
