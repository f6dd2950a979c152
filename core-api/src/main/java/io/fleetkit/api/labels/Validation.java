package io.fleetkit.api.labels;

import io.fleetkit.api.Violation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Kubernetes name and label syntax checks, ported from apimachinery {@code pkg/util/validation/validation.go} and
 * {@code pkg/api/validate/content/kube.go} with the exact upstream wording.
 *
 * <p>Every {@code isX} method returns the list of problems found, in upstream order; an empty list means the value is
 * valid. Lengths are counted in UTF-8 bytes, as Go's {@code len} does. The messages use the wording of released
 * Kubernetes versions ({@code "must be no more than 63 characters"}).
 *
 * <p>Stateless and thread-safe.
 */
public final class Validation {
  /** Maximum length of an RFC 1123 label. */
  public static final int DNS1123_LABEL_MAX_LENGTH = 63;
  /** Maximum length of an RFC 1123 subdomain. */
  public static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
  /** Maximum length of an RFC 1035 label. */
  public static final int DNS1035_LABEL_MAX_LENGTH = 63;
  /** Maximum length of a label value, and of the name part of a qualified name. */
  public static final int LABEL_VALUE_MAX_LENGTH = 63;

  static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  static final String DNS1123_LABEL_ERR_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
      + "characters or '-', and must start and end with an alphanumeric character";
  static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
  static final String DNS1123_SUBDOMAIN_ERR_MSG = "a lowercase RFC 1123 subdomain must consist of lower case "
      + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
  static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
  static final String DNS1035_LABEL_ERR_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters "
      + "or '-', start with an alphabetic character, and end with an alphanumeric character";
  static final String QUALIFIED_NAME_CHAR_FMT = "[A-Za-z0-9]";
  static final String QUALIFIED_NAME_EXT_CHAR_FMT = "[-A-Za-z0-9_.]";
  static final String QUALIFIED_NAME_FMT =
      "(" + QUALIFIED_NAME_CHAR_FMT + QUALIFIED_NAME_EXT_CHAR_FMT + "*)?" + QUALIFIED_NAME_CHAR_FMT;
  static final String QUALIFIED_NAME_ERR_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must "
      + "start and end with an alphanumeric character";
  static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";
  static final String LABEL_VALUE_ERR_MSG = "a valid label must be an empty string or consist of alphanumeric "
      + "characters, '-', '_' or '.', and must start and end with an alphanumeric character";

