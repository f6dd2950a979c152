package io.fleetkit.cli;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.adapter.kubernetes.yaml.ManifestException;
import io.fleetkit.adapter.kubernetes.yaml.ManifestProblem;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.networking.ClusterNetworking;
import io.fleetkit.networking.dns.ClusterDns;
import io.fleetkit.networking.dns.DnsRecord;
import io.fleetkit.networking.dns.DnsResponse;
import io.fleetkit.networking.dns.DnsServer;
import io.fleetkit.networking.dns.DnsSnapshot;
import io.fleetkit.networking.dns.PodResolver;
import io.fleetkit.networking.dns.Rcode;
import io.fleetkit.networking.dns.RecordType;
import io.fleetkit.reconcile.node.PodDns;
import io.fleetkit.reconcile.node.ResolverConfig;
import io.fleetkit.simulator.Simulation;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fleetkit dns FILE|DIR... NAME [--type A|AAAA|SRV|PTR|CNAME|TXT] [--output text|json]}: runs the manifests
 * to a steady state (controllers, scheduler, simulated kubelets, node IPAM, pod IPs, service IPs, EndpointSlices)
 * and answers as the cluster DNS would; {@code fleetkit dns serve FILE|DIR... --port N} serves those records on
 * 127.0.0.1 until stopped. Both take {@link DnsOptions}: {@code --pods} for pod names and {@code --upstream} to
 * forward names outside the cluster's zones.
 */
@Command(name = "dns", mixinStandardHelpOptions = true, subcommands = DnsCommand.Serve.class,
    description = {"Answer a DNS question as the cluster DNS would, the manifests run to a steady state.",
        "The cluster DNS is CoreDNS's kubernetes plugin, zone cluster.local; with --upstream, names outside it are"
            + " forwarded as CoreDNS's forward plugin does. The answer is JSON {\"name\",\"type\",\"rcode\","
            + "\"answers\"}."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:answered (also NXDOMAIN)", "1:the manifests are invalid or do not settle",
        "2:bad command line"})
public final class DnsCommand implements Callable<Integer> {
  enum Format { text, json }

  @Spec
  private CommandSpec spec;

  // not required for picocli: a required parameter of dns would be required of "dns serve ..." too
  @Parameters(arity = "0..*", paramLabel = "FILE|DIR... NAME", hideParamSyntax = true,
      description = "Manifest files or directories, then the name to look up (or an IP for PTR).")
  private List<String> args = new ArrayList<>();

  @Option(names = "--type", defaultValue = "A",
      description = "A, AAAA, SRV, PTR, CNAME, TXT, SOA or NS (default: A).")
  private String type;

  @Option(names = "--output", defaultValue = "text", description = "text or json (default: ${DEFAULT-VALUE}).")
  private Format output;

  @Option(names = "--settle", defaultValue = "5m", converter = SimulateCommand.DurationConverter.class,
      description = "Simulated time to run the manifests before answering (default: 5m).")
  private Duration settle;

  @picocli.CommandLine.Mixin
  private DnsOptions dnsOptions = new DnsOptions();

