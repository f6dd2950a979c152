package io.fleetkit.api.gateway;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Duration;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.jspecify.annotations.Nullable;

/**
 * An HTTPRoute ({@code gateway.networking.k8s.io/v1}), with the status its parents' controllers write (one entry
 * per parent, {@link HTTPRouteStatus#EMPTY} until then; replaced only by a status update).
 *
 * <p>The constructor checks the API's rules and reports every violation at once: at most 16 hostnames, each a
 * DNS-1123 subdomain with an optional leading {@code *.} (no IP addresses); at most 16 rules of at most 64 matches;
 * {@code Exact} and {@code PathPrefix} values start with {@code /} and contain none of {@code //}, {@code /./},
 * {@code /../}, {@code %2f}, {@code %2F}, {@code #} and do not end in {@code /..} or {@code /.}; regular
 * expressions compile; methods are one of the API's nine; backend weights are in 0..1,000,000 and ports in
 * 1..65535. Filters follow the API's CEL rules: a filter's type and its field go
 * together; in a rule's and in a backend's filters {@code RequestRedirect} and {@code URLRewrite} are not
 * combined and no filter type but {@code RequestMirror} is repeated; a rule-level redirect has no
 * {@code backendRefs}; {@code ReplacePrefixMatch} needs exactly one {@code PathPrefix} match; header names, redirect
 * schemes, ports and status codes, host names and path lengths are checked; a mirror has a Service port and at most
 * one of {@code percent} (0..100) and {@code fraction} (numerator &lt;= denominator); CORS lists are sets, with
 * {@code *} alone where present, origins matching the API's pattern and {@code maxAge} at least 1. Rule names are
 * DNS-1123 subdomains, unique within the route; timeouts are Gateway API Durations, the backend's not longer than
 * the request's; a retry policy's codes are unique and in 400..599, its {@code attempts} at least 1 and its
 * {@code backoff} a Duration.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken
 */
