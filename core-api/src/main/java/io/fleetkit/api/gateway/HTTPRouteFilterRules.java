package io.fleetkit.api.gateway;

import io.fleetkit.api.Violations;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The Gateway API's rules for the filters of an HTTPRoute rule: the CEL rules of {@code HTTPRouteFilter},
 * {@code HTTPRouteRule} and {@code HTTPPathModifier} (with their messages), and the OpenAPI limits of the fields
 * (enums, lengths, patterns, list sizes), as the CRDs of {@code apis/v1/httproute_types.go} enforce them.
 */
final class HTTPRouteFilterRules {
  /** {@code HeaderName}'s pattern. */
  private static final Pattern HEADER_NAME = Pattern.compile("[A-Za-z0-9!#$%&'*+\\-.^_`|~]+");

  private HTTPRouteFilterRules() {}

  static void rule(Violations v, String rp, HTTPRouteRule r) {
    List<HTTPRouteFilter> filters = r.filters();
    String fp = rp + ".filters";
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
      if (e.getValue() > 1) {
        v.add(fp, e.getKey() + " filter cannot be repeated", e.getValue());
      }
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
      headerName(v, field + ".remove[" + i + "]", n);
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
      headerName(v, p + ".name", h.name());
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

  private static void headerName(Violations v, String field, String name) {
    if (name.isEmpty()) {
      v.required(field);
    } else if (name.length() > 256) {
      v.add(field, "must have at most 256 characters", name.length());
    } else if (!HEADER_NAME.matcher(name).matches()) {
      v.add(field, "must be an HTTP header name (matching ^[A-Za-z0-9!#$%&'*+\\-.^_`|~]+$)", name);
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
