package io.fleetkit.reconcile.rollouts.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.reconcile.controllers.internal.DeploymentMath.RsView;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Cases ported from argoproj/argo-rollouts {@code utils/replicaset/bluegreen_test.go} (2 of 2), plus the pause rules. */
final class BlueGreenMathTest {
  private static final RsView RS1 = new RsView("rs1", 1, 1, null);
  private static final RsView RS2 = new RsView("rs2", 1, 1, null);
  private static final Function<RsView, String> HASH = rs -> Map.of("rs1", "abcd", "rs2", "1234",
      "ready", "abcd", "notready", "abcd").get(rs.name());

  // TestGetReplicaSetByTemplateHash
  @Test
  void byTemplateHash_findsTheOneAndTheOthers() {
    BlueGreenMath.Split none = BlueGreenMath.byTemplateHash(List.of(), HASH, "");
    assertThat(none.match()).isNull();
    assertThat(none.others()).isEmpty();
    BlueGreenMath.Split miss = BlueGreenMath.byTemplateHash(List.of(RS1), HASH, "1234");
    assertThat(miss.match()).isNull();
    assertThat(miss.others()).containsExactly(RS1);
    BlueGreenMath.Split hit = BlueGreenMath.byTemplateHash(Arrays.asList(null, RS1, RS2), HASH, "1234");
    assertThat(hit.match()).isEqualTo(RS2);
    assertThat(hit.others()).containsExactly(RS1);
  }

  // TestReadyForPause
  @Test
  void readyForPause_newRsFullyAvailable() {
    BlueGreenView v = new BlueGreenView(1, null, "", false, "", false, false);
    RsView ready = new RsView("ready", 1, 1, null);
    RsView notReady = new RsView("notready", 1, 0, null);
    assertThat(BlueGreenMath.readyForPause(v, null, List.of(), HASH)).isFalse();
    assertThat(BlueGreenMath.readyForPause(v, ready, List.of(ready), HASH)).isTrue();
    assertThat(BlueGreenMath.readyForPause(v, notReady, List.of(ready), HASH)).isFalse();
  }

  @Test
  void newRsReplicas_previewCountUntilPromotedOrCheckpoint() {
    RsView active = new RsView("rs1", 4, 4, null);
    RsView preview = new RsView("rs2", 1, 1, null);
    List<RsView> all = List.of(active, preview);
    assertThat(BlueGreenMath.newRsReplicas(new BlueGreenView(4, 1, "abcd", false, "1234", true, false), all,
        preview, HASH)).isEqualTo(1);
    assertThat(BlueGreenMath.newRsReplicas(new BlueGreenView(4, 1, "abcd", true, "1234", true, false), all,
        preview, HASH)).as("promote full").isEqualTo(4);
    assertThat(BlueGreenMath.newRsReplicas(new BlueGreenView(4, 1, "abcd", false, "1234", false, true), all,
        preview, HASH)).as("past the checkpoint").isEqualTo(4);
    assertThat(BlueGreenMath.newRsReplicas(new BlueGreenView(4, 1, "abcd", false, "other", false, true), all,
        preview, HASH)).as("a new update").isEqualTo(1);
    assertThat(BlueGreenMath.newRsReplicas(new BlueGreenView(4, 1, "1234", false, "1234", false, false), all,
        preview, HASH)).as("already active").isEqualTo(4);
    assertThat(BlueGreenMath.newRsReplicas(new BlueGreenView(4, null, "abcd", false, "1234", true, false), all,
        preview, HASH)).as("no preview count").isEqualTo(4);
  }

  @Test
  void pause_rules() {
    assertThat(BlueGreenMath.needsPause(true, 0, "abcd", "1234")).isFalse();
    assertThat(BlueGreenMath.needsPause(true, 30, "abcd", "1234")).isTrue();
    assertThat(BlueGreenMath.needsPause(false, 0, "abcd", "1234")).isTrue();
    assertThat(BlueGreenMath.needsPause(false, 0, "", "1234")).as("first deploy").isFalse();
    assertThat(BlueGreenMath.needsPause(false, 0, "1234", "1234")).as("already active").isFalse();
    Instant t = Instant.EPOCH;
    assertThat(BlueGreenMath.pauseCompleted(true, 30, t, t.plusSeconds(29))).isFalse();
    assertThat(BlueGreenMath.pauseCompleted(true, 30, t, t.plusSeconds(30))).isTrue();
    assertThat(BlueGreenMath.pauseCompleted(false, 0, t, t.plusSeconds(3600))).isFalse();
  }
}
