package io.fleetkit.api.internal.check;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Gathers every violation of one object, then throws them together. Rule texts follow Kubernetes' wording
 * ({@code k8s.io/apimachinery/pkg/util/validation}) so that messages read the same as {@code kubectl apply}'s.
 *
 * <p>Not thread-safe: one collector per validation.
 */
public final class ViolationCollector {
  /** Kubernetes' {@code field.Required} wording. */
  public static final String REQUIRED = "is required";

  private static final int DNS1123_LABEL_MAX = 63;
  private static final int DNS1123_SUBDOMAIN_MAX = 253;
  private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
  private static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
  private static final Pattern DNS1123_LABEL = Pattern.compile(DNS1123_LABEL_FMT);
  private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
  private static final Pattern DNS1035_LABEL = Pattern.compile(DNS1035_LABEL_FMT);
  private static final Pattern PORT_NAME_CHARS = Pattern.compile("[-a-z0-9]+");
  private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);
  private static final String QUALIFIED_NAME_RULE = "must consist of alphanumeric characters, '-', '_' or '.', and "
      + "must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
      + "for validation is '" + QUALIFIED_NAME_FMT + "')";
  private static final Pattern HAS_LETTER = Pattern.compile(".*[a-z].*");

  private final String object;
  private final List<Violation> violations = new ArrayList<>();

  /** A collector for the object named {@code object}, e.g. {@code PersistentVolumeClaim default/data-0}. */
  public ViolationCollector(String object) {
    this.object = Objects.requireNonNull(object, "object");
  }

  /** A collector for {@code kind namespace/name}. */
  public static ViolationCollector forObject(String kind, ObjectMeta metadata) {
    return new ViolationCollector(kind + " " + metadata.key());
  }

  /** Records that {@code field}, holding {@code value} ({@code null} when missing), breaks {@code rule}. */
  public ViolationCollector add(String field, String rule, @Nullable Object value) {
    violations.add(new Violation(object, field, rule, value == null ? null : String.valueOf(value)));
    return this;
  }

  /** Records a missing field. */
  public ViolationCollector required(String field) {
    return add(field, REQUIRED, null);
  }

  /** Records a missing field with an explanation, e.g. {@code must specify at least 1 access mode}. */
  public ViolationCollector required(String field, String detail) {
    return add(field, REQUIRED + ": " + detail, null);
  }

  /** Checks {@code metadata.name} (a DNS-1123 subdomain) and {@code metadata.namespace}. */
  public void objectMeta(ObjectMeta metadata, boolean namespaced) {
    objectMeta(metadata, namespaced, NameRule.DNS1123_SUBDOMAIN);
  }

  /**
   * Checks {@code metadata.name} against {@code nameRule}; for namespaced kinds a non-empty namespace must be a
   * DNS-1123 label (an empty one is left for the object store to fill in); cluster-scoped kinds must not have one.
   */
  public void objectMeta(ObjectMeta metadata, boolean namespaced, NameRule nameRule) {
    if (metadata.name().isEmpty()) {
      required("metadata.name", "name or generateName is required");
    } else {
      switch (nameRule) {
        case DNS1123_SUBDOMAIN -> dns1123Subdomain("metadata.name", metadata.name());
        case DNS1123_LABEL -> dns1123Label("metadata.name", metadata.name());
        case DNS1035_LABEL -> dns1035Label("metadata.name", metadata.name());
      }
    }
    if (namespaced) {
      if (!metadata.namespace().isEmpty()) {
        dns1123Label("metadata.namespace", metadata.namespace());
      }
    } else if (!metadata.namespace().isEmpty()) {
      add("metadata.namespace", "not allowed on this type", metadata.namespace());
    }
  }

  /** How a kind's {@code metadata.name} is checked. */
  public enum NameRule {
    DNS1123_SUBDOMAIN,
    DNS1123_LABEL,
    DNS1035_LABEL
  }

  /** Kubernetes' {@code IsDNS1123Subdomain}. */
  public void dns1123Subdomain(String field, String value) {
    if (value.length() > DNS1123_SUBDOMAIN_MAX) {
      add(field, "must be no more than " + DNS1123_SUBDOMAIN_MAX + " characters", value);
    }
    if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
      add(field, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
          + "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation "
          + "is '" + DNS1123_SUBDOMAIN_FMT + "')", value);
    }
  }

  /** Kubernetes' {@code IsDNS1123Label}. */
  public void dns1123Label(String field, String value) {
    if (value.length() > DNS1123_LABEL_MAX) {
      add(field, "must be no more than " + DNS1123_LABEL_MAX + " characters", value);
    }
    if (!DNS1123_LABEL.matcher(value).matches()) {
      add(field, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
          + "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation "
          + "is '" + DNS1123_LABEL_FMT + "')", value);
    }
  }

  /** Kubernetes' {@code IsDNS1035Label} (Service names). */
  public void dns1035Label(String field, String value) {
    if (value.length() > DNS1123_LABEL_MAX) {
      add(field, "must be no more than " + DNS1123_LABEL_MAX + " characters", value);
    }
    if (!DNS1035_LABEL.matcher(value).matches()) {
      add(field, "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
          + "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex "
          + "used for validation is '" + DNS1035_LABEL_FMT + "')", value);
    }
  }

  /** Kubernetes' {@code IsQualifiedName}: an optional DNS-1123 subdomain prefix and '/', then a name. */
  public void qualifiedName(String field, String value) {
    String[] parts = value.split("/", -1);
    String name;
    if (parts.length == 1) {
      name = parts[0];
    } else if (parts.length == 2) {
      if (parts[0].isEmpty()) {
        add(field, "prefix part must be non-empty", value);
      } else {
        if (parts[0].length() > DNS1123_SUBDOMAIN_MAX
            || !DNS1123_SUBDOMAIN.matcher(parts[0]).matches()) {
          add(field, "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
              + "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
              + "'example.com', regex used for validation is '" + DNS1123_SUBDOMAIN_FMT + "')", value);
        }
      }
      name = parts[1];
    } else {
      add(field, "a qualified name " + QUALIFIED_NAME_RULE
          + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')", value);
      return;
    }
    if (name.isEmpty()) {
      add(field, "name part must be non-empty", value);
    } else if (name.length() > DNS1123_LABEL_MAX) {
      add(field, "name part must be no more than " + DNS1123_LABEL_MAX + " characters", value);
    }
    if (!name.isEmpty() && !QUALIFIED_NAME.matcher(name).matches()) {
      add(field, "name part " + QUALIFIED_NAME_RULE, value);
    }
  }

  /** Kubernetes' {@code IsValidPortName} (an IANA_SVC_NAME). */
  public void portName(String field, String value) {
    if (value.length() > 15) {
      add(field, "must be no more than 15 characters", value);
    }
    if (!PORT_NAME_CHARS.matcher(value).matches()) {
      add(field, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)", value);
    }
    if (!HAS_LETTER.matcher(value).matches()) {
      add(field, "must contain at least one letter (a-z)", value);
    }
    if (value.contains("--")) {
      add(field, "must not contain consecutive hyphens", value);
    }
    if (value.startsWith("-") || value.endsWith("-")) {
      add(field, "must not begin or end with a hyphen", value);
    }
  }

  /** Kubernetes' {@code IsValidPortNum}. */
  public void portNumber(String field, int port) {
    if (port < 1 || port > 65535) {
      add(field, "must be between 1 and 65535, inclusive", port);
    }
  }

  /** Kubernetes' {@code IsValidPathSegmentName} (names that become URL path segments). */
  public void pathSegmentName(String field, String value) {
    if (value.equals(".") || value.equals("..")) {
      add(field, "may not be '" + value + "'", value);
    }
    for (String illegal : new String[] {"/", "%"}) {
      if (value.contains(illegal)) {
        add(field, "may not contain '" + illegal + "'", value);
      }
    }
  }

  /** Kubernetes' {@code ValidateNonnegativeField}. */
  public void nonNegative(String field, long value) {
    if (value < 0) {
      add(field, "must be greater than or equal to 0", value);
    }
  }

  public boolean isEmpty() {
    return violations.isEmpty();
  }

  /** The violations so far, in the order found. */
  public List<Violation> violations() {
    return List.copyOf(violations);
  }

  /**
   * Throws one {@link ValidationException} listing every violation, if any.
   *
   * @throws ValidationException when at least one violation was recorded
   */
  public void throwIfAny() {
    if (!violations.isEmpty()) {
      throw new ValidationException(violations);
    }
  }
}
