package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link CapacityStockouts} over random stockouts, demand and autoscalers (the cluster autoscaler or the provisioner):
 * no machine of the stocked-out pool is created while the stockout lasts, every refusal falls within it, a refused
 * pool is not asked again before its backoff (5 min) or its offering's unavailability (3 min) is over, and the pods
 * all run on the other pool by the end.
 */
final class CapacityStockoutPropertiesTest {
  private static final String OFF = "horizontalPodAutoscaler: false, storage: false, verticalPodAutoscaler: false, "
      + "queueAdmission: false, queueScaling: false";

  private static String pool(String name, String zone, String memory, int price) {
    return """
        apiVersion: fleetkit.io/v1alpha1
        kind: NodePool
        metadata: {name: %s}
        spec:
          template:
            labels: {topology.kubernetes.io/zone: %s}
            capacity: {cpu: "4", memory: %s, pods: "110"}
          minSize: 0
          maxSize: 10
          startupDelay: 2m
          pricePerHour: %d
        ---
        """.formatted(name, zone, memory, price);
  }

  private static String deployment(String name, int replicas) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: %s, namespace: default}
        spec:
          replicas: %d
          selector: {matchLabels: {app: %s}}
          template:
            metadata: {labels: {app: %s}}
            spec:
              containers:
              - name: c
                image: big:1
                resources:
                  requests: {cpu: "3", memory: 1Gi}
        ---
        """.formatted(name, replicas, name, name);
  }

  @Property(tries = 15)
  void noMachineOfAStockedOutPoolIsCreated_andThePodsRunElsewhere(
      @ForAll @IntRange(min = 0, max = 15) int atMinute, @ForAll @IntRange(min = 1, max = 30) int minutes,
      @ForAll @IntRange(min = 1, max = 4) int early, @ForAll @IntRange(min = 1, max = 4) int late,
      @ForAll @IntRange(min = 0, max = 30) int lateAfterStockout, @ForAll boolean provisioner,
      @ForAll boolean zoned) {
    // the late pods come within the stockout or after it (at most at 45 min, so they run by the end)
    int lateMinute = Math.max(1, atMinute + lateAfterStockout);
    // pool a is the least waste and the cheapest for a 3-CPU pod: both autoscalers ask for it first
    String yaml = pool("a", "zone-a", "16Gi", 1) + pool("b", "zone-b", "64Gi", 2) + deployment("early", early) + """
        apiVersion: simulation.fleetkit.io/v1
        kind: Scenario
        metadata: {name: stockout}
        spec:
          duration: 60m
          sampleInterval: 1m
          features: {%s}
          faults:
          - {at: %dm, capacityStockout: a, %srecoverAfter: %dm}
        """.formatted(OFF + (provisioner ? ", clusterAutoscaler: false, provisioner: true" : ""), atMinute,
        zoned ? "zone: zone-a, " : "", minutes);
    List<ApiObject<?>> objects = KubernetesYaml.parse(yaml, "test.yaml").objects();
    List<ApiObject<?>> later = KubernetesYaml.parse(deployment("late", late), "late.yaml").objects();
    SimulationRun run = ClusterSimulation.builder().objects(objects)
        .apply(Duration.ofMinutes(lateMinute), later, "late.yaml").build().run();

    Duration out = Duration.ofMinutes(atMinute);
    Duration back = out.plusMinutes(minutes);
    Duration quiet = provisioner ? io.fleetkit.autoscale.provisioner.Provisioner.UNAVAILABLE_OFFERINGS_TTL
        : Duration.ofMinutes(5);
    Duration lastRefusal = null;
    boolean refused = false;
    for (TimelineEvent e : run.timeline()) {
      if (e.kind().equals("ScaleUp") && e.object().equals("NodePool/a")) {
        assertThat(e.at().compareTo(out) < 0 || e.at().compareTo(back) >= 0)
            .as("pool a scaled up at %s, stocked out from %s to %s", e.at(), out, back).isTrue();
      }
      if (e.kind().equals("NodeCreateFailed")) {
        refused = true;
        assertThat(e.message()).contains("NodePool a");
        assertThat(e.at()).isGreaterThanOrEqualTo(out).isLessThan(back);
        if (lastRefusal != null && !e.at().equals(lastRefusal)) { // refusals of one loop share its instant
          assertThat(e.at()).as("pool a asked again").isGreaterThan(lastRefusal.plus(quiet));
        }
        lastRefusal = e.at();
      }
    }
    Statistics.label("a machine refused").collect(refused);
    assertThat(run.summary().pending()).as("pods pending at the end").isEmpty();
  }
}
