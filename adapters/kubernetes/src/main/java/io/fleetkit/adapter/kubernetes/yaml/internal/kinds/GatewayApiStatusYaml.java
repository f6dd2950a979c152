package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The Gateway API's status conditions ({@code metav1.Condition}) both ways, as {@code kubectl get -o yaml} prints
 * them: {@code lastTransitionTime}, {@code message} and {@code reason} always (the API requires them; an empty
 * message prints as {@code ""}), {@code observedGeneration} when set, {@code status} and {@code type}. Reading, the
 * list is a map keyed by {@code type} ({@code +listType=map}): a repeated type is refused, as is a status other than
 * True, False or Unknown, or a negative {@code observedGeneration}.
 */
final class GatewayApiStatusYaml {
  private GatewayApiStatusYaml() {}

  static List<Condition> conditions(@Nullable List<io.fabric8.kubernetes.api.model.Condition> in, String path,
      DocumentContext ctx) {
    Set<String> types = new HashSet<>();
    return Fabric8Scheduling.list(in, path, ctx, (c, p, cx) -> {
      String type = Values.required(c.getType(), p + ".type", cx);
      if (!type.isEmpty() && !types.add(type)) {
        cx.error(p + ".type", "Duplicate value: conditions are keyed by type", type);
      }
      ConditionStatus status = Values.requiredEnum(ConditionStatus.class, c.getStatus(), p + ".status", cx);
      var time = Values.instant(c.getLastTransitionTime(), p + ".lastTransitionTime", cx);
      long generation = Values.longOr(c.getObservedGeneration(), 0);
      if (generation < 0) {
        cx.error(p + ".observedGeneration", "must be greater than or equal to 0", generation);
      }
      if (status == null || type.isEmpty() || generation < 0) {
        return null;
      }
      return cx.build(p, () -> new Condition(type, status, generation, time, Values.orEmpty(c.getReason()),
          Values.orEmpty(c.getMessage())));
    });
  }

  static @Nullable List<io.fabric8.kubernetes.api.model.Condition> conditionsOut(List<Condition> in) {
    return Fabric8Scheduling.out(in, c -> new ConditionBuilder()
        .withLastTransitionTime(Values.instant(c.lastTransitionTime()))
        .withMessage(c.message())
        .withObservedGeneration(c.observedGeneration() == 0 ? null : c.observedGeneration())
        .withReason(c.reason())
        .withStatus(c.status().name())
        .withType(c.type())
        .build());
  }
}
