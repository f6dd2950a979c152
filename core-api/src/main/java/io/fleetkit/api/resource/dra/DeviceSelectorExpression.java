package io.fleetkit.api.resource.dra;

import io.fleetkit.api.resource.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A compiled device selector: the bounded subset of CEL that device classes and claims use, parsed and type-checked
 * once, then evaluated against many devices. Immutable and thread-safe.
 *
 * <p>Supported: the literals {@code true}, {@code false}, integers and strings ({@code "..."} or {@code '...'});
 * {@code device.driver}; {@code device.attributes["domain"].name} and {@code device.attributes["domain"]["name"]};
 * {@code device.capacity["domain"].name}; {@code quantity("40Gi")} with {@code compareTo}, {@code isGreaterThan}
 * and {@code isLessThan} on quantities; presence checks {@code "domain" in device.attributes} and
 * {@code "name" in device.attributes["domain"]} (and on {@code device.capacity}); {@code ==}, {@code !=},
 * {@code <}, {@code <=}, {@code >}, {@code >=}, {@code &&}, {@code ||}, {@code !} and parentheses. Anything else
 * valid in CEL (macros, other functions and fields, arithmetic, lists, {@code cel.bind}, semantic versions) is
 * refused at compile time with a message naming the construct, never evaluated as {@code false}.
 *
 * <p>Semantics follow CEL: {@code &&} and {@code ||} are commutative over errors ({@code false && error} and
 * {@code error && false} are both {@code false}); a missing attribute is a runtime error ({@code no such key});
 * comparing values of different types is a runtime error ({@code no such overload}). An attribute named without a
 * domain belongs to the device's driver.
 */
public final class DeviceSelectorExpression {
  private final String text;
  private final Node root;

  private DeviceSelectorExpression(String text, Node root) {
    this.text = text;
    this.root = root;
  }

  /**
   * Parses and type-checks {@code expression}.
   *
   * @throws DeviceSelectorException on a syntax error, a construct outside the subset, or a type error
   */
  public static DeviceSelectorExpression compile(String expression) {
    Objects.requireNonNull(expression, "expression");
    Parser p = new Parser(expression);
    Node root = p.parseExpr();
    p.expectEnd();
    if (root.type() != Type.BOOL && root.type() != Type.DYN) {
      throw new DeviceSelectorException("must evaluate to bool or the unknown type, not " + root.type().celName);
    }
    return new DeviceSelectorExpression(expression, root);
  }

  /** The expression as written. */
  public String text() {
    return text;
  }

  /**
   * Whether the device {@code device} of driver {@code driver} matches.
   *
   * @throws DeviceSelectorException on a CEL runtime error (a missing attribute, a type mismatch)
   */
  public boolean matches(String driver, Device device) {
    Object v = root.eval(new Ctx(driver, device));
    if (v instanceof Err e) {
      throw new DeviceSelectorException(e.message);
    }
    if (v instanceof Boolean b) {
      return b;
    }
    throw new DeviceSelectorException("CEL result of type " + typeName(v) + " could not be converted to bool");
  }

  @Override
  public String toString() {
    return text;
  }

  // ---- types and values -------------------------------------------------------------------------------------

  private enum Type {
    BOOL("bool"), INT("int"), STRING("string"), QUANTITY("Quantity"), DYN("dyn"), DEVICE("device"),
    ATTRIBUTES("map(string, map(string, dyn))"), CAPACITIES("map(string, map(string, Quantity))"),
    ATTRIBUTE_DOMAIN("map(string, dyn)"), CAPACITY_DOMAIN("map(string, Quantity)");

    final String celName;

    Type(String celName) {
      this.celName = celName;
    }

    boolean comparableWith(Type o) {
      return this == DYN || o == DYN || this == o;
    }
  }

  /** A runtime error travelling as a value, so that {@code &&} and {@code ||} can absorb it as CEL does. */
  private record Err(String message) {}

  private record Ctx(String driver, Device device) {}

  /** One domain of a device's attributes or capacities. */
  private record Domain(String domain, Ctx ctx, boolean capacity) {
    Object lookup(String name) {
      Map<String, ?> m = capacity ? ctx.device.capacity() : ctx.device.attributes();
      Object v = m.get(domain + "/" + name);
      if (v == null && domain.equals(ctx.driver)) {
        v = m.get(name);
      }
      if (v == null) {
        return new Err("no such key: " + name);
      }
      return v instanceof DeviceAttribute a ? a.value() : v;
    }

    boolean has(String name) {
      return !(lookup(name) instanceof Err);
    }
  }

