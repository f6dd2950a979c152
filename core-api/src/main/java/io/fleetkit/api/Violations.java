package io.fleetkit.api;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.internal.Names;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.Validation;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Collects every violation found while validating one object, then throws them together: the rule helper of every
 * kind's compact constructor, in core-api and in the modules that define their own kinds (Kueue's queues and
 * workloads in the scheduler engine). Rule texts use
 * Kubernetes' wording ({@code field.Required}, {@code field.Duplicate}, {@code ValidateNonnegativeField}, ...);
 * name checks take their messages from {@link Validation}, after a fast {@link Names} pre-check so that validating a
 * valid object allocates nothing. Not thread-safe; one instance per check.
 */
public final class Violations {
  /** Kubernetes' {@code field.Required} wording. */
  public static final String REQUIRED = "Required value";
  /** Kubernetes' {@code field.Duplicate} wording. */
  public static final String DUPLICATE = "Duplicate value";
  /** Kubernetes' {@code ValidateNonnegativeField} wording. */
  public static final String NON_NEGATIVE = "must be greater than or equal to 0";
  /** Kubernetes' {@code ValidatePositiveField} wording. */
  public static final String POSITIVE = "must be greater than zero";

  private static final Pattern PORT_NAME_CHARS = Pattern.compile("[-a-z0-9]+");
  private static final Pattern HAS_LETTER = Pattern.compile(".*[a-z].*");

  private final String kind;
  private final String namespace;
  private final String name;
  private @Nullable String object;
  private @Nullable List<Violation> found;

  /** For the object {@code kind namespace/name}; the description is only rendered when a violation is found. */
  public Violations(String kind, String namespace, String name) {
    this.kind = kind;
    this.namespace = namespace;
    this.name = name;
  }

  /** For the object of kind {@code kind} with {@code metadata}. */
  public static Violations forObject(String kind, ObjectMeta metadata) {
    return new Violations(kind, metadata.namespace(), metadata.name());
  }

  /** {@code Kind namespace/name} or {@code Kind name}. */
  public static String describe(String kind, String namespace, String name) {
    String n = name.isEmpty() ? "<unnamed>" : name;
    return kind + " " + (namespace.isEmpty() ? n : namespace + "/" + n);
  }

  /** {@code Kind namespace/name}, as violations name the object. */
  public String object() {
    String o = object;
    if (o == null) {
      o = describe(kind, namespace, name);
      object = o;
    }
    return o;
  }

  /** Records that {@code field}, holding {@code value} ({@code null} when missing), breaks {@code rule}. */
  public Violations add(String field, String rule, @Nullable Object value) {
    if (found == null) {
      found = new ArrayList<>(4);
    }
    found.add(new Violation(object(), field, rule, value == null ? null
        : value instanceof Duration d ? durationText(d) : String.valueOf(value)));
    return this;
  }

  /** {@code d} as manifests write durations: {@code 30h}, {@code 1h30m}, {@code 0.5s}, {@code 0s}. */
  public static String durationText(Duration d) {
    return d.toString().substring(2).toLowerCase(Locale.ROOT);
  }

  /** Records violations found by another check (their object, usually empty, is replaced by this one's). */
  public Violations addAll(List<Violation> violations) {
    for (Violation f : violations) {
      add(f.field(), f.rule(), f.value());
    }
    return this;
  }

  private void addAll(String field, List<String> rules, String value) {
    for (String rule : rules) {
      add(field, rule, value);
    }
  }

  /** Records a missing field. */
  public Violations required(String field) {
    return add(field, REQUIRED, null);
  }

  /** Records a missing field with an explanation, e.g. {@code Required value: must specify at least 1 access mode}. */
  public Violations required(String field, String detail) {
    return add(field, REQUIRED + ": " + detail, null);
  }

  public boolean isEmpty() {
    return found == null;
  }

  /** The violations so far, in the order found. */
  public List<Violation> violations() {
    return found == null ? List.of() : List.copyOf(found);
  }

  /**
   * Throws one {@link ValidationException} listing every violation, if any.
   *
   * @throws ValidationException when at least one violation was recorded
   */
  public void throwIfAny() {
    if (found != null) {
      throw new ValidationException(found);
    }
  }

  /** Kubernetes' {@code ValidateNonnegativeField}. */
  public void nonNegative(String field, long value) {
    if (value < 0) {
      add(field, NON_NEGATIVE, value);
    }
  }

  /** Kubernetes' {@code ValidateNonnegativeField}, for an optional field. */
  public void nonNegative(String field, @Nullable Integer value) {
    if (value != null && value < 0) {
      add(field, NON_NEGATIVE, value);
    }
  }

  /** Kubernetes' {@code ValidateNonnegativeField}, for an optional field. */
  public void nonNegative(String field, @Nullable Long value) {
    if (value != null && value < 0) {
      add(field, NON_NEGATIVE, value);
    }
  }

  /** Kubernetes' {@code ValidateNonnegativeQuantity}. */
  public void nonNegative(String field, Quantity value) {
    if (value.signum() < 0) {
      add(field, NON_NEGATIVE, value);
    }
  }

