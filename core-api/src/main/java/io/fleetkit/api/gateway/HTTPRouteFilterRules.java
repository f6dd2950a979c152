package io.fleetkit.api.gateway;

import io.fleetkit.api.Violations;
import io.fleetkit.api.internal.HttpHeaderNames;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The Gateway API's rules for the filters of an HTTPRoute rule: the CEL rules of {@code HTTPRouteFilter},
 * {@code HTTPRouteRule}, {@code HTTPBackendRef}, {@code HTTPPathModifier}, {@code HTTPRequestMirrorFilter},
 * {@code Fraction} and {@code HTTPCORSFilter} (with their messages), and the OpenAPI limits of the fields
 * (enums, lengths, patterns, list sizes), as the CRDs of {@code apis/v1/httproute_types.go} enforce them.
 */
final class HTTPRouteFilterRules {
  /** {@code HeaderName}'s pattern. */
  /** {@code CORSOrigin}'s pattern. */
  private static final Pattern CORS_ORIGIN = Pattern.compile(
      "(^\\*$)|(^(http(s)?):\\/\\/(((\\*\\.)?([a-zA-Z0-9\\-]+\\.)*[a-zA-Z0-9-]+|\\*)(:([0-9]{1,5}))?)$)");

  private HTTPRouteFilterRules() {}

  static void rule(Violations v, String rp, HTTPRouteRule r) {
    List<HTTPRouteFilter> filters = r.filters();
    filterList(v, rp + ".filters", filters);
    for (int j = 0; j < r.backendRefs().size(); j++) {
      filterList(v, rp + ".backendRefs[" + j + "].filters", r.backendRefs().get(j).filters());
    }
    boolean redirect = filters.stream().anyMatch(f -> f.requestRedirect() != null);
    if (redirect && !r.backendRefs().isEmpty()) {
      v.add(rp, "RequestRedirect filter must not be used together with backendRefs", r.backendRefs().size());
    }
    // the CEL rule reads the defaulted matches: no matches is one PathPrefix "/" match
    List<HTTPRouteMatch> ms = r.effectiveMatches();
    boolean onePrefix = ms.size() == 1 && ms.get(0).path().type() == PathMatchType.PathPrefix;
    if (!onePrefix && filters.stream().anyMatch(f -> f.requestRedirect() != null
        && replacesPrefix(f.requestRedirect().path()))) {
      v.add(rp, "When using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must "
          + "be specified", ms.size());
    }
    if (!onePrefix && filters.stream().anyMatch(f -> f.urlRewrite() != null && replacesPrefix(f.urlRewrite().path()))) {
      v.add(rp, "When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be "
          + "specified", ms.size());
    }
    // The API's CEL rules for backend filters use exists_one over the backends: they only apply when exactly one
    // backend has such a filter, and are reproduced as written.
    long redirects = r.backendRefs().stream().filter(b -> b.filters().stream().anyMatch(f -> f.requestRedirect() != null
        && replacesPrefix(f.requestRedirect().path()))).count();
    if (!onePrefix && redirects == 1) {
      v.add(rp, "Within backendRefs, when using RequestRedirect filter with path.replacePrefixMatch, exactly one "
          + "PathPrefix match must be specified", ms.size());
    }
    long rewrites = r.backendRefs().stream().filter(b -> b.filters().stream().anyMatch(f -> f.urlRewrite() != null
        && replacesPrefix(f.urlRewrite().path()))).count();
    if (!onePrefix && rewrites == 1) {
      v.add(rp, "Within backendRefs, When using URLRewrite filter with path.replacePrefixMatch, exactly one "
          + "PathPrefix match must be specified", ms.size());
    }
  }

  /** The rules of a filter list, the same for a rule's and a backend's filters. */
  private static void filterList(Violations v, String fp, List<HTTPRouteFilter> filters) {
    if (filters.size() > 16) {
      v.add(fp, "must have at most 16 items", filters.size());
    }
    Map<HTTPRouteFilterType, Integer> count = new EnumMap<>(HTTPRouteFilterType.class);
    for (int i = 0; i < filters.size(); i++) {
      HTTPRouteFilter f = filters.get(i);
      count.merge(f.type(), 1, Integer::sum);
      filter(v, fp + "[" + i + "]", f);
    }
    if (count.containsKey(HTTPRouteFilterType.RequestRedirect) && count.containsKey(HTTPRouteFilterType.URLRewrite)) {
      v.add(fp, "May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both",
          null);
    }
    for (Map.Entry<HTTPRouteFilterType, Integer> e : count.entrySet()) {
      if (e.getValue() > 1 && !e.getKey().repeatable()) {
        v.add(fp, e.getKey() + " filter cannot be repeated", e.getValue());
      }
    }
  }

  private static boolean replacesPrefix(@Nullable HTTPPathModifier p) {
    return p != null && p.type() == HTTPPathModifierType.ReplacePrefixMatch && p.replacePrefixMatch() != null;
  }

