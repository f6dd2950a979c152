package io.fleetkit.networking.dns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fleetkit.api.core.Endpoints;
import io.fleetkit.api.core.Endpoints.Address;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.networking.endpointslice.EndpointSliceMirroringController;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

/**
 * Cluster DNS for Services without a selector: their hand-written Endpoints objects mirrored into EndpointSlices
 * by the mirroring controller, served by the DNS server from the store (a headless Service answers with the mirrored
 * addresses, an address's hostname gets its own record). Asked with dnsjava, and with {@code dig} when the system
 * property {@code fleetkit.dig} names it (skipped when unset, as {@link DnsServerTest}).
 */
final class MirroredServiceDnsTest {
  private ObjectStore store;
  private EndpointSliceMirroringController mirroring;
  private StoreDnsSource source;
  private DnsServer server;

  @BeforeEach
  void start() throws Exception {
    store = ObjectStore.builder().directDelivery().build();
    mirroring = EndpointSliceMirroringController.builder(store).stepping().build();
    mirroring.start().join();
    store.create(Service.of(ObjectMeta.of("data", "legacy-db"), ServiceSpec.builder().headless()
        .port(ServicePort.of("sql", 5432, 5432)).build()));
    store.create(new Endpoints(ObjectMeta.of("data", "legacy-db"), List.of(new Endpoints.Subset(
        List.of(new Address("192.0.2.10", "db-0", "", null), Address.of("192.0.2.11")),
        List.of(Address.of("192.0.2.12")), List.of(Endpoints.Port.of("sql", 5432))))));
    mirroring.runUntilIdle();
    source = new StoreDnsSource(store, Clock.systemUTC());
    server = DnsServer.builder(source).build().start();
  }

  @AfterEach
  void stop() {
    server.close();
    source.close();
    mirroring.close();
    store.close();
  }

  private List<String> ask(String name, int type) throws Exception {
    SimpleResolver r = new SimpleResolver(InetAddress.getLoopbackAddress());
    r.setPort(server.port());
    r.setTimeout(Duration.ofSeconds(3));
    Message m = r.send(Message.newQuery(Record.newRecord(Name.fromString(name), type, DClass.IN)));
    return m.getSection(Section.ANSWER).stream().map(Record::rdataToString).sorted().toList();
  }

  @Test
  void headlessSelectorlessService_answersItsReadyMirroredAddresses() throws Exception {
    assertThat(ask("legacy-db.data.svc.cluster.local.", Type.A)).containsExactly("192.0.2.10", "192.0.2.11");
    assertThat(ask("db-0.legacy-db.data.svc.cluster.local.", Type.A)).containsExactly("192.0.2.10");
    assertThat(ask("_sql._tcp.legacy-db.data.svc.cluster.local.", Type.SRV)).containsExactly(
        "0 50 5432 192-0-2-11.legacy-db.data.svc.cluster.local.", "0 50 5432 db-0.legacy-db.data.svc.cluster.local.");
  }

  @Test
  void endpointsDeleted_nameNoLongerAnswered() throws Exception {
    store.delete(Endpoints.class, "data", "legacy-db");
    mirroring.runUntilIdle();
    assertThat(ask("legacy-db.data.svc.cluster.local.", Type.A)).isEmpty();
  }

  @Test
  void dig_headlessSelectorlessService_answersTheMirroredAddresses() throws Exception {
    String dig = System.getProperty("fleetkit.dig", "");
    assumeTrue(!dig.isEmpty(), "fleetkit.dig not set: dig tests skipped");
    List<String> cmd = new ArrayList<>(List.of(dig, "@127.0.0.1", "-p", Integer.toString(server.port()),
        "+time=2", "+tries=1", "legacy-db.data.svc.cluster.local", "A", "+short"));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("dig finished").isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as("dig exit code, output:\n%s", out).isZero();
    assertThat(Arrays.stream(out.split("\n")).map(String::strip).filter(l -> !l.isEmpty()).sorted().toList())
        .containsExactly("192.0.2.10", "192.0.2.11");
  }
}
