package io.fleetkit.api.labels;

/**
 * Operators of a compiled {@link Requirement}, as apimachinery's {@code selection.Operator}. The string syntax
 * accepts all of them; a {@link LabelSelector} only uses In, NotIn, Exists and DoesNotExist (plus Equals for
 * {@code matchLabels}), a node selector adds Gt and Lt.
 */
public enum SelectionOperator {
  /** {@code key=value}. */
  Equals("="),
  /** {@code key==value}, same meaning as Equals. */
  DoubleEquals("=="),
  /** {@code key!=value}; also matches when the key is absent. */
  NotEquals("!="),
  /** {@code key in (a,b)}. */
  In("in"),
  /** {@code key notin (a,b)}; also matches when the key is absent. */
  NotIn("notin"),
  /** {@code key}. */
  Exists("exists"),
  /** {@code !key}. */
  DoesNotExist("!"),
  /** {@code key>n}: the label is an integer greater than n. */
  GreaterThan("gt"),
  /** {@code key<n}: the label is an integer less than n. */
  LessThan("lt");

  private final String token;

  SelectionOperator(String token) {
    this.token = token;
  }

  /** The operator as apimachinery spells it ({@code "in"}, {@code "notin"}, {@code "="}, {@code "gt"}, ...). */
  public String token() {
    return token;
  }
}
