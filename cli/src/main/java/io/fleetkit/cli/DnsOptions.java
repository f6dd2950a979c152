package io.fleetkit.cli;

import io.fleetkit.networking.dns.ClusterDns;
import io.fleetkit.networking.dns.ExternalDns;
import io.fleetkit.networking.dns.DnsResponse;
import io.fleetkit.networking.dns.DnsSnapshot;
import io.fleetkit.networking.dns.ForwardHealthCheck;
import io.fleetkit.networking.dns.ForwardPolicy;
import io.fleetkit.networking.dns.Forwarder;
import io.fleetkit.networking.dns.PodsMode;
import io.fleetkit.networking.dns.RecordType;
import io.fleetkit.networking.dns.Upstream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * The cluster DNS's options of {@code fleetkit dns} and {@code fleetkit dns serve}, shared as a picocli mixin: how
 * pod names are answered ({@code --pods}, CoreDNS's {@code pods}) and where names outside the cluster's zones go
 * ({@code --upstream}, CoreDNS's {@code forward .}, with {@code --forward-*} for its options: {@code policy},
 * {@code read_timeout}, {@code max_fails}, {@code health_check}, {@code force_tcp}, {@code prefer_udp},
 * {@code except}, {@code max_concurrent}, {@code failfast_all_unhealthy_upstreams}).
 * {@link #check()} reads them all before anything runs and says which option is wrong and why.
 */
final class DnsOptions {
  @Option(names = "--pods", paramLabel = "disabled|insecure|verified", defaultValue = "disabled",
      description = "Pod names (1-2-3-4.NAMESPACE.pod.cluster.local), as CoreDNS's pods option: disabled (default, "
          + "NXDOMAIN), insecure (any dashed IP) or verified (only a running pod's IP in that namespace).")
  String pods = "disabled";

  @Option(names = "--external-zone", paramLabel = "ZONE",
      description = "Also answer this zone as CoreDNS's k8s_external plugin (repeatable): SERVICE.NAMESPACE.ZONE is "
          + "the Service's external IPs and load balancer addresses.")
  List<String> externalZones = new ArrayList<>();

  @Option(names = "--external-headless",
      description = "In the external zones, headless Services answer with their endpoints (k8s_external's headless).")
  boolean externalHeadless;

  @Option(names = "--upstream", paramLabel = "IP[:PORT]",
      description = "Forward names outside cluster.local and the reverse zones to this resolver (repeatable, at most "
          + "15; port 53 by default), as CoreDNS's forward plugin. Without it they are REFUSED.")
  List<String> upstreams = new ArrayList<>();

  @Option(names = "--forward-policy", paramLabel = "random|round_robin|sequential",
      description = "The order the upstreams are tried in, as CoreDNS's policy (default: random).")
  @Nullable String policy;

  @Option(names = "--forward-timeout", paramLabel = "DURATION", converter = SimulateCommand.DurationConverter.class,
      description = "How long to wait for one upstream's answer before trying the next (default: 2s).")
  @Nullable Duration readTimeout;

  @Option(names = "--forward-max-fails", paramLabel = "N",
      description = "Failed health checks after which an upstream is down and skipped, as CoreDNS's max_fails "
          + "(default: 2; 0: never down, never checked).")
  @Nullable Integer maxFails;

  @Option(names = "--forward-health-check", paramLabel = "DURATION",
      converter = SimulateCommand.DurationConverter.class,
      description = "How often an upstream that failed a query is checked until it answers (default: 0.5s).")
  @Nullable Duration healthCheck;

  @Option(names = "--forward-health-check-no-rec",
      description = "Health checks ask without recursion desired (CoreDNS's health_check no_rec).")
  boolean healthCheckNoRec;

  @Option(names = "--forward-health-check-domain", paramLabel = "FQDN",
      description = "The name health checks ask the NS records of (default: the root, .).")
  @Nullable String healthCheckDomain;

  @Option(names = "--forward-force-tcp", description = "Ask upstreams over TCP, whatever the client used.")
  boolean forceTcp;

  @Option(names = "--forward-prefer-udp",
      description = "Ask upstreams over UDP first, whatever the client used, and again over TCP when the answer "
          + "is truncated (--forward-force-tcp wins when both are given).")
  boolean preferUdp;

  @Option(names = "--forward-except", paramLabel = "NAME",
      description = "Do not forward this name and the names under it: SERVFAIL (repeatable).")
  List<String> except = new ArrayList<>();

  @Option(names = "--forward-max-concurrent", paramLabel = "N",
      description = "Forwarded queries at once before the next is REFUSED (default: 500; 0: no limit).")
  @Nullable Integer maxConcurrent;

  @Option(names = "--forward-failfast-all-unhealthy-upstreams",
      description = "SERVFAIL at once when every upstream is down, instead of trying a random one.")
  boolean failfast;

  /**
   * The cluster DNS, external zones and forwarder the options describe; closing it stops the forwarder's health
   * checks.
   */
  record Dns(ClusterDns clusterDns, @Nullable ExternalDns external, @Nullable Forwarder forwarder)
      implements AutoCloseable {
    @Override
    public void close() {
      if (forwarder != null) {
        forwarder.close();
      }
    }

    /**
     * The answer to {@code name}: the cluster DNS's for a name in its zones (an ExternalName's target outside them
     * looked up upstream when there are upstreams), the upstreams' for any other name, REFUSED without upstreams.
     * The command asks as a stub resolver (and {@code dig}) does: over UDP, and again over TCP when the answer came
     * back truncated, so it shows the whole answer.
     */
    DnsResponse resolve(DnsSnapshot snapshot, String name, RecordType type) {
      if (external != null && external.zoneOf(name).isPresent()) {
        return external.resolve(snapshot, name, type).orElseThrow();
      }
      Forwarder f = forwarder;
      if (f == null) {
        return clusterDns.resolve(snapshot, name, type);
      }
      DnsResponse r = ask(snapshot, name, type, f, false);
      return r.truncated() ? ask(snapshot, name, type, f, true) : r;
    }

    private DnsResponse ask(DnsSnapshot snapshot, String name, RecordType type, Forwarder f, boolean overTcp) {
      return clusterDns.authoritativeFor(name)
          ? clusterDns.resolve(snapshot, name, type, (n, t) -> f.resolve(n, t, overTcp))
          : f.resolve(name, type, overTcp);
    }
  }

  /**
   * The cluster DNS and forwarder of these options.
   *
   * @throws IllegalArgumentException naming the option at fault
   */
  Dns check() {
    PodsMode mode;
    try {
      mode = PodsMode.parse(pods);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--pods \"" + pods + "\" must be disabled, insecure or verified", e);
    }
    ClusterDns dns = ClusterDns.standard().withPods(mode);
    ExternalDns external = null;
    if (!externalZones.isEmpty()) {
      try {
        external = new ExternalDns(externalZones, ClusterDns.DEFAULT_TTL, externalHeadless, List.of());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--external-zone: " + e.getMessage(), e);
      }
      for (String z : external.zones()) {
        if (dns.authoritativeFor(z)) {
          throw new IllegalArgumentException("--external-zone \"" + z + "\" is inside the cluster's zones");
        }
      }
    } else if (externalHeadless) {
      throw new IllegalArgumentException("--external-headless is for external zones, but no --external-zone is given");
    }
    if (upstreams.isEmpty()) {
      String orphan = firstForwardOption();
      if (orphan != null) {
        throw new IllegalArgumentException(orphan + " is for forwarding, but no --upstream is given");
      }
      return new Dns(dns, external, null);
    }
    List<Upstream> ups = new ArrayList<>();
    for (String u : upstreams) {
      try {
        ups.add(Upstream.parse(u));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--upstream: " + e.getMessage(), e);
      }
    }
    if (ups.size() > Forwarder.MAX_UPSTREAMS) {
      throw new IllegalArgumentException("--upstream given " + ups.size() + " times, at most "
          + Forwarder.MAX_UPSTREAMS);
    }
    Forwarder.Builder f = Forwarder.builder(ups);
    if (policy != null) {
      try {
        f.policy(ForwardPolicy.parse(policy));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--forward-policy \"" + policy + "\" must be random, round_robin or"
            + " sequential", e);
      }
    }
    if (readTimeout != null) {
      if (readTimeout.toMillis() < 1) {
        throw new IllegalArgumentException("--forward-timeout " + readTimeout.toMillis() + "ms must be at least 1ms");
      }
      f.readTimeout(readTimeout);
    }
    if (maxFails != null) {
      if (maxFails < 0) {
        throw new IllegalArgumentException("--forward-max-fails " + maxFails + " must not be negative");
      }
      f.maxFails(maxFails);
    }
    if (maxConcurrent != null) {
      if (maxConcurrent < 0) {
        throw new IllegalArgumentException("--forward-max-concurrent " + maxConcurrent + " must not be negative");
      }
      f.maxConcurrent(maxConcurrent);
    }
    ForwardHealthCheck hc = ForwardHealthCheck.DEFAULT.withRecursionDesired(!healthCheckNoRec);
    if (healthCheck != null) {
      if (healthCheck.toMillis() < 1) {
        throw new IllegalArgumentException("--forward-health-check " + healthCheck.toMillis()
            + "ms must be at least 1ms");
      }
      hc = hc.withInterval(healthCheck);
    }
    if (healthCheckDomain != null) {
      try {
        hc = hc.withDomain(healthCheckDomain);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--forward-health-check-domain: " + e.getMessage(), e);
      }
    }
    try {
      f.except(except);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--forward-except: " + e.getMessage(), e);
    }
    return new Dns(dns, external, f.healthCheck(hc).forceTcp(forceTcp).preferUdp(preferUdp)
        .failfastAllUnhealthyUpstreams(failfast).build());
  }

  /** The first forwarding option given, {@code null} when none is. */
  private @Nullable String firstForwardOption() {
    return policy != null ? "--forward-policy" : readTimeout != null ? "--forward-timeout"
        : maxFails != null ? "--forward-max-fails" : healthCheck != null ? "--forward-health-check"
        : healthCheckNoRec ? "--forward-health-check-no-rec"
        : healthCheckDomain != null ? "--forward-health-check-domain" : forceTcp ? "--forward-force-tcp"
        : preferUdp ? "--forward-prefer-udp" : !except.isEmpty() ? "--forward-except"
        : maxConcurrent != null ? "--forward-max-concurrent"
        : failfast ? "--forward-failfast-all-unhealthy-upstreams" : null;
  }
}
