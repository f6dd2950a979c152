package io.fleetkit.api.time;

import java.time.Duration;
import java.util.Objects;

/**
 * Go's duration text: {@link #parse} reads it as Go's {@code time.ParseDuration} does and {@link #format} writes it
 * as Go's {@code time.Duration.String()} does, so that what Kubernetes, Argo, Kueue or robfig/cron accept in a
 * manifest is accepted here, to the nanosecond, and what is written reads the same in Go.
 *
 * <p>The syntax: an optional sign, then one or more decimal numbers, each with an optional fraction and a unit
 * ({@code 300ms}, {@code -1.5h}, {@code 2h45m}, {@code .5s}, {@code 5.s}); the units are {@code ns}, {@code us}
 * (also {@code µs} U+00B5 and {@code μs} U+03BC), {@code ms}, {@code s}, {@code m} and {@code h}; a lone {@code 0}
 * (signed or not) is zero. Digits are ASCII {@code 0-9} only. A value must lie within Go's range,
 * {@value #MIN_TEXT} to {@value #MAX_TEXT} ({@code int64} nanoseconds), however its parts add up. A fraction finer
 * than a nanosecond is cut off, computed as Go computes it (in {@code double}, which this class reproduces bit for
 * bit); fraction digits past the 19th significant one are ignored, as in Go.
 *
 * <p>Cost: reading is one pass over the text in constant space. A number enters the arithmetic with at most 19
 * significant digits (a longer whole part is out of range at once; a longer fraction is scanned, not computed
 * with), so a huge input costs no big-number arithmetic.
 *
 * <p>One deviation from Go: Go's sum of parts can wrap round in {@code uint64} ({@code
 * 9223372036854775808ns9223372036854775808ns} reads as 0 in Go); here that is out of range.
 *
 * <p>Stateless and thread-safe.
 */
public final class GoDurations {
  /** The longest Go duration, {@code 2^63 - 1} ns. */
  public static final Duration MAX = Duration.ofNanos(Long.MAX_VALUE);
  /** The most negative Go duration, {@code -2^63} ns. */
  public static final Duration MIN = Duration.ofNanos(Long.MIN_VALUE);
  /** {@link #MAX} as Go writes it. */
  public static final String MAX_TEXT = "2562047h47m16.854775807s";
  /** {@link #MIN} as Go writes it. */
  public static final String MIN_TEXT = "-2562047h47m16.854775808s";

  private static final String SYNTAX_RULE = "must be a sequence of decimal numbers, each with an optional fraction and "
      + "a unit, such as 300ms, -1.5h or 2h45m";
  private static final String UNITS = "ns, us (or µs), ms, s, m, h";
  /** {@code 2^63} as an unsigned {@code long}. */
  private static final long TWO_63 = Long.MIN_VALUE;

  private GoDurations() {}

