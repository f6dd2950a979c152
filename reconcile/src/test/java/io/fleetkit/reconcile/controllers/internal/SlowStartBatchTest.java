package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Ported from kubernetes/kubernetes pkg/controller/replicaset/replica_set_test.go TestSlowStartBatch (3 cases). */
final class SlowStartBatchTest {

  @ParameterizedTest
  @CsvSource({"10,0,0,true,1", "10,10,10,false,10", "10,5,5,true,7"})
  void run_callLimit_stopsAfterFailingBatch(int count, int callLimit, int expectedSuccesses, boolean expectError,
      int expectedCalls) {
    AtomicInteger calls = new AtomicInteger();
    SlowStartBatch.Outcome o = SlowStartBatch.run(count, 1, () -> {
      if (calls.incrementAndGet() > callLimit) {
        throw new IllegalStateException("fake error");
      }
    });
    assertThat(o.successes()).isEqualTo(expectedSuccesses);
    assertThat(o.error() != null).isEqualTo(expectError);
    assertThat(o.calls()).isEqualTo(expectedCalls).isEqualTo(calls.get());
  }
}
