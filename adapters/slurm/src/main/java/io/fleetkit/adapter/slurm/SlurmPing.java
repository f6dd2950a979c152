package io.fleetkit.adapter.slurm;

import java.util.Objects;

/**
 * One controller's answer to {@code GET /ping}.
 *
 * @param hostname the controller's host name (the machine's real name, not the SlurmctldHost alias)
 * @param ping {@code "UP"} or {@code "DOWN"}
 * @param mode {@code "primary"} or {@code "backup"}
 */
public record SlurmPing(String hostname, String ping, String mode) {
  public SlurmPing {
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(ping, "ping");
    Objects.requireNonNull(mode, "mode");
  }

  public boolean isUp() {
    return "UP".equalsIgnoreCase(ping);
  }
}
