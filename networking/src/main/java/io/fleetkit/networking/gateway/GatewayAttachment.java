package io.fleetkit.networking.gateway;

import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.GatewayStatus;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.Listener;
import io.fleetkit.api.gateway.ListenerStatus;
import io.fleetkit.api.gateway.ParentReference;
import io.fleetkit.api.gateway.ReferenceGrant;
import io.fleetkit.api.gateway.RouteGroupKind;
import io.fleetkit.api.gateway.RouteParentStatus;
import io.fleetkit.api.gateway.SecretObjectReference;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Which HTTPRoutes attach to which Gateway listeners, and the status a Gateway controller would write, computed
 * from a set of objects as upstream's conformance suite expects.
 *
 * <p>Listeners: {@code HTTP} and {@code HTTPS} are supported (others are {@code Accepted=False
 * UnsupportedProtocol}); {@code allowedRoutes.kinds} other than {@code HTTPRoute} make {@code ResolvedRefs=False
 * InvalidRouteKinds}; a certificate reference that is no core Secret, names a missing Secret or one without a
 * parseable PEM certificate and matching key ({@link TlsKeyPair}) makes {@code ResolvedRefs=False
 * InvalidCertificateRef}, one to another namespace without a ReferenceGrant there for the Gateway {@code
 * RefNotPermitted}; listeners on one port with protocols that cannot share it are {@code
 * Conflicted=True ProtocolConflict} and not accepted. A listener is {@code Programmed} when accepted with resolved
 * references; only programmed listeners carry traffic, but routes attach (and are counted) on every accepted one.
 * The Gateway is {@code Accepted} (reason {@code ListenersNotValid} when some listener is not) unless no listener is
 * accepted; its {@code ResolvedRefs} is False for a backend client certificate
 * ({@code spec.tls.backend.clientCertificateRef}) that does not resolve as a listener certificate would
 * ({@code InvalidClientCertificateRef}, {@code RefNotPermitted}), else for listeners with unresolved references
 * ({@code ListenersNotResolved}).
 *
 * <p>Routes, per {@code parentRefs} entry: the listeners named by {@code sectionName} and/or {@code port} (none:
 * {@code NoMatchingParent}); the route attaches to each of them that accepts the kind HTTPRoute from the route's
 * namespace ({@code All}, {@code Same}, or a namespace label {@code Selector}) and whose hostname intersects the
 * route's. Otherwise {@code Accepted=False} with {@code NoMatchingListenerHostname} when some listener allowed the
 * route, else {@code NotAllowedByListeners}. A Gateway whose GatewayClass is missing leaves its routes {@code
 * Accepted=Unknown Pending}. {@code ResolvedRefs} comes from the route's backends and its {@code RequestMirror}
 * filters' backends ({@link BackendRefs}).
 *
 * <p>The statuses are the Gateway API's own ({@link GatewayStatus}, {@link RouteParentStatus} in a {@link
 * RouteParent} that names the route and the Gateway), as the controller named at {@link #compute(GatewayObjects,
 * String)} writes them, except that the conditions carry no {@code observedGeneration} or {@code
 * lastTransitionTime}: {@link GatewayStatusController} stamps those when it writes them.
 *
 * <p>Immutable and thread-safe.
 */
public final class GatewayAttachment {
  private static final String HTTP_ROUTE = HTTPRoute.KIND;

  private final Map<String, Gateway> gateways = new LinkedHashMap<>();
  private final Map<String, GatewayStatus> gatewayStatus = new LinkedHashMap<>();
  private final Map<String, List<AttachedRoute>> attached = new HashMap<>();
  private final Map<String, List<RouteParent>> routeStatus = new LinkedHashMap<>();
  private final Map<String, List<List<BackendRefs.@Nullable Problem>>> backendProblems = new HashMap<>();
  private final Map<String, Map<BackendRefs.MirrorAt, BackendRefs.Problem>> mirrorProblems = new HashMap<>();

  private final String controllerName;

