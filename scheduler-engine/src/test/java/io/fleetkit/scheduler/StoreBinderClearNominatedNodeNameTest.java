package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link StoreBinder#clearNominatedNodeName}: kube's {@code util.ClearNominatedNodeName}, which preemption's
 * {@code prepareCandidate} calls on the lower-priority pods nominated to the node it takes. The table is upstream's
 * {@code TestRemoveNominatedNodeName} ({@code pkg/scheduler/util/utils_test.go}, kubernetes/kubernetes commit
 * 04791b4906602ffda5ccf9bc4c84d3329f1d7080), both cases, against an in-memory store: a patch request is a changed
 * resourceVersion, upstream's patch body {@code {"status":{"nominatedNodeName":null}}} is an empty stored
 * nomination with the rest of the pod unchanged. The other tests are FleetKit's: the pod gone, bound or recreated,
 * and write conflicts.
 */
final class StoreBinderClearNominatedNodeNameTest {
  private static final Pod PREEMPTOR = pod("preemptor", 1, 1, 1000);

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "Should make patch request to clear node name | node1 | true",
      "Should not make patch request if nominated node is already cleared | '' | false"})
  void clearNominatedNodeName_upstreamTable(String name, String currentNominated, boolean wantPatch) {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      Pod foo = pod("foo", 100, 10);
      Pod before = store.create(foo.withStatus(foo.status().withNominatedNodeName(currentNominated)));

      new StoreBinder(store).clearNominatedNodeName(before, PREEMPTOR, "node1");

      Pod after = store.require(Pod.class, "default", "foo");
      assertThat(!after.metadata().resourceVersion().equals(before.metadata().resourceVersion()))
          .as("patch request made").isEqualTo(wantPatch);
      assertThat(after.status().nominatedNodeName()).isEmpty();
      assertThat(after.status().withNominatedNodeName(currentNominated)).isEqualTo(before.status());
      assertThat(after.spec()).isEqualTo(before.spec());
    }
  }

  private static Pod nominated(String name, String node) {
    Pod p = pod(name, 1, 1);
    return p.withStatus(p.status().withNominatedNodeName(node));
  }

  @Test
  void clearNominatedNodeName_podGone_writesNothingAndDoesNotThrow() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      assertThatCode(() -> new StoreBinder(store).clearNominatedNodeName(nominated("ghost", "n1"), PREEMPTOR, "n1"))
          .doesNotThrowAnyException();
      assertThat(store.get(Pod.class, "default", "ghost")).isEmpty();
    }
  }

  @Test
  void clearNominatedNodeName_podBoundMeanwhile_isLeftAlone() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      Pod created = store.create(nominated("p", "n1"));
      Pod bound = store.updateWithStatus(created.withNodeName("n2"));
      new StoreBinder(store).clearNominatedNodeName(created, PREEMPTOR, "n1");
      assertThat(store.require(Pod.class, "default", "p")).isEqualTo(bound);
    }
  }

  @Test
  void clearNominatedNodeName_podRecreatedUnderTheSameName_isLeftAlone() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      Pod old = store.create(nominated("p", "n1"));
      store.delete(Pod.class, "default", "p");
      Pod recreated = store.create(nominated("p", "n1"));
      new StoreBinder(store).clearNominatedNodeName(old, PREEMPTOR, "n1");
      assertThat(store.require(Pod.class, "default", "p")).isEqualTo(recreated);
    }
  }

  @Test
  void clearNominatedNodeName_writeConflict_rereadsAndClearsOverTheConcurrentChange() {
    try (ObjectStore inner = ObjectStore.builder().directDelivery().build()) {
      AtomicInteger statusWrites = new AtomicInteger();
      ObjectStore racing = new ForwardingObjectStore(inner) {
        @Override
        public <T extends ApiObject<T>> T updateStatus(T object) {
          if (statusWrites.getAndIncrement() == 0 && object instanceof Pod p) {
            Pod current = inner.require(Pod.class, "default", p.metadata().name());
            inner.updateStatus(current.withStatus(current.status().withReason("Other", "someone else's write")));
          }
          return super.updateStatus(object);
        }
      };
      Pod before = inner.create(nominated("p", "n1"));
      new StoreBinder(racing).clearNominatedNodeName(before, PREEMPTOR, "n1");
      Pod after = inner.require(Pod.class, "default", "p");
      assertThat(statusWrites).hasValue(2);
      assertThat(after.status().reason()).as("the concurrent write is kept").isEqualTo("Other");
      assertThat(after.status().nominatedNodeName()).isEmpty();
    }
  }

  @Test
  void clearNominatedNodeName_conflictsEveryTime_givesUpAfterFiveAttemptsWithoutThrowing() {
    try (ObjectStore inner = ObjectStore.builder().directDelivery().build()) {
      AtomicInteger statusWrites = new AtomicInteger();
      ObjectStore conflicting = new ForwardingObjectStore(inner) {
        @Override
        public <T extends ApiObject<T>> T updateStatus(T object) {
          statusWrites.incrementAndGet();
          throw new ConflictException("the object has been modified");
        }
      };
      Pod before = inner.create(nominated("p", "n1"));
      assertThatCode(() -> new StoreBinder(conflicting).clearNominatedNodeName(before, PREEMPTOR, "n1"))
          .doesNotThrowAnyException();
      assertThat(statusWrites).hasValue(5);
      assertThat(inner.require(Pod.class, "default", "p")).isEqualTo(before);
    }
  }
}
