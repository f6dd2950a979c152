package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import io.fleetkit.api.text.GoIntegers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a pod set asks of the flavor's {@link Topology} (Kueue {@code PodSetTopologyRequest}, set from the pod
 * template's annotations, see {@link #fromAnnotations}).
 *
 * <ul>
 *   <li>{@code required}: every pod in one domain of that level, or the pod set does not fit
 *       ({@value #REQUIRED_ANNOTATION});
 *   <li>{@code preferred}: one domain of that level if possible, else the lowest level above it where one domain
 *       holds them, else spread over as few domains of the top level as possible ({@value #PREFERRED_ANNOTATION});
 *   <li>{@code unconstrained}: any nodes with room ({@value #UNCONSTRAINED_ANNOTATION});
 *   <li>slices ({@value #SLICE_REQUIRED_ANNOTATION} with {@value #SLICE_SIZE_ANNOTATION}): the pods come in groups of
 *       {@code size}, and each group must sit in one domain of the slice level; further constraints, each at a lower
 *       level with a size dividing the one before (Kueue's multi-layer {@code
 *       podset-slice-required-topology-constraints}), subdivide the groups;
 *   <li>{@code podSetGroupName} ({@value #GROUP_NAME_ANNOTATION}): pod sets of one workload with the same group name
 *       (a leader of one pod and its workers) are placed together as one unit.
 * </ul>
 *
 * A pod set without a request on a flavor with a topology is placed as if {@code unconstrained} (Kueue's implied
 * request).
 *
 * <p>Validation (Kueue's job and workload webhooks): at most one of required, preferred and unconstrained; levels are
 * label keys; a group name is not a number; slice sizes are positive (Kueue's {@code TASValidateWorkloadSliceSize}).
 * {@link #fromAnnotations} adds the rules on the annotations of one pod template.
 *
 * <p>The pods' index labels ({@code podIndexLabel}, and for pod sets made of several indexed groups {@code
 * subGroupIndexLabel} with {@code subGroupCount}) do not constrain the placement: they let the topology ungater give
 * each pod the domain of its rank (Kueue's {@code PodIndexLabel}, {@code SubGroupIndexLabel}, {@code SubGroupCount};
 * a Job's pod set names {@code batch.kubernetes.io/job-completion-index}). A request with nothing but index labels is
 * not {@link #explicit()}: the engine places its pod set as one without a request.
 *
 * @param required the level all pods must share a domain of, or {@code null}
 * @param preferred the level all pods should share a domain of, or {@code null}
 * @param unconstrained whether the pods may go anywhere with room
 * @param podSetGroupName the pod set group, or {@code null}
 * @param sliceConstraints the slice constraints, outermost first (may be empty)
 * @param podIndexLabel the pod label holding a pod's index in its pod set (or in its sub-group), or {@code null}
 * @param subGroupIndexLabel the pod label holding the index of a pod's sub-group, or {@code null}
 * @param subGroupCount how many sub-groups the pod set has, or {@code null}
 */
public record PodSetTopologyRequest(@Nullable String required, @Nullable String preferred, boolean unconstrained,
    @Nullable String podSetGroupName, List<SliceConstraint> sliceConstraints, @Nullable String podIndexLabel,
    @Nullable String subGroupIndexLabel, @Nullable Integer subGroupCount) {
  public static final String KIND = "PodSetTopologyRequest";
  public static final String REQUIRED_ANNOTATION = "kueue.x-k8s.io/podset-required-topology";
  public static final String PREFERRED_ANNOTATION = "kueue.x-k8s.io/podset-preferred-topology";
  public static final String UNCONSTRAINED_ANNOTATION = "kueue.x-k8s.io/podset-unconstrained-topology";
  public static final String SLICE_REQUIRED_ANNOTATION = "kueue.x-k8s.io/podset-slice-required-topology";
  public static final String SLICE_SIZE_ANNOTATION = "kueue.x-k8s.io/podset-slice-size";
  public static final String GROUP_NAME_ANNOTATION = "kueue.x-k8s.io/podset-group-name";
  /**
   * Kueue's multi-layer slice constraints (a JSON list); not read by {@link #fromAnnotations}, named so that a pod
   * carrying it counts as a topology-aware pod.
   */
  public static final String SLICE_CONSTRAINTS_ANNOTATION = "kueue.x-k8s.io/podset-slice-required-topology-constraints";

  /**
   * One slice constraint: the pods come in groups of {@code size}, each in one domain of level {@code topology}.
   *
   * @param topology the slice level
   * @param size the pods per slice, at least 1
   */
  public record SliceConstraint(String topology, int size) {
    public SliceConstraint {
      Objects.requireNonNull(topology, "topology");
    }
  }

  public PodSetTopologyRequest {
    sliceConstraints = List.copyOf(Objects.requireNonNull(sliceConstraints, "sliceConstraints"));
    Violations v = new Violations(KIND, "", "");
    int modes = (required != null ? 1 : 0) + (preferred != null ? 1 : 0) + (unconstrained ? 1 : 0);
    if (modes > 1) {
      v.add("annotations", "must not contain more than one topology annotation: [\"" + REQUIRED_ANNOTATION + "\", \""
          + PREFERRED_ANNOTATION + "\", \"" + UNCONSTRAINED_ANNOTATION + "\"]", null);
    }
    if (required != null) {
      v.qualifiedName("annotations[" + REQUIRED_ANNOTATION + "]", required);
    }
    if (preferred != null) {
      v.qualifiedName("annotations[" + PREFERRED_ANNOTATION + "]", preferred);
    }
    if (podSetGroupName != null) {
      if (podSetGroupName.isEmpty()) {
        v.required("annotations[" + GROUP_NAME_ANNOTATION + "]");
      } else if (podSetGroupName.chars().allMatch(c -> c >= '0' && c <= '9')) { // ASCII: isDigit takes any script
        v.add("annotations[" + GROUP_NAME_ANNOTATION + "]", "must not be a number", podSetGroupName);
      }
    }
    for (int i = 0; i < sliceConstraints.size(); i++) {
      SliceConstraint c = sliceConstraints.get(i);
      v.qualifiedName("sliceConstraints[" + i + "].topology", c.topology());
      if (c.size() < 1) {
        v.add("sliceConstraints[" + i + "].size", Violations.POSITIVE, c.size());
      }
    }
    if (podIndexLabel != null) {
      v.qualifiedName("podIndexLabel", podIndexLabel);
    }
    if (subGroupIndexLabel != null) {
      v.qualifiedName("subGroupIndexLabel", subGroupIndexLabel);
    }
    v.throwIfAny();
  }

  /** A request without index labels. */
  public PodSetTopologyRequest(@Nullable String required, @Nullable String preferred, boolean unconstrained,
      @Nullable String podSetGroupName, List<SliceConstraint> sliceConstraints) {
    this(required, preferred, unconstrained, podSetGroupName, sliceConstraints, null, null, null);
  }

  /** A request naming only the pods' index label: it places nothing ({@link #explicit()} is false). */
  public static PodSetTopologyRequest ofPodIndexLabel(String label) {
    return new PodSetTopologyRequest(null, null, false, null, List.of(), label, null, null);
  }

  /** All pods in one domain of {@code level}. */
  public static PodSetTopologyRequest ofRequired(String level) {
    return new PodSetTopologyRequest(level, null, false, null, List.of());
  }

  /** All pods in one domain of {@code level} if possible. */
  public static PodSetTopologyRequest ofPreferred(String level) {
    return new PodSetTopologyRequest(null, level, false, null, List.of());
  }

  /** The pods anywhere with room. */
  public static PodSetTopologyRequest ofUnconstrained() {
    return new PodSetTopologyRequest(null, null, true, null, List.of());
  }

  /** Only slices: groups of {@code size} pods, each in one domain of {@code level}; the pod set spans any domains. */
  public static PodSetTopologyRequest ofSlicesOnly(String level, int size) {
    return new PodSetTopologyRequest(null, null, false, null, List.of(new SliceConstraint(level, size)));
  }

  /** This request with slices of {@code size} pods, each in one domain of {@code level} (replacing any slices). */
  public PodSetTopologyRequest withSlices(String level, int size) {
    return new PodSetTopologyRequest(required, preferred, unconstrained, podSetGroupName,
        List.of(new SliceConstraint(level, size)), podIndexLabel, subGroupIndexLabel, subGroupCount);
  }

  /** This request with {@code constraints} as its slice constraints, outermost first. */
  public PodSetTopologyRequest withSliceConstraints(List<SliceConstraint> constraints) {
    return new PodSetTopologyRequest(required, preferred, unconstrained, podSetGroupName, constraints, podIndexLabel,
        subGroupIndexLabel, subGroupCount);
  }

  /** This request in the pod set group {@code group}. */
  public PodSetTopologyRequest withPodSetGroupName(String group) {
    return new PodSetTopologyRequest(required, preferred, unconstrained, group, sliceConstraints, podIndexLabel,
        subGroupIndexLabel, subGroupCount);
  }

  /** This request with {@code label} as the pods' index label ({@code null} for none). */
  public PodSetTopologyRequest withPodIndexLabel(@Nullable String label) {
    return new PodSetTopologyRequest(required, preferred, unconstrained, podSetGroupName, sliceConstraints, label,
        subGroupIndexLabel, subGroupCount);
  }

  /**
   * This request with the pods' sub-group index label and the number of sub-groups (Kueue's {@code SubGroup}: a
   * JobSet's replicated Jobs); either may be {@code null}.
   */
  public PodSetTopologyRequest withSubGroup(@Nullable String indexLabel, @Nullable Integer count) {
    return new PodSetTopologyRequest(required, preferred, unconstrained, podSetGroupName, sliceConstraints,
        podIndexLabel, indexLabel, count);
  }

  /**
   * Whether the request asks for a placement in the topology (Kueue's {@code IsExplicitlyRequestingTAS}): a required,
   * preferred or unconstrained level, or slices. Index labels alone do not.
   */
  public boolean explicit() {
    return required != null || preferred != null || unconstrained || !sliceConstraints.isEmpty();
  }

  /**
   * The request a pod template's {@code annotations} make, or {@code null} when they carry none of Kueue's topology
   * annotations. Kueue's job webhook rules apply: {@value #SLICE_SIZE_ANNOTATION} must be set exactly when {@value
   * #SLICE_REQUIRED_ANNOTATION} is, and be a positive integer; {@value #UNCONSTRAINED_ANNOTATION} is {@code true} or
   * {@code false}.
   *
   * @throws io.fleetkit.api.ValidationException if the annotations break a rule
   */
  public static @Nullable PodSetTopologyRequest fromAnnotations(Map<String, String> annotations) {
    String required = annotations.get(REQUIRED_ANNOTATION);
    String preferred = annotations.get(PREFERRED_ANNOTATION);
    String unconstrained = annotations.get(UNCONSTRAINED_ANNOTATION);
    String sliceLevel = annotations.get(SLICE_REQUIRED_ANNOTATION);
    String sliceSize = annotations.get(SLICE_SIZE_ANNOTATION);
    String group = annotations.get(GROUP_NAME_ANNOTATION);
    if (required == null && preferred == null && unconstrained == null && sliceLevel == null && sliceSize == null
        && group == null) {
      return null;
    }
    Violations v = new Violations(KIND, "", "");
    boolean unconstrainedOn = false;
    if (unconstrained != null) {
      if (unconstrained.equals("true") || unconstrained.equals("false")) {
        unconstrainedOn = unconstrained.equals("true");
      } else {
        v.add("annotations[" + UNCONSTRAINED_ANNOTATION + "]", "must be a boolean", unconstrained);
      }
    }
    if (sliceLevel != null && sliceSize == null) {
      v.required("annotations[" + SLICE_SIZE_ANNOTATION + "]", "must be set when '" + SLICE_REQUIRED_ANNOTATION
          + "' is specified");
    }
    if (sliceLevel == null && sliceSize != null) {
      v.add("annotations[" + SLICE_SIZE_ANNOTATION + "]", "may not be set when '" + SLICE_REQUIRED_ANNOTATION
          + "' is not specified", sliceSize);
    }
    if (group != null) {
      if (sliceSize != null) {
        v.add("annotations[" + GROUP_NAME_ANNOTATION + "]", "may not be set when '" + SLICE_SIZE_ANNOTATION
            + "' is specified", group);
      }
      if (sliceLevel != null) {
        v.add("annotations[" + GROUP_NAME_ANNOTATION + "]", "may not be set when '" + SLICE_REQUIRED_ANNOTATION
            + "' is specified", group);
      }
      if (required == null && preferred == null) {
        v.add("annotations[" + GROUP_NAME_ANNOTATION + "]", "may not be set when neither '" + PREFERRED_ANNOTATION
            + "' nor '" + REQUIRED_ANNOTATION + "' is specified", group);
      }
    }
    int size = 0;
    if (sliceSize != null) {
      try {
        size = GoIntegers.atoi32(sliceSize); // Go's strconv.Atoi: an optional sign and ASCII digits
      } catch (NumberFormatException e) {
        v.add("annotations[" + SLICE_SIZE_ANNOTATION + "]", "must be a numeric value", sliceSize);
      }
    }
    v.throwIfAny();
    List<SliceConstraint> slices = new ArrayList<>();
    if (sliceLevel != null) {
      slices.add(new SliceConstraint(sliceLevel, size));
    }
    if (unconstrained != null && !unconstrainedOn && required == null && preferred == null && slices.isEmpty()
        && group == null) {
      return null;
    }
    return new PodSetTopologyRequest(required, preferred, unconstrainedOn, group, slices);
  }
}
