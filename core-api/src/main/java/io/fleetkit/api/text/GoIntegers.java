package io.fleetkit.api.text;

import java.util.Objects;

/**
 * Decimal integers read as Go's {@code strconv.ParseInt(s, 10, bitSize)} and {@code strconv.Atoi(s)} read them, the
 * parsers behind most numbers in Kubernetes, Kueue and Argo annotations, labels and fields: an optional {@code +} or
 * {@code -}, then one or more ASCII digits {@code 0-9} (leading zeros allowed), and nothing else: no spaces, no
 * underscores, no digits of other scripts. Java's {@code Integer.parseInt} and {@code Long.parseLong} read every
 * script's digits ({@code "٣"}, {@code "３"} and {@code "߃"} are 3 to Java, a syntax error to Go); these methods do
 * not.
 *
 * <p>A value outside the {@code bitSize}-bit two's-complement range is an error, as in Go (which also returns the
 * nearest limit; here nothing is returned). Errors are {@link NumberFormatException}s (so {@link
 * IllegalArgumentException}s) whose message is Go's own {@code NumError} text, for example {@code strconv.Atoi:
 * parsing "٣": invalid syntax} or {@code strconv.ParseInt: parsing "9223372036854775808": value out of range}; the
 * text is quoted as Go's {@code strconv.Quote} does. Callers that report a field wrap it in their own message.
 *
 * <p>Stateless and thread-safe; {@link #isInt} allocates nothing.
 */
public final class GoIntegers {
  private static final String PARSE_INT = "ParseInt";
  private static final String ATOI = "Atoi";
  private static final int OK = 0;
  private static final int SYNTAX = 1;
  private static final int RANGE = 2;
  /** Go's {@code maxUint64/10 + 1}: the least unsigned value that overflows when multiplied by 10. */
  private static final long CUTOFF = Long.divideUnsigned(-1L, 10) + 1;

  private GoIntegers() {}

  /**
   * Go's {@code strconv.ParseInt(s, 10, bitSize)}: the value of {@code s} as a signed integer of {@code bitSize} bits.
   *
   * @param bitSize 1 to 64, or 0 for Go's {@code int} (64 bits)
   * @throws NumberFormatException when {@code s} is not an optional sign and ASCII digits ({@code invalid syntax}) or
   *     its value does not fit {@code bitSize} bits ({@code value out of range}); the message is Go's
   * @throws IllegalArgumentException when {@code bitSize} is not 0 to 64 (Go's {@code invalid bit size})
   * @throws NullPointerException when {@code s} is null
   */
  public static long parseInt(String s, int bitSize) {
    return parse(PARSE_INT, s, bitSize);
  }

  /**
   * Go's {@code strconv.ParseInt(s, 10, 32)} as an {@code int}: an optional sign and ASCII digits, from
   * {@link Integer#MIN_VALUE} to {@link Integer#MAX_VALUE}; the reader for Kubernetes' {@code int32} fields.
   *
   * @throws NumberFormatException as {@link #parseInt(String, int)} with 32 bits
   */
  public static int parseInt32(String s) {
    return (int) parse(PARSE_INT, s, 32);
  }

  /**
   * Go's {@code strconv.Atoi(s)} on a 64-bit platform (where Kubernetes runs): {@code ParseInt(s, 10, 0)}, its
   * errors naming {@code strconv.Atoi}.
   *
   * @throws NumberFormatException when {@code s} is not an optional sign and ASCII digits or its value does not fit
   *     64 bits; the message is Go's
   * @throws NullPointerException when {@code s} is null
   */
  public static long atoi(String s) {
    return parse(ATOI, s, 64);
  }

  /**
   * Go's {@code strconv.Atoi(s)} where the result must also fit an {@code int}: 32 bits, an error naming {@code
   * strconv.Atoi} beyond them.
   *
   * @throws NumberFormatException as {@link #atoi} with 32 bits
   */
  public static int atoi32(String s) {
    return (int) parse(ATOI, s, 32);
  }

  /**
   * Whether {@link #parseInt(String, int) parseInt(s, bitSize)} returns a value rather than throwing; allocates
   * nothing.
   *
   * @throws IllegalArgumentException when {@code bitSize} is not 0 to 64
   */
  public static boolean isInt(String s, int bitSize) {
    return check(s, bits(bitSize, s)) == OK;
  }

