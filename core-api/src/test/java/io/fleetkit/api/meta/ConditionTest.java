package io.fleetkit.api.meta;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Condition#replacing}: one condition per type, the others kept in order. */
class ConditionTest {
  private static final Condition A = Condition.of("A", ConditionStatus.True, "", "");
  private static final Condition B = Condition.of("B", ConditionStatus.False, "Old", "");

  @Test
  void replacing_takesThePlaceOfItsType_orIsAddedAtTheEnd() {
    Condition newB = Condition.of("B", ConditionStatus.True, "New", "now");
    List<Condition> given = List.of(B, A);
    assertThat(Condition.replacing(given, newB)).containsExactly(newB, A);
    Condition c = Condition.of("C", ConditionStatus.Unknown, "", "");
    assertThat(Condition.replacing(given, c)).containsExactly(B, A, c);
    assertThat(Condition.replacing(List.of(), A)).containsExactly(A);
    assertThat(given).containsExactly(B, A); // the list given is not changed
  }
}
