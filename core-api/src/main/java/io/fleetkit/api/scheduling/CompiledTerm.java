package io.fleetkit.api.scheduling;

import io.fleetkit.api.internal.FieldErrors;
import io.fleetkit.api.labels.Requirement;
import io.fleetkit.api.labels.SelectionOperator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A compiled {@link NodeSelectorTerm}: label requirements and {@code matchFields} terms, ANDed, with the parse
 * errors found (upstream {@code nodeaffinity.nodeSelectorTerm}). Matching does not allocate.
 */
final class CompiledTerm {
  /** The only node field upstream fills in. */
  static final String NODE_NAME_FIELD = "metadata.name";
  private static final List<String> FIELD_OPERATORS = List.of("In", "NotIn");

  private final Requirement[] labelRequirements;
  private final String[] fieldKeys;
  private final String[] fieldValues;
  private final boolean[] fieldEquals;
  final List<String> errors;

  private CompiledTerm(Requirement[] labelRequirements, String[] fieldKeys, String[] fieldValues,
      boolean[] fieldEquals, List<String> errors) {
    this.labelRequirements = labelRequirements;
    this.fieldKeys = fieldKeys;
    this.fieldValues = fieldValues;
    this.fieldEquals = fieldEquals;
    this.errors = errors;
  }

  static boolean isEmpty(NodeSelectorTerm term) {
    return term.matchExpressions().isEmpty() && term.matchFields().isEmpty();
  }

  /** Compiles {@code term}; problems are recorded under {@code path} instead of thrown. */
  static CompiledTerm compile(NodeSelectorTerm term, String path) {
    List<String> errors = new ArrayList<>(0);
    List<Requirement> reqs = new ArrayList<>(term.matchExpressions().size());
    for (int i = 0; i < term.matchExpressions().size(); i++) {
      NodeSelectorRequirement r = term.matchExpressions().get(i);
      SelectionOperator op = switch (r.operator()) {
        case In -> SelectionOperator.In;
        case NotIn -> SelectionOperator.NotIn;
        case Exists -> SelectionOperator.Exists;
        case DoesNotExist -> SelectionOperator.DoesNotExist;
        case Gt -> SelectionOperator.GreaterThan;
        case Lt -> SelectionOperator.LessThan;
      };
      List<String> errs = Requirement.validate(r.key(), op, r.values(), path + ".matchExpressions[" + i + "]");
      if (errs.isEmpty()) {
        reqs.add(Requirement.of(r.key(), op, r.values()));
      } else {
        errors.addAll(errs);
      }
    }
    int nf = term.matchFields().size();
    List<String> keys = new ArrayList<>(nf);
    List<String> values = new ArrayList<>(nf);
    List<Boolean> equals = new ArrayList<>(nf);
    for (int i = 0; i < nf; i++) {
      NodeSelectorRequirement r = term.matchFields().get(i);
      String p = path + ".matchFields[" + i + "]";
      switch (r.operator()) {
        case In, NotIn -> {
          if (r.values().size() != 1) {
            errors.add(FieldErrors.invalid(p + ".values", FieldErrors.quote(r.values()), "must have one element"));
          } else {
            keys.add(r.key());
            values.add(r.values().get(0));
            equals.add(r.operator() == NodeSelectorOperator.In);
          }
        }
        default -> errors.add(FieldErrors.notSupported(p + ".operator", r.operator().name(), FIELD_OPERATORS));
      }
    }
    boolean[] eq = new boolean[equals.size()];
    for (int i = 0; i < eq.length; i++) {
      eq[i] = equals.get(i);
    }
    return new CompiledTerm(reqs.toArray(new Requirement[0]), keys.toArray(new String[0]),
        values.toArray(new String[0]), eq, List.copyOf(errors));
  }

  /**
   * Whether the node matches; {@code false} for a term with errors. As upstream, field requirements are skipped for
   * a node without a name, and a field other than {@code metadata.name} reads as the empty string.
   */
  boolean matches(String nodeName, Map<String, String> labels) {
    if (!errors.isEmpty()) {
      return false;
    }
    for (Requirement r : labelRequirements) {
      if (!r.matches(labels)) {
        return false;
      }
    }
    if (fieldKeys.length > 0 && !nodeName.isEmpty()) {
      for (int i = 0; i < fieldKeys.length; i++) {
        String actual = NODE_NAME_FIELD.equals(fieldKeys[i]) ? nodeName : "";
        if (actual.equals(fieldValues[i]) != fieldEquals[i]) {
          return false;
        }
      }
    }
    return true;
  }
}
