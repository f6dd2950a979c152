package io.fleetkit.cli;

import io.fleetkit.api.scheduler.SchedulerProfile;
import io.fleetkit.scheduler.DefaultPlugins;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads scheduler profiles from a kube-scheduler configuration file (the {@code KubeSchedulerConfiguration} shape
 * of {@code kubescheduler.config.k8s.io/v1}): {@code percentageOfNodesToScore}, and per profile
 * {@code schedulerName}, {@code percentageOfNodesToScore}, {@code plugins.multiPoint|score.enabled} (name, weight),
 * {@code plugins.multiPoint.disabled} (a name, or {@code "*"} for every default) and {@code pluginConfig} (name,
 * args). Each profile starts from kube's default plugins and weights, as kube-scheduler does.
 */
final class ProfileFile {
  private static final ObjectMapper YAML = YAMLMapper.builder().build();

  private ProfileFile() {}

  static List<SchedulerProfile> load(Path file) {
    JsonNode root;
    try {
      root = YAML.readTree(Files.readString(file));
    } catch (IOException | JacksonException e) {
      throw new IllegalArgumentException(file + ": cannot read scheduler configuration: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(file + ": a scheduler configuration must be a YAML mapping");
    }
    Integer globalPct = intOrNull(file, root, "percentageOfNodesToScore");
    JsonNode profiles = root.path("profiles");
    List<SchedulerProfile> out = new ArrayList<>();
    if (profiles.isMissingNode() || profiles.isEmpty()) {
      out.add(DefaultPlugins.profile().toBuilder().percentageOfNodesToScore(globalPct).build());
      return out;
    }
    for (int i = 0; i < profiles.size(); i++) {
      out.add(profile(file, "profiles[" + i + "]", profiles.get(i), globalPct));
    }
    return out;
  }

  private static SchedulerProfile profile(Path file, String path, JsonNode p, Integer globalPct) {
    String name = p.path("schedulerName").asString("default-scheduler");
    SchedulerProfile.Builder b = DefaultPlugins.profile(name).toBuilder();
    Integer pct = intOrNull(file, p, "percentageOfNodesToScore");
    b.percentageOfNodesToScore(pct != null ? pct : globalPct);
    JsonNode plugins = p.path("plugins");
    for (String point : List.of("multiPoint", "score", "filter", "preFilter", "postFilter", "preScore")) {
      JsonNode set = plugins.path(point);
      for (JsonNode d : set.path("disabled")) {
        String n = d.path("name").asString("");
        if (n.equals("*")) {
          for (SchedulerProfile.PluginRef ref : b.build().plugins()) {
            b.disable(ref.name());
          }
        } else {
          b.disable(n);
        }
      }
      JsonNode enabled = set.path("enabled");
      for (int j = 0; j < enabled.size(); j++) {
        JsonNode e = enabled.get(j);
        String n = e.path("name").asString("");
        if (n.isEmpty()) {
          throw new IllegalArgumentException(file + ": " + path + ".plugins." + point + ".enabled[" + j
              + "].name: Required value");
        }
        b.plugin(n, e.path("weight").asInt(1));
      }
    }
    JsonNode config = p.path("pluginConfig");
    for (int j = 0; j < config.size(); j++) {
      JsonNode c = config.get(j);
      String n = c.path("name").asString("");
      if (n.isEmpty()) {
        throw new IllegalArgumentException(file + ": " + path + ".pluginConfig[" + j + "].name: Required value");
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> args = c.path("args").isObject()
          ? YAML.convertValue(c.path("args"), LinkedHashMap.class) : Map.of();
      b.pluginArgs(n, args);
    }
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + path + ": " + e.getMessage(), e);
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
}
