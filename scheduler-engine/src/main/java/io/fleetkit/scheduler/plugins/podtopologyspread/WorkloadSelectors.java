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
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.function.Consumer;
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
  private final FrameworkHandle handle;
  private volatile ByName<ReplicationController> rcs = ByName.empty();
  private volatile ByName<ReplicaSet> rss = ByName.empty();
  private volatile ByName<StatefulSet> sss = ByName.empty();

  private WorkloadSelectors(FrameworkHandle handle) {
    this.handle = handle;
  }

  /**
   * The lookup over {@code handle}'s objects, which finds a pod's controller by namespace and name in an index kept
   * while the handle lists the same objects (a list object per kind, replaced when one changes). Thread-safe.
   */
  static Function<Pod, @Nullable LabelSelector> fromHandle(FrameworkHandle handle) {
    return new WorkloadSelectors(handle)::selectorOf;
  }

  /** {@code pod}'s workload selector over {@code handle}'s objects. */
  static @Nullable LabelSelector of(Pod pod, FrameworkHandle handle) {
    return new WorkloadSelectors(handle).selectorOf(pod);
  }

  /**
   * A kind's objects' positions by name (the first of each name), in the list object they were indexed from. A later
   * list of the kind keeps most positions (an object replaced keeps its place), so a position is tried in it before
   * the list is indexed again.
   */
  private record ByName<T>(List<T> source, Map<String, Integer> positions) {
    static <T> ByName<T> empty() {
      return new ByName<>(List.of(), Map.of());
    }
  }

  private static <T> @Nullable T find(List<T> list, ByName<T> cached, String ns, String name,
      Function<T, ObjectMeta> meta, Consumer<ByName<T>> store) {
    ByName<T> index = cached;
    if (index.source() != list) {
      Integer at = index.positions().get(name);
      if (at != null && at < list.size()) {
        T o = list.get(at);
        ObjectMeta m = meta.apply(o);
        if (m.name().equals(name) && m.namespace().equals(ns)) {
          return o; // the object of that namespace and name (there is one), where it was
        }
      }
      Map<String, Integer> byName = new HashMap<>(); // by name alone (names' hashes are cached): namespaces checked below
      for (int i = 0, n = list.size(); i < n; i++) {
        byName.putIfAbsent(meta.apply(list.get(i)).name(), i);
      }
      index = new ByName<>(list, byName);
      store.accept(index);
    }
    Integer at = index.positions().get(name);
    T found = at == null ? null : list.get(at);
    if (found == null || meta.apply(found).namespace().equals(ns)) {
      return found;
    }
    for (T o : list) { // the same name in several namespaces
      ObjectMeta m = meta.apply(o);
      if (m.name().equals(name) && m.namespace().equals(ns)) {
        return o;
      }
    }
    return null;
  }

  private @Nullable LabelSelector selectorOf(Pod pod) {
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
      ReplicationController rc = find(handle.list(ReplicationController.class), rcs, ns, owner.name(),
          ReplicationController::metadata, i -> rcs = i);
      if (rc != null) {
        ownerSelector = LabelSelector.of(rc.spec().selector());
      }
    } else if (owner != null && owner.apiVersion().equals("apps/v1")) {
      if (owner.kind().equals(ReplicaSet.KIND)) {
        ReplicaSet rs = find(handle.list(ReplicaSet.class), rss, ns, owner.name(), ReplicaSet::metadata,
            i -> rss = i);
        if (rs != null) {
          ownerSelector = rs.spec().selector();
        }
      } else if (owner.kind().equals(StatefulSet.KIND)) {
        StatefulSet ss = find(handle.list(StatefulSet.class), sss, ns, owner.name(), StatefulSet::metadata,
            i -> sss = i);
        if (ss != null) {
          ownerSelector = ss.spec().selector();
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
