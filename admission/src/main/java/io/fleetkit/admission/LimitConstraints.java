package io.fleetkit.admission;

import io.fleetkit.api.core.LimitRangeItem;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The checks of Kubernetes' LimitRanger ({@code plugin/pkg/admission/limitranger/admission.go}: {@code minConstraint},
 * {@code maxConstraint}, {@code maxRequestConstraint}, {@code limitRequestRatioConstraint}) with upstream's messages,
 * applied per container or, for type Pod, to {@link io.fleetkit.api.core.PodSpec#effectiveRequestsExcludingOverhead()}
 * and its limits. Pure functions; thread-safe.
 */
final class LimitConstraints {
  /** Values above this have no exact milli-value (Kubernetes' {@code resource.MaxMilliValue}). */
  private static final long MAX_MILLI_VALUE = Long.MAX_VALUE / 1000;

  private LimitConstraints() {}

  /** Applies the min, max and ratio rules of {@code item} to one request/limit pair; adds each failure to {@code errs}. */
  static void check(LimitRangeItem item, ResourceList requests, ResourceList limits, List<String> errs) {
    String type = item.type().name();
    item.min().forEach((r, v) -> add(errs, min(type, r, v, requests, limits)));
    item.max().forEach((r, v) -> add(errs, max(type, r, v, requests, limits)));
    item.maxLimitRequestRatio().forEach((r, v) -> add(errs, ratio(type, r, v, requests, limits)));
  }

  private static void add(List<String> errs, @Nullable String err) {
    if (err != null) {
      errs.add(err);
    }
  }

  /**
   * {@code requestLimitEnforcedValues}: compare in milli-units unless a value would overflow them. Values are read
   * from the lists by name, so no quantity is made unless a message needs it.
   */
  private static boolean milli(long... values) {
    for (long v : values) {
      if (v > MAX_MILLI_VALUE) {
        return false;
      }
    }
    return true;
  }

  private static long value(ResourceList l, String r, boolean milli) {
    return milli ? l.milliValue(r) : l.value(r);
  }

  private static long value(Quantity q, boolean milli) {
    return milli ? q.milliValue() : q.value();
  }

  static @Nullable String min(String type, String r, Quantity enforced, ResourceList requests, ResourceList limits) {
    if (!requests.has(r)) {
      return "minimum " + r + " usage per " + type + " is " + enforced + ".  No request is specified.";
    }
    boolean m = milli(requests.value(r), limits.value(r), enforced.value());
    long min = value(enforced, m);
    if (value(requests, r, m) < min) {
      return "minimum " + r + " usage per " + type + " is " + enforced + ", but request is " + requests.get(r) + ".";
    }
    if (limits.has(r) && value(limits, r, m) < min) {
      return "minimum " + r + " usage per " + type + " is " + enforced + ", but limit is " + limits.get(r) + ".";
    }
    return null;
  }

  static @Nullable String max(String type, String r, Quantity enforced, ResourceList requests, ResourceList limits) {
    if (!limits.has(r)) {
      return "maximum " + r + " usage per " + type + " is " + enforced + ".  No limit is specified.";
    }
    boolean m = milli(requests.value(r), limits.value(r), enforced.value());
    long max = value(enforced, m);
    if (value(limits, r, m) > max) {
      return "maximum " + r + " usage per " + type + " is " + enforced + ", but limit is " + limits.get(r) + ".";
    }
    if (requests.has(r) && value(requests, r, m) > max) {
      return "maximum " + r + " usage per " + type + " is " + enforced + ", but request is " + requests.get(r) + ".";
    }
    return null;
  }

  /** {@code maxRequestConstraint}: the max of a PersistentVolumeClaim item, checked against the request only. */
  static @Nullable String maxRequest(String type, String r, Quantity enforced, ResourceList requests) {
    if (!requests.has(r)) {
      return "maximum " + r + " usage per " + type + " is " + enforced + ".  No request is specified.";
    }
    boolean m = milli(requests.value(r), enforced.value());
    if (value(requests, r, m) > value(enforced, m)) {
      return "maximum " + r + " usage per " + type + " is " + enforced + ", but request is " + requests.get(r) + ".";
    }
    return null;
  }

  static @Nullable String ratio(String type, String r, Quantity enforced, ResourceList requests,
      ResourceList limits) {
    boolean m = milli(requests.value(r), limits.value(r), enforced.value());
    long reqValue = value(requests, r, m);
    long limValue = value(limits, r, m);
    if (!requests.has(r) || reqValue == 0) {
      return r + " max limit to request ratio per " + type + " is " + enforced
          + ", but no request is specified or request is 0.";
    }
    if (!limits.has(r) || limValue == 0) {
      return r + " max limit to request ratio per " + type + " is " + enforced
          + ", but no limit is specified or limit is 0.";
    }
    double observed = (double) limValue / (double) reqValue;
    double display = observed;
    double maxRatio = enforced.value();
    if (enforced.value() <= MAX_MILLI_VALUE) {
      observed = observed * 1000;
      maxRatio = enforced.milliValue();
    }
    if (observed > maxRatio) {
      return r + " max limit to request ratio per " + type + " is " + enforced + ", but provided ratio is "
          + String.format(Locale.ROOT, "%f", display) + ".";
    }
    return null;
  }

  /** Sorted names of the resources in {@code defaults} that {@code have} lacks. */
  static List<String> missing(ResourceList defaults, ResourceList have) {
    return defaults.names().stream().filter(n -> !have.has(n)).sorted().toList();
  }
}
