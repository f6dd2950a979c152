package io.fleetkit.api.text;

import java.util.Optional;

/** Go's {@code strconv.ParseBool}, for values Kubernetes components read as booleans (labels, annotations). */
public final class GoBools {
  private GoBools() {}

  /**
   * {@code strconv.ParseBool}: {@code 1 t T TRUE true True} are true, {@code 0 f F FALSE false False} false; any other
   * text is Go's error, here empty.
   */
  public static Optional<Boolean> parse(String s) {
    return switch (s) {
      case "1", "t", "T", "TRUE", "true", "True" -> Optional.of(Boolean.TRUE);
      case "0", "f", "F", "FALSE", "false", "False" -> Optional.of(Boolean.FALSE);
      default -> Optional.empty();
    };
  }

  /** Whether {@code s} parses as true (an error or {@code null} counts as false). */
  public static boolean isTrue(@org.jspecify.annotations.Nullable String s) {
    return s != null && parse(s).orElse(false);
  }
}