  /**
   * Reads Go duration text.
   *
   * @throws InvalidGoDurationException (an {@link IllegalArgumentException}) when {@code text} breaks the syntax or
   *     lies outside Go's range; its message starts with Go's own ({@code time: invalid duration "1x"}) and names the
   *     rule
   * @throws NullPointerException when {@code text} is null
   */
  public static Duration parse(String text) {
    Objects.requireNonNull(text, "text");
    int n = text.length();
    int i = 0;
    boolean neg = false;
    if (n > 0 && (text.charAt(0) == '-' || text.charAt(0) == '+')) {
      neg = text.charAt(0) == '-';
      i = 1;
    }
    if (n - i == 1 && text.charAt(i) == '0') {
      return Duration.ZERO;
    }
    if (i == n) {
      throw syntax(text);
    }
    long d = 0; // unsigned, at most 2^63
    while (i < n) {
      char c = text.charAt(i);
      if (!(c == '.' || isDigit(c))) {
        throw syntax(text);
      }
      // the whole part: Go's leadingInt, out of range past 2^63
      int start = i;
      long v = 0;
      for (; i < n && isDigit(text.charAt(i)); i++) {
        if (Long.compareUnsigned(v, Long.divideUnsigned(TWO_63, 10)) > 0) {
          throw outOfRange(text);
        }
        v = v * 10 + (text.charAt(i) - '0');
        if (Long.compareUnsigned(v, TWO_63) > 0) {
          throw outOfRange(text);
        }
      }
      boolean pre = i != start;
      // the fraction: Go's leadingFraction, which stops taking digits before they overflow
      long f = 0;
      double scale = 1;
      boolean post = false;
      if (i < n && text.charAt(i) == '.') {
        i++;
        int fractionStart = i;
        boolean overflow = false;
        for (; i < n && isDigit(text.charAt(i)); i++) {
          if (overflow) {
            continue;
          }
          if (Long.compareUnsigned(f, Long.MAX_VALUE / 10) > 0) {
            overflow = true;
            continue;
          }
          long y = f * 10 + (text.charAt(i) - '0');
          if (Long.compareUnsigned(y, TWO_63) > 0) {
            overflow = true;
            continue;
          }
          f = y;
          scale *= 10;
        }
        post = i != fractionStart;
      }
      if (!pre && !post) {
        throw syntax(text);
      }
      int unitStart = i;
      while (i < n && text.charAt(i) != '.' && !isDigit(text.charAt(i))) {
        i++;
      }
      if (i == unitStart) {
        throw new InvalidGoDurationException(text, "time: missing unit in duration " + quote(text),
            "every number needs a unit (" + UNITS + ")", false);
      }
      String u = text.substring(unitStart, i);
      long unit = switch (u) {
        case "ns" -> 1L;
        case "us", "µs", "μs" -> 1_000L;
        case "ms" -> 1_000_000L;
        case "s" -> 1_000_000_000L;
        case "m" -> 60_000_000_000L;
        case "h" -> 3_600_000_000_000L;
        default -> throw new InvalidGoDurationException(text,
            "time: unknown unit " + quote(u) + " in duration " + quote(text), "the units are " + UNITS, false);
      };
      if (Long.compareUnsigned(v, Long.divideUnsigned(TWO_63, unit)) > 0) {
        throw outOfRange(text);
      }
      v *= unit;
      if (f != 0) {
        // Go: v += uint64(float64(f) * (float64(unit) / scale)); the same IEEE arithmetic here
        v += (long) (unsignedToDouble(f) * ((double) unit / scale));
        if (Long.compareUnsigned(v, TWO_63) > 0) {
          throw outOfRange(text);
        }
      }
      long sum = d + v;
      if (Long.compareUnsigned(sum, d) < 0 || Long.compareUnsigned(sum, TWO_63) > 0) {
        throw outOfRange(text);
      }
      d = sum;
    }
    if (neg) {
      return Duration.ofNanos(-d); // d == 2^63 gives Long.MIN_VALUE, Go's shortest
    }
    if (Long.compareUnsigned(d, Long.MAX_VALUE) > 0) {
      throw outOfRange(text);
    }
    return Duration.ofNanos(d);
  }

