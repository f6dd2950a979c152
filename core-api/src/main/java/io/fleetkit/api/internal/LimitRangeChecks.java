package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.LimitRangeItem;
import io.fleetkit.api.core.LimitRangeSpec;
import io.fleetkit.api.core.LimitType;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/** Kubernetes' {@code ValidateLimitRange} ({@code pkg/apis/core/validation/validation.go}), messages verbatim. */
public final class LimitRangeChecks {
  /** Values at or above this have no exact milli-value (Kubernetes' {@code resource.MaxMilliValue}). */
  private static final long MAX_MILLI_VALUE = Long.MAX_VALUE / 1000;

  private LimitRangeChecks() {}

  public static void check(Violations v, LimitRangeSpec spec) {
    EnumSet<LimitType> types = EnumSet.noneOf(LimitType.class);
    for (int i = 0; i < spec.limits().size(); i++) {
      LimitRangeItem item = spec.limits().get(i);
      String p = "spec.limits[" + i + "]";
      if (!types.add(item.type())) {
        v.add(p + ".type", Violations.DUPLICATE, item.type());
      }
      TreeSet<String> keys = new TreeSet<>();
      names(v, p + ".max", item.max(), keys);
      names(v, p + ".min", item.min(), keys);
      if (item.type() == LimitType.Pod) {
        if (!item.defaultLimit().isEmpty()) {
          v.add(p + ".default", "Forbidden: may not be specified when `type` is 'Pod'", null);
        }
        if (!item.defaultRequest().isEmpty()) {
          v.add(p + ".defaultRequest", "Forbidden: may not be specified when `type` is 'Pod'", null);
        }
      } else {
        names(v, p + ".default", item.defaultLimit(), keys);
        names(v, p + ".defaultRequest", item.defaultRequest(), keys);
      }
      if (item.type() == LimitType.PersistentVolumeClaim && !item.min().has("storage")
          && !item.max().has("storage")) {
        v.required(p + ".limits", "either minimum or maximum storage value is required, but neither was provided");
      }
      names(v, p + ".maxLimitRequestRatio", item.maxLimitRequestRatio(), keys);
      for (String k : keys) {
        order(v, p, k, item);
      }
    }
  }

  private static void names(Violations v, String field, ResourceList list, TreeSet<String> keys) {
    names(v, field, list.asMap(), keys);
  }

  private static void names(Violations v, String field, Map<String, Quantity> map, TreeSet<String> keys) {
    for (Map.Entry<String, Quantity> e : map.entrySet()) {
      String path = field + "[" + e.getKey() + "]";
      v.qualifiedName(path, e.getKey());
      v.nonNegative(path, e.getValue());
      keys.add(e.getKey());
    }
  }

  private static void order(Violations v, String p, String k, LimitRangeItem item) {
    boolean hasMin = item.min().has(k);
    boolean hasMax = item.max().has(k);
    boolean hasDefault = item.type() != LimitType.Pod && item.defaultLimit().has(k);
    boolean hasDefaultRequest = item.type() != LimitType.Pod && item.defaultRequest().has(k);
    boolean hasRatio = item.maxLimitRequestRatio().containsKey(k);
    Quantity min = item.min().get(k);
    Quantity max = item.max().get(k);
    Quantity dflt = item.defaultLimit().get(k);
    Quantity dreq = item.defaultRequest().get(k);
    Quantity ratio = item.maxLimitRequestRatio().getOrDefault(k, Quantity.ZERO);
    if (hasMin && hasMax && min.compareTo(max) > 0) {
      v.add(p + ".min[" + k + "]", "min value " + min + " is greater than max value " + max, min);
    }
    if (hasDefaultRequest && hasMin && min.compareTo(dreq) > 0) {
      v.add(p + ".defaultRequest[" + k + "]", "min value " + min + " is greater than default request value "
          + dreq, dreq);
    }
    if (hasDefaultRequest && hasMax && dreq.compareTo(max) > 0) {
      v.add(p + ".defaultRequest[" + k + "]", "default request value " + dreq + " is greater than max value "
          + max, dreq);
    }
    if (hasDefaultRequest && hasDefault && dreq.compareTo(dflt) > 0) {
      v.add(p + ".defaultRequest[" + k + "]", "default request value " + dreq
          + " is greater than default limit value " + dflt, dreq);
    }
    if (hasDefault && hasMin && min.compareTo(dflt) > 0) {
      v.add(p + ".default[" + k + "]", "min value " + min + " is greater than default value " + dflt, min);
    }
    if (hasDefault && hasMax && dflt.compareTo(max) > 0) {
      v.add(p + ".default[" + k + "]", "default value " + dflt + " is greater than max value " + max, max);
    }
    if (hasRatio && ratio.compareTo(Quantity.of(1)) < 0) {
      v.add(p + ".maxLimitRequestRatio[" + k + "]", "ratio " + ratio + " is less than 1", ratio);
    }
    if (hasRatio && hasMin && hasMax) {
      double ratioValue = ratio.value();
      long minValue = min.value();
      long maxValue = max.value();
      if (ratio.value() < MAX_MILLI_VALUE && minValue < MAX_MILLI_VALUE && maxValue < MAX_MILLI_VALUE) {
        ratioValue = ratio.milliValue() / 1000.0;
        minValue = min.milliValue();
        maxValue = max.milliValue();
      }
      double limit = (double) maxValue / (double) minValue;
      if (ratioValue > limit) {
        v.add(p + ".maxLimitRequestRatio[" + k + "]", "ratio " + ratio + " is greater than max/min = "
            + String.format(Locale.ROOT, "%f", limit), ratio);
      }
    }
    if (!ResourceRequirements.isOvercommitAllowed(k) && hasDefault && hasDefaultRequest
        && dflt.compareTo(dreq) != 0) {
      v.add(p + ".defaultRequest[" + k + "]", "default value " + dflt + " must equal to defaultRequest value "
          + dreq + " in " + k, dreq);
    }
  }
}
