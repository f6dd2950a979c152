package io.fleetkit.api.internal;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Validates a {@link PodSpec} the way Kubernetes' {@code ValidatePodSpec} does for the fields FleetKit models, with
 * Kubernetes' messages. Used by Pod and by every workload for its template.
 */
public final class PodSpecChecks {
  private PodSpecChecks() {}

  /**
   * Adds every violation of {@code spec} to {@code v}, with field paths under {@code path} (e.g. {@code spec} or
   * {@code spec.template.spec}).
   */
  public static void check(PodSpec spec, String path, Violations v) {
    if (spec.containers().isEmpty()) {
      v.required(path + ".containers");
    }
    Set<String> names = new HashSet<>();
    containers(spec.initContainers(), path + ".initContainers", true, names, v);
    containers(spec.containers(), path + ".containers", false, names, v);
    resourceList(spec.overhead(), path + ".overhead", v);
    if (!spec.priorityClassName().isEmpty()) {
      v.dnsSubdomain(path + ".priorityClassName", spec.priorityClassName());
    }
    tolerations(spec.tolerations(), path + ".tolerations", v);
    spreads(spec.topologySpreadConstraints(), path + ".topologySpreadConstraints", v);
    v.dnsSubdomain(path + ".schedulerName", spec.schedulerName());
    if (!spec.nodeName().isEmpty()) {
      v.dnsSubdomain(path + ".nodeName", spec.nodeName());
    }
    volumes(spec.volumes(), path + ".volumes", v);
    v.nonNegative(path + ".terminationGracePeriodSeconds", spec.terminationGracePeriodSeconds());
    v.positiveInt32(path + ".activeDeadlineSeconds", spec.activeDeadlineSeconds());
  }

  /** Kubernetes' check that a workload's template uses one of the allowed restart policies. */
  public static void restartPolicyIn(PodSpec spec, String path, Violations v, RestartPolicy... allowed) {
    for (RestartPolicy p : allowed) {
      if (spec.restartPolicy() == p) {
        return;
      }
    }
    StringBuilder sb = new StringBuilder("Unsupported value: supported values: ");
    for (int i = 0; i < allowed.length; i++) {
      sb.append(i == 0 ? "" : ", ").append('"').append(allowed[i]).append('"');
    }
    v.add(path + ".restartPolicy", sb.toString(), spec.restartPolicy());
  }

  private static void containers(List<Container> list, String path, boolean init, Set<String> names,
      Violations v) {
    for (int i = 0; i < list.size(); i++) {
      Container c = list.get(i);
      String p = path + "[" + i + "]";
      if (c.name().isEmpty()) {
        v.required(p + ".name");
      } else {
        v.dnsLabel(p + ".name", c.name());
        if (!names.add(c.name())) {
          v.add(p + ".name", Violations.DUPLICATE, c.name());
        }
      }
      if (c.image().isEmpty()) {
        v.required(p + ".image");
      }
      if (!init && c.restartPolicy() != null) {
        v.add(p + ".restartPolicy", "Forbidden: may not be set for non-init containers", c.restartPolicy());
      }
      resources(c.resources(), p + ".resources", v);
      for (int j = 0; j < c.ports().size(); j++) {
        ContainerPort port = c.ports().get(j);
        if (port.containerPort() < 1 || port.containerPort() > 65535) {
          v.add(p + ".ports[" + j + "].containerPort", "must be between 1 and 65535, inclusive",
              port.containerPort());
        }
        if (port.hostPort() < 0 || port.hostPort() > 65535) {
          v.add(p + ".ports[" + j + "].hostPort", "must be between 1 and 65535, inclusive", port.hostPort());
        }
      }
    }
  }

  /** Kubernetes' {@code ValidateResourceRequirements}: non-negative values, requests within limits. */
  public static void resources(ResourceRequirements r, String path, Violations v) {
    ResourceList limits = r.limits();
    for (Map.Entry<String, Quantity> e : limits.asMap().entrySet()) {
      quantity(e.getKey(), e.getValue(), path + ".limits." + e.getKey(), v);
    }
    for (Map.Entry<String, Quantity> e : r.requests().asMap().entrySet()) {
      String name = e.getKey();
      Quantity req = e.getValue();
      String reqPath = path + ".requests." + name;
      quantity(name, req, reqPath, v);
      if (limits.has(name)) {
        Quantity lim = limits.get(name);
        if (!ResourceRequirements.isOvercommitAllowed(name)) {
          if (req.compareTo(lim) != 0) {
            v.add(reqPath, "must be equal to " + name + " limit of " + lim, req);
          }
        } else if (req.compareTo(lim) > 0) {
          v.add(reqPath, "must be less than or equal to " + name + " limit of " + lim, req);
        }
      } else if (!ResourceRequirements.isOvercommitAllowed(name)) {
        v.add(path + ".limits", "Required value: Limit must be set for non overcommitable resources", null);
      }
    }
  }

