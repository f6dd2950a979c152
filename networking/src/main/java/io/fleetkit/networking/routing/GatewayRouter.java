package io.fleetkit.networking.routing;

import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewayStatus;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteFilter;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.gateway.Listener;
import io.fleetkit.api.gateway.ListenerStatus;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.networking.gateway.AttachedRoute;
import io.fleetkit.networking.gateway.Conditions;
import io.fleetkit.networking.gateway.GatewayAttachment;
import io.fleetkit.networking.gateway.Hostnames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Routes a request that reaches a Gateway on a port, as a Gateway data plane does: the listener on that port whose
 * hostname matches the request's host most specifically (exact, then the longest wildcard, then a listener without
 * hostname) takes it; only routes accepted on that listener compete, each serving the intersection of its hostnames
 * with the listener's, with {@link HttpRouteRouter}'s matching and precedence. The winning rule's backends that
 * cannot be resolved (see {@link GatewayAttachment#backendProblem}) receive no traffic: their share is answered
 * 500, and a rule left without a usable backend answers 500. A {@code RequestMirror} filter whose backend cannot be
 * resolved ({@link GatewayAttachment#mirrorProblem}) is dropped: it sends no copies. A rule with a {@code RequestRedirect} filter answers
 * the redirect instead (the request's scheme is {@code https} on an HTTPS listener, else {@code http}; its port the
 * listener's), one with a {@code CORS} filter answers preflights; the rule's other filters, then those of the
 * chosen backend, say what the backend receives, what is done to its response and where copies go (see
 * {@link RouteResult}). A request on a TLS connection can be routed with the connection's server name (SNI), which
 * selects the listener; a Host that another listener serves is then misdirected (421). Immutable and thread-safe.
 */
public final class GatewayRouter {
  private final GatewayAttachment attachment;
  private final Map<String, HttpRouteRouter> perListener = new HashMap<>();
  private final Map<String, HTTPRoute> originals = new HashMap<>();

  public GatewayRouter(GatewayAttachment attachment) {
    this.attachment = attachment;
    for (Map.Entry<String, Gateway> e : attachment.gatewayObjects().entrySet()) {
      for (Listener l : e.getValue().spec().listeners()) {
        List<HTTPRoute> views = new ArrayList<>();
        for (AttachedRoute a : attachment.attached(e.getKey(), l.name())) {
          HTTPRoute r = a.route();
          originals.put(r.metadata().key(), r);
          views.add(new HTTPRoute(r.metadata(),
              new HTTPRouteSpec(r.spec().parentRefs(), a.hostnames(), r.spec().rules())));
        }
        perListener.put(e.getKey() + "#" + l.name(), new HttpRouteRouter(views));
      }
    }
  }

  /** The Gateways ({@code namespace/name}) that have a listener on {@code port}, in input order. */
  public List<String> gatewaysOn(int port) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Gateway> e : attachment.gatewayObjects().entrySet()) {
      for (Listener l : e.getValue().spec().listeners()) {
        if (l.port() == port) {
          out.add(e.getKey());
          break;
        }
      }
    }
    return out;
  }

  /**
   * Where {@code request}, arriving at Gateway {@code gateway} ({@code namespace/name}) on {@code port}, goes.
   *
   * @throws IllegalArgumentException when no such Gateway was given
   */
  public RouteResult route(String gateway, int port, HttpRequest request) {
    Gateway g = gateway(gateway);
    String host = request.hostname();
    Listener best = listenerFor(g, port, host);
    String gw = "Gateway " + gateway;
    if (!onPort(g, port)) {
      return RouteResult.notFound(gw + " has no listener on port " + port);
    }
    if (best == null) {
      return RouteResult.notFound(gw + " has no listener on port " + port + " for host \"" + host + "\" (404)");
    }
    return route(gateway, best, port, request);
  }

  /**
   * Where {@code request}, sent over a TLS connection to Gateway {@code gateway} on {@code port} whose ClientHello
   * named {@code serverName} (SNI), goes. The listener the server name selects (by the same hostname matching as
   * the Host header) serves the connection; a request whose Host another listener on the port matches as well or
   * better is misdirected and answered 421, as {@code apis/v1/gateway_types.go} ({@code Listener.Hostname}) asks:
   * "If another Listener has an exact match or more specific wildcard entry, the Gateway SHOULD return a 421", and
   * when the connection's listener does not match the Host, 421 if another listener does, else 404. The handshake
   * itself is not modelled: a server name that no listener on the port matches is answered as a request without a
   * listener (404), where a real Gateway fails the handshake.
   *
   * @throws IllegalArgumentException when no such Gateway was given
   */
  public RouteResult route(String gateway, int port, String serverName, HttpRequest request) {
    Gateway g = gateway(gateway);
    String gw = "Gateway " + gateway;
    if (!onPort(g, port)) {
      return RouteResult.notFound(gw + " has no listener on port " + port);
    }
    Listener connection = listenerFor(g, port, serverName);
    if (connection == null) {
      return RouteResult.notFound(gw + " has no listener on port " + port + " for server name \"" + serverName
          + "\": the TLS handshake would fail (404)");
    }
    String host = request.hostname();
    Listener byHost = listenerFor(g, port, host);
    if (byHost == null) {
      return RouteResult.notFound(gw + " has no listener on port " + port + " for host \"" + host + "\" (404)");
    }
    if (byHost != connection) {
      return RouteResult.misdirected(gw + ": host \"" + host + "\" is served by listener " + byHost.name()
          + ", not by listener " + connection.name() + " which server name \"" + serverName
          + "\" selected (421 Misdirected Request)");
    }
    return route(gateway, connection, port, request);
  }

  private Gateway gateway(String gateway) {
    Gateway g = attachment.gatewayObjects().get(gateway);
    if (g == null) {
      throw new IllegalArgumentException("Gateway " + gateway + " not found (known: "
          + attachment.gatewayObjects().keySet() + ")");
    }
    return g;
  }

  private static boolean onPort(Gateway g, int port) {
    return g.spec().listeners().stream().anyMatch(l -> l.port() == port);
  }

  /**
   * The listener on {@code port} whose hostname matches {@code host} most specifically (exact, then the longest
   * wildcard, then one without hostname), the first of equals; {@code null} when none matches.
   */
  private static @Nullable Listener listenerFor(Gateway g, int port, String host) {
    Listener best = null;
    int bestScore = -1;
    for (Listener l : g.spec().listeners()) {
      if (l.port() != port) {
        continue;
      }
      int s = Hostnames.listenerScore(l.hostname(), host);
      if (s > bestScore) {
        best = l;
        bestScore = s;
      }
    }
    return best;
  }

  private RouteResult route(String gateway, Listener best, int port, HttpRequest request) {
    GatewayStatus status = attachment.gateway(gateway);
    String host = request.hostname();
    String gw = "Gateway " + gateway;
    String at = gw + " listener " + best.name() + (best.hostname().isEmpty() ? "" : " (" + best.hostname() + ")");
    ListenerStatus ls = status == null ? null : status.listener(best.name());
    Condition programmed = ls == null ? null : ls.condition(Conditions.PROGRAMMED);
    if (programmed == null || !programmed.isTrue()) {
      String why = ls == null ? "" : notProgrammedReason(ls);
      return RouteResult.notFound(at + " is not programmed" + why + " (404)");
    }
    HttpRouteRouter.Candidate c = perListener.get(gateway + "#" + best.name()).find(request);
    if (c == null) {
      return RouteResult.notFound(at + ": no attached HTTPRoute rule matches host \"" + host + "\" path \""
          + request.path() + "\" (404)");
    }
    HTTPRoute route = originals.get(c.route().metadata().key());
    String routeName = HTTPRoute.KIND + "/" + route.metadata().key();
    String why = at + ": rule " + c.ruleIndex() + HttpRouteRouter.named(c.rule()) + " match " + c.matchIndex()
        + " of " + routeName;
    String scheme = best.protocol().equals("HTTPS") ? "https" : "http";
    String ns = route.metadata().namespace();
    List<String> droppedMirrors = new ArrayList<>();
    HTTPRouteRule rule = resolvedMirrors(route, c.ruleIndex(), c.rule(), droppedMirrors);
    if (!droppedMirrors.isEmpty()) {
      why += "; unresolved mirrors dropped: " + String.join("; ", droppedMirrors);
    }
    RouteResult answered = RouteFilters.ruleAnswer(routeName, why, rule, c.match(), request, scheme, port, ns);
    if (answered != null) {
      return answered;
    }
    List<HTTPBackendRef> refs = rule.backendRefs();
    List<String> problems = new ArrayList<>();
    String[] problemOf = new String[refs.size()];
    for (int i = 0; i < refs.size(); i++) {
      problemOf[i] = attachment.backendProblem(route, c.ruleIndex(), i);
      if (problemOf[i] != null) {
        problems.add(problemOf[i]);
      }
    }
    if (!problems.isEmpty()) {
      why += "; unusable backends answer 500: " + String.join("; ", problems);
    }
    List<RouteResult.Backend> backends = new ArrayList<>();
    RouteResult.Backend heaviest = null;
    for (int i = 0; i < refs.size(); i++) {
      HTTPBackendRef b = refs.get(i);
      String service = (b.namespace().isEmpty() ? ns : b.namespace()) + "/" + b.name();
      Object bport = b.port() == null ? 0 : b.port();
      boolean usable = problemOf[i] == null && b.weight() > 0;
      RouteResult.Backend be = new RouteResult.Backend(service, bport, b.weight(), usable
          ? RouteFilters.backendAnswer(routeName, why, rule, b, service, bport, c.match(), request, scheme, port,
              ns) : null);
      backends.add(be);
      if (usable && (heaviest == null || b.weight() > heaviest.weight())) {
        heaviest = be;
      }
    }
    if (heaviest == null) {
      String none = refs.isEmpty() ? ", which has no backendRefs (500)" : ", but no backend can take traffic (500)";
      return RouteResult.noBackend(routeName, backends, why + none);
    }
    return heaviest.result().withBackends(backends);
  }

  /**
   * {@code rule} without the {@code RequestMirror} filters whose backend does not resolve (the API: such a backend
   * "must be dropped from the Gateway"), in its own filters and its backends'; the same rule when none is dropped.
   * Backends keep their positions.
   *
   * @param dropped receives each dropped mirror's problem
   */
  private HTTPRouteRule resolvedMirrors(HTTPRoute route, int ruleIndex, HTTPRouteRule rule, List<String> dropped) {
    List<HTTPRouteFilter> filters = resolvedMirrors(route, ruleIndex, -1, rule.filters(), dropped);
    List<HTTPBackendRef> refs = new ArrayList<>(rule.backendRefs().size());
    boolean changed = filters != rule.filters();
    for (int i = 0; i < rule.backendRefs().size(); i++) {
      HTTPBackendRef b = rule.backendRefs().get(i);
      List<HTTPRouteFilter> bf = resolvedMirrors(route, ruleIndex, i, b.filters(), dropped);
      changed |= bf != b.filters();
      refs.add(bf == b.filters() ? b : b.withFilters(bf));
    }
    return changed ? new HTTPRouteRule(rule.matches(), refs, filters, rule.name(), rule.timeouts(), rule.retry()) : rule;
  }

  private List<HTTPRouteFilter> resolvedMirrors(HTTPRoute route, int ruleIndex, int backend,
      List<HTTPRouteFilter> filters, List<String> dropped) {
    List<HTTPRouteFilter> kept = null;
    for (int f = 0; f < filters.size(); f++) {
      String problem = attachment.mirrorProblem(route, ruleIndex, backend, f);
      if (problem != null) {
        dropped.add(problem);
        if (kept == null) {
          kept = new ArrayList<>(filters.subList(0, f));
        }
      } else if (kept != null) {
        kept.add(filters.get(f));
      }
    }
    return kept == null ? filters : kept;
  }

  private static String notProgrammedReason(ListenerStatus ls) {
    for (Condition c : ls.conditions()) {
      if (!c.isTrue() && !c.type().equals(Conditions.CONFLICTED) && !c.type().equals(Conditions.PROGRAMMED)) {
        return ": " + c.type() + "=" + c.status() + " " + c.reason() + (c.message().isEmpty() ? "" : " (" + c.message()
            + ")");
      }
    }
    return "";
  }

  /** Problems of the manifests, one line per route parent that did not accept or resolve: for explanations. */
  public List<String> problems() {
    List<String> out = new ArrayList<>();
    for (var p : attachment.routes()) {
      for (Condition c : p.status().conditions()) {
        if (!c.isTrue()) {
          out.add(HTTPRoute.KIND + "/" + p.route() + " on Gateway " + p.gateway() + ": " + c.type() + "="
              + c.status() + " " + c.reason() + (c.message().isEmpty() ? "" : " (" + c.message() + ")"));
        }
      }
    }
    return out;
  }
}