  private GatewayAttachment(String controllerName) {
    this.controllerName = controllerName;
  }

  /**
   * Computes attachment and status for {@code objects}, route parent statuses in the name of
   * {@value GatewayStatusController#DEFAULT_CONTROLLER_NAME}.
   */
  public static GatewayAttachment compute(GatewayObjects objects) {
    return compute(objects, GatewayStatusController.DEFAULT_CONTROLLER_NAME);
  }

  /**
   * Computes attachment and status for {@code objects}, route parent statuses carrying {@code controllerName} (the
   * controller that would write them).
   */
  public static GatewayAttachment compute(GatewayObjects objects, String controllerName) {
    GatewayAttachment a = new GatewayAttachment(Objects.requireNonNull(controllerName, "controllerName"));
    a.run(objects);
    return a;
  }

  private record ListenerState(Listener listener, List<String> supportedKinds, boolean accepted,
      List<Condition> conditions) {}

  private void run(GatewayObjects o) {
    Set<String> classes = new HashSet<>();
    for (GatewayClass c : o.classes()) {
      classes.add(c.metadata().name());
    }
    Map<String, Secret> secrets = new HashMap<>();
    // each Secret's PEM check (a signature) once, however many listeners refer to it; "" when it is usable
    Map<String, String> keyPairProblems = new HashMap<>();
    for (Secret s : o.secrets()) {
      secrets.put(s.metadata().key(), s);
    }
    Map<String, Map<String, String>> nsLabels = new HashMap<>();
    for (Namespace n : o.namespaces()) {
      Map<String, String> labels = new HashMap<>(n.metadata().labels());
      labels.put(Namespace.NAME_LABEL, n.metadata().name());
      nsLabels.put(n.metadata().name(), labels);
    }
    Map<String, Service> services = new HashMap<>();
    for (Service s : o.services()) {
      services.put(s.metadata().key(), s);
    }
    Map<String, List<ListenerState>> listeners = new HashMap<>();
    for (Gateway g : o.gateways()) {
      String key = g.metadata().key();
      gateways.put(key, g);
      listeners.put(key, listenerStates(g, secrets, o.grants(), keyPairProblems));
    }
    // Routes.
    BackendRefs backends = new BackendRefs(services, o.grants());
    Map<String, int[]> counts = new HashMap<>();
    for (HTTPRoute r : o.routes()) {
      String rk = r.metadata().key();
      List<List<BackendRefs.@Nullable Problem>> problems = backends.resolve(r);
      backendProblems.put(rk, problems);
      Map<BackendRefs.MirrorAt, BackendRefs.Problem> mirrors = backends.resolveMirrors(r);
      mirrorProblems.put(rk, mirrors);
      Condition resolved = resolvedRefs(problems, mirrors.values());
      List<RouteParent> parents = new ArrayList<>();
      for (ParentReference p : r.spec().parentRefs()) {
        String gwNs = p.namespace().isEmpty() ? r.metadata().namespace() : p.namespace();
        String gk = gwNs + "/" + p.name();
        Condition accepted = attach(r, p, gk, listeners.get(gk), classes, nsLabels, counts);
        parents.add(new RouteParent(rk, gk, new RouteParentStatus(p, controllerName, List.of(accepted, resolved))));
      }
      routeStatus.put(rk, List.copyOf(parents));
    }
    // Gateway status with attached-route counts.
    for (Gateway g : o.gateways()) {
      String key = g.metadata().key();
      List<ListenerStatus> ls = new ArrayList<>();
      boolean allAccepted = true;
      boolean anyAccepted = false;
      boolean anyProgrammed = false;
      List<String> unresolvedListeners = new ArrayList<>();
      for (ListenerState s : listeners.get(key)) {
        int[] n = counts.get(key + "#" + s.listener.name());
        ListenerStatus status = new ListenerStatus(s.listener.name(),
            s.supportedKinds.stream().map(RouteGroupKind::of).toList(), n == null ? 0 : n[0], s.conditions);
        ls.add(status);
        allAccepted &= s.accepted;
        anyAccepted |= s.accepted;
        Condition prog = status.condition(Conditions.PROGRAMMED);
        anyProgrammed |= prog != null && prog.isTrue();
        Condition refs = status.condition(Conditions.RESOLVED_REFS);
        if (refs != null && !refs.isTrue()) {
          unresolvedListeners.add(s.listener.name());
        }
      }
      List<Condition> cs = new ArrayList<>();
      if (!classes.contains(g.spec().gatewayClassName())) {
        String msg = "GatewayClass " + g.spec().gatewayClassName() + " not found";
        cs.add(Condition.of(Conditions.ACCEPTED, ConditionStatus.Unknown, Conditions.PENDING, msg));
        cs.add(Condition.of(Conditions.PROGRAMMED, ConditionStatus.Unknown, Conditions.PENDING, msg));
      } else {
        // Upstream: accepted with reason ListenersNotValid when some listeners are invalid, not accepted when none
        // is valid.
        cs.add(Conditions.of(Conditions.ACCEPTED, anyAccepted, allAccepted ? "Accepted" : Conditions.LISTENERS_NOT_VALID,
            allAccepted ? "" : anyAccepted ? "some listeners are not accepted" : "no listener is accepted"));
        cs.add(Conditions.of(Conditions.PROGRAMMED, anyProgrammed, anyProgrammed ? "Programmed" : Conditions.INVALID,
            anyProgrammed ? "" : "no listener is programmed"));
        cs.add(gatewayResolvedRefs(g, unresolvedListeners, secrets, o.grants(), keyPairProblems));
      }
      gatewayStatus.put(key, new GatewayStatus(cs, ls));
    }
  }

