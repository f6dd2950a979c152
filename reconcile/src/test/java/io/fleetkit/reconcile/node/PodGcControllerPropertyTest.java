package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.node.internal.PodGcIndex;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Invariants of the pod GC: after a pass at most {@code threshold} terminated pods are left, and the deleted ones
 * are those first in upstream's order (evicted, then oldest); and, over random histories of pod, node and clock
 * changes, the watch-kept collector deletes and patches at every tick of its period exactly what upstream's scan of
 * every pod and node ({@code gc} over the listers, with its own node quarantine queue) would.
 */
final class PodGcControllerPropertyTest {
  private static final Duration PERIOD = PodGcController.DEFAULT_GC_CHECK_PERIOD;
  private static final Duration QUARANTINE = PodGcController.DEFAULT_QUARANTINE_TIME;
  private static final String FINALIZER = "example.com/keep";

  /** Records delete and status-write calls on pods, in order. */
  private static final class Recording extends ForwardingObjectStore {
    final List<String> deleted = new ArrayList<>();
    final List<String> patched = new ArrayList<>();

    Recording(ObjectStore delegate) {
      super(delegate);
    }

    @Override
    public <T extends ApiObject<T>> T updateStatus(T object) {
      if (object instanceof Pod p) {
        patched.add(p.metadata().name());
      }
      return super.updateStatus(object);
    }

    @Override
    public <T extends ApiObject<T>> T delete(Class<T> kind, String namespace, String name,
        io.fleetkit.api.store.DeleteOptions options) {
      if (kind == Pod.class) {
        deleted.add(name);
      }
      return super.delete(kind, namespace, name, options);
    }
  }

