package io.fleetkit.api.store;

/**
 * A registered watch. Closing it stops delivery: no event is delivered after {@link #close()} returns, except to a
 * listener call already in progress on another thread. Closing twice is harmless; closing from inside the
 * listener is allowed.
 */
public interface Watch extends AutoCloseable {
  /** Stops delivery and drops undelivered events. Never throws. */
  @Override
  void close();

  /** Whether {@link #close()} was called on this watch or on its store. */
  boolean isClosed();
}