  /**
   * Writes {@code d} as Go's {@code Duration.String()} does: {@code 72h3m0.5s}, {@code 1h0m0s}, {@code 1m30s};
   * below a second in the largest unit that keeps a non-zero leading digit ({@code 1.5ms}, {@code 1.1µs},
   * {@code 500ns}); {@code 0s} for zero. {@link #parse} reads the result back to the same value.
   *
   * @throws IllegalArgumentException when {@code d} lies outside Go's range ({@link #MIN} to {@link #MAX})
   * @throws NullPointerException when {@code d} is null
   */
  public static String format(Duration d) {
    Objects.requireNonNull(d, "d");
    if (d.compareTo(MAX) > 0 || d.compareTo(MIN) < 0) {
      throw new IllegalArgumentException("duration " + d + " must be between " + MIN_TEXT + " and " + MAX_TEXT
          + " (Go's range, int64 nanoseconds) to be written as a Go duration");
    }
    long nanos = d.toNanos();
    boolean neg = nanos < 0;
    long u = neg ? -nanos : nanos; // unsigned: Long.MIN_VALUE stays 2^63
    StringBuilder sb = new StringBuilder(32);
    if (neg) {
      sb.append('-');
    }
    if (Long.compareUnsigned(u, 1_000_000_000L) < 0) {
      if (u == 0) {
        return "0s";
      }
      int prec = u < 1_000 ? 0 : u < 1_000_000 ? 3 : 6;
      long pow = prec == 0 ? 1 : prec == 3 ? 1_000 : 1_000_000;
      sb.append(u / pow);
      fraction(sb, u % pow, prec);
      return sb.append(prec == 0 ? "ns" : prec == 3 ? "µs" : "ms").toString();
    }
    long seconds = Long.divideUnsigned(u, 1_000_000_000L);
    long fraction = Long.remainderUnsigned(u, 1_000_000_000L);
    long minutes = seconds / 60;
    if (minutes > 0) {
      long hours = minutes / 60;
      if (hours > 0) {
        sb.append(hours).append('h');
      }
      sb.append(minutes % 60).append('m');
    }
    sb.append(seconds % 60);
    fraction(sb, fraction, 9);
    return sb.append('s').toString();
  }

  /** Go's {@code fmtFrac}: {@code .digits} of {@code part / 10^prec} without trailing zeros, nothing for zero. */
  private static void fraction(StringBuilder sb, long part, int prec) {
    if (part == 0) {
      return;
    }
    String digits = Long.toString(part);
    sb.append('.').append("0".repeat(prec - digits.length()));
    int end = digits.length();
    while (digits.charAt(end - 1) == '0') {
      end--;
    }
    sb.append(digits, 0, end);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static double unsignedToDouble(long x) {
    return x >= 0 ? (double) x : 0x1p63; // x is at most 2^63 here
  }

  private static InvalidGoDurationException syntax(String text) {
    return new InvalidGoDurationException(text, "time: invalid duration " + quote(text), SYNTAX_RULE, false);
  }

  private static InvalidGoDurationException outOfRange(String text) {
    return new InvalidGoDurationException(text, "time: invalid duration " + quote(text),
        "must be between " + MIN_TEXT + " and " + MAX_TEXT + " (Go's range)", true);
  }

  /**
   * Go's {@code time.quote}: the text in double quotes, {@code "} and {@code \} escaped, and every byte of a
   * non-ASCII or control character's UTF-8 form written as {@code \xNN}.
   */
  static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); ) {
      int c = s.codePointAt(i);
      i += Character.charCount(c);
      if (c >= 0x80 || c < ' ') {
        for (byte b : utf8(c)) {
          sb.append("\\x").append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
      } else {
        if (c == '"' || c == '\\') {
          sb.append('\\');
        }
        sb.append((char) c);
      }
    }
    return sb.append('"').toString();
  }

  /** The UTF-8 bytes of one code point (a lone surrogate as its three-byte form). */
  private static byte[] utf8(int c) {
    if (c < 0x80) {
      return new byte[] {(byte) c};
    }
    if (c < 0x800) {
      return new byte[] {(byte) (0xC0 | c >> 6), (byte) (0x80 | c & 0x3F)};
    }
    if (c < 0x10000) {
      return new byte[] {(byte) (0xE0 | c >> 12), (byte) (0x80 | c >> 6 & 0x3F), (byte) (0x80 | c & 0x3F)};
    }
    return new byte[] {(byte) (0xF0 | c >> 18), (byte) (0x80 | c >> 12 & 0x3F), (byte) (0x80 | c >> 6 & 0x3F),
        (byte) (0x80 | c & 0x3F)};
  }
}
