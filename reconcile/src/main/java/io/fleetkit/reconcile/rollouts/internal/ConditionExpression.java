package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.text.GoFloats;
import io.fleetkit.api.text.GoIntegers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The subset of the expr language (github.com/expr-lang/expr) that Argo Rollouts' metric conditions use, evaluated
 * over one variable, {@code result}: literals (integers, floats, 'strings', "strings", true, false, nil),
 * {@code result.field}, {@code result[i]}, {@code ! not - + * / %}, comparisons, {@code in}, {@code && and || or},
 * parentheses, and the functions {@code asInt}, {@code asFloat}, {@code isNaN}, {@code isInf}, {@code isNil},
 * {@code default}, {@code len}, {@code all(list, {predicate over #})} and {@code any(list, {...})}. Values are
 * {@code Boolean}, {@code Long}, {@code Double}, {@code String}, {@code List}, {@code Map} or {@code null}.
 * Stateless; thread-safe.
 */
public final class ConditionExpression {
  /** An expression that cannot be parsed or evaluated; the message is the reason, as expr words it. */
  public static final class EvalException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    EvalException(String message) {
      super(message);
    }
  }

  private ConditionExpression() {}

  /**
   * Evaluates {@code condition} with {@code result} bound.
   *
   * @throws EvalException on a syntax error, an unknown name, a type mismatch, or a non-boolean outcome
   *     ({@code expected bool, but got int})
   */
  public static boolean evalCondition(@Nullable Object result, String condition) {
    Object v = evaluate(result, condition);
    if (v instanceof Boolean b) {
      return b;
    }
    throw new EvalException("expected bool, but got " + typeName(v));
  }

  /** Evaluates {@code expression} with {@code result} bound. */
  public static @Nullable Object evaluate(@Nullable Object result, String expression) {
    Parser p = new Parser(expression, result);
    Object v = p.expr();
    p.skipSpace();
    if (p.pos < p.src.length()) {
      throw new EvalException("unexpected token " + p.src.substring(p.pos) + " (1:" + (p.pos + 1) + ")");
    }
    return v;
  }

  static String typeName(@Nullable Object v) {
    if (v == null) {
      return "nil";
    }
    if (v instanceof Boolean) {
      return "bool";
    }
    if (v instanceof Long || v instanceof Integer) {
      return "int";
    }
    if (v instanceof Double || v instanceof Float) {
      return "float64";
    }
    if (v instanceof String) {
      return "string";
    }
    if (v instanceof List) {
      return "array";
    }
    if (v instanceof Map) {
      return "map";
    }
    return v.getClass().getSimpleName();
  }

  /**
   * A recursive-descent parser that evaluates as it parses (conditions are short and evaluated once). Closure
   * bodies ({@code {...}}) are re-parsed for each element, with {@code #} bound to it.
   */
  private static final class Parser {
    final String src;
    final @Nullable Object result;
    final @Nullable Object hash;
    final boolean hasHash;
    int pos;
    /** When positive, evaluation is skipped (the short-circuited side of && and ||). */
    int skip;

    Parser(String src, @Nullable Object result) {
      this(src, result, null, false);
    }

    Parser(String src, @Nullable Object result, @Nullable Object hash, boolean hasHash) {
      this.src = src;
      this.result = result;
      this.hash = hash;
      this.hasHash = hasHash;
    }

    void skipSpace() {
      while (pos < src.length() && Character.isWhitespace(src.charAt(pos))) {
        pos++;
      }
    }

    boolean eat(String token) {
      skipSpace();
      if (src.startsWith(token, pos)) {
        boolean word = Character.isLetter(token.charAt(0));
        int end = pos + token.length();
        if (word && end < src.length() && (Character.isLetterOrDigit(src.charAt(end)) || src.charAt(end) == '_')) {
          return false;
        }
        pos = end;
        return true;
      }
      return false;
    }

    void expect(String token) {
      if (!eat(token)) {
        throw new EvalException("expected '" + token + "' at position " + (pos + 1));
      }
    }

    @Nullable Object expr() {
      return or();
    }

    @Nullable Object or() {
      Object left = and();
      while (eat("||") || eat("or")) {
        boolean l = skip > 0 || truth(left, "||");
        if (skip == 0 && l) {
          skip++;
          and();
          skip--;
          left = true;
        } else {
          Object right = and();
          left = skip > 0 ? null : truth(right, "||");
        }
      }
      return left;
    }

    @Nullable Object and() {
      Object left = not();
      while (eat("&&") || eat("and")) {
        boolean l = skip > 0 || truth(left, "&&");
        if (skip == 0 && !l) {
          skip++;
          not();
          skip--;
          left = false;
        } else {
          Object right = not();
          left = skip > 0 ? null : truth(right, "&&");
        }
      }
      return left;
    }

    @Nullable Object not() {
      if (eat("!") || eat("not")) {
        Object v = not();
        return skip > 0 ? null : !truth(v, "!");
      }
      return comparison();
    }

    @Nullable Object comparison() {
      Object left = additive();
      while (true) {
        String op = null;
        for (String o : new String[] {"==", "!=", "<=", ">=", "<", ">", "in"}) {
          if (eat(o)) {
            op = o;
            break;
          }
        }
        if (op == null) {
          return left;
        }
        Object right = additive();
        left = skip > 0 ? null : compare(op, left, right);
      }
    }

    @Nullable Object additive() {
      Object left = multiplicative();
      while (true) {
        String op = eat("+") ? "+" : eat("-") ? "-" : null;
        if (op == null) {
          return left;
        }
        Object right = multiplicative();
        left = skip > 0 ? null : arithmetic(op, left, right);
      }
    }

    @Nullable Object multiplicative() {
      Object left = unary();
      while (true) {
        String op = eat("*") ? "*" : eat("/") ? "/" : eat("%") ? "%" : null;
        if (op == null) {
          return left;
        }
        Object right = unary();
        left = skip > 0 ? null : arithmetic(op, left, right);
      }
    }

    @Nullable Object unary() {
      if (eat("-")) {
        Object v = unary();
        if (skip > 0) {
          return null;
        }
        if (v instanceof Long l) {
          return -l;
        }
        if (v instanceof Double d) {
          return -d;
        }
        throw new EvalException("invalid operation: - (mismatched type " + typeName(v) + ")");
      }
      return postfix(primary());
    }

    @Nullable Object postfix(@Nullable Object v) {
      while (true) {
        if (eat(".")) {
          String name = identifier();
          if (eat("(")) {
            throw new EvalException("type " + typeName(v) + " has no method " + name);
          }
          v = skip > 0 ? null : member(v, name);
        } else if (eat("[")) {
          Object index = expr();
          expect("]");
          v = skip > 0 ? null : index(v, index);
        } else {
          return v;
        }
      }
    }

    @Nullable Object primary() {
      skipSpace();
      if (pos >= src.length()) {
        throw new EvalException("unexpected end of expression");
      }
      char c = src.charAt(pos);
      if (c == '(') {
        pos++;
        Object v = expr();
        expect(")");
        return v;
      }
      if (c == '\'' || c == '"') {
        return string(c);
      }
      if (isAsciiDigit(c)) {
        return number();
      }
      if (c == '#') {
        pos++;
        if (!hasHash) {
          throw new EvalException("unexpected token # outside a predicate");
        }
        return hash;
      }
      if (c == '[') {
        pos++;
        List<Object> list = new ArrayList<>();
        if (!eat("]")) {
          do {
            list.add(expr());
          } while (eat(","));
          expect("]");
        }
        return list;
      }
      String name = identifier();
      switch (name) {
        case "true":
          return true;
        case "false":
          return false;
        case "nil":
          return null;
        case "result":
          return result;
        default:
          break;
      }
      skipSpace();
      if (pos < src.length() && src.charAt(pos) == '(') {
        pos++;
        return call(name);
      }
      throw new EvalException("unknown name " + name);
    }

    /**
     * expr's number literals start with and hold ASCII digits ({@code '0' <= r && r <= '9'} in its lexer); a digit of
     * another script is a letter-like identifier character there, as in {@link #identifier()}, never a number.
     */
    static boolean isAsciiDigit(char c) {
      return c >= '0' && c <= '9';
    }

    String identifier() {
      skipSpace();
      int start = pos;
      while (pos < src.length() && (Character.isLetterOrDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
        pos++;
      }
      if (start == pos) {
        throw new EvalException("unexpected token " + (pos < src.length() ? src.charAt(pos) : "EOF") + " (1:"
            + (pos + 1) + ")");
      }
      return src.substring(start, pos);
    }

    String string(char quote) {
      pos++;
      StringBuilder sb = new StringBuilder();
      while (pos < src.length() && src.charAt(pos) != quote) {
        char c = src.charAt(pos++);
        if (c == '\\' && pos < src.length()) {
          c = src.charAt(pos++);
        }
        sb.append(c);
      }
      if (pos >= src.length()) {
        throw new EvalException("literal not terminated");
      }
      pos++;
      return sb.toString();
    }

    Object number() {
      int start = pos;
      while (pos < src.length() && (isAsciiDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
        pos++;
      }
      boolean real = false;
      if (pos + 1 < src.length() && src.charAt(pos) == '.' && isAsciiDigit(src.charAt(pos + 1))) {
        real = true;
        pos++;
        while (pos < src.length() && isAsciiDigit(src.charAt(pos))) {
          pos++;
        }
      }
      if (pos < src.length() && (src.charAt(pos) == 'e' || src.charAt(pos) == 'E')) {
        real = true;
        pos++;
        if (pos < src.length() && (src.charAt(pos) == '+' || src.charAt(pos) == '-')) {
          pos++;
        }
        while (pos < src.length() && isAsciiDigit(src.charAt(pos))) {
          pos++;
        }
      }
      String text = src.substring(start, pos).replace("_", "");
      return real ? (Object) Double.parseDouble(text) : (Object) Long.parseLong(text);
    }

    @Nullable Object call(String name) {
      if (name.equals("all") || name.equals("any") || name.equals("filter") || name.equals("none")) {
        Object list = expr();
        expect(",");
        skipSpace();
        expect("{");
        int bodyStart = pos;
        int depth = 1;
        while (pos < src.length() && depth > 0) {
          char c = src.charAt(pos++);
          depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        }
        String body = src.substring(bodyStart, pos - 1);
        expect(")");
        return skip > 0 ? null : predicate(name, list, body);
      }
      List<Object> args = new ArrayList<>();
      if (!eat(")")) {
        do {
          args.add(expr());
        } while (eat(","));
        expect(")");
      }
      if (skip > 0) {
        return null;
      }
      return switch (name) {
        case "asInt" -> asInt(arg(args, 0, name));
        case "asFloat" -> asFloat(arg(args, 0, name));
        case "isNaN" -> ConditionExpression.number(arg(args, 0, name), name).isNaN();
        case "isInf" -> ConditionExpression.number(arg(args, 0, name), name).isInfinite();
        case "isNil" -> isNil(args.isEmpty() ? result : args.get(0));
        case "default" -> {
          Object v = arg(args, 0, name);
          yield isNil(v) ? arg(args, 1, name) : v;
        }
        case "len" -> {
          Object v = arg(args, 0, name);
          if (v instanceof List<?> l) {
            yield (long) l.size();
          }
          if (v instanceof String s) {
            yield (long) s.length();
          }
          if (v instanceof Map<?, ?> m) {
            yield (long) m.size();
          }
          throw new EvalException("invalid argument for len (type " + typeName(v) + ")");
        }
        default -> throw new EvalException("unknown name " + name);
      };
    }

    @Nullable Object predicate(String name, @Nullable Object list, String body) {
      if (!(list instanceof List<?> items)) {
        throw new EvalException("cannot iterate over " + typeName(list));
      }
      List<Object> kept = new ArrayList<>();
      for (Object item : items) {
        Parser p = new Parser(body, result, item, true);
        Object v = p.expr();
        boolean ok = truth(v, name);
        if (name.equals("all") && !ok) {
          return false;
        }
        if ((name.equals("any")) && ok) {
          return true;
        }
        if (name.equals("none") && ok) {
          return false;
        }
        if (ok) {
          kept.add(item);
        }
      }
      return switch (name) {
        case "all", "none" -> true;
        case "any" -> false;
        default -> kept;
      };
    }

    static @Nullable Object arg(List<Object> args, int i, String fn) {
      if (args.size() <= i) {
        throw new EvalException("not enough arguments to call " + fn);
      }
      return args.get(i);
    }
  }

  static boolean isNil(@Nullable Object v) {
    return v == null;
  }

  static boolean truth(@Nullable Object v, String op) {
    if (v instanceof Boolean b) {
      return b;
    }
    throw new EvalException("invalid operation: " + op + " (mismatched type " + typeName(v) + ")");
  }

  static Double number(@Nullable Object v, String fn) {
    if (v instanceof Long l) {
      return l.doubleValue();
    }
    if (v instanceof Double d) {
      return d;
    }
    throw new EvalException("invalid argument for " + fn + " (type " + typeName(v) + ")");
  }

  /** Argo Rollouts' {@code asInt}: an integer from a number (truncated) or from an integer string. */
  static long asInt(@Nullable Object v) {
    if (v instanceof Long l) {
      return l;
    }
    if (v instanceof Double d) {
      return d.longValue();
    }
    if (v instanceof String s) {
      try {
        return GoIntegers.parseInt(s, 64); // strconv.ParseInt(i, 10, 64): ASCII digits, no spaces
      } catch (NumberFormatException e) {
        throw new EvalException(e.getMessage()); // Go's NumError text, as Argo's panic(err) reports it
      }
    }
    throw new EvalException("asInt: cannot convert " + typeName(v));
  }

  /** Argo Rollouts' {@code asFloat}: a float from a number or a numeric string. */
  static double asFloat(@Nullable Object v) {
    if (v instanceof Long l) {
      return l.doubleValue();
    }
    if (v instanceof Double d) {
      return d;
    }
    if (v instanceof String s) {
      try {
        return GoFloats.parseFloat(s); // strconv.ParseFloat(i, 64): no spaces, no d/f suffix, Go's inf and nan
      } catch (NumberFormatException e) {
        throw new EvalException(e.getMessage()); // Go's NumError text, as Argo's panic(err) reports it
      }
    }
    throw new EvalException("asFloat: cannot convert " + typeName(v));
  }

  static @Nullable Object member(@Nullable Object v, String name) {
    if (v instanceof Map<?, ?> m) {
      return m.get(name);
    }
    throw new EvalException("type " + typeName(v) + " has no field " + name);
  }

  static @Nullable Object index(@Nullable Object v, @Nullable Object index) {
    if (v instanceof List<?> l && index instanceof Long i) {
      long k = i < 0 ? l.size() + i : i;
      if (k < 0 || k >= l.size()) {
        throw new EvalException("index out of range: " + i + " (array length is " + l.size() + ")");
      }
      return l.get((int) k);
    }
    if (v instanceof Map<?, ?> m && index instanceof String s) {
      return m.get(s);
    }
    throw new EvalException("invalid operation: cannot index " + typeName(v) + " with " + typeName(index));
  }

  static boolean isNumber(@Nullable Object v) {
    return v instanceof Long || v instanceof Double;
  }

  static Object compare(String op, @Nullable Object l, @Nullable Object r) {
    if (op.equals("in")) {
      if (r instanceof List<?> list) {
        for (Object item : list) {
          if (equal(l, item)) {
            return true;
          }
        }
        return false;
      }
      if (r instanceof Map<?, ?> m) {
        return m.containsKey(l);
      }
      throw new EvalException("invalid operation: in (mismatched types " + typeName(l) + " and " + typeName(r) + ")");
    }
    if (op.equals("==") || op.equals("!=")) {
      if (l != null && r != null && !(isNumber(l) && isNumber(r)) && !l.getClass().equals(r.getClass())
          && !(l instanceof List && r instanceof List) && !(l instanceof Map && r instanceof Map)) {
        throw new EvalException("invalid operation: " + op + " (mismatched types " + typeName(l) + " and "
            + typeName(r) + ")");
      }
      boolean eq = equal(l, r);
      return op.equals("==") == eq;
    }
    int c;
    if (isNumber(l) && isNumber(r)) {
      c = Double.compare(((Number) l).doubleValue(), ((Number) r).doubleValue());
      if (Double.isNaN(((Number) l).doubleValue()) || Double.isNaN(((Number) r).doubleValue())) {
        return false;
      }
    } else if (l instanceof String a && r instanceof String b) {
      c = a.compareTo(b);
    } else {
      throw new EvalException("invalid operation: " + op + " (mismatched types " + typeName(l) + " and "
          + typeName(r) + ")");
    }
    return switch (op) {
      case "<" -> c < 0;
      case "<=" -> c <= 0;
      case ">" -> c > 0;
      default -> c >= 0;
    };
  }

  static boolean equal(@Nullable Object l, @Nullable Object r) {
    if (isNumber(l) && isNumber(r)) {
      return ((Number) l).doubleValue() == ((Number) r).doubleValue();
    }
    return Objects.equals(l, r);
  }

  static Object arithmetic(String op, @Nullable Object l, @Nullable Object r) {
    if (op.equals("+") && l instanceof String a && r instanceof String b) {
      return a + b;
    }
    if (!isNumber(l) || !isNumber(r)) {
      throw new EvalException("invalid operation: " + op + " (mismatched types " + typeName(l) + " and "
          + typeName(r) + ")");
    }
    if (l instanceof Long a && r instanceof Long b && !op.equals("/")) {
      return switch (op) {
        case "+" -> a + b;
        case "-" -> a - b;
        case "*" -> a * b;
        default -> {
          if (b == 0) {
            throw new EvalException("integer divide by zero");
          }
          yield a % b;
        }
      };
    }
    double a = ((Number) l).doubleValue();
    double b = ((Number) r).doubleValue();
    return switch (op) {
      case "+" -> a + b;
      case "-" -> a - b;
      case "*" -> a * b;
      case "/" -> a / b;
      default -> a % b;
    };
  }
}
