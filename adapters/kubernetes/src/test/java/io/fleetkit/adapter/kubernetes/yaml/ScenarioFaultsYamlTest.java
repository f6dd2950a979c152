package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.simulation.FaultType;
import io.fleetkit.api.simulation.NodeStartup;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFault;
import io.fleetkit.api.simulation.StartupPhase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Node start-up phases, GPU device and API faults, and the provisioner switch, read from a Scenario manifest. */
final class ScenarioFaultsYamlTest {
  private static final String HEAD = "apiVersion: simulation.fleetkit.io/v1\nkind: Scenario\nmetadata: {name: day}\n";
  private static final String FULL = """
      spec:
        duration: 2h
        features: {provisioner: true}
        faults:
        - {at: 10m, gpuDeviceFault: gpu-1, devices: 2, recoverAfter: 30m}
        - {at: 20m, apiSlowness: 1500ms, recoverAfter: 5m}
        - {at: 30m, nodeFailure: a-1}
        - {at: 40m, capacityStockout: gpu-a100, zone: zone-a, recoverAfter: 1h}
        - {at: 50m, capacityStockout: general}
        nodeStartup:
        - {pool: gpu-a100, provision: 2m, boot: 1m, driver: 3m, imagePull: 2m}
        - {pool: general, boot: 90s}
      """;

  private static Scenario parse(String spec) {
    return KubernetesYaml.parse(HEAD + spec, "scenario.yaml").ofType(Scenario.class).get(0);
  }

  private static String problems(String spec) {
    try {
      KubernetesYaml.parse(HEAD + spec, "scenario.yaml");
    } catch (ManifestException e) {
      return e.getMessage() + " " + e.problems();
    }
    throw new AssertionError("no problem reported for " + spec);
  }

  @Test
  void faultsPhasesAndProvisioner_read() {
    Scenario s = parse(FULL);
    List<ScenarioFault> f = s.spec().faults();
    assertThat(f).extracting(ScenarioFault::type).containsExactly(FaultType.GpuDeviceFault, FaultType.ApiSlowness,
        FaultType.NodeFailure, FaultType.CapacityStockout, FaultType.CapacityStockout);
    assertThat(f.get(3)).isEqualTo(ScenarioFault.capacityStockout(Duration.ofMinutes(40), "gpu-a100", "zone-a",
        Duration.ofHours(1)));
    assertThat(f.get(4).zone()).isNull(); // every zone
    assertThat(f.get(4).recoverAfter()).isNull();
    assertThat(f.get(0).target()).isEqualTo("gpu-1");
    assertThat(f.get(0).devices()).isEqualTo(2);
    assertThat(f.get(0).recoverAfter()).isEqualTo(Duration.ofMinutes(30));
    assertThat(f.get(1).latency()).isEqualTo(Duration.ofMillis(1500));
    assertThat(f.get(1).target()).isEmpty();
    // the provisioner replaces the cluster autoscaler when clusterAutoscaler is not given
    assertThat(s.spec().features().provisioner()).isTrue();
    assertThat(s.spec().features().clusterAutoscaler()).isFalse();
    NodeStartup gpu = s.spec().nodeStartup().get(0);
    assertThat(gpu.total()).isEqualTo(Duration.ofMinutes(8));
    assertThat(gpu.phaseAt(Duration.ofSeconds(30))).isEqualTo(StartupPhase.Provisioning);
    assertThat(gpu.phaseAt(Duration.ofMinutes(2))).isEqualTo(StartupPhase.Booting);
    assertThat(gpu.phaseAt(Duration.ofMinutes(5))).isEqualTo(StartupPhase.Driver);
    assertThat(gpu.phaseAt(Duration.ofMinutes(7))).isEqualTo(StartupPhase.ImagePull);
    assertThat(gpu.phaseAt(Duration.ofMinutes(8))).isEqualTo(StartupPhase.Ready);
    NodeStartup general = s.spec().nodeStartup().get(1);
    assertThat(general.provision()).isZero();
    assertThat(general.total()).isEqualTo(Duration.ofSeconds(90));
    assertThat(general.phaseAt(Duration.ZERO)).isEqualTo(StartupPhase.Booting);
  }

