package io.fleetkit.api.gateway;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@code RequestMirror} filter: a copy of the forwarded request goes to {@code backendRef}, whose response is
 * ignored. A rule may carry several. Of {@code percent} (0..100) and {@code fraction} at most one is set; with
 * neither every request is mirrored.
 */
public record HTTPRequestMirrorFilter(BackendObjectReference backendRef, @Nullable Integer percent,
    @Nullable Fraction fraction) {
  public HTTPRequestMirrorFilter {
    Objects.requireNonNull(backendRef, "backendRef");
  }

  /** A mirror of every request. */
  public static HTTPRequestMirrorFilter of(BackendObjectReference backendRef) {
    return new HTTPRequestMirrorFilter(backendRef, null, null);
  }

  /** The share of requests mirrored as a fraction: {@code percent/100}, the fraction, or {@code 100/100}. */
  public Fraction share() {
    if (percent != null) {
      return new Fraction(percent, 100);
    }
    return fraction != null ? fraction : new Fraction(100, 100);
  }
}