  private static List<ListenerState> listenerStates(Gateway g, Map<String, Secret> secrets,
      List<ReferenceGrant> grants, Map<String, String> keyPairProblems) {
    List<Listener> ls = g.spec().listeners();
    List<ListenerState> out = new ArrayList<>();
    for (Listener l : ls) {
      boolean http = l.protocol().equals("HTTP") || l.protocol().equals("HTTPS");
      List<String> supported = new ArrayList<>();
      List<String> invalidKinds = new ArrayList<>();
      if (l.allowedRoutes().kinds().isEmpty()) {
        if (http) {
          supported.add(HTTP_ROUTE);
        }
      } else {
        for (String k : l.allowedRoutes().kinds()) {
          if (http && k.equals(HTTP_ROUTE)) {
            if (!supported.contains(k)) {
              supported.add(k);
            }
          } else {
            invalidKinds.add(k);
          }
        }
      }
      String conflict = null;
      for (Listener other : ls) {
        if (other != l && other.port() == l.port() && !family(other.protocol()).equals(family(l.protocol()))
            && !other.protocol().equals("UDP") && !l.protocol().equals("UDP")) {
          conflict = "port " + l.port() + " is also used by listener " + other.name() + " (" + other.protocol() + ")";
        }
      }
      String certReason = null;
      List<String> certProblems = new ArrayList<>();
      for (SecretObjectReference c : l.certificateRefs()) {
        String[] p = certificateProblem(g, c, secrets, grants, keyPairProblems);
        if (p != null) {
          certReason = certReason == null ? p[0] : certReason;
          certProblems.add(p[1]);
        }
      }
      List<Condition> cs = new ArrayList<>();
      boolean accepted = http && conflict == null;
      cs.add(Conditions.of(Conditions.ACCEPTED, accepted,
          !http ? Conditions.UNSUPPORTED_PROTOCOL : conflict != null ? Conditions.PROTOCOL_CONFLICT : "Accepted",
          !http ? "protocol " + l.protocol() + " is not supported (HTTP and HTTPS are)"
              : conflict != null ? conflict : ""));
      boolean resolved = invalidKinds.isEmpty() && certReason == null;
      cs.add(Conditions.of(Conditions.RESOLVED_REFS, resolved,
          !invalidKinds.isEmpty() ? Conditions.INVALID_ROUTE_KINDS
              : certReason != null ? certReason : "ResolvedRefs",
          !invalidKinds.isEmpty() ? "route kinds " + invalidKinds + " are not supported on protocol " + l.protocol()
              : String.join("; ", certProblems)));
      cs.add(Conditions.of(Conditions.CONFLICTED, conflict != null,
          conflict != null ? Conditions.PROTOCOL_CONFLICT : Conditions.NO_CONFLICTS, conflict == null ? "" : conflict));
      boolean programmed = accepted && resolved;
      cs.add(Conditions.of(Conditions.PROGRAMMED, programmed, programmed ? "Programmed" : Conditions.INVALID,
          programmed ? "" : "the listener is not accepted or has unresolved references"));
      out.add(new ListenerState(l, supported, accepted, cs));
    }
    return out;
  }

