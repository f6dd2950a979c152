package io.fleetkit.api.internal;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.labels.Validation;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Collects every violation found while validating one object, then throws them together. Allocates nothing until
 * the first violation, so that validating a valid object stays cheap. Not thread-safe; one instance per check.
 */
public final class Violations {
  /** Kubernetes' wording for a missing value. */
  public static final String REQUIRED = "Required value";
  public static final String DUPLICATE = "Duplicate value";
  public static final String NON_NEGATIVE = "must be greater than or equal to 0";
  public static final String POSITIVE = "must be greater than zero";

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

  public void add(String field, String rule, @Nullable Object value) {
    if (found == null) {
      found = new ArrayList<>(4);
    }
    found.add(new Violation(object(), field, rule, value == null ? null : String.valueOf(value)));
  }

  public void required(String field) {
    add(field, REQUIRED, null);
  }

  public boolean isEmpty() {
    return found == null;
  }

  /** Throws a {@link ValidationException} listing everything found, if anything was. */
  public void throwIfAny() {
    if (found != null) {
      throw new ValidationException(found);
    }
  }

  public void nonNegative(String field, long value) {
    if (value < 0) {
      add(field, NON_NEGATIVE, value);
    }
  }

  public void nonNegative(String field, @Nullable Integer value) {
    if (value != null && value < 0) {
      add(field, NON_NEGATIVE, value);
    }
  }

  public void nonNegative(String field, @Nullable Long value) {
    if (value != null && value < 0) {
      add(field, NON_NEGATIVE, value);
    }
  }

  public void nonNegative(String field, Quantity value) {
    if (value.signum() < 0) {
      add(field, NON_NEGATIVE, value);
    }
  }

  /** Kubernetes' check for fields like activeDeadlineSeconds: between 1 and 2^31-1 when set. */
  public void positiveInt32(String field, @Nullable Long value) {
    if (value != null && (value < 1 || value > Integer.MAX_VALUE)) {
      add(field, "must be between 1 and 2147483647, inclusive", value);
    }
  }

  /** A required DNS-1123 subdomain (object names). */
  public void dnsSubdomain(String field, String value) {
    if (value.isEmpty()) {
      required(field);
    } else if (!Names.isDnsSubdomain(value)) {
      for (String rule : Validation.isDNS1123Subdomain(value)) {
        add(field, rule, value);
      }
    }
  }

  /** A required DNS-1123 label (container, volume and namespace names). */
  public void dnsLabel(String field, String value) {
    if (value.isEmpty()) {
      required(field);
    } else if (!Names.isDnsLabel(value)) {
      for (String rule : Validation.isDNS1123Label(value)) {
        add(field, rule, value);
      }
    }
  }

  /** A label key, taint key or topology key: a Kubernetes qualified name. */
  public void qualifiedName(String field, String value) {
    if (!Names.isQualifiedName(value)) {
      for (String rule : Validation.isQualifiedName(value)) {
        add(field, rule, value);
      }
    }
  }

  /** Label keys and values (also node selectors), as Kubernetes' {@code ValidateLabels}. */
  public void labels(String field, Map<String, String> labels) {
    if (!labels.isEmpty() && !Names.areLabels(labels)) {
      for (Violation v : Validation.validateLabels(labels, field)) {
        add(v.field(), v.rule(), v.value());
      }
    }
  }

  /**
   * Checks {@code metadata.name} and {@code metadata.namespace} of a top-level object: the name is a required
   * DNS-1123 subdomain; a namespaced kind's namespace, when set, is a DNS-1123 label; a cluster-scoped kind has none;
   * labels are valid label keys and values.
   */
  public void objectMeta(ObjectMeta metadata, boolean namespaced) {
    objectMeta(metadata.name(), metadata.namespace(), namespaced);
    labels("metadata.labels", metadata.labels());
  }

  private void objectMeta(String name, String namespace, boolean namespaced) {
    dnsSubdomain("metadata.name", name);
    if (namespaced) {
      if (!namespace.isEmpty() && !Names.isDnsLabel(namespace)) {
        for (String rule : Validation.isDNS1123Label(namespace)) {
          add("metadata.namespace", rule, namespace);
        }
      }
    } else if (!namespace.isEmpty()) {
      add("metadata.namespace", "not allowed on this type", namespace);
    }
  }
}
