package io.fleetkit.queueing.controller.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

final class AdmissionRecordTest {

  @Test
  void format_resourcesInNameOrder_roundTrips() {
    AdmissionRecord r = new AdmissionRecord("team-a", Map.of("nvidia.com/gpu", "a100", "cpu", "on-demand"));

    assertThat(r.format()).isEqualTo("team-a/cpu=on-demand,nvidia.com/gpu=a100");
    assertThat(AdmissionRecord.parse(r.format())).isEqualTo(r);
  }

  @Test
  void parse_noResources_isTheQueueAlone() {
    assertThat(AdmissionRecord.parse("cq/")).isEqualTo(new AdmissionRecord("cq", Map.of()));
  }

  @Test
  void parse_malformed_namesTheAnnotationAndEntry() {
    assertThatThrownBy(() -> AdmissionRecord.parse("cq"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("annotation kueue.x-k8s.io/admission \"cq\" must be CLUSTERQUEUE/RESOURCE=FLAVOR,...");
    assertThatThrownBy(() -> AdmissionRecord.parse("cq/cpu"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("annotation kueue.x-k8s.io/admission \"cq/cpu\": entry \"cpu\" must be RESOURCE=FLAVOR");
  }
}
