package io.fleetkit.api.internal.check;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.Validation;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Gathers every violation of one object, then throws them together. Rule texts follow Kubernetes' wording
 * (name checks come from {@link Validation}) so that messages read the same as {@code kubectl apply}'s.
 *
 * <p>Not thread-safe: one collector per validation.
 */
public final class ViolationCollector {
  /** Kubernetes' {@code field.Required} wording. */
  public static final String REQUIRED = "is required";

  private static final Pattern PORT_NAME_CHARS = Pattern.compile("[-a-z0-9]+");
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

  /** Records violations found by another check (their object, usually empty, is replaced by this one's). */
  public ViolationCollector addAll(List<Violation> found) {
    for (Violation f : found) {
      violations.add(new Violation(object, f.field(), f.rule(), f.value()));
    }
    return this;
  }

  /** Checks a label selector's keys, values and operators ({@link LabelSelector#validate}). */
  public void labelSelector(String field, @Nullable LabelSelector selector) {
    addAll(LabelSelector.validate(selector, field));
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

  /** Kubernetes' {@code IsDNS1123Subdomain} (most object names). */
  public void dns1123Subdomain(String field, String value) {
    addAll(field, Validation.isDNS1123Subdomain(value), value);
  }

  /** Kubernetes' {@code IsDNS1123Label} (namespaces, container and port names). */
  public void dns1123Label(String field, String value) {
    addAll(field, Validation.isDNS1123Label(value), value);
  }

  /** Kubernetes' {@code IsDNS1035Label} (Service names). */
  public void dns1035Label(String field, String value) {
    addAll(field, Validation.isDNS1035Label(value), value);
  }

  /** Kubernetes' {@code IsQualifiedName}: an optional DNS-1123 subdomain prefix and '/', then a name. */
  public void qualifiedName(String field, String value) {
    addAll(field, Validation.isQualifiedName(value), value);
  }

  private void addAll(String field, List<String> rules, String value) {
    for (String rule : rules) {
      add(field, rule, value);
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