  @Option(names = "--from-pod", paramLabel = "NAMESPACE/NAME",
      description = {"Look the name up as a process of that pod would: its /etc/hosts (hostAliases) first, then its"
          + " resolv.conf (dnsPolicy, dnsConfig: search domains, ndots) against the cluster DNS."})
  private String fromPod;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (args.size() < 2) {
      err.println("dns: give the manifest files or directories, then the name to look up, e.g. fleetkit dns"
          + " examples/networking web.shop.svc.cluster.local");
      err.flush();
      return 2;
    }
    RecordType t = RecordType.parse(type);
    if (t == RecordType.OTHER || t == RecordType.AXFR || t == RecordType.IXFR) {
      err.println("dns: --type \"" + type + "\" must be one of A, AAAA, SRV, PTR, CNAME, TXT, SOA, NS");
      err.flush();
      return 2;
    }
    List<Path> paths = args.subList(0, args.size() - 1).stream().map(Path::of).toList();
    String name = args.get(args.size() - 1);
    if (t == RecordType.PTR && !name.endsWith(".arpa") && !name.endsWith(".arpa.")) {
      name = reverseName(name);
    }
    if (fromPod != null && fromPod.indexOf('/') <= 0) {
      err.println("dns: --from-pod \"" + fromPod + "\" must be NAMESPACE/NAME");
      err.flush();
      return 2;
    }
    DnsOptions.Dns dns;
    try {
      dns = dnsOptions.check();
    } catch (IllegalArgumentException e) {
      err.println("dns: " + e.getMessage());
      err.flush();
      return 2;
    }
    try (dns) {
      return lookUp(dns, paths, name, t, out, err);
    }
  }

  private int lookUp(DnsOptions.Dns dns, List<Path> paths, String name, RecordType t, PrintWriter out,
      PrintWriter err) {
    Settled settled = steadyState(paths, settle, err);
    if (settled == null) {
      return 1;
    }
    DnsSnapshot snap = settled.snapshot();
    try {
      if (fromPod != null) {
        return fromPod(settled, dns, name, t, out, err);
      }
      return answer(dns.resolve(snap, name, t), name, t, out);
    } catch (IllegalArgumentException e) {
      err.println("dns: " + e.getMessage()); // a name that cannot be asked of an upstream
      err.flush();
      return 2;
    }
  }

  private int answer(DnsResponse r, String name, RecordType t, PrintWriter out) {
    if (output == Format.json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", name);
      m.put("type", t.name());
      m.put("rcode", r.rcode().name());
      m.put("answers", r.answers().stream().map(DnsRecord::data).toList());
      out.println(JsonMapper.builder().build().writeValueAsString(m));
    } else {
      out.println(r.rcode() + " " + name + " " + t);
      for (DnsRecord rec : r.answers()) {
        out.println(rec);
      }
      for (DnsRecord rec : r.additional()) {
        out.println("; additional: " + rec);
      }
    }
    out.flush();
    return 0;
  }

  /** The address pods are told the cluster DNS has when no {@code kube-system/kube-dns} Service says (kubeadm's). */
  static final String DEFAULT_CLUSTER_DNS_IP = "10.96.0.10";

  /** {@code --from-pod}: the lookup of the pod's resolver; 1 when the pod is not there. */
  private int fromPod(Settled settled, DnsOptions.Dns clusterDns, String name, RecordType t, PrintWriter out,
      PrintWriter err) {
    String ns = fromPod.substring(0, fromPod.indexOf('/'));
    String podName = fromPod.substring(fromPod.indexOf('/') + 1);
    Pod pod = settled.pods().stream().filter(p -> p.metadata().namespace().equals(ns)
        && p.metadata().name().equals(podName)).findFirst().orElse(null);
    if (pod == null) {
      List<String> there = settled.pods().stream().filter(p -> p.metadata().namespace().equals(ns))
          .map(p -> p.metadata().name()).sorted().limit(10).toList();
      err.println("dns: --from-pod: no pod " + fromPod + " after " + io.fleetkit.api.Violations.durationText(settle)
          + (there.isEmpty() ? " (none in namespace " + ns + ")" : "; pods in " + ns + ": " + String.join(", ", there)
          + (there.size() == 10 ? ", ..." : "")));
      err.flush();
      return 1;
    }
    String dnsIp = settled.services().stream().filter(s -> s.metadata().namespace().equals("kube-system")
        && s.metadata().name().equals("kube-dns") && !s.spec().clusterIP().isEmpty()
        && !s.spec().clusterIP().equals("None")).map(s -> s.spec().clusterIP()).findFirst()
        .orElse(DEFAULT_CLUSTER_DNS_IP);
    String domain = ClusterDns.standard().zone();
    domain = domain.endsWith(".") ? domain.substring(0, domain.length() - 1) : domain;
    PodDns.Result dns = new PodDns(List.of(dnsIp), domain, null, pod.status().podIPs()).forPod(pod);
    ResolverConfig conf = dns.config();
    String hostname = pod.spec().hostname().isEmpty() ? pod.metadata().name() : pod.spec().hostname();
    // a host-network pod's hosts file is the node's with the aliases added (the kubelet's nodeHostsFileContent): the
    // pod's own name and IPs are not in it
    List<PodResolver.HostsEntry> hosts = PodResolver.hostsFile(pod.spec().hostNetwork() ? List.of()
        : pod.status().podIPs(), hostname,
        pod.spec().subdomain(), ns, domain, pod.spec().hostAliases());
    boolean asksClusterDns = conf.servers().contains(dnsIp);
    PodResolver.Lookup lookup = PodResolver.resolve(conf, hosts, name, t, q -> asksClusterDns
        ? clusterDns.resolve(settled.snapshot(), q, t) : DnsResponse.of(Rcode.REFUSED));
    if (!lookup.fromHostsFile() && !asksClusterDns) {
      err.println("dns: pod " + fromPod + " (dnsPolicy " + pod.spec().dnsPolicy() + ") asks nameservers "
          + conf.servers() + ", not the cluster DNS " + dnsIp + ": its answer is not the cluster's");
      err.flush();
      return 1;
    }
    if (output == Format.json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", name);
      m.put("type", t.name());
      m.put("pod", fromPod);
      m.put("search", conf.searches());
      m.put("ndots", PodResolver.ndots(conf.options()));
      if (lookup.fromHostsFile()) {
        m.put("source", "hosts");
        m.put("rcode", Rcode.NOERROR.name());
        m.put("answers", lookup.hostsAddresses());
      } else {
        DnsResponse r = java.util.Objects.requireNonNull(lookup.response());
        m.put("source", "dns");
        List<Map<String, Object>> tried = new ArrayList<>();
        for (PodResolver.Attempt a : lookup.tried()) {
          Map<String, Object> t1 = new LinkedHashMap<>(); // name, rcode, answers, in that order
          t1.put("name", a.name());
          t1.put("rcode", a.rcode().name());
          t1.put("answers", a.answers());
          tried.add(t1);
        }
        m.put("tried", tried);
        m.put("answeredName", lookup.answeredName());
        m.put("rcode", r.rcode().name());
        m.put("answers", r.answers().stream().map(DnsRecord::data).toList());
      }
      out.println(JsonMapper.builder().build().writeValueAsString(m));
    } else {
      out.println("; from pod " + fromPod + ": search " + String.join(" ", conf.searches()) + ", ndots "
          + PodResolver.ndots(conf.options()));
      for (String w : dns.warnings()) {
        out.println("; warning: " + w);
      }
      if (lookup.fromHostsFile()) {
        out.println("; answered by the pod's /etc/hosts");
        for (String a : lookup.hostsAddresses()) {
          out.println(name + " " + t + " " + a);
        }
      } else {
        for (PodResolver.Attempt a : lookup.tried()) {
          out.println("; tried " + a.name() + ": " + a.rcode() + ", " + a.answers() + " answer(s)");
        }
        DnsResponse r = java.util.Objects.requireNonNull(lookup.response());
        out.println(r.rcode() + " " + lookup.answeredName() + " " + t);
        for (DnsRecord rec : r.answers()) {
          out.println(rec);
        }
      }
    }
    out.flush();
    return 0;
  }

  /** {@code 10.0.0.1} as {@code 1.0.0.10.in-addr.arpa.}; other text unchanged. */
  static String reverseName(String ip) {
    var a = io.fleetkit.networking.ipam.IpAddress.tryParse(ip);
    if (a == null) {
      return ip;
    }
    if (a.family() == io.fleetkit.api.core.IPFamily.IPv4) {
      String[] p = a.toString().split("\\.");
      return p[3] + "." + p[2] + "." + p[1] + "." + p[0] + ".in-addr.arpa.";
    }
    String hex = String.format("%032x", a.value());
    StringBuilder sb = new StringBuilder();
    for (int i = hex.length() - 1; i >= 0; i--) {
      sb.append(hex.charAt(i)).append('.');
    }
    return sb + "ip6.arpa.";
  }

  /** The DNS records of the manifests' steady state, with its pods and Services. */
  record Settled(DnsSnapshot snapshot, List<Pod> pods, List<Service> services) {}

  /** Loads, simulates for {@code settle} with the networking controllers, and snapshots; null after an error. */
  static Settled steadyState(List<Path> paths, Duration settle, PrintWriter err) {
    LoadedObjects loaded;
    try {
      loaded = KubernetesYaml.load(paths);
    } catch (ManifestException e) {
      for (ManifestProblem p : e.problems()) {
        err.println(p);
      }
      err.flush();
      return null;
    }
    ManifestWarnings.print(loaded, err);
    Simulation.Builder b = Simulation.builder().objects(loaded.objects());
    for (var f : ClusterNetworking.defaults().simulatedControllers()) {
      b.controller(f);
    }
    try (Simulation sim = b.build()) {
      sim.runFor(settle);
      List<Service> services = sim.store().list(Service.class).items();
      List<EndpointSlice> slices = sim.store().list(EndpointSlice.class).items();
      List<Pod> pods = sim.store().list(Pod.class).items();
      return new Settled(DnsSnapshot.of(services, slices, pods, Set.of(), sim.clock().now().getEpochSecond()),
          pods, services);
    } catch (IllegalArgumentException | IllegalStateException | FleetKitException e) {
      err.println("dns: " + e.getMessage());
      err.flush();
      return null;
    }
  }

  /** {@code fleetkit dns serve FILE|DIR... --port N}. */
  @Command(name = "serve", mixinStandardHelpOptions = true,
      description = {"Serve the cluster DNS records over UDP and TCP on 127.0.0.1 until stopped (Ctrl-C).",
          "The manifests are run to a steady state first."})
  public static final class Serve implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE|DIR", description = "Manifest files or directories.")
    private List<Path> paths;

    @Option(names = "--port", defaultValue = "5353", description = "The port (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--settle", defaultValue = "5m", converter = SimulateCommand.DurationConverter.class,
        description = "Simulated time to run the manifests first (default: 5m).")
    private Duration settle;

    @picocli.CommandLine.Mixin
    private DnsOptions dnsOptions = new DnsOptions();

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      if (port < 1 || port > 65535) {
        err.println("dns serve: --port " + port + " must be between 1 and 65535");
        err.flush();
        return 2;
      }
      DnsOptions.Dns dns;
      try {
        dns = dnsOptions.check();
      } catch (IllegalArgumentException e) {
        err.println("dns serve: " + e.getMessage());
        err.flush();
        return 2;
      }
      Settled settled = steadyState(paths, settle, err);
      if (settled == null) {
        return 1;
      }
      DnsSnapshot snap = settled.snapshot();
      CountDownLatch stop = new CountDownLatch(1);
      DnsServer.Builder b = DnsServer.builder(() -> snap).port(port).dns(dns.clusterDns());
      if (dns.forwarder() != null) {
        b.forward(dns.forwarder());
      }
      if (dns.external() != null) {
        b.external(dns.external());
      }
      try (dns; DnsServer server = b.build().start()) {
        out.println("serving " + snap.serviceCount() + " services as cluster.local"
            + (dns.external() == null ? "" : " and as " + String.join(", ", dns.external().zones())
            + " (k8s_external)") + " on 127.0.0.1:" + server.port()
            + " (UDP and TCP), pods " + dns.clusterDns().pods().corefileName() + ", "
            + (dns.forwarder() == null ? "other names REFUSED" : "other names forwarded to "
            + dns.forwarder().upstreams() + " (" + dns.forwarder().policy().corefileName() + ")"));
        out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown));
        stop.await();
      } catch (java.io.IOException e) {
        err.println("dns serve: cannot listen on 127.0.0.1:" + port + ": " + e.getMessage());
        err.flush();
        return 1;
      }
      return 0;
    }
  }
}
