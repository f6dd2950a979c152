package io.fleetkit.api.admission;

import io.fleetkit.api.FleetKitException;
import java.util.Objects;

/**
 * An admission plugin refused a write. Names the plugin, the object ({@code Kind namespace/name}), the field and the
 * rule; the message reads like Kubernetes' {@code pods "web-0" is forbidden: <rule>}:
 * {@code Pod team-a/web-0 is forbidden: exceeded quota: compute, requested: requests.cpu=2, used: requests.cpu=3,
 * limited: requests.cpu=4 (plugin ResourceQuota, field spec)}.
 */
public class AdmissionDeniedException extends FleetKitException {
  private final String plugin;
  private final String object;
  private final String field;
  private final String rule;

  public AdmissionDeniedException(String plugin, String object, String field, String rule) {
    super(object + " is forbidden: " + rule + " (plugin " + plugin + ", field " + field + ")");
    this.plugin = Objects.requireNonNull(plugin, "plugin");
    this.object = Objects.requireNonNull(object, "object");
    this.field = Objects.requireNonNull(field, "field");
    this.rule = Objects.requireNonNull(rule, "rule");
  }

  /** The name of the plugin that refused. */
  public String plugin() {
    return plugin;
  }

  /** The object, as {@code Kind namespace/name}. */
  public String object() {
    return object;
  }

  /** The field at fault. */
  public String field() {
    return field;
  }

  /** The rule, in upstream's words (e.g. {@code exceeded quota: ...}). */
  public String rule() {
    return rule;
  }
}