  private static long parse(String fn, String s, int bitSize) {
    Objects.requireNonNull(s, "s");
    int bits = bits(bitSize, s);
    switch (check(s, bits)) {
      case SYNTAX -> throw new NumberFormatException(error(fn, s, "invalid syntax"));
      case RANGE -> throw new NumberFormatException(error(fn, s, "value out of range"));
      default -> {
        return Long.parseLong(s); // an optional sign and ASCII digits within range: Java reads them alike
      }
    }
  }

  private static int bits(int bitSize, String s) {
    if (bitSize == 0) {
      return 64;
    }
    if (bitSize < 0 || bitSize > 64) {
      throw new IllegalArgumentException(error(PARSE_INT, s, "invalid bit size " + bitSize));
    }
    return bitSize;
  }

  /**
   * OK, SYNTAX or RANGE, decided as Go decides them: {@code ParseUint}'s loop over the digits after the sign (a
   * character that is not a digit is a syntax error, unless the unsigned value has already passed {@code bits} bits
   * before it: {@code "99999999999999999999x"} is out of range), then {@code ParseInt}'s signed limit.
   */
  private static int check(String s, int bits) {
    int len = s.length();
    if (len == 0) {
      return SYNTAX;
    }
    boolean negative = s.charAt(0) == '-';
    int i = negative || s.charAt(0) == '+' ? 1 : 0;
    if (i == len) {
      return SYNTAX;
    }
    long maxVal = bits == 64 ? -1L : (1L << bits) - 1; // unsigned
    long un = 0; // unsigned
    for (; i < len; i++) {
      int d = s.charAt(i) - '0';
      if (d < 0 || d > 9) {
        return SYNTAX;
      }
      if (Long.compareUnsigned(un, CUTOFF) >= 0) {
        return RANGE; // un * 10 overflows 64 bits
      }
      un *= 10;
      long next = un + d;
      if (Long.compareUnsigned(next, un) < 0 || Long.compareUnsigned(next, maxVal) > 0) {
        return RANGE;
      }
      un = next;
    }
    long signedCutoff = 1L << (bits - 1); // 2^(bits-1), unsigned
    int c = Long.compareUnsigned(un, signedCutoff);
    return negative ? (c > 0 ? RANGE : OK) : (c >= 0 ? RANGE : OK);
  }

  /** Go's {@code NumError.Error()}: {@code strconv.FN: parsing QUOTED: REASON}. */
  private static String error(String fn, String s, String reason) {
    return "strconv." + fn + ": parsing " + quote(s) + ": " + reason;
  }

  /**
   * Go's {@code strconv.Quote}: the text in double quotes; {@code "} and {@code \} escaped; {@code \a \b \f \n \r \t
   * \v} for those controls; other characters Go does not print (controls, format characters, separators other than
   * the ASCII space, unassigned and private-use code points, lone surrogates) as {@code \xNN} below U+0080,
   * {@code \}{@code uNNNN} or {@code \UNNNNNNNN} above; letters, marks, digits, punctuation and symbols of every
   * script as they are.
   */
  static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); ) {
      int c = s.codePointAt(i);
      i += Character.charCount(c);
      switch (c) {
        case '"', '\\' -> sb.append('\\').append((char) c);
        case 0x07 -> sb.append("\\a");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case 0x0B -> sb.append("\\v");
        default -> {
          if (printable(c)) {
            sb.appendCodePoint(c);
          } else if (c < 0x80) {
            sb.append(String.format("\\x%02x", c));
          } else if (c < 0x10000) {
            sb.append(String.format("\\u%04x", c));
          } else {
            sb.append(String.format("\\U%08x", c));
          }
        }
      }
    }
    return sb.append('"').toString();
  }

  /** Go's {@code strconv.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII space. */
  private static boolean printable(int c) {
    if (c == ' ') {
      return true;
    }
    return switch (Character.getType(c)) {
      case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
          Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.NON_SPACING_MARK, Character.ENCLOSING_MARK,
          Character.COMBINING_SPACING_MARK, Character.DECIMAL_DIGIT_NUMBER, Character.LETTER_NUMBER,
          Character.OTHER_NUMBER, Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION,
          Character.START_PUNCTUATION, Character.END_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION,
          Character.FINAL_QUOTE_PUNCTUATION, Character.OTHER_PUNCTUATION, Character.MATH_SYMBOL,
          Character.CURRENCY_SYMBOL, Character.MODIFIER_SYMBOL, Character.OTHER_SYMBOL -> true;
      default -> false;
    };
  }
}
