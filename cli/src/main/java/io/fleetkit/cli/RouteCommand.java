package io.fleetkit.cli;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.adapter.kubernetes.yaml.ManifestException;
import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.HTTPHeaderFilter;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.ReferenceGrant;
import io.fleetkit.api.networking.Ingress;
import io.fleetkit.api.networking.IngressClass;
import io.fleetkit.networking.gateway.GatewayAttachment;
import io.fleetkit.networking.gateway.GatewayObjects;
import io.fleetkit.networking.routing.Cors;
import io.fleetkit.networking.routing.GatewayRouter;
import io.fleetkit.networking.routing.HttpRequest;
import io.fleetkit.networking.routing.Mirror;
import io.fleetkit.networking.routing.RouteResult;
import io.fleetkit.networking.routing.Router;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fleetkit route FILE|DIR... --host HOST --path PATH [--method M] [--header K=V]... [--port N]
 * [--gateway NS/NAME] [--server-name SNI] [--output text|json]}: which backend a request reaches through the
 * manifests' HTTPRoutes and Ingresses. When the manifests hold Gateways, the request reaches one Gateway on
 * {@code --port} and only the HTTPRoutes accepted on its listener compete; routes a Gateway did not accept are listed
 * with upstream's reason. {@code --server-name} sends the request over TLS with that server name, which picks the
 * HTTPS listener; a Host another listener serves is then misdirected (421).
 */
@Command(name = "route", mixinStandardHelpOptions = true,
    description = {"Answer which backend an HTTP request reaches through the manifests' HTTPRoutes and Ingresses.",
        "Ingresses are read with their IngressClasses. The answer is JSON"
            + " {\"route\",\"service\",\"port\",\"message\"}; service is null when nothing matches, as a 404"
            + " would be. With Gateways in the manifests the request reaches a Gateway on --port (--gateway when"
            + " several listen there): its listener for the host picks among the HTTPRoutes attached to it; JSON then"
            + " adds \"gateway\", \"status\" (the HTTP status a proxy would answer) and \"problems\" (routes not"
            + " accepted or with unresolved backends, with upstream's reasons). Filters add \"location\" (a"
            + " redirect), \"forwarded\" (the request the backend receives), \"mirrors\" (copies sent elsewhere,"
            + " with their share) and \"corsPreflight\"/\"corsHeaders\" (a CORS answer; use --method OPTIONS and"
            + " --header for preflights).",
        "--server-name sends the request over TLS: its server name (SNI) picks the HTTPS listener, and a Host that"
            + " another listener on the port serves gets 421."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:answered (also when nothing matches)", "1:the manifests are invalid",
        "2:bad command line (also: unknown --gateway, several Gateways on --port without --gateway, --server-name"
            + " without an HTTPS listener on --port)"})
public final class RouteCommand implements Callable<Integer> {
  enum Format { text, json }

  @Spec
  private CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE|DIR", description = "Manifest files or directories.")
  private List<Path> paths;

  @Option(names = "--host", required = true, description = "The request's Host.")
  private String host;

  @Option(names = "--path", defaultValue = "/", description = "The request path, may carry ?query (default: /).")
  private String path;

  @Option(names = "--method", defaultValue = "GET", description = "The request method (default: GET).")
  private String method;

  @Option(names = "--header", paramLabel = "K=V", description = "A request header; repeatable.")
  private List<String> headers = new ArrayList<>();

  @Option(names = "--port", defaultValue = "80",
      description = "The Gateway port the request arrives on (default: ${DEFAULT-VALUE}); used with Gateways.")
  private int port;

  @Option(names = "--gateway", paramLabel = "NS/NAME",
      description = "The Gateway the request reaches; needed when several Gateways listen on --port.")
  private String gateway;

  @Option(names = "--server-name", paramLabel = "SNI",
      description = "The TLS server name the request is sent with (default: none, the Host picks the listener);"
          + " needs an HTTPS listener on --port.")
  private String serverName;

