package io.fleetkit.scheduler.plugins.podtopologyspread;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.Validation;
import io.fleetkit.api.scheduling.NodeInclusionPolicy;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The PodTopologySpread plugin's arguments (upstream {@code PodTopologySpreadArgs}): cluster default constraints
 * for pods that declare none, and how a pod's default selector is found.
 *
 * @param defaultingType {@link DefaultingType#System} uses kube's built-in defaults (hostname maxSkew 3 and zone
 *     maxSkew 5, both ScheduleAnyway) and requires {@code defaultConstraints} to be empty; {@link DefaultingType#List}
 *     uses {@code defaultConstraints} (possibly none)
 * @param defaultConstraints constraints without a label selector, at most one per (topologyKey, whenUnsatisfiable)
 * @param defaultSelector the selector of the workload a pod belongs to (upstream {@code helper.DefaultSelector}: the
 *     union of the selectors of the Services, ReplicationControllers, ReplicaSets and StatefulSets that own or select
 *     the pod); {@code null} or an empty selector means the pod belongs to none, so no default constraint applies.
 *     FleetKit has no workload listers here, so the lookup is injected; the default, {@link #NO_DEFAULT_SELECTOR},
 *     finds none and therefore disables default spreading.
 */
public record PodTopologySpreadArgs(DefaultingType defaultingType, List<TopologySpreadConstraint> defaultConstraints,
    Function<Pod, @Nullable LabelSelector> defaultSelector) {

  /** The node label of per-node topologies. */
  public static final String LABEL_HOSTNAME = "kubernetes.io/hostname";
  /** The node label of zone topologies. */
  public static final String LABEL_ZONE = "topology.kubernetes.io/zone";

  /** Args key of {@link #defaultingType()}: a {@link DefaultingType} or its name. */
  public static final String KEY_DEFAULTING_TYPE = "defaultingType";
  /** Args key of {@link #defaultConstraints()}: a {@code List<TopologySpreadConstraint>}. */
  public static final String KEY_DEFAULT_CONSTRAINTS = "defaultConstraints";
  /** Args key of {@link #defaultSelector()}: a {@code Function<Pod, LabelSelector>}. */
  public static final String KEY_DEFAULT_SELECTOR = "defaultSelector";

  /** The lookup that finds no owning workload for any pod. */
  public static final Function<Pod, @Nullable LabelSelector> NO_DEFAULT_SELECTOR = pod -> null;

  /** kube's system defaults (upstream systemDefaultConstraints). */
  public static final List<TopologySpreadConstraint> SYSTEM_DEFAULT_CONSTRAINTS = List.of(
      new TopologySpreadConstraint(3, LABEL_HOSTNAME, UnsatisfiableConstraintAction.ScheduleAnyway, null, null,
          NodeInclusionPolicy.Honor, NodeInclusionPolicy.Ignore, List.of()),
      new TopologySpreadConstraint(5, LABEL_ZONE, UnsatisfiableConstraintAction.ScheduleAnyway, null, null,
          NodeInclusionPolicy.Honor, NodeInclusionPolicy.Ignore, List.of()));

  /** How default constraints are chosen. */
  public enum DefaultingType {
    /** kube's built-in {@link #SYSTEM_DEFAULT_CONSTRAINTS}. */
    System,
    /** The constraints listed in the args. */
    List
  }

  /**
   * Validates as upstream {@code ValidatePodTopologySpreadArgs}.
   *
   * @throws IllegalArgumentException naming the field, the rule and the value
   */
  public PodTopologySpreadArgs {
    Objects.requireNonNull(defaultingType, "defaultingType");
    defaultConstraints = List.copyOf(defaultConstraints);
    Objects.requireNonNull(defaultSelector, "defaultSelector");
    if (defaultingType == DefaultingType.System && !defaultConstraints.isEmpty()) {
      throw new IllegalArgumentException("PodTopologySpreadArgs: defaultConstraints must be empty when "
          + "defaultingType is System, got " + defaultConstraints.size() + " constraint(s)");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < defaultConstraints.size(); i++) {
      TopologySpreadConstraint c = defaultConstraints.get(i);
      String path = "PodTopologySpreadArgs: defaultConstraints[" + i + "]";
      if (c.maxSkew() <= 0) {
        throw new IllegalArgumentException(path + ".maxSkew must be greater than zero, got " + c.maxSkew());
      }
      List<String> keyErrors = Validation.isQualifiedName(c.topologyKey());
      if (!keyErrors.isEmpty()) {
        throw new IllegalArgumentException(path + ".topologyKey \"" + c.topologyKey() + "\" is invalid: "
            + String.join("; ", keyErrors));
      }
      if (c.labelSelector() != null) {
        throw new IllegalArgumentException(path + ".labelSelector must be unset: default constraints take the "
            + "selector of the pod's workload, got " + c.labelSelector());
      }
      if (!seen.add(c.topologyKey() + "/" + c.whenUnsatisfiable())) {
        throw new IllegalArgumentException(path + " duplicates {" + c.topologyKey() + ", " + c.whenUnsatisfiable()
            + "}: at most one default constraint per topologyKey and whenUnsatisfiable");
      }
    }
  }

  /** kube's defaults (System) with no workload lookup: default spreading never applies. */
  public static PodTopologySpreadArgs defaults() {
    return new PodTopologySpreadArgs(DefaultingType.System, List.of(), NO_DEFAULT_SELECTOR);
  }

  /** System defaults that apply to pods whose workload selector {@code defaultSelector} finds. */
  public static PodTopologySpreadArgs systemDefaults(Function<Pod, @Nullable LabelSelector> defaultSelector) {
    return new PodTopologySpreadArgs(DefaultingType.System, List.of(), defaultSelector);
  }

  /**
   * Args from a profile's plugin-args map (keys {@link #KEY_DEFAULTING_TYPE}, {@link #KEY_DEFAULT_CONSTRAINTS},
   * {@link #KEY_DEFAULT_SELECTOR}; each optional).
   *
   * @throws IllegalArgumentException if a value has the wrong type or the args are invalid
   */
  @SuppressWarnings("unchecked")
  public static PodTopologySpreadArgs fromMap(Map<String, Object> args) {
    Object type = args.get(KEY_DEFAULTING_TYPE);
    DefaultingType defaultingType;
    if (type == null) {
      defaultingType = DefaultingType.System;
    } else if (type instanceof DefaultingType t) {
      defaultingType = t;
    } else if (type instanceof String s && (s.equals("System") || s.equals("List"))) {
      defaultingType = DefaultingType.valueOf(s);
    } else {
      throw new IllegalArgumentException("PodTopologySpreadArgs: defaultingType must be \"System\" or \"List\", got "
          + type);
    }
    Object constraints = args.getOrDefault(KEY_DEFAULT_CONSTRAINTS, List.of());
    if (!(constraints instanceof List<?> list) || !list.stream().allMatch(TopologySpreadConstraint.class::isInstance)) {
      throw new IllegalArgumentException("PodTopologySpreadArgs: defaultConstraints must be a "
          + "List<TopologySpreadConstraint>, got " + constraints);
    }
    Object selector = args.getOrDefault(KEY_DEFAULT_SELECTOR, NO_DEFAULT_SELECTOR);
    if (!(selector instanceof Function<?, ?>)) {
      throw new IllegalArgumentException("PodTopologySpreadArgs: defaultSelector must be a "
          + "Function<Pod, LabelSelector>, got " + selector);
    }
    return new PodTopologySpreadArgs(defaultingType, (List<TopologySpreadConstraint>) list,
        (Function<Pod, @Nullable LabelSelector>) selector);
  }

  /** The constraints default spreading uses: the system ones or the listed ones. */
  List<TopologySpreadConstraint> effectiveDefaults() {
    return defaultingType == DefaultingType.System ? SYSTEM_DEFAULT_CONSTRAINTS : defaultConstraints;
  }
}
