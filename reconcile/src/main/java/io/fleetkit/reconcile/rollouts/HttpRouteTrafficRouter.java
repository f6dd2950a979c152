package io.fleetkit.reconcile.rollouts;

import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.TrafficRouting;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.rollouts.internal.ManagedHttpRules;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The Gateway API traffic router, as Argo Rollouts' {@code argoproj-labs/gatewayAPI} plugin
 * ({@code pkg/plugin/httproute.go}, {@code setHTTPRouteWeight}): in the rollout's {@code HTTPRoute}, every backend
 * that names the canary Service gets the canary weight and every backend that names the stable Service gets
 * {@code 100 - weight}, in every rule but a canary-only one; other backends, and the rules' names, matches, filters
 * and timeouts, are left alone. A rule whose only backend is the canary Service is a header route sending chosen
 * requests to the canary (the plugin's {@code isHTTPManagedRule}): it keeps its weight and does not count as
 * naming the canary; a rule of a managed route that lists only the canary is skipped the same way, while a managed
 * mirror rule (which keeps its source rule's backends) is weighted like its source. While the canary weight is
 * above 0 the route
 * carries the label {@value #IN_PROGRESS_LABEL}{@code =}{@value #IN_PROGRESS_VALUE} (so GitOps tools can ignore the
 * managed weights), removed at 0. The route is written through the store like any client, and only when something
 * changes; whoever routes requests by the route (e.g. the networking module's router) then splits traffic by these
 * weights.
 *
 * <p>Managed routes ({@link #setHeaderRoute}, {@link #setMirrorRoute}, {@link #removeManagedRoutes}) are extra
 * rules of the same route, built by {@link ManagedHttpRules} as the plugin's {@code setHTTPHeaderRoute} does: one
 * per rule listing both Services, named after the managed route.
 *
 * <p>The route must exist in the rollout's namespace and list both Services as backends; otherwise
 * {@link #setWeight} (and the managed route methods) throw and the rollout controller retries. Thread-safe (it holds
 * only the store).
 */
public final class HttpRouteTrafficRouter implements TrafficRouter {
  /** The label marking a route whose weights a canary is managing. */
  public static final String IN_PROGRESS_LABEL = "rollouts.argoproj.io/gatewayapi-canary";
  /** Its value. */
  public static final String IN_PROGRESS_VALUE = "in-progress";
  /** The plugin's message when a Service is not among the route's backends. */
  static final String BACKEND_NOT_FOUND = "backendRef was not found in httpRoute";

  private final ObjectStore store;

  private HttpRouteTrafficRouter(ObjectStore store) {
    this.store = store;
  }

  /** A router writing the HTTPRoutes of {@code store}. */
  public static HttpRouteTrafficRouter of(ObjectStore store) {
    return new HttpRouteTrafficRouter(Objects.requireNonNull(store, "store"));
  }

  /**
   * Sets the weights of the canary and stable backends of the rollout's HTTPRoute.
   *
   * @return {@code canaryWeight}, now in the route
   * @throws IllegalArgumentException if {@code canaryWeight} is outside 0..100
   * @throws IllegalStateException if the route does not exist or does not list the canary or the stable Service
   *     (the message names the route and the Service)
   * @throws io.fleetkit.api.ConflictException if the route changed concurrently; the controller retries
   */
  @Override
  public int setWeight(Rollout rollout, TrafficRouting routing, int canaryWeight) {
    if (canaryWeight < 0 || canaryWeight > 100) {
      throw new IllegalArgumentException("Rollout " + rollout.metadata().key() + ": canary weight " + canaryWeight
          + " must be between 0 and 100");
    }
    CanaryStrategy c = Objects.requireNonNull(rollout.canary(), "rollout has no canary strategy");
    String ns = rollout.metadata().namespace();
    String name = ns + "/" + routing.httpRoute();
    HTTPRoute route = route(rollout, routing);
    String canary = Objects.requireNonNull(c.canaryService(), "canaryService");
    String stable = Objects.requireNonNull(c.stableService(), "stableService");
    boolean canaryFound = false;
    boolean stableFound = false;
    List<HTTPRouteRule> rules = new ArrayList<>();
    List<String> managed = routing.managedRoutes();
    for (HTTPRouteRule rule : route.spec().rules()) {
      if (ManagedHttpRules.canaryOnly(rule, ns, canary) || (ManagedHttpRules.isManagedName(rule.name(), managed)
          && rule.backendRefs().stream().noneMatch(b -> names(b, ns, stable)))) {
        rules.add(rule);
        continue;
      }
      List<HTTPBackendRef> refs = new ArrayList<>();
      for (HTTPBackendRef b : rule.backendRefs()) {
        if (names(b, ns, canary)) {
          canaryFound = true;
          refs.add(withWeight(b, canaryWeight));
        } else if (names(b, ns, stable)) {
          stableFound = true;
          refs.add(withWeight(b, 100 - canaryWeight));
        } else {
          refs.add(b);
        }
      }
      rules.add(rule.withBackendRefs(refs));
    }
    if (!canaryFound || !stableFound) {
      throw new IllegalStateException("HTTPRoute " + name + ": " + BACKEND_NOT_FOUND + " (Service "
          + (canaryFound ? stable : canary) + " of Rollout " + rollout.metadata().key() + ")");
    }
    Map<String, String> labels = new HashMap<>(route.metadata().labels());
    if (canaryWeight > 0) {
      labels.put(IN_PROGRESS_LABEL, IN_PROGRESS_VALUE);
    } else {
      labels.remove(IN_PROGRESS_LABEL);
    }
    HTTPRouteSpec spec = new HTTPRouteSpec(route.spec().parentRefs(), route.spec().hostnames(), rules);
    if (!spec.equals(route.spec()) || !labels.equals(route.metadata().labels())) {
      ObjectMeta meta = route.metadata().toBuilder().labels(labels).build();
      store.update(new HTTPRoute(meta, spec));
    }
    return canaryWeight;
  }

  /**
   * Creates or replaces the header route {@code step.name()} (the plugin's {@code setHTTPHeaderRoute}): its rules
   * are removed and, unless the step has no match (then only that), one rule per rule listing both Services is
   * appended: the source's matches each with the step's headers added, its filters, the canary Service alone.
   *
   * @throws IllegalStateException if the route does not exist or no rule lists both Services
   * @throws IllegalArgumentException if a header value sets none or several of exact, prefix, regex (the plugin's
   *     {@code invalid header match type}; {@link Rollout} refuses such a step first)
   */
  @Override
  public void setHeaderRoute(Rollout rollout, TrafficRouting routing, CanaryStep.SetHeaderRoute step) {
    HTTPRoute route = route(rollout, routing);
    String ns = rollout.metadata().namespace();
    CanaryStrategy c = Objects.requireNonNull(rollout.canary(), "rollout has no canary strategy");
    String canary = Objects.requireNonNull(c.canaryService(), "canaryService");
    ManagedHttpRules.headers(step.match()); // refuses a bad header value before anything is read
    List<HTTPRouteRule> rules = ManagedHttpRules.without(route.spec().rules(), step.name());
    if (!step.match().isEmpty()) {
      List<HTTPRouteRule> sources = sources(rollout, routing, route);
      rules = new ArrayList<>(rules);
      rules.addAll(ManagedHttpRules.headerRules(sources, step, ns, canary));
    }
    write(route, rules);
  }

  /**
   * Creates or replaces the mirror route {@code step.name()}: one rule per rule listing both Services, placed before
   * the others, with the combined matches, the source's backends and filters and a {@code RequestMirror} of
   * {@code percentage} percent to the canary Service ({@link ManagedHttpRules}).
   *
   * @throws IllegalStateException if the route does not exist or no rule lists both Services
   */
  @Override
  public void setMirrorRoute(Rollout rollout, TrafficRouting routing, CanaryStep.SetMirrorRoute step) {
    HTTPRoute route = route(rollout, routing);
    String ns = rollout.metadata().namespace();
    String canary = Objects.requireNonNull(Objects.requireNonNull(rollout.canary()).canaryService());
    List<HTTPRouteRule> sources = sources(rollout, routing, route);
    List<HTTPRouteRule> rules = new ArrayList<>(ManagedHttpRules.mirrorRules(sources, step, ns, canary));
    rules.addAll(ManagedHttpRules.without(route.spec().rules(), step.name()));
    write(route, rules);
  }

  /**
   * Removes the rules of every managed route (the plugin's {@code removeHTTPManagedRoutes}; only named rules: an
   * unnamed canary-only rule is the user's); the route is written only when one was removed. Nothing is read
   * without managed routes.
   *
   * @throws IllegalStateException if the route does not exist
   */
  @Override
  public void removeManagedRoutes(Rollout rollout, TrafficRouting routing) {
    if (routing.managedRoutes().isEmpty()) {
      return;
    }
    HTTPRoute route = route(rollout, routing);
    write(route, ManagedHttpRules.withoutAll(route.spec().rules(), routing.managedRoutes()));
  }

  private HTTPRoute route(Rollout rollout, TrafficRouting routing) {
    String ns = rollout.metadata().namespace();
    return store.get(HTTPRoute.class, ns, routing.httpRoute()).orElseThrow(() ->
        new IllegalStateException("HTTPRoute " + ns + "/" + routing.httpRoute() + " not found (named by Rollout "
            + rollout.metadata().key() + " spec.strategy.canary.trafficRouting)"));
  }

  private static List<HTTPRouteRule> sources(Rollout rollout, TrafficRouting routing, HTTPRoute route) {
    CanaryStrategy c = Objects.requireNonNull(rollout.canary(), "rollout has no canary strategy");
    String canary = Objects.requireNonNull(c.canaryService(), "canaryService");
    String stable = Objects.requireNonNull(c.stableService(), "stableService");
    List<HTTPRouteRule> sources = ManagedHttpRules.sources(route.spec().rules(), routing.managedRoutes(),
        rollout.metadata().namespace(), canary, stable);
    if (sources.isEmpty()) {
      throw new IllegalStateException("HTTPRoute " + route.metadata().key() + ": " + BACKEND_NOT_FOUND
          + " (no rule lists both Services " + stable + " and " + canary + " of Rollout " + rollout.metadata().key()
          + ")");
    }
    return sources;
  }

  private void write(HTTPRoute route, List<HTTPRouteRule> rules) {
    HTTPRouteSpec spec = new HTTPRouteSpec(route.spec().parentRefs(), route.spec().hostnames(), rules);
    if (!spec.equals(route.spec())) {
      store.update(new HTTPRoute(route.metadata(), spec));
    }
  }

  private static boolean names(HTTPBackendRef b, String ns, String service) {
    return ManagedHttpRules.names(b, ns, service);
  }

  private static HTTPBackendRef withWeight(HTTPBackendRef b, int weight) {
    return new HTTPBackendRef(b.group(), b.kind(), b.name(), b.namespace(), b.port(), weight, b.filters());
  }
}
