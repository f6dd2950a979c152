package io.fleetkit.api.simulation;

/** Where a starting node is ({@link NodeStartup}). */
public enum StartupPhase {
  /** The cloud provider is creating the machine. */
  Provisioning("provisioning"),
  /** The machine boots; the kubelet registers. */
  Booting("booting"),
  /** The GPU driver and device plugin come up. */
  Driver("driver"),
  /** The images are pulled. */
  ImagePull("image pull"),
  /** Started: the node takes pods. */
  Ready("ready");

  private final String label;

  StartupPhase(String label) {
    this.label = label;
  }

  /** How series and the timeline name the phase ({@code provisioning}, {@code image pull}, ...). */
  public String label() {
    return label;
  }
}
