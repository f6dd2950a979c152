package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.LimitRange;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.ServiceAccount;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.scheduling.PriorityClass;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdmissionCreationOrderTest {
  @Test
  void groupsKeepTheGivenOrderWithinEach() {
    ConfigMap config = ConfigMap.of("team-a", "settings", Map.of());
    ServiceAccount account = ServiceAccount.of("team-a", "builder");
    Namespace teamB = Namespace.of("team-b");
    LimitRange limits = LimitRange.of("team-a", "limits");
    PriorityClass high = PriorityClass.of("high", 1000);
    Namespace teamA = Namespace.of("team-a");
    List<ApiObject<?>> given = List.of(config, account, teamB, limits, high, teamA);

    assertThat(Admission.creationOrder(given)).containsExactly(teamB, high, teamA, account, limits, config);
  }

  @Test
  void missingImmortalNamespacesAreThoseTheObjectsLack() {
    assertThat(Admission.missingImmortalNamespaces(List.of(Namespace.of("kube-system"), Namespace.of("team-a"))))
        .extracting(n -> n.metadata().name()).containsExactly("default", "kube-public");
    assertThat(Admission.missingImmortalNamespaces(List.of())).extracting(n -> n.metadata().name())
        .containsExactly("default", "kube-public", "kube-system");
  }
}
