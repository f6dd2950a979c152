package io.fleetkit.api.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Linearizability of the in-memory {@link ObjectStore}: concurrent create / get / update-at-version (CAS) / delete /
 * list histories must be explainable by some sequential order of the same calls (Lincheck's model checker explores
 * thread interleavings; the stress run adds real parallelism). Watch order under load is checked by
 * {@link ObjectStoreConcurrencyTest}. Iterations are kept small for CI. The model checker found that a list of a
 * kind racing with the kind's first create could report the create's version without the object.
 *
 * <p>Bounded: model checking explores 3 scenarios x 30 interleavings (it explored 4 x 50 and took 72 s on the shared
 * 2-core machine at load average 30, beyond what a test may take); each invocation may take {@link
 * #INVOCATION_TIMEOUT_MS} before Lincheck calls it hung, and each check carries a JUnit timeout (model checking
 * 180 s, stress 90 s), after which the test thread is interrupted and the test fails naming itself. Not on a thread
 * of its own (JUnit's separate-thread mode): Lincheck then ran three times slower and, once abandoned, held its global
 * lock so that the next check hung behind it.
 */
@Param(name = "key", gen = IntGen.class, conf = "1:2")
@Param(name = "size", gen = IntGen.class, conf = "1:3")
@Param(name = "rv", gen = IntGen.class, conf = "1:6")
public class ObjectStoreLincheckTest {
  /**
   * How long one invocation may take before Lincheck reports "the execution has hung". Lincheck instruments each
   * class the first time an operation touches it (the exception of a failed create, say); on the shared machine at
   * load average 30 that alone took over 10 s. Lincheck's own default (the same for model checking and stress) is
   * 30 s, which covers it; {@link #lincheckDefaultInvocationTimeout_atLeastThisLong} checks that an upgrade keeps it,
   * since Lincheck's setter for it is Kotlin-internal. A real hang still ends the test, 30 s later.
   */
  private static final long INVOCATION_TIMEOUT_MS = 30_000;

  private final AtomicLong uids = new AtomicLong();
  private final ObjectStore store = ObjectStore.builder().directDelivery()
      .uidGenerator(() -> "uid-" + uids.incrementAndGet()).build();

  public ObjectStoreLincheckTest() {}

  private static String name(int key) {
    return "w" + key;
  }

  @Operation
  public String create(@Param(name = "key") int key, @Param(name = "size") int size) {
    try {
      return "created@" + store.create(Widget.of("ns", name(key), size)).metadata().resourceVersion();
    } catch (ConflictException e) {
      return "exists";
    }
  }

  @Operation
  public String get(@Param(name = "key") int key) {
    Optional<Widget> w = store.get(Widget.class, "ns", name(key));
    if (w.isEmpty()) {
      return "none";
    }
    return w.get().size() + "@" + w.get().metadata().resourceVersion();
  }

  /** A compare-and-set: update only if the stored resourceVersion is {@code rv}. */
  @Operation
  public String updateAt(@Param(name = "key") int key, @Param(name = "rv") int rv, @Param(name = "size") int size) {
    Optional<Widget> w = store.get(Widget.class, "ns", name(key));
    Widget candidate = w.orElse(Widget.of("ns", name(key), size));
    try {
      Widget out = store.update(candidate.withSize(size).withMetadata(candidate.metadata().toBuilder()
          .resourceVersion(Integer.toString(rv)).uid("").build()));
      return "updated@" + out.metadata().resourceVersion();
    } catch (ConflictException e) {
      return "conflict";
    } catch (NotFoundException e) {
      return "missing";
    }
  }

  @Operation
  public String delete(@Param(name = "key") int key) {
    try {
      return "deleted@" + store.delete(Widget.class, "ns", name(key)).metadata().resourceVersion();
    } catch (NotFoundException e) {
      return "missing";
    }
  }

  @Operation
  public String list() {
    // Plain loops, no streams or lambdas: operations should not load classes while the model checker runs.
    ListResult<Widget> l = store.list(Widget.class);
    String[] items = new String[l.items().size()];
    for (int i = 0; i < items.length; i++) {
      Widget w = l.items().get(i);
      items[i] = w.metadata().name() + "=" + w.size();
    }
    java.util.Arrays.sort(items);
    StringBuilder sb = new StringBuilder("@").append(l.resourceVersion());
    for (String item : items) {
      sb.append(' ').append(item);
    }
    return sb.toString();
  }

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void modelChecking_linearizable() {
    new ModelCheckingOptions().iterations(3).invocationsPerIteration(30).threads(2).actorsPerThread(2)
        .actorsBefore(0).actorsAfter(1).check(ObjectStoreLincheckTest.class);
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void stress_linearizable() {
    new StressOptions().iterations(10).invocationsPerIteration(200).threads(3).actorsPerThread(3)
        .check(ObjectStoreLincheckTest.class);
  }

  @Test
  void lincheckDefaultInvocationTimeout_atLeastThisLong() {
    assertThat(new ModelCheckingOptions().createTestConfigurations(ObjectStoreLincheckTest.class).getTimeoutMs())
        .isGreaterThanOrEqualTo(INVOCATION_TIMEOUT_MS);
    assertThat(new StressOptions().createTestConfigurations(ObjectStoreLincheckTest.class).getTimeoutMs())
        .isGreaterThanOrEqualTo(INVOCATION_TIMEOUT_MS);
  }
}