  private static String typeName(Object v) {
    if (v instanceof Boolean) {
      return "bool";
    }
    if (v instanceof Long) {
      return "int";
    }
    if (v instanceof String) {
      return "string";
    }
    if (v instanceof Quantity) {
      return "Quantity";
    }
    if (v instanceof DeviceAttribute.Version) {
      return "Semver";
    }
    return "map";
  }

  // ---- AST ----------------------------------------------------------------------------------------------------

  private interface Node {
    Type type();

    Object eval(Ctx c);
  }

  private record Literal(Type type, Object value) implements Node {
    @Override
    public Object eval(Ctx c) {
      return value;
    }
  }

  private record DeviceRef() implements Node {
    @Override
    public Type type() {
      return Type.DEVICE;
    }

    @Override
    public Object eval(Ctx c) {
      return c;
    }
  }

  private record DeviceField(String field, Type type) implements Node {
    @Override
    public Object eval(Ctx c) {
      return field.equals("driver") ? c.driver : c;
    }
  }

  /** {@code device.attributes[key]} or {@code device.capacity[key]}. */
  private record DomainIndex(Node key, boolean capacity) implements Node {
    @Override
    public Type type() {
      return capacity ? Type.CAPACITY_DOMAIN : Type.ATTRIBUTE_DOMAIN;
    }

    @Override
    public Object eval(Ctx c) {
      Object k = key.eval(c);
      if (k instanceof Err) {
        return k;
      }
      return new Domain((String) k, c, capacity);
    }
  }

  /** {@code domain.name} or {@code domain["name"]}. */
  private record Lookup(Node domain, Node name, Type type) implements Node {
    @Override
    public Object eval(Ctx c) {
      Object d = domain.eval(c);
      if (d instanceof Err) {
        return d;
      }
      Object n = name.eval(c);
      if (n instanceof Err) {
        return n;
      }
      return ((Domain) d).lookup((String) n);
    }
  }

  /** {@code key in map}. */
  private record In(Node key, Node map) implements Node {
    @Override
    public Type type() {
      return Type.BOOL;
    }

    @Override
    public Object eval(Ctx c) {
      Object k = key.eval(c);
      if (k instanceof Err) {
        return k;
      }
      if (!(k instanceof String s)) {
        return new Err("no such overload: " + typeName(k) + " in map");
      }
      Object m = map.eval(c);
      if (m instanceof Err) {
        return m;
      }
      if (m instanceof Domain d) {
        return d.has(s);
      }
      Ctx ctx = (Ctx) m;
      boolean capacity = map.type() == Type.CAPACITIES;
      for (String q : capacity ? ctx.device.capacity().keySet() : ctx.device.attributes().keySet()) {
        int slash = q.indexOf('/');
        String domain = slash < 0 ? ctx.driver : q.substring(0, slash);
        if (domain.equals(s)) {
          return true;
        }
      }
      return false;
    }
  }

  private record QuantityCall(Node target, String method, Node arg) implements Node {
    @Override
    public Type type() {
      return method.equals("compareTo") ? Type.INT : Type.BOOL;
    }

    @Override
    public Object eval(Ctx c) {
      Object t = target.eval(c);
      if (t instanceof Err) {
        return t;
      }
      Object a = arg.eval(c);
      if (a instanceof Err) {
        return a;
      }
      if (!(t instanceof Quantity q) || !(a instanceof Quantity o)) {
        return new Err("no such overload: " + typeName(t) + "." + method + "(" + typeName(a) + ")");
      }
      int cmp = q.compareTo(o);
      return switch (method) {
        case "compareTo" -> (long) Integer.signum(cmp);
        case "isGreaterThan" -> cmp > 0;
        default -> cmp < 0;
      };
    }
  }

  private record Not(Node operand) implements Node {
    @Override
    public Type type() {
      return Type.BOOL;
    }

    @Override
    public Object eval(Ctx c) {
      Object v = operand.eval(c);
      if (v instanceof Err) {
        return v;
      }
      if (v instanceof Boolean b) {
        return !b;
      }
      return new Err("no such overload: !" + typeName(v));
    }
  }

  private record Logical(Node left, Node right, boolean and) implements Node {
    @Override
    public Type type() {
      return Type.BOOL;
    }

    @Override
    public Object eval(Ctx c) {
      Object l = asBool(left.eval(c));
      if (l instanceof Boolean b && b != and) {
        return b; // short circuit: false && _, true || _
      }
      Object r = asBool(right.eval(c));
      if (r instanceof Boolean b && b != and) {
        return b; // an error on the left is absorbed, as CEL's commutative && and ||
      }
      if (l instanceof Err) {
        return l;
      }
      return r;
    }

