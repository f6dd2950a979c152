package io.fleetkit.autoscale.cluster;

import java.util.List;

/**
 * Picks among scale-up options (upstream {@code expander.Filter}): returns the best ones, keeping their order. The
 * autoscaler chooses among what is left at random with its seeded {@link java.util.Random}, as upstream ends every
 * expander chain in {@code random}. Build the standard ones with {@link Expanders}.
 *
 * <p>Implementations must be stateless or thread-safe and must return a sub-list of the input (an empty input gives
 * an empty output; a non-empty input gives a non-empty output).
 */
@FunctionalInterface
public interface Expander {
  List<ScaleUpOption> bestOptions(List<ScaleUpOption> options);
}
