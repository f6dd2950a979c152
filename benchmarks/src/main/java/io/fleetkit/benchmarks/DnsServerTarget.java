package io.fleetkit.benchmarks;

import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.discovery.AddressType;
import io.fleetkit.api.discovery.Endpoint;
import io.fleetkit.api.discovery.EndpointPort;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.networking.dns.DnsServer;
import io.fleetkit.networking.dns.DnsSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The cluster DNS server with a synthetic cluster, as the target of {@code dnsperf} ({@code scripts/dnsperf.sh}):
 * {@code services} ClusterIP Services {@code svc-N.bench.svc.cluster.local} and as many headless Services
 * {@code hdls-N} with 3 endpoints each, served on 127.0.0.1:{@code port} until the process is killed.
 * Usage: {@code java -cp benchmarks.jar io.fleetkit.benchmarks.DnsServerTarget PORT [SERVICES] [UDP_THREADS]}.
 */
public final class DnsServerTarget {
  private DnsServerTarget() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    int services = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    List<Service> svc = new ArrayList<>();
    List<EndpointSlice> slices = new ArrayList<>();
    for (int i = 0; i < services; i++) {
      String ip = "10.96." + (i >> 8) + "." + (i & 255);
      svc.add(Service.of(ObjectMeta.of("bench", "svc-" + i), ServiceSpec.builder().selector("app", "a" + i)
          .clusterIP(ip).port(ServicePort.of("http", 80, 8080)).build()));
      svc.add(Service.of(ObjectMeta.of("bench", "hdls-" + i), ServiceSpec.builder().selector("app", "h" + i)
          .headless().port(ServicePort.of("http", 80, 8080)).build()));
      List<Endpoint> eps = new ArrayList<>();
      for (int e = 0; e < 3; e++) {
        eps.add(Endpoint.of("10.244." + (i & 255) + "." + (e + 2)));
      }
      slices.add(new EndpointSlice(ObjectMeta.builder().namespace("bench").name("hdls-" + i + "-x")
          .label(EndpointSlice.LABEL_SERVICE_NAME, "hdls-" + i).build(), AddressType.IPv4, eps,
          List.of(EndpointPort.of("http", 8080))));
    }
    DnsSnapshot snap = DnsSnapshot.of(svc, slices, Set.of(), 1);
    DnsServer server = DnsServer.builder(() -> snap).port(port).udpThreads(threads).build().start();
    System.out.println("serving " + snap.serviceCount() + " services on 127.0.0.1:" + server.port());
    Thread.currentThread().join();
  }
}
