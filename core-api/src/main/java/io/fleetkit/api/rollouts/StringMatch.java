package io.fleetkit.api.rollouts;

import java.util.Objects;

/**
 * How a value of a header route or mirror route matches (Argo Rollouts' {@code StringMatch}): exactly one of
 * {@code exact}, {@code prefix} and {@code regex} is set (non-empty). {@link Rollout} checks the one-of with Argo's
 * messages; this record only refuses {@code null}s, so that the loader can report a bad manifest with its field.
 *
 * @param exact the whole value; empty when unset
 * @param prefix the value's start; empty when unset
 * @param regex a regular expression for the whole value; empty when unset
 */
public record StringMatch(String exact, String prefix, String regex) {
  public StringMatch {
    Objects.requireNonNull(exact, "exact");
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(regex, "regex");
  }

  public static StringMatch exact(String v) {
    return new StringMatch(v, "", "");
  }

  public static StringMatch prefix(String v) {
    return new StringMatch("", v, "");
  }

  public static StringMatch regex(String v) {
    return new StringMatch("", "", v);
  }

  /** How many of the three are set (1 when valid). */
  public int setCount() {
    return (exact.isEmpty() ? 0 : 1) + (prefix.isEmpty() ? 0 : 1) + (regex.isEmpty() ? 0 : 1);
  }
}
