package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code fleetkit route}, {@code fleetkit dns} and {@code fleetkit simulate}'s services on examples/networking. */
final class NetworkingCommandsTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return CliHarness.run(out, err, args);
  }

  private static String example() {
    return CliHarness.example("networking").toString();
  }

  @Test
  void route_httpRouteSplit_jsonNamesRouteServicePortAndWeights() {
    assertThat(run("route", example(), "--host", "www.example.com", "--path", "/checkout", "--output", "json"))
        .isZero();
    assertThat(out.toString().strip()).isEqualTo("{\"route\":\"HTTPRoute/net/checkout\",\"service\":\"net/web\","
        + "\"port\":80,\"message\":\"matched rule 0 match 0\",\"backends\":[{\"service\":\"net/web\",\"port\":80,"
        + "\"weight\":90},{\"service\":\"net/web-canary\",\"port\":80,\"weight\":10}]}");
  }

  @Test
  void route_ingressHostsAndNoMatch() {
    assertThat(run("route", example(), "--host", "admin.example.com", "--output", "json")).isZero();
    assertThat(out.toString()).contains("\"route\":\"Ingress/net/net\",\"service\":\"net/db\",\"port\":5432");
    out.getBuffer().setLength(0);
    assertThat(run("route", example(), "--host", "net.example.com:8443", "--path", "/api/orders?x=1", "--output",
        "json")).isZero();
    assertThat(out.toString()).contains("\"service\":\"net/web\",\"port\":\"http\"");
    out.getBuffer().setLength(0);
    assertThat(run("route", example(), "--host", "unknown.example.org", "--output", "json")).isZero();
    assertThat(out.toString()).startsWith("{\"route\":null,\"service\":null,\"port\":null,\"message\":\"no HTTPRoute");
  }

  @Test
  void route_badHeaderOrPath_exitTwoWithMessage() {
    assertThat(run("route", example(), "--host", "h", "--header", "nocolon")).isEqualTo(2);
    assertThat(err.toString()).contains("--header \"nocolon\" must be NAME=VALUE");
    assertThat(run("route", example(), "--host", "h", "--path", "relative")).isEqualTo(2);
    assertThat(err.toString()).contains("must start with '/'");
  }

  @Test
  void dns_example_answersAsClusterDns() {
    assertThat(run("dns", example(), "db-0.db.net.svc.cluster.local", "--output", "json")).isZero();
    assertThat(out.toString().strip()).matches("\\{\"name\":\"db-0.db.net.svc.cluster.local\",\"type\":\"A\","
        + "\"rcode\":\"NOERROR\",\"answers\":\\[\"10\\.244\\.\\d+\\.\\d+\"]}");
    out.getBuffer().setLength(0);
    assertThat(run("dns", example(), "_http._tcp.web.net.svc.cluster.local", "--type", "SRV", "--output", "json"))
        .isZero();
    assertThat(out.toString()).contains("\"answers\":[\"0 100 80 web.net.svc.cluster.local.\"]");
    out.getBuffer().setLength(0);
    assertThat(run("dns", example(), "missing.net.svc.cluster.local", "--output", "json")).isZero();
    assertThat(out.toString()).contains("\"rcode\":\"NXDOMAIN\",\"answers\":[]");
  }

  // a Service without a selector and its hand-written Endpoints: the mirroring controller turns them into slices
  @Test
  void dns_selectorlessServiceWithEndpoints_answersTheMirroredAddresses(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("external-db.yaml"), """
        apiVersion: v1
        kind: Service
        metadata: {name: legacy-db, namespace: data}
        spec:
          clusterIP: None
          ports: [{name: sql, port: 5432}]
        ---
        apiVersion: v1
        kind: Endpoints
        metadata: {name: legacy-db, namespace: data}
        subsets:
          - addresses: [{ip: 192.0.2.10, hostname: db-0}, {ip: 192.0.2.11}]
            notReadyAddresses: [{ip: 192.0.2.12}]
            ports: [{name: sql, port: 5432}]
        """);
    assertThat(run("dns", dir.toString(), "legacy-db.data.svc.cluster.local", "--output", "json"))
        .as(err.toString()).isZero();
    assertThat(out.toString().strip()).isEqualTo("{\"name\":\"legacy-db.data.svc.cluster.local\",\"type\":\"A\","
        + "\"rcode\":\"NOERROR\",\"answers\":[\"192.0.2.10\",\"192.0.2.11\"]}");
    out.getBuffer().setLength(0);
    assertThat(run("dns", dir.toString(), "db-0.legacy-db.data.svc.cluster.local", "--output", "json")).isZero();
    assertThat(out.toString()).contains("\"answers\":[\"192.0.2.10\"]");
  }

  // a LoadBalancer Service gets an address of the simulated pool; --external-zone answers it as k8s_external does
  @Test
  void dns_externalZone_answersTheLoadBalancersAddress(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("lb.yaml"), """
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status:
          allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: web, namespace: shop}
        spec:
          type: LoadBalancer
          externalIPs: [192.0.2.80]
          selector: {app: web}
          ports: [{name: http, port: 80, targetPort: 8080}]
        """);
    assertThat(run("dns", dir.toString(), "web.shop.example.com", "--external-zone", "example.com", "--output",
        "json")).as(err.toString()).isZero();
    assertThat(out.toString().strip()).isEqualTo("{\"name\":\"web.shop.example.com\",\"type\":\"A\","
        + "\"rcode\":\"NOERROR\",\"answers\":[\"192.0.2.80\",\"203.0.113.1\"]}");
    out.getBuffer().setLength(0);
    assertThat(run("dns", dir.toString(), "_http._tcp.web.shop.example.com", "--type", "SRV", "--external-zone",
        "example.com", "--output", "json")).isZero();
    // two addresses, one target: the weight is split before the duplicate SRV is dropped, as CoreDNS does
    assertThat(out.toString()).contains("\"answers\":[\"0 50 80 web.shop.example.com.\"]");
    out.getBuffer().setLength(0);
    assertThat(run("dns", dir.toString(), "web.shop.example.com", "--external-zone", "svc.cluster.local"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--external-zone \"svc.cluster.local.\" is inside the cluster's zones");
  }

  // a short name as a pod's process looks it up: its hosts file, then its search list (ndots 5) against the cluster DNS
  @Test
  void dns_fromPod_searchesAsThePodsResolverWould() {
    assertThat(run("dns", example(), "web.net", "--from-pod", "net/db-0", "--output", "json")).as(err.toString())
        .isZero();
    JsonNode j = JsonMapper.builder().build().readTree(out.toString());
    assertThat(j.get("search").toString())
        .isEqualTo("[\"net.svc.cluster.local\",\"svc.cluster.local\",\"cluster.local\"]");
    assertThat(j.get("ndots").asInt()).isEqualTo(5);
    assertThat(j.get("source").asString()).isEqualTo("dns");
    assertThat(out.toString()).contains("\"tried\":[{\"name\":\"web.net.net.svc.cluster.local.\",\"rcode\":\"NXDOMAIN\","
        + "\"answers\":0},{\"name\":\"web.net.svc.cluster.local.\",\"rcode\":\"NOERROR\",\"answers\":1}]");
    assertThat(j.get("answeredName").asString()).isEqualTo("web.net.svc.cluster.local.");
    assertThat(j.get("answers").get(0).asString()).matches("10\\.96\\.\\d+\\.\\d+");

    // its own name is in its hosts file, with its subdomain's FQDN
    out.getBuffer().setLength(0);
    assertThat(run("dns", example(), "db-0", "--from-pod", "net/db-0")).isZero();
    assertThat(out.toString()).contains("; answered by the pod's /etc/hosts").containsPattern("db-0 A 10\\.244\\.");
  }

  @Test
  void dns_fromPod_hostAliasesAnswer_andAPodOutsideTheClusterDnsIsNotAnswered(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("pods.yaml"), """
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status:
          capacity: {cpu: "4", memory: 8Gi, pods: "110"}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: app, namespace: default}
        spec:
          hostAliases: [{ip: 10.9.9.9, hostnames: [legacy.db]}]
          containers: [{name: c, image: busybox}]
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: own, namespace: default}
        spec:
          dnsPolicy: None
          dnsConfig: {nameservers: [1.1.1.1], searches: [corp.example]}
          containers: [{name: c, image: busybox}]
        """);
    assertThat(run("dns", dir.toString(), "legacy.db", "--from-pod", "default/app", "--output", "json"))
        .as(err.toString()).isZero();
    assertThat(out.toString()).contains("\"source\":\"hosts\",\"rcode\":\"NOERROR\",\"answers\":[\"10.9.9.9\"]");
    assertThat(run("dns", dir.toString(), "web", "--from-pod", "default/own")).isEqualTo(1);
    assertThat(err.toString()).contains("dns: pod default/own (dnsPolicy None) asks nameservers [1.1.1.1], not the"
        + " cluster DNS 10.96.0.10: its answer is not the cluster's");
  }

  @Test
  void dns_fromPod_unknownPodOrBadValue_namesWhatIsThere() {
    assertThat(run("dns", example(), "web", "--from-pod", "net/nope")).isEqualTo(1);
    assertThat(err.toString()).contains("dns: --from-pod: no pod net/nope after 5m; pods in net: db-0, db-1, web-");
    assertThat(run("dns", example(), "web", "--from-pod", "nope")).isEqualTo(2);
    assertThat(err.toString()).contains("dns: --from-pod \"nope\" must be NAMESPACE/NAME");
  }

  @Test
  void dns_helpAfterTheManifests_printsUsage_andAMissingNameIsABadCommandLine() {
    assertThat(run("dns", example(), "--help")).isZero();
    assertThat(out.toString()).contains("Usage: fleetkit dns").contains("FILE|DIR... NAME")
        .doesNotContain("NAME FILE|DIR...");
    assertThat(err.toString()).isEmpty();

    assertThat(run("dns", example())).isEqualTo(2);
    assertThat(err.toString()).contains("dns: give the manifest files or directories, then the name to look up");
  }

  @Test
  void simulate_theServicesManifestAppliedAgain_keepsWhatWasAllocated() {
    // kubectl apply of an unchanged file: the registry keeps the cluster IPs, families and policy it gave
    String workloads = java.nio.file.Path.of(example()).resolve("workloads.yaml").toString();
    assertThat(run("simulate", example(), "--duration", "2m", "--apply", workloads + "@01:00")).as(err.toString())
        .isZero();
    assertThat(out.toString()).doesNotContain("ApplyRejected")
        .containsPattern("Applied +Service/net/web +unchanged from")
        .containsPattern("Applied +Service/net/db +unchanged from")
        .containsPattern("Applied +Service/net/edge +unchanged from")
        .containsPattern("LoadBalancer +Service/net/edge +at 203.0.113.1");
  }

  @Test
  void simulate_networkingExample_finalListsServicesWithClusterIpAndEndpoints() {
    assertThat(run("simulate", example(), "--duration", "2m", "--output", "json")).as(err.toString()).isZero();
    JsonNode services = JsonMapper.builder().build().readTree(out.toString()).get("final").get("services");
    Map<String, JsonNode> byName = new HashMap<>();
    services.forEach(s -> byName.put(s.get("name").asString(), s));
    assertThat(byName).containsOnlyKeys("net/web", "net/edge", "net/web-canary", "net/db", "net/payments");
    assertThat(byName.get("net/edge").get("loadBalancer").get(0).asString()).isEqualTo("203.0.113.1");
    assertThat(byName.get("net/edge").get("ready").asInt()).isEqualTo(3);
    assertThat(byName.get("net/web").has("loadBalancer")).as("a ClusterIP Service has none").isFalse();
    JsonNode web = byName.get("net/web");
    assertThat(web.get("clusterIP").asString()).matches("10\\.96\\.\\d+\\.\\d+");
    assertThat(web.get("endpoints").asInt()).isEqualTo(3);
    assertThat(web.get("ready").asInt()).isEqualTo(3);
    assertThat(byName.get("net/web-canary").get("endpoints").asInt()).isEqualTo(3);
    JsonNode db = byName.get("net/db");
    assertThat(db.get("clusterIP").asString()).isEqualTo("None");
    assertThat(db.get("endpoints").asInt()).isEqualTo(2);
    assertThat(db.get("ready").asInt()).isEqualTo(2);
    assertThat(byName.get("net/payments").get("endpoints").asInt()).isZero();
  }

  /** A Scenario among the manifests runs the scenario engines; the networking controllers are one of them. */
  @Test
  void simulateScenario_networkingFeature_fillsFinalServices_orNotWhenOff(@TempDir Path dir) throws Exception {
    Path on = dir.resolve("on.yaml");
    Files.writeString(on, "apiVersion: simulation.fleetkit.io/v1\nkind: Scenario\nmetadata: {name: net}\n"
        + "spec: {duration: 2m}\n");
    assertThat(run("simulate", example(), on.toString(), "--output", "json")).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.get("scenario").asString()).isEqualTo("net");
    Map<String, JsonNode> byName = new HashMap<>();
    root.get("final").get("services").forEach(s -> byName.put(s.get("name").asString(), s));
    assertThat(byName).containsOnlyKeys("net/web", "net/edge", "net/web-canary", "net/db", "net/payments");
    assertThat(byName.get("net/edge").get("loadBalancer").get(0).asString()).isEqualTo("203.0.113.1");
    assertThat(byName.get("net/web").get("clusterIP").asString()).matches("10\\.96\\.\\d+\\.\\d+");
    assertThat(byName.get("net/web").get("ready").asInt()).isEqualTo(3);
    assertThat(byName.get("net/db").get("endpoints").asInt()).isEqualTo(2);

    out.getBuffer().setLength(0);
    Path off = dir.resolve("off.yaml");
    Files.writeString(off, "apiVersion: simulation.fleetkit.io/v1\nkind: Scenario\nmetadata: {name: net}\n"
        + "spec: {duration: 2m, features: {networking: false}}\n");
    assertThat(run("simulate", example(), off.toString(), "--output", "json")).as(err.toString()).isZero();
    assertThat(JsonMapper.builder().build().readTree(out.toString()).get("final").get("services")).isEmpty();
  }

  @Test
  void simulate_withoutServices_finalServicesEmpty(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("n.yaml");
    Files.writeString(f, "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  capacity: {cpu: '4', "
        + "memory: 8Gi, pods: '110'}\n");
    assertThat(run("simulate", f.toString(), "--duration", "10s", "--output", "json")).as(err.toString()).isZero();
    JsonNode services = JsonMapper.builder().build().readTree(out.toString()).get("final").get("services");
    assertThat(services.isArray()).isTrue();
    assertThat(services).isEmpty();
  }

  @Test
  void dns_badTypeOrManifest_clearErrors(@TempDir Path dir) throws Exception {
    assertThat(run("dns", example(), "x.cluster.local", "--type", "MX")).isEqualTo(2);
    assertThat(err.toString()).contains("--type \"MX\" must be one of");
    Path bad = dir.resolve("bad.yaml");
    Files.writeString(bad, "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {type: ExternalName}\n");
    assertThat(run("dns", bad.toString(), "s.default.svc.cluster.local")).isEqualTo(1);
    assertThat(err.toString()).contains("Service default/s: spec.externalName");
  }
}
