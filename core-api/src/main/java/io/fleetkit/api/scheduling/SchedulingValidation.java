package io.fleetkit.api.scheduling;

import io.fleetkit.api.Violation;
import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.Names;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.labels.Validation;
import io.fleetkit.api.text.GoIntegers;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Validation of the scheduling records, with the rules and wording of Kubernetes'
 * {@code pkg/apis/core/validation}: the one rule set for taints, tolerations, node and pod affinity and topology
 * spread constraints, which Node, Pod and every workload template use when they are built. Each method returns every broken rule (empty when valid) with field paths under
 * the given {@code fieldPath} and the object left {@code ""} for the caller to fill in. Rules that the Java types
 * already enforce (non-null enums) are not repeated. Stateless and thread-safe.
 */
public final class SchedulingValidation {
  /** {@code isNotPositiveErrorMsg} upstream. */
  static final String NOT_POSITIVE = "must be greater than zero";
  static final String WEIGHT_RANGE = "must be in the range 1-100";
  /** A Gt or Lt toleration value outside {@code long}. */
  static final String INT64_RANGE = "must be in the range -9223372036854775808 to 9223372036854775807";

  private SchedulingValidation() {}

  private static Violation v(String field, String rule, @Nullable String value) {
    return new Violation("", field, rule, value);
  }

