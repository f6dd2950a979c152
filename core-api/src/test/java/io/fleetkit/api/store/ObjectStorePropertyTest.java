package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random sequences of create / update / updateStatus / delete / add and remove finalizer, run against the store
 * and against a plain map that spells out the rules; the final state, every operation's outcome, the live event
 * stream and the replayed event stream must all agree.
 */
final class ObjectStorePropertyTest {

  enum OpType { CREATE, UPDATE, UPDATE_STALE, UPDATE_STATUS, DELETE, ADD_FINALIZER, REMOVE_FINALIZER }

  enum Outcome { OK, NOT_FOUND, CONFLICT, INVALID }

  record Op(OpType type, String name, int value) {}

  /** What the model and the store are compared on. */
  record State(String name, long size, String phase, List<String> finalizers, long generation, boolean deleting,
      long rv) {
    State {
      finalizers = List.copyOf(finalizers);
    }

    static State of(Widget w) {
      ObjectMeta m = w.metadata();
      return new State(m.name(), w.size(), w.phase(), m.finalizers(), m.generation(), m.deletionTimestamp() != null,
          Long.parseLong(m.resourceVersion()));
    }

    State with(long newSize, String newPhase, List<String> newFinalizers, long newGeneration, boolean newDeleting,
        long newRv) {
      return new State(name, newSize, newPhase, newFinalizers, newGeneration, newDeleting, newRv);
    }
  }

  record Event(WatchEventType type, State state) {
    static Event of(WatchEvent<Widget> e) {
      return new Event(e.type(), State.of(e.object()));
    }
  }

  /** The reference: a map and the rules written out one by one. */
  static final class Model {
    final Map<String, State> objects = new TreeMap<>();
    final List<Event> events = new ArrayList<>();
    long version = 1;

    Outcome apply(Op op) {
      State cur = objects.get(op.name());
      if (op.type() == OpType.CREATE) {
        if (cur != null) {
          return Outcome.CONFLICT;
        }
        put(WatchEventType.ADDED, new State(op.name(), op.value(), "", List.of(), 1, false, ++version));
        return Outcome.OK;
      }
      if (cur == null) {
        return Outcome.NOT_FOUND;
      }
      switch (op.type()) {
        case UPDATE -> {
          if (cur.size() != op.value()) {
            put(WatchEventType.MODIFIED, cur.with(op.value(), cur.phase(), cur.finalizers(), cur.generation() + 1,
                cur.deleting(), ++version));
          }
        }
        case UPDATE_STALE -> {
          return Outcome.CONFLICT;
        }
        case UPDATE_STATUS -> {
          String phase = phase(op.value());
          if (!cur.phase().equals(phase)) {
            put(WatchEventType.MODIFIED, cur.with(cur.size(), phase, cur.finalizers(), cur.generation(),
                cur.deleting(), ++version));
          }
        }
        case DELETE -> {
          if (cur.deleting()) {
            break;
          }
          if (cur.finalizers().isEmpty()) {
            remove(cur.with(cur.size(), cur.phase(), cur.finalizers(), cur.generation(), false, ++version));
          } else {
            put(WatchEventType.MODIFIED, cur.with(cur.size(), cur.phase(), cur.finalizers(), cur.generation() + 1,
                true, ++version));
          }
        }
        case ADD_FINALIZER -> {
          String f = finalizer(op.value());
          if (cur.finalizers().contains(f)) {
            break;
          }
          if (cur.deleting()) {
            return Outcome.INVALID;
          }
          List<String> fs = new ArrayList<>(cur.finalizers());
          fs.add(f);
          put(WatchEventType.MODIFIED, cur.with(cur.size(), cur.phase(), fs, cur.generation(), false, ++version));
        }
        case REMOVE_FINALIZER -> {
          String f = finalizer(op.value());
          if (!cur.finalizers().contains(f)) {
            break;
          }
          List<String> fs = new ArrayList<>(cur.finalizers());
          fs.remove(f);
          State next = cur.with(cur.size(), cur.phase(), fs, cur.generation(), cur.deleting(), ++version);
          if (cur.deleting() && fs.isEmpty()) {
            remove(next);
          } else {
            put(WatchEventType.MODIFIED, next);
          }
        }
        default -> throw new AssertionError(op);
      }
      return Outcome.OK;
    }