    private static Object asBool(Object v) {
      return v instanceof Boolean || v instanceof Err ? v : new Err("no such overload: logical operator on "
          + typeName(v));
    }
  }

  private record Relation(Node left, Node right, String op) implements Node {
    @Override
    public Type type() {
      return Type.BOOL;
    }

    @Override
    public Object eval(Ctx c) {
      Object l = left.eval(c);
      if (l instanceof Err) {
        return l;
      }
      Object r = right.eval(c);
      if (r instanceof Err) {
        return r;
      }
      if (l.getClass() != r.getClass() || l instanceof DeviceAttribute.Version) {
        return new Err("no such overload: " + typeName(l) + " " + op + " " + typeName(r));
      }
      if (op.equals("==")) {
        return l.equals(r);
      }
      if (op.equals("!=")) {
        return !l.equals(r);
      }
      int cmp;
      if (l instanceof Long a) {
        cmp = Long.compare(a, (Long) r);
      } else if (l instanceof String a) {
        cmp = a.compareTo((String) r);
      } else if (l instanceof Boolean a) {
        cmp = Boolean.compare(a, (Boolean) r);
      } else {
        return new Err("no such overload: " + typeName(l) + " " + op + " " + typeName(r));
      }
      return switch (op) {
        case "<" -> cmp < 0;
        case "<=" -> cmp <= 0;
        case ">" -> cmp > 0;
        default -> cmp >= 0;
      };
    }
  }

  // ---- parser -------------------------------------------------------------------------------------------------

  private static final String SUBSET = "FleetKit evaluates a subset of CEL: literals, device.driver, "
      + "device.attributes[\"domain\"].name, device.capacity[\"domain\"].name, quantity(\"...\") with compareTo, "
      + "isGreaterThan and isLessThan, in, ==, !=, <, <=, >, >=, &&, ||, !";

  private static DeviceSelectorException unsupported(String construct) {
    return new DeviceSelectorException("unsupported construct " + construct + " (" + SUBSET + ")");
  }

  /** A recursive-descent parser over CEL's precedence: {@code ||}, {@code &&}, relations, unary, member. */
  private static final class Parser {
    private final String s;
    private int pos;

    Parser(String s) {
      this.s = s;
    }

    private DeviceSelectorException syntax(String what) {
      return new DeviceSelectorException("Syntax error: " + what + " at position " + pos);
    }

    private void skipSpace() {
      while (pos < s.length() && isCelSpace(s.charAt(pos))) {
        pos++;
      }
    }

    private boolean peek(String token) {
      skipSpace();
      if (!s.startsWith(token, pos)) {
        return false;
      }
      if (isAsciiLetter(token.charAt(0))) {
        int end = pos + token.length();
        return end >= s.length() || !isIdentPart(s.charAt(end));
      }
      return true;
    }

    private boolean accept(String token) {
      if (peek(token)) {
        pos += token.length();
        return true;
      }
      return false;
    }

    private void expect(String token) {
      if (!accept(token)) {
        throw syntax("expected '" + token + "'");
      }
    }

    void expectEnd() {
      skipSpace();
      if (pos < s.length()) {
        throw syntax("unexpected '" + s.charAt(pos) + "'");
      }
    }

    Node parseExpr() {
      Node n = parseAnd();
      while (accept("||")) {
        n = new Logical(boolOperand(n, "||"), boolOperand(parseAnd(), "||"), false);
      }
      if (peek("?") && pos > 0) {
        throw unsupported("'?:' (conditional)");
      }
      return n;
    }

    private Node parseAnd() {
      Node n = parseRelation();
      while (accept("&&")) {
        n = new Logical(boolOperand(n, "&&"), boolOperand(parseRelation(), "&&"), true);
      }
      return n;
    }

    private Node boolOperand(Node n, String op) {
      if (n.type() != Type.BOOL && n.type() != Type.DYN) {
        throw new DeviceSelectorException("found no matching overload for '" + op + "' applied to "
            + n.type().celName);
      }
      return n;
    }

