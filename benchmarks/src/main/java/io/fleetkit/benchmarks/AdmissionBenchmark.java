package io.fleetkit.benchmarks;

import io.fleetkit.admission.Admission;
import io.fleetkit.admission.QuotaLedger;
import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.LimitRange;
import io.fleetkit.api.core.LimitRangeItem;
import io.fleetkit.api.core.LimitType;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * The admission cost of one pod create: {@link AdmissionChain#admit} of {@link Admission#standard()} (five plugins:
 * NamespaceLifecycle, LimitRanger, Priority, DefaultTolerationSeconds, ResourceQuota) for a pod with requests and
 * limits, in a namespace with one LimitRange and {@code quotas} ResourceQuotas that all apply to it. Every call
 * charges every quota (in the ledger's counters; the statuses are published every
 * {@link QuotaLedger#DEFAULT_PUBLISH_INTERVAL}, inside the measured calls); the hard limits are high enough never to
 * be reached. The pod itself is not stored, so the figure is the chain's cost, not the store's create.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 3, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class AdmissionBenchmark {

  @Param({"0", "1", "10"})
  public int quotas;

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private long calls;
  private long cpuAtStart;

  private ObjectStore store;
  private AdmissionChain chain;
  private Pod pod;

  @Setup
  public void setUp() {
    store = ObjectStore.builder().directDelivery().build();
    store.create(Namespace.of("team"));
    store.create(LimitRange.of("team", "limits", LimitRangeItem.of(LimitType.Container)
        .withMax(ResourceList.builder().put("cpu", "64").put("memory", "256Gi").build())));
    for (int i = 0; i < quotas; i++) {
      store.create(ResourceQuota.of("team", "quota-" + i, ResourceList.builder().put("pods", "1000000000000")
          .put("requests.cpu", "1000000000").put("limits.memory", "1000000Ti").build()));
    }
    chain = Admission.standard();
    // The pod is never stored, so usage only grows: 64 MiB keeps it within the ledger's long counters of
    // milli-units for 1.4 x 10^8 calls per fork (1 GiB would leave them after 8.6 x 10^6, for exact arithmetic).
    ResourceList req = ResourceList.builder().put("cpu", "500m").put("memory", "64Mi").build();
    pod = Pod.of(ObjectMeta.of("team", "web-0"), PodSpec.builder().container(Container.of("app", "nginx",
        new ResourceRequirements(req, req))).build());
    chain.admit(AdmissionOperation.CREATE, pod, null, store); // every quota recounted once, the plan made
  }

  @TearDown
  public void tearDown() {
    store.close();
  }

  /** CPU time of the benchmark thread per call, printed per iteration (the score is wall time, noisy when shared). */
  @Setup(Level.Iteration)
  public void startIteration() {
    calls = 0;
    cpuAtStart = threads.getCurrentThreadCpuTime();
  }

  @TearDown(Level.Iteration)
  public void endIteration() {
    long cpu = threads.getCurrentThreadCpuTime() - cpuAtStart;
    if (calls > 0) {
      System.out.printf(Locale.ROOT, "%ncpu-ns-per-call quotas=%d %.1f (%d calls)%n", quotas, (double) cpu / calls,
          calls);
    }
  }

  @Benchmark
  public Pod admitPodCreate() {
    calls++;
    return chain.admit(AdmissionOperation.CREATE, pod, null, store).object();
  }
}
