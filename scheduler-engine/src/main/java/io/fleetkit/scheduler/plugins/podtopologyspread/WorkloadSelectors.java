package io.fleetkit.scheduler.plugins.podtopologyspread;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.framework.FrameworkHandle;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The selector of the workload a pod belongs to, as upstream's {@code helper.DefaultSelector}
 * (pkg/scheduler/framework/plugins/helper/spread.go): the merged selectors of the Services in the pod's namespace
 * that select it, plus the selector of its controlling ReplicationController, ReplicaSet or StatefulSet. Default spreading applies only
 * when this is non-empty. Objects come from {@link FrameworkHandle#list} (what the scheduler was given with
 * {@code addObject}, or watched from the store).
 */
final class WorkloadSelectors {
  private WorkloadSelectors() {}

  static Function<Pod, @Nullable LabelSelector> fromHandle(FrameworkHandle handle) {
    return pod -> of(pod, handle);
  }

  static @Nullable LabelSelector of(Pod pod, FrameworkHandle handle) {
    String ns = pod.metadata().namespace();
    Map<String, String> labels = pod.metadata().labels();
    Map<String, String> matchLabels = null; // built when something selects the pod (most pods: nothing)
    for (Service s : handle.list(Service.class)) {
      Map<String, String> sel = s.spec().selector();
      if (s.metadata().namespace().equals(ns) && !sel.isEmpty()
          && labels.entrySet().containsAll(sel.entrySet())) {
        if (matchLabels == null) {
          matchLabels = new LinkedHashMap<>();
        }
        matchLabels.putAll(sel);
      }
    }
    OwnerReference owner = pod.metadata().controllerRef();
    LabelSelector ownerSelector = null;
    if (owner != null && owner.apiVersion().equals(ReplicationController.API_VERSION)
        && owner.kind().equals(ReplicationController.KIND)) {
      for (ReplicationController rc : handle.list(ReplicationController.class)) {
        if (rc.metadata().namespace().equals(ns) && rc.metadata().name().equals(owner.name())) {
          ownerSelector = LabelSelector.of(rc.spec().selector());
        }
      }
    } else if (owner != null && owner.apiVersion().equals("apps/v1")) {
      if (owner.kind().equals(ReplicaSet.KIND)) {
        for (ReplicaSet rs : handle.list(ReplicaSet.class)) {
          if (rs.metadata().namespace().equals(ns) && rs.metadata().name().equals(owner.name())) {
            ownerSelector = rs.spec().selector();
          }
        }
      } else if (owner.kind().equals(StatefulSet.KIND)) {
        for (StatefulSet ss : handle.list(StatefulSet.class)) {
          if (ss.metadata().namespace().equals(ns) && ss.metadata().name().equals(owner.name())) {
            ownerSelector = ss.spec().selector();
          }
        }
      }
    }
    List<LabelSelectorRequirement> expressions = List.of();
    if (ownerSelector != null) {
      if (matchLabels == null) {
        matchLabels = new LinkedHashMap<>();
      }
      matchLabels.putAll(ownerSelector.matchLabels());
      expressions = new ArrayList<>(ownerSelector.matchExpressions());
    }
    if ((matchLabels == null || matchLabels.isEmpty()) && expressions.isEmpty()) {
      return null;
    }
    return new LabelSelector(matchLabels == null ? Map.of() : matchLabels, expressions);
  }
}
