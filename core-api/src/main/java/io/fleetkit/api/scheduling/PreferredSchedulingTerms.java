package io.fleetkit.api.scheduling;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Compiled preferred node affinity terms (component-helpers {@code nodeaffinity.PreferredSchedulingTerms}): a node's
 * score is the sum of the weights of the terms it matches. Terms with weight 0 or no requirements are ignored.
 *
 * <p>Immutable and thread-safe; {@link #score} does not allocate.
 */
public final class PreferredSchedulingTerms {
  private static final PreferredSchedulingTerms EMPTY = new PreferredSchedulingTerms(new CompiledTerm[0],
      new int[0]);

  private final CompiledTerm[] terms;
  private final int[] weights;

  private PreferredSchedulingTerms(CompiledTerm[] terms, int[] weights) {
    this.terms = terms;
    this.weights = weights;
  }

  /**
   * Compiles the terms.
   *
   * @throws IllegalArgumentException listing the problems of every invalid term (weighted, non-empty terms only)
   */
  public static PreferredSchedulingTerms of(List<PreferredSchedulingTerm> preferred) {
    List<CompiledTerm> compiled = new ArrayList<>(preferred.size());
    List<Integer> ws = new ArrayList<>(preferred.size());
    List<String> errors = new ArrayList<>(0);
    for (int i = 0; i < preferred.size(); i++) {
      PreferredSchedulingTerm p = preferred.get(i);
      if (p.weight() == 0 || CompiledTerm.isEmpty(p.preference())) {
        continue;
      }
      CompiledTerm t = CompiledTerm.compile(p.preference(), "[" + i + "]");
      if (t.errors.isEmpty()) {
        compiled.add(t);
        ws.add(p.weight());
      } else {
        errors.addAll(t.errors);
      }
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("invalid preferred scheduling terms: " + String.join("; ", errors));
    }
    if (compiled.isEmpty()) {
      return EMPTY;
    }
    int[] w = new int[ws.size()];
    for (int i = 0; i < w.length; i++) {
      w[i] = ws.get(i);
    }
    return new PreferredSchedulingTerms(compiled.toArray(new CompiledTerm[0]), w);
  }

  /** The sum of the weights of the terms matched by the node. */
  public long score(String nodeName, Map<String, String> nodeLabels) {
    long score = 0;
    for (int i = 0; i < terms.length; i++) {
      if (terms[i].matches(nodeName, nodeLabels)) {
        score += weights[i];
      }
    }
    return score;
  }

  /** Whether there is no term to score (every node scores 0). */
  public boolean isEmpty() {
    return terms.length == 0;
  }
}