public record HTTPRoute(ObjectMeta metadata, HTTPRouteSpec spec, HTTPRouteStatus status)
    implements ApiObject<HTTPRoute> {
  public static final String API_VERSION = "gateway.networking.k8s.io/v1";
  public static final String KIND = "HTTPRoute";
  public static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS",
      "TRACE", "PATCH");

  public HTTPRoute {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    validate(metadata, spec);
  }

  /** A route without status. */
  public HTTPRoute(ObjectMeta metadata, HTTPRouteSpec spec) {
    this(metadata, spec, HTTPRouteStatus.EMPTY);
  }

  private static void validate(ObjectMeta metadata, HTTPRouteSpec spec) {
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    if (spec.hostnames().size() > 16) {
      v.add("spec.hostnames", "must have at most 16 items", spec.hostnames().size());
    }
    for (int i = 0; i < spec.hostnames().size(); i++) {
      String h = spec.hostnames().get(i);
      GatewayRules.hostname(v, "spec.hostnames[" + i + "]", h);
    }
    if (spec.rules().size() > 16) {
      v.add("spec.rules", "must have at most 16 items", spec.rules().size());
    }
    for (int i = 0; i < spec.parentRefs().size(); i++) {
      ParentReference p = spec.parentRefs().get(i);
      String pp = "spec.parentRefs[" + i + "]";
      if (p.name().isEmpty()) {
        v.required(pp + ".name");
      }
      if (p.port() != null) {
        v.portNumber(pp + ".port", p.port());
      }
    }
    Set<String> ruleNames = new HashSet<>();
    for (int i = 0; i < spec.rules().size(); i++) {
      HTTPRouteRule r = spec.rules().get(i);
      String rp = "spec.rules[" + i + "]";
      if (!r.name().isEmpty()) {
        v.dnsSubdomain(rp + ".name", r.name());
        if (!ruleNames.add(r.name())) {
          v.add(rp + ".name", "Rule name must be unique within the route", r.name());
        }
      }
      if (r.matches().size() > 64) {
        v.add(rp + ".matches", "must have at most 64 items", r.matches().size());
      }
      for (int j = 0; j < r.matches().size(); j++) {
        match(v, rp + ".matches[" + j + "]", r.matches().get(j));
      }
      for (int j = 0; j < r.backendRefs().size(); j++) {
        HTTPBackendRef b = r.backendRefs().get(j);
        String bp = rp + ".backendRefs[" + j + "]";
        if (b.isService()) {
          v.dnsLabel(bp + ".name", b.name());
        } else if (b.name().isEmpty()) {
          v.required(bp + ".name");
        }
        if (b.weight() < 0 || b.weight() > 1_000_000) {
          v.add(bp + ".weight", "must be between 0 and 1000000, inclusive", b.weight());
        }
        Integer port = b.port();
        if (port == null && b.isService()) {
          v.add(bp + ".port", "must be specified when referencing a Service", null);
        } else if (port != null) {
          v.portNumber(bp + ".port", port);
        }
      }
      HTTPRouteFilterRules.rule(v, rp, r);
      timeouts(v, rp + ".timeouts", r.timeouts());
      retry(v, rp + ".retry", r.retry());
    }
    v.throwIfAny();
  }

  private static void timeouts(Violations v, String field, @Nullable HTTPRouteTimeouts t) {
    if (t == null) {
      return;
    }
    String[][] parts = {{"request", t.request()}, {"backendRequest", t.backendRequest()}};
    for (String[] p : parts) {
      if (p[1] != null && !HTTPRouteTimeouts.DURATION.matcher(p[1]).matches()) {
        v.add(field + "." + p[0], "must match " + HTTPRouteTimeouts.DURATION.pattern(), p[1]);
      }
    }
    Duration request = HTTPRouteTimeouts.parse(t.request());
    Duration backend = HTTPRouteTimeouts.parse(t.backendRequest());
    if (request != null && backend != null && !request.isZero() && backend.compareTo(request) > 0) {
      v.add(field, "backendRequest timeout cannot be longer than request timeout", t.backendRequest());
    }
  }

  private static void retry(Violations v, String field, @Nullable HTTPRouteRetry r) {
    if (r == null) {
      return;
    }
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < r.codes().size(); i++) {
      int c = r.codes().get(i);
      String cp = field + ".codes[" + i + "]";
      if (c < 400) {
        v.add(cp, "must be greater than or equal to 400", c);
      } else if (c > 599) {
        v.add(cp, "must be less than or equal to 599", c);
      }
      if (!seen.add(c)) {
        v.add(cp, Violations.DUPLICATE, c);
      }
    }
    if (r.attempts() != null && r.attempts() < 1) {
      v.add(field + ".attempts", "must be greater than or equal to 1", r.attempts());
    }
    if (r.backoff() != null && !HTTPRouteTimeouts.DURATION.matcher(r.backoff()).matches()) {
      v.add(field + ".backoff", "must match " + HTTPRouteTimeouts.DURATION.pattern(), r.backoff());
    }
  }

  private static void match(Violations v, String field, HTTPRouteMatch m) {
    HTTPPathMatch p = m.path();
    if (p.type() == PathMatchType.RegularExpression) {
      regex(v, field + ".path.value", p.value());
    } else {
      String val = p.value();
      if (!val.startsWith("/")) {
        v.add(field + ".path.value", "must be an absolute path", val);
      }
      for (String bad : new String[] {"//", "/./", "/../", "%2f", "%2F", "#"}) {
        if (val.contains(bad)) {
          v.add(field + ".path.value", "must not contain '" + bad + "'", val);
        }
      }
      if (val.endsWith("/..") || val.endsWith("/.")) {
        v.add(field + ".path.value", "must not end with '/..' or '/.'", val);
      }
    }
    for (int i = 0; i < m.headers().size(); i++) {
      HTTPHeaderMatch h = m.headers().get(i);
      if (h.name().isEmpty()) {
        v.required(field + ".headers[" + i + "].name");
      }
      if (h.type() == ValueMatchType.RegularExpression) {
        regex(v, field + ".headers[" + i + "].value", h.value());
      }
    }
    for (int i = 0; i < m.queryParams().size(); i++) {
      HTTPQueryParamMatch q = m.queryParams().get(i);
      if (q.name().isEmpty()) {
        v.required(field + ".queryParams[" + i + "].name");
      }
      if (q.type() == ValueMatchType.RegularExpression) {
        regex(v, field + ".queryParams[" + i + "].value", q.value());
      }
    }
    if (!m.method().isEmpty() && !METHODS.contains(m.method())) {
      v.add(field + ".method", "must be one of " + String.join(", ", new java.util.TreeSet<>(METHODS)), m.method());
    }
  }

  private static void regex(Violations v, String field, String value) {
    try {
      Pattern.compile(value);
    } catch (PatternSyntaxException e) {
      v.add(field, "must be a valid regular expression: " + e.getDescription(), value);
    }
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public HTTPRoute withMetadata(ObjectMeta m) {
    return new HTTPRoute(m, spec, status);
  }

  /** This route with {@code s} as its status. */
  public HTTPRoute withStatus(HTTPRouteStatus s) {
    return new HTTPRoute(metadata, spec, s);
  }

  @Override
  public HTTPRoute withStatusOf(HTTPRoute other) {
    return new HTTPRoute(metadata, spec, other.status);
  }
}