  /**
   * The Gateway's {@code ResolvedRefs} ({@code apis/v1/gateway_types.go}): False when its own references do not
   * resolve, which are those outside any listener ({@code spec.tls.backend.clientCertificateRef}: reason
   * {@code InvalidClientCertificateRef}, or {@code RefNotPermitted} for another namespace without a grant), else
   * False {@code ListenersNotResolved} when some listener's {@code ResolvedRefs} is False (the condition's
   * "positive-polarity summary" of them), else True. It does not change {@code Accepted} or {@code Programmed}.
   */
  private static Condition gatewayResolvedRefs(Gateway g, List<String> unresolvedListeners,
      Map<String, Secret> secrets, List<ReferenceGrant> grants, Map<String, String> keyPairProblems) {
    SecretObjectReference client = g.spec().backendClientCertificateRef();
    String[] p = client == null ? null : certificateProblem(g, client, secrets, grants, keyPairProblems);
    if (p != null) {
      String reason = p[0].equals(Conditions.REF_NOT_PERMITTED) ? Conditions.REF_NOT_PERMITTED
          : Conditions.INVALID_CLIENT_CERTIFICATE_REF;
      return Conditions.of(Conditions.RESOLVED_REFS, false, reason,
          "spec.tls.backend.clientCertificateRef: " + p[1]);
    }
    if (!unresolvedListeners.isEmpty()) {
      return Conditions.of(Conditions.RESOLVED_REFS, false, Conditions.LISTENERS_NOT_RESOLVED,
          "listeners " + unresolvedListeners + " have unresolved references");
    }
    return Conditions.of(Conditions.RESOLVED_REFS, true, "ResolvedRefs", "");
  }

  /**
   * Why certificate reference {@code c} of a listener of {@code g} does not resolve ({@code [reason, message]}), or
   * {@code null}: in upstream's order, a kind other than a core Secret, another namespace without a ReferenceGrant
   * there from the Gateway's ({@code RefNotPermitted}), a missing Secret, a Secret that holds no usable certificate and
   * key ({@link TlsKeyPair}).
   */
  private static String @Nullable [] certificateProblem(Gateway g, SecretObjectReference c,
      Map<String, Secret> secrets, List<ReferenceGrant> grants, Map<String, String> keyPairProblems) {
    String gwNs = g.metadata().namespace();
    if (!c.isSecret()) {
      String gk = (c.group().isEmpty() ? "core" : c.group()) + "/" + c.kind();
      return new String[] {Conditions.INVALID_CERTIFICATE_REF, "certificate " + gk + " " + c.name()
          + ": only core Secrets are supported"};
    }
    String ns = c.namespaceOr(gwNs);
    String key = ns + "/" + c.name();
    if (!ns.equals(gwNs) && !grants.stream().anyMatch(r -> r.metadata().namespace().equals(ns)
        && r.permits(Gateway.GROUP, Gateway.KIND, gwNs, "", SecretObjectReference.SECRET, c.name()))) {
      return new String[] {Conditions.REF_NOT_PERMITTED, "certificate Secret " + key + " is in another namespace and"
          + " no ReferenceGrant in " + ns + " allows Gateways of " + gwNs + " to refer to it"};
    }
    Secret s = secrets.get(key);
    if (s == null) {
      return new String[] {Conditions.INVALID_CERTIFICATE_REF, "certificate Secret " + key + " not found"};
    }
    String p = keyPairProblems.computeIfAbsent(key, k -> {
      String problem = TlsKeyPair.problem(s);
      return problem == null ? "" : problem;
    });
    return p.isEmpty() ? null : new String[] {Conditions.INVALID_CERTIFICATE_REF, "certificate Secret " + key + " "
        + p};
  }

