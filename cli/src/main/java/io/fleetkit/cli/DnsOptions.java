package io.fleetkit.cli;

import io.fleetkit.networking.dns.ClusterDns;
import io.fleetkit.networking.dns.DnsResponse;
import io.fleetkit.networking.dns.DnsSnapshot;
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
 * ({@code --upstream}, CoreDNS's {@code forward .}, with {@code --forward-policy} and {@code --forward-timeout}).
 * {@link #check()} reads them all before anything runs and says which option is wrong and why.
 */
final class DnsOptions {
  @Option(names = "--pods", paramLabel = "disabled|insecure|verified", defaultValue = "disabled",
      description = {"Pod names (1-2-3-4.NAMESPACE.pod.cluster.local), as CoreDNS's pods option: disabled (default,",
          "NXDOMAIN), insecure (any dashed IP) or verified (only a running pod's IP in that namespace)."})
  String pods = "disabled";

  @Option(names = "--upstream", paramLabel = "IP[:PORT]",
      description = {"Forward names outside cluster.local and the reverse zones to this resolver (repeatable, at most",
          "15; port 53 by default), as CoreDNS's forward plugin. Without it they are REFUSED."})
  List<String> upstreams = new ArrayList<>();

  @Option(names = "--forward-policy", paramLabel = "random|round_robin|sequential",
      description = "The order the upstreams are tried in, as CoreDNS's policy (default: random).")
  @Nullable String policy;

  @Option(names = "--forward-timeout", paramLabel = "DURATION", converter = SimulateCommand.DurationConverter.class,
      description = "How long to wait for one upstream's answer before trying the next (default: 2s).")
  @Nullable Duration readTimeout;

  /** The cluster DNS and forwarder the options describe. */
  record Dns(ClusterDns clusterDns, @Nullable Forwarder forwarder) {
    /**
     * The answer to {@code name}: the cluster DNS's for a name in its zones (an ExternalName's target outside them
     * looked up upstream when there are upstreams), the upstreams' for any other name, REFUSED without upstreams.
     */
    DnsResponse resolve(DnsSnapshot snapshot, String name, RecordType type) {
      Forwarder f = forwarder;
      if (f == null) {
        return clusterDns.resolve(snapshot, name, type);
      }
      return clusterDns.authoritativeFor(name) ? clusterDns.resolve(snapshot, name, type, f::resolve)
          : f.resolve(name, type);
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
    if (upstreams.isEmpty()) {
      String orphan = policy != null ? "--forward-policy" : readTimeout != null ? "--forward-timeout" : null;
      if (orphan != null) {
        throw new IllegalArgumentException(orphan + " is for forwarding, but no --upstream is given");
      }
      return new Dns(dns, null);
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
    return new Dns(dns, f.build());
  }
}
