package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A cluster-scoped check a workload must pass, after its quota is reserved, before it is admitted (Kueue {@code
 * AdmissionCheck}). The check is evaluated by the {@link AdmissionCheckController} registered for its {@code
 * controllerName}, or set from outside with {@link AdmissionEngine#setCheckState}.
 *
 * <p>A ClusterQueue that names a check the engine does not have, or an inactive one, is inactive (Kueue's {@code
 * AdmissionCheckNotFound} and {@code AdmissionCheckInactive}): it admits no workloads until the check exists and is
 * active. Validation: the name is a DNS subdomain, the controller name is not empty.
 *
 * @param name the check's name, a DNS subdomain
 * @param controllerName the controller that evaluates it (Kueue's {@code spec.controllerName})
 * @param parameters the configuration object of the check (Kueue's {@code spec.parameters}), or {@code null}; its
 *     controller resolves it ({@link Parameters#checkFor})
 * @param active whether the controller is ready to evaluate the check (Kueue's {@code Active} condition)
 */
public record AdmissionCheck(String name, String controllerName, @Nullable Parameters parameters, boolean active) {
  public static final String KIND = "AdmissionCheck";
  /**
   * The controller name of Kueue's ProvisioningRequest checks ({@code kueue.x-k8s.io/provisioning-request}): a pod set
   * in a flavor with a topology that such a check applies to is placed only after the check is Ready ({@link
   * DelayedTopologyRequest}).
   */
  public static final String PROVISIONING_REQUEST_CONTROLLER = "kueue.x-k8s.io/provisioning-request";
  /** Kueue's {@code ErrNilParametersRef} message. */
  public static final String MISSING_PARAMETERS = "missing parameters reference";
  /** Kueue's {@code ErrBadParametersRef} message. */
  public static final String BAD_PARAMETERS = "bad parameters reference";

  public AdmissionCheck {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(controllerName, "controllerName");
    Violations v = new Violations(KIND, "", name);
    v.dnsSubdomain("metadata.name", name);
    if (controllerName.isEmpty()) {
      v.required("spec.controllerName");
    }
    v.throwIfAny();
  }

  /** An active check of {@code controllerName} without parameters. */
  public static AdmissionCheck of(String name, String controllerName) {
    return new AdmissionCheck(name, controllerName, null, true);
  }

  /** This check with its {@code Active} condition set to {@code active}. */
  public AdmissionCheck withActive(boolean active) {
    return new AdmissionCheck(name, controllerName, parameters, active);
  }

  /** This check with {@code parameters}. */
  public AdmissionCheck withParameters(@Nullable Parameters parameters) {
    return new AdmissionCheck(name, controllerName, parameters, active);
  }

  /**
   * A reference to a check's configuration object (Kueue {@code AdmissionCheckParametersReference}).
   *
   * @param apiGroup the object's API group
   * @param kind the object's kind
   * @param name the object's name
   */
  public record Parameters(String apiGroup, String kind, String name) {
    public Parameters {
      Objects.requireNonNull(apiGroup, "apiGroup");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(name, "name");
    }

    /**
     * Why this reference cannot name a configuration of {@code apiGroup}/{@code kind}, or {@code null} if it can
     * (Kueue's {@code refValidForGK}): {@code empty name: bad parameters reference}, {@code wrong group "x",
     * expecting "y": bad parameters reference}, {@code wrong kind "x", expecting "y": bad parameters reference}.
     */
    public @Nullable String checkFor(String apiGroup, String kind) {
      if (name.isEmpty()) {
        return "empty name: " + BAD_PARAMETERS;
      }
      if (!this.apiGroup.equals(apiGroup)) {
        return "wrong group \"" + this.apiGroup + "\", expecting \"" + apiGroup + "\": " + BAD_PARAMETERS;
      }
      if (!this.kind.equals(kind)) {
        return "wrong kind \"" + this.kind + "\", expecting \"" + kind + "\": " + BAD_PARAMETERS;
      }
      return null;
    }
  }
}