  private static String family(String protocol) {
    return switch (protocol) {
      case "HTTPS", "TLS" -> "tls";
      case "HTTP" -> "http";
      default -> protocol;
    };
  }

  private Condition attach(HTTPRoute r, ParentReference p, String gk, @Nullable List<ListenerState> states,
      Set<String> classes, Map<String, Map<String, String>> nsLabels, Map<String, int[]> counts) {
    if (!p.isGateway()) {
      return Conditions.of(Conditions.ACCEPTED, false, Conditions.NO_MATCHING_PARENT,
          "parent " + p.group() + "/" + p.kind() + " " + p.name() + ": only Gateway parents are supported");
    }
    Gateway g = gateways.get(gk);
    if (g == null || states == null) {
      return Conditions.of(Conditions.ACCEPTED, false, Conditions.NO_MATCHING_PARENT, "Gateway " + gk + " not found");
    }
    if (!classes.contains(g.spec().gatewayClassName())) {
      return Condition.of(Conditions.ACCEPTED, ConditionStatus.Unknown, Conditions.PENDING,
          "Gateway " + gk + " is pending: GatewayClass " + g.spec().gatewayClassName() + " not found");
    }
    String routeNs = r.metadata().namespace();
    boolean anyCandidate = false;
    boolean anyAllowed = false;
    List<String> attachedTo = new ArrayList<>();
    for (ListenerState s : states) {
      Listener l = s.listener;
      if ((!p.sectionName().isEmpty() && !p.sectionName().equals(l.name()))
          || (p.port() != null && p.port() != l.port())) {
        continue;
      }
      anyCandidate = true;
      if (!s.accepted || !s.supportedKinds.contains(HTTP_ROUTE) || !namespaceAllowed(l, g, routeNs, nsLabels)) {
        continue;
      }
      anyAllowed = true;
      List<String> hosts = Hostnames.effective(l.hostname(), r.spec().hostnames());
      if (hosts.isEmpty() && !r.spec().hostnames().isEmpty()) {
        continue;
      }
      attached.computeIfAbsent(gk + "#" + l.name(), k -> new ArrayList<>()).add(new AttachedRoute(r, hosts));
      counts.computeIfAbsent(gk + "#" + l.name(), k -> new int[1])[0]++;
      attachedTo.add(l.name());
    }
    String where = (p.sectionName().isEmpty() ? "" : " sectionName " + p.sectionName())
        + (p.port() == null ? "" : " port " + p.port());
    if (!anyCandidate) {
      return Conditions.of(Conditions.ACCEPTED, false, Conditions.NO_MATCHING_PARENT,
          "Gateway " + gk + " has no listener matching" + where);
    }
    if (!attachedTo.isEmpty()) {
      return Conditions.of(Conditions.ACCEPTED, true, "Accepted", "attached to listeners " + attachedTo);
    }
    if (anyAllowed) {
      return Conditions.of(Conditions.ACCEPTED, false, Conditions.NO_MATCHING_LISTENER_HOSTNAME,
          "route hostnames " + r.spec().hostnames() + " intersect no listener hostname of Gateway " + gk);
    }
    return Conditions.of(Conditions.ACCEPTED, false, Conditions.NOT_ALLOWED_BY_LISTENERS,
        "no listener of Gateway " + gk + where + " allows HTTPRoutes from namespace " + routeNs);
  }

