package io.fleetkit.api.scheduling;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A compiled {@link NodeSelector}: terms ORed, each term's requirements ANDed; an empty term (and a selector without
 * terms) matches nothing. Port of component-helpers {@code nodeaffinity.NodeSelector} / {@code
 * LazyErrorNodeSelector}: {@code matchExpressions} support In, NotIn, Exists, DoesNotExist, Gt and Lt (integer
 * comparison; a non-integer label never matches), {@code matchFields} support In and NotIn with one value against
 * {@code metadata.name}.
 *
 * <p>Immutable and thread-safe; {@link #matches} does not allocate.
 */
public final class NodeSelectorMatcher {
  private final CompiledTerm[] terms;
  private final List<String> errors;

  private NodeSelectorMatcher(CompiledTerm[] terms, List<String> errors) {
    this.terms = terms;
    this.errors = errors;
  }

  /**
   * Compiles {@code selector}, keeping invalid terms as never-matching and recording their problems in
   * {@link #errors()} (upstream {@code NewLazyErrorNodeSelector}: errors matter only when no term matches).
   */
  public static NodeSelectorMatcher lazy(NodeSelector selector) {
    List<CompiledTerm> compiled = new ArrayList<>(selector.nodeSelectorTerms().size());
    List<String> errors = new ArrayList<>(0);
    for (int i = 0; i < selector.nodeSelectorTerms().size(); i++) {
      NodeSelectorTerm term = selector.nodeSelectorTerms().get(i);
      if (CompiledTerm.isEmpty(term)) {
        continue;
      }
      CompiledTerm t = CompiledTerm.compile(term, "nodeSelectorTerms[" + i + "]");
      compiled.add(t);
      errors.addAll(t.errors);
    }
    return new NodeSelectorMatcher(compiled.toArray(new CompiledTerm[0]), List.copyOf(errors));
  }

  /**
   * Compiles {@code selector} (upstream {@code NewNodeSelector}).
   *
   * @throws IllegalArgumentException listing every problem of every term
   */
  public static NodeSelectorMatcher of(NodeSelector selector) {
    NodeSelectorMatcher m = lazy(selector);
    if (!m.errors.isEmpty()) {
      throw new IllegalArgumentException("invalid node selector: " + String.join("; ", m.errors));
    }
    return m;
  }

  /** Whether a node with this name and these labels matches some valid term. */
  public boolean matches(String nodeName, Map<String, String> nodeLabels) {
    for (CompiledTerm t : terms) {
      if (t.matches(nodeName, nodeLabels)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The problems of invalid terms, rendered as Kubernetes field errors (e.g.
   * {@code nodeSelectorTerms[0].matchFields[0].values: Invalid value: ["a","b"]: must have one element}); empty for
   * a valid selector.
   */
  public List<String> errors() {
    return errors;
  }
}
