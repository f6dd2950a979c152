package io.fleetkit.api.internal;

import org.jspecify.annotations.Nullable;

/**
 * DNS-1123 name checks with Kubernetes' messages, written without regular expressions because they run for every
 * object constructed. Returns {@code null} when the name is valid, else the rule it breaks.
 */
public final class Names {
  static final String LABEL_RULE = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters"
      + " or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used"
      + " for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  static final String SUBDOMAIN_RULE = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric"
      + " characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex"
      + " used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

  private Names() {}

  public static @Nullable String checkDnsLabel(String s) {
    if (s.length() > 63) {
      return "must be no more than 63 characters";
    }
    return isLabel(s, 0, s.length()) ? null : LABEL_RULE;
  }

  public static @Nullable String checkDnsSubdomain(String s) {
    if (s.length() > 253) {
      return "must be no more than 253 characters";
    }
    int start = 0;
    for (int i = 0; i <= s.length(); i++) {
      if (i == s.length() || s.charAt(i) == '.') {
        if (!isLabel(s, start, i)) {
          return SUBDOMAIN_RULE;
        }
        start = i + 1;
      }
    }
    return null;
  }

  private static boolean isLabel(String s, int from, int to) {
    if (to <= from || !alnum(s.charAt(from)) || !alnum(s.charAt(to - 1))) {
      return false;
    }
    for (int i = from + 1; i < to - 1; i++) {
      char c = s.charAt(i);
      if (!alnum(c) && c != '-') {
        return false;
      }
    }
    return true;
  }

  private static boolean alnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  }
}
