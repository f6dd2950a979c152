package io.fleetkit.autoscale.hpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.autoscale.hpa.ReplicaCalculator.PodSample;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/**
 * {@link ReplicaCalculator#resourceReplicas}'s one pass over the pods (a tally per group, samples matched in order
 * when they come in the pods' order) gives what upstream's {@code GetResourceReplicas} gives with its maps and sets
 * ({@link #upstream}, written as {@code replica_calculator.go} is): the same replica count, usage, utilization and
 * timestamp, or the same error, and the same horizon, over random pods (phases, deletions, readiness, start times in
 * and out of the cpu initialization period, shared and own container lists, missing requests) and random samples
 * (in the pods' order or shuffled, for pods outside the list, repeated names, without the named container).
 */
final class ResourceReplicasPropertyTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private static final LabelSelector SELECTOR = LabelSelector.of(Map.of("app", "web"));

  @Property(tries = 1000)
  void onePass_asUpstream(@ForAll long seed) {
    Random r = new Random(seed);
    String resource = r.nextInt(4) == 0 ? ResourceNames.MEMORY : ResourceNames.CPU;
    String container = r.nextInt(3) == 0 ? "side" : "";
    List<Pod> pods = pods(r, resource);
    List<PodResourceMetrics> samples = samples(r, pods);
    int target = 1 + r.nextInt(r.nextBoolean() ? 100 : 250);
    int current = r.nextInt(20);
    MetricsSource source = new MetricsSource() {
      @Override
      public List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector, String res) {
        return samples;
      }
    };
    ReplicaCalculator calc = new ReplicaCalculator(source, Clock.fixed(NOW, ZoneOffset.UTC), 0.1,
        Duration.ofMinutes(2), Duration.ofSeconds(10));
    ReplicaCalculator.Horizon expectedHorizon = new ReplicaCalculator.Horizon();
    Object expected;
    try {
      expected = upstream(calc, current, target, resource, pods, container, samples, expectedHorizon);
    } catch (MetricsUnavailableException e) {
      expected = e.getMessage();
    }
    // without a slot; with an empty one; with the facts of an earlier list (same pods, changed, gone, new ones)
    PodFacts.Slot slot = null;
    int mode = r.nextInt(3);
    if (mode > 0) {
      slot = new PodFacts.Slot();
      if (mode == 2) {
        String earlierResource = r.nextInt(6) == 0 ? ResourceNames.MEMORY : resource;
        try {
          calc.resourceReplicas(current, target, earlierResource, "ns", SELECTOR, earlier(r, pods, resource),
              container, null, slot);
        } catch (MetricsUnavailableException e) {
          // the facts are kept all the same once the metrics were read
        }
      }
    }
    ReplicaCalculator.Horizon horizon = new ReplicaCalculator.Horizon();
    Object actual;
    try {
      actual = calc.resourceReplicas(current, target, resource, "ns", SELECTOR, pods, container, horizon, slot);
    } catch (MetricsUnavailableException e) {
      actual = e.getMessage();
    }
    Statistics.label("slot").collect(mode == 0 ? "none" : mode == 1 ? "empty" : "earlier list");
    Statistics.label("result").collect(expected instanceof ReplicaCount c ? (c.replicas() == current ? "kept" : "changed")
        : "error");
    assertThat(actual).isEqualTo(expected);
    if (expected instanceof ReplicaCount) {
      assertThat(horizon.until()).isEqualTo(expectedHorizon.until());
    }
  }

  @Example
  void twoPodsOfOneName_clearError() {
    Pod p = Pod.builder().metadata(ObjectMeta.builder().namespace("ns").name("a").build())
        .container("app", "img", ResourceList.builder().put(ResourceNames.CPU, Quantity.ofMilli(100)).build())
        .status(PodStatus.of(PodPhase.Running)).build();
    MetricsSource source = new MetricsSource() {
      @Override
      public List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector, String res) {
        return List.of(new PodResourceMetrics("a", NOW, Duration.ofSeconds(15), List.of(new ContainerUsage("app", 1))));
      }
    };
    ReplicaCalculator calc = ReplicaCalculator.withDefaults(source, Clock.fixed(NOW, ZoneOffset.UTC));
    assertThatThrownBy(() -> calc.resourceReplicas(1, 50, ResourceNames.CPU, "ns", SELECTOR, List.of(p, p), ""))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two pods named a");
  }

  private static List<Pod> pods(Random r, String resource) {
    int n = r.nextInt(12);
    List<PodSpec> shared = List.of(spec(r, 100 + r.nextInt(900)), spec(r, r.nextInt(3) == 0 ? 0 : 250));
    List<Pod> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ObjectMeta.Builder meta = ObjectMeta.builder().namespace("ns").name(String.format("web-%02d", i))
          .label("app", "web");
      if (r.nextInt(10) == 0) {
        meta.deletionTimestamp(NOW.minusSeconds(5));
      }
      PodPhase phase = switch (r.nextInt(8)) {
        case 0 -> PodPhase.Pending;
        case 1 -> PodPhase.Failed;
        case 2 -> PodPhase.Succeeded;
        default -> PodPhase.Running;
      };
      PodStatus status = PodStatus.of(phase);
      if (r.nextInt(8) != 0) {
        status = status.withStartTime(NOW.minusSeconds(r.nextInt(400)));
      }
      if (r.nextInt(8) != 0) {
        ConditionStatus s = r.nextInt(3) == 0 ? ConditionStatus.False : ConditionStatus.True;
        Instant transition = r.nextInt(10) == 0 ? null : NOW.minusSeconds(r.nextInt(400));
        status = status.withCondition(PodCondition.of(PodCondition.READY, s, "", "", transition));
      }
      PodSpec spec = r.nextInt(4) == 0 ? spec(r, r.nextInt(1000)) : shared.get(r.nextInt(shared.size()));
      out.add(new Pod(meta.build(), spec, status));
    }
    return out;
  }

  /**
   * An earlier list of the same target in name order: each pod the same object, another pod of that name, or
   * absent; and pods since gone.
   */
  private static List<Pod> earlier(Random r, List<Pod> pods, String resource) {
    List<Pod> other = pods(r, resource);
    java.util.TreeMap<String, Pod> out = new java.util.TreeMap<>();
    for (int i = 0; i < pods.size(); i++) {
      int c = r.nextInt(10);
      if (c < 6) {
        out.put(pods.get(i).metadata().name(), pods.get(i));
      } else if (c < 8 && i < other.size()) {
        out.put(other.get(i).metadata().name(), other.get(i));
      }
      if (r.nextInt(5) == 0) {
        Pod gone = other.isEmpty() ? pods.get(i) : other.get(r.nextInt(other.size()));
        String name = pods.get(i).metadata().name() + "x";
        out.put(name, new Pod(gone.metadata().toBuilder().name(name).build(), gone.spec(), gone.status()));
      }
    }
    return List.copyOf(out.values());
  }

  /**
   * An app container and a sidecar container with {@code cpu} millicores each; rarely one without a request. One
   * spec in four has pod-level requests (KEP-2837): cpu, memory or both, at least the containers' aggregate.
   */
  private static PodSpec spec(Random r, long cpu) {
    ResourceList req = ResourceList.builder().put(ResourceNames.CPU, Quantity.ofMilli(cpu))
        .put(ResourceNames.MEMORY, Quantity.ofMilli(cpu * 1000)).build();
    PodSpec.Builder b = PodSpec.builder().container("app", "img", req);
    b.container("side", "img", r.nextInt(25) == 0 ? ResourceList.EMPTY : req);
    if (r.nextInt(4) == 0) {
      long podCpu = 2 * cpu + r.nextInt(500);
      ResourceList.Builder podLevel = ResourceList.builder();
      int which = r.nextInt(3);
      if (which != 1) {
        podLevel.put(ResourceNames.CPU, Quantity.ofMilli(podCpu));
      }
      if (which != 0) {
        podLevel.put(ResourceNames.MEMORY, Quantity.ofMilli(podCpu * 1000));
      }
      b.resources(ResourceRequirements.of(podLevel.build(), ResourceList.EMPTY));
    }
    return b.build();
  }

  private static List<PodResourceMetrics> samples(Random r, List<Pod> pods) {
    List<PodResourceMetrics> out = new ArrayList<>();
    for (Pod p : pods) {
      if (r.nextInt(4) != 0) {
        out.add(sample(r, p.metadata().name()));
      }
    }
    if (r.nextInt(4) == 0) {
      out.add(sample(r, "other-" + r.nextInt(3)));
    }
    if (r.nextInt(6) == 0 && !out.isEmpty()) {
      out.add(sample(r, out.get(r.nextInt(out.size())).podName()));
    }
    if (r.nextInt(3) == 0) {
      Collections.shuffle(out, r);
    }
    return out;
  }

  private static PodResourceMetrics sample(Random r, String pod) {
    List<ContainerUsage> containers = switch (r.nextInt(8)) {
      case 0 -> List.of();
      case 1 -> List.of(new ContainerUsage("app", r.nextInt(1500)));
      default -> List.of(new ContainerUsage("app", r.nextInt(1500)), new ContainerUsage("side", r.nextInt(300)));
    };
    return new PodResourceMetrics(pod, NOW.minusSeconds(r.nextInt(120)), Duration.ofSeconds(15 + r.nextInt(60)),
        containers);
  }

  /** {@code GetResourceReplicas} as upstream writes it: maps and sets by pod name. */
  private static ReplicaCount upstream(ReplicaCalculator calc, int currentReplicas, int targetUtilization,
      String resource, List<Pod> pods, String container, List<PodResourceMetrics> raw,
      ReplicaCalculator.Horizon horizon) {
    if (raw.isEmpty()) {
      throw new MetricsUnavailableException("unable to get metrics for resource " + resource
          + ": no metrics returned from resource metrics API");
    }
    Map<String, PodSample> samples = new LinkedHashMap<>();
    for (PodResourceMetrics m : raw) {
      if (container.isEmpty()) {
        if (m.containers().isEmpty()) {
          continue;
        }
        long sum = 0;
        for (ContainerUsage c : m.containers()) {
          sum += c.milliValue();
        }
        samples.put(m.podName(), new PodSample(sum, m.timestamp(), m.window()));
      } else {
        for (ContainerUsage c : m.containers()) {
          if (c.name().equals(container)) {
            samples.put(m.podName(), new PodSample(c.milliValue(), m.timestamp(), m.window()));
            break;
          }
        }
      }
    }
    Instant timestamp = raw.get(0).timestamp();
    if (pods.isEmpty()) {
      throw new MetricsUnavailableException("no pods returned by selector while calculating replica count");
    }
    PodGroups groups = calc.groupPods(pods, samples, resource, horizon);
    samples.keySet().removeAll(groups.ignored());
    samples.keySet().removeAll(groups.unready());
    Map<String, Long> requests = ReplicaCalculator.calculateRequests(pods, container, resource);
    if (samples.isEmpty()) {
      throw new MetricsUnavailableException("did not receive metrics for targeted pods (pods might be unready)");
    }
    long[] u = utilization(samples, requests, targetUtilization);
    double usageRatio = (double) u[0] / (double) targetUtilization;
    boolean scaleUpWithUnready = !groups.unready().isEmpty() && usageRatio > 1.0;
    if (!scaleUpWithUnready && groups.missing().isEmpty()) {
      if (calc.withinTolerance(usageRatio)) {
        return new ReplicaCount(currentReplicas, u[1], (int) u[0], timestamp);
      }
      return new ReplicaCount(ReplicaCalculator.ceil(usageRatio * groups.readyPodCount()), u[1], (int) u[0],
          timestamp);
    }
    if (!groups.missing().isEmpty()) {
      if (usageRatio < 1.0) {
        long fallback = Math.max(100, targetUtilization);
        for (String pod : groups.missing()) {
          samples.put(pod, new PodSample(requests.getOrDefault(pod, 0L) * fallback / 100, null, null));
        }
      } else if (usageRatio > 1.0) {
        for (String pod : groups.missing()) {
          samples.put(pod, new PodSample(0, null, null));
        }
      }
    }
    if (scaleUpWithUnready) {
      for (String pod : groups.unready()) {
        samples.put(pod, new PodSample(0, null, null));
      }
    }
    double newUsageRatio = (double) utilization(samples, requests, targetUtilization)[0] / targetUtilization;
    if (calc.withinTolerance(newUsageRatio) || (usageRatio < 1.0 && newUsageRatio > 1.0)
        || (usageRatio > 1.0 && newUsageRatio < 1.0)) {
      return new ReplicaCount(currentReplicas, u[1], (int) u[0], timestamp);
    }
    int newReplicas = ReplicaCalculator.ceil(newUsageRatio * samples.size());
    if ((newUsageRatio < 1.0 && newReplicas > currentReplicas)
        || (newUsageRatio > 1.0 && newReplicas < currentReplicas)) {
      return new ReplicaCount(currentReplicas, u[1], (int) u[0], timestamp);
    }
    return new ReplicaCount(newReplicas, u[1], (int) u[0], timestamp);
  }

  /** {@code GetResourceUtilizationRatio}: {utilization, raw average}. */
  private static long[] utilization(Map<String, PodSample> samples, Map<String, Long> requests, int target) {
    long metricsTotal = 0;
    long requestsTotal = 0;
    int entries = 0;
    for (Map.Entry<String, PodSample> e : samples.entrySet()) {
      @Nullable Long request = requests.get(e.getKey());
      if (request == null) {
        continue;
      }
      metricsTotal += e.getValue().milliValue;
      requestsTotal += request;
      entries++;
    }
    if (requestsTotal == 0) {
      throw new MetricsUnavailableException("no metrics returned matched known pods");
    }
    return new long[] {(int) ((metricsTotal * 100) / requestsTotal), metricsTotal / entries};
  }
}
