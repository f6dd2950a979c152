package io.fleetkit.store.etcd;

import static org.assertj.core.api.Assertions.fail;

import io.etcd.jetcd.Client;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A throw-away etcd cluster of several members on loopback ports, started from the etcd binary named by the system
 * property {@code fleetkit.etcd.binary} (Debian's {@code etcd-server}, installed by {@code scripts/etcd-local.sh}),
 * for fault tests: members are killed with SIGKILL and restarted on their data. Data lives in {@code /dev/shm} when
 * there is one. Tests using it are skipped when the property is unset and fail when the binary does not start.
 */
final class EtcdCluster implements AutoCloseable {
  static final String PROPERTY = "fleetkit.etcd.binary";

  /** Enables a test class only when {@code fleetkit.etcd.binary} is set. */
  static final class Available implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      String v = System.getProperty(PROPERTY, "");
      return v.isBlank()
          ? ConditionEvaluationResult.disabled("etcd fault tests skipped: " + PROPERTY + " is not set (pass"
              + " -D" + PROPERTY + "=$(command -v etcd))")
          : ConditionEvaluationResult.enabled(PROPERTY + "=" + v);
    }
  }

  private final String binary;
  private final Path dir;
  private final int clientBase;
  private final int peerBase;
  private final int size;
  private final String token;
  private final Process[] members;

  EtcdCluster(int size, int clientBase, int peerBase) throws IOException {
    this.binary = System.getProperty(PROPERTY, "").trim();
    Path shm = Path.of("/dev/shm");
    this.dir = Files.isDirectory(shm) && Files.isWritable(shm)
        ? Files.createTempDirectory(shm, "fleetkit-etcd-cluster-") : Files.createTempDirectory("fleetkit-etcd-cluster-");
    this.size = size;
    this.clientBase = clientBase;
    this.peerBase = peerBase;
    this.token = "fleetkit-fault-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    this.members = new Process[size];
  }

  /** Starts every member and waits until the cluster answers. */
  EtcdCluster startAll() throws Exception {
    for (int i = 0; i < size; i++) {
      start(i);
    }
    for (int i = 0; i < size; i++) {
      awaitServing(i);
    }
    return this;
  }

  String endpoint(int i) {
    return "http://127.0.0.1:" + (clientBase + i);
  }

  String[] endpoints() {
    String[] out = new String[size];
    for (int i = 0; i < size; i++) {
      out[i] = endpoint(i);
    }
    return out;
  }

  /** Starts member {@code i} (again, on its existing data after a kill). */
  void start(int i) throws IOException {
    StringBuilder initial = new StringBuilder();
    for (int m = 0; m < size; m++) {
      initial.append(m == 0 ? "" : ",").append("m").append(m).append("=http://127.0.0.1:").append(peerBase + m);
    }
    List<String> cmd = new ArrayList<>(List.of(binary, "--name", "m" + i, "--data-dir", dir.resolve("m" + i).toString(),
        "--listen-client-urls", endpoint(i), "--advertise-client-urls", endpoint(i),
        "--listen-peer-urls", "http://127.0.0.1:" + (peerBase + i),
        "--initial-advertise-peer-urls", "http://127.0.0.1:" + (peerBase + i),
        "--initial-cluster", initial.toString(), "--initial-cluster-state", "new",
        "--initial-cluster-token", token,
        "--heartbeat-interval", "50", "--election-timeout", "500"));
    members[i] = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(dir.resolve("m" + i + ".log").toFile()).start();
  }

  /** SIGKILL: the member stops at once, as a crashed machine would. */
  void kill(int i) throws InterruptedException {
    Process p = members[i];
    if (p != null) {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
      members[i] = null;
    }
  }

  /** The index of the member that is the raft leader now, asked of the members that answer. */
  int leader() throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (System.nanoTime() < deadline) {
      for (int i = 0; i < size; i++) {
        if (members[i] == null) {
          continue;
        }
        try (Client c = Client.builder().endpoints(endpoint(i)).build()) {
          var s = c.getMaintenanceClient().statusMember(endpoint(i)).get(2, TimeUnit.SECONDS);
          if (s.getLeader() != 0 && s.getLeader() == s.getHeader().getMemberId()) {
            return i;
          }
        } catch (Exception e) {
          // this member does not answer (yet): ask the next
        }
      }
      Thread.sleep(50);
    }
    return fail("no etcd member reports being the leader; logs in " + dir);
  }

  /** Waits until member {@code i} answers a read. */
  void awaitServing(int i) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      if (members[i] != null && !members[i].isAlive()) {
        fail("etcd member m" + i + " exited with " + members[i].exitValue() + "; its log: "
            + Files.readString(dir.resolve("m" + i + ".log")));
      }
      try (Client c = Client.builder().endpoints(endpoint(i)).build()) {
        c.getKVClient().get(io.etcd.jetcd.ByteSequence.from(new byte[] {0})).get(1, TimeUnit.SECONDS);
        return;
      } catch (Exception e) {
        Thread.sleep(50);
      }
    }
    fail("etcd member m" + i + " did not answer within 20 s; logs in " + dir);
  }

  @Override
  public void close() throws Exception {
    for (int i = 0; i < size; i++) {
      kill(i);
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
