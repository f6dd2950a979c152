package io.fleetkit.api.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

final class NodeStartupTest {
  private static Duration s(long seconds) {
    return Duration.ofSeconds(seconds);
  }

  /** A node is in exactly the phase whose [start, start of the next) holds the time since its request. */
  @Property(tries = 300)
  void phaseAt_isThePhaseWhoseIntervalHoldsTheTime(@ForAll @LongRange(max = 600) long provision,
      @ForAll @LongRange(max = 600) long boot, @ForAll @LongRange(max = 600) long driver,
      @ForAll @LongRange(max = 600) long pull, @ForAll @LongRange(max = 3000) long t) {
    NodeStartup ns = new NodeStartup("gpu", s(provision), s(boot), s(driver), s(pull));
    StartupPhase p = ns.phaseAt(s(t));
    assertThat(ns.start(p)).isLessThanOrEqualTo(s(t));
    if (p != StartupPhase.Ready) {
      assertThat(s(t)).isLessThan(ns.start(StartupPhase.values()[p.ordinal() + 1]));
    } else {
      assertThat(s(t)).isGreaterThanOrEqualTo(ns.total());
    }
    assertThat(ns.total()).isEqualTo(s(provision + boot + driver + pull));
  }

  private static Scenario scenario(List<ScenarioFault> faults, List<NodeStartup> startup, ScenarioFeatures f) {
    return new Scenario(ObjectMeta.builder().name("day").build(), new ScenarioSpec(Duration.ofHours(1), 1,
        ScenarioSpec.DEFAULT_SAMPLE_INTERVAL, List.of(), faults, f, List.of(), List.of(), List.of(), startup));
  }

  @Test
  void badStartupFaultsAndBothAutoscalers_everyProblemNamed() {
    assertThatThrownBy(() -> scenario(
        List.of(ScenarioFault.gpuDeviceFault(s(60), "", 0, null), ScenarioFault.apiSlowness(s(60), s(0), s(-5))),
        List.of(new NodeStartup("gpu", s(-1), s(0), s(0), s(0)), new NodeStartup("gpu", s(0), s(0), s(0), s(0))),
        new ScenarioFeatures(true, true, true, true, true, true, true)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Scenario day")
        .hasMessageContaining("spec.faults[0].gpuDeviceFault").hasMessageContaining("spec.faults[0].devices")
        .hasMessageContaining("spec.faults[1].apiSlowness").hasMessageContaining("spec.faults[1].recoverAfter")
        .hasMessageContaining("spec.nodeStartup[0].provision").hasMessageContaining("spec.nodeStartup[1].pool")
        .hasMessageContaining("spec.features.provisioner");
  }

  @Test
  void withProvisioner_switchesTheClusterAutoscalerOff() {
    ScenarioFeatures f = ScenarioFeatures.ALL.withProvisioner();
    assertThat(f.provisioner()).isTrue();
    assertThat(f.clusterAutoscaler()).isFalse();
    assertThat(scenario(List.of(), List.of(), f).spec().features()).isEqualTo(f);
  }
}