    private void put(WatchEventType type, State s) {
      objects.put(s.name(), s);
      events.add(new Event(type, s));
    }

    private void remove(State last) {
      objects.remove(last.name());
      events.add(new Event(WatchEventType.DELETED, last));
    }
  }

  @Property(tries = 400)
  void randomOperations_storeMatchesReferenceModel(@ForAll("operations") List<Op> ops) {
    ObjectStore store = ObjectStore.builder()
        .directDelivery()
        .clock(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC))
        .build();
    List<Event> live = new ArrayList<>();
    store.watch(Widget.class, "0", e -> live.add(Event.of(e)));
    Model model = new Model();

    for (Op op : ops) {
      Outcome expected = model.apply(op);
      Outcome actual = run(store, op);
      assertThat(actual).as("outcome of %s", op).isEqualTo(expected);
    }

    ListResult<Widget> list = store.list(Widget.class, "ns");
    assertThat(list.items()).extracting(State::of).containsExactlyElementsOf(model.objects.values());
    assertThat(list.resourceVersion()).isEqualTo(Long.toString(model.version));
    assertThat(live).containsExactlyElementsOf(model.events);
    List<Event> replayed = new ArrayList<>();
    store.watch(Widget.class, "1", e -> replayed.add(Event.of(e)));
    assertThat(replayed).containsExactlyElementsOf(model.events);
  }

  private static Outcome run(ObjectStore store, Op op) {
    try {
      Optional<Widget> found = store.get(Widget.class, "ns", op.name());
      Widget cur = found.orElse(Widget.of("ns", op.name(), 0)); // a missing object: the write must say NotFound
      switch (op.type()) {
        case CREATE -> store.create(Widget.of("ns", op.name(), op.value()));
        case UPDATE -> store.update(cur.withSize(op.value()));
        case UPDATE_STALE -> store.update(cur.withMetadata(cur.metadata().withResourceVersion("1"))
            .withSize(op.value()));
        case UPDATE_STATUS -> store.updateStatus(cur.withPhase(phase(op.value())));
        case DELETE -> store.delete(Widget.class, "ns", op.name());
        case ADD_FINALIZER -> {
          List<String> fs = new ArrayList<>(cur.metadata().finalizers());
          if (!fs.contains(finalizer(op.value()))) {
            fs.add(finalizer(op.value()));
          }
          store.update(cur.withMetadata(cur.metadata().toBuilder().finalizers(fs).build()));
        }
        case REMOVE_FINALIZER -> {
          List<String> fs = new ArrayList<>(cur.metadata().finalizers());
          fs.remove(finalizer(op.value()));
          store.update(cur.withMetadata(cur.metadata().toBuilder().finalizers(fs).build()));
        }
        default -> throw new AssertionError(op);
      }
      return Outcome.OK;
    } catch (NotFoundException e) {
      return Outcome.NOT_FOUND;
    } catch (ConflictException e) {
      return Outcome.CONFLICT;
    } catch (ValidationException e) {
      return Outcome.INVALID;
    }
  }

  private static String phase(int value) {
    return "p" + value;
  }

  private static String finalizer(int value) {
    return "f" + (value % 2);
  }

  @Provide
  Arbitrary<List<Op>> operations() {
    return Combinators.combine(
            Arbitraries.of(OpType.class),
            Arbitraries.of("a", "b", "c"),
            Arbitraries.integers().between(0, 3))
        .as(Op::new)
        .list().ofMaxSize(80);
  }

}
