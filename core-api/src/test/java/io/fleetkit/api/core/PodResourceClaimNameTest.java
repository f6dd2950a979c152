package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Pod#resourceClaimName}: the dynamic-resource-allocation library's {@code resourceclaim.Name} (a named claim,
 * or the one generated for a template as the status records it).
 */
final class PodResourceClaimNameTest {
  private static final PodResourceClaim NAMED = PodResourceClaim.ofClaim("gpu", "shared-gpu");
  private static final PodResourceClaim TEMPLATED = PodResourceClaim.ofTemplate("gpu", "one-gpu");

  private static Pod pod(PodStatus status) {
    return Pod.builder().name("p").container("c", "img", io.fleetkit.api.resource.ResourceList.EMPTY).status(status).build();
  }

  @Test
  void namedClaim_isItsName_whateverTheStatus() {
    assertThat(pod(PodStatus.of(PodPhase.Pending)).resourceClaimName(NAMED)).isEqualTo("shared-gpu");
  }

  @Test
  void templateClaim_isTheGeneratedOne_nullBeforeItIsRecorded_emptyWhenNoneWasNeeded() {
    PodStatus none = PodStatus.of(PodPhase.Pending);
    assertThat(pod(none).resourceClaimName(TEMPLATED)).isNull();
    PodStatus made = none.withResourceClaimStatuses(List.of(new PodResourceClaimStatus("gpu", "p-gpu-x7k2q")));
    assertThat(pod(made).resourceClaimName(TEMPLATED)).isEqualTo("p-gpu-x7k2q");
    PodStatus notNeeded = none.withResourceClaimStatuses(List.of(new PodResourceClaimStatus("gpu", "")));
    assertThat(pod(notNeeded).resourceClaimName(TEMPLATED)).isEmpty();
  }
}
