package io.fleetkit.admission;

import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.MutatingAdmissionPlugin;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.scheduling.PreemptionPolicy;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.store.ObjectStore;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes' Priority admission ({@code plugin/pkg/admission/priority/admission.go}). On pod create it resolves
 * {@code priorityClassName} (empty: the global default class, the lowest value if several claim it; none: priority 0)
 * and sets the pod's priority, class name and preemption policy; a class that does not exist, or a priority given
 * in the spec that differs from the class's, is refused. On update a pod keeps the priority it had. A PriorityClass
 * may be marked globalDefault only while no other class is. The built-in {@code system-cluster-critical} and
 * {@code system-node-critical} classes exist even when not stored, as in every cluster.
 *
 * <p>FleetKit's pod spec always holds a preemption policy (default PreemptLowerPriority), so only a policy other
 * than the default counts as "provided" when compared with the class's.
 */
public final class PriorityPlugin implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  public static final String NAME = "Priority";
  /** The built-in classes and their values. */
  public static final Map<String, Integer> SYSTEM_CLASSES = Map.of("system-cluster-critical", 2_000_000_000,
      "system-node-critical", 2_000_001_000);

  private final boolean keepGiven;

  /** Upstream's plugin: a priority given in the spec must equal the one the class resolves to. */
  public PriorityPlugin() {
    this(false);
  }

  private PriorityPlugin(boolean keepGiven) {
    this.keepGiven = keepGiven;
  }

  /**
   * The plugin for objects that may have been admitted already, such as manifests exported from a cluster or pods
   * built with a priority by a program: a pod created with {@code spec.priority} set is taken as admitted and kept
   * as it is; a pod without one is resolved as upstream.
   */
  public static PriorityPlugin keepingGivenPriorities() {
    return new PriorityPlugin(true);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public AdmissionVerdict mutate(AdmissionRequest request, ObjectStore store) {
    if (!(request.object() instanceof Pod pod)) {
      return AdmissionVerdict.allow();
    }
    PodSpec spec = pod.spec();
    if (request.operation() == AdmissionOperation.UPDATE && request.oldObject() instanceof Pod old) {
      if (spec.priority() == null && old.spec().priority() != null) {
        return AdmissionVerdict.mutate(pod.withSpec(spec.toBuilder().priority(old.spec().priority())
            .preemptionPolicy(old.spec().preemptionPolicy()).build()));
      }
      return AdmissionVerdict.allow();
    }
    if (request.operation() != AdmissionOperation.CREATE || keepGiven && spec.priority() != null) {
      return AdmissionVerdict.allow();
    }
    String className = spec.priorityClassName();
    int value;
    PreemptionPolicy policy;
    String resolvedName;
    if (className.isEmpty()) {
      PriorityClass dflt = globalDefault(store, null);
      value = dflt == null ? 0 : dflt.value();
      policy = dflt == null ? PreemptionPolicy.PreemptLowerPriority : dflt.preemptionPolicy();
      resolvedName = dflt == null ? "" : dflt.metadata().name();
    } else {
      PriorityClass pc = store.get(PriorityClass.class, "", className).orElse(null);
      if (pc != null) {
        value = pc.value();
        policy = pc.preemptionPolicy();
      } else if (SYSTEM_CLASSES.containsKey(className)) {
        value = SYSTEM_CLASSES.get(className);
        policy = PreemptionPolicy.PreemptLowerPriority;
      } else {
        return AdmissionVerdict.deny("spec.priorityClassName", "no PriorityClass with name " + className
            + " was found");
      }
      resolvedName = className;
    }
    if (spec.priority() != null && spec.priority() != value) {
      return AdmissionVerdict.deny("spec.priority", "the integer value of priority (" + spec.priority()
          + ") must not be provided in pod spec; priority admission controller computed " + value
          + " from the given PriorityClass name");
    }
    if (spec.preemptionPolicy() != PreemptionPolicy.PreemptLowerPriority && spec.preemptionPolicy() != policy) {
      return AdmissionVerdict.deny("spec.preemptionPolicy", "the string value of PreemptionPolicy ("
          + spec.preemptionPolicy() + ") must not be provided in pod spec; priority admission controller computed "
          + policy + " from the given PriorityClass name");
    }
    if (spec.priority() != null && spec.priority() == value && spec.priorityClassName().equals(resolvedName)
        && spec.preemptionPolicy() == policy) {
      return AdmissionVerdict.allow();
    }
    return AdmissionVerdict.mutate(pod.withResolvedPriority(value, resolvedName, policy));
  }

  /** The global default class other than {@code except}, the lowest value winning; {@code null} if none. */
  private static @Nullable PriorityClass globalDefault(ObjectStore store, @Nullable String except) {
    return PriorityClass.globalDefaultOf(store.list(PriorityClass.class).items().stream()
        .filter(pc -> !pc.metadata().name().equals(except)).toList());
  }

  @Override
  public AdmissionVerdict validate(AdmissionRequest request, ObjectStore store) {
    if (request.operation() != AdmissionOperation.DELETE && request.object() instanceof PriorityClass pc
        && pc.globalDefault()) {
      PriorityClass other = globalDefault(store, pc.metadata().name());
      if (other != null) {
        return AdmissionVerdict.deny("globalDefault", "PriorityClass " + other.metadata().name()
            + " is already marked as default. Only one default can exist");
      }
    }
    return AdmissionVerdict.allow();
  }
}
