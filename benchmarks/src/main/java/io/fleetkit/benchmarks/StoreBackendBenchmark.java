package io.fleetkit.benchmarks;

import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.store.etcd.EtcdStore;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The same store operations on the in-memory store and on the etcd store, one caller thread: a create followed by
 * the delete of the same object (two writes), a compare-and-swap update (read, then update at the read version), and
 * a list of one namespace holding 100 config maps. The etcd store runs against the etcd named by the environment
 * variable {@code FLEETKIT_ETCD_ENDPOINTS} ({@code scripts/etcd-local.sh start; eval "$(scripts/etcd-local.sh env)"}),
 * under a new key prefix per trial; without it the etcd cases fail at setup.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class StoreBackendBenchmark {

  @Param({"memory", "etcd"})
  public String store;

  private ObjectStore s;
  private ConfigMap counter;
  private long next;

  @Setup
  public void setUp() {
    if (store.equals("memory")) {
      s = ObjectStore.inMemory();
    } else {
      String endpoints = System.getenv("FLEETKIT_ETCD_ENDPOINTS");
      if (endpoints == null || endpoints.isBlank()) {
        throw new IllegalStateException("StoreBackendBenchmark: set FLEETKIT_ETCD_ENDPOINTS to an etcd client URL");
      }
      s = EtcdStore.builder(endpoints.split(",")).prefix("/fleetkit-bench/" + UUID.randomUUID()).build();
    }
    for (int i = 0; i < 100; i++) {
      s.create(configMap("listed", "cm-" + i, i));
    }
    counter = s.create(configMap("cas", "counter", 0));
  }

  @TearDown
  public void tearDown() {
    s.close();
  }

  private static ConfigMap configMap(String namespace, String name, long value) {
    return new ConfigMap(ObjectMeta.of(namespace, name), Map.of("value", Long.toString(value)), Map.of(), false);
  }

  /** Two writes: a create and the delete of the same object. */
  @Benchmark
  public ConfigMap createThenDelete() {
    String name = "cm-" + next++;
    s.create(configMap("churn", name, 1));
    return s.delete(ConfigMap.class, "churn", name);
  }

  /** A read and an update at the read version (succeeds: one caller). */
  @Benchmark
  public ConfigMap casUpdate() {
    ConfigMap cur = s.require(ConfigMap.class, "cas", "counter");
    long v = Long.parseLong(cur.data().get("value"));
    return s.update(new ConfigMap(cur.metadata(), Map.of("value", Long.toString(v + 1)), Map.of(), false));
  }

  /** A consistent list of 100 objects. */
  @Benchmark
  public int list100() {
    return s.list(ConfigMap.class, "listed").items().size();
  }
}
