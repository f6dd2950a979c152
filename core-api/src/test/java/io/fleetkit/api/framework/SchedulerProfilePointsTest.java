package io.fleetkit.api.framework;

import static io.fleetkit.api.framework.ExtensionPoint.BIND;
import static io.fleetkit.api.framework.ExtensionPoint.FILTER;
import static io.fleetkit.api.framework.ExtensionPoint.POST_BIND;
import static io.fleetkit.api.framework.ExtensionPoint.POST_FILTER;
import static io.fleetkit.api.framework.ExtensionPoint.PERMIT;
import static io.fleetkit.api.framework.ExtensionPoint.PRE_BIND;
import static io.fleetkit.api.framework.ExtensionPoint.PRE_FILTER;
import static io.fleetkit.api.framework.ExtensionPoint.PRE_SCORE;
import static io.fleetkit.api.framework.ExtensionPoint.QUEUE_SORT;
import static io.fleetkit.api.framework.ExtensionPoint.RESERVE;
import static io.fleetkit.api.framework.ExtensionPoint.SCORE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.framework.SchedulerProfile.PluginRef;
import io.fleetkit.api.framework.SchedulerProfile.PointPlugins;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Per-extension-point plugin sets: which plugins run at each point and in which order ({@link
 * SchedulerProfile#pluginsAt}), and how the builder merges point settings into a profile's defaults.
 *
 * <p>Ported from kubernetes/kubernetes at commit 0b1dcaba0a3f1fdcfe5fbb6516d68ffc8e625d81,
 * {@code pkg/scheduler/framework/runtime/framework_test.go} TestNewFrameworkMultiPointExpansion (11 of 11 cases: the
 * plugins' implemented points are those of upstream's test plugins), and from commit
 * 3ee81787685e47a7a5da22423c8ca4455577ecb3, {@code pkg/scheduler/apis/config/v1/default_plugins_test.go}
 * TestMergePlugins (the cases the builder expresses; RepeatedCustomPlugin is in the cluster module's ProfileFileTest).
 */
final class SchedulerProfilePointsTest {
  // upstream's test plugins and the points they implement
  private static final String TEST_PLUGIN = "test-plugin";
  private static final String SCORE_1 = "score-plugin-1";
  private static final String SCORE_2 = "score-plugin-2";
  private static final String SCORE_NORMALIZE_1 = "score-with-normalize-plugin-1";
  private static final String QUEUE_SORT_PLUGIN = "no-op-queue-sort-plugin";
  private static final String BIND_PLUGIN = "bind-plugin";
  private static final Map<String, Set<ExtensionPoint>> IMPLEMENTS = Map.of(
      // TestPlugin implements every interface but PreEnqueue
      TEST_PLUGIN, EnumSet.complementOf(EnumSet.of(ExtensionPoint.PRE_ENQUEUE)),
      // TestScorePlugin: PreScore and Score
      SCORE_1, EnumSet.of(PRE_SCORE, SCORE),
      SCORE_2, EnumSet.of(PRE_SCORE, SCORE),
      // TestScoreWithNormalizePlugin: Score only
      SCORE_NORMALIZE_1, EnumSet.of(SCORE),
      QUEUE_SORT_PLUGIN, EnumSet.of(QUEUE_SORT),
      BIND_PLUGIN, EnumSet.of(BIND));

  /** Every point's plugins (name and weight), points without plugins left out, as upstream's ListPlugins. */
  private static Map<ExtensionPoint, List<PluginRef>> expand(SchedulerProfile p) {
    Map<ExtensionPoint, List<PluginRef>> out = new EnumMap<>(ExtensionPoint.class);
    for (ExtensionPoint point : ExtensionPoint.values()) {
      List<PluginRef> at = p.pluginsAt(point, name -> IMPLEMENTS.get(name).contains(point));
      if (point != SCORE) {
        // a weight counts at Score only (upstream's ListPlugins shows it there only): compare names elsewhere
        at = at.stream().map(r -> new PluginRef(r.name(), 1)).toList();
      }
      if (!at.isEmpty()) {
        out.put(point, at);
      }
    }
    return out;
  }

  private static List<PluginRef> refs(Object... nameWeight) {
    List<PluginRef> out = new java.util.ArrayList<>();
    for (int i = 0; i < nameWeight.length; i += 2) {
      out.add(new PluginRef((String) nameWeight[i], (Integer) nameWeight[i + 1]));
    }
    return out;
  }

  /** {@code TEST_PLUGIN} (weight 1 where it scores) at every point it implements, the given points overridden. */
  private static Map<ExtensionPoint, List<PluginRef>> testPluginEverywhere(Map<ExtensionPoint, List<PluginRef>> with) {
    Map<ExtensionPoint, List<PluginRef>> out = new EnumMap<>(ExtensionPoint.class);
    for (ExtensionPoint p : IMPLEMENTS.get(TEST_PLUGIN)) {
      out.put(p, refs(TEST_PLUGIN, 1));
    }
    with.forEach((p, l) -> {
      if (l.isEmpty()) {
        out.remove(p);
      } else {
        out.put(p, l);
      }
    });
    return out;
  }

  private static Map<ExtensionPoint, List<PluginRef>> points(Object... pointAndRefs) {
    Map<ExtensionPoint, List<PluginRef>> out = new LinkedHashMap<>();
    for (int i = 0; i < pointAndRefs.length; i += 2) {
      @SuppressWarnings("unchecked")
      List<PluginRef> l = (List<PluginRef>) pointAndRefs[i + 1];
      out.put((ExtensionPoint) pointAndRefs[i], l);
    }
    return out;
  }

  // --------------------------------------------------------------- TestNewFrameworkMultiPointExpansion

  @Test
  void pluginsAt_pluginExpansion_everyPointItImplements() {
    // upstream case "plugin expansion"
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(TEST_PLUGIN, 5).build();
    assertThat(expand(p)).isEqualTo(testPluginEverywhere(points(SCORE, refs(TEST_PLUGIN, 5))));
  }

  @Test
  void pluginsAt_disabledAtSomePoints_leftOutThereOnly() {
    // upstream case "disable MultiPoint plugin at some extension points"
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(TEST_PLUGIN)
        .disableAt(PRE_SCORE, TEST_PLUGIN).disableAt(SCORE, TEST_PLUGIN).build();
    assertThat(expand(p)).isEqualTo(testPluginEverywhere(points(PRE_SCORE, List.of(), SCORE, List.of())));
  }

  @Test
  void pluginsAt_multipleMultiPointPlugins_multiPointOrder() {
    // upstream case "Multiple MultiPoint plugins"
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(TEST_PLUGIN).plugin(SCORE_1).build();
    assertThat(expand(p)).isEqualTo(testPluginEverywhere(points(
        PRE_SCORE, refs(TEST_PLUGIN, 1, SCORE_1, 1),
        SCORE, refs(TEST_PLUGIN, 1, SCORE_1, 1))));
  }

  @Test
  void pluginsAt_pointDisablesAll_noMultiPointPluginThere() {
    // upstream case "disable MultiPoint extension"
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(TEST_PLUGIN).plugin(SCORE_1)
        .disableAt(PRE_SCORE, PointPlugins.ALL).build();
    assertThat(expand(p)).isEqualTo(testPluginEverywhere(points(
        PRE_SCORE, List.of(),
        SCORE, refs(TEST_PLUGIN, 1, SCORE_1, 1))));
  }

  @Test
  void pluginsAt_pointEnablesMultiPointPlugins_theyComeFirstInThePointsOrder() {
    // upstream case "Reorder MultiPoint plugins (specified extension takes precedence)"
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(SCORE_NORMALIZE_1).plugin(TEST_PLUGIN).plugin(SCORE_1)
        .enableAt(SCORE, SCORE_1).enableAt(SCORE, TEST_PLUGIN).build();
    assertThat(expand(p)).isEqualTo(testPluginEverywhere(points(
        PRE_SCORE, refs(TEST_PLUGIN, 1, SCORE_1, 1),
        SCORE, refs(SCORE_1, 1, TEST_PLUGIN, 1, SCORE_NORMALIZE_1, 1))));
  }

  @Test
  void pluginsAt_pointEnablesAPluginNotInMultiPoint_itComesLast() {
    // upstream case "Reorder MultiPoint plugins (specified extension only takes precedence when it exists in
    // MultiPoint)"
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(TEST_PLUGIN).plugin(SCORE_1)
        .enableAt(SCORE, SCORE_NORMALIZE_1).enableAt(SCORE, SCORE_1).enableAt(SCORE, TEST_PLUGIN).build();
    assertThat(expand(p)).isEqualTo(testPluginEverywhere(points(
        PRE_SCORE, refs(TEST_PLUGIN, 1, SCORE_1, 1),
        SCORE, refs(SCORE_1, 1, TEST_PLUGIN, 1, SCORE_NORMALIZE_1, 1))));
  }

  @Test
  void pluginsAt_scoreWeightsAtThePoint_overrideMultiPoints() {
    // upstream case "Override MultiPoint plugins weights"
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(TEST_PLUGIN).plugin(SCORE_1)
        .enableAt(SCORE, SCORE_1, 5).enableAt(SCORE, TEST_PLUGIN, 3).build();
    assertThat(expand(p)).isEqualTo(testPluginEverywhere(points(
        PRE_SCORE, refs(TEST_PLUGIN, 1, SCORE_1, 1),
        SCORE, refs(SCORE_1, 5, TEST_PLUGIN, 3))));
  }

  @Test
  void pluginsAt_multiPointDisablesAllThenEnables_theEnabledOnes() {
    // upstream case "disable and enable MultiPoint plugins with '*'": multiPoint.disabled is applied by the merge
    // (every default leaves), the enabled ones expand
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(TEST_PLUGIN).build().toBuilder()
        .disable(TEST_PLUGIN).plugin(QUEUE_SORT_PLUGIN).plugin(BIND_PLUGIN).plugin(SCORE_1).build();
    assertThat(expand(p)).isEqualTo(points(
        QUEUE_SORT, refs(QUEUE_SORT_PLUGIN, 1),
        PRE_SCORE, refs(SCORE_1, 1),
        SCORE, refs(SCORE_1, 1),
        BIND, refs(BIND_PLUGIN, 1)));
  }

  @Test
  void pluginsAt_multiPointDisablesAndEnablesOnePlugin_itStays() {
    // upstream case "disable and enable MultiPoint plugin by name"
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(BIND_PLUGIN).plugin(QUEUE_SORT_PLUGIN)
        .disable(SCORE_1).plugin(SCORE_1).build();
    assertThat(expand(p)).isEqualTo(points(
        QUEUE_SORT, refs(QUEUE_SORT_PLUGIN, 1),
        PRE_SCORE, refs(SCORE_1, 1),
        SCORE, refs(SCORE_1, 1),
        BIND, refs(BIND_PLUGIN, 1)));
  }

  @Test
  void constructor_multiPointPluginTwice_alreadyRegisteredError() {
    // upstream case "Expect 'already registered' error"
    assertThatThrownBy(() -> new SchedulerProfile("s", refs(TEST_PLUGIN, 1, TEST_PLUGIN, 1), null, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("profile s: plugin test-plugin is enabled twice");
  }

  @Test
  void pluginsAt_pointEnablesAnotherScorePlugin_createdOnceAndLast() {
    // upstream case "Override MultiPoint plugins weights and avoid a plugin being loaded multiple times"
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(TEST_PLUGIN).plugin(SCORE_1)
        .enableAt(SCORE, SCORE_1, 5).enableAt(SCORE, SCORE_2, 5).enableAt(SCORE, TEST_PLUGIN, 3).build();
    assertThat(expand(p)).isEqualTo(testPluginEverywhere(points(
        PRE_SCORE, refs(TEST_PLUGIN, 1, SCORE_1, 1),
        SCORE, refs(SCORE_1, 5, TEST_PLUGIN, 3, SCORE_2, 5))));
  }

  // --------------------------------------------------------------- FleetKit's own rules and validation

  @Test
  void pluginsAt_pointEnabledPluginDoesNotImplementIt_errorNamesProfilePluginAndPoint() {
    SchedulerProfile p = SchedulerProfile.builder("s").enableAt(FILTER, SCORE_1).build();
    assertThatThrownBy(() -> expand(p)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("profile s: plugin score-plugin-1 is enabled at filter but does not implement FilterPlugin");
  }

  @Test
  void build_disabledAtAPointButNotInTheProfile_errorNamesProfilePluginAndPoint() {
    assertThatThrownBy(() -> SchedulerProfile.builder("s").plugin(TEST_PLUGIN).disableAt(SCORE, "Nope").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("profile s: plugin Nope is disabled at score but is not a plugin of the profile (plugins: "
            + "test-plugin)");
  }

  @Test
  void constructor_pluginEnabledTwiceAtAPoint_errorNamesThePoint() {
    Map<ExtensionPoint, PointPlugins> points = Map.of(SCORE, new PointPlugins(refs(SCORE_1, 1, SCORE_1, 2),
        List.of()));
    assertThatThrownBy(() -> new SchedulerProfile("s", List.of(), null, Map.of(), points))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("profile s: plugin score-plugin-1 is enabled twice at score");
  }

  @Test
  void disable_wholesale_leavesEveryPoint() {
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(TEST_PLUGIN).plugin(SCORE_1)
        .enableAt(SCORE, SCORE_1, 4).disableAt(PRE_SCORE, SCORE_1).disable(SCORE_1).build();
    assertThat(p.plugins()).extracting(PluginRef::name).containsExactly(TEST_PLUGIN);
    assertThat(p.points()).isEmpty();
  }

  @Test
  void toBuilder_keepsPointSettings_andFourArgumentConstructorHasNone() {
    SchedulerProfile p = SchedulerProfile.builder("s").plugin(TEST_PLUGIN).disableAt(FILTER, TEST_PLUGIN)
        .enableAt(SCORE, SCORE_1, 2).build();
    assertThat(p.toBuilder().build()).isEqualTo(p);
    assertThat(p.withPlugins(p.plugins())).isEqualTo(p);
    assertThat(new SchedulerProfile("s", p.plugins(), null, Map.of()).points()).isEmpty();
    assertThat(p.pointPlugins(ExtensionPoint.POST_BIND)).isEqualTo(PointPlugins.empty());
  }

  @Test
  void ofConfigName_everyPoint_roundTrips_unknownNamesTheKnown() {
    for (ExtensionPoint p : ExtensionPoint.values()) {
      assertThat(ExtensionPoint.ofConfigName(p.configName())).isSameAs(p);
    }
    assertThatThrownBy(() -> ExtensionPoint.ofConfigName("multipoint"))
        .hasMessageStartingWith("extension point \"multipoint\" is not one of preEnqueue, queueSort, preFilter");
  }

  // --------------------------------------------------------------- TestMergePlugins (builder merge)

  /** A profile whose Filter point enables the given plugins (upstream's default Filter set). */
  private static SchedulerProfile.Builder filterDefaults(String... names) {
    SchedulerProfile.Builder b = SchedulerProfile.builder("s");
    for (String n : names) {
      b.enableAt(FILTER, n);
    }
    return b.build().toBuilder();
  }

  private static List<String> filterNames(SchedulerProfile.Builder b) {
    return b.build().pointPlugins(FILTER).enabled().stream().map(PluginRef::name).toList();
  }

  @Test
  void merge_appendCustomPlugin() {
    // upstream case "AppendCustomPlugin"
    assertThat(filterNames(filterDefaults("DefaultPlugin1", "DefaultPlugin2").enableAt(FILTER, "CustomPlugin")))
        .containsExactly("DefaultPlugin1", "DefaultPlugin2", "CustomPlugin");
  }

  @Test
  void merge_insertAfterDefaultPlugins2() {
    // upstream case "InsertAfterDefaultPlugins2"; upstream keeps DefaultPlugin2 in the merged disabled list, where a
    // name that is not a multiPoint plugin changes nothing: FleetKit keeps disabled names of plugins() only
    SchedulerProfile.Builder b = filterDefaults("DefaultPlugin1", "DefaultPlugin2")
        .disableAt(FILTER, "DefaultPlugin2").enableAt(FILTER, "CustomPlugin").enableAt(FILTER, "DefaultPlugin2");
    assertThat(filterNames(b)).containsExactly("DefaultPlugin1", "CustomPlugin", "DefaultPlugin2");
  }

  @Test
  void merge_insertBeforeAllPlugins() {
    // upstream case "InsertBeforeAllPlugins"
    SchedulerProfile.Builder b = filterDefaults("DefaultPlugin1", "DefaultPlugin2").disableAt(FILTER, "*")
        .enableAt(FILTER, "CustomPlugin").enableAt(FILTER, "DefaultPlugin1").enableAt(FILTER, "DefaultPlugin2");
    assertThat(filterNames(b)).containsExactly("CustomPlugin", "DefaultPlugin1", "DefaultPlugin2");
    assertThat(b.build().pointPlugins(FILTER).disabled()).containsExactly("*");
  }

  @Test
  void merge_reorderDefaultPlugins() {
    // upstream case "ReorderDefaultPlugins"
    SchedulerProfile.Builder b = filterDefaults("DefaultPlugin1", "DefaultPlugin2").disableAt(FILTER, "*")
        .enableAt(FILTER, "DefaultPlugin2").enableAt(FILTER, "DefaultPlugin1");
    assertThat(filterNames(b)).containsExactly("DefaultPlugin2", "DefaultPlugin1");
    assertThat(b.build().pointPlugins(FILTER).disabled()).containsExactly("*");
  }

  @Test
  void merge_applyNilCustomPlugin() {
    // upstream case "ApplyNilCustomPlugin"
    assertThat(filterNames(filterDefaults("DefaultPlugin1", "DefaultPlugin2")))
        .containsExactly("DefaultPlugin1", "DefaultPlugin2");
  }

  @Test
  void merge_customPluginOverrideDefaultPlugin() {
    // upstream case "CustomPluginOverrideDefaultPlugin"
    SchedulerProfile.Builder b = filterDefaults("Plugin1", "Plugin2", "Plugin3")
        .enableAt(FILTER, "Plugin1", 2).enableAt(FILTER, "Plugin3", 3);
    assertThat(b.build().pointPlugins(FILTER).enabled())
        .containsExactlyElementsOf(refs("Plugin1", 2, "Plugin2", 1, "Plugin3", 3));
  }

  @Test
  void merge_orderPreserveAfterOverride() {
    // upstream case "OrderPreserveAfterOverride"
    SchedulerProfile.Builder b = filterDefaults("Plugin1", "Plugin2", "Plugin3")
        .enableAt(FILTER, "Plugin2", 2).enableAt(FILTER, "Plugin1", 1);
    assertThat(b.build().pointPlugins(FILTER).enabled())
        .containsExactlyElementsOf(refs("Plugin1", 1, "Plugin2", 2, "Plugin3", 1));
  }

  private static SchedulerProfile.Builder multiPointDefaults(String... names) {
    SchedulerProfile.Builder b = SchedulerProfile.builder("s");
    for (String n : names) {
      b.plugin(n);
    }
    return b.build().toBuilder();
  }

  @Test
  void merge_appendCustomMultiPointPlugin() {
    // upstream case "Append custom MultiPoint plugin"
    assertThat(multiPointDefaults("DefaultPlugin1", "DefaultPlugin2").plugin("CustomPlugin").build().plugins())
        .extracting(PluginRef::name).containsExactly("DefaultPlugin1", "DefaultPlugin2", "CustomPlugin");
  }

  @Test
  void merge_appendDisabledMultiPointPlugins() {
    // upstream case "Append disabled Multipoint plugins"
    SchedulerProfile p = multiPointDefaults("DefaultPlugin1", "DefaultPlugin2").disable("DefaultPlugin2")
        .plugin("CustomPlugin").plugin("CustomPlugin2").disableAt(SCORE, "CustomPlugin2").build();
    assertThat(p.plugins()).extracting(PluginRef::name)
        .containsExactly("DefaultPlugin1", "CustomPlugin", "CustomPlugin2");
    assertThat(p.pointPlugins(SCORE)).isEqualTo(new PointPlugins(List.of(), List.of("CustomPlugin2")));
  }

  @Test
  void merge_overrideDefaultMultiPointPluginWithCustomValue() {
    // upstream case "override default MultiPoint plugins with custom value"
    assertThat(multiPointDefaults("DefaultPlugin").plugin("DefaultPlugin", 5).build().plugins())
        .containsExactly(new PluginRef("DefaultPlugin", 5));
  }

  @Test
  void merge_multiPointWithOnlyDisabled() {
    // upstream case "multipoint with only disabled gets merged"
    assertThat(multiPointDefaults("DefaultPlugin").disable("DefaultPlugin").build().plugins()).isEmpty();
  }

  @Test
  void disableAt_pluginEnabledAtThatPointOnly_removedWithoutADisabledName() {
    SchedulerProfile p = SchedulerProfile.builder("s").enableAt(POST_FILTER, "X").build().toBuilder()
        .disableAt(POST_FILTER, "X").build();
    assertThat(p.points()).isEmpty();
    // and points the test did not touch stay empty
    for (ExtensionPoint e : List.of(PRE_FILTER, RESERVE, PERMIT, PRE_BIND, POST_BIND)) {
      assertThat(p.pointPlugins(e).isEmpty()).isTrue();
    }
  }

  /** A null in a plugin's args is refused naming the profile, the plugin and the field, not a NullPointerException. */
  @Test
  void pluginArgs_nullValue_refusedNamingTheField() {
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("scoringStrategy", null);
    assertThatThrownBy(() -> SchedulerProfile.builder("packer").plugin("NodeResourcesFit", 1)
        .pluginArgs("NodeResourcesFit", args).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("profile packer: the args of plugin NodeResourcesFit hold a null value for scoringStrategy (leave"
            + " an unset field out)");
  }
}
