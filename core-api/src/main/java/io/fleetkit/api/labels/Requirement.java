package io.fleetkit.api.labels;

import io.fleetkit.api.internal.FieldErrors;
import io.fleetkit.api.text.GoIntegers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One compiled requirement of a {@link Selector}: {@code key operator values}, as apimachinery's
 * {@code labels.Requirement}. Built by {@link #of} (which validates like upstream's {@code NewRequirement}) or by
 * {@link Selector#parse}. Immutable and thread-safe; {@link #matches} does not allocate.
 */
public final class Requirement {
  /** Above this many values a hash set is faster than a linear scan. */
  private static final int SET_THRESHOLD = 8;

  private final String key;
  private final SelectionOperator operator;
  private final List<String> values;
  private final String[] valueArray;
  private final @Nullable Set<String> valueSet;
  /** The bound of Gt/Lt; meaningful only when {@link #boundValid}. */
  private final long bound;
  private final boolean boundValid;

  private Requirement(String key, SelectionOperator operator, List<String> values) {
    this.key = key;
    this.operator = operator;
    this.values = List.copyOf(values);
    this.valueArray = this.values.toArray(new String[0]);
    this.valueSet = valueArray.length > SET_THRESHOLD ? new HashSet<>(this.values) : null;
    long b = 0;
    boolean ok = false;
    if ((operator == SelectionOperator.GreaterThan || operator == SelectionOperator.LessThan)
        && valueArray.length == 1) {
      Long parsed = parseInt64(valueArray[0]);
      if (parsed != null) {
        b = parsed;
        ok = true;
      }
    }
    this.bound = b;
    this.boundValid = ok;
  }

  /**
   * A validated requirement. Rules (upstream {@code NewRequirement}): the key is a qualified name; In and NotIn need
   * at least one value; Equals, DoubleEquals and NotEquals exactly one; Exists and DoesNotExist none; Gt and Lt
   * exactly one integer; every value is a valid label value. The empty string is a valid value.
   *
   * @throws IllegalArgumentException listing every broken rule
   */
  public static Requirement of(String key, SelectionOperator operator, List<String> values) {
    List<String> errs = validate(key, operator, values, "");
    if (!errs.isEmpty()) {
      throw new IllegalArgumentException("invalid requirement " + key + " " + operator.token() + " " + values
          + ": " + String.join("; ", errs));
    }
    return new Requirement(key, operator, values);
  }

  /** A requirement built without validation, for inputs already validated (e.g. {@link Selector#fromSet}). */
  static Requirement unchecked(String key, SelectionOperator operator, List<String> values) {
    return new Requirement(key, operator, values);
  }

  /**
   * The problems {@link #of} would report, each rendered like a Kubernetes field error
   * ({@code path.values[0]: Invalid value: "x": ...}) under {@code path} (may be empty).
   */
  public static List<String> validate(String key, SelectionOperator operator, List<String> values, String path) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operator, "operator");
    List<String> errs = new ArrayList<>(0);
    List<String> keyErrs = Validation.isQualifiedName(key);
    if (!keyErrs.isEmpty()) {
      errs.add(FieldErrors.invalid(FieldErrors.child(path, "key"), FieldErrors.quote(key),
          String.join("; ", keyErrs)));
    }
    String valuePath = FieldErrors.child(path, "values");
    switch (operator) {
      case In, NotIn -> {
        if (values.isEmpty()) {
          errs.add(FieldErrors.invalid(valuePath, FieldErrors.quote(values),
              "for 'in', 'notin' operators, values set can't be empty"));
        }
      }
      case Equals, DoubleEquals, NotEquals -> {
        if (values.size() != 1) {
          errs.add(FieldErrors.invalid(valuePath, FieldErrors.quote(values),
              "exact-match compatibility requires one single value"));
        }
      }
      case Exists, DoesNotExist -> {
        if (!values.isEmpty()) {
          errs.add(FieldErrors.invalid(valuePath, FieldErrors.quote(values),
              "values set must be empty for exists and does not exist"));
        }
      }
      case GreaterThan, LessThan -> {
        if (values.size() != 1) {
          errs.add(FieldErrors.invalid(valuePath, FieldErrors.quote(values),
              "for 'Gt', 'Lt' operators, exactly one value is required"));
        }
        for (int i = 0; i < values.size(); i++) {
          if (parseInt64(values.get(i)) == null) {
            errs.add(FieldErrors.invalid(valuePath + "[" + i + "]", FieldErrors.quote(values.get(i)),
                "for 'Gt', 'Lt' operators, the value must be an integer"));
          }
        }
      }
    }
    for (int i = 0; i < values.size(); i++) {
      String v = Objects.requireNonNull(values.get(i), "values[" + i + "]");
      List<String> vErrs = Validation.isValidLabelValue(v);
      if (!vErrs.isEmpty()) {
        errs.add(FieldErrors.invalid(valuePath + "[" + i + "][" + key + "]", FieldErrors.quote(v),
            String.join("; ", vErrs)));
      }
    }
    return errs;
  }

  public String key() {
    return key;
  }

  public SelectionOperator operator() {
    return operator;
  }

  /** The values in the order given (parsed selectors give them sorted and without duplicates). */
  public List<String> values() {
    return values;
  }

  /**
   * Whether {@code labels} satisfy this requirement: In/Equals need the key with one of the values; NotIn/NotEquals
   * match when the key is absent or has another value; Exists/DoesNotExist test the key; Gt/Lt need the key with an
   * integer value strictly greater/less than the bound (a non-integer label never matches).
   */
  public boolean matches(Map<String, String> labels) {
    switch (operator) {
      case In, Equals, DoubleEquals -> {
        String v = labels.get(key);
        return v != null && hasValue(v);
      }
      case NotIn, NotEquals -> {
        String v = labels.get(key);
        return v == null || !hasValue(v);
      }
      case Exists -> {
        return labels.containsKey(key);
      }
      case DoesNotExist -> {
        return !labels.containsKey(key);
      }
      case GreaterThan, LessThan -> {
        String v = labels.get(key);
        if (v == null || !boundValid) {
          return false;
        }
        if (!isInt64(v)) {
          return false;
        }
        long lv = Long.parseLong(v);
        return operator == SelectionOperator.GreaterThan ? lv > bound : lv < bound;
      }
    }
    throw new AssertionError(operator);
  }

  /** Whether {@code value} is one of this requirement's values. */
  public boolean hasValue(String value) {
    if (valueSet != null) {
      return valueSet.contains(value);
    }
    for (String s : valueArray) {
      if (s.equals(value)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Upstream's canonical form: {@code !key}, {@code key}, {@code key=v}, {@code key==v}, {@code key!=v},
   * {@code key>n}, {@code key<n}, {@code key in (a,b)}, {@code key notin (a,b)}; several values are printed sorted.
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(key.length() + 8 + 5 * valueArray.length);
    if (operator == SelectionOperator.DoesNotExist) {
      sb.append('!');
    }
    sb.append(key);
    switch (operator) {
      case Equals -> sb.append('=');
      case DoubleEquals -> sb.append("==");
      case NotEquals -> sb.append("!=");
      case In -> sb.append(" in ");
      case NotIn -> sb.append(" notin ");
      case GreaterThan -> sb.append('>');
      case LessThan -> sb.append('<');
      case Exists, DoesNotExist -> {
        return sb.toString();
      }
    }
    boolean set = operator == SelectionOperator.In || operator == SelectionOperator.NotIn;
    if (set) {
      sb.append('(');
    }
    if (valueArray.length == 1) {
      sb.append(valueArray[0]);
    } else {
      String[] sorted = valueArray.clone();
      Arrays.sort(sorted);
      sb.append(String.join(",", sorted));
    }
    if (set) {
      sb.append(')');
    }
    return sb.toString();
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof Requirement r && key.equals(r.key) && operator == r.operator && values.equals(r.values);
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, operator, values);
  }

  /** Go's {@code strconv.ParseInt(s, 10, 64)}: the value, or {@code null} when {@code s} is not an int64. */
  static @Nullable Long parseInt64(String s) {
    return isInt64(s) ? Long.valueOf(Long.parseLong(s)) : null;
  }

  /**
   * Whether Go's {@code strconv.ParseInt(s, 10, 64)} accepts {@code s}: an optional sign and ASCII digits whose value
   * fits 64 bits. Does not allocate.
   */
  static boolean isInt64(String s) {
    return GoIntegers.isInt(s, 64);
  }
}
