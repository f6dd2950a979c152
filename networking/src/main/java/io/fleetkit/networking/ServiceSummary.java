package io.fleetkit.networking;

import io.fleetkit.api.core.LoadBalancerIngress;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointSlice;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A Service as a cluster's final state reports it: its name ({@code NS/NAME}), cluster IP ({@code None} for
 * headless, empty for ExternalName), and how many endpoints its EndpointSlices list and how many of those are ready.
 * An endpoint counts once however many address families it appears in (a dual-stack pod has one endpoint per
 * family); it is identified by its target pod, or by its addresses when it has none. Immutable.
 *
 * @param name {@code NS/NAME}
 * @param clusterIP {@code spec.clusterIP}
 * @param endpoints distinct endpoints in the Service's slices
 * @param ready those whose {@code ready} condition is true
 * @param loadBalancer the load balancer's ingress points ({@code status.loadBalancer}: IPs, or host names), empty
 *     when it has none
 */
public record ServiceSummary(String name, String clusterIP, int endpoints, int ready, List<String> loadBalancer) {
  public ServiceSummary {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(clusterIP, "clusterIP");
    loadBalancer = List.copyOf(loadBalancer);
    if (endpoints < 0 || ready < 0 || ready > endpoints) {
      throw new IllegalArgumentException("service summary " + name + ": ready " + ready + " and endpoints "
          + endpoints + " must satisfy 0 <= ready <= endpoints");
    }
  }

  /**
   * One summary per Service, in the order given, from the slices labelled with each Service's name.
   */
  public static List<ServiceSummary> of(List<Service> services, List<EndpointSlice> slices) {
    Map<String, List<EndpointSlice>> byService = new HashMap<>();
    for (EndpointSlice s : slices) {
      if (!s.serviceName().isEmpty()) {
        byService.computeIfAbsent(s.metadata().namespace() + "/" + s.serviceName(), k -> new ArrayList<>()).add(s);
      }
    }
    List<ServiceSummary> out = new ArrayList<>(services.size());
    for (Service svc : services) {
      String name = svc.metadata().namespace() + "/" + svc.metadata().name();
      Set<Object> all = new HashSet<>();
      Set<Object> ready = new HashSet<>();
      for (EndpointSlice s : byService.getOrDefault(name, List.of())) {
        for (Endpoint e : s.endpoints()) {
          Object id = e.targetRef() != null ? e.targetRef() : e.addresses();
          all.add(id);
          if (Boolean.TRUE.equals(e.conditions().ready())) {
            ready.add(id);
          }
        }
      }
      List<String> ingress = new ArrayList<>();
      if (svc.status().loadBalancer() != null) {
        for (LoadBalancerIngress i : svc.status().loadBalancer().ingress()) {
          ingress.add(i.ip().isEmpty() ? i.hostname() : i.ip());
        }
      }
      out.add(new ServiceSummary(name, svc.spec().clusterIP(), all.size(), ready.size(), ingress));
    }
    return List.copyOf(out);
  }
}