  private static void filter(Violations v, String field, HTTPRouteFilter f) {
    union(v, field, f.type(), HTTPRouteFilterType.RequestHeaderModifier, "requestHeaderModifier",
        f.requestHeaderModifier());
    union(v, field, f.type(), HTTPRouteFilterType.ResponseHeaderModifier, "responseHeaderModifier",
        f.responseHeaderModifier());
    union(v, field, f.type(), HTTPRouteFilterType.RequestRedirect, "requestRedirect", f.requestRedirect());
    union(v, field, f.type(), HTTPRouteFilterType.URLRewrite, "urlRewrite", f.urlRewrite());
    union(v, field, f.type(), HTTPRouteFilterType.RequestMirror, "requestMirror", f.requestMirror());
    union(v, field, f.type(), HTTPRouteFilterType.CORS, "cors", f.cors());
    if (f.requestMirror() != null) {
      mirror(v, field + ".requestMirror", f.requestMirror());
    }
    if (f.cors() != null) {
      cors(v, field + ".cors", f.cors());
    }
    if (f.requestHeaderModifier() != null) {
      headers(v, field + ".requestHeaderModifier", f.requestHeaderModifier());
    }
    if (f.responseHeaderModifier() != null) {
      headers(v, field + ".responseHeaderModifier", f.responseHeaderModifier());
    }
    HTTPRequestRedirectFilter rd = f.requestRedirect();
    if (rd != null) {
      String p = field + ".requestRedirect";
      if (rd.scheme() != null && !HTTPRequestRedirectFilter.SCHEMES.contains(rd.scheme())) {
        v.add(p + ".scheme", "must be one of http, https", rd.scheme());
      }
      if (rd.hostname() != null) {
        v.dnsSubdomain(p + ".hostname", rd.hostname());
      }
      if (rd.path() != null) {
        path(v, p + ".path", rd.path());
      }
      if (rd.port() != null) {
        v.portNumber(p + ".port", rd.port());
      }
      if (!HTTPRequestRedirectFilter.STATUS_CODES.contains(rd.statusCode())) {
        v.add(p + ".statusCode", "must be one of 301, 302, 303, 307, 308", rd.statusCode());
      }
    }
    HTTPURLRewriteFilter rw = f.urlRewrite();
    if (rw != null) {
      if (rw.hostname() != null) {
        v.dnsSubdomain(field + ".urlRewrite.hostname", rw.hostname());
      }
      if (rw.path() != null) {
        path(v, field + ".urlRewrite.path", rw.path());
      }
    }
  }

  private static void mirror(Violations v, String field, HTTPRequestMirrorFilter m) {
    BackendObjectReference b = m.backendRef();
    String bp = field + ".backendRef";
    if (b.isService()) {
      v.dnsLabel(bp + ".name", b.name());
    } else if (b.name().isEmpty()) {
      v.required(bp + ".name");
    }
    if (b.port() == null && b.group().isEmpty() && (b.kind().isEmpty() || b.kind().equals("Service"))) {
      v.add(bp, "Must have port for Service reference", null);
    } else if (b.port() != null) {
      v.portNumber(bp + ".port", b.port());
    }
    if (m.percent() != null && m.fraction() != null) {
      v.add(field, "Only one of percent or fraction may be specified in HTTPRequestMirrorFilter", null);
    }
    if (m.percent() != null && (m.percent() < 0 || m.percent() > 100)) {
      v.add(field + ".percent", "must be between 0 and 100, inclusive", m.percent());
    }
    Fraction fr = m.fraction();
    if (fr != null) {
      if (fr.numerator() < 0) {
        v.add(field + ".fraction.numerator", "must be greater than or equal to 0", fr.numerator());
      }
      if (fr.denominator() < 1) {
        v.add(field + ".fraction.denominator", "must be greater than or equal to 1", fr.denominator());
      }
      if (fr.numerator() > fr.denominator()) {
        v.add(field + ".fraction", "numerator must be less than or equal to denominator", fr.numerator() + "/"
            + fr.denominator());
      }
    }
  }

