package io.fleetkit.scheduler.nodetable;

import io.fleetkit.api.core.ContainerImage;
import io.fleetkit.api.framework.NodeInfo;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The container images the nodes of a {@link NodeTable} report ({@code status.images}), indexed for the ImageLocality
 * score: per position the node's images by name with their sizes, and per image name how many positions report it.
 * The count is kube-scheduler's {@code ImageStateSummary.NumNodes}, which upstream's cache keeps in its
 * {@code imageStates} from node events (a set of node names per image, snapshotted as its size); here it is kept as
 * the table's rows are placed, moved and cleared.
 *
 * <p>A node counts once per name, however many of its images list the name; its size for a name is that of the first
 * image listing it, as upstream's cache keeps it. Unlike upstream's cache, whose summary keeps the size of the first
 * node that reported the name anywhere, each node's own reported size is used (upstream's snapshot built from a node
 * list does the same).
 *
 * <p>Cost: placing a row whose images list is the very one already indexed (a pod bound, a status post that kept the
 * list) is one reference comparison; an equal list is one list comparison; a changed list is O(names) map updates.
 * With no node reporting images nothing is allocated. Written by the table's owner between cycles, read from any
 * thread during them (as the table).
 */
public final class NodeImages {
  /** Per position, the images list indexed there (identity), or {@code null}. */
  private @Nullable List<?>[] lists = new List<?>[0];
  /** Per position, the node's image sizes by name; {@code null} when it reports none. */
  private @Nullable Map<String, Long>[] sizes = newMaps(0);
  /** Per image name, how many positions report it (a one-element array, updated in place). */
  private final Map<String, int[]> counts = new HashMap<>();
  private int nodesWithImages;

  NodeImages() {}

  @SuppressWarnings("unchecked")
  private static @Nullable Map<String, Long>[] newMaps(int n) {
    return (Map<String, Long>[]) new Map<?, ?>[n];
  }

  /** How many positions hold a node that reports at least one image; when none does, every lookup misses. */
  public int nodesWithImages() {
    return nodesWithImages;
  }

  /** How many positions hold a node that reports an image named {@code name} (exactly); 0 when none. */
  public int nodeCount(String name) {
    if (nodesWithImages == 0) {
      return 0;
    }
    int[] c = counts.get(name);
    return c == null ? 0 : c[0];
  }

  /** Whether the node at {@code position} reports any image. */
  public boolean any(int position) {
    return sizes[position] != null;
  }

  /** The size the node at {@code position} reports for the image named {@code name}, or -1 when it has none. */
  public long size(int position, String name) {
    Map<String, Long> m = sizes[position];
    if (m == null) {
      return -1;
    }
    Long s = m.get(name);
    return s == null ? -1 : s;
  }

  void grow(int len) {
    lists = Arrays.copyOf(lists, len);
    sizes = Arrays.copyOf(sizes, len);
  }

  /** Indexes the images of {@code view}'s node at position {@code i}, replacing what was indexed there. */
  void set(int i, NodeInfo view) {
    List<ContainerImage> now = view.node().status().images();
    List<?> old = lists[i];
    if (old == now) {
      return;
    }
    if (now.equals(old) || (old == null && now.isEmpty())) {
      lists[i] = now; // the same images: the index stands
      return;
    }
    clear(i);
    lists[i] = now;
    if (now.isEmpty()) {
      return;
    }
    Map<String, Long> m = new HashMap<>();
    for (int k = 0; k < now.size(); k++) {
      ContainerImage image = now.get(k);
      List<String> names = image.names();
      for (int j = 0; j < names.size(); j++) {
        m.putIfAbsent(names.get(j), image.sizeBytes());
      }
    }
    if (m.isEmpty()) {
      return;
    }
    sizes[i] = m;
    nodesWithImages++;
    for (String name : m.keySet()) {
      counts.computeIfAbsent(name, n -> new int[1])[0]++;
    }
  }

  /** Removes what is indexed at position {@code i} from the counts and forgets it. */
  void clear(int i) {
    Map<String, Long> m = sizes[i];
    lists[i] = null;
    if (m == null) {
      return;
    }
    sizes[i] = null;
    nodesWithImages--;
    for (String name : m.keySet()) {
      int[] c = counts.get(name);
      if (--c[0] == 0) {
        counts.remove(name);
      }
    }
  }

  /** Forgets position {@code i} without touching the counts: it holds a copy of a row moved elsewhere. */
  void drop(int i) {
    lists[i] = null;
    sizes[i] = null;
  }

  /** Copies rows {@code [from, from + len)} to {@code [to, to + len)}, whose own entries were cleared or moved. */
  void move(int from, int to, int len) {
    System.arraycopy(lists, from, lists, to, len);
    System.arraycopy(sizes, from, sizes, to, len);
  }
}
