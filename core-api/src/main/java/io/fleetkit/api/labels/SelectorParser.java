package io.fleetkit.api.labels;

import io.fleetkit.api.internal.FieldErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Lexer and recursive-descent parser for the label selector string syntax, a port of apimachinery
 * {@code pkg/labels/selector.go} ({@code Lexer}, {@code Parser}) that also tracks token positions for error messages.
 */
final class SelectorParser {
  /** Lexer tokens, as upstream's {@code Token}. */
  enum Token {
    ERROR,
    END_OF_STRING,
    CLOSED_PAR,
    COMMA,
    DOES_NOT_EXIST,
    DOUBLE_EQUALS,
    EQUALS,
    GREATER_THAN,
    IDENTIFIER,
    IN,
    LESS_THAN,
    NOT_EQUALS,
    NOT_IN,
    OPEN_PAR
  }

  /** A token, its literal and where it starts. */
  record Item(Token token, String literal, int position) {}

  private static final Map<String, Token> STRING_TO_TOKEN = Map.ofEntries(
      Map.entry(")", Token.CLOSED_PAR),
      Map.entry(",", Token.COMMA),
      Map.entry("!", Token.DOES_NOT_EXIST),
      Map.entry("==", Token.DOUBLE_EQUALS),
      Map.entry("=", Token.EQUALS),
      Map.entry(">", Token.GREATER_THAN),
      Map.entry("in", Token.IN),
      Map.entry("<", Token.LESS_THAN),
      Map.entry("!=", Token.NOT_EQUALS),
      Map.entry("notin", Token.NOT_IN),
      Map.entry("(", Token.OPEN_PAR));

  private static final String BINARY_OPERATORS = "in, notin, =, ==, !=, gt, lt";

  /** Lexer over a string; {@link #lex()} returns one token at a time. */
  static final class Lexer {
    private final String s;
    private int pos;

    Lexer(String s) {
      this.s = s;
    }

    private int read() {
      if (pos < s.length()) {
        return s.charAt(pos++);
      }
      return -1;
    }

    private void unread() {
      pos--;
    }

    static boolean isWhitespace(int ch) {
      return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
    }

    static boolean isSpecialSymbol(int ch) {
      return switch (ch) {
        case '=', '!', '(', ')', ',', '>', '<' -> true;
        default -> false;
      };
    }

    Item lex() {
      int ch = read();
      while (isWhitespace(ch)) {
        ch = read();
      }
      if (ch == -1) {
        return new Item(Token.END_OF_STRING, "", s.length());
      }
      unread();
      int start = pos;
      return isSpecialSymbol(ch) ? scanSpecialSymbol(start) : scanIdOrKeyword(start);
    }

    private Item scanIdOrKeyword(int start) {
      while (true) {
        int ch = read();
        if (ch == -1) {
          break;
        }
        if (isSpecialSymbol(ch) || isWhitespace(ch)) {
          unread();
          break;
        }
      }
      String lit = s.substring(start, pos);
      Token t = STRING_TO_TOKEN.get(lit);
      return new Item(t != null ? t : Token.IDENTIFIER, lit, start);
    }

    /** Longest run of special symbols that forms a known operator ("!=", "==", "=", ...). */
    private Item scanSpecialSymbol(int start) {
      Token last = null;
      String lastLiteral = "";
      while (true) {
        int ch = read();
        if (ch == -1) {
          break;
        }
        if (!isSpecialSymbol(ch)) {
          unread();
          break;
        }
        String buffer = s.substring(start, pos);
        Token t = STRING_TO_TOKEN.get(buffer);
        if (t != null) {
          last = t;
          lastLiteral = buffer;
        } else if (last != null) {
          unread();
          break;
        }
      }
      if (last == null) {
        return new Item(Token.ERROR, "error expected: keyword found '" + s.substring(start, pos) + "'", start);
      }
      return new Item(last, lastLiteral, start);
    }
  }

  private enum Context {
    KEY_AND_OPERATOR,
    VALUES
  }

  private final String input;
  private final List<Item> items = new ArrayList<>();
  private int position;

  private SelectorParser(String input) {
    this.input = input;
  }

  static Selector parse(String selector) {
    List<Requirement> reqs = new SelectorParser(selector).parseRequirements();
    return Selector.of(reqs);
  }

  /** All tokens of {@code s}, ending with END_OF_STRING (for tests). */
  static List<Item> scan(String s) {
    SelectorParser p = new SelectorParser(s);
    p.scan();
    return p.items;
  }

  private void scan() {
    Lexer l = new Lexer(input);
    while (true) {
      Item item = l.lex();
      items.add(item);
      if (item.token() == Token.END_OF_STRING) {
        break;
      }
    }
  }

  private static Token inContext(Token t, Context context) {
    if (context == Context.VALUES && (t == Token.IN || t == Token.NOT_IN)) {
      return Token.IDENTIFIER;
    }
    return t;
  }

  private Item lookahead(Context context) {
    Item it = items.get(position);
    Token t = inContext(it.token(), context);
    return t == it.token() ? it : new Item(t, it.literal(), it.position());
  }

  private Item consume(Context context) {
    Item it = lookahead(context);
    position++;
    return it;
  }

  private SelectorParseException error(Item at, String reason) {
    return new SelectorParseException(input, at.position(), reason);
  }

