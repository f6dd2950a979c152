package io.fleetkit.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.framework.ExtensionPoint;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.SchedulerProfile.PluginRef;
import io.fleetkit.api.framework.SchedulerProfile.PointPlugins;
import io.fleetkit.scheduler.DefaultPlugins;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ProfileFile}: every extension point's {@code enabled}/{@code disabled} lists, merged into kube's defaults as
 * kube-scheduler merges them.
 *
 * <p>{@link #load_samePluginEnabledTwiceAtAPoint_refused} ports kubernetes/kubernetes at commit
 * 3ee81787685e47a7a5da22423c8ca4455577ecb3, {@code pkg/scheduler/apis/config/v1/default_plugins_test.go}
 * TestMergePlugins case "RepeatedCustomPlugin": upstream's merge keeps both entries and the framework then refuses
 * the profile ("already registered"); FleetKit refuses it when it reads the file.
 */
final class ProfileFileTest {
  @TempDir Path dir;

  private List<SchedulerProfile> load(String yaml) throws IOException {
    Path f = dir.resolve("scheduler.yaml");
    Files.writeString(f, yaml);
    return ProfileFile.load(f);
  }

  private static List<String> names(List<PluginRef> refs) {
    return refs.stream().map(PluginRef::name).toList();
  }

  @Test
  void load_scoreDisabled_nodeResourcesFit_keepsItsFilter() throws IOException {
    SchedulerProfile p = load("""
        profiles:
        - plugins:
            score:
              disabled: [{name: NodeResourcesFit}]
        """).get(0);
    assertThat(names(p.plugins())).contains("NodeResourcesFit");
    assertThat(p.pointPlugins(ExtensionPoint.SCORE)).isEqualTo(new PointPlugins(List.of(),
        List.of("NodeResourcesFit")));
    assertThat(p.pluginsAt(ExtensionPoint.SCORE, n -> true)).extracting(PluginRef::name)
        .doesNotContain("NodeResourcesFit");
    assertThat(p.pluginsAt(ExtensionPoint.FILTER, n -> true)).extracting(PluginRef::name)
        .contains("NodeResourcesFit");
  }

  @Test
  void load_filterDisabled_keepsItsScore_withTheWeight() throws IOException {
    SchedulerProfile p = load("""
        profiles:
        - plugins:
            filter:
              disabled: [{name: TaintToleration}]
        """).get(0);
    assertThat(p.pluginsAt(ExtensionPoint.FILTER, n -> true)).extracting(PluginRef::name)
        .doesNotContain("TaintToleration");
    assertThat(p.pluginsAt(ExtensionPoint.SCORE, n -> true)).contains(new PluginRef("TaintToleration", 3));
  }

  @Test
  void load_everyPoint_enabledAndDisabledApplied() throws IOException {
    SchedulerProfile p = load("""
        profiles:
        - plugins:
            preEnqueue: {disabled: [{name: SchedulingGates}]}
            queueSort: {disabled: [{name: "*"}], enabled: [{name: PrioritySort}]}
            preFilter: {disabled: [{name: NodePorts}]}
            postFilter: {disabled: [{name: DefaultPreemption}]}
            preScore: {disabled: [{name: "*"}]}
            score: {enabled: [{name: ImageLocality, weight: 5}, {name: NodeAffinity}]}
            reserve: {enabled: [{name: Extra}]}
            permit: {enabled: [{name: Extra}]}
            preBind: {enabled: [{name: Extra}]}
            bind: {disabled: [{name: DefaultBinder}], enabled: [{name: MyBinder}]}
            postBind: {enabled: [{name: Extra}]}
        """).get(0);
    assertThat(p.pointPlugins(ExtensionPoint.PRE_ENQUEUE).disabled()).containsExactly("SchedulingGates");
    assertThat(p.pointPlugins(ExtensionPoint.QUEUE_SORT))
        .isEqualTo(new PointPlugins(List.of(new PluginRef("PrioritySort", 1)), List.of("*")));
    assertThat(p.pointPlugins(ExtensionPoint.PRE_FILTER).disabled()).containsExactly("NodePorts");
    assertThat(p.pointPlugins(ExtensionPoint.POST_FILTER).disabled()).containsExactly("DefaultPreemption");
    assertThat(p.pointPlugins(ExtensionPoint.PRE_SCORE).disabled()).containsExactly("*");
    assertThat(p.pointPlugins(ExtensionPoint.SCORE).enabled())
        .containsExactly(new PluginRef("ImageLocality", 5), new PluginRef("NodeAffinity", 1));
    for (ExtensionPoint e : List.of(ExtensionPoint.RESERVE, ExtensionPoint.PERMIT, ExtensionPoint.PRE_BIND,
        ExtensionPoint.POST_BIND)) {
      assertThat(p.pointPlugins(e).enabled()).containsExactly(new PluginRef("Extra", 1));
    }
    assertThat(p.pointPlugins(ExtensionPoint.BIND))
        .isEqualTo(new PointPlugins(List.of(new PluginRef("MyBinder", 1)), List.of("DefaultBinder")));
    assertThat(p.pluginsAt(ExtensionPoint.BIND, n -> n.endsWith("Binder"))).extracting(PluginRef::name)
        .containsExactly("MyBinder");
    // the score point's own plugins come first, in its order, with its weights
    assertThat(p.pluginsAt(ExtensionPoint.SCORE, n -> List.of("TaintToleration", "NodeAffinity", "ImageLocality")
        .contains(n))).containsExactly(new PluginRef("ImageLocality", 5), new PluginRef("NodeAffinity", 1),
        new PluginRef("TaintToleration", 3));
  }

  @Test
  void load_multiPointDisabledAll_thenEnabled_onlyThose() throws IOException {
    SchedulerProfile p = load("""
        profiles:
        - schedulerName: tiny
          plugins:
            multiPoint:
              disabled: [{name: "*"}]
              enabled: [{name: PrioritySort}, {name: NodeResourcesFit, weight: 0}, {name: DefaultBinder}]
        """).get(0);
    assertThat(p.schedulerName()).isEqualTo("tiny");
    // kube's getScoreWeights: a zero weight counts as 1
    assertThat(p.plugins()).containsExactly(new PluginRef("PrioritySort", 1), new PluginRef("NodeResourcesFit", 1),
        new PluginRef("DefaultBinder", 1));
  }

  /** Found by ProfileFileFuzzTest: a mapping under {@code profiles} failed with a NullPointerException. */
  @Test
  void load_profilesNotAList_errorNamingTheField() throws IOException {
    assertThatThrownBy(() -> load("""
        profiles:
          plugins:
            score:
              disabled: [{name: "*"}]
        """)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith(": profiles must be a list of profiles (- schedulerName: ..., plugins: ...), not object");
    assertThatThrownBy(() -> load("profiles: most-allocated\n")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith(", not string");
    // the same for pluginConfig, which a mapping also broke with a NullPointerException
    assertThatThrownBy(() -> load("""
        profiles:
        - pluginConfig:
            NodeResourcesFit: {scoringStrategy: {type: MostAllocated}}
        """)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith(": profiles[0].pluginConfig must be a list of {name: ...}");
    // found the same way: an out-of-range global percentage with no profiles lost the file's name
    assertThatThrownBy(() -> load("percentageOfNodesToScore: 150\nprofiles:\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith(".yaml: profile default-scheduler: percentageOfNodesToScore 150 must be between 0 and"
            + " 100");
    // and an empty schedulerName (a YAML tag with no value) lost it too
    assertThatThrownBy(() -> load("profiles:\n- schedulerName: !packer\n")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith(".yaml: profiles[0].schedulerName: Required value");
    // a null plugin argument is an unset one, as kube decodes it (it threw a NullPointerException)
    SchedulerProfile p = load("""
        profiles:
        - pluginConfig:
          - name: NodeResourcesFit
            args: {scoringStrategy: }
        """).get(0);
    assertThat(p.pluginArgs()).containsEntry("NodeResourcesFit", Map.of());
    // no profiles at all: the default one
    assertThat(load("profiles:\n")).extracting(SchedulerProfile::schedulerName).containsExactly("default-scheduler");
  }

  @Test
  void load_disabledPluginNotInTheProfile_errorWithThePath() {
    assertThatThrownBy(() -> load("""
        profiles:
        - plugins:
            score:
              disabled: [{name: NodeResourceFit}]
        """)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("profiles[0].plugins.score.disabled[0].name \"NodeResourceFit\" is not a plugin of "
            + "this profile (plugins: SchedulingGates, PrioritySort");
  }

  @Test
  void load_disabledAndEnabledAtThePoint_pluginNotElsewhere_accepted() throws IOException {
    SchedulerProfile p = load("""
        profiles:
        - plugins:
            permit:
              disabled: [{name: Gate}]
              enabled: [{name: Gate}]
        """).get(0);
    assertThat(p.pointPlugins(ExtensionPoint.PERMIT).enabled()).containsExactly(new PluginRef("Gate", 1));
  }

  @Test
  void load_samePluginEnabledTwiceAtAPoint_refused() {
    // upstream TestMergePlugins case "RepeatedCustomPlugin"
    assertThatThrownBy(() -> load("""
        profiles:
        - plugins:
            filter:
              enabled: [{name: Plugin1}, {name: Plugin2, weight: 2}, {name: Plugin3}, {name: Plugin2, weight: 4}]
        """)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("profiles[0].plugins.filter.enabled[3].name \"Plugin2\": the plugin is enabled twice "
            + "at filter");
  }

  @Test
  void load_unknownPoint_errorNamesTheKnownOnes() {
    assertThatThrownBy(() -> load("""
        profiles:
        - plugins:
            scores: {disabled: [{name: NodeResourcesFit}]}
        """)).hasMessageContaining("profiles[0].plugins.scores: unknown field (known: bind, filter, multiPoint,");
  }

  @Test
  void load_enabledNotAList_errorWithThePath() {
    assertThatThrownBy(() -> load("""
        profiles:
        - plugins:
            bind: {enabled: {name: MyBinder}}
        """)).hasMessageContaining("profiles[0].plugins.bind.enabled must be a list of {name: ...}");
  }

  @Test
  void load_noProfiles_defaultProfileEndsWithDefaultBinder() throws IOException {
    SchedulerProfile p = load("percentageOfNodesToScore: 50\n").get(0);
    assertThat(p).isEqualTo(DefaultPlugins.profile().toBuilder().percentageOfNodesToScore(50).build());
    assertThat(p.plugins().get(p.plugins().size() - 1).name()).isEqualTo("DefaultBinder");
  }
}
