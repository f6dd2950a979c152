package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code fleetkit simulate --store}: the same simulation on etcd as in memory. The etcd runs need an etcd named by
 * {@code -Dfleetkit.etcd=http://HOST:PORT} (scripts/etcd-local.sh start); they fail if it is set but unreachable.
 */
final class SimulateStoreTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    CommandLine cli = FleetKitCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  private static Path example() {
    return CliHarness.example("simulate");
  }

  @Test
  @EnabledIfSystemProperty(named = "fleetkit.etcd", matches = ".+")
  void simulate_storeEtcd_sameOutputAsInMemory() {
    String etcd = "etcd://" + System.getProperty("fleetkit.etcd").replaceFirst("^http://", "").replaceFirst("/$", "");
    int memoryCode = run("simulate", example().toString(), "--duration", "3m", "--fail-node", "node-3@00:30",
        "--output", "json");
    String inMemory = out.toString();
    int etcdCode = run("simulate", example().toString(), "--duration", "3m", "--fail-node", "node-3@00:30",
        "--output", "json", "--store", etcd);

    assertThat(memoryCode).isZero();
    assertThat(etcdCode).as(err.toString()).isZero();
    assertThat(out.toString()).contains("\"succeeded\":4").isEqualTo(inMemory);
  }

  @Test
  void simulate_storeNeitherMemoryNorEtcd_exit2NamingTheForm() {
    int code = run("simulate", example().toString(), "--store", "redis://127.0.0.1:6379");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).startsWith("simulate: --store: \"redis://127.0.0.1:6379\" must be memory,"
        + " etcd://HOST:PORT or etcds://HOST:PORT");
  }

  @Test
  void simulate_storeEtcdWithoutPort_exit2() {
    int code = run("simulate", example().toString(), "--store", "etcd://localhost");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("etcd endpoint \"etcd://localhost\" must be http://HOST:PORT,"
        + " etcd://HOST:PORT, https://HOST:PORT or etcds://HOST:PORT (host and port are required)");
  }

  @Test
  @EnabledIfSystemProperty(named = "fleetkit.etcd.tls", matches = ".+")
  void simulate_storeEtcdsWithCertificatesAndPassword_sameOutputAsInMemory() throws Exception {
    Path dir = Path.of(System.getProperty("fleetkit.etcd.tls.dir"));
    String etcds = "etcds://" + System.getProperty("fleetkit.etcd.tls").replaceFirst("^https://", "")
        .replaceFirst("/$", "");
    String[] common = {"simulate", example().toString(), "--duration", "20s", "--output", "json"};
    int memoryCode = run(common);
    String inMemory = out.toString();
    int etcdCode = run(concat(common, "--store", etcds, "--etcd-ca", dir.resolve("ca.crt").toString(),
        "--etcd-cert", dir.resolve("client.crt").toString(), "--etcd-key", dir.resolve("client.key").toString(),
        "--etcd-user", Files.readString(dir.resolve("user")).trim(),
        "--etcd-password-file", dir.resolve("password").toString()));

    assertThat(memoryCode).isZero();
    assertThat(etcdCode).as(err.toString()).isZero();
    assertThat(out.toString()).isEqualTo(inMemory);
  }

  @Test
  @EnabledIfSystemProperty(named = "fleetkit.etcd.tls", matches = ".+")
  void simulate_storeEtcdsWrongPassword_exit1CredentialsNotAccepted(@TempDir Path tmp) throws Exception {
    Path dir = Path.of(System.getProperty("fleetkit.etcd.tls.dir"));
    Path wrong = Files.writeString(tmp.resolve("password"), "not-the-password\n");
    int code = run("simulate", example().toString(), "--duration", "1m", "--store",
        "etcds://" + System.getProperty("fleetkit.etcd.tls").replaceFirst("^https://", "").replaceFirst("/$", ""),
        "--etcd-ca", dir.resolve("ca.crt").toString(), "--etcd-cert", dir.resolve("client.crt").toString(),
        "--etcd-key", dir.resolve("client.key").toString(), "--etcd-user", "fleetkit",
        "--etcd-password-file", wrong.toString());

    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).contains("the credentials were not accepted").doesNotContain("\tat ");
  }

  @Test
  void simulate_etcdCaMissingFile_exit2NamingOptionAndFile(@TempDir Path tmp) {
    Path missing = tmp.resolve("nope/ca.pem");
    int code = run("simulate", example().toString(), "--store", "etcds://127.0.0.1:1", "--etcd-ca",
        missing.toString());

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).isEqualTo("simulate: --etcd-ca " + missing + ": no such file" + System.lineSeparator());
  }

  @Test
  void simulate_etcdCaDirectory_exit2NotARegularFile(@TempDir Path tmp) {
    int code = run("simulate", example().toString(), "--store", "etcds://127.0.0.1:1", "--etcd-ca", tmp.toString());

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).startsWith("simulate: --etcd-ca " + tmp + ": not a regular file");
  }

  @Test
  void simulate_etcdCaNotPem_exit1NamingTheFileAndTheFormat(@TempDir Path tmp) throws Exception {
    Path bad = Files.writeString(tmp.resolve("ca.pem"), "this is not a certificate\n");
    int code = run("simulate", example().toString(), "--duration", "1m", "--store", "etcds://127.0.0.1:1",
        "--etcd-ca", bad.toString());

    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).startsWith("simulate: etcd store: trustedCertificates " + bad + " could not be used"
        + " (PEM certificates and an unencrypted PKCS#8 PEM key are expected)").doesNotContain("\tat ");
  }

  @Test
  void simulate_etcdCertWithoutKey_exit2(@TempDir Path tmp) throws Exception {
    Path cert = Files.writeString(tmp.resolve("client.crt"), "x");
    int code = run("simulate", example().toString(), "--store", "etcds://127.0.0.1:1", "--etcd-cert",
        cert.toString());

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).startsWith("simulate: --etcd-cert " + cert + " needs --etcd-key (its private key)");
  }

  @Test
  void simulate_etcdCaOverClearEtcd_exit2NeedsTls(@TempDir Path tmp) throws Exception {
    Path ca = Files.writeString(tmp.resolve("ca.crt"), "x");
    int code = run("simulate", example().toString(), "--store", "etcd://127.0.0.1:1", "--etcd-ca", ca.toString());

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).startsWith("simulate: --etcd-ca needs TLS, but --store etcd://127.0.0.1:1 is in clear"
        + " (use etcds://HOST:PORT)");
  }

  @Test
  void simulate_etcdUserWithoutPasswordFile_exit2() {
    int code = run("simulate", example().toString(), "--store", "etcd://127.0.0.1:1", "--etcd-user", "fleetkit");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).startsWith("simulate: --etcd-user fleetkit needs --etcd-password-file");
  }

  @Test
  void simulate_etcdPasswordFileEmpty_exit2(@TempDir Path tmp) throws Exception {
    Path empty = Files.writeString(tmp.resolve("password"), "\n");
    int code = run("simulate", example().toString(), "--store", "etcd://127.0.0.1:1", "--etcd-user", "fleetkit",
        "--etcd-password-file", empty.toString());

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).startsWith("simulate: --etcd-password-file " + empty + ": its first line is empty");
  }

  @Test
  void simulate_etcdOptionWithMemoryStore_exit2(@TempDir Path tmp) throws Exception {
    Path ca = Files.writeString(tmp.resolve("ca.crt"), "x");
    int code = run("simulate", example().toString(), "--etcd-ca", ca.toString());

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).startsWith("simulate: --etcd-ca is for an etcd store, but --store is memory");
  }

  private static String[] concat(String[] a, String... b) {
    String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }
}