  private List<Requirement> parseRequirements() {
    scan();
    List<Requirement> requirements = new ArrayList<>();
    while (true) {
      Item it = lookahead(Context.VALUES);
      switch (it.token()) {
        case IDENTIFIER, DOES_NOT_EXIST -> {
          requirements.add(parseRequirement());
          Item t = consume(Context.VALUES);
          switch (t.token()) {
            case END_OF_STRING -> {
              return requirements;
            }
            case COMMA -> {
              Item t2 = lookahead(Context.VALUES);
              if (t2.token() != Token.IDENTIFIER && t2.token() != Token.DOES_NOT_EXIST) {
                throw error(t2, "found '" + t2.literal() + "', expected: identifier after ','");
              }
            }
            default -> throw error(t, "found '" + t.literal() + "', expected: ',' or 'end of string'");
          }
        }
        case END_OF_STRING -> {
          return requirements;
        }
        default -> throw error(it, "found '" + it.literal() + "', expected: !, identifier, or 'end of string'");
      }
    }
  }

  private Requirement parseRequirement() {
    Item first = items.get(position);
    String prefix = "unable to parse requirement: ";
    // parseKeyAndInferOperator
    SelectionOperator operator = null;
    Item t = consume(Context.VALUES);
    if (t.token() == Token.DOES_NOT_EXIST) {
      operator = SelectionOperator.DoesNotExist;
      t = consume(Context.VALUES);
    }
    if (t.token() != Token.IDENTIFIER) {
      throw error(t, prefix + "found '" + t.literal() + "', expected: identifier");
    }
    String key = t.literal();
    List<String> keyErrs = Validation.isQualifiedName(key);
    if (!keyErrs.isEmpty()) {
      throw error(t, prefix + FieldErrors.invalid("", FieldErrors.quote(key), String.join("; ", keyErrs)));
    }
    Token next = lookahead(Context.VALUES).token();
    if ((next == Token.END_OF_STRING || next == Token.COMMA) && operator != SelectionOperator.DoesNotExist) {
      operator = SelectionOperator.Exists;
    }
    if (operator == SelectionOperator.Exists || operator == SelectionOperator.DoesNotExist) {
      return newRequirement(first, key, operator, List.of());
    }
    // parseOperator
    Item opItem = consume(Context.KEY_AND_OPERATOR);
    operator = switch (opItem.token()) {
      case IN -> SelectionOperator.In;
      case EQUALS -> SelectionOperator.Equals;
      case DOUBLE_EQUALS -> SelectionOperator.DoubleEquals;
      case GREATER_THAN -> SelectionOperator.GreaterThan;
      case LESS_THAN -> SelectionOperator.LessThan;
      case NOT_IN -> SelectionOperator.NotIn;
      case NOT_EQUALS -> SelectionOperator.NotEquals;
      default -> throw error(opItem, prefix + "found '" + opItem.literal() + "', expected: " + BINARY_OPERATORS);
    };
    TreeSet<String> values = (operator == SelectionOperator.In || operator == SelectionOperator.NotIn)
        ? parseValues(prefix)
        : parseExactValue(prefix);
    return newRequirement(first, key, operator, List.copyOf(values));
  }

  private Requirement newRequirement(Item at, String key, SelectionOperator op, List<String> values) {
    List<String> errs = Requirement.validate(key, op, values, "");
    if (!errs.isEmpty()) {
      throw error(at, "unable to parse requirement: " + String.join("; ", errs));
    }
    return Requirement.unchecked(key, op, values);
  }

  /** {@code (a,b,c)}: a possibly empty list of possibly empty values; sorted and deduplicated. */
  private TreeSet<String> parseValues(String prefix) {
    Item t = consume(Context.VALUES);
    if (t.token() != Token.OPEN_PAR) {
      throw error(t, prefix + "found '" + t.literal() + "' expected: '('");
    }
    Item la = lookahead(Context.VALUES);
    switch (la.token()) {
      case IDENTIFIER, COMMA -> {
        TreeSet<String> s = parseIdentifiersList(prefix);
        Item close = consume(Context.VALUES);
        if (close.token() != Token.CLOSED_PAR) {
          throw error(close, prefix + "found '" + la.literal() + "', expected: ')'");
        }
        return s;
      }
      case CLOSED_PAR -> {
        consume(Context.VALUES);
        TreeSet<String> s = new TreeSet<>();
        s.add("");
        return s;
      }
      default -> throw error(la, prefix + "found '" + la.literal() + "', expected: ',', ')' or identifier");
    }
  }

  private TreeSet<String> parseIdentifiersList(String prefix) {
    TreeSet<String> s = new TreeSet<>();
    while (true) {
      Item t = consume(Context.VALUES);
      switch (t.token()) {
        case IDENTIFIER -> {
          s.add(t.literal());
          Item t2 = lookahead(Context.VALUES);
          switch (t2.token()) {
            case COMMA -> {
              // next value
            }
            case CLOSED_PAR -> {
              return s;
            }
            default -> throw error(t2, prefix + "found '" + t2.literal() + "', expected: ',' or ')'");
          }
        }
        case COMMA -> {
          if (s.isEmpty()) {
            s.add(""); // "(,"
          }
          Token t2 = lookahead(Context.VALUES).token();
          if (t2 == Token.CLOSED_PAR) {
            s.add(""); // ",)"
            return s;
          }
          if (t2 == Token.COMMA) {
            s.add(""); // ",,"
          }
        }
        default -> throw error(t, prefix + "found '" + t.literal() + "', expected: ',', or identifier");
      }
    }
  }

  private TreeSet<String> parseExactValue(String prefix) {
    TreeSet<String> s = new TreeSet<>();
    Token la = lookahead(Context.VALUES).token();
    if (la == Token.END_OF_STRING || la == Token.COMMA) {
      s.add("");
      return s;
    }
    Item t = consume(Context.VALUES);
    if (t.token() == Token.IDENTIFIER) {
      s.add(t.literal());
      return s;
    }
    throw error(t, prefix + "found '" + t.literal() + "', expected: identifier");
  }
}
