package io.fleetkit.scheduler.plugins.defaultbinder;

import io.fleetkit.api.framework.BindPlugin;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FrameworkHandle;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import java.util.Objects;

/**
 * Binds a pod to its node through the handle's {@link FrameworkHandle#binder() Binder} (kube-scheduler's
 * {@code DefaultBinder}, {@code pkg/scheduler/framework/plugins/defaultbinder/default_binder.go}, which posts a
 * {@code Binding} through the handle's client). The last plugin of kube's default profile; a profile that binds
 * another way disables it and enables its own Bind plugin.
 *
 * <p>The binder gets the pending pod ({@link PodInfo#pendingPod()}), as the scheduler's binder always has: reading an
 * assumed pod's {@link PodInfo#pod()} would make its bound copy, which no default plugin needs. A binder's exception
 * becomes an {@link Status.Code#ERROR} status ("binder failed: ..."), as kube turns the client's error into a status.
 * A handle that cannot bind (a simulation) refuses with its own error status.
 *
 * <p>Stateless and thread-safe (binding threads call it); allocates nothing when the binder succeeds.
 */
public final class DefaultBinderPlugin implements BindPlugin {
  /** The name this plugin is registered under. */
  public static final String NAME = "DefaultBinder";
  /** Creates the plugin for a profile; the binder is looked up at each bind, so any handle can create it. */
  public static final PluginFactory FACTORY = DefaultBinderPlugin::new;

  /** Success attributed to this plugin, so that the framework's attribution allocates nothing. */
  private static final Status BOUND = Status.success().withPlugin(NAME);

  private final FrameworkHandle handle;

  private DefaultBinderPlugin(FrameworkHandle handle) {
    this.handle = Objects.requireNonNull(handle, "handle");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status bind(CycleState state, PodInfo pod, String nodeName) {
    Status s;
    try {
      s = handle.binder().bind(pod.pendingPod(), nodeName);
    } catch (RuntimeException e) {
      return Status.error("binder failed: " + e);
    }
    return s.isSuccess() ? BOUND : s;
  }
}
