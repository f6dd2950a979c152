package io.fleetkit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.meta.ObjectMeta;
import org.junit.jupiter.api.Test;

final class ViolationsTest {
  private static Violations collector() {
    return new Violations("Thing", "default", "x");
  }

  // Port name cases from kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/util/validation/validation_test.go
  // TestIsValidPortName (good: "telnet", "re-mail-ck", "pop3", "a", "a-1", "1-a", "a-1-b-2-c", "1-a-2-b-3";
  // bad: "longerthan15characters", "", 16 x "a", "12345", "1-2-3-4", "-begin", "end-", "two--hyphens", "whois++").
  @Test
  void portName_upstreamCases() {
    for (String good : new String[] {"telnet", "re-mail-ck", "pop3", "a", "a-1", "1-a", "a-1-b-2-c", "1-a-2-b-3"}) {
      Violations v = collector();
      v.portName("port", good);
      assertThat(v.isEmpty()).as(good).isTrue();
    }
    for (String bad : new String[] {"longerthan15characters", "", "a".repeat(16), "12345", "1-2-3-4", "-begin", "end-",
        "two--hyphens", "whois++"}) {
      Violations v = collector();
      v.portName("port", bad);
      assertThat(v.isEmpty()).as(bad).isFalse();
    }
  }

  // TestIsValidPortNum, same file (good: 1, 2, 1000, 16384, 32768, 65535; bad: 0, -1, 65536, 100000).
  @Test
  void portNumber_upstreamCases() {
    for (int good : new int[] {1, 2, 1000, 16384, 32768, 65535}) {
      Violations v = collector();
      v.portNumber("port", good);
      assertThat(v.isEmpty()).as("%d", good).isTrue();
    }
    for (int bad : new int[] {0, -1, 65536, 100000}) {
      Violations v = collector();
      v.portNumber("port", bad);
      assertThat(v.isEmpty()).as("%d", bad).isFalse();
    }
  }

  @Test
  void portNumber_bounds() {
    Violations v = collector();
    v.portNumber("a", 1);
    v.portNumber("b", 65535);
    v.portNumber("c", 0);
    v.portNumber("d", 65536);

    assertThat(v.violations()).extracting(Violation::field).containsExactly("c", "d");
  }

  @Test
  void objectMeta_missingNameAndBadNamespace_bothReported() {
    Violations v = collector();
    v.objectMeta(ObjectMeta.of("Bad_NS", ""), true);

    assertThat(v.violations()).extracting(Violation::field).containsExactly("metadata.name", "metadata.namespace");
    assertThat(v.violations().get(0).rule()).isEqualTo("Required value: name or generateName is required");
  }

  @Test
  void throwIfAny_throwsOnceWithEveryViolation_orNothing() {
    assertThatCode(() -> collector().throwIfAny()).doesNotThrowAnyException();

    Violations v = collector().add("a", "must be x", 1).required("b");

    assertThatThrownBy(v::throwIfAny).isInstanceOfSatisfying(ValidationException.class,
        e -> assertThat(e.violations()).extracting(Violation::toString)
            .containsExactly("Thing default/x: a \"1\" must be x", "Thing default/x: b Required value"));
  }

  @Test
  void pathSegmentName_dotsSlashPercent_rejected() {
    Violations v = collector();
    v.pathSegmentName("a", "..");
    v.pathSegmentName("b", "x/y");
    v.pathSegmentName("c", "50%");
    v.pathSegmentName("d", "ok.name");

    assertThat(v.violations()).extracting(Violation::field).containsExactly("a", "b", "c");
  }

  @Test
  void nameAndNamespace_serviceNameRule_usesDns1035MessagesAndSkipsLabels() {
    Violations v = collector();
    ObjectMeta meta = ObjectMeta.of("default", "1abc").toBuilder().labels(java.util.Map.of("bad key", "v")).build();
    v.nameAndNamespace(meta, true, Violations.NameRule.DNS1035_LABEL);

    assertThat(v.violations()).extracting(Violation::field, Violation::rule).containsExactly(
        org.assertj.core.groups.Tuple.tuple("metadata.name", io.fleetkit.api.labels.Validation.isDNS1035Label("1abc")
            .get(0)));
  }

  @Test
  void dnsLabel_emptyIsRequired_badHasKubernetesMessage_goodIsSilent() {
    Violations v = collector();
    v.dnsLabel("a", "");
    v.dnsLabel("b", "Bad");
    v.dnsLabel("c", "good-1");

    assertThat(v.violations()).extracting(Violation::field, Violation::rule).containsExactly(
        org.assertj.core.groups.Tuple.tuple("a", Violations.REQUIRED),
        org.assertj.core.groups.Tuple.tuple("b", io.fleetkit.api.labels.Validation.isDNS1123Label("Bad").get(0)));
  }

  @Test
  void violations_nothingFound_emptyAndNoThrow() {
    Violations v = collector();
    v.nonNegative("a", 0L);
    v.portNumber("b", 80);

    assertThat(v.isEmpty()).isTrue();
    assertThat(v.violations()).isEmpty();
  }
}
