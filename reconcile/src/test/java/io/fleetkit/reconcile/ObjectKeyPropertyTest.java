package io.fleetkit.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

/** {@link ObjectKey}'s written-out equality: a key equals exactly the keys of the same namespace and name. */
class ObjectKeyPropertyTest {
  @Property
  void equalExactlyWhenNamespaceAndNameAreEqual(@ForAll @AlphaChars @StringLength(max = 3) String ns1,
      @ForAll @AlphaChars @StringLength(min = 1, max = 3) String name1,
      @ForAll @AlphaChars @StringLength(max = 3) String ns2,
      @ForAll @AlphaChars @StringLength(min = 1, max = 3) String name2) {
    ObjectKey a = new ObjectKey(ns1, name1);
    ObjectKey b = new ObjectKey(new String(ns2), new String(name2));
    boolean same = ns1.equals(ns2) && name1.equals(name2);
    assertThat(a.equals(b)).isEqualTo(same);
    assertThat(b.equals(a)).isEqualTo(same);
    if (same) {
      assertThat(a.hashCode()).isEqualTo(b.hashCode());
    }
    assertThat(a.equals(ObjectKey.parse(a.toString()))).isTrue();
  }

  @Test
  void aKeyIsNotEqualToItsStringOrNull() {
    ObjectKey key = ObjectKey.of("ns", "a");
    assertThat(key.equals("ns/a")).isFalse();
    assertThat(key.equals(null)).isFalse();
    // the namespace and the name are not interchangeable
    assertThat(ObjectKey.of("a", "b")).isNotEqualTo(ObjectKey.of("b", "a"));
    assertThatThrownBy(() -> ObjectKey.of("ns", "")).hasMessageContaining("name must not be empty");
  }
}
