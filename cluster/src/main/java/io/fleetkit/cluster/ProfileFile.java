package io.fleetkit.cluster;

import io.fleetkit.api.framework.ExtensionPoint;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.scheduler.DefaultPlugins;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads scheduler profiles from a kube-scheduler configuration file (the {@code KubeSchedulerConfiguration} shape
 * of {@code kubescheduler.config.k8s.io/v1}): {@code percentageOfNodesToScore}, and per profile
 * {@code schedulerName}, {@code percentageOfNodesToScore}, {@code plugins.<point>.enabled} (name, weight) and
 * {@code plugins.<point>.disabled} (a name, or {@code "*"} for every default) at every point kube has
 * ({@code multiPoint}, {@code preEnqueue}, {@code queueSort}, {@code preFilter}, {@code filter}, {@code postFilter},
 * {@code preScore}, {@code score}, {@code reserve}, {@code permit}, {@code preBind}, {@code bind},
 * {@code postBind}), and {@code pluginConfig} (name, args). Each profile starts from kube's default plugins and
 * weights, as kube-scheduler does. A point's {@code disabled} takes a plugin out of that point only
 * ({@code score: {disabled: [{name: NodeResourcesFit}]}} keeps its Filter), and a point's {@code enabled} runs a
 * plugin there first, in that order, as kube (see {@link SchedulerProfile#pluginsAt}); a Score weight given at
 * {@code score} overrides the multiPoint one.
 *
 * <p>Strict, as kube-scheduler's decoder is: a field the configuration does not have ({@code profile:} for
 * {@code profiles:}), another kind (a Pod manifest given by mistake), an unknown extension point or a disabled plugin
 * that is not in the profile is refused with its path, rather than silently running the default profile. A plugin
 * enabled twice at one point is refused here (kube refuses it when it builds the framework); a plugin name this
 * build does not register is refused, naming the profile and the plugin, when the scheduler is built.
 */
public final class ProfileFile {
  /** The most characters of a field name echoed back in an error. */
  private static final int MAX_ECHO = 200;
  private static final ObjectMapper YAML = YAMLMapper.builder().build();
  private static final String KIND = "KubeSchedulerConfiguration";
  /** The fields of KubeSchedulerConfiguration (v1); only some are used, the others are accepted and ignored. */
  private static final Set<String> TOP_FIELDS = Set.of("apiVersion", "kind", "parallelism", "leaderElection",
      "clientConnection", "healthzBindAddress", "metricsBindAddress", "enableProfiling", "enableContentionProfiling",
      "percentageOfNodesToScore", "podInitialBackoffSeconds", "podMaxBackoffSeconds", "profiles", "extenders",
      "delayCacheUntilActive");
  private static final Set<String> PROFILE_FIELDS = Set.of("schedulerName", "percentageOfNodesToScore", "plugins",
      "pluginConfig");
  private static final Set<String> POINTS = Set.of("preEnqueue", "queueSort", "preFilter", "filter", "postFilter",
      "preScore", "score", "reserve", "permit", "preBind", "bind", "postBind", "multiPoint");
  private static final Set<String> SET_FIELDS = Set.of("enabled", "disabled");

  private ProfileFile() {}

  /**
   * The profiles of a scheduler configuration file; kube's default profile (with the file's
   * {@code percentageOfNodesToScore}) when it lists none.
   *
   * @throws IllegalArgumentException naming the file and the field when the file cannot be read or is not a valid
   *     configuration
   */
  public static List<SchedulerProfile> load(Path file) {
    JsonNode root;
    try {
      root = YAML.readTree(Files.readString(file));
    } catch (IOException | JacksonException e) {
      throw new IllegalArgumentException(file + ": cannot read scheduler configuration: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(file + ": a scheduler configuration must be a YAML mapping");
    }
    String kind = root.path("kind").asString("");
    if (!kind.isEmpty() && !kind.equals(KIND)) {
      throw new IllegalArgumentException(file + ": kind \"" + kind + "\" is not a scheduler configuration (kind "
          + KIND + ", apiVersion kubescheduler.config.k8s.io/v1)");
    }
    onlyFields(file, "", root, TOP_FIELDS);
    Integer globalPct = intOrNull(file, root, "percentageOfNodesToScore");
    JsonNode profiles = root.path("profiles");
    List<SchedulerProfile> out = new ArrayList<>();
    if (profiles.isMissingNode() || profiles.isNull() || profiles.isArray() && profiles.isEmpty()) {
      try {
        out.add(DefaultPlugins.profile().toBuilder().percentageOfNodesToScore(globalPct).build());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
      }
      return out;
    }
    if (!profiles.isArray()) {
      throw new IllegalArgumentException(file + ": profiles must be a list of profiles (- schedulerName: ...,"
          + " plugins: ...), not " + profiles.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
    }
    for (int i = 0; i < profiles.size(); i++) {
      out.add(profile(file, "profiles[" + i + "]", profiles.get(i), globalPct));
    }
    return out;
  }

  private static SchedulerProfile profile(Path file, String path, JsonNode p, Integer globalPct) {
    if (!p.isObject()) {
      throw new IllegalArgumentException(file + ": " + path + " must be a mapping (schedulerName, plugins, ...)");
    }
    onlyFields(file, path + ".", p, PROFILE_FIELDS);
    onlyFields(file, path + ".plugins.", p.path("plugins"), POINTS);
    String name = p.path("schedulerName").asString("default-scheduler");
    if (name.isEmpty()) {
      // kube's ValidateKubeSchedulerConfiguration: profiles[i].schedulerName: Required value
      throw new IllegalArgumentException(file + ": " + path + ".schedulerName: Required value");
    }
    SchedulerProfile.Builder b = DefaultPlugins.profile(name).toBuilder();
    Integer pct = intOrNull(file, p, "percentageOfNodesToScore");
    b.percentageOfNodesToScore(pct != null ? pct : globalPct);
    JsonNode plugins = p.path("plugins");
    // multiPoint first, so that a point's disabled names are checked against the profile's merged plugins
    try {
      pluginSet(file, path, plugins, null, b);
      for (ExtensionPoint point : ExtensionPoint.values()) {
        pluginSet(file, path, plugins, point, b);
      }
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith(file.toString())) {
        throw e;
      }
      throw new IllegalArgumentException(file + ": " + path + ": " + e.getMessage(), e);
    }
    JsonNode config = list(file, path + ".pluginConfig", p.path("pluginConfig"));
    for (int j = 0; j < config.size(); j++) {
      JsonNode c = config.get(j);
      String n = c.path("name").asString("");
      if (n.isEmpty()) {
        throw new IllegalArgumentException(file + ": " + path + ".pluginConfig[" + j + "].name: Required value");
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> args = c.path("args").isObject()
          ? YAML.convertValue(c.path("args"), LinkedHashMap.class) : new LinkedHashMap<String, Object>();
      args.values().removeIf(java.util.Objects::isNull); // kube's decoding: a null field is an unset one
      b.pluginArgs(n, args);
    }
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * Applies {@code plugins.<point>} ({@code point} null: {@code multiPoint}) to {@code b} as kube's
   * {@code mergePluginSet} merges it into the defaults: the disabled names (or {@code "*"}) leave the point, then each
   * enabled plugin takes the place of the same default (with its weight) or is appended. At a specific point a
   * disabled name also leaves the profile's multiPoint plugins out of that point only, as kube's
   * {@code expandMultiPointPlugins}.
   */
  private static void pluginSet(Path file, String path, JsonNode plugins, @Nullable ExtensionPoint point,
      SchedulerProfile.Builder b) {
    String field = point == null ? "multiPoint" : point.configName();
    String at = path + ".plugins." + field;
    JsonNode set = plugins.path(field);
    onlyFields(file, at + ".", set, SET_FIELDS);
    JsonNode enabled = list(file, at + ".enabled", set.path("enabled"));
    JsonNode disabled = list(file, at + ".disabled", set.path("disabled"));
    List<String> enabledHere = new ArrayList<>();
    for (int j = 0; j < enabled.size(); j++) {
      String n = enabled.get(j).path("name").asString("");
      if (n.isEmpty()) {
        throw new IllegalArgumentException(file + ": " + at + ".enabled[" + j + "].name: Required value");
      }
      if (enabledHere.contains(n)) {
        throw new IllegalArgumentException(file + ": " + at + ".enabled[" + j + "].name \"" + clip(n)
            + "\": the plugin is enabled twice at " + field);
      }
      enabledHere.add(n);
    }
    for (int j = 0; j < disabled.size(); j++) {
      String n = disabled.get(j).path("name").asString("");
      SchedulerProfile current = b.build();
      List<String> present = current.plugins().stream().map(SchedulerProfile.PluginRef::name).toList();
      if (n.equals(SchedulerProfile.PointPlugins.ALL)) {
        if (point == null) {
          present.forEach(b::disable);
        } else {
          b.disableAt(point, n);
        }
      } else if (!present.contains(n) && !enabledHere.contains(n)
          && (point == null || !current.pointPlugins(point).enabled().stream().anyMatch(r -> r.name().equals(n)))) {
        throw new IllegalArgumentException(file + ": " + at + ".disabled[" + j + "].name \"" + clip(n)
            + "\" is not a plugin of this profile (plugins: " + String.join(", ", present) + ")");
      } else if (point == null) {
        b.disable(n);
      } else {
        b.disableAt(point, n);
      }
    }
    for (int j = 0; j < enabled.size(); j++) {
      JsonNode w = enabled.get(j).path("weight");
      int weight = 1;
      if (!w.isMissingNode() && !w.isNull()) {
        if (!w.canConvertToInt() || w.asInt() < 0) {
          throw new IllegalArgumentException(file + ": " + at + ".enabled[" + j + "].weight \"" + clip(w.toString())
              + "\" must be a non-negative integer");
        }
        // kube's getScoreWeights: "a weight of zero is not permitted", an unset or zero weight counts as 1
        weight = Math.max(1, w.asInt());
      }
      if (point == null) {
        b.plugin(enabledHere.get(j), weight);
      } else {
        b.enableAt(point, enabledHere.get(j), weight);
      }
    }
  }

  /** {@code node} when it is a list or absent; an error naming {@code at} otherwise. */
  private static JsonNode list(Path file, String at, JsonNode node) {
    if (!node.isMissingNode() && !node.isNull() && !node.isArray()) {
      throw new IllegalArgumentException(file + ": " + at + " must be a list of {name: ...}");
    }
    return node;
  }

  /** Refuses any field of {@code node} outside {@code allowed}, naming its path and the allowed fields. */
  private static void onlyFields(Path file, String prefix, JsonNode node, Set<String> allowed) {
    if (node.isMissingNode() || node.isNull()) {
      return;
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException(file + ": " + (prefix.isEmpty() ? "the document" : prefix.substring(0,
          prefix.length() - 1)) + " must be a mapping");
    }
    for (String f : node.propertyNames()) {
      if (!allowed.contains(f)) {
        throw new IllegalArgumentException(file + ": " + prefix + clip(f) + ": unknown field (known: "
            + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
      }
    }
  }

  private static Integer intOrNull(Path file, JsonNode node, String field) {
    JsonNode v = node.path(field);
    if (v.isMissingNode() || v.isNull()) {
      return null;
    }
    if (!v.canConvertToInt()) {
      throw new IllegalArgumentException(file + ": " + field + " \"" + v + "\" must be an integer");
    }
    return v.asInt();
  }

  private static String clip(String s) {
    return s.length() <= MAX_ECHO ? s : s.substring(0, MAX_ECHO) + "... (" + (s.length() - MAX_ECHO)
        + " more characters)";
  }
}