  private static final Pattern DNS1123_LABEL = Pattern.compile(DNS1123_LABEL_FMT);
  private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
  private static final Pattern DNS1035_LABEL = Pattern.compile(DNS1035_LABEL_FMT);
  private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);
  private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FMT);

  private Validation() {}

  /** Tests for a string that conforms to the definition of a label in DNS (RFC 1123), e.g. a namespace name. */
  public static List<String> isDNS1123Label(String value) {
    List<String> errs = new ArrayList<>(2);
    if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) {
      errs.add(maxLenError(DNS1123_LABEL_MAX_LENGTH));
    }
    if (!DNS1123_LABEL.matcher(value).matches()) {
      if (DNS1123_SUBDOMAIN.matcher(value).matches()) {
        // A valid subdomain but not a valid label: since the length was checked already, it must be dots.
        errs.add("must not contain dots");
      } else {
        errs.add(regexError(DNS1123_LABEL_ERR_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc"));
      }
    }
    return List.copyOf(errs);
  }

  private static final String HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
  private static final Pattern HTTP_PATH = Pattern.compile(HTTP_PATH_FMT);
  /** The message of a value that is not {@code host/path}. */
  public static final String DOMAIN_PREFIXED_PATH = "must be a domain-prefixed path (such as \"acme.io/foo\")";

  /**
   * Upstream's {@code IsDomainPrefixedPath} (controller names such as a Job's {@code spec.managedBy} or an
   * IngressClass's {@code spec.controller}): a DNS-1123 subdomain, {@code /}, and a non-empty HTTP path. Each error is
   * the value it is about (the whole value, the host or the path) and its message; none for a valid path, one
   * ({@value #DOMAIN_PREFIXED_PATH}) for a value without a host or a path. An empty value is the caller's to refuse
   * as required.
   */
  public static List<Map.Entry<String, String>> isDomainPrefixedPath(String value) {
    int slash = value.indexOf('/');
    if (slash <= 0 || slash == value.length() - 1) {
      return List.of(Map.entry(value, DOMAIN_PREFIXED_PATH));
    }
    List<Map.Entry<String, String>> errs = new ArrayList<>(2);
    String host = value.substring(0, slash);
    for (String e : isDNS1123Subdomain(host)) {
      errs.add(Map.entry(host, e));
    }
    String path = value.substring(slash + 1);
    if (!HTTP_PATH.matcher(path).matches()) {
      errs.add(Map.entry(path, regexError("Invalid path", HTTP_PATH_FMT)));
    }
    return errs;
  }

  /** Tests for a string that conforms to the definition of a subdomain in DNS (RFC 1123), e.g. most object names. */
  public static List<String> isDNS1123Subdomain(String value) {
    List<String> errs = new ArrayList<>(2);
    if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) {
      errs.add(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
      errs.add(regexError(DNS1123_SUBDOMAIN_ERR_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
    }
    return List.copyOf(errs);
  }

  /** Tests for a string that conforms to the definition of a label in DNS (RFC 1035), e.g. a service name. */
  public static List<String> isDNS1035Label(String value) {
    List<String> errs = new ArrayList<>(2);
    if (byteLength(value) > DNS1035_LABEL_MAX_LENGTH) {
      errs.add(maxLenError(DNS1035_LABEL_MAX_LENGTH));
    }
    if (!DNS1035_LABEL.matcher(value).matches()) {
      errs.add(regexError(DNS1035_LABEL_ERR_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123"));
    }
    return List.copyOf(errs);
  }

  /**
   * Tests whether the value is what Kubernetes calls a "qualified name": an optional DNS subdomain prefix and
   * {@code /}, then a name of at most 63 characters. Label keys, annotation keys, taint keys and topology keys are
   * qualified names.
   */
  public static List<String> isQualifiedName(String value) {
    List<String> errs = new ArrayList<>(2);
    int slash = value.indexOf('/');
    String name;
    if (slash < 0) {
      name = value;
    } else if (value.indexOf('/', slash + 1) < 0) {
      String prefix = value.substring(0, slash);
      name = value.substring(slash + 1);
      if (prefix.isEmpty()) {
        errs.add("prefix part must be non-empty");
      } else {
        for (String msg : isDNS1123Subdomain(prefix)) {
          errs.add("prefix part " + msg);
        }
      }
    } else {
      errs.add("a valid label key " + regexError(QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name",
          "123-abc") + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return List.copyOf(errs);
    }
    if (name.isEmpty()) {
      errs.add("name part must be non-empty");
    } else if (byteLength(name) > LABEL_VALUE_MAX_LENGTH) {
      errs.add("name part " + maxLenError(LABEL_VALUE_MAX_LENGTH));
    }
    if (!QUALIFIED_NAME.matcher(name).matches()) {
      errs.add("name part " + regexError(QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name",
          "123-abc"));
    }
    return List.copyOf(errs);
  }

  /** Tests whether the value is a valid label value (empty, or at most 63 alphanumerics, '-', '_' or '.'). */
  public static List<String> isValidLabelValue(String value) {
    List<String> errs = new ArrayList<>(2);
    if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) {
      errs.add(maxLenError(LABEL_VALUE_MAX_LENGTH));
    }
    if (!LABEL_VALUE.matcher(value).matches()) {
      errs.add(regexError(LABEL_VALUE_ERR_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
    }
    return List.copyOf(errs);
  }

  /**
   * Checks a label (or taint, toleration, topology) key: one violation per problem, on {@code fieldPath}, with
   * object {@code ""} (the caller names the object).
   */
  public static List<Violation> validateLabelName(String key, String fieldPath) {
    List<String> msgs = isQualifiedName(key);
    if (msgs.isEmpty()) {
      return List.of();
    }
    List<Violation> out = new ArrayList<>(msgs.size());
    for (String msg : msgs) {
      out.add(new Violation("", fieldPath, msg, key));
    }
    return out;
  }

  /**
   * Checks a label map (keys are qualified names, values are label values), in key order so that the result is
   * deterministic. Violations are on {@code fieldPath}, as upstream's {@code ValidateLabels}.
   */
  public static List<Violation> validateLabels(Map<String, String> labels, String fieldPath) {
    List<Violation> out = new ArrayList<>();
    for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
      out.addAll(validateLabelName(e.getKey(), fieldPath));
      for (String msg : isValidLabelValue(e.getValue())) {
        out.add(new Violation("", fieldPath, msg, e.getValue()));
      }
    }
    return out;
  }

  private static final String CONFIG_MAP_KEY_FMT = "[-._a-zA-Z0-9]+";
  private static final Pattern CONFIG_MAP_KEY = Pattern.compile(CONFIG_MAP_KEY_FMT);

  /**
   * Tests for a valid key of a ConfigMap's or Secret's data (Kubernetes' {@code IsConfigMapKey}): at most 253
   * characters of {@code [-._a-zA-Z0-9]}, and not {@code .}, {@code ..} or starting with {@code ..}.
   */
  public static List<String> isConfigMapKey(String value) {
    List<String> errs = new ArrayList<>(2);
    if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) {
      errs.add(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    if (!CONFIG_MAP_KEY.matcher(value).matches()) {
      errs.add(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
          CONFIG_MAP_KEY_FMT, "key.name", "KEY_NAME", "key-name"));
    }
    chDirPrefix(value, errs);
    return List.copyOf(errs);
  }

  private static final String ENV_VAR_NAME_FMT = "[-._a-zA-Z][-._a-zA-Z0-9]*";
  private static final Pattern ENV_VAR_NAME = Pattern.compile(ENV_VAR_NAME_FMT);

  /**
   * Tests for a valid environment variable name under the strict rule (Kubernetes' {@code IsEnvVarName}): letters,
   * digits, {@code _}, {@code -} and {@code .}, not starting with a digit, and not {@code .}, {@code ..} or starting
   * with {@code ..}. Pods are checked with {@link #isRelaxedEnvVarName} (the RelaxedEnvironmentVariableValidation rule,
   * GA since Kubernetes 1.34).
   */
  public static List<String> isEnvVarName(String value) {
    List<String> errs = new ArrayList<>(2);
    if (!ENV_VAR_NAME.matcher(value).matches()) {
      errs.add(regexError("a valid environment variable name must consist of alphabetic characters, digits, '_', "
          + "'-', or '.', and must not start with a digit", ENV_VAR_NAME_FMT, "my.env-name", "MY_ENV.NAME",
          "MyEnvName1"));
    }
    chDirPrefix(value, errs);
    return List.copyOf(errs);
  }

  /**
   * Tests for a valid environment variable name (Kubernetes' {@code IsRelaxedEnvVarName}): not empty, and only
   * printable ASCII characters other than {@code =}.
   */
  public static List<String> isRelaxedEnvVarName(String value) {
    List<String> errs = new ArrayList<>(2);
    if (value.isEmpty()) {
      errs.add("environment variable name must be non-empty");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < ' ' || c > '~' || c == '=') {
        errs.add("a valid environment variable name must consist only of printable ASCII characters other than '='");
        break;
      }
    }
    return List.copyOf(errs);
  }

  /** Upstream's {@code hasChDirPrefix}. */
  private static void chDirPrefix(String value, List<String> errs) {
    if (value.equals(".")) {
      errs.add("must not be '.'");
    } else if (value.equals("..")) {
      errs.add("must not be '..'");
    } else if (value.startsWith("..")) {
      errs.add("must not start with '..'");
    }
  }

  /** {@code must be no more than N characters}. */
  static String maxLenError(int length) {
    return "must be no more than " + length + " characters";
  }

  /**
   * Upstream's {@code RegexError}: the message, the examples (joined exactly as upstream does, including its
   * double space before {@code or}) and the regular expression.
   */
  static String regexError(String msg, String fmt, String... examples) {
    if (examples.length == 0) {
      return msg + " (regex used for validation is '" + fmt + "')";
    }
    StringBuilder sb = new StringBuilder(msg).append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      if (i > 0) {
        sb.append(" or ");
      }
      sb.append('\'').append(examples[i]).append("', ");
    }
    return sb.append("regex used for validation is '").append(fmt).append("')").toString();
  }

  /** Length in UTF-8 bytes, as Go's {@code len(string)}; cheap for ASCII. */
  static int byteLength(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return s.getBytes(StandardCharsets.UTF_8).length;
      }
    }
    return s.length();
  }
}
