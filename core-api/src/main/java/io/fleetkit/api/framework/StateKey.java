package io.fleetkit.api.framework;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A typed key for {@link CycleState}. Create one per plugin as a constant; identity matters, the name is for
 * messages only.
 *
 * @param <T> the type of value stored under this key
 */
public final class StateKey<T> {
  private static final AtomicInteger NEXT = new AtomicInteger();
  private final String name;
  private final Class<T> type;
  private final int index;

  private StateKey(String name, Class<T> type) {
    this.name = Objects.requireNonNull(name, "name");
    this.type = Objects.requireNonNull(type, "type");
    this.index = NEXT.getAndIncrement();
  }

  public static <T> StateKey<T> of(String name, Class<T> type) {
    return new StateKey<>(name, type);
  }

  public String name() {
    return name;
  }

  public Class<T> type() {
    return type;
  }

  /** A dense index for array-backed state; stable for the JVM's life. */
  public int index() {
    return index;
  }

  @Override
  public String toString() {
    return "StateKey(" + name + ")";
  }
}
