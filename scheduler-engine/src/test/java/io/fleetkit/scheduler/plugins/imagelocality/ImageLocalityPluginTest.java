package io.fleetkit.scheduler.plugins.imagelocality;

import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.node;
import static io.fleetkit.scheduler.plugins.helper.PluginFixtures.nodeInfo;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.ContainerImage;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableScore;
import io.fleetkit.scheduler.plugins.helper.SimpleCycleState;
import io.fleetkit.scheduler.plugins.helper.SimpleSnapshot;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cases ported from kubernetes {@code pkg/scheduler/framework/plugins/imagelocality/image_locality_test.go}:
 * TestImageLocalityPriority (7 of 7) and TestNormalizedImageName (4 of 4), at the revision with the init-container
 * case and before the image-volume cases (its commit could not be pinned here; the stored kubernetes/kubernetes
 * snapshot, commit 3e4a7900d75552087b6d82edb80ac44be8f71d67, is an older revision of the file with 4 cases under the
 * former single 1000 MB threshold). The image-volume cases added later upstream (PRs 130231 and 138951) do not apply:
 * FleetKit's volumes have no image source. Every case runs twice: over a plain node list (the {@code NodeInfo} path)
 * and over a {@link NodeTable} (the engine's path), with the same expected scores. Node names as upstream.
 */
final class ImageLocalityPluginTest {
  private static final long MB = 1024L * 1024;

  private static Pod pod(List<String> containers, List<String> initContainers) {
    Pod.Builder b = Pod.builder().name("p");
    for (int i = 0; i < containers.size(); i++) {
      b.container("c" + i, containers.get(i), ResourceList.EMPTY);
    }
    for (int i = 0; i < initContainers.size(); i++) {
      b.initContainer("i" + i, initContainers.get(i), ResourceList.EMPTY);
    }
    return b.build();
  }

  private static Pod pod(String... containers) {
    return pod(List.of(containers), List.of());
  }

  private static ContainerImage image(long mb, String... names) {
    return ContainerImage.of(mb * MB, names);
  }

  private static NodeInfo imageNode(String name, List<ContainerImage> images) {
    return nodeInfo(node(name).images(images));
  }

  // the node statuses of upstream's table
  private static final List<ContainerImage> NODE_40_300_2000 = List.of(
      image(40, "gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"),
      image(300, "gcr.io/300:latest", "gcr.io/300:v1"),
      image(2000, "gcr.io/2000:latest"));
  private static final List<ContainerImage> NODE_250_10 = List.of(
      image(250, "gcr.io/250:latest"),
      image(10, "gcr.io/10:latest", "gcr.io/10:v1"));
  private static final List<ContainerImage> NODE_600_40_900 = List.of(
      image(600, "gcr.io/600:latest"), image(40, "gcr.io/40:latest"), image(900, "gcr.io/900:latest"));
  private static final List<ContainerImage> NODE_300_600_900 = List.of(
      image(300, "gcr.io/300:latest"), image(600, "gcr.io/600:latest"), image(900, "gcr.io/900:latest"));
  private static final List<ContainerImage> NODE_4000_30 = List.of(
      image(4000, "gcr.io/4000:latest"), image(30, "gcr.io/30:latest"));
  private static final List<ContainerImage> NODE_20_30_40 = List.of(
      image(20, "gcr.io/20:latest"), image(30, "gcr.io/30:latest"), image(40, "gcr.io/40:latest"));
  private static final List<ContainerImage> NO_IMAGES = List.of();

  record Case(String name, Pod pod, List<NodeInfo> nodes, long[] want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> priorityCases() {
    Pod test40250 = pod("gcr.io/40", "gcr.io/250");
    Pod test40300 = pod("gcr.io/40", "gcr.io/300");
    Pod testMinMax = pod("gcr.io/10", "gcr.io/4000");
    Pod test300600900 = pod("gcr.io/300", "gcr.io/600", "gcr.io/900");
    Pod test3040 = pod("gcr.io/30", "gcr.io/40");
    Pod test30Init300 = pod(List.of("gcr.io/30"), List.of("gcr.io/300"));
    return Stream.of(
        // node1: 40M/2 < 23M, min-threshold: 0; node2: 100 * (250M/2 - 23M) / (1000M * 2 - 23M) = 5
        new Case("two images spread on two nodes, prefer the larger image one", test40250,
            List.of(imageNode("node1", NODE_40_300_2000), imageNode("node2", NODE_250_10)), new long[] {0, 5}),
        // node1: 100 * ((40M + 300M)/2 - 23M) / (1000M * 2 - 23M) = 7; node2: not present
        new Case("two images on one node, prefer this node", test40300,
            List.of(imageNode("node1", NODE_40_300_2000), imageNode("node2", NODE_250_10)), new long[] {7, 0}),
        // node1: 4000M * 1/2 >= 1000M * 2, max-threshold: 100; node2: 10M/2 < 23M: 0
        new Case("if exceed limit, use limit", testMinMax,
            List.of(imageNode("node1", NODE_4000_30), imageNode("node2", NODE_250_10)), new long[] {100, 0}),
        // node1: 100 * (4000M/3 - 23M) / (1000M * 2 - 23M) = 66; node2: 10M/3 < 23M: 0; node3: none
        new Case("if exceed limit, use limit (with node which has no images present)", testMinMax,
            List.of(imageNode("node1", NODE_4000_30), imageNode("node2", NODE_250_10),
                imageNode("node3", NO_IMAGES)), new long[] {66, 0, 0}),
        // node1: 100 * (600M * 2/3 + 900M * 2/3 - 23M) / (1000M * 3 - 23M) = 32
        // node2: 100 * (300M * 1/3 + 600M * 2/3 + 900M * 2/3 - 23M) / (1000M * 3 - 23M) = 36
        new Case("pod with multiple large images, node2 is preferred", test300600900,
            List.of(imageNode("node1", NODE_600_40_900), imageNode("node2", NODE_300_600_900),
                imageNode("node3", NO_IMAGES)), new long[] {32, 36, 0}),
        // node1: 100 * (30M + 40M * 1/2 - 23M) / (1000M * 2 - 23M) = 1; node2: 100 * (30M - 23M) / ... = 0
        new Case("pod with multiple small images", test3040,
            List.of(imageNode("node1", NODE_20_30_40), imageNode("node2", NODE_4000_30)), new long[] {1, 0}),
        // node1: 100 * (300M * 1/2 - 23M) / (1000M * 2 - 23M) = 6; node2: 30M * 1/2 < 23M: 0
        new Case("include InitContainers: two images spread on two nodes, prefer the larger image one",
            test30Init300, List.of(imageNode("node1", NODE_40_300_2000), imageNode("node2", NODE_20_30_40)),
            new long[] {6, 0}));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("priorityCases")
  void score_overANodeList_asUpstream(Case c) {
    SimpleSnapshot snapshot = new SimpleSnapshot(c.nodes());
    ImageLocalityPlugin plugin = new ImageLocalityPlugin(() -> snapshot);
    CycleState state = new SimpleCycleState();
    PodInfo pod = PodInfos.of(c.pod());
    assertThat(plugin.preScore(state, pod, c.nodes())).isEqualTo(Status.success());
    long[] got = new long[c.nodes().size()];
    for (int i = 0; i < got.length; i++) {
      got[i] = plugin.score(state, pod, c.nodes().get(i));
    }
    assertThat(got).containsExactly(c.want());
    // without PreScore (a framework that skips it) the same scores
    CycleState fresh = new SimpleCycleState();
    for (int i = 0; i < got.length; i++) {
      assertThat(plugin.score(fresh, pod, c.nodes().get(i))).isEqualTo(c.want()[i]);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("priorityCases")
  void score_overANodeTable_asUpstream(Case c) {
    TableSnapshot snapshot = new TableSnapshot(c.nodes());
    ImageLocalityPlugin plugin = new ImageLocalityPlugin(() -> snapshot);
    CycleState state = new SimpleCycleState();
    PodInfo pod = PodInfos.of(c.pod());
    assertThat(plugin.preScore(state, pod, c.nodes())).isEqualTo(Status.success());
    assertThat(plugin.uniformScore(state, pod, snapshot.table)).isEqualTo(TableScore.NOT_UNIFORM);
    int[] positions = new int[c.nodes().size()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = i;
    }
    long[] got = new long[positions.length];
    plugin.scoreAll(state, pod, snapshot.table, positions, 0, positions.length, got);
    assertThat(got).containsExactly(c.want());
  }

  // ---------------------------------------------------------------- TestNormalizedImageName

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "add :latest postfix 1, root, root:latest",
      "add :latest postfix 2, gcr.io:5000/root, gcr.io:5000/root:latest",
      "keep it as is 1, root:tag, root:tag",
  })
  void normalizedImageName_asUpstream(String name, String input, String output) {
    assertThat(ImageLocalityPlugin.normalizedImageName(input)).as(name).isEqualTo(output);
  }

  @Test
  void normalizedImageName_digestReference_keptAsIs() {
    // upstream's "keep it as is 2": root@ + getImageFakeDigest("root"), a sha256 of the content
    String digest = "root@sha256:" + sha256("root");
    assertThat(ImageLocalityPlugin.normalizedImageName(digest)).isEqualTo(digest);
    assertThat(ImageLocalityPlugin.normalizedImageName("gcr.io:5000/root@sha256:" + sha256("root")))
        .isEqualTo("gcr.io:5000/root@sha256:" + sha256("root"));
  }

  private static String sha256(String content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(content.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  // ---------------------------------------------------------------- FleetKit: the cost paths

  @Test
  void preScore_noNodeReportsImages_skipsAndEveryNodeIsUniformZero() {
    List<NodeInfo> nodes = List.of(imageNode("node1", NO_IMAGES), imageNode("node2", NO_IMAGES));
    TableSnapshot snapshot = new TableSnapshot(nodes);
    ImageLocalityPlugin plugin = new ImageLocalityPlugin(() -> snapshot);
    CycleState state = new SimpleCycleState();
    PodInfo pod = PodInfos.of(pod("gcr.io/40"));
    assertThat(plugin.preScore(state, pod, nodes).isSkip()).isTrue();
    assertThat(plugin.uniformScore(state, pod, snapshot.table)).isZero();
    assertThat(plugin.score(state, pod, snapshot.table, 0)).isZero();
  }

  @Test
  void preScore_noNodeHasThePodsImages_skips() {
    List<NodeInfo> nodes = List.of(imageNode("node1", NODE_250_10), imageNode("node2", NO_IMAGES));
    ImageLocalityPlugin plugin = new ImageLocalityPlugin(() -> new TableSnapshot(nodes));
    assertThat(plugin.preScore(new SimpleCycleState(), PodInfos.of(pod("gcr.io/40", "busybox")), nodes).isSkip())
        .isTrue();
    ImageLocalityPlugin plain = new ImageLocalityPlugin(() -> new SimpleSnapshot(nodes));
    assertThat(plain.preScore(new SimpleCycleState(), PodInfos.of(pod("gcr.io/40")), nodes).isSkip()).isTrue();
  }

  @Test
  void nodeCounts_followRowsSetMovedAndRemoved() {
    List<NodeInfo> nodes = new ArrayList<>(List.of(imageNode("node1", NODE_40_300_2000),
        imageNode("node2", NODE_600_40_900), imageNode("node3", NO_IMAGES), imageNode("node4", NODE_20_30_40)));
    NodeTable table = new NodeTable();
    table.ensureCapacity(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      table.set(i, nodes.get(i));
    }
    assertThat(table.images().nodesWithImages()).isEqualTo(3);
    assertThat(table.images().nodeCount("gcr.io/40:latest")).isEqualTo(3);
    assertThat(table.images().nodeCount("gcr.io/40:v1")).isEqualTo(1); // listed twice on node1, counted once
    table.removeRows(new int[] {0}, 1); // node1 leaves; the others move down
    assertThat(table.images().nodeCount("gcr.io/40:latest")).isEqualTo(2);
    assertThat(table.images().nodeCount("gcr.io/40:v1")).isZero();
    assertThat(table.images().size(0, "gcr.io/900:latest")).isEqualTo(900 * MB); // node2, now first
    assertThat(table.images().size(2, "gcr.io/20:latest")).isEqualTo(20 * MB); // node4, now third
    assertThat(table.images().size(3, "gcr.io/20:latest")).isEqualTo(-1);
    table.set(1, imageNode("node3", NODE_250_10)); // node3 pulls images
    assertThat(table.images().nodesWithImages()).isEqualTo(3);
    assertThat(table.images().nodeCount("gcr.io/250:latest")).isEqualTo(1);
    table.set(0, imageNode("node2", NO_IMAGES)); // node2's images were collected
    assertThat(table.images().nodeCount("gcr.io/900:latest")).isZero();
    table.clearFrom(0);
    assertThat(table.images().nodesWithImages()).isZero();
    assertThat(table.images().nodeCount("gcr.io/40:latest")).isZero();
  }

  @Test
  void scoreKey_sameImagesAndCounts_equal_countsOrNamesChanged_differ() {
    List<NodeInfo> nodes = List.of(imageNode("node1", NODE_40_300_2000), imageNode("node2", NODE_250_10),
        imageNode("node3", NO_IMAGES));
    TableSnapshot snapshot = new TableSnapshot(nodes);
    ImageLocalityPlugin plugin = new ImageLocalityPlugin(() -> snapshot);
    PodInfo pod = PodInfos.of(pod("gcr.io/40", "gcr.io/250"));
    CycleState first = new SimpleCycleState();
    plugin.preScore(first, pod, nodes);
    long[] key = plugin.scoreKey(first, pod);
    CycleState again = new SimpleCycleState();
    plugin.preScore(again, PodInfos.of(pod("gcr.io/40:latest", "gcr.io/250")), nodes); // the same names, normalised
    assertThat(plugin.scoreKey(again, pod)).isEqualTo(key);
    // node3 (whose row is not what a kept node2 score depends on) pulls gcr.io/250: node2's score changes
    snapshot.table.set(2, imageNode("node3", NODE_250_10));
    CycleState spread = new SimpleCycleState();
    plugin.preScore(spread, pod, nodes);
    assertThat(plugin.scoreKey(spread, pod)).isNotEqualTo(key);
    CycleState other = new SimpleCycleState();
    plugin.preScore(other, PodInfos.of(pod("gcr.io/40", "gcr.io/10")), nodes);
    assertThat(plugin.scoreKey(other, pod)).isNotEqualTo(plugin.scoreKey(spread, pod));
    assertThat(plugin.scoreKey(new SimpleCycleState(), pod)).isNull(); // no PreScore state: no key
  }

  /** A snapshot over a {@link NodeTable} holding its nodes at positions 0.. in order. */
  static final class TableSnapshot extends SimpleSnapshot implements NodeTable.Source {
    final NodeTable table = new NodeTable();

    TableSnapshot(List<NodeInfo> nodes) {
      super(nodes);
      table.ensureCapacity(nodes.size());
      for (int i = 0; i < nodes.size(); i++) {
        table.set(i, nodes.get(i));
      }
    }

    @Override
    public NodeTable nodeTable() {
      return table;
    }
  }
}
