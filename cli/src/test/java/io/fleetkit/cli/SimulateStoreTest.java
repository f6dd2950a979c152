package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
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
    CommandLine cli = new CommandLine(new FleetKitCli());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  private static Path example() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("examples/simulate"))) {
      p = p.getParent();
    }
    assertThat(p).isNotNull();
    return p.resolve("examples/simulate");
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
    assertThat(err.toString()).startsWith("simulate: --store: \"redis://127.0.0.1:6379\" must be memory or"
        + " etcd://HOST:PORT");
  }

  @Test
  void simulate_storeEtcdWithoutPort_exit2() {
    int code = run("simulate", example().toString(), "--store", "etcd://localhost");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("etcd endpoint \"etcd://localhost\" must be http://HOST:PORT,"
        + " etcd://HOST:PORT, https://HOST:PORT or etcds://HOST:PORT (host and port are required)");
  }
}
