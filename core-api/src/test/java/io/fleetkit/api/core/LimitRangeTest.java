package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.Map;
import java.util.List;
import org.junit.jupiter.api.Test;

/** LimitRange validation: Kubernetes' {@code ValidateLimitRange} rules and messages. */
final class LimitRangeTest {

  private static ResourceList rl(String... kv) {
    ResourceList.Builder b = ResourceList.builder();
    for (int i = 0; i < kv.length; i += 2) {
      b.put(kv[i], kv[i + 1]);
    }
    return b.build();
  }

  private static List<String> violations(LimitRangeItem... items) {
    return catchThrowableOfType(ValidationException.class, () -> LimitRange.of("a", "lr", items)).violations()
        .stream().map(Object::toString).toList();
  }

  @Test
  void valid_containerItem_keepsEveryPart() {
    LimitRange lr = LimitRange.of("a", "lr", LimitRangeItem.of(LimitType.Container).withMin(rl("cpu", "50m"))
        .withMax(rl("cpu", "2")).withDefaultRequest(rl("cpu", "100m")).withDefaultLimit(rl("cpu", "200m"))
        .withMaxLimitRequestRatio(Map.of("cpu", Quantity.of(4))));

    assertThat(lr.item(LimitType.Container).defaultLimit().get("cpu")).hasToString("200m");
    assertThat(lr.item(LimitType.Pod)).isNull();
    assertThat(lr.status()).isNull();
  }

  @Test
  void orderRules_violated_reportUpstreamMessages() {
    assertThat(violations(LimitRangeItem.of(LimitType.Container).withMin(rl("memory", "2Gi"))
        .withMax(rl("memory", "1Gi")).withDefaultRequest(rl("memory", "3Gi")).withDefaultLimit(rl("memory", "512Mi"))))
        .containsExactly(
            "LimitRange a/lr: spec.limits[0].min[memory] \"2Gi\" min value 2Gi is greater than max value 1Gi",
            "LimitRange a/lr: spec.limits[0].defaultRequest[memory] \"3Gi\" default request value 3Gi is greater"
                + " than max value 1Gi",
            "LimitRange a/lr: spec.limits[0].defaultRequest[memory] \"3Gi\" default request value 3Gi is greater"
                + " than default limit value 512Mi",
            "LimitRange a/lr: spec.limits[0].default[memory] \"2Gi\" min value 2Gi is greater than default value"
                + " 512Mi");
  }

  @Test
  void podDefaultsDuplicateTypeAndPvcWithoutStorage_areRejected() {
    assertThat(violations(LimitRangeItem.of(LimitType.Pod).withDefaultLimit(rl("cpu", "1")),
        LimitRangeItem.of(LimitType.Pod), LimitRangeItem.of(LimitType.PersistentVolumeClaim)))
        .containsExactly(
            "LimitRange a/lr: spec.limits[0].default Forbidden: may not be specified when `type` is 'Pod'",
            "LimitRange a/lr: spec.limits[1].type \"Pod\" Duplicate value",
            "LimitRange a/lr: spec.limits[2].limits Required value: either minimum or maximum storage value is"
                + " required, but neither was provided");
  }

  @Test
  void ratioRules_violated_reportUpstreamMessages() {
    assertThat(violations(LimitRangeItem.of(LimitType.Container).withMin(rl("cpu", "1")).withMax(rl("cpu", "2"))
        .withMaxLimitRequestRatio(Map.of("cpu", Quantity.of(3)))))
        .containsExactly("LimitRange a/lr: spec.limits[0].maxLimitRequestRatio[cpu] \"3\" ratio 3 is greater than"
            + " max/min = 2.000000");
    assertThat(violations(LimitRangeItem.of(LimitType.Container).withMaxLimitRequestRatio(Map.of("memory", Quantity.parse("500m")))))
        .containsExactly("LimitRange a/lr: spec.limits[0].maxLimitRequestRatio[memory] \"500m\" ratio 500m is less"
            + " than 1");
  }

  @Test
  void extendedResource_defaultMustEqualDefaultRequest() {
    assertThat(violations(LimitRangeItem.of(LimitType.Container).withDefaultLimit(rl("nvidia.com/gpu", "2"))
        .withDefaultRequest(rl("nvidia.com/gpu", "1"))))
        .containsExactly("LimitRange a/lr: spec.limits[0].defaultRequest[nvidia.com/gpu] \"1\" default value 2 must"
            + " equal to defaultRequest value 1 in nvidia.com/gpu");
  }
}
