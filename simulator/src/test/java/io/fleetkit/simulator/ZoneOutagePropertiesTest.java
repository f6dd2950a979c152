package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link ZoneOutages} over random outages and demand: no machine of the failed zone becomes Ready while the zone is
 * down, and every machine held there either starts over at the recovery or is given up before it.
 */
final class ZoneOutagePropertiesTest {
  private static final String OFF = "horizontalPodAutoscaler: false, storage: false, verticalPodAutoscaler: false, "
      + "queueAdmission: false, queueScaling: false";

  private static String pool(String name, String zone, int delayMinutes) {
    return """
        apiVersion: fleetkit.io/v1alpha1
        kind: NodePool
        metadata: {name: %s}
        spec:
          template:
            labels: {topology.kubernetes.io/zone: %s}
            capacity: {cpu: "4", memory: 16Gi, pods: "110"}
          minSize: 0
          maxSize: 6
          startupDelay: %dm
          pricePerHour: 1
        ---
        """.formatted(name, zone, delayMinutes);
  }

  @Property(tries = 15)
  void noMachineStartsInADownZone(@ForAll @IntRange(min = 0, max = 20) int failAtMinute,
      @ForAll @IntRange(min = 1, max = 30) int downMinutes, @ForAll @IntRange(min = 1, max = 5) int pods,
      @ForAll @IntRange(min = 1, max = 4) int delayMinutes, @ForAll boolean otherZone) {
    StringBuilder yaml = new StringBuilder(pool("b", "zone-b", delayMinutes));
    if (otherZone) {
      yaml.append(pool("a", "zone-a", delayMinutes));
    }
    yaml.append("""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: big, namespace: default}
        spec:
          replicas: %d
          selector: {matchLabels: {app: big}}
          template:
            metadata: {labels: {app: big}}
            spec:
              containers:
              - name: c
                image: big:1
                resources:
                  requests: {cpu: "3"}
        ---
        apiVersion: simulation.fleetkit.io/v1
        kind: Scenario
        metadata: {name: outage}
        spec:
          duration: 60m
          sampleInterval: 1m
          features: {%s}
          faults:
          - {at: %dm, zoneFailure: zone-b, recoverAfter: %dm}
        """.formatted(pods, OFF, failAtMinute, downMinutes));
    List<ApiObject<?>> objects = KubernetesYaml.parse(yaml.toString(), "test.yaml").objects();
    SimulationRun run = ClusterSimulation.builder().objects(objects).build().run();
    Duration down = Duration.ofMinutes(failAtMinute);
    Duration up = down.plusMinutes(downMinutes);
    Map<String, Duration> stalled = new HashMap<>();
    boolean sawStall = false;
    for (TimelineEvent e : run.timeline()) {
      boolean zoneB = e.object().startsWith("Node/b-");
      if (zoneB && e.kind().equals("NodeReady")) {
        assertThat(e.at().compareTo(down) < 0 || e.at().compareTo(up) >= 0)
            .as("%s ready at %s, zone-b down from %s to %s", e.object(), e.at(), down, up).isTrue();
      }
      if (e.kind().equals("NodeStartStalled")) {
        assertThat(zoneB).as("%s stalled", e.object()).isTrue();
        assertThat(e.at()).isBetween(down, up);
        stalled.put(e.object(), e.at());
        sawStall = true;
      }
      if (e.kind().equals("NodeStartResumed")) {
        assertThat(stalled).containsKey(e.object());
        assertThat(e.at()).isEqualTo(up);
        stalled.remove(e.object());
      }
      if (e.kind().equals("NodeDeleted") && stalled.remove(e.object()) != null) {
        assertThat(e.at()).isLessThanOrEqualTo(up);
      }
    }
    Statistics.label("a machine held").collect(sawStall);
    // a held machine neither resumed nor given up is one the run ended on, still held
    for (Map.Entry<String, Duration> s : stalled.entrySet()) {
      assertThat(up).as("%s held since %s", s.getKey(), s.getValue()).isGreaterThan(Duration.ofMinutes(60));
    }
  }
}
