package io.fleetkit.api.framework;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The extension points a {@link SchedulerProfile} can configure one by one, as the fields of kube-scheduler's
 * {@code Plugins} (every one but {@code multiPoint}, which is {@link SchedulerProfile#plugins()}), each with the
 * plugin interface that implements it. Unreserve is part of {@link #RESERVE}, as in kube.
 */
public enum ExtensionPoint {
  PRE_ENQUEUE("preEnqueue", PreEnqueuePlugin.class),
  QUEUE_SORT("queueSort", QueueSortPlugin.class),
  PRE_FILTER("preFilter", PreFilterPlugin.class),
  FILTER("filter", FilterPlugin.class),
  POST_FILTER("postFilter", PostFilterPlugin.class),
  PRE_SCORE("preScore", PreScorePlugin.class),
  SCORE("score", ScorePlugin.class),
  RESERVE("reserve", ReservePlugin.class),
  PERMIT("permit", PermitPlugin.class),
  PRE_BIND("preBind", PreBindPlugin.class),
  BIND("bind", BindPlugin.class),
  POST_BIND("postBind", PostBindPlugin.class);

  private final String configName;
  private final Class<? extends Plugin> pluginType;

  ExtensionPoint(String configName, Class<? extends Plugin> pluginType) {
    this.configName = configName;
    this.pluginType = pluginType;
  }

  /** The field name in a KubeSchedulerConfiguration's {@code plugins} ({@code "score"}, {@code "preBind"}...). */
  public String configName() {
    return configName;
  }

  /** The interface a plugin implements to take part in this point ({@link ScorePlugin} for {@link #SCORE}...). */
  public Class<? extends Plugin> pluginType() {
    return pluginType;
  }

  /** Whether {@code plugin} implements this point. */
  public boolean isImplementedBy(Plugin plugin) {
    return pluginType.isInstance(plugin);
  }

  /**
   * The point whose {@link #configName()} is {@code name}.
   *
   * @throws IllegalArgumentException naming the value and the known points when there is none
   */
  public static ExtensionPoint ofConfigName(String name) {
    for (ExtensionPoint p : values()) {
      if (p.configName.equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException("extension point \"" + name + "\" is not one of "
        + Arrays.stream(values()).map(ExtensionPoint::configName).collect(Collectors.joining(", ")));
  }
}