  @Option(names = "--output", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE}).")
  private Format output;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Map<String, String> h = new LinkedHashMap<>();
    for (String kv : headers) {
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        err.println("route: --header \"" + kv + "\" must be NAME=VALUE");
        err.flush();
        return 2;
      }
      h.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    HttpRequest request;
    try {
      request = HttpRequest.of(method, host, path, h);
    } catch (IllegalArgumentException e) {
      err.println("route: --path: " + e.getMessage());
      err.flush();
      return 2;
    }
    if (serverName != null) {
      String problem = serverNameProblem(serverName);
      if (problem != null) {
        err.println("route: --server-name \"" + serverName + "\" " + problem);
        err.flush();
        return 2;
      }
      serverName = serverName.toLowerCase(Locale.ROOT);
    }
    LoadedObjects loaded;
    try {
      loaded = KubernetesYaml.load(paths);
    } catch (ManifestException e) {
      for (ManifestProblem p : e.problems()) {
        err.println(p);
      }
      err.flush();
      return 1;
    }
    ManifestWarnings.print(loaded, err);
    List<Gateway> gateways = loaded.ofType(Gateway.class);
    Router router;
    String viaGateway = null;
    List<String> problems = List.of();
    if (gateways.isEmpty()) {
      if (gateway != null || serverName != null) {
        err.println("route: " + (gateway != null ? "--gateway " + gateway : "--server-name " + serverName)
            + ": the manifests hold no Gateway");
        err.flush();
        return 2;
      }
      router = new Router(loaded.ofType(IngressClass.class), loaded.ofType(Ingress.class),
          loaded.ofType(HTTPRoute.class));
    } else {
      GatewayAttachment attachment = GatewayAttachment.compute(new GatewayObjects(loaded.ofType(GatewayClass.class),
          gateways, loaded.ofType(HTTPRoute.class), loaded.ofType(Service.class), loaded.ofType(Namespace.class),
          loaded.ofType(ReferenceGrant.class), loaded.ofType(Secret.class)));
      GatewayRouter gr = new GatewayRouter(attachment);
      problems = gr.problems();
      if (gateway != null) {
        if (attachment.gatewayObjects().get(gateway) == null) {
          err.println("route: --gateway " + gateway + " not found (Gateways: "
              + String.join(", ", attachment.gatewayObjects().keySet()) + ")");
          err.flush();
          return 2;
        }
        viaGateway = gateway;
      } else {
        List<String> on = gr.gatewaysOn(port);
        if (on.size() > 1) {
          err.println("route: several Gateways listen on port " + port + " (" + String.join(", ", on)
              + "): choose one with --gateway");
          err.flush();
          return 2;
        }
        viaGateway = on.isEmpty() ? gateways.get(0).metadata().key() : on.get(0);
      }
      if (serverName == null) {
        router = new Router(loaded.ofType(IngressClass.class), loaded.ofType(Ingress.class), gr, viaGateway, port);
      } else {
        Gateway via = attachment.gatewayObjects().get(viaGateway);
        if (via.spec().listeners().stream().noneMatch(l -> l.port() == port && l.protocol().equals("HTTPS"))) {
          err.println("route: --server-name " + serverName + ": Gateway " + viaGateway + " has no HTTPS listener on"
              + " port " + port + " (a server name is sent on TLS connections only; choose the port with --port)");
          err.flush();
          return 2;
        }
        router = new Router(loaded.ofType(IngressClass.class), loaded.ofType(Ingress.class), gr, viaGateway, port,
            serverName);
      }
    }
    RouteResult r = router.route(request);
    if (output == Format.json) {
      out.println(json(r, viaGateway, problems, request));
    } else {
      if (r.redirect() != null) {
        out.println(r.route() + " redirects " + r.status() + " to " + r.redirect().location() + " (" + r.message()
            + ")");
      } else if (r.cors() != null && r.cors().preflight()) {
        out.println(r.route() + " answers the CORS preflight " + r.status() + " (" + r.message() + ")");
      } else {
        out.println(r.service() == null ? "no backend: " + r.message()
            : r.route() + " -> " + r.service() + ":" + r.port() + " (" + r.message() + ")");
      }
      HttpRequest fwd = r.forwarded();
      if (fwd != null && !fwd.equals(request)) {
        out.println("  the backend receives: host " + fwd.host() + " path " + fwd.path() + " headers "
            + fwd.headers());
      }
      for (HTTPHeaderFilter f : r.responseHeaders().filters()) {
        out.println("  response headers: set " + f.set() + " add " + f.add() + " remove " + f.remove());
      }
      Cors cors = r.cors();
      if (cors != null) {
        out.println("  CORS " + (cors.preflight() ? "preflight answered" : "response headers") + ": "
            + (cors.allowed() ? cors.headers() : "none (origin not allowed)"));
      }
      for (Mirror mi : r.mirrors()) {
        out.println("  mirrored to " + mi.service() + ":" + mi.port() + (mi.always() ? ""
            : " (" + mi.numerator() + "/" + mi.denominator() + " of requests)"));
      }
      if (r.backends().size() > 1) {
        for (RouteResult.Backend b : r.backends()) {
          out.println("  " + b.service() + ":" + b.port() + " weight " + b.weight());
        }
      }
      for (String p : problems) {
        out.println("note: " + p);
      }
    }
    out.flush();
    return 0;
  }

  /**
   * Why {@code name} cannot be a TLS server name, or {@code null}: RFC 6066 {@code HostName} is a DNS name (labels of
   * letters, digits and hyphens, none starting or ending with a hyphen, at most 63 characters, 253 in all), not an IP
   * address literal.
   */
  static @Nullable String serverNameProblem(String name) {
    if (name.isEmpty() || name.length() > 253) {
      return "must be a DNS name of 1 to 253 characters";
    }
    if (name.matches("[0-9.]+") || name.contains(":")) {
      return "must be a DNS name, not an IP address (TLS server names are host names, RFC 6066)";
    }
    for (String label : name.split("\\.", -1)) {
      if (!label.matches("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?")) {
        return "must be a DNS name: labels of letters, digits and '-' (not first or last), 1 to 63 characters each";
      }
    }
    return null;
  }

  static String json(RouteResult r, @Nullable String gateway, List<String> problems, HttpRequest request) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("route", r.route());
    m.put("service", r.service());
    m.put("port", r.port());
    m.put("message", r.message());
    if (gateway != null) {
      m.put("gateway", gateway);
      m.put("status", r.status());
      m.put("problems", problems);
    }
    if (r.redirect() != null) {
      m.put("status", r.status());
      m.put("location", r.redirect().location());
    }
    HttpRequest fwd = r.forwarded();
    if (fwd != null && !fwd.equals(request)) {
      Map<String, Object> fm = new LinkedHashMap<>();
      fm.put("host", fwd.host());
      fm.put("path", fwd.path());
      fm.put("headers", new TreeMap<>(fwd.headers()));
      m.put("forwarded", fm);
    }
    if (!r.mirrors().isEmpty()) {
      List<Map<String, Object>> ms = new ArrayList<>();
      for (Mirror mi : r.mirrors()) {
        Map<String, Object> mm = new LinkedHashMap<>();
        mm.put("service", mi.service());
        mm.put("port", mi.port());
        mm.put("share", mi.numerator() + "/" + mi.denominator());
        ms.add(mm);
      }
      m.put("mirrors", ms);
    }
    Cors cors = r.cors();
    if (cors != null) {
      m.put("status", r.status());
      m.put("corsPreflight", cors.preflight());
      m.put("corsHeaders", cors.headers());
    }
    if (r.backends().size() > 1) {
      List<Map<String, Object>> bs = new ArrayList<>();
      for (RouteResult.Backend b : r.backends()) {
        Map<String, Object> bm = new LinkedHashMap<>();
        bm.put("service", b.service());
        bm.put("port", b.port());
        bm.put("weight", b.weight());
        bs.add(bm);
      }
      m.put("backends", bs);
    }
    return JsonMapper.builder().build().writeValueAsString(m);
  }
}
