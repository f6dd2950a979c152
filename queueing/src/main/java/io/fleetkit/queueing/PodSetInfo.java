package io.fleetkit.queueing;

import io.fleetkit.api.scheduling.Toleration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The parts of a pod template that admission adds to (Kueue's {@code podset.PodSetInfo}): labels, annotations, node
 * selector and tolerations.
 *
 * @param labels the template's labels
 * @param annotations the template's annotations
 * @param nodeSelector the pods' node selector
 * @param tolerations the pods' tolerations
 */
public record PodSetInfo(Map<String, String> labels, Map<String, String> annotations,
    Map<String, String> nodeSelector, List<Toleration> tolerations) {
  /** Kueue's {@code ErrInvalidPodSetUpdate} message. */
  public static final String INVALID_UPDATE = "invalid admission check PodSetUpdate";
  public static final PodSetInfo EMPTY = new PodSetInfo(Map.of(), Map.of(), Map.of(), List.of());

  public PodSetInfo {
    labels = Map.copyOf(Objects.requireNonNull(labels, "labels"));
    annotations = Map.copyOf(Objects.requireNonNull(annotations, "annotations"));
    nodeSelector = Map.copyOf(Objects.requireNonNull(nodeSelector, "nodeSelector"));
    tolerations = List.copyOf(Objects.requireNonNull(tolerations, "tolerations"));
  }

  /** Kueue's {@code FromUpdate}. */
  public static PodSetInfo of(PodSetUpdate update) {
    return new PodSetInfo(update.labels(), update.annotations(), update.nodeSelector(), update.tolerations());
  }

  /**
   * Kueue's {@code PodSetInfo.Merge}: this info with {@code other}'s entries added; tolerations already present are
   * not added again.
   *
   * @throws IllegalArgumentException if a key of the labels, annotations or node selector has another value in
   *     {@code other}, with Kueue's message ({@code invalid admission check PodSetUpdate: conflict for labels: conflict
   *     for key=team, value1=a, value2=b})
   */
  public PodSetInfo merge(PodSetInfo other) {
    String conflict = conflict("annotations", annotations, other.annotations);
    if (conflict == null) {
      conflict = conflict("labels", labels, other.labels);
    }
    if (conflict == null) {
      conflict = conflict("nodeSelector", nodeSelector, other.nodeSelector);
    }
    if (conflict != null) {
      throw new IllegalArgumentException(conflict);
    }
    List<Toleration> t = new ArrayList<>(tolerations);
    for (Toleration x : other.tolerations) {
      if (!t.contains(x)) {
        t.add(x);
      }
    }
    return new PodSetInfo(union(labels, other.labels), union(annotations, other.annotations),
        union(nodeSelector, other.nodeSelector), t);
  }

  /**
   * Kueue's {@code getPodSetsInfoFromStatus}, for one pod set: {@code base} with the updates of every check in {@code
   * states} for pod set {@code podSet} merged in (the first update of that name per check, as Kueue does).
   *
   * @throws IllegalArgumentException on a conflict, naming the workload, the field, the check and the key
   *     ({@code Workload ns/wl: status.admissionChecks[name=check-b].podSetUpdates[name=main]: in admission check
   *     "check-b": invalid admission check PodSetUpdate: conflict for labels: conflict for key=team, value1=a,
   *     value2=b})
   */
  public static PodSetInfo withUpdates(String workloadKey, PodSetInfo base, List<AdmissionCheckState> states,
      String podSet) {
    PodSetInfo info = base;
    for (AdmissionCheckState s : states) {
      for (PodSetUpdate u : s.podSetUpdates()) {
        if (u.name().equals(podSet)) {
          try {
            info = info.merge(of(u));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Workload " + workloadKey + ": status.admissionChecks[name=" + s.name()
                + "].podSetUpdates[name=" + podSet + "]: in admission check \"" + s.name() + "\": "
                + e.getMessage(), e);
          }
          break;
        }
      }
    }
    return info;
  }

  private static @Nullable String conflict(String field, Map<String, String> a, Map<String, String> b) {
    for (Map.Entry<String, String> e : new TreeMap<>(a).entrySet()) {
      String bv = b.get(e.getKey());
      if (bv != null && !bv.equals(e.getValue())) {
        return INVALID_UPDATE + ": conflict for " + field + ": conflict for key=" + e.getKey() + ", value1="
            + e.getValue() + ", value2=" + bv;
      }
    }
    return null;
  }

  private static Map<String, String> union(Map<String, String> a, Map<String, String> b) {
    if (b.isEmpty()) {
      return a;
    }
    Map<String, String> out = new LinkedHashMap<>(a);
    out.putAll(b);
    return out;
  }
}