  @Property(tries = 100)
  void afterAPass_atMostThresholdTerminatedLeft_andTheDeletedAreTheFirstInDeletionOrder(
      @ForAll @IntRange(min = 1, max = 10) int threshold, @ForAll @IntRange(min = 0, max = 40) int pods,
      @ForAll long seed) {
    Random r = new Random(seed);
    ManualClock clock = new ManualClock(Instant.EPOCH);
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build()) {
      store.create(Node.builder().name("node").build());
      for (int i = 0; i < pods; i++) {
        clock.advance(Duration.ofSeconds(r.nextInt(3))); // equal creation times too: the name decides
        Pod p = store.create(pod("p" + r.nextInt(1000) + "-" + i, "node"));
        PodPhase phase = PodPhase.values()[r.nextInt(PodPhase.values().length)];
        store.updateStatus(p.withStatus(p.status().withPhase(phase)
            .withReason(phase == PodPhase.Failed && r.nextBoolean() ? PodGcIndex.EVICTED : "", "")));
      }
      List<Pod> before = terminated(store);
      Recording recording = new Recording(store);
      try (PodGcController gc = PodGcController.builder(recording, clock).terminatedPodThreshold(threshold).build()) {
        gc.start();
        gc.sync();
        List<Pod> after = terminated(store);
        assertThat(after.size()).isLessThanOrEqualTo(threshold);
        assertThat(after.size()).isEqualTo(Math.min(before.size(), threshold));
        List<String> expectedDeleted = before.subList(0, before.size() - after.size()).stream()
            .map(p -> p.metadata().name()).toList();
        assertThat(recording.deleted).containsExactlyElementsOf(expectedDeleted);
        assertThat(recording.patched).isEmpty();
      }
    }
  }

  private static List<Pod> terminated(ObjectStore store) {
    List<Pod> out = new ArrayList<>(store.list(Pod.class, "", (Pod p) -> p.status().phase().isTerminal()).items());
    out.sort(PodGcIndex.DELETION_ORDER);
    return out;
  }

  private static Pod pod(String name, String node) {
    return Pod.builder().namespace("default").name(name)
        .spec(PodSpec.builder().container("c", "img", ResourceList.EMPTY).nodeName(node).build()).build();
  }

  @Property(tries = 150)
  void everyTick_decidesAsUpstreamsFullScan(@ForAll long seed, @ForAll @IntRange(min = 1, max = 6) int threshold) {
    Random r = new Random(seed);
    ManualClock clock = new ManualClock(Instant.EPOCH);
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build()) {
      Recording recording = new Recording(store);
      Reference ref = new Reference(store, threshold);
      try (PodGcController gc = PodGcController.builder(recording, clock).terminatedPodThreshold(threshold).build()) {
        gc.start();
        Instant origin = clock.now();
        compare(ref, recording, gc, clock.now());
        int created = 0;
        for (int step = 0; step < 120; step++) {
          int op = r.nextInt(10);
          String node = "n" + r.nextInt(4);
          if (op == 0) { // a node appears, or changes readiness and the out-of-service taint
            Node n = Node.builder().name(node).conditions(List.of(NodeCondition.of(NodeCondition.READY,
                r.nextBoolean() ? ConditionStatus.True : ConditionStatus.False))).taints(r.nextInt(3) == 0
                ? List.of(Taint.of(PodGcController.TAINT_OUT_OF_SERVICE, "", TaintEffect.NoExecute)) : List.of())
                .build();
            Node old = store.get(Node.class, "", node).orElse(null);
            if (old == null) {
              store.create(n);
            } else {
              store.update(old.withSpec(n.spec()));
              Node fresh = store.require(Node.class, "", node);
              store.updateStatus(fresh.withStatus(n.status()));
            }
          } else if (op == 1) {
            if (store.get(Node.class, "", node).isPresent()) {
              store.delete(Node.class, "", node);
            }
          } else if (op <= 4) { // a pod, bound or not, maybe held by a finalizer and marked for deletion
            String[] nodes = {"", "n0", "n1", "n2", "n3", "ghost"};
            Pod p = pod("p" + created++, nodes[r.nextInt(nodes.length)]);
            boolean hold = r.nextInt(4) == 0;
            if (hold) {
              p = p.withMetadata(p.metadata().toBuilder().finalizer(FINALIZER).build());
            }
            Pod stored = store.create(p);
            setPhase(store, stored, r);
            if (hold && r.nextBoolean()) {
              store.delete(Pod.class, "default", stored.metadata().name());
            }
          } else if (op <= 6) {
            List<Pod> all = store.list(Pod.class).items();
            if (!all.isEmpty()) {
              Pod p = all.get(r.nextInt(all.size()));
              if (r.nextBoolean()) {
                setPhase(store, p, r);
              } else {
                store.delete(Pod.class, "default", p.metadata().name());
              }
            }
          } else { // time passes: to the next tick of the period, or a little
            Instant next = r.nextBoolean() ? nextTick(origin, clock.now()) : clock.now().plusSeconds(r.nextInt(15));
            while (true) {
              Instant tick = nextTick(origin, clock.now());
              if (tick.isAfter(next)) {
                clock.advanceTo(next);
                break;
              }
              clock.advanceTo(tick);
              compare(ref, recording, gc, tick);
            }
          }
          gc.sync(); // as a simulation's settle round does after every change
          assertThat(recording.deleted).as("no pass between ticks").isEmpty();
        }
      }
    }
  }

  private static void setPhase(ObjectStore store, Pod p, Random r) {
    PodPhase phase = PodPhase.values()[r.nextInt(PodPhase.values().length)];
    Pod fresh = store.require(Pod.class, "default", p.metadata().name());
    store.updateStatus(fresh.withStatus(fresh.status().withPhase(phase)
        .withReason(phase == PodPhase.Failed && r.nextInt(3) == 0 ? PodGcIndex.EVICTED : "", "")));
  }

  private static Instant nextTick(Instant origin, Instant now) {
    long period = PERIOD.toNanos();
    long since = Duration.between(origin, now).toNanos();
    return origin.plusNanos((Math.floorDiv(since, period) + 1) * period);
  }

  /** At a tick: the reference decides on the listed state, then the collector's sync runs its pass. */
  private static void compare(Reference ref, Recording recording, PodGcController gc, Instant now) {
    Expected e = ref.gc(now);
    recording.deleted.clear();
    recording.patched.clear();
    gc.sync();
    assertThat(recording.deleted).as("deletions at %s", now).containsExactlyInAnyOrderElementsOf(e.deleted);
    assertThat(recording.patched).as("status writes at %s", now).containsExactlyInAnyOrderElementsOf(e.patched);
    recording.deleted.clear();
    recording.patched.clear();
  }

  private record Expected(List<String> deleted, List<String> patched) {}

  /** Upstream's gc over full lists of pods and nodes, with its own quarantine queue. */
  private static final class Reference {
    private final ObjectStore store;
    private final int threshold;
    private final Map<String, Instant> queue = new TreeMap<>();

    Reference(ObjectStore store, int threshold) {
      this.store = store;
      this.threshold = threshold;
    }

    Expected gc(Instant now) {
      List<Pod> pods = store.list(Pod.class).items();
      Map<String, Node> nodes = new HashMap<>();
      for (Node n : store.list(Node.class).items()) {
        nodes.put(n.name(), n);
      }
      List<Pod> attempts = new ArrayList<>();
      List<Pod> terminated = new ArrayList<>(pods.stream().filter(p -> p.status().phase().isTerminal()).toList());
      if (threshold > 0 && terminated.size() > threshold) {
        terminated.sort(PodGcIndex.DELETION_ORDER);
        attempts.addAll(terminated.subList(0, terminated.size() - threshold));
      }
      for (Pod p : pods) {
        Node n = nodes.get(p.spec().nodeName());
        if (p.metadata().deletionTimestamp() != null && n != null && !n.isReady()
            && n.spec().taints().stream().anyMatch(t -> t.key().equals(PodGcController.TAINT_OUT_OF_SERVICE))) {
          attempts.add(p);
        }
      }
      for (Pod p : pods) {
        if (!p.spec().nodeName().isEmpty() && !nodes.containsKey(p.spec().nodeName())) {
          queue.merge(p.spec().nodeName(), now.plus(QUARANTINE), (a, b) -> a.isBefore(b) ? a : b);
        }
      }
      Set<String> deletedNodes = new HashSet<>();
      for (Iterator<Map.Entry<String, Instant>> it = queue.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<String, Instant> en = it.next();
        if (!en.getValue().isAfter(now)) {
          String node = en.getKey();
          it.remove();
          if (!nodes.containsKey(node)) {
            deletedNodes.add(node);
          }
        }
      }
      for (Pod p : pods) {
        if (deletedNodes.contains(p.spec().nodeName())) {
          attempts.add(p);
        }
      }
      for (Pod p : pods) {
        if (p.metadata().deletionTimestamp() != null && p.spec().nodeName().isEmpty()) {
          attempts.add(p);
        }
      }
      // markFailedAndDeletePod per attempt, against the store as the earlier attempts of this pass left it
      List<String> deleted = new ArrayList<>();
      List<String> patched = new ArrayList<>();
      Set<String> gone = new HashSet<>();
      for (Pod p : attempts) {
        String name = p.metadata().name();
        if (!p.status().phase().isTerminal()) {
          if (gone.contains(name)) {
            continue; // the status patch finds it gone: an error, no delete
          }
          patched.add(name);
        }
        deleted.add(name); // a gone terminal pod: the delete is sent and fails (not found)
        if (p.metadata().finalizers().isEmpty()) {
          gone.add(name);
        }
      }
      return new Expected(deleted, patched);
    }
  }
}