  private static boolean namespaceAllowed(Listener l, Gateway g, String routeNs,
      Map<String, Map<String, String>> nsLabels) {
    return switch (l.allowedRoutes().from()) {
      case All -> true;
      case Same -> routeNs.equals(g.metadata().namespace());
      case Selector -> {
        Map<String, String> labels = nsLabels.getOrDefault(routeNs, Map.of(Namespace.NAME_LABEL, routeNs));
        var sel = l.allowedRoutes().selector();
        yield sel != null && sel.matches(labels);
      }
    };
  }

  /**
   * ResolvedRefs from the backends' problems and then the mirrors': True when there are none, else False with the
   * first problem's reason and every problem's message.
   */
  private static Condition resolvedRefs(List<List<BackendRefs.@Nullable Problem>> problems,
      Collection<BackendRefs.Problem> mirrors) {
    String reason = null;
    List<String> messages = new ArrayList<>();
    List<BackendRefs.@Nullable Problem> all = new ArrayList<>();
    problems.forEach(all::addAll);
    all.addAll(mirrors);
    for (BackendRefs.Problem p : all) {
      if (p != null) {
        if (reason == null) {
          reason = p.reason();
        }
        messages.add(p.message());
      }
    }
    return reason == null ? Conditions.of(Conditions.RESOLVED_REFS, true, "ResolvedRefs", "")
        : Conditions.of(Conditions.RESOLVED_REFS, false, reason, String.join("; ", messages));
  }

  /** The Gateways given, by {@code namespace/name}, in input order. */
  public Map<String, Gateway> gatewayObjects() {
    return Collections.unmodifiableMap(gateways);
  }

  /** Every Gateway's status by {@code namespace/name}, in input order. */
  public Map<String, GatewayStatus> gateways() {
    return Collections.unmodifiableMap(gatewayStatus);
  }

  /** The status of Gateway {@code namespace/name}, or {@code null} when it was not given. */
  public @Nullable GatewayStatus gateway(String key) {
    return gatewayStatus.get(key);
  }

  /** The parent statuses of route {@code namespace/name}, one per parentRef (empty when it has none). */
  public List<RouteParent> route(String key) {
    return routeStatus.getOrDefault(key, List.of());
  }

  /** Every route's parent statuses, routes in input order. */
  public List<RouteParent> routes() {
    List<RouteParent> out = new ArrayList<>();
    routeStatus.values().forEach(out::addAll);
    return out;
  }

  /** The routes accepted on a listener, in input order. */
  public List<AttachedRoute> attached(String gatewayKey, String listenerName) {
    return List.copyOf(attached.getOrDefault(gatewayKey + "#" + listenerName, List.of()));
  }

  /**
   * Why backend {@code backend} of rule {@code rule} of {@code route} cannot receive traffic ({@code "Reason:
   * message"}), or {@code null} when it can.
   */
  public @Nullable String backendProblem(HTTPRoute route, int rule, int backend) {
    var rules = backendProblems.get(route.metadata().key());
    if (rules == null || rule >= rules.size() || backend >= rules.get(rule).size()) {
      return null;
    }
    BackendRefs.Problem p = rules.get(rule).get(backend);
    return p == null ? null : p.reason() + ": " + p.message();
  }

  /**
   * Why the {@code RequestMirror} filter {@code filter} of rule {@code rule} ({@code backend} -1), or of that rule's
   * backend {@code backend}, cannot mirror ({@code "Reason: message"}), or {@code null} when its backend resolves
   * (or there is no such filter). Such a mirror is dropped: it sends no copies.
   */
  public @Nullable String mirrorProblem(HTTPRoute route, int rule, int backend, int filter) {
    var problems = mirrorProblems.get(route.metadata().key());
    BackendRefs.Problem p = problems == null ? null : problems.get(new BackendRefs.MirrorAt(rule, backend, filter));
    return p == null ? null : p.reason() + ": " + p.message();
  }
}
