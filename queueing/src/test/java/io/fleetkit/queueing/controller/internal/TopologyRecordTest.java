package io.fleetkit.queueing.controller.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.queueing.TopologyAssignment;
import io.fleetkit.queueing.TopologyAssignment.Domain;
import java.util.List;
import org.junit.jupiter.api.Test;

final class TopologyRecordTest {

  @Test
  void format_hostnameLevel_roundTrips() {
    TopologyAssignment ta = new TopologyAssignment(List.of("kubernetes.io/hostname"),
        List.of(Domain.of(2, "h1"), Domain.of(1, "h2")));

    assertThat(TopologyRecord.format(ta)).isEqualTo("kubernetes.io/hostname|h1=2;h2=1");
    assertThat(TopologyRecord.parse(TopologyRecord.format(ta))).isEqualTo(ta);
  }

  @Test
  void format_twoLevels_keepsTheDomainOrder() {
    TopologyAssignment ta = new TopologyAssignment(List.of("cloud.com/block", "cloud.com/rack"),
        List.of(Domain.of(1, "b2", "r1"), Domain.of(3, "b1", "r2")));

    assertThat(TopologyRecord.format(ta)).isEqualTo("cloud.com/block,cloud.com/rack|b2,r1=1;b1,r2=3");
    assertThat(TopologyRecord.parse(TopologyRecord.format(ta))).isEqualTo(ta);
  }

  @Test
  void parse_malformed_namesTheAnnotationAndTheRule() {
    assertThatThrownBy(() -> TopologyRecord.parse("h1=2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("annotation fleetkit.io/queue-topology-assignment \"h1=2\": must be LEVEL,...|VALUE,...=COUNT;...");
    assertThatThrownBy(() -> TopologyRecord.parse("a,b|x=1"))
        .hasMessageContaining("entry \"x=1\" must have 2 value(s) and a count of at least 0");
    assertThatThrownBy(() -> TopologyRecord.parse("a|x=two")).hasMessageContaining("must end with a pod count");
    assertThatThrownBy(() -> TopologyRecord.parse("a|x")).hasMessageContaining("entry \"x\" must be VALUE,...=COUNT");
  }

  /** Integer.parseInt read "\u0662" (Arabic-Indic two) as a count of 2; counts are ASCII digits. */
  @Test
  void parse_countInDigitsOfAnotherScript_refused() {
    assertThatThrownBy(() -> TopologyRecord.parse("a|x=\u0662"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("entry \"x=\u0662\" must end with a pod count");
    assertThat(TopologyRecord.parse("a|x=2").domains()).extracting(Domain::count).containsExactly(2);
  }
}
