package io.fleetkit.scheduler.testing;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PermitPlugin;
import io.fleetkit.api.framework.PermitResult;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import java.util.function.BiFunction;

/** Test plugins defined by a lambda. */
public final class LambdaPlugins {
  private LambdaPlugins() {}

  /** A Filter plugin named {@code name}. */
  public static FilterPlugin filter(String name, BiFunction<PodInfo, NodeInfo, Status> f) {
    return new FilterPlugin() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        return f.apply(pod, node);
      }
    };
  }

  /** A Permit plugin named {@code name}. */
  public static PermitPlugin permit(String name, BiFunction<PodInfo, String, PermitResult> f) {
    return new PermitPlugin() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
        return f.apply(pod, nodeName);
      }
    };
  }
}