    private Node parseRelation() {
      Node left = parseUnary();
      for (String op : new String[] {"==", "!=", "<=", ">=", "<", ">"}) {
        if (accept(op)) {
          Node right = parseUnary();
          boolean ordered = !op.equals("==") && !op.equals("!=");
          if (!left.type().comparableWith(right.type()) || !scalar(left.type()) || !scalar(right.type())
              || ordered && (left.type() == Type.QUANTITY || right.type() == Type.QUANTITY)) {
            throw new DeviceSelectorException("found no matching overload for '_" + op + "_' applied to '("
                + left.type().celName + ", " + right.type().celName + ")'");
          }
          return new Relation(left, right, op);
        }
      }
      if (accept("in")) {
        Node map = parseUnary();
        Type t = map.type();
        if (t != Type.ATTRIBUTES && t != Type.CAPACITIES && t != Type.ATTRIBUTE_DOMAIN
            && t != Type.CAPACITY_DOMAIN) {
          throw unsupported("'in' on " + t.celName);
        }
        if (left.type() != Type.STRING && left.type() != Type.DYN) {
          throw new DeviceSelectorException("found no matching overload for '@in' applied to '("
              + left.type().celName + ", " + t.celName + ")'");
        }
        return new In(left, map);
      }
      return left;
    }

    private static boolean scalar(Type t) {
      return t == Type.BOOL || t == Type.INT || t == Type.STRING || t == Type.DYN || t == Type.QUANTITY;
    }

    private Node parseUnary() {
      if (accept("!")) {
        Node n = parseUnary();
        if (n.type() != Type.BOOL && n.type() != Type.DYN) {
          throw new DeviceSelectorException("found no matching overload for '!_' applied to '("
              + n.type().celName + ")'");
        }
        return new Not(n);
      }
      if (peek("-")) {
        pos++;
        skipSpace();
        if (pos < s.length() && isAsciiDigit(s.charAt(pos))) {
          return parseMember(parseNumber(true));
        }
        throw unsupported("'-' (arithmetic)");
      }
      return parseMember(parsePrimary());
    }

    private Node parsePrimary() {
      skipSpace();
      if (pos >= s.length()) {
        throw syntax("unexpected end of expression");
      }
      char ch = s.charAt(pos);
      if (ch == '(') {
        pos++;
        Node n = parseExpr();
        expect(")");
        return n;
      }
      if (ch == '"' || ch == '\'') {
        return new Literal(Type.STRING, parseString());
      }
      if (isAsciiDigit(ch)) {
        return parseNumber(false);
      }
      if (ch == '[' || ch == '{') {
        throw unsupported(ch == '[' ? "list literal" : "map literal");
      }
      if (isAsciiLetter(ch) || ch == '_') {
        String id = parseIdent();
        switch (id) {
          case "true":
            return new Literal(Type.BOOL, Boolean.TRUE);
          case "false":
            return new Literal(Type.BOOL, Boolean.FALSE);
          case "device":
            return new DeviceRef();
          case "quantity": {
            expect("(");
            skipSpace();
            if (pos >= s.length() || (s.charAt(pos) != '"' && s.charAt(pos) != '\'')) {
              throw unsupported("quantity() with an argument other than a string literal");
            }
            String q = parseString();
            expect(")");
            try {
              return new Literal(Type.QUANTITY, Quantity.parse(q));
            } catch (IllegalArgumentException e) {
              throw new DeviceSelectorException("quantity(\"" + q + "\"): " + e.getMessage());
            }
          }
          default:
            if (peek("(")) {
              throw unsupported("function '" + id + "'");
            }
            if (id.equals("cel") || id.equals("null")) {
              throw unsupported("'" + id + "'");
            }
            throw new DeviceSelectorException("undeclared reference to '" + id + "'");
        }
      }
      throw syntax("unexpected '" + ch + "'");
    }

    private Node parseMember(Node n) {
      while (true) {
        if (accept(".")) {
          skipSpace();
          String name = parseIdent();
          if (peek("(")) {
            n = method(n, name);
          } else {
            n = field(n, name);
          }
        } else if (accept("[")) {
          Node key = parseExpr();
          expect("]");
          n = index(n, key);
        } else {
          skipSpace();
          if (pos < s.length() && "+-*/%".indexOf(s.charAt(pos)) >= 0) {
            throw unsupported("arithmetic operator '" + s.charAt(pos) + "'");
          }
          return n;
        }
      }
    }

    private Node field(Node target, String name) {
      return switch (target.type()) {
        case DEVICE -> switch (name) {
          case "driver" -> new DeviceField(name, Type.STRING);
          case "attributes" -> new DeviceField(name, Type.ATTRIBUTES);
          case "capacity" -> new DeviceField(name, Type.CAPACITIES);
          default -> throw new DeviceSelectorException("undefined field '" + name + "' (" + SUBSET + ")");
        };
        case ATTRIBUTE_DOMAIN -> new Lookup(target, new Literal(Type.STRING, name), Type.DYN);
        case CAPACITY_DOMAIN -> new Lookup(target, new Literal(Type.STRING, name), Type.QUANTITY);
        default -> throw unsupported("field '." + name + "' on " + target.type().celName);
      };
    }

