package io.fleetkit.api.simulation;

import java.time.Duration;
import java.util.Objects;

/**
 * How a new node of NodePool {@code pool} starts, in four phases one after the other: the cloud provisions the
 * machine, it boots and the kubelet registers, the GPU driver and device plugin come up, the images are pulled.
 * The node takes pods once the last phase ends ({@link #total()}, which replaces the pool's {@code startupDelay} in
 * a scenario run).
 *
 * @param pool a NodePool's name
 */
public record NodeStartup(String pool, Duration provision, Duration boot, Duration driver, Duration imagePull) {
  public NodeStartup {
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(provision, "provision");
    Objects.requireNonNull(boot, "boot");
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(imagePull, "imagePull");
  }

  /** The whole start-up: the four phases added. */
  public Duration total() {
    return provision.plus(boot).plus(driver).plus(imagePull);
  }

  /** The phase a node is in {@code sinceRequest} after it was requested. */
  public StartupPhase phaseAt(Duration sinceRequest) {
    Duration end = provision;
    if (sinceRequest.compareTo(end) < 0) {
      return StartupPhase.Provisioning;
    }
    end = end.plus(boot);
    if (sinceRequest.compareTo(end) < 0) {
      return StartupPhase.Booting;
    }
    end = end.plus(driver);
    if (sinceRequest.compareTo(end) < 0) {
      return StartupPhase.Driver;
    }
    end = end.plus(imagePull);
    return sinceRequest.compareTo(end) < 0 ? StartupPhase.ImagePull : StartupPhase.Ready;
  }

  /** When {@code phase} starts, after the request. */
  public Duration start(StartupPhase phase) {
    return switch (phase) {
      case Provisioning -> Duration.ZERO;
      case Booting -> provision;
      case Driver -> provision.plus(boot);
      case ImagePull -> provision.plus(boot).plus(driver);
      case Ready -> total();
    };
  }
}