  private static void cors(Violations v, String field, HTTPCORSFilter c) {
    String op = field + ".allowOrigins";
    if (c.allowOrigins().size() > 64) {
      v.add(op, "must have at most 64 items", c.allowOrigins().size());
    }
    if (c.allowOrigins().contains("*") && c.allowOrigins().size() > 1) {
      v.add(op, "AllowOrigins cannot contain '*' alongside other origins", c.allowOrigins().size());
    }
    for (int i = 0; i < c.allowOrigins().size(); i++) {
      String o = c.allowOrigins().get(i);
      if (o.isEmpty()) {
        v.required(op + "[" + i + "]");
      } else if (o.length() > 253) {
        v.add(op + "[" + i + "]", "must have at most 253 characters", o.length());
      } else if (!CORS_ORIGIN.matcher(o).matches()) {
        v.add(op + "[" + i + "]", "must be an origin (matching " + CORS_ORIGIN.pattern() + ")", o);
      }
    }
    set(v, op, c.allowOrigins());
    String mp = field + ".allowMethods";
    if (c.allowMethods().size() > 9) {
      v.add(mp, "must have at most 9 items", c.allowMethods().size());
    }
    if (c.allowMethods().contains("*") && c.allowMethods().size() > 1) {
      v.add(mp, "AllowMethods cannot contain '*' alongside other methods", c.allowMethods().size());
    }
    for (int i = 0; i < c.allowMethods().size(); i++) {
      String m = c.allowMethods().get(i);
      if (!m.equals("*") && !HTTPRoute.METHODS.contains(m)) {
        v.add(mp + "[" + i + "]", "must be one of GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH, *",
            m);
      }
    }
    set(v, mp, c.allowMethods());
    String hp = field + ".allowHeaders";
    if (c.allowHeaders().contains("*") && c.allowHeaders().size() > 1) {
      // the API's message says "methods" here
      v.add(hp, "AllowHeaders cannot contain '*' alongside other methods", c.allowHeaders().size());
    }
    headerNames(v, hp, c.allowHeaders());
    headerNames(v, field + ".exposeHeaders", c.exposeHeaders());
    if (c.maxAge() < 1) {
      v.add(field + ".maxAge", "must be greater than or equal to 1", c.maxAge());
    }
  }

  /** A {@code listType=set} list: no value twice. */
  private static void set(Violations v, String field, List<String> values) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < values.size(); i++) {
      if (!seen.add(values.get(i))) {
        v.add(field + "[" + i + "]", Violations.DUPLICATE, values.get(i));
      }
    }
  }

  /** {@code HTTPHeaderName}s; the pattern takes {@code *} too. */
  private static void headerNames(Violations v, String field, List<String> names) {
    if (names.size() > 64) {
      v.add(field, "must have at most 64 items", names.size());
    }
    for (int i = 0; i < names.size(); i++) {
      HttpHeaderNames.check(v, field + "[" + i + "]", names.get(i));
    }
    set(v, field, names);
  }

  /** The union rule: the field of {@code own} is set exactly when the filter's type is {@code own}. */
  private static void union(Violations v, String field, HTTPRouteFilterType type, HTTPRouteFilterType own,
      String name, @Nullable Object value) {
    if (value != null && type != own) {
      v.add(field + "." + name, "filter." + name + " must be nil if the filter.type is not " + own, type);
    } else if (value == null && type == own) {
      v.add(field + "." + name, "filter." + name + " must be specified for " + own + " filter.type", null);
    }
  }

  private static void headers(Violations v, String field, HTTPHeaderFilter h) {
    headerList(v, field + ".set", h.set());
    headerList(v, field + ".add", h.add());
    if (h.remove().size() > 16) {
      v.add(field + ".remove", "must have at most 16 items", h.remove().size());
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < h.remove().size(); i++) {
      String n = h.remove().get(i);
      HttpHeaderNames.check(v, field + ".remove[" + i + "]", n);
      if (!seen.add(n)) {
        v.add(field + ".remove[" + i + "]", Violations.DUPLICATE, n);
      }
    }
  }

  private static void headerList(Violations v, String field, List<HTTPHeader> list) {
    if (list.size() > 16) {
      v.add(field, "must have at most 16 items", list.size());
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      HTTPHeader h = list.get(i);
      String p = field + "[" + i + "]";
      HttpHeaderNames.check(v, p + ".name", h.name());
      if (!seen.add(h.name())) {
        v.add(p + ".name", Violations.DUPLICATE, h.name());
      }
      if (h.value().isEmpty()) {
        v.required(p + ".value");
      } else if (h.value().length() > 4096) {
        v.add(p + ".value", "must have at most 4096 characters", h.value().length());
      }
    }
  }


  private static void path(Violations v, String field, HTTPPathModifier p) {
    String full = p.replaceFullPath();
    String prefix = p.replacePrefixMatch();
    if (p.type() == HTTPPathModifierType.ReplaceFullPath && full == null) {
      v.add(field, "replaceFullPath must be specified when type is set to 'ReplaceFullPath'", null);
    }
    if (full != null && p.type() != HTTPPathModifierType.ReplaceFullPath) {
      v.add(field, "type must be 'ReplaceFullPath' when replaceFullPath is set", p.type());
    }
    if (p.type() == HTTPPathModifierType.ReplacePrefixMatch && prefix == null) {
      v.add(field, "replacePrefixMatch must be specified when type is set to 'ReplacePrefixMatch'", null);
    }
    if (prefix != null && p.type() != HTTPPathModifierType.ReplacePrefixMatch) {
      v.add(field, "type must be 'ReplacePrefixMatch' when replacePrefixMatch is set", p.type());
    }
    if (full != null && full.length() > 1024) {
      v.add(field + ".replaceFullPath", "must have at most 1024 characters", full.length());
    }
    if (prefix != null && prefix.length() > 1024) {
      v.add(field + ".replacePrefixMatch", "must have at most 1024 characters", prefix.length());
    }
  }
}