    private Node index(Node target, Node key) {
      if (key.type() != Type.STRING && key.type() != Type.DYN) {
        throw new DeviceSelectorException("found no matching overload for '_[_]' applied to '("
            + target.type().celName + ", " + key.type().celName + ")'");
      }
      return switch (target.type()) {
        case ATTRIBUTES -> new DomainIndex(key, false);
        case CAPACITIES -> new DomainIndex(key, true);
        case ATTRIBUTE_DOMAIN -> new Lookup(target, key, Type.DYN);
        case CAPACITY_DOMAIN -> new Lookup(target, key, Type.QUANTITY);
        default -> throw unsupported("index '[...]' on " + target.type().celName);
      };
    }

    private Node method(Node target, String name) {
      boolean quantityMethod = name.equals("compareTo") || name.equals("isGreaterThan")
          || name.equals("isLessThan");
      if (!quantityMethod) {
        throw unsupported("function '" + name + "'");
      }
      expect("(");
      List<Node> args = new ArrayList<>();
      if (!accept(")")) {
        do {
          args.add(parseExpr());
        } while (accept(","));
        expect(")");
      }
      // An attribute (dyn) is accepted as the target: its lookup errors surface as in CEL, and a non-quantity
      // value is a runtime "no such overload" (attributes are never quantities; Kubernetes uses these names for
      // semantic versions too, which FleetKit does not evaluate).
      boolean targetOk = target.type() == Type.QUANTITY || target.type() == Type.DYN;
      if (!targetOk || args.size() != 1 || args.get(0).type() != Type.QUANTITY) {
        throw unsupported("'" + name + "' other than on two quantities (target " + target.type().celName + ")");
      }
      return new QuantityCall(target, name, args.get(0));
    }

    private String parseIdent() {
      int start = pos;
      if (pos < s.length() && (isAsciiLetter(s.charAt(pos)) || s.charAt(pos) == '_')) {
        pos++;
        while (pos < s.length() && isIdentPart(s.charAt(pos))) {
          pos++;
        }
      }
      if (start == pos) {
        throw syntax("expected an identifier");
      }
      return s.substring(start, pos);
    }

    /** CEL's {@code DIGIT ::= [0-9]} (cel-spec langdef.md): a digit of another script is not a number. */
    private static boolean isAsciiDigit(char c) {
      return c >= '0' && c <= '9';
    }

    /** The letters of CEL's {@code IDENT ::= [_a-zA-Z][_a-zA-Z0-9]*}. */
    private static boolean isAsciiLetter(char c) {
      return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    /** CEL's {@code WHITESPACE ::= [\t\n\f\r ]+}. */
    private static boolean isCelSpace(char c) {
      return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
    }

    private static boolean isIdentPart(char c) {
      return isAsciiLetter(c) || isAsciiDigit(c) || c == '_';
    }

    private Node parseNumber(boolean negative) {
      int start = pos;
      while (pos < s.length() && isAsciiDigit(s.charAt(pos))) {
        pos++;
      }
      if (pos < s.length() && (s.charAt(pos) == '.' && pos + 1 < s.length() && isAsciiDigit(s.charAt(pos + 1))
          || s.charAt(pos) == 'e' || s.charAt(pos) == 'u' || s.charAt(pos) == 'x')) {
        throw unsupported("number literal other than a decimal int");
      }
      try {
        long v = Long.parseLong((negative ? "-" : "") + s.substring(start, pos));
        return new Literal(Type.INT, v);
      } catch (NumberFormatException e) {
        throw syntax("int literal out of range");
      }
    }

    private String parseString() {
      char quote = s.charAt(pos);
      if (s.startsWith(String.valueOf(quote).repeat(3), pos)) {
        throw unsupported("triple-quoted string");
      }
      pos++;
      StringBuilder b = new StringBuilder();
      while (pos < s.length() && s.charAt(pos) != quote) {
        char ch = s.charAt(pos++);
        if (ch == '\\') {
          if (pos >= s.length()) {
            break;
          }
          char e = s.charAt(pos++);
          switch (e) {
            case '\\', '"', '\'' -> b.append(e);
            case 'n' -> b.append('\n');
            case 't' -> b.append('\t');
            default -> throw unsupported("string escape '\\" + e + "'");
          }
        } else {
          b.append(ch);
        }
      }
      if (pos >= s.length()) {
        throw syntax("unterminated string");
      }
      pos++;
      return b.toString();
    }
  }
}
