package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetCondition;
import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A ReplicaSet's {@code status.conditions} (the ReplicaFailure a refused pod create sets) read and written. */
final class ReplicaSetConditionsYamlTest {

  @Test
  void parse_replicaFailureCondition_keptAndDumped() {
    ReplicaSet rs = KubernetesYaml.parse(RoundTripTest.resource("roundtrip/workloads.yaml"), "workloads.yaml")
        .ofType(ReplicaSet.class).get(0);

    ReplicaSetCondition c = rs.status().condition(ReplicaSetCondition.REPLICA_FAILURE);
    assertThat(c).isNotNull();
    assertThat(c.status()).isEqualTo(ConditionStatus.True);
    assertThat(c.reason()).isEqualTo("FailedCreate");
    assertThat(c.message()).contains("exceeded quota: pods");
    assertThat(c.lastTransitionTime()).isEqualTo(Instant.parse("2024-01-01T00:00:00Z"));
    assertThat(KubernetesYaml.dump(java.util.List.of(rs)))
        .contains("type: \"ReplicaFailure\"", "reason: \"FailedCreate\"");
  }
}
