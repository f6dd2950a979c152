package io.fleetkit.api.text;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Floating-point numbers as Go reads and writes them. {@link #formatFloat} writes a {@code double} as Go's
 * {@code %v} does. {@link #parseFloat} reads it as Go's {@code strconv.ParseFloat(s, 64)}, the parser behind the
 * numbers of Prometheus samples and Argo Rollouts' {@code asFloat}: an optional sign, then a decimal number ({@code 1},
 * {@code -0.5}, {@code .5}, {@code 5.}, {@code 1e-3}, {@code 1_000.5}) or a hexadecimal one with a binary exponent
 * ({@code 0x1.8p1}), or {@code inf}/{@code infinity} (any case, signed or not) or {@code nan} (any case, unsigned).
 * Underscores may separate digits as in Go's literals. Nothing else: no spaces, no {@code d}/{@code f} suffix, no
 * digits of other scripts. Java's {@code Double.parseDouble} differs from Go on each of those points (it trims, takes
 * {@code 1d} and only the spellings {@code NaN} and {@code Infinity}, refuses underscores) and returns infinity where
 * Go reports a value out of range; this class does not.
 *
 * <p>The value is the nearest {@code double}, ties to even, as in Go. A finite text whose value is beyond the
 * largest {@code double} is an error ({@code value out of range}); one below the smallest rounds to zero, as in Go.
 * Errors are {@link NumberFormatException}s whose message is Go's {@code NumError} text, for example {@code
 * strconv.ParseFloat: parsing "1d": invalid syntax}.
 *
 * <p>Stateless and thread-safe.
 */
public final class GoFloats {
  private GoFloats() {}

  /**
   * Go's {@code strconv.FormatFloat(v, 'g', -1, 64)}, which is how {@code %v} prints a {@code float64}: the shortest
   * decimal that reads back as {@code v} (the nearest of that length), in exponent form ({@code 1e-05},
   * {@code 1.5e+06}) when its exponent is below -4 or at least 6, plain otherwise ({@code 0.25}, {@code 123456}); {@code NaN}, {@code +Inf}, {@code -Inf} and {@code -0} as Go
   * spells them.
   */
  public static String formatFloat(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return 1 / v < 0 ? "-0" : "0";
    }
    String sign = v < 0 ? "-" : "";
    double abs = Math.abs(v);
    BigDecimal exact = new BigDecimal(abs);
    BigDecimal d = exact;
    for (int precision = 1; precision <= 17; precision++) { // 17 digits always read back
      BigDecimal rounded = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
      if (rounded.doubleValue() == abs) {
        d = rounded;
        break;
      }
    }
    d = d.stripTrailingZeros();
    String digits = d.unscaledValue().toString();
    int decimalPoint = digits.length() - d.scale(); // v = 0.digits x 10^decimalPoint
    int exp = decimalPoint - 1;
    if (exp < -4 || exp >= 6) {
      String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      int e = Math.abs(exp);
      return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + (e < 10 ? "0" : "") + e;
    }
    if (decimalPoint <= 0) {
      return sign + "0." + "0".repeat(-decimalPoint) + digits;
    }
    if (decimalPoint >= digits.length()) {
      return sign + digits + "0".repeat(decimalPoint - digits.length());
    }
    return sign + digits.substring(0, decimalPoint) + "." + digits.substring(decimalPoint);
  }

  /**
   * Go's {@code strconv.ParseFloat(s, 64)}.
   *
   * @throws NumberFormatException when {@code s} breaks Go's syntax ({@code invalid syntax}) or is finite text beyond
   *     the {@code double} range ({@code value out of range}); the message is Go's
   * @throws NullPointerException when {@code s} is null
   */
  public static double parseFloat(String s) {
    Objects.requireNonNull(s, "s");
    Double special = special(s);
    if (special != null) {
      return special;
    }
    if (!wellFormed(s)) {
      throw new NumberFormatException(error(s, "invalid syntax"));
    }
    double v = Double.parseDouble(s.indexOf('_') < 0 ? s : s.replace("_", ""));
    if (Double.isInfinite(v)) {
      throw new NumberFormatException(error(s, "value out of range"));
    }
    return v;
  }

  /**
   * Go's {@code special}, the whole text: {@code [+-]inf}, {@code [+-]infinity} (any case), {@code nan} (any case, no
   * sign); else {@code null}.
   */
  private static @Nullable Double special(String s) {
    if (s.equalsIgnoreCase("nan")) {
      return Double.NaN;
    }
    int i = !s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-') ? 1 : 0;
    String rest = s.substring(i);
    if (rest.equalsIgnoreCase("inf") || rest.equalsIgnoreCase("infinity")) {
      return s.charAt(0) == '-' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    return null;
  }

  /**
   * Go's {@code readFloat} consuming the whole text: sign; {@code 0x} prefix (base 16); digits with at most one
   * {@code .} and at least one digit; an exponent ({@code e} in base 10, optional; {@code p} in base 16, required)
   * of an optional sign and digits that start with a digit; underscores placed as {@code underscoreOK} allows.
   */
  private static boolean wellFormed(String s) {
    int n = s.length();
    int i = 0;
    if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
      i++;
    }
    boolean hex = i + 2 < n && s.charAt(i) == '0' && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X');
    if (hex) {
      i += 2;
    }
    boolean underscores = false;
    boolean sawDot = false;
    boolean sawDigits = false;
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (c == '_') {
        underscores = true;
      } else if (c == '.') {
        if (sawDot) {
          break;
        }
        sawDot = true;
      } else if (c >= '0' && c <= '9' || hex && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
        sawDigits = true;
      } else {
        break;
      }
    }
    if (!sawDigits) {
      return false;
    }
    char e = hex ? 'p' : 'e';
    if (i < n && Character.toLowerCase(s.charAt(i)) == e) {
      i++;
      if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        i++;
      }
      if (i >= n || s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
      for (; i < n && (s.charAt(i) >= '0' && s.charAt(i) <= '9' || s.charAt(i) == '_'); i++) {
        underscores |= s.charAt(i) == '_';
      }
    } else if (hex) {
      return false; // a hexadecimal mantissa needs its p exponent
    }
    return i == n && (!underscores || underscoreOk(s));
  }

  /** Go's {@code underscoreOK}: each underscore between two digits, or between the base prefix and a digit. */
  private static boolean underscoreOk(String s) {
    char saw = '^'; // ^ start, 0 digit or base prefix, _ underscore, ! anything else
    int i = !s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-') ? 1 : 0;
    boolean hex = false;
    if (s.length() - i >= 2 && s.charAt(i) == '0') {
      char b = Character.toLowerCase(s.charAt(i + 1));
      if (b == 'b' || b == 'o' || b == 'x') {
        i += 2;
        saw = '0';
        hex = b == 'x';
      }
    }
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      char lower = Character.toLowerCase(c);
      if (c >= '0' && c <= '9' || hex && lower >= 'a' && lower <= 'f') {
        saw = '0';
      } else if (c == '_') {
        if (saw != '0') {
          return false;
        }
        saw = '_';
      } else {
        if (saw == '_') {
          return false;
        }
        saw = '!';
      }
    }
    return saw != '_';
  }

  private static String error(String s, String reason) {
    return "strconv.ParseFloat: parsing " + GoIntegers.quote(s) + ": " + reason;
  }
}
