package io.fleetkit.networking.routing;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The redirect a {@code RequestRedirect} filter answers instead of forwarding: status and {@code Location}.
 *
 * @param statusCode 301, 302, 303, 307 or 308
 * @param scheme {@code http} or {@code https}
 * @param port {@code null} when the Location carries none (80 for http, 443 for https)
 * @param path the path, with the request's query when it had one ({@code /a?b=c})
 */
public record Redirect(int statusCode, String scheme, String hostname, @Nullable Integer port, String path) {
  public Redirect {
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(path, "path");
  }

  /**
   * The redirect to {@code scheme://hostname:port path} with the API's port rule: the port is left out when it is the
   * scheme's well-known one (80 for http, 443 for https).
   */
  static Redirect of(int statusCode, String scheme, String hostname, int port, String path) {
    boolean wellKnown = (scheme.equals("http") && port == 80) || (scheme.equals("https") && port == 443);
    return new Redirect(statusCode, scheme, hostname, wellKnown ? null : port, path);
  }

  /** The {@code Location} header: {@code scheme://hostname[:port]path}. */
  public String location() {
    return scheme + "://" + hostname + (port == null ? "" : ":" + port) + path;
  }
}
