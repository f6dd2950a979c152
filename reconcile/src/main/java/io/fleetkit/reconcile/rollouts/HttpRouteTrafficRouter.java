package io.fleetkit.reconcile.rollouts;

import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.TrafficRouting;
import io.fleetkit.api.store.ObjectStore;
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
 * naming the canary. While the canary weight is above 0 the route
 * carries the label {@value #IN_PROGRESS_LABEL}{@code =}{@value #IN_PROGRESS_VALUE} (so GitOps tools can ignore the
 * managed weights), removed at 0. The route is written through the store like any client, and only when something
 * changes; whoever routes requests by the route (e.g. the networking module's router) then splits traffic by these
 * weights.
 *
 * <p>The route must exist in the rollout's namespace and list both Services as backends; otherwise
 * {@link #setWeight} throws and the rollout controller retries. Thread-safe (it holds only the store).
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
    HTTPRoute route = store.get(HTTPRoute.class, ns, routing.httpRoute()).orElseThrow(() ->
        new IllegalStateException("HTTPRoute " + name + " not found (named by Rollout " + rollout.metadata().key()
            + " spec.strategy.canary.trafficRouting)"));
    String canary = Objects.requireNonNull(c.canaryService(), "canaryService");
    String stable = Objects.requireNonNull(c.stableService(), "stableService");
    boolean canaryFound = false;
    boolean stableFound = false;
    List<HTTPRouteRule> rules = new ArrayList<>();
    for (HTTPRouteRule rule : route.spec().rules()) {
      if (rule.backendRefs().size() == 1 && names(rule.backendRefs().get(0), ns, canary)) {
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
      rules.add(new HTTPRouteRule(rule.matches(), refs, rule.filters(), rule.name(), rule.timeouts()));
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

  /** Whether {@code b} is the Service {@code service} of namespace {@code ns} (the route's and the rollout's). */
  private static boolean names(HTTPBackendRef b, String ns, String service) {
    return (b.namespace().isEmpty() || b.namespace().equals(ns)) && b.name().equals(service);
  }

  private static HTTPBackendRef withWeight(HTTPBackendRef b, int weight) {
    return new HTTPBackendRef(b.group(), b.kind(), b.name(), b.namespace(), b.port(), weight, b.filters());
  }
}
