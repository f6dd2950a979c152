package io.fleetkit.cli;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.adapter.kubernetes.yaml.ManifestException;
import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.networking.Ingress;
import io.fleetkit.api.networking.IngressClass;
import io.fleetkit.networking.routing.HttpRequest;
import io.fleetkit.networking.routing.RouteResult;
import io.fleetkit.networking.routing.Router;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fleetkit route FILE|DIR... --host HOST --path PATH [--method M] [--header K=V]... [--output text|json]}:
 * which backend a request reaches through the manifests' HTTPRoutes and Ingresses.
 */
@Command(name = "route", mixinStandardHelpOptions = true,
    description = {"Answer which backend an HTTP request reaches through the HTTPRoutes and Ingresses (with their",
        "IngressClasses) in the manifests: JSON {\"route\",\"service\",\"port\",\"message\"}; service is null when",
        "nothing matches, as a 404 would be."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:answered (also when nothing matches)", "1:the manifests are invalid",
        "2:bad command line"})
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
    Router router = new Router(loaded.ofType(IngressClass.class), loaded.ofType(Ingress.class),
        loaded.ofType(HTTPRoute.class));
    RouteResult r = router.route(request);
    if (output == Format.json) {
      out.println(json(r));
    } else {
      out.println(r.service() == null ? "no backend: " + r.message()
          : r.route() + " -> " + r.service() + ":" + r.port() + " (" + r.message() + ")");
      if (r.backends().size() > 1) {
        for (RouteResult.Backend b : r.backends()) {
          out.println("  " + b.service() + ":" + b.port() + " weight " + b.weight());
        }
      }
    }
    out.flush();
    return 0;
  }

  static String json(RouteResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("route", r.route());
    m.put("service", r.service());
    m.put("port", r.port());
    m.put("message", r.message());
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
