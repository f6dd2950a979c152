package io.fleetkit.api.autoscaling;

import io.fleetkit.api.Violations;
import io.fleetkit.api.resource.Quantity;
import java.util.List;

/**
 * The checks of {@code pkg/apis/autoscaling/validation/validation.go}, with its wording, plus one FleetKit rule:
 * a target's type must name the field that is set.
 */
final class AutoscalingRules {
  /** The largest scaling policy period. */
  static final int MAX_PERIOD_SECONDS = 1800;
  /** The largest stabilization window. */
  static final int MAX_STABILIZATION_WINDOW_SECONDS = 3600;

  private AutoscalingRules() {}

  static void crossVersionObjectReference(Violations v, String path, CrossVersionObjectReference ref) {
    if (ref.kind().isEmpty()) {
      v.required(path + ".kind");
    } else {
      v.pathSegmentName(path + ".kind", ref.kind());
    }
    if (ref.name().isEmpty()) {
      v.required(path + ".name");
    } else {
      v.pathSegmentName(path + ".name", ref.name());
    }
  }

  static void metrics(Violations v, String path, List<MetricSpec> metrics) {
    for (int i = 0; i < metrics.size(); i++) {
      metric(v, path + "[" + i + "]", metrics.get(i));
    }
  }

  private static void metric(Violations v, String path, MetricSpec m) {
    MetricSourceType type = m.type();
    Object[] present = {m.resource(), m.containerResource(), m.pods(), m.object(), m.external()};
    MetricSourceType[] fields = {MetricSourceType.Resource, MetricSourceType.ContainerResource,
        MetricSourceType.Pods, MetricSourceType.Object, MetricSourceType.External};
    if (m.source() == null) {
      v.required(path + "." + type.field(), "must populate information for the given metric source");
    }
    for (int i = 0; i < fields.length; i++) {
      if (fields[i] != type && present[i] != null) {
        v.add(path + "." + fields[i].field(), "must populate the given metric source only", null);
      }
    }
    String src = path + "." + type.field();
    switch (type) {
      case Resource -> {
        ResourceMetricSource r = m.resource();
        if (r != null) {
          if (r.name().isEmpty()) {
            v.required(src + ".name", "must specify a resource name");
          }
          utilizationOrAverage(v, src + ".target", r.target());
        }
      }
      case ContainerResource -> {
        ContainerResourceMetricSource r = m.containerResource();
        if (r != null) {
          if (r.name().isEmpty()) {
            v.required(src + ".name", "must specify a resource name");
          }
          if (r.container().isEmpty()) {
            v.required(src + ".container", "must specify a container");
          } else {
            v.dnsLabel(src + ".container", r.container());
          }
          utilizationOrAverage(v, src + ".target", r.target());
        }
      }
      case Pods -> {
        PodsMetricSource p = m.pods();
        if (p != null) {
          metricIdentifier(v, src + ".metric", p.metric());
          target(v, src + ".target", p.target(), false);
          if (p.target().averageValue() == null) {
            v.required(src + ".target.averageValue", "must specify a positive target averageValue");
          }
        }
      }
      case Object -> {
        ObjectMetricSource o = m.object();
        if (o != null) {
          crossVersionObjectReference(v, src + ".describedObject", o.describedObject());
          metricIdentifier(v, src + ".metric", o.metric());
          target(v, src + ".target", o.target(), false);
          if (o.target().value() == null && o.target().averageValue() == null) {
            v.required(src + ".target.averageValue", "must set either a target value or averageValue");
          }
        }
      }
      case External -> {
        ExternalMetricSource e = m.external();
        if (e != null) {
          metricIdentifier(v, src + ".metric", e.metric());
          target(v, src + ".target", e.target(), false);
          if (e.target().value() == null && e.target().averageValue() == null) {
            v.required(src + ".target.averageValue", "must set either a target value for metric or a per-pod target");
          }
          if (e.target().value() != null && e.target().averageValue() != null) {
            v.add(src + ".target.value", "may not set both a target value for metric and a per-pod target", null);
          }
        }
      }
    }
  }

  private static void utilizationOrAverage(Violations v, String path, MetricTarget t) {
    target(v, path, t, true);
    if (t.averageUtilization() == null && t.averageValue() == null) {
      v.required(path + ".averageUtilization", "must set either a target raw value or a target utilization");
    }
    if (t.averageUtilization() != null && t.averageValue() != null) {
      v.add(path + ".averageValue", "may not set both a target raw value and a target utilization", null);
    }
  }

  private static void target(Violations v, String path, MetricTarget t, boolean utilizationAllowed) {
    Quantity value = t.value();
    if (value != null && value.signum() != 1) {
      v.add(path + ".value", "must be positive", value);
    }
    Quantity average = t.averageValue();
    if (average != null && average.signum() != 1) {
      v.add(path + ".averageValue", "must be positive", average);
    }
    Integer utilization = t.averageUtilization();
    if (utilization != null) {
      if (!utilizationAllowed) {
        v.add(path + ".averageUtilization", "may only be set for Resource and ContainerResource metrics",
            utilization);
      } else if (utilization < 1) {
        v.add(path + ".averageUtilization", "must be greater than 0", utilization);
      }
    }
    boolean typeFieldSet = switch (t.type()) {
      case Utilization -> utilization != null;
      case Value -> value != null;
      case AverageValue -> average != null;
    };
    if (!typeFieldSet) {
      String field = switch (t.type()) {
        case Utilization -> "averageUtilization";
        case Value -> "value";
        case AverageValue -> "averageValue";
      };
      v.required(path + "." + field, "must be set when type is " + t.type());
    }
  }

  private static void metricIdentifier(Violations v, String path, MetricIdentifier id) {
    if (id.name().isEmpty()) {
      v.required(path + ".name", "must specify a metric name");
    } else {
      v.pathSegmentName(path + ".name", id.name());
    }
    v.labelSelector(path + ".selector", id.selector());
  }

  static void behavior(Violations v, String path, HorizontalPodAutoscalerBehavior b) {
    scalingRules(v, path + ".scaleUp", b.scaleUp());
    scalingRules(v, path + ".scaleDown", b.scaleDown());
  }

  private static void scalingRules(Violations v, String path, HPAScalingRules r) {
    Integer window = r.stabilizationWindowSeconds();
    if (window != null && window < 0) {
      v.add(path + ".stabilizationWindowSeconds", "must be greater than or equal to zero", window);
    }
    if (window != null && window > MAX_STABILIZATION_WINDOW_SECONDS) {
      v.add(path + ".stabilizationWindowSeconds",
          "must be less than or equal to " + MAX_STABILIZATION_WINDOW_SECONDS, window);
    }
    if (r.policies().isEmpty()) {
      v.required(path + ".policies", "must specify at least one Policy");
    }
    for (int i = 0; i < r.policies().size(); i++) {
      HPAScalingPolicy p = r.policies().get(i);
      String pp = path + ".policies[" + i + "]";
      if (p.value() <= 0) {
        v.add(pp + ".value", "must be greater than zero", p.value());
      }
      if (p.periodSeconds() <= 0) {
        v.add(pp + ".periodSeconds", "must be greater than zero", p.periodSeconds());
      }
      if (p.periodSeconds() > MAX_PERIOD_SECONDS) {
        v.add(pp + ".periodSeconds", "must be less than or equal to " + MAX_PERIOD_SECONDS, p.periodSeconds());
      }
    }
  }
}
