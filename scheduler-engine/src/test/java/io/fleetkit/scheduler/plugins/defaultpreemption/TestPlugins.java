package io.fleetkit.scheduler.plugins.defaultpreemption;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/** Test-only plugins standing in for kube's NodeResourcesFit and the fakes of {@code testing/framework}. */
final class TestPlugins {
  private TestPlugins() {}

  /** A minimal NodeResourcesFit filter: pod count, then every requested resource against what is free. */
  static final class Fit implements FilterPlugin {
    @Override
    public String name() {
      return "NodeResourcesFit";
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      List<String> reasons = new ArrayList<>();
      if (node.pods().size() + 1 > node.allocatable().pods()) {
        reasons.add("Too many pods");
      }
      ResourceList free = node.allocatable().subtract(node.requested());
      for (String r : pod.requests().insufficient(free)) {
        reasons.add("Insufficient " + r);
      }
      return reasons.isEmpty() ? Status.success() : Status.unschedulable(reasons.toArray(String[]::new));
    }
  }

  /**
   * kube's {@code TestPlugin} of default_preemption_test.go: a PreFilter whose AddPod/RemovePod fail on nodes
   * labelled {@code error=true}.
   */
  static final class ErrorOnLabel implements PreFilterPlugin, PreFilterPlugin.PreFilterExtensions {
    @Override
    public String name() {
      return "test-plugin";
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
      return PreFilterResult.success();
    }

    @Override
    public @Nullable PreFilterExtensions preFilterExtensions() {
      return this;
    }

    @Override
    public Status addPod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node) {
      return "true".equals(node.labels().get("error"))
          ? Status.error("failed to add pod: " + podToSchedule.pod().metadata().name()) : Status.success();
    }

    @Override
    public Status removePod(CycleState state, PodInfo podToSchedule, PodInfo other, NodeInfo node) {
      return "true".equals(node.labels().get("error"))
          ? Status.error("failed to remove pod: " + podToSchedule.pod().metadata().name()) : Status.success();
    }
  }

  /** kube's {@code FakeFilterPlugin}: returns the code mapped to the node (success when absent), counting calls. */
  static final class CountingFilter implements FilterPlugin {
    final AtomicInteger calls = new AtomicInteger();
    private final Map<String, Status.Code> codes;

    CountingFilter(Map<String, Status.Code> codes) {
      this.codes = codes;
    }

    @Override
    public String name() {
      return "FakeFilter";
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      calls.incrementAndGet();
      Status.Code c = codes.getOrDefault(node.name(), Status.Code.SUCCESS);
      return c == Status.Code.SUCCESS ? Status.success()
          : new Status(c, List.of("injecting failure for pod " + pod.pod().metadata().name()), null);
    }
  }

  /** {@code NewTrueFilterPlugin}. */
  static final FilterPlugin TRUE = named("TrueFilter", (s, p, n) -> Status.success());

  /** {@code NewFalseFilterPlugin}. */
  static final FilterPlugin FALSE = named("FalseFilter", (s, p, n) -> Status.unschedulable("Nodes failed the fake plugin"));

  /** {@code NewMatchFilterPlugin}: the pod fits only the node of its own name. */
  static final FilterPlugin MATCH = named("MatchFilter", (s, p, n) ->
      p.pod().metadata().name().equals(n.name()) ? Status.success() : Status.unschedulable("Nodes failed the fake plugin"));

  private interface FilterFn {
    Status apply(CycleState s, PodInfo p, NodeInfo n);
  }

  private static FilterPlugin named(String name, FilterFn fn) {
    return new FilterPlugin() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        return fn.apply(state, pod, node);
      }
    };
  }
}
