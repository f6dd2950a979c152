package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.scheduler.nodetable.NodeTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Node views at positions of a {@link NodeTable}, as the Score property tests change and score them: a view set at a
 * position (the next free one adds a node), and a random feasible subset for a cycle.
 */
final class ScoredViews {
  final NodeTable table = new NodeTable();
  final List<NodeInfo> views = new ArrayList<>();

  /** A cycle's feasible nodes: their positions in the table and their views, in the same order. */
  record Feasible(int[] indices, List<NodeInfo> views) {}

  /** Puts {@code view} at {@code position}: replaces the view there, or adds a node when it is the next position. */
  void set(int position, NodeInfo view) {
    if (position == views.size()) {
      table.ensureCapacity(position + 1);
      views.add(view);
    } else {
      views.set(position, view);
    }
    table.set(position, view);
  }

  int size() {
    return views.size();
  }

  /** The first {@code k} positions of a random order of all of them, {@code k} from 1 to all. */
  Feasible pick(Random random) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < views.size(); i++) {
      order.add(i);
    }
    Collections.shuffle(order, random);
    int k = 1 + random.nextInt(views.size());
    int[] indices = new int[k];
    List<NodeInfo> feasible = new ArrayList<>();
    for (int pos = 0; pos < k; pos++) {
      indices[pos] = order.get(pos);
      feasible.add(views.get(indices[pos]));
    }
    return new Feasible(indices, feasible);
  }
}
