package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.time.ManualClock;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * A kubelet that lets its own status writes pass (their event at the instant of the write needs no sync) writes
 * what one that syncs every pod event writes: two stores driven by the same random steps (pods with containers
 * that run, become ready late, exit or crash under each restart policy; label updates, spec-keeping deletions with
 * a finalizer, deletions, and a finalizer's removal made at the instants the kubelet writes), one kubelet fed by its
 * own watch, the other fed copies of every pod whose status is another (equal) instance, so that it never recognises
 * its own writes and syncs on each event. The stores' events (type, pod, resourceVersion, status) and the clock's
 * next timer after each action's sync (a pod's runtime forgotten or not) are the same.
 */
final class NodeAgentOwnWritesPropertyTest {
  private static final List<RestartPolicy> POLICIES = List.of(RestartPolicy.Always, RestartPolicy.OnFailure,
      RestartPolicy.Never);

  @Property(tries = 60)
  void ownWritesPassed_sameWritesAsSyncingEveryEvent(@ForAll long seed) {
    assertThat(run(seed, false)).isEqualTo(run(seed, true));
  }

  /** A pod deleted at the instant of the kubelet's status write: its deletion is not taken for the write's echo. */
  @Example
  void deletedAtTheInstantOfTheStatusWrite_forgotten() {
    assertThat(run(18915L, false)).isEqualTo(run(18915L, true));
  }

  private static List<String> run(long seed, boolean syncEveryEvent) {
    Random r = new Random(seed);
    ManualClock clock = ManualClock.atEpoch2026();
    Instant t0 = clock.now();
    ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
    List<String> events = new ArrayList<>();
    store.create(Node.builder().name("n1").build());
    HealthSource health = (p, c, n) -> switch (Math.floorMod(p.metadata().name().hashCode() + n, 5)) {
      case 0 -> ContainerScript.healthy();
      case 1 -> ContainerScript.readyAfter(Duration.ofSeconds(7));
      case 2 -> ContainerScript.exitsAfter(Duration.ofSeconds(20), 0);
      case 3 -> ContainerScript.exitsAfter(Duration.ofSeconds(12), 1);
      default -> ContainerScript.crashes();
    };
    NodeAgent.Builder b = NodeAgent.builder(store, clock, "n1").healthSource(health);
    NodeAgent agent = (syncEveryEvent ? b.watchPods(false) : b).build();
    Watch record = store.watch(Pod.class, store.resourceVersion(), e -> events.add(e.type() + " "
        + e.object().metadata().name() + " " + e.object().metadata().resourceVersion() + " " + e.object().status()));
    agent.start();
    Watch feed = syncEveryEvent
        ? store.watch(Pod.class, store.resourceVersion(), e -> agent.observe(new WatchEvent<>(e.type(), withStatusCopy(e.object()))))
        : null;
    agent.sync();
    int steps = 20 + r.nextInt(40);
    for (int step = 0; step < steps; step++) {
      // one or two actions at this instant, each followed by a sync (the second one after the kubelet's writes)
      for (int actions = 1 + r.nextInt(2); actions > 0; actions--) {
        act(store, r, step);
        agent.sync();
        events.add("next timer " + clock.nextDeadline().map(d -> Duration.between(t0, d).toMillis()).orElse(-1L));
      }
      // on to the next timer (or a few seconds), syncing at each
      Instant target = clock.now().plusSeconds(1 + r.nextInt(15));
      while (clock.now().isBefore(target)) {
        clock.advanceTo(clock.nextDeadline().filter(d -> d.isBefore(target)).orElse(target));
        agent.sync();
      }
    }
    agent.close();
    record.close();
    if (feed != null) {
      feed.close();
    }
    store.close();
    events.add("ended at " + (clock.now().getEpochSecond() - t0.getEpochSecond()) + " s");
    return events;
  }

  /** One random write: a pod created, relabelled, deleted (marked, with a finalizer), or its finalizer removed. */
  private static void act(ObjectStore store, Random r, int step) {
    String name = "p" + r.nextInt(6);
    Pod stored = store.get(Pod.class, "default", name).orElse(null);
    switch (r.nextInt(6)) {
      case 0, 1 -> {
        if (stored == null) {
          Pod p = Pod.builder().namespace("default").name(name).label("app", "a")
              .container("c", "img", ResourceList.EMPTY).restartPolicy(POLICIES.get(r.nextInt(3))).nodeName("n1")
              .build();
          if (r.nextBoolean()) {
            p = p.withMetadata(p.metadata().toBuilder().finalizer("test/keep").build());
          }
          store.create(p);
        }
      }
      case 2 -> {
        if (stored != null) {
          store.update(stored.withMetadata(stored.metadata().toBuilder().label("step", "s" + step).build()));
        }
      }
      case 3 -> {
        if (stored != null) {
          store.delete(Pod.class, "default", name, DeletePreconditions.NONE);
        }
      }
      case 4 -> {
        if (stored != null && !stored.metadata().finalizers().isEmpty()) {
          store.update(stored.withMetadata(stored.metadata().toBuilder().finalizers(List.of()).build()));
        }
      }
      default -> { }
    }
  }

  /** {@code p} with its status as another instance with the same components. */
  private static Pod withStatusCopy(Pod p) {
    PodStatus s = p.status();
    try {
      RecordComponent[] components = PodStatus.class.getRecordComponents();
      Class<?>[] types = new Class<?>[components.length];
      Object[] values = new Object[components.length];
      for (int i = 0; i < components.length; i++) {
        types[i] = components[i].getType();
        values[i] = components[i].getAccessor().invoke(s);
      }
      PodStatus copy = PodStatus.class.getDeclaredConstructor(types).newInstance(values);
      assertThat(copy).isEqualTo(s).isNotSameAs(s);
      return p.withStatus(copy);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
