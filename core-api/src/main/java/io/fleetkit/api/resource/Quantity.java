package io.fleetkit.api.resource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A fixed-point number with Kubernetes' {@code resource.Quantity} semantics: the same grammar, the same rounding, the
 * same canonical string form, exact arithmetic.
 *
 * <h2>Grammar</h2>
 *
 * <pre>{@code
 * <quantity>        ::= <signedNumber><suffix>
 * <number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
 * <signedNumber>    ::= <number> | "+" <number> | "-" <number>
 * <suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI>
 * <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei          (powers of 1024)
 * <decimalSI>       ::= n | u | m | "" | k | M | G | T | P | E (powers of 1000)
 * <decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber>
 * }</pre>
 *
 * <p>Parsing remembers which of the three {@link Format formats} the suffix used and {@link #toString()} uses it again.
 * As in Kubernetes, a non-zero value finer than one nano-unit is rounded <em>away from zero</em> to the next nano-unit
 * ({@code 0.1n} becomes {@code 1n}), a binary-SI value is capped at 2<sup>63</sup>-1 in magnitude, and a binary-SI value
 * smaller than one in magnitude switches to decimal SI. No leading or trailing whitespace is accepted.
 *
 * <h2>Canonical form</h2>
 *
 * {@link #toString()} prints the canonical form: no fractional digits, the largest suffix (or exponent, a multiple of 3)
 * that loses no precision, a sign only when negative. {@code 1.5} prints {@code 1500m}, {@code 1024Mi} prints
 * {@code 1Gi}, {@code 1.5Gi} prints {@code 1536Mi}, {@code 2e3} prints {@code 2e3}. A binary-SI value below 1024 in
 * magnitude or with a fractional part prints as decimal SI ({@code 0.5Ki} prints {@code 512}, {@code 1.1Ki} prints
 * {@code 1126400m}); a decimal-SI value whose exponent has no SI suffix prints as an exponent ({@code 1000E} prints
 * {@code 1e21}); a binary-SI value with more than six factors of 1024 prints as a decimal exponent.
 *
 * <h2>Differences from the Go implementation</h2>
 *
 * <ul>
 *   <li>Go's {@code String()} echoes some non-canonical inputs verbatim because it caches the parsed string
 *       ({@code "+1"}, {@code "1.500"}, {@code "1E3"}); this class always prints the canonical form.
 *   <li>Go's scanner accepts a number without digits ({@code "."}, {@code "+"}, {@code "-"}) as zero; this class follows
 *       the documented grammar and rejects them.
 *   <li>A decimal exponent beyond the {@code int} range is rejected (as upstream #141203 does), and so is a non-zero value
 *       of magnitude 10<sup>{@value #MAX_DECIMAL_EXPONENT}</sup> or more, which would make exact arithmetic on it
 *       unreasonably expensive.
 *   <li>{@link #value()}, {@link #milliValue()} and {@link #scaledValue(int)} round away from zero and saturate at
 *       {@code Long.MIN_VALUE}/{@code Long.MAX_VALUE} on both internal representations (newer upstream behaviour).
 * </ul>
 *
 * <h2>Representation</h2>
 *
 * A value is held as {@code long × 10^scale} whenever it fits (the common case: every value parsed from at most 18
 * digits, every sum of such values that does not overflow) and as a {@link BigDecimal} otherwise; the two forms never
 * hold the same value, so arithmetic and comparison on ordinary quantities allocate no big numbers.
 *
 * <p>Instances are immutable and thread-safe. {@link #equals} and {@link #hashCode} compare the numeric value only, not
 * the format: {@code 1Ki}, {@code 1024} and {@code 1.024k} are equal.
 */
public final class Quantity implements Comparable<Quantity> {

  /** The three ways a quantity can be written; parsing remembers it, {@link #toString()} uses it. */
  public enum Format {
    /** Powers of 1000 with a suffix: {@code 12M} is 12 × 10<sup>6</sup>. */
    DECIMAL_SI,
    /** Powers of 1024 with a suffix: {@code 12Mi} is 12 × 2<sup>20</sup>. */
    BINARY_SI,
    /** A decimal exponent: {@code 12e6} is 12 × 10<sup>6</sup>. */
    DECIMAL_EXPONENT
  }

  /**
   * The regular expression Kubernetes quotes when a quantity is malformed. It is more permissive than the grammar
   * (see the class documentation), which is checked after it.
   */
  public static final String REGULAR_EXPRESSION = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";

  /** The largest decimal exponent a non-zero parsed value's magnitude may reach (exclusive). */
  public static final int MAX_DECIMAL_EXPONENT = 10_000;

  /** Zero, in decimal SI format. */
  public static final Quantity ZERO = new Quantity(0, 0, null, Format.DECIMAL_SI);

  private static final long[] POW10 = {
    1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L,
    10_000_000_000L, 100_000_000_000L, 1_000_000_000_000L, 10_000_000_000_000L, 100_000_000_000_000L,
    1_000_000_000_000_000L, 10_000_000_000_000_000L, 100_000_000_000_000_000L, 1_000_000_000_000_000_000L
  };
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final String[] BINARY_SUFFIXES = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  private static final String SUFFIX_LETTERS = "eEinumkKMGTP";
  private static final int NANO = -9;

  /** The value is {@code value × 10^scale} when {@code big} is null; {@code scale} is 0 when {@code value} is 0. */
  private final long value;

  private final int scale;
  /** The value when it does not fit {@code long × 10^int}; never a value the long form could hold. */
  private final @Nullable BigDecimal big;

  private final Format format;
  /** Lazily computed canonical string; a benign race, like {@code String.hash}. */
  private @Nullable String string;

  private Quantity(long value, int scale, @Nullable BigDecimal big, Format format) {
    this.value = value;
    this.scale = scale;
    this.big = big;
    this.format = format;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Factories

  /**
   * Parses a Kubernetes quantity such as {@code 100m}, {@code 1.5}, {@code 2e3}, {@code 1Gi}.
   *
   * @throws NullPointerException if {@code s} is null
   * @throws IllegalArgumentException if {@code s} is not a quantity; the message names the input and the rule broken
   */
  public static Quantity parse(String s) {
    Objects.requireNonNull(s, "quantity");
    int end = s.length();
    if (end == 0) {
      throw formatError(s);
    }
    if (end == 1 && s.charAt(0) == '0') {
      return ZERO;
    }
    int pos = 0;
    boolean negative = false;
    char first = s.charAt(0);
    if (first == '-') {
      negative = true;
      pos++;
    } else if (first == '+') {
      pos++;
    }
    int zerosStart = pos;
    while (pos < end && s.charAt(pos) == '0') {
      pos++;
    }
    boolean sawLeadingZero = pos > zerosStart;
    int numStart = pos;
    while (pos < end && isDigit(s.charAt(pos))) {
      pos++;
    }
    int numEnd = pos;
    int denomStart = pos;
    int denomEnd = pos;
    if (pos < end && s.charAt(pos) == '.') {
      pos++;
      denomStart = pos;
      while (pos < end && isDigit(s.charAt(pos))) {
        pos++;
      }
      denomEnd = pos;
    }
    int numLen = numEnd - numStart;
    int denomLen = denomEnd - denomStart;
    if (!sawLeadingZero && numLen == 0 && denomLen == 0) {
      throw formatError(s); // no digit at all: ".", "+", "-", "aoeu", " 1"
    }
    int suffixStart = pos;
    while (pos < end && SUFFIX_LETTERS.indexOf(s.charAt(pos)) >= 0) {
      pos++;
    }
    if (pos < end && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
      pos++;
    }
    while (pos < end && isDigit(s.charAt(pos))) {
      pos++;
    }
    if (pos != end) {
      throw formatError(s);
    }

    // Interpret the suffix.
    String suffix = s.substring(suffixStart);
    boolean binary = false;
    int exponent;
    Format format = Format.DECIMAL_SI;
    switch (suffix) {
      case "" -> exponent = 0;
      case "n" -> exponent = -9;
      case "u" -> exponent = -6;
      case "m" -> exponent = -3;
      case "k" -> exponent = 3;
      case "M" -> exponent = 6;
      case "G" -> exponent = 9;
      case "T" -> exponent = 12;
      case "P" -> exponent = 15;
      case "E" -> exponent = 18;
      case "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" -> {
        binary = true;
        format = Format.BINARY_SI;
        exponent = 10 * "KMGTPE".indexOf(suffix.charAt(0)) + 10;
      }
      default -> {
        exponent = decimalExponent(s, suffix);
        format = Format.DECIMAL_EXPONENT;
      }
    }

    // Zero, and magnitudes decided by the exponent alone.
    int denomZeros = 0;
    while (denomZeros < denomLen && s.charAt(denomStart + denomZeros) == '0') {
      denomZeros++;
    }
    if (numLen == 0 && denomZeros == denomLen) {
      return new Quantity(0, 0, null, format);
    }
    if (!binary) {
      // |value| < 10^magnitude
      long magnitude = (numLen > 0 ? numLen : -denomZeros) + (long) exponent;
      if (magnitude > MAX_DECIMAL_EXPONENT) {
        throw new IllegalArgumentException("quantity \"" + s + "\" must be smaller than 10^" + MAX_DECIMAL_EXPONENT
            + " in magnitude");
      }
      if (magnitude <= NANO) {
        // Finer than a nano-unit: rounds away from zero to exactly 1n.
        return new Quantity(negative ? -1 : 1, NANO, null, format);
      }
    }

    // Fast path: the digits fit a long and no rounding is needed.
    if (!binary) {
      long newScale = (long) exponent - denomLen;
      if (numLen + denomLen <= 18 && newScale >= NANO) {
        long v = digits(s, numStart, numEnd, 0);
        v = digits(s, denomStart, denomEnd, v);
        return ofLong(negative ? -v : v, (int) newScale, format);
      }
    } else if (denomLen == 0 && 15 - numLen - exponent * 3 / 10 - 1 >= 0) {
      long v = digits(s, numStart, numEnd, 0) << exponent; // cannot overflow: at most 14 significant digits
      return ofLong(negative ? -v : v, 0, format);
    }

    // Slow path: exact decimal arithmetic, then Kubernetes' rounding and capping.
    BigInteger unscaled = new BigInteger(s.substring(numStart, numEnd) + s.substring(denomStart, denomEnd));
    if (negative) {
      unscaled = unscaled.negate();
    }
    BigDecimal amount = binary
        ? new BigDecimal(unscaled.shiftLeft(exponent), denomLen)
        : new BigDecimal(unscaled, Math.subtractExact(denomLen, exponent));
    if (amount.scale() > -NANO) {
      amount = amount.setScale(-NANO, RoundingMode.UP);
    }
    if (binary) {
      if (amount.abs().compareTo(LONG_MAX) > 0) {
        amount = negative ? LONG_MAX.negate() : LONG_MAX;
      }
      if (amount.abs().compareTo(BigDecimal.ONE) < 0) {
        format = Format.DECIMAL_SI; // avoids rounding and confusion, as Kubernetes does
      }
    }
    return ofBig(amount, format);
  }

  /** {@code units}, in decimal SI format. */
  public static Quantity of(long units) {
    return ofLong(units, 0, Format.DECIMAL_SI);
  }

  /** {@code units} in the given format. */
  public static Quantity of(long units, Format format) {
    return ofLong(units, 0, Objects.requireNonNull(format, "format"));
  }

  /** {@code milli / 1000}, in decimal SI format ({@code ofMilli(1500)} prints {@code 1500m}). */
  public static Quantity ofMilli(long milli) {
    return ofLong(milli, -3, Format.DECIMAL_SI);
  }

  /** {@code milli / 1000} in the given format. */
  public static Quantity ofMilli(long milli, Format format) {
    return ofLong(milli, -3, Objects.requireNonNull(format, "format"));
  }

  /** {@code bytes}, in binary SI format ({@code ofBytes(1 << 30)} prints {@code 1Gi}). */
  public static Quantity ofBytes(long bytes) {
    return ofLong(bytes, 0, Format.BINARY_SI);
  }

  /**
   * {@code value × 10^scale}, in decimal SI format (Kubernetes' {@code NewScaledQuantity}). Arithmetic between
   * quantities whose scales differ by many thousands is proportionally expensive, as in Kubernetes.
   *
   * @throws IllegalArgumentException if {@code scale} is {@code Integer.MIN_VALUE}
   */
  public static Quantity ofScaled(long value, int scale) {
    if (scale == Integer.MIN_VALUE) {
      throw new IllegalArgumentException("quantity scale " + scale + " must be greater than Integer.MIN_VALUE");
    }
    return ofLong(value, scale, Format.DECIMAL_SI);
  }

  /** Exactly {@code value}, in the given format; no rounding is applied (Kubernetes' {@code NewDecimalQuantity}). */
  public static Quantity of(BigDecimal value, Format format) {
    return ofBig(Objects.requireNonNull(value, "value"), Objects.requireNonNull(format, "format"));
  }

  private static Quantity ofLong(long value, int scale, Format format) {
    if (value == 0) {
      return format == Format.DECIMAL_SI ? ZERO : new Quantity(0, 0, null, format);
    }
    return new Quantity(value, scale, null, format);
  }

  private static Quantity ofBig(BigDecimal amount, Format format) {
    if (amount.signum() == 0) {
      return ofLong(0, 0, format);
    }
    BigDecimal a = amount;
    if (a.unscaledValue().bitLength() > 63) {
      a = a.stripTrailingZeros();
    }
    if (a.unscaledValue().bitLength() <= 63 && a.scale() != Integer.MIN_VALUE) {
      return new Quantity(a.unscaledValue().longValue(), -a.scale(), null, format);
    }
    return new Quantity(0, 0, a, format);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Accessors

  /** The format this quantity prints in. */
  public Format format() {
    return format;
  }

  /** This value printed in {@code format}; returns {@code this} when the format is already {@code format}. */
  public Quantity withFormat(Format format) {
    Objects.requireNonNull(format, "format");
    return format == this.format ? this : new Quantity(value, scale, big, format);
  }

  /** The exact value. */
  public BigDecimal toBigDecimal() {
    BigDecimal b = big;
    return b != null ? b : BigDecimal.valueOf(value, -scale);
  }

  /** The value in whole units, rounded away from zero and saturated to the {@code long} range. */
  public long value() {
    return scaledValue(0);
  }

  /** The value in thousandths, rounded away from zero and saturated to the {@code long} range. */
  public long milliValue() {
    return scaledValue(-3);
  }

  /**
   * The value in units of {@code 10^scale} ({@code scaledValue(-3)} is {@link #milliValue()}), rounded away from zero
   * and saturated to the {@code long} range (Kubernetes' {@code ScaledValue}).
   */
  public long scaledValue(int scale) {
    BigDecimal b = big;
    if (b == null) {
      if (value == 0) {
        return 0;
      }
      long delta = (long) this.scale - scale;
      if (delta >= 0) {
        if (delta >= POW10.length || !multiplyFits(value, POW10[(int) delta])) {
          return value < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return value * POW10[(int) delta];
      }
      if (-delta >= POW10.length) {
        return value < 0 ? -1 : 1; // |value| < 10^19: only the rounding unit is left
      }
      long divisor = POW10[(int) -delta];
      long result = value / divisor;
      if (value % divisor != 0) {
        result += value < 0 ? -1 : 1;
      }
      return result;
    }
    BigDecimal v = b.scaleByPowerOfTen(-scale);
    if (v.compareTo(LONG_MAX) > 0) {
      return Long.MAX_VALUE;
    }
    if (v.compareTo(LONG_MIN) < 0) {
      return Long.MIN_VALUE;
    }
    return v.setScale(0, RoundingMode.UP).longValueExact();
  }

  /** -1, 0 or 1 as this value is negative, zero or positive. */
  public int signum() {
    BigDecimal b = big;
    return b != null ? b.signum() : Long.signum(value);
  }

  /** Whether this value is zero. */
  public boolean isZero() {
    return big == null && value == 0;
  }

  /** Whether this value is below zero. */
  public boolean isNegative() {
    return signum() < 0;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Arithmetic

  /**
   * The exact sum. The result keeps this quantity's format, or takes {@code o}'s when this is zero (as Kubernetes'
   * {@code Add} does, so {@code 0 + 1Gi} prints {@code 1Gi}).
   */
  public Quantity add(Quantity o) {
    Objects.requireNonNull(o, "o");
    return sum(this, o, isZero() ? o.format : format);
  }

  /**
   * The exact difference. The result keeps this quantity's format, or takes {@code o}'s when this is zero (so
   * {@code 0 - 1Gi} prints {@code -1Gi}).
   */
  public Quantity subtract(Quantity o) {
    Objects.requireNonNull(o, "o");
    return sum(this, o.negate(), isZero() ? o.format : format);
  }

  /** The exact negation, in the same format. */
  public Quantity negate() {
    BigDecimal b = big;
    if (b == null) {
      if (value == 0) {
        return this;
      }
      if (value != Long.MIN_VALUE) {
        return new Quantity(-value, scale, null, format);
      }
    }
    return ofBig(toBigDecimal().negate(), format);
  }

  /** The exact product, in the same format (Kubernetes' {@code Mul}). */
  public Quantity multiply(long factor) {
    if (big == null) {
      if (value == 0 || factor == 0) {
        return ofLong(0, 0, format);
      }
      if (multiplyFits(value, factor)) {
        return new Quantity(value * factor, scale, null, format);
      }
    }
    return ofBig(toBigDecimal().multiply(BigDecimal.valueOf(factor)), format);
  }

  /**
   * This value rounded away from zero to a multiple of {@code 10^scale} ({@code roundUp(-3)} rounds to whole
   * milli-units), in the same format (Kubernetes' {@code RoundUp}). Equal to this when nothing was lost.
   */
  public Quantity roundUp(int scale) {
    BigDecimal b = big;
    if (b == null) {
      if (value == 0 || this.scale >= scale) {
        return this;
      }
      long down = (long) scale - this.scale;
      long rounded;
      if (down >= POW10.length) {
        rounded = value < 0 ? -1 : 1;
      } else {
        long divisor = POW10[(int) down];
        rounded = value / divisor;
        if (value % divisor != 0) {
          rounded += value < 0 ? -1 : 1;
        }
      }
      return ofLong(rounded, scale, format);
    }
    if (b.scale() <= -scale) {
      return this;
    }
    return ofBig(b.setScale(-scale, RoundingMode.UP), format);
  }

  /** The larger of the two (the first when equal). */
  public static Quantity max(Quantity a, Quantity b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  /** The smaller of the two (the first when equal). */
  public static Quantity min(Quantity a, Quantity b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static Quantity sum(Quantity a, Quantity b, Format format) {
    if (a.big == null && b.big == null) {
      if (b.value == 0) {
        return a.withFormat(format);
      }
      if (a.value == 0) {
        return b.withFormat(format);
      }
      if (a.scale == b.scale) {
        long r = a.value + b.value;
        if (((a.value ^ r) & (b.value ^ r)) >= 0) {
          return ofLong(r, a.scale, format);
        }
      } else {
        Quantity hi = a.scale > b.scale ? a : b;
        Quantity lo = hi == a ? b : a;
        long delta = (long) hi.scale - lo.scale;
        if (delta < POW10.length && multiplyFits(hi.value, POW10[(int) delta])) {
          long h = hi.value * POW10[(int) delta];
          long r = h + lo.value;
          if (((h ^ r) & (lo.value ^ r)) >= 0) {
            return ofLong(r, lo.scale, format);
          }
        }
      }
    }
    return ofBig(a.toBigDecimal().add(b.toBigDecimal()), format);
  }

  private static boolean multiplyFits(long a, long b) {
    long high = Math.multiplyHigh(a, b);
    long low = a * b;
    return high == (low >> 63);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Comparison

  /** Compares numeric values; the format is ignored. Consistent with {@link #equals}. */
  @Override
  public int compareTo(Quantity o) {
    if (big == null && o.big == null) {
      return compareLong(value, scale, o.value, o.scale);
    }
    return toBigDecimal().compareTo(o.toBigDecimal());
  }

  private static int compareLong(long av, int as, long bv, int bs) {
    if (as == bs) {
      return Long.compare(av, bv);
    }
    int sa = Long.signum(av);
    int sb = Long.signum(bv);
    if (sa != sb || sa == 0) {
      return Integer.compare(sa, sb);
    }
    if (as < bs) {
      return -compareLong(bv, bs, av, as);
    }
    // Same non-zero sign, a has the larger scale: bring a to b's scale.
    long delta = (long) as - bs;
    if (delta >= POW10.length || !multiplyFits(av, POW10[(int) delta])) {
      return sa; // |a| exceeds every long at b's scale
    }
    return Long.compare(av * POW10[(int) delta], bv);
  }

  /** Equal when the numeric values are equal, whatever the formats. */
  @Override
  public boolean equals(@Nullable Object o) {
    return o == this || (o instanceof Quantity q && compareTo(q) == 0);
  }

  @Override
  public int hashCode() {
    BigDecimal b = big;
    if (b != null) {
      return b.stripTrailingZeros().hashCode();
    }
    if (value == 0) {
      return 0;
    }
    long m = value;
    long e = scale;
    while (m % 10 == 0) {
      m /= 10;
      e++;
    }
    return 31 * Long.hashCode(m) + Long.hashCode(e);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Formatting

  /** The canonical form (see the class documentation), e.g. {@code 1500m}, {@code 1Gi}, {@code 2e3}. */
  @Override
  public String toString() {
    String s = string;
    if (s == null) {
      s = canonical();
      string = s;
    }
    return s;
  }

  private String canonical() {
    if (isZero()) {
      return "0";
    }
    Format f = format;
    if (f == Format.BINARY_SI) {
      if (compareLong(-1024) > 0 && compareLong(1024) < 0 || !isInteger()) {
        f = Format.DECIMAL_SI;
      } else {
        String s = binaryString();
        if (s != null) {
          return s;
        }
        f = Format.DECIMAL_EXPONENT; // more than six factors of 1024: no suffix for it
      }
    }
    return decimalString(f);
  }

  private int compareLong(long units) {
    return big == null ? compareLong(value, scale, units, 0) : toBigDecimal().compareTo(BigDecimal.valueOf(units));
  }

  private boolean isInteger() {
    BigDecimal b = big;
    if (b != null) {
      return b.stripTrailingZeros().scale() <= 0;
    }
    if (scale >= 0) {
      return true;
    }
    return -(long) scale < POW10.length && value % POW10[-scale] == 0;
  }

  /** Binary SI form of an integer of magnitude at least 1024, or null if it has more than six factors of 1024. */
  private @Nullable String binaryString() {
    if (big == null && scale >= 0 && (scale < POW10.length && multiplyFits(value, POW10[scale]))) {
      long n = value * POW10[scale];
      int k = 0;
      while (n % 1024 == 0) { // at most six times: |n| <= 2^63
        n /= 1024;
        k++;
      }
      return n + BINARY_SUFFIXES[k];
    }
    if (big == null && scale < 0) {
      long n = value / POW10[-scale]; // exact: isInteger() held
      int k = 0;
      while (n % 1024 == 0) {
        n /= 1024;
        k++;
      }
      return n + BINARY_SUFFIXES[k];
    }
    BigInteger n = toBigDecimal().toBigIntegerExact();
    int k = n.getLowestSetBit() / 10;
    if (k >= BINARY_SUFFIXES.length) {
      return null;
    }
    return n.shiftRight(10 * k) + BINARY_SUFFIXES[k];
  }

  private String decimalString(Format f) {
    long exponent;
    String mantissa;
    BigDecimal b = big;
    if (b == null) {
      long m = value;
      exponent = scale;
      while (m % 10 == 0) {
        m /= 10;
        exponent++;
      }
      int r = (int) Math.floorMod(exponent, 3L);
      if (multiplyFits(m, POW10[r])) {
        mantissa = Long.toString(m * POW10[r]);
      } else {
        mantissa = BigInteger.valueOf(m).multiply(BigInteger.TEN.pow(r)).toString();
      }
      exponent -= r;
    } else {
      BigDecimal stripped = b.stripTrailingZeros();
      exponent = -(long) stripped.scale();
      int r = (int) Math.floorMod(exponent, 3L);
      mantissa = stripped.unscaledValue().multiply(BigInteger.TEN.pow(r)).toString();
      exponent -= r;
    }
    if (f == Format.DECIMAL_SI) {
      String suffix = decimalSuffix(exponent);
      if (suffix != null) {
        return mantissa + suffix;
      }
    }
    return exponent == 0 ? mantissa : mantissa + "e" + exponent;
  }

  private static @Nullable String decimalSuffix(long exponent) {
    return switch ((int) Math.max(Math.min(exponent, 100), -100)) {
      case -9 -> "n";
      case -6 -> "u";
      case -3 -> "m";
      case 0 -> "";
      case 3 -> "k";
      case 6 -> "M";
      case 9 -> "G";
      case 12 -> "T";
      case 15 -> "P";
      case 18 -> "E";
      default -> null;
    };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Parsing helpers

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static long digits(String s, int from, int to, long start) {
    long v = start;
    for (int i = from; i < to; i++) {
      v = v * 10 + (s.charAt(i) - '0');
    }
    return v;
  }

  private static int decimalExponent(String s, String suffix) {
    char c = suffix.charAt(0);
    if (suffix.length() > 1 && (c == 'e' || c == 'E')) {
      String digits = suffix.substring(1);
      try {
        return Integer.parseInt(digits);
      } catch (NumberFormatException e) {
        // fall through: not digits, or beyond the int range
      }
    }
    throw new IllegalArgumentException("quantity \"" + s + "\": unable to parse quantity's suffix \"" + suffix
        + "\"; it must be one of n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei or an exponent e<int>/E<int>");
  }

  private static IllegalArgumentException formatError(String s) {
    return new IllegalArgumentException("quantity \"" + s + "\": quantities must match the regular expression '"
        + REGULAR_EXPRESSION + "'");
  }
}
