package io.fleetkit.api.labels;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A compiled label selector: requirements ANDed together, as apimachinery's {@code labels.Selector}. Compile once
 * (from {@link #parse a string}, {@link #fromLabelSelector a LabelSelector} or {@link #fromSet a map}) and call
 * {@link #matches} on the hot path: matching does not allocate.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public sealed interface Selector permits RequirementsSelector, NothingSelector {

  /** Whether every requirement holds for {@code labels}. */
  boolean matches(Map<String, String> labels);

  /** Whether this selector does not restrict anything (true for {@link #everything()}, false for nothing). */
  boolean isEmpty();

  /** Whether this is {@link #nothing()}, the selector that matches no label set at all. */
  boolean matchesNothing();

  /** The requirements, sorted by key (stable); empty for {@link #everything()} and {@link #nothing()}. */
  List<Requirement> requirements();

  /**
   * The value this selector requires for {@code label}, if the first requirement on that key is an Equals,
   * DoubleEquals or single-valued In requirement (upstream {@code RequiresExactMatch}).
   */
  Optional<String> requiresExactMatch(String label);

  /**
   * The canonical string form, as upstream prints it: requirements sorted by key and joined with {@code ,}, e.g.
   * {@code a=b,c!=d,e in (x,y),f notin (z),!g,h}. Empty for everything and nothing. Parsing the result gives an
   * equal selector.
   */
  @Override
  String toString();

  /** The selector that matches every label set. */
  static Selector everything() {
    return RequirementsSelector.EVERYTHING;
  }

  /** The selector that matches no label set. */
  static Selector nothing() {
    return NothingSelector.INSTANCE;
  }

  /** A selector of the given requirements (ANDed), sorted by key. */
  static Selector of(List<Requirement> requirements) {
    return requirements.isEmpty() ? everything() : RequirementsSelector.sorted(new ArrayList<>(requirements));
  }

  /**
   * Parses the label selector string syntax, with apimachinery's {@code labels.Parse} semantics:
   *
   * <pre>
   * selector    ::= requirement | requirement "," selector
   * requirement ::= [!] KEY [ ("in" | "notin") "(" VALUES ")" | ("=" | "==" | "!=" | "&gt;" | "&lt;") VALUE ]
   * </pre>
   *
   * A bare {@code KEY} means Exists and {@code !KEY} DoesNotExist; {@code in}/{@code notin} with {@code ()} or
   * empty list items include the empty value; spaces, tabs, CR and LF separate tokens; keys must be qualified names
   * and values label values. The empty string is the selector that matches everything.
   *
   * @throws SelectorParseException naming the position and the problem
   */
  static Selector parse(String selector) {
    return SelectorParser.parse(selector);
  }

  /**
   * A selector requiring every {@code key=value} of {@code labels} (upstream {@code SelectorFromSet}); an empty map
   * gives {@link #everything()}. Keys and values are not validated.
   */
  static Selector fromSet(Map<String, String> labels) {
    if (labels.isEmpty()) {
      return everything();
    }
    List<Requirement> reqs = new ArrayList<>(labels.size());
    for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
      reqs.add(Requirement.unchecked(e.getKey(), SelectionOperator.Equals, List.of(e.getValue())));
    }
    return new RequirementsSelector(reqs.toArray(new Requirement[0]));
  }

  /**
   * Compiles a structured selector (upstream {@code LabelSelectorAsSelector}): {@code null} gives
   * {@link #nothing()}, an empty selector {@link #everything()}; {@code matchLabels} become Equals requirements and
   * {@code matchExpressions} In, NotIn, Exists or DoesNotExist requirements.
   *
   * @throws IllegalArgumentException if a key, value or operator/values combination is invalid
   */
  static Selector fromLabelSelector(@Nullable LabelSelector selector) {
    if (selector == null) {
      return nothing();
    }
    if (selector.matchLabels().isEmpty() && selector.matchExpressions().isEmpty()) {
      return everything();
    }
    List<Requirement> reqs = new ArrayList<>(selector.matchLabels().size() + selector.matchExpressions().size());
    for (Map.Entry<String, String> e : new TreeMap<>(selector.matchLabels()).entrySet()) {
      reqs.add(Requirement.of(e.getKey(), SelectionOperator.Equals, List.of(e.getValue())));
    }
    for (LabelSelectorRequirement expr : selector.matchExpressions()) {
      SelectionOperator op = switch (expr.operator()) {
        case In -> SelectionOperator.In;
        case NotIn -> SelectionOperator.NotIn;
        case Exists -> SelectionOperator.Exists;
        case DoesNotExist -> SelectionOperator.DoesNotExist;
      };
      reqs.add(Requirement.of(expr.key(), op, expr.values()));
    }
    return RequirementsSelector.sorted(reqs);
  }
}
