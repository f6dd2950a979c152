package io.fleetkit.networking.routing;

import io.fleetkit.api.networking.HTTPIngressPath;
import io.fleetkit.api.networking.Ingress;
import io.fleetkit.api.networking.IngressBackend;
import io.fleetkit.api.networking.IngressClass;
import io.fleetkit.api.networking.IngressRule;
import io.fleetkit.api.networking.PathType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Routes requests through Ingresses as the Ingress API and its conformance suite define: hosts match exactly or by
 * a {@code *.} wildcard covering exactly one label (a rule without host matches every host); {@code Exact} paths
 * match the whole path, {@code Prefix} (and {@code ImplementationSpecific}) paths element-wise; among matching
 * paths the longest wins and {@code Exact} beats {@code Prefix} on a tie; an exact host rule is preferred to a
 * wildcard one, and both to a rule without host; a request matching no rule goes to a default backend (of the
 * oldest Ingress that has one) or gets 404. Only Ingresses whose class exists (and, when a controller is given, is
 * served by that controller) are used; an Ingress without class gets the default class
 * ({@link #defaultClass}).
 */
public final class IngressRouter {
  private final List<Ingress> served;

  /**
   * @param controller the controller name to serve ({@code IngressClass.spec.controller}); {@code null} serves
   *     every existing class
   */
  public IngressRouter(List<IngressClass> classes, List<Ingress> ingresses, @Nullable String controller) {
    Map<String, IngressClass> byName = new HashMap<>();
    classes.forEach(c -> byName.put(c.metadata().name(), c));
    IngressClass dflt = defaultClass(classes);
    List<Ingress> out = new ArrayList<>();
    for (Ingress i : ingresses) {
      String cls = i.spec().ingressClassName();
      if (cls.isEmpty()) {
        cls = i.metadata().annotations().getOrDefault(Ingress.CLASS_ANNOTATION, "");
      }
      if (cls.isEmpty() && dflt != null) {
        cls = dflt.metadata().name();
      }
      IngressClass c = byName.get(cls);
      if (c != null && (controller == null || c.controller().equals(controller))) {
        out.add(i);
      }
    }
    out.sort(Comparator.comparing((Ingress i) -> created(i.metadata().creationTimestamp()))
        .thenComparing(i -> i.metadata().key()));
    this.served = List.copyOf(out);
  }

  private static Instant created(@Nullable Instant t) {
    return t == null ? Instant.MIN : t;
  }

  /**
   * The default IngressClass (the DefaultIngressClass admission plugin's choice): among classes annotated
   * {@code ingressclass.kubernetes.io/is-default-class: "true"}, the newest, ties by name ascending; {@code null}
   * when none.
   */
  public static @Nullable IngressClass defaultClass(List<IngressClass> classes) {
    IngressClass best = null;
    for (IngressClass c : classes) {
      if (!c.isDefault()) {
        continue;
      }
      if (best == null) {
        best = c;
        continue;
      }
      int cmp = created(c.metadata().creationTimestamp()).compareTo(created(best.metadata().creationTimestamp()));
      if (cmp > 0 || (cmp == 0 && c.metadata().name().compareTo(best.metadata().name()) < 0)) {
        best = c;
      }
    }
    return best;
  }

  /**
   * The DefaultIngressClass admission step for a new Ingress: fills {@code ingressClassName} with the default
   * class when neither it nor the legacy annotation is set.
   */
  public static Ingress admit(Ingress ingress, List<IngressClass> classes) {
    if (!ingress.spec().ingressClassName().isEmpty()
        || ingress.metadata().annotations().containsKey(Ingress.CLASS_ANNOTATION)) {
      return ingress;
    }
    IngressClass d = defaultClass(classes);
    return d == null ? ingress : ingress.withSpec(ingress.spec().withIngressClassName(d.metadata().name()));
  }

  /** The Ingresses this router serves, oldest first. */
  public List<Ingress> served() {
    return served;
  }

  private record Candidate(Ingress ingress, int hostRank, HTTPIngressPath path, int order) {}

  /** Where {@code request} goes. */
  public RouteResult route(HttpRequest request) {
    String host = request.hostname();
    Candidate best = null;
    int order = 0;
    for (Ingress ing : served) {
      for (IngressRule rule : ing.spec().rules()) {
        int rank = hostRank(rule.host(), host);
        if (rank < 0) {
          continue;
        }
        for (HTTPIngressPath p : rule.paths()) {
          order++;
          if (!pathMatches(p, request.path())) {
            continue;
          }
          Candidate c = new Candidate(ing, rank, p, order);
          if (best == null || better(c, best)) {
            best = c;
          }
        }
      }
    }
    if (best != null) {
      return result(best.ingress, best.path.backend(), "matched host rule \"" + hostOf(best) + "\" path "
          + best.path.pathType() + " " + best.path.path(), request);
    }
    for (Ingress ing : served) {
      IngressBackend d = ing.spec().defaultBackend();
      if (d != null) {
        return result(ing, d, "no rule matched; default backend", request);
      }
    }
    return RouteResult.notFound("no Ingress rule matches host \"" + host + "\" path \"" + request.path()
        + "\" and no default backend is set (404)");
  }

  private static String hostOf(Candidate c) {
    for (IngressRule r : c.ingress.spec().rules()) {
      if (r.paths().contains(c.path)) {
        return r.host().isEmpty() ? "*" : r.host();
      }
    }
    return "*";
  }

  private static boolean better(Candidate a, Candidate b) {
    if (a.hostRank != b.hostRank) {
      return a.hostRank > b.hostRank;
    }
    int la = Paths.trimTrailingSlash(a.path.path()).length();
    int lb = Paths.trimTrailingSlash(b.path.path()).length();
    if (la != lb) {
      return la > lb;
    }
    boolean ea = a.path.pathType() == PathType.Exact;
    boolean eb = b.path.pathType() == PathType.Exact;
    if (ea != eb) {
      return ea;
    }
    return a.order < b.order;
  }

  private static RouteResult result(Ingress ing, IngressBackend b, String message, HttpRequest request) {
    String svc = ing.metadata().namespace() + "/" + b.serviceName();
    Object port = b.portName().isEmpty() ? (Object) b.portNumber() : b.portName();
    return RouteResult.unfiltered(Ingress.KIND + "/" + ing.metadata().key(), svc, port,
        List.of(new RouteResult.Backend(svc, port, 1)), 200, message, request);
  }

  /** 2 exact, 1 wildcard, 0 no host, -1 no match. */
  static int hostRank(String ruleHost, String host) {
    if (ruleHost.isEmpty()) {
      return 0;
    }
    String r = ruleHost.toLowerCase(Locale.ROOT);
    if (r.startsWith("*.")) {
      String suffix = r.substring(1);
      if (host.endsWith(suffix)) {
        String first = host.substring(0, host.length() - suffix.length());
        return !first.isEmpty() && first.indexOf('.') < 0 ? 1 : -1;
      }
      return -1;
    }
    return r.equals(host) ? 2 : -1;
  }

  static boolean pathMatches(HTTPIngressPath p, String path) {
    if (p.pathType() == PathType.Exact) {
      return p.path().equals(path);
    }
    return Paths.prefixMatches(p.path(), path);
  }
}