  @Test
  void roundTrip_dumpThenParse_sameScenario() {
    Scenario s = parse(FULL);
    Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(s)), "dump.yaml").ofType(Scenario.class).get(0);
    assertThat(again).isEqualTo(s);
  }

  @Test
  void badStartupPhases_reportedWithObjectFieldAndRule() {
    String p = problems("""
        spec:
          duration: 1h
          nodeStartup:
          - {pool: gpu, boot: soon}
          - {pool: gpu, driver: 1m}
          - {pool: Bad_Pool, imagePull: 1m, warmup: 2m}
        """);
    assertThat(p).contains("spec.nodeStartup[0].boot").contains("must be a duration");
    assertThat(p).contains("spec.nodeStartup[2].warmup").contains("is not a field");
  }

  @Test
  void repeatedPoolAndBadName_reportedByValidation() {
    String p = problems("""
        spec:
          duration: 1h
          nodeStartup:
          - {pool: gpu, driver: 1m}
          - {pool: gpu, driver: 2m}
          - {pool: Bad_Pool, imagePull: 1m}
        """);
    assertThat(p).contains("Scenario").contains("day").contains("spec.nodeStartup[1].pool")
        .contains("must not repeat").contains("spec.nodeStartup[2].pool");
  }

  @Test
  void badFaults_reported() {
    String p = problems("""
        spec:
          duration: 1h
          faults:
          - {at: 1m, gpuDeviceFault: g-1, devices: 0}
          - {at: 2m, apiSlowness: 0s}
          - {at: 3m, nodeFailure: a-1, apiSlowness: 1s}
          - {at: 4m, zoneFailure: z, devices: 1}
        """);
    assertThat(p).contains("spec.faults[2]").contains("exactly one of").contains("spec.faults[3].devices")
        .contains("only for gpuDeviceFault");
    String v = problems("""
        spec:
          duration: 1h
          faults:
          - {at: 1m, gpuDeviceFault: g-1, devices: 0}
          - {at: 2m, apiSlowness: 0s}
        """);
    assertThat(v).contains("spec.faults[0].devices").contains("must be at least 1")
        .contains("spec.faults[1].apiSlowness").contains("from 1ms to 10m");
  }

  @Test
  void badCapacityStockouts_reportedWithFieldAndRule() {
    String p = problems("""
        spec:
          duration: 1h
          faults:
          - {at: 1m, zoneFailure: z, zone: z}
          - {at: 2m, capacityStockout: gpu, recoverAfter: -5m}
        """);
    assertThat(p).contains("spec.faults[0].zone").contains("only for capacityStockout")
        .contains("spec.faults[1].recoverAfter").contains("must not be negative");
    String v = problems("""
        spec:
          duration: 1h
          faults:
          - {at: 2m, capacityStockout: gpu, recoverAfter: 0s}
          - {at: 3m, capacityStockout: Bad_Pool, zone: ""}
          - {at: 4m, capacityStockout: ""}
        """);
    assertThat(v).contains("spec.faults[0].recoverAfter").contains("must be more than 0")
        .contains("spec.faults[1].capacityStockout").contains("spec.faults[1].zone").contains("must not be empty")
        .contains("spec.faults[2].capacityStockout").contains("Required value");
  }

  @Test
  void spotInterruptions_readWithDefaults_roundTrip() {
    Scenario s = parse("""
        spec:
          duration: 4h
          faults:
          - {at: 3h, spotInterruption: spot, nodes: 2, notice: 90s}
          - {at: 1h, spotInterruption: spot}
        """);
    List<ScenarioFault> f = s.spec().faults();
    assertThat(f.get(0)).isEqualTo(ScenarioFault.spotInterruption(Duration.ofHours(3), "spot", 2,
        Duration.ofSeconds(90)));
    // nodes default 1, notice default 2m (AWS's interruption notice)
    assertThat(f.get(1)).isEqualTo(ScenarioFault.spotInterruption(Duration.ofHours(1), "spot", 1,
        Duration.ofMinutes(2)));
    assertThat(f.get(1).type()).isEqualTo(FaultType.SpotInterruption);
    Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(s)), "dump.yaml").ofType(Scenario.class).get(0);
    assertThat(again).isEqualTo(s);
  }

  @Test
  void badSpotInterruptions_reportedWithFieldAndRule() {
    String p = problems("""
        spec:
          duration: 1h
          faults:
          - {at: 2m, spotInterruption: spot, notice: -1m}
          - {at: 4m, nodeFailure: a-1, nodes: 2, notice: 1m}
        """);
    assertThat(p).contains("spec.faults[0].notice \"-1m\" must not be negative")
        .contains("spec.faults[1].nodes is only for spotInterruption")
        .contains("spec.faults[1].notice is only for spotInterruption");
    String v = problems("""
        spec:
          duration: 1h
          faults:
          - {at: 1m, spotInterruption: spot, nodes: 0}
          - {at: 3m, spotInterruption: Bad_Pool, recoverAfter: 5m}
        """);
    assertThat(v).contains("spec.faults[0].nodes").contains("must be at least 1")
        .contains("spec.faults[1].spotInterruption").contains("spec.faults[1].recoverAfter")
        .contains("is not for spotInterruption");
  }

  @Test
  void provisionerWithClusterAutoscaler_rejected() {
    assertThat(problems("spec:\n  duration: 1h\n  features: {provisioner: true, clusterAutoscaler: true}\n"))
        .contains("spec.features.provisioner").contains("must not be on together with clusterAutoscaler");
  }
}
