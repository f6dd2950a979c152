package io.fleetkit.api.simulation;

import java.time.Duration;
import java.util.Objects;

/**
 * A built-in admission check controller of a scenario: it stands for the controller of Kueue {@code AdmissionCheck}s
 * whose {@code spec.controllerName} is {@link #controllerName()} (Kueue's ProvisioningRequest controller, a
 * MultiKueue controller, or one of your own), marks those checks Active, and sets a workload's check to Ready {@link
 * #approveAfter()} after the check became Pending (after the workload's quota was reserved).
 *
 * <pre>
 * admissionCheckControllers:
 * - {controllerName: kueue.x-k8s.io/provisioning-request, approveAfter: 4m}
 * </pre>
 *
 * <p>The controller {@value #AUTO_APPROVE} is always there and approves at once; a check whose controller is neither
 * it nor listed has no controller in the simulation and stays inactive, as in Kueue, so that the ClusterQueues naming
 * it admit nothing.
 *
 * @param controllerName the checks' {@code spec.controllerName}
 * @param approveAfter how long a check stays Pending before it is Ready; zero approves at once
 */
public record ScenarioCheckController(String controllerName, Duration approveAfter) {
  /** The controller name of the built-in controller that approves every check at once. */
  public static final String AUTO_APPROVE = "fleetkit.io/auto-approve";

  public ScenarioCheckController {
    Objects.requireNonNull(controllerName, "controllerName");
    Objects.requireNonNull(approveAfter, "approveAfter");
  }
}
