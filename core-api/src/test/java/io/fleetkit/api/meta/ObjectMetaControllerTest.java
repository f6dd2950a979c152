package io.fleetkit.api.meta;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link ObjectMeta#isControlledBy}: apimachinery's {@code metav1.IsControlledBy}, the controller reference only. */
final class ObjectMetaControllerTest {
  private static ObjectMeta owned(OwnerReference... refs) {
    ObjectMeta.Builder b = ObjectMeta.builder().namespace("ns").name("pod");
    for (OwnerReference r : refs) {
      b.ownerReference(r);
    }
    return b.build();
  }

  @Test
  void controllerReference_matchesItsUidOnly() {
    ObjectMeta m = owned(new OwnerReference("apps/v1", "ReplicaSet", "rs", "uid-1", true, true));
    assertThat(m.isControlledBy("uid-1")).isTrue();
    assertThat(m.isControlledBy("uid-2")).isFalse();
  }

  @Test
  void ownerThatIsNotTheController_doesNotControl() {
    ObjectMeta m = owned(new OwnerReference("apps/v1", "ReplicaSet", "rs", "uid-1", false, false),
        new OwnerReference("batch/v1", "Job", "job", "uid-2", true, true));
    assertThat(m.isControlledBy("uid-1")).isFalse();
    assertThat(m.isControlledBy("uid-2")).isTrue();
    assertThat(owned().isControlledBy("uid-1")).isFalse();
  }
}
