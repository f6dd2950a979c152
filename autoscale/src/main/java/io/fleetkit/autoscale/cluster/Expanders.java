package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The cluster autoscaler's expanders ({@code --expander}): {@link #leastWaste()} (the default), {@link #mostPods()},
 * {@link #leastNodes()}, {@link #price()}, {@link #priority(Map)}, {@link #random()}, and {@link #chain} to combine
 * them as {@code --expander=priority,least-waste}. Ties left at the end are broken by the autoscaler's seeded random
 * choice. All returned expanders are immutable and thread-safe.
 */
public final class Expanders {
  private Expanders() {}

  /**
   * {@code least-waste} (upstream {@code expander/waste}): the options leaving the smallest fraction of the new
   * nodes' CPU plus memory capacity unrequested by the pods they take,
   * {@code (cpuCap - cpuReq)/cpuCap + (memCap - memReq)/memCap} with capacities times the node count.
   */
  public static Expander leastWaste() {
    return options -> minBy(options, Expanders::wastedScore);
  }

  /** The least-waste score of one option (lower is better); see {@link #leastWaste()}. */
  public static double wastedScore(ScaleUpOption o) {
    ResourceList cap = o.pool().spec().template().capacity();
    long cpuCap = cap.milliCpu() * o.nodeCount();
    long memCap = cap.memoryBytes() * o.nodeCount();
    long cpuReq = 0;
    long memReq = 0;
    for (Pod p : o.pods()) {
      ResourceList r = p.effectiveRequests();
      cpuReq += r.milliCpu();
      memReq += r.memoryBytes();
    }
    double cpu = cpuCap == 0 ? 0 : (double) (cpuCap - cpuReq) / cpuCap;
    double mem = memCap == 0 ? 0 : (double) (memCap - memReq) / memCap;
    return cpu + mem;
  }

  /** {@code most-pods}: the options that schedule the most pending pods. */
  public static Expander mostPods() {
    return options -> minBy(options, o -> -o.pods().size());
  }

  /** {@code least-nodes}: the options adding the fewest nodes. */
  public static Expander leastNodes() {
    return options -> minBy(options, ScaleUpOption::nodeCount);
  }

  /**
   * {@code price}: the options with the lowest price per scheduled pod ({@code nodeCount * pricePerHour / pods}).
   * Upstream's GCE price expander also weighs a preferred node size and the pods' own "price"; FleetKit keeps the
   * part that decides in practice: the cheapest way per pod.
   */
  public static Expander price() {
    return options -> minBy(options, o -> o.pods().isEmpty() ? Double.MAX_VALUE : o.pricePerHour() / o.pods().size());
  }

  /**
   * {@code priority} (upstream {@code expander/priority}): each option gets the highest priority whose list holds a
   * regular expression found in the pool name (a substring match, as Go's {@code FindStringIndex}); the options with
   * the highest priority win. When no option matches any expression, every option is kept.
   *
   * @param regexesByPriority priority to regular expressions, as the {@code cluster-autoscaler-priority-expander}
   *     ConfigMap
   * @throws java.util.regex.PatternSyntaxException naming the expression when one does not compile
   */
  public static Expander priority(Map<Integer, List<String>> regexesByPriority) {
    Map<Integer, List<Pattern>> compiled = new LinkedHashMap<>();
    regexesByPriority.forEach((prio, list) -> {
      List<Pattern> ps = new ArrayList<>();
      for (String re : list) {
        ps.add(Pattern.compile(Objects.requireNonNull(re, "regex")));
      }
      compiled.put(prio, List.copyOf(ps));
    });
    Map<Integer, List<Pattern>> frozen = Map.copyOf(compiled);
    return options -> {
      int max = Integer.MIN_VALUE;
      List<ScaleUpOption> best = new ArrayList<>();
      for (ScaleUpOption o : options) {
        Integer p = priorityOf(frozen, o.poolName());
        if (p == null) {
          continue;
        }
        if (p > max) {
          max = p;
          best.clear();
        }
        if (p == max) {
          best.add(o);
        }
      }
      return best.isEmpty() ? List.copyOf(options) : List.copyOf(best);
    };
  }

  private static @Nullable Integer priorityOf(Map<Integer, List<Pattern>> priorities, String pool) {
    Integer best = null;
    for (Map.Entry<Integer, List<Pattern>> e : priorities.entrySet()) {
      for (Pattern p : e.getValue()) {
        if (p.matcher(pool).find()) {
          if (best == null || e.getKey() > best) {
            best = e.getKey();
          }
          break;
        }
      }
    }
    return best;
  }

  /** {@code random}: keeps every option; the autoscaler's seeded random choice decides. */
  public static Expander random() {
    return List::copyOf;
  }

  /** Each expander narrows what the previous one kept, as {@code --expander=a,b,c}. */
  public static Expander chain(Expander... expanders) {
    List<Expander> list = List.of(expanders);
    return options -> {
      List<ScaleUpOption> left = List.copyOf(options);
      for (Expander e : list) {
        if (left.size() <= 1) {
          break;
        }
        left = e.bestOptions(left);
      }
      return left;
    };
  }

  /**
   * The expander named as in {@code --expander} ({@code least-waste}, {@code most-pods}, {@code least-nodes},
   * {@code price}, {@code random}), or a comma-separated chain of them.
   *
   * @throws IllegalArgumentException naming the unknown expander ({@code priority} needs its configuration: use
   *     {@link #priority(Map)})
   */
  public static Expander named(String names) {
    List<Expander> chain = new ArrayList<>();
    for (String n : names.split(",", -1)) {
      chain.add(switch (n.trim()) {
        case "least-waste" -> leastWaste();
        case "most-pods" -> mostPods();
        case "least-nodes" -> leastNodes();
        case "price" -> price();
        case "random" -> random();
        default -> throw new IllegalArgumentException("expander \"" + n.trim()
            + "\" is unknown; known: least-waste, most-pods, least-nodes, price, random (priority: Expanders.priority)");
      });
    }
    return chain(chain.toArray(new Expander[0]));
  }

  private static List<ScaleUpOption> minBy(List<ScaleUpOption> options, ToDoubleFunction<ScaleUpOption> score) {
    double best = Double.POSITIVE_INFINITY;
    List<ScaleUpOption> out = new ArrayList<>();
    for (ScaleUpOption o : options) {
      double s = score.applyAsDouble(o);
      if (s < best) {
        best = s;
        out.clear();
      }
      if (s == best) {
        out.add(o);
      }
    }
    return List.copyOf(out);
  }
}
