package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A view of a {@link SharedInformers} informer against an informer of the user's own, side by side on one store:
 * users start at random points of a run of creates, spec, label and status updates and deletes (so some get the
 * cache replayed as adds, some add a second handler after their start), some close midway; every user's handlers
 * must be told exactly what its own informer's handlers are told, in the same order, and the shared cache must answer
 * every list, label-selector and index read as its own cache does.
 */
final class SharedInformersPropertyTest {
  private static final String[] NAMESPACES = {"a", "b"};
  private static final String[] NAMES = {"p", "q", "r", "s"};

  /** One user: its own informer and its view of the shared one, each with the same kinds of handlers. */
  private static final class User {
    final Informer<Gadget> own;
    final Informer<Gadget> view;
    final Recording<Gadget> ownRec = new Recording<>();
    final Recording<Gadget> viewRec = new Recording<>();
    final Recording<Gadget> ownLate = new Recording<>();
    final Recording<Gadget> viewLate = new Recording<>();
    boolean started;
    boolean late;
    boolean closed;

    User(ObjectStore store, ManualClock clock, SharedInformers shared) {
      own = Informer.builder(store, Gadget.class).clock(clock).build();
      view = shared.informer(Gadget.class);
      own.addEventHandler(ownRec);
      view.addEventHandler(viewRec);
    }
  }

  @Property(tries = 150)
  void views_tellEveryUserWhatItsOwnInformerTells(@ForAll @IntRange(min = 1, max = 120) int steps,
      @ForAll @IntRange(min = 1, max = 4) int userCount, @ForAll long seed) {
    Random r = new Random(seed);
    ManualClock clock = ManualClock.atEpoch2026();
    ObjectStore store = ObjectStore.builder().directDelivery().build();
    SharedInformers shared = SharedInformers.of(store, clock);
    List<User> users = new ArrayList<>();
    for (int i = 0; i < userCount; i++) {
      users.add(new User(store, clock, shared));
    }
    for (int step = 0; step < steps; step++) {
      User u = users.get(r.nextInt(users.size()));
      int what = r.nextInt(20);
      if (what == 0 && !u.started) {
        u.own.start().join();
        u.view.start().join();
        u.started = true;
      } else if (what == 1 && u.started && !u.late && !u.closed) {
        u.own.addEventHandler(u.ownLate); // added after the start: replayed the cache first
        u.view.addEventHandler(u.viewLate);
        u.late = true;
      } else if (what == 2 && u.started && !u.closed && r.nextInt(3) == 0) {
        u.own.close();
        u.view.close();
        u.closed = true;
      } else {
        write(store, r);
      }
      for (User each : users) {
        assertThat(each.viewRec.events).isEqualTo(each.ownRec.events);
        assertThat(each.viewLate.events).isEqualTo(each.ownLate.events);
        if (each.started && !each.closed) {
          sameReads(each.own.lister(), each.view.lister());
        }
      }
    }
    shared.close();
    for (User u : users) {
      u.own.close();
    }
    store.close();
  }

  private static void write(ObjectStore store, Random r) {
    String ns = NAMESPACES[r.nextInt(NAMESPACES.length)];
    String name = NAMES[r.nextInt(NAMES.length)];
    Gadget g = store.get(Gadget.class, ns, name).orElse(null);
    if (g == null) {
      store.create(Gadget.of(ns, name, r.nextInt(3)).withLabel("app", "x" + r.nextInt(2)));
      return;
    }
    switch (r.nextInt(4)) {
      case 0 -> store.update(g.withSize(g.size() + 1));
      case 1 -> store.update(g.withLabel("app", "x" + r.nextInt(2)));
      case 2 -> store.updateStatus(g.withPhase("phase-" + r.nextInt(3)));
      default -> store.delete(Gadget.class, ns, name);
    }
  }

  private static void sameReads(Lister<Gadget> own, Lister<Gadget> view) {
    assertThat(view.list()).isEqualTo(own.list());
    for (String ns : NAMESPACES) {
      assertThat(view.list(ns)).isEqualTo(own.list(ns));
      for (int i = 0; i < 2; i++) {
        LabelSelector s = LabelSelector.of(Map.of("app", "x" + i));
        assertThat(view.list(ns, s)).isEqualTo(own.list(ns, s));
        assertThat(view.byIndex(Lister.LABEL_INDEX, "app=x" + i)).isEqualTo(own.byIndex(Lister.LABEL_INDEX,
            "app=x" + i));
      }
    }
  }
}