  /**
   * Node taints ({@code validateNodeTaints}): keys are qualified names (an empty key is one {@code Required value}),
   * values label values, and taints are unique by key and effect.
   */
  public static List<Violation> validateTaints(List<Taint> taints, String fieldPath) {
    List<Violation> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < taints.size(); i++) {
      Taint t = taints.get(i);
      String p = fieldPath + "[" + i + "]";
      if (t.key().isEmpty()) {
        out.add(v(p + ".key", Violations.REQUIRED, null));
      } else {
        out.addAll(Validation.validateLabelName(t.key(), p + ".key"));
      }
      List<String> valueErrs = Validation.isValidLabelValue(t.value());
      if (!valueErrs.isEmpty()) {
        out.add(v(p + ".value", String.join(";", valueErrs), t.value()));
      }
      if (!seen.add(t.effect() + "\u0000" + t.key())) {
        out.add(v(p, "Duplicate value: taints must be unique by key and effect pair", t.toString()));
      }
    }
    return out;
  }

  /**
   * Pod tolerations ({@code ValidateTolerations}): a non-empty key is a qualified name; an empty key requires
   * Exists; {@code tolerationSeconds} requires effect NoExecute; Exists requires an empty value; Equal requires a
   * valid label value; Gt and Lt require a value ({@code Required value}) that is a signed 64-bit decimal integer in
   * canonical form (upstream's {@code content.IsDecimalInteger} wording, {@code must be a valid decimal integer in
   * canonical form}, or {@code must be in the range -9223372036854775808 to 9223372036854775807}). Kubernetes accepts
   * Gt and Lt only with its {@code TaintTolerationComparisonOperators} gate on; FleetKit has no gates and always
   * accepts them.
   */
  public static List<Violation> validateTolerations(List<Toleration> tolerations, String fieldPath) {
    List<Violation> out = new ArrayList<>(0);
    for (int i = 0; i < tolerations.size(); i++) {
      Toleration t = tolerations.get(i);
      if (!t.key().isEmpty() && !Names.isQualifiedName(t.key())) {
        out.addAll(Validation.validateLabelName(t.key(), at(fieldPath, i) + ".key"));
      }
      if (t.key().isEmpty() && t.operator() != TolerationOperator.Exists) {
        out.add(v(at(fieldPath, i) + ".operator",
            "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            t.operator().name()));
      }
      if (t.tolerationSeconds() != null && t.effect() != TaintEffect.NoExecute) {
        out.add(v(at(fieldPath, i) + ".effect", "effect must be 'NoExecute' when `tolerationSeconds` is set",
            t.effect() == null ? "" : t.effect().name()));
      }
      switch (t.operator()) {
        case Equal -> {
          List<String> errs = Validation.isValidLabelValue(t.value());
          if (!errs.isEmpty()) {
            out.add(v(at(fieldPath, i) + ".operator", String.join(";", errs), t.value()));
          }
        }
        case Exists -> {
          if (!t.value().isEmpty()) {
            out.add(v(at(fieldPath, i) + ".operator", "value must be empty when `operator` is 'Exists'", t.value()));
          }
        }
        case Lt, Gt -> {
          String err = DecimalInt64.error(t.value());
          if (err == DecimalInt64.EMPTY) {
            out.add(v(at(fieldPath, i) + ".value", Violations.REQUIRED, null));
          } else if (err == DecimalInt64.OUT_OF_RANGE) {
            out.add(v(at(fieldPath, i) + ".value", INT64_RANGE, t.value()));
          } else if (err != null) {
            out.add(v(at(fieldPath, i) + ".value", err, t.value()));
          }
        }
      }
    }
    return out;
  }

  /** The path of element {@code i} of {@code fieldPath}, built only when a rule is broken. */
  private static String at(String fieldPath, int i) {
    return fieldPath + "[" + i + "]";
  }

  /** A required node selector ({@code ValidateNodeSelector}): at least one term, each term valid. */
  public static List<Violation> validateNodeSelector(NodeSelector selector, String fieldPath) {
    String termsPath = fieldPath + ".nodeSelectorTerms";
    if (selector.nodeSelectorTerms().isEmpty()) {
      return List.of(v(termsPath, "must have at least one node selector term", null));
    }
    List<Violation> out = new ArrayList<>();
    for (int i = 0; i < selector.nodeSelectorTerms().size(); i++) {
      out.addAll(validateNodeSelectorTerm(selector.nodeSelectorTerms().get(i), termsPath + "[" + i + "]"));
    }
    return out;
  }

  /** One node selector term ({@code ValidateNodeSelectorTerm}). */
  public static List<Violation> validateNodeSelectorTerm(NodeSelectorTerm term, String fieldPath) {
    List<Violation> out = new ArrayList<>();
    for (int j = 0; j < term.matchExpressions().size(); j++) {
      out.addAll(validateNodeSelectorRequirement(term.matchExpressions().get(j),
          fieldPath + ".matchExpressions[" + j + "]"));
    }
    for (int j = 0; j < term.matchFields().size(); j++) {
      out.addAll(validateNodeFieldSelectorRequirement(term.matchFields().get(j),
          fieldPath + ".matchFields[" + j + "]"));
    }
    return out;
  }

  /**
   * A {@code matchExpressions} entry ({@code ValidateNodeSelectorRequirement}): In/NotIn need values,
   * Exists/DoesNotExist must have none, Gt/Lt exactly one, an integer; the key is a qualified name.
   */
  public static List<Violation> validateNodeSelectorRequirement(NodeSelectorRequirement r, String fieldPath) {
    List<Violation> out = new ArrayList<>(validateNodeSelectorRequirementValues(r, fieldPath));
    out.addAll(Validation.validateLabelName(r.key(), fieldPath + ".key"));
    return out;
  }

  /**
   * The operator/values rules of a {@code matchExpressions} entry alone: In/NotIn need values, Exists/DoesNotExist
   * must have none, Gt/Lt exactly one integer. An expression breaking them can never match, so a pod carrying it
   * would be accepted and never fit; pods are refused for these when built (their keys are left to the scheduler,
   * which reports a bad key as an error on each attempt, as kube-scheduler does).
   */
  public static List<Violation> validateNodeSelectorRequirementValues(NodeSelectorRequirement r, String fieldPath) {
    List<Violation> out = new ArrayList<>(1);
    switch (r.operator()) {
      case In, NotIn -> {
        if (r.values().isEmpty()) {
          out.add(v(fieldPath + ".values", "must be specified when `operator` is 'In' or 'NotIn'", null));
        }
      }
      case Exists, DoesNotExist -> {
        if (!r.values().isEmpty()) {
          out.add(v(fieldPath + ".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
              null));
        }
      }
      case Gt, Lt -> {
        if (r.values().size() != 1) {
          out.add(v(fieldPath + ".values", "must be specified single value when `operator` is 'Lt' or 'Gt'", null));
        } else if (!isInt64(r.values().get(0))) {
          // Upstream finds this when the scheduler compiles the selector (component-helpers nodeaffinity), so such a
          // pod is admitted and then never fits; FleetKit refuses it up front with the scheduler's words.
          out.add(v(fieldPath + ".values[0]", "for 'Gt', 'Lt' operators, the value must be an integer",
              r.values().get(0)));
        }
      }
    }
    return out;
  }

  /**
   * The operator/values rules ({@link #validateNodeSelectorRequirementValues}) of every {@code matchExpressions}
   * entry of a node affinity, required and preferred terms alike.
   */
  public static List<Violation> validateNodeAffinityValues(NodeAffinity affinity, String fieldPath) {
    List<Violation> out = new ArrayList<>(0);
    NodeSelector required = affinity.requiredDuringSchedulingIgnoredDuringExecution();
    if (required != null) {
      String p = fieldPath + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
      for (int i = 0; i < required.nodeSelectorTerms().size(); i++) {
        termValues(required.nodeSelectorTerms().get(i), p + "[" + i + "]", out);
      }
    }
    List<PreferredSchedulingTerm> preferred = affinity.preferredDuringSchedulingIgnoredDuringExecution();
    for (int i = 0; i < preferred.size(); i++) {
      termValues(preferred.get(i).preference(),
          fieldPath + ".preferredDuringSchedulingIgnoredDuringExecution[" + i + "].preference", out);
    }
    return out;
  }

  private static void termValues(NodeSelectorTerm term, String path, List<Violation> out) {
    for (int j = 0; j < term.matchExpressions().size(); j++) {
      out.addAll(validateNodeSelectorRequirementValues(term.matchExpressions().get(j),
          path + ".matchExpressions[" + j + "]"));
    }
  }

  /** What the scheduler's {@code strconv.ParseInt(value, 10, 64)} reads: a sign and ASCII digits within 64 bits. */
  private static boolean isInt64(String s) {
    return GoIntegers.isInt(s, 64);
  }

  /**
   * A {@code matchFields} entry ({@code ValidateNodeFieldSelectorRequirement}): operator In or NotIn with exactly
   * one value, key {@code metadata.name}, the value a valid node name (DNS-1123 subdomain).
   */
  public static List<Violation> validateNodeFieldSelectorRequirement(NodeSelectorRequirement r, String fieldPath) {
    List<Violation> out = new ArrayList<>();
    switch (r.operator()) {
      case In, NotIn -> {
        if (r.values().size() != 1) {
          out.add(v(fieldPath + ".values",
              "must be only one value when `operator` is 'In' or 'NotIn' for node field selector", null));
        }
      }
      default -> out.add(v(fieldPath + ".operator", "not a valid selector operator", r.operator().name()));
    }
    if (!CompiledTerm.NODE_NAME_FIELD.equals(r.key())) {
      out.add(v(fieldPath + ".key", "not a valid field selector key", r.key()));
    } else {
      for (int i = 0; i < r.values().size(); i++) {
        for (String msg : Validation.isDNS1123Subdomain(r.values().get(i))) {
          out.add(v(fieldPath + ".values[" + i + "]", msg, r.values().get(i)));
        }
      }
    }
    return out;
  }

  /** Preferred node affinity ({@code ValidatePreferredSchedulingTerms}): weights 1..100, valid terms. */
  public static List<Violation> validatePreferredSchedulingTerms(List<PreferredSchedulingTerm> terms,
      String fieldPath) {
    List<Violation> out = new ArrayList<>();
    for (int i = 0; i < terms.size(); i++) {
      PreferredSchedulingTerm t = terms.get(i);
      String p = fieldPath + "[" + i + "]";
      if (t.weight() <= 0 || t.weight() > 100) {
        out.add(v(p + ".weight", WEIGHT_RANGE, Integer.toString(t.weight())));
      }
      out.addAll(validateNodeSelectorTerm(t.preference(), p + ".preference"));
    }
    return out;
  }

  /** Node affinity ({@code validateNodeAffinity}). */
  public static List<Violation> validateNodeAffinity(NodeAffinity affinity, String fieldPath) {
    List<Violation> out = new ArrayList<>();
    NodeSelector required = affinity.requiredDuringSchedulingIgnoredDuringExecution();
    if (required != null) {
      out.addAll(validateNodeSelector(required, fieldPath + ".requiredDuringSchedulingIgnoredDuringExecution"));
    }
    out.addAll(validatePreferredSchedulingTerms(affinity.preferredDuringSchedulingIgnoredDuringExecution(),
        fieldPath + ".preferredDuringSchedulingIgnoredDuringExecution"));
    return out;
  }

  /**
   * A pod affinity term ({@code validatePodAffinityTerm}): valid label and namespace selectors, namespaces that are
   * DNS-1123 labels, a non-empty qualified-name topology key, qualified-name match/mismatch label keys.
   */
  public static List<Violation> validatePodAffinityTerm(PodAffinityTerm term, String fieldPath) {
    List<Violation> out = new ArrayList<>(LabelSelector.validate(term.labelSelector(),
        fieldPath + ".labelSelector"));
    out.addAll(LabelSelector.validate(term.namespaceSelector(), fieldPath + ".namespaceSelector"));
    for (int i = 0; i < term.namespaces().size(); i++) {
      String ns = term.namespaces().get(i);
      for (String msg : Validation.isDNS1123Label(ns)) {
        out.add(v(fieldPath + ".namespaces[" + i + "]", msg, ns));
      }
    }
    if (term.topologyKey().isEmpty()) {
      out.add(v(fieldPath + ".topologyKey", "can not be empty", null));
    }
    out.addAll(Validation.validateLabelName(term.topologyKey(), fieldPath + ".topologyKey"));
    for (int i = 0; i < term.matchLabelKeys().size(); i++) {
      out.addAll(Validation.validateLabelName(term.matchLabelKeys().get(i), fieldPath + ".matchLabelKeys[" + i + "]"));
    }
    for (int i = 0; i < term.mismatchLabelKeys().size(); i++) {
      out.addAll(Validation.validateLabelName(term.mismatchLabelKeys().get(i),
          fieldPath + ".mismatchLabelKeys[" + i + "]"));
    }
    return out;
  }

  /** Pod affinity or anti-affinity ({@code validatePodAffinity}): required terms and weighted (1..100) terms. */
  public static List<Violation> validatePodAffinity(PodAffinity affinity, String fieldPath) {
    List<Violation> out = new ArrayList<>();
    List<PodAffinityTerm> required = affinity.requiredDuringSchedulingIgnoredDuringExecution();
    for (int i = 0; i < required.size(); i++) {
      out.addAll(validatePodAffinityTerm(required.get(i),
          fieldPath + ".requiredDuringSchedulingIgnoredDuringExecution[" + i + "]"));
    }
    List<WeightedPodAffinityTerm> preferred = affinity.preferredDuringSchedulingIgnoredDuringExecution();
    for (int i = 0; i < preferred.size(); i++) {
      String p = fieldPath + ".preferredDuringSchedulingIgnoredDuringExecution[" + i + "]";
      WeightedPodAffinityTerm w = preferred.get(i);
      if (w.weight() <= 0 || w.weight() > 100) {
        out.add(v(p + ".weight", WEIGHT_RANGE, Integer.toString(w.weight())));
      }
      out.addAll(validatePodAffinityTerm(w.podAffinityTerm(), p + ".podAffinityTerm"));
    }
    return out;
  }

  /** A pod's affinity ({@code validateAffinity}); {@code null} is valid. */
  public static List<Violation> validateAffinity(@Nullable Affinity affinity, String fieldPath) {
    if (affinity == null) {
      return List.of();
    }
    List<Violation> out = new ArrayList<>();
    if (affinity.nodeAffinity() != null) {
      out.addAll(validateNodeAffinity(affinity.nodeAffinity(), fieldPath + ".nodeAffinity"));
    }
    if (affinity.podAffinity() != null) {
      out.addAll(validatePodAffinity(affinity.podAffinity(), fieldPath + ".podAffinity"));
    }
    if (affinity.podAntiAffinity() != null) {
      out.addAll(validatePodAffinity(affinity.podAntiAffinity(), fieldPath + ".podAntiAffinity"));
    }
    return out;
  }

  /**
   * Topology spread constraints ({@code validateTopologySpreadConstraints}): {@code maxSkew > 0}; a topology key
   * that is a qualified name ({@code validateTopologyKey});
   * no two constraints with the same {topologyKey, whenUnsatisfiable}; {@code minDomains > 0} and only with
   * DoNotSchedule; match label keys that are qualified names not already in the label selector; a valid label
   * selector.
   */
  public static List<Violation> validateTopologySpreadConstraints(List<TopologySpreadConstraint> constraints,
      String fieldPath) {
    return spreads(constraints, fieldPath, true);
  }

  /**
   * The rules of {@link #validateTopologySpreadConstraints} except the label selector's: what a pod is refused for
   * when built. A selector with a bad key is left to the scheduler, which reports it as an error on each attempt
   * (PodTopologySpread's PreFilter), as kube-scheduler does for a pod that reached it.
   */
  public static List<Violation> validateTopologySpreadConstraintsExceptSelectors(
      List<TopologySpreadConstraint> constraints, String fieldPath) {
    return spreads(constraints, fieldPath, false);
  }

  private static List<Violation> spreads(List<TopologySpreadConstraint> constraints, String fieldPath,
      boolean selectors) {
    List<Violation> out = new ArrayList<>();
    for (int i = 0; i < constraints.size(); i++) {
      TopologySpreadConstraint c = constraints.get(i);
      String p = fieldPath + "[" + i + "]";
      if (c.maxSkew() <= 0) {
        out.add(v(p + ".maxSkew", NOT_POSITIVE, Integer.toString(c.maxSkew())));
      }
      if (c.topologyKey().isEmpty()) {
        out.add(v(p + ".topologyKey", "can not be empty", null));
      } else {
        out.addAll(Validation.validateLabelName(c.topologyKey(), p + ".topologyKey"));
      }
      for (int j = i + 1; j < constraints.size(); j++) {
        TopologySpreadConstraint other = constraints.get(j);
        if (c.topologyKey().equals(other.topologyKey()) && c.whenUnsatisfiable() == other.whenUnsatisfiable()) {
          out.add(v(p + ".{topologyKey, whenUnsatisfiable}", "Duplicate value",
              "{" + c.topologyKey() + ", " + c.whenUnsatisfiable() + "}"));
          break;
        }
      }
      Integer minDomains = c.minDomains();
      if (minDomains != null) {
        if (minDomains <= 0) {
          out.add(v(p + ".minDomains", NOT_POSITIVE, minDomains.toString()));
        }
        if (c.whenUnsatisfiable() != UnsatisfiableConstraintAction.DoNotSchedule) {
          out.add(v(p + ".minDomains", "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not "
              + c.whenUnsatisfiable(), minDomains.toString()));
        }
      }
      Set<String> selectorKeys = new HashSet<>();
      LabelSelector selector = c.labelSelector();
      if (selector != null) {
        selectorKeys.addAll(selector.matchLabels().keySet());
        for (LabelSelectorRequirement r : selector.matchExpressions()) {
          selectorKeys.add(r.key());
        }
      }
      for (int k = 0; k < c.matchLabelKeys().size(); k++) {
        String key = c.matchLabelKeys().get(k);
        String kp = p + ".matchLabelKeys[" + k + "]";
        out.addAll(Validation.validateLabelName(key, kp));
        if (selectorKeys.contains(key)) {
          out.add(v(kp, "exists in both matchLabelKeys and labelSelector", key));
        }
      }
      if (selectors) {
        out.addAll(LabelSelector.validate(selector, p + ".labelSelector"));
      }
    }
    return out;
  }
}
