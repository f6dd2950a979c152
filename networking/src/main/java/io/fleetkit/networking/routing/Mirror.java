package io.fleetkit.networking.routing;

import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A copy of the forwarded request that a {@code RequestMirror} filter sends to another backend (whose response is
 * ignored), for {@code numerator/denominator} of the requests.
 *
 * @param service {@code ns/name} of the mirror backend
 * @param port its port
 * @param request the request as the rule's backend receives it (after the header and URL filters)
 * @param numerator with {@code denominator}: the share of requests mirrored ({@code 1/1} for every request)
 */
public record Mirror(String service, Object port, HttpRequest request, int numerator, int denominator) {
  public Mirror {
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(port, "port");
    Objects.requireNonNull(request, "request");
    if (denominator < 1 || numerator < 0 || numerator > denominator) {
      throw new IllegalArgumentException("mirror to " + service + ": share " + numerator + "/" + denominator
          + " must satisfy 0 <= numerator <= denominator, denominator >= 1");
    }
  }

  /** Whether every request is mirrored. */
  public boolean always() {
    return numerator == denominator;
  }

  /**
   * Whether this request is mirrored, each one independently with probability {@code numerator/denominator}, as a
   * data plane samples: deterministic for a seeded {@code random} and a request sequence.
   */
  public boolean sends(SplittableRandom random) {
    return always() || (numerator > 0 && random.nextInt(denominator) < numerator);
  }
}
