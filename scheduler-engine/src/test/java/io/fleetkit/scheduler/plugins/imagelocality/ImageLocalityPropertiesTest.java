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
import io.fleetkit.scheduler.plugins.helper.SimpleCycleState;
import io.fleetkit.scheduler.plugins.helper.SimpleSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The engine's path (the {@link NodeTable}'s image index, kept as rows are set, removed and cleared) scores exactly as
 * the {@code NodeInfo} path that counts each image's nodes by walking a plain node list, across random clusters and
 * random node changes; and the index's counts are the walked counts.
 */
final class ImageLocalityPropertiesTest {
  private static final String[] UNIVERSE = {"gcr.io/a:latest", "gcr.io/b:v1", "gcr.io/c:latest", "busybox:1",
      "gcr.io/d@sha256:0f"};
  private static final String[] POD_IMAGES = {"gcr.io/a", "gcr.io/b:v1", "gcr.io/c:latest", "busybox:1", "nginx",
      "gcr.io/d@sha256:0f"};

  @Provide
  Arbitrary<List<Integer>> nodeMasks() {
    return Arbitraries.integers().between(0, (1 << UNIVERSE.length) - 1).list().ofMinSize(1).ofMaxSize(12);
  }

  @Provide
  Arbitrary<List<Integer>> podImages() {
    return Arbitraries.integers().between(0, POD_IMAGES.length - 1).list().ofMinSize(1).ofMaxSize(4);
  }

  private static NodeInfo nodeWith(String name, int mask, Random random) {
    List<ContainerImage> images = new ArrayList<>();
    for (int j = 0; j < UNIVERSE.length; j++) {
      if ((mask & (1 << j)) != 0) {
        images.add(ContainerImage.of((1 + random.nextInt(1500)) * 1024L * 1024, UNIVERSE[j]));
      }
    }
    return nodeInfo(node(name).images(images));
  }

  @Property(tries = 300)
  void tablePath_scoresAsWalkedNodeList_acrossNodeChanges(@ForAll("nodeMasks") List<Integer> masks,
      @ForAll("podImages") List<Integer> images, @ForAll long seed) {
    Random random = new Random(seed);
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < masks.size(); i++) {
      nodes.add(nodeWith("n" + i, masks.get(i), random));
    }
    NodeTable table = new NodeTable();
    table.ensureCapacity(nodes.size());
    for (int i = 0; i < nodes.size(); i++) {
      table.set(i, nodes.get(i));
    }
    Pod.Builder b = Pod.builder().name("p");
    for (int i = 0; i < images.size(); i++) {
      b.container("c" + i, POD_IMAGES[images.get(i)], ResourceList.EMPTY);
    }
    PodInfo pod = PodInfos.of(b.build());
    for (int round = 0; round < 4; round++) {
      List<NodeInfo> current = List.copyOf(nodes);
      compare(pod, table, current);
      // a node leaves (its row removed, the later rows moving down) or changes its images in place
      if (nodes.size() > 1 && random.nextBoolean()) {
        int gone = random.nextInt(nodes.size());
        nodes.remove(gone);
        table.removeRows(new int[] {gone}, 1);
      } else {
        int at = random.nextInt(nodes.size());
        nodes.set(at, nodeWith(nodes.get(at).name(), random.nextInt(1 << UNIVERSE.length), random));
        table.set(at, nodes.get(at));
      }
    }
  }

  private static void compare(PodInfo pod, NodeTable table, List<NodeInfo> nodes) {
    TableView tabled = new TableView(nodes, table);
    SimpleSnapshot plain = new SimpleSnapshot(nodes);
    for (String name : UNIVERSE) {
      long walked = nodes.stream().filter(n -> n.node().status().images().stream()
          .anyMatch(im -> im.names().contains(name))).count();
      assertThat(table.images().nodeCount(name)).as(name).isEqualTo(walked);
    }
    ImageLocalityPlugin onTable = new ImageLocalityPlugin(() -> tabled);
    ImageLocalityPlugin onList = new ImageLocalityPlugin(() -> plain);
    CycleState a = new SimpleCycleState();
    CycleState b = new SimpleCycleState();
    Status sa = onTable.preScore(a, pod, nodes);
    Status sb = onList.preScore(b, pod, nodes);
    assertThat(sa.code()).isEqualTo(sb.code());
    for (int i = 0; i < nodes.size(); i++) {
      long expected = sb.isSkip() ? 0 : onList.score(b, pod, nodes.get(i));
      long got = sa.isSkip() ? 0 : onTable.score(a, pod, table, i);
      assertThat(got).as("node %s", nodes.get(i).name()).isEqualTo(expected).isBetween(0L, 100L);
    }
  }

  /** A snapshot whose node list is the table's positions 0.. in order. */
  private static final class TableView extends SimpleSnapshot implements NodeTable.Source {
    private final NodeTable table;

    TableView(List<NodeInfo> nodes, NodeTable table) {
      super(nodes);
      this.table = table;
    }

    @Override
    public NodeTable nodeTable() {
      return table;
    }
  }
}
