package io.fleetkit.adapter.slurm;

import java.time.Duration;

/**
 * Waits between retries; injectable so that tests record the backoff instead of sleeping.
 */
@FunctionalInterface
public interface Sleeper {
  /** The real one: {@link Thread#sleep(long)}. */
  Sleeper SYSTEM = d -> Thread.sleep(d.toMillis());

  void sleep(Duration duration) throws InterruptedException;
}
