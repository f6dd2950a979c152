package io.fleetkit.api.internal;

import java.util.Map;

/**
 * Fast, allocation-free pre-checks of DNS-1123 and DNS-1035 names, label keys and label values, written without regular
 * expressions because they run for every object constructed. They accept exactly the ASCII strings that
 * {@link io.fleetkit.api.labels.Validation} accepts; when one says "invalid", the caller asks
 * {@code Validation} for Kubernetes' exact messages.
 */
public final class Names {
  private Names() {}

  /** A DNS-1123 label: 1..63 of {@code [a-z0-9-]}, alphanumeric at both ends. */
  public static boolean isDnsLabel(String s) {
    return s.length() <= 63 && isLabel(s, 0, s.length());
  }

  /** A DNS-1035 label: a DNS-1123 label that starts with a letter. */
  public static boolean isDns1035Label(String s) {
    return isDnsLabel(s) && s.charAt(0) >= 'a' && s.charAt(0) <= 'z';
  }

  /**
   * A DNS-1123 subdomain: at most 253 characters of dot-separated parts shaped like DNS-1123 labels (Kubernetes'
   * regular expression does not limit a part to 63 characters).
   */
  public static boolean isDnsSubdomain(String s) {
    if (s.length() > 253) {
      return false;
    }
    int start = 0;
    for (int i = 0; i <= s.length(); i++) {
      if (i == s.length() || s.charAt(i) == '.') {
        if (!isLabel(s, start, i)) {
          return false;
        }
        start = i + 1;
      }
    }
    return true;
  }

  /** A label key: an optional DNS-1123 subdomain prefix and {@code /}, then a 1..63 character name. */
  public static boolean isQualifiedName(String s) {
    int slash = s.indexOf('/');
    if (slash < 0) {
      return !s.isEmpty() && isNamePart(s, 0, s.length());
    }
    if (slash == 0 || s.indexOf('/', slash + 1) >= 0 || !isDnsSubdomain(s.substring(0, slash))) {
      return false;
    }
    return slash + 1 < s.length() && isNamePart(s, slash + 1, s.length());
  }

  /** A label value: empty, or a 1..63 character name part. */
  public static boolean isLabelValue(String s) {
    return s.isEmpty() || isNamePart(s, 0, s.length());
  }

  /** Whether every key and value of {@code labels} is valid. */
  public static boolean areLabels(Map<String, String> labels) {
    for (Map.Entry<String, String> e : labels.entrySet()) {
      if (!isQualifiedName(e.getKey()) || !isLabelValue(e.getValue())) {
        return false;
      }
    }
    return true;
  }

  private static boolean isNamePart(String s, int from, int to) {
    if (to - from > 63 || to <= from || !alnumAnyCase(s.charAt(from)) || !alnumAnyCase(s.charAt(to - 1))) {
      return false;
    }
    for (int i = from + 1; i < to - 1; i++) {
      char c = s.charAt(i);
      if (!alnumAnyCase(c) && c != '-' && c != '_' && c != '.') {
        return false;
      }
    }
    return true;
  }

  /** One dot-free part; the 63-character limit of a label is checked by the caller, not per subdomain part. */
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

  private static boolean alnumAnyCase(char c) {
    return alnum(c) || (c >= 'A' && c <= 'Z');
  }
}
