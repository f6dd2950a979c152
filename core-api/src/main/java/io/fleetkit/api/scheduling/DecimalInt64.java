package io.fleetkit.api.scheduling;

import org.jspecify.annotations.Nullable;

/**
 * Signed 64-bit decimal integers in canonical form, the values the Gt and Lt toleration operators compare: an
 * optional {@code -}, then {@code 0} alone or digits that do not start with {@code 0}; no {@code +}, no leading
 * zeros, no {@code -0}, no spaces, within {@code [Long.MIN_VALUE, Long.MAX_VALUE]}. Kubernetes' apimachinery
 * {@code content.IsDecimalInteger} followed by {@code strconv.ParseInt(v, 10, 64)}. Stateless; allocates nothing.
 */
final class DecimalInt64 {
  /** {@code content.IsDecimalInteger}'s message for a value that is not a canonical decimal integer. */
  static final String NOT_CANONICAL = "must be a valid decimal integer in canonical form";
  /** {@code content.EmptyError()}. */
  static final String EMPTY = "must be non-empty";
  /** The range error ({@code strconv.ParseInt}'s {@code value out of range}). */
  static final String OUT_OF_RANGE = "value out of range";

  private static final String MAX_DIGITS = "9223372036854775807";
  private static final String MIN_DIGITS = "9223372036854775808";

  private DecimalInt64() {}

  /** What is wrong with {@code s} as a canonical 64-bit decimal integer, or {@code null} if it is one. */
  static @Nullable String error(String s) {
    int n = s.length();
    if (n == 0) {
      return EMPTY;
    }
    boolean negative = s.charAt(0) == '-';
    int i = negative ? 1 : 0;
    if (i == n) {
      return NOT_CANONICAL; // "-" alone
    }
    char first = s.charAt(i);
    if (first == '0') {
      return n == 1 ? null : NOT_CANONICAL; // "0" alone is canonical; "-0", "00", "0700" are not
    }
    if (first < '1' || first > '9') {
      return NOT_CANONICAL;
    }
    for (int j = i + 1; j < n; j++) {
      char c = s.charAt(j);
      if (c < '0' || c > '9') {
        return NOT_CANONICAL;
      }
    }
    int digits = n - i;
    if (digits < MAX_DIGITS.length()) {
      return null;
    }
    if (digits > MAX_DIGITS.length()) {
      return OUT_OF_RANGE;
    }
    // As many digits as the limit: the first digit that differs decides, as in a text comparison.
    String limit = negative ? MIN_DIGITS : MAX_DIGITS;
    for (int j = 0; j < digits; j++) {
      int d = s.charAt(i + j) - limit.charAt(j);
      if (d != 0) {
        return d < 0 ? null : OUT_OF_RANGE;
      }
    }
    return null; // exactly the limit
  }
}