  /** Non-negative quantities of a resource list (overhead, capacity). */
  public static void resourceList(ResourceList list, String path, Violations v) {
    for (Map.Entry<String, Quantity> e : list.asMap().entrySet()) {
      quantity(e.getKey(), e.getValue(), path + "." + e.getKey(), v);
    }
  }

  private static void quantity(String name, Quantity q, String path, Violations v) {
    if (q.signum() < 0) {
      v.add(path, Violations.NON_NEGATIVE, q);
    } else if (!ResourceRequirements.isOvercommitAllowed(name) && !name.startsWith("hugepages-")
        && q.toBigDecimal().stripTrailingZeros().scale() > 0) {
      v.add(path, "must be an integer", q);
    }
  }

  private static void tolerations(List<Toleration> list, String path, Violations v) {
    for (int i = 0; i < list.size(); i++) {
      Toleration t = list.get(i);
      String p = path + "[" + i + "]";
      if (t.key().isEmpty() && t.operator() != TolerationOperator.Exists) {
        v.add(p + ".operator", "operator must be Exists when `key` is empty, which means \"match all values and"
            + " all keys\"", t.operator());
      }
      if (t.operator() == TolerationOperator.Exists && !t.value().isEmpty()) {
        v.add(p + ".operator", "value must be empty when `operator` is 'Exists'", t.value());
      }
      if (t.tolerationSeconds() != null && t.effect() != TaintEffect.NoExecute) {
        v.add(p + ".effect", "effect must be 'NoExecute' when `tolerationSeconds` is set", t.effect());
      }
    }
  }

  private static void spreads(List<TopologySpreadConstraint> list, String path, Violations v) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      TopologySpreadConstraint c = list.get(i);
      String p = path + "[" + i + "]";
      if (c.maxSkew() <= 0) {
        v.add(p + ".maxSkew", Violations.POSITIVE, c.maxSkew());
      }
      if (c.topologyKey().isEmpty()) {
        v.required(p + ".topologyKey");
      } else if (!seen.add(c.topologyKey() + "\u0000" + c.whenUnsatisfiable())) {
        v.add(p, Violations.DUPLICATE, "{" + c.topologyKey() + ", " + c.whenUnsatisfiable() + "}");
      }
      Integer minDomains = c.minDomains();
      if (minDomains != null) {
        if (minDomains <= 0) {
          v.add(p + ".minDomains", Violations.POSITIVE, minDomains);
        }
        if (c.whenUnsatisfiable() != UnsatisfiableConstraintAction.DoNotSchedule) {
          v.add(p + ".minDomains", "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not "
              + c.whenUnsatisfiable(), minDomains);
        }
      }
    }
  }

  private static void volumes(List<Volume> list, String path, Violations v) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      Volume vol = list.get(i);
      String p = path + "[" + i + "]";
      v.dnsLabel(p + ".name", vol.name());
      if (!vol.name().isEmpty() && !names.add(vol.name())) {
        v.add(p + ".name", Violations.DUPLICATE, vol.name());
      }
      VolumeSource s = vol.source();
      if (s instanceof VolumeSource.PersistentVolumeClaim pvc && pvc.claimName().isEmpty()) {
        v.required(p + ".persistentVolumeClaim.claimName");
      } else if (s instanceof VolumeSource.HostPath hp && hp.path().isEmpty()) {
        v.required(p + ".hostPath.path");
      } else if (s instanceof VolumeSource.ConfigMap cm && cm.name().isEmpty()) {
        v.required(p + ".configMap.name");
      } else if (s instanceof VolumeSource.Secret sec && sec.secretName().isEmpty()) {
        v.required(p + ".secret.secretName");
      } else if (s instanceof VolumeSource.EmptyDir ed && ed.sizeLimit() != null && ed.sizeLimit().signum() < 0) {
        v.add(p + ".emptyDir.sizeLimit", Violations.NON_NEGATIVE, ed.sizeLimit());
      }
    }
  }
}