  /** Kubernetes' {@code ValidatePositiveIntOrPercent}: a non-negative count or percentage, when set. */
  public void nonNegative(String field, @Nullable IntOrPercent value) {
    if (value != null && value.value() < 0) {
      add(field, NON_NEGATIVE, value);
    }
  }

  /** Kubernetes' {@code IsNotMoreThan100Percent}, when set. */
  public void notMoreThan100Percent(String field, @Nullable IntOrPercent value) {
    if (value != null && value.percent() && value.value() > 100) {
      add(field, "must not be greater than 100%", value);
    }
  }

  /** Kubernetes' check for fields like activeDeadlineSeconds: between 1 and 2^31-1 when set. */
  public void positiveInt32(String field, @Nullable Long value) {
    if (value != null && (value < 1 || value > Integer.MAX_VALUE)) {
      add(field, "must be between 1 and 2147483647, inclusive", value);
    }
  }

  /** A required DNS-1123 subdomain ({@code IsDNS1123Subdomain}: most object names). */
  public void dnsSubdomain(String field, String value) {
    if (value.isEmpty()) {
      required(field);
    } else if (!Names.isDnsSubdomain(value)) {
      addAll(field, Validation.isDNS1123Subdomain(value), value);
    }
  }

  /**
   * A required domain-prefixed path ({@code IsDomainPrefixedPath}: controller names such as {@code example.com/foo});
   * each error names the part it is about.
   */
  public void domainPrefixedPath(String field, String value) {
    if (value.isEmpty()) {
      required(field);
      return;
    }
    for (Map.Entry<String, String> e : Validation.isDomainPrefixedPath(value)) {
      add(field, e.getValue(), e.getKey());
    }
  }

  /** A required DNS-1123 label ({@code IsDNS1123Label}: namespaces, container, volume and port names). */
  public void dnsLabel(String field, String value) {
    if (value.isEmpty()) {
      required(field);
    } else if (!Names.isDnsLabel(value)) {
      addAll(field, Validation.isDNS1123Label(value), value);
    }
  }

  /** A required DNS-1035 label ({@code IsDNS1035Label}: Service names). */
  public void dns1035Label(String field, String value) {
    if (value.isEmpty()) {
      required(field);
    } else if (!Names.isDns1035Label(value)) {
      addAll(field, Validation.isDNS1035Label(value), value);
    }
  }

  /** A label key, taint key or topology key: Kubernetes' {@code IsQualifiedName}. */
  public void qualifiedName(String field, String value) {
    if (!Names.isQualifiedName(value)) {
      addAll(field, Validation.isQualifiedName(value), value);
    }
  }

  /** Label keys and values (also node selectors), as Kubernetes' {@code ValidateLabels}. */
  public void labels(String field, Map<String, String> labels) {
    if (!labels.isEmpty() && !Names.areLabels(labels)) {
      addAll(Validation.validateLabels(labels, field));
    }
  }

  /** Checks a label selector's keys, values and operators ({@link LabelSelector#validate}). */
  public void labelSelector(String field, @Nullable LabelSelector selector) {
    addAll(LabelSelector.validate(selector, field));
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

  /** How a kind's {@code metadata.name} is checked. */
  public enum NameRule {
    DNS1123_SUBDOMAIN,
    DNS1123_LABEL,
    DNS1035_LABEL
  }

  /**
   * Checks a top-level object's metadata as Kubernetes' {@code ValidateObjectMeta}: {@code metadata.name} is a
   * required DNS-1123 subdomain, {@code metadata.namespace} as {@link #nameAndNamespace}, and the labels are valid
   * label keys and values.
   */
  public void objectMeta(ObjectMeta metadata, boolean namespaced) {
    nameAndNamespace(metadata, namespaced, NameRule.DNS1123_SUBDOMAIN);
    labels("metadata.labels", metadata.labels());
  }

  /**
   * Checks {@code metadata.name} against {@code nameRule}; for namespaced kinds a non-empty namespace must be a
   * DNS-1123 label (an empty one is left for the object store to fill in); cluster-scoped kinds must not have one.
   * Labels are not checked.
   */
  public void nameAndNamespace(ObjectMeta metadata, boolean namespaced, NameRule nameRule) {
    String n = metadata.name();
    if (n.isEmpty()) {
      required("metadata.name", "name or generateName is required");
    } else {
      switch (nameRule) {
        case DNS1123_SUBDOMAIN -> dnsSubdomain("metadata.name", n);
        case DNS1123_LABEL -> dnsLabel("metadata.name", n);
        case DNS1035_LABEL -> dns1035Label("metadata.name", n);
      }
    }
    String ns = metadata.namespace();
    if (namespaced) {
      if (!ns.isEmpty()) {
        dnsLabel("metadata.namespace", ns);
      }
    } else if (!ns.isEmpty()) {
      add("metadata.namespace", "not allowed on this type", ns);
    }
  }
}
