package io.fleetkit.adapter.kubernetes.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.api.model.events.v1.EventSeriesBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventSeries;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@link RequestBodies} against Jackson: for any event and any pod (strings with quotes, backslashes, control and
 * non-ASCII characters included), the text written directly is the text fabric8's Jackson mapper writes for the same
 * object built as maps (the way the bodies were made before), byte for byte; the series patch reads back as the
 * tree fabric8's builder makes; the times are the {@code MicroTime} formatter's text for any instant.
 */
final class RequestBodiesTest {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  @Property(tries = 300)
  void event_anyEvent_isJacksonsTextOfTheSameMaps(@ForAll("events") Event e) {
    assertThat(RequestBodies.event(e)).isEqualTo(JSON.asJson(eventAsMaps(e)));
  }

  @Property(tries = 300)
  void binding_anyPodAndNode_isJacksonsTextOfTheSameMaps(@ForAll("pods") Pod pod, @ForAll("text") String node) {
    assertThat(RequestBodies.binding(pod, node)).isEqualTo(JSON.asJson(bindingAsMaps(pod, node)));
  }

  @Property(tries = 200)
  void seriesPatch_anyRepeatedEvent_readsBackAsTheBuildersPatch(@ForAll("events") Event e,
      @ForAll("times") Instant last) {
    Event repeated = e.withSeries(new EventSeries(7, last));
    JsonNode written = JSON.unmarshal(RequestBodies.seriesPatch(repeated), JsonNode.class);
    assertThat(written).isEqualTo(JSON.unmarshal(JSON.asJson(builderPatch(repeated)), JsonNode.class));
  }

  @Property(tries = 1000)
  void microTime_anyInstant_isTheFormattersText(@ForAll("anyTimes") Instant t) {
    assertThat(RequestBodies.microTime(new StringBuilder(), t).toString())
        .isEqualTo(RequestBodies.MICRO_TIME.format(t));
  }

  @Provide
  Arbitrary<Instant> anyTimes() {
    return Arbitraries.oneOf(times(), Arbitraries.longs().between(-100_000_000_000_000L,
        100_000_000_000_000L).map(Instant::ofEpochSecond), Arbitraries.of(Instant.EPOCH,
        Instant.parse("9999-12-31T23:59:59.999999999Z"), Instant.parse("0000-01-01T00:00:00Z"),
        Instant.parse("2024-02-29T12:00:00.000001Z")));
  }

  @Test
  void string_everyCharacterBelowSpaceAndTheSpecialOnes_escapedAsJacksonDoes() {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x80; c++) {
      all.append(c);
    }
    all.append("é€\uD83D\uDE00\u2028\u007F");
    String s = all.toString();
    assertThat(RequestBodies.string(new StringBuilder(), s).toString()).isEqualTo(JSON.asJson(s));
  }

  @Test
  void seriesPatch_eventWithoutSeries_isRefusedNamingTheEvent() {
    Event e = new Event(ObjectMeta.of("default", "p.1"), Instant.EPOCH, null, "c", "i", "Binding", "Scheduled",
        new ObjectReference("v1", "Pod", "default", "p", "", ""), null, "n", Event.NORMAL, 0, null, null);
    assertThatThrownBy(() -> RequestBodies.seriesPatch(e)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("default/p.1").hasMessageContaining("series");
  }

  @Provide
  Arbitrary<String> text() {
    return Arbitraries.oneOf(Arbitraries.strings().ofMinLength(1).ofMaxLength(30),
        Arbitraries.strings().withChars("\"\\\b\t\n\f\r\u0000\u001f\u007f/é€<>&'").ofMinLength(1)
            .ofMaxLength(12),
        Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(12));
  }

  private static Arbitrary<String> dnsName() {
    return Arbitraries.strings().withChars("abcdefghijklmnopqrstuvwxyz0123456789").ofMinLength(1).ofMaxLength(20);
  }

  @Provide
  Arbitrary<Instant> times() {
    return Arbitraries.longs().between(0, 4_000_000_000L).flatMap(s -> Arbitraries.integers()
        .between(0, 999_999_999).map(n -> Instant.ofEpochSecond(s, n)));
  }

  private Arbitrary<ObjectReference> references() {
    return Combinators.combine(Arbitraries.of("v1", "apps/v1"), Arbitraries.of("Pod", "Node"),
        Arbitraries.oneOf(Arbitraries.just(""), dnsName()), dnsName(),
        Arbitraries.oneOf(Arbitraries.just(""), text()), Arbitraries.oneOf(Arbitraries.just(""), text()))
        .as(ObjectReference::new);
  }

  @Provide
  Arbitrary<Event> events() {
    Arbitrary<@Nullable ObjectReference> related = Arbitraries.oneOf(Arbitraries.just(null), references());
    Arbitrary<@Nullable EventSeries> series = Arbitraries.oneOf(Arbitraries.just(null),
        Combinators.combine(Arbitraries.integers().between(2, 1_000_000), times()).as(EventSeries::new));
    Arbitrary<String> field = text().map(s -> s.length() > Event.FIELD_LENGTH_LIMIT ? s.substring(0, 10) : s);
    return Combinators.combine(dnsName(), dnsName(), times(), series, field, references(), related,
        Arbitraries.oneOf(Arbitraries.just(""), text()))
        .as((ns, name, t, s, f, regarding, rel, note) -> new Event(ObjectMeta.of(ns, name), t, s, "fleetkit-" + f,
            f, f, f, regarding, rel, note, Event.WARNING, 0, null, null));
  }

  @Provide
  Arbitrary<Pod> pods() {
    Arbitrary<Map<String, String>> annotations = Arbitraries.maps(
        Arbitraries.oneOf(Arbitraries.of("fleetkit.io/"), Arbitraries.of("example.com/", ""))
            .flatMap(prefix -> Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8).map(k -> prefix + k)),
        text()).ofMaxSize(4);
    return Combinators.combine(dnsName(), dnsName(), Arbitraries.oneOf(Arbitraries.just(""), text()), annotations)
        .as((ns, name, uid, a) -> {
          Pod.Builder b = Pod.builder().namespace(ns).name(name).uid(uid)
              .container("main", "pause", ResourceList.EMPTY);
          a.forEach(b::annotation);
          return b.build();
        });
  }

  /** How {@code SchedulingEvents} built the Event before {@link RequestBodies}. */
  private static Map<String, Object> eventAsMaps(Event e) {
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("apiVersion", Event.API_VERSION);
    event.put("kind", Event.KIND);
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", e.metadata().name());
    metadata.put("namespace", e.metadata().namespace());
    event.put("metadata", metadata);
    event.put("action", e.action());
    event.put("eventTime", RequestBodies.MICRO_TIME.format(e.eventTime()));
    event.put("note", e.note());
    event.put("reason", e.reason());
    event.put("regarding", referenceAsMap(e.regarding()));
    if (e.related() != null) {
      event.put("related", referenceAsMap(e.related()));
    }
    event.put("reportingController", e.reportingController());
    event.put("reportingInstance", e.reportingInstance());
    if (e.series() != null) {
      Map<String, Object> series = new LinkedHashMap<>();
      series.put("count", e.series().count());
      series.put("lastObservedTime", RequestBodies.MICRO_TIME.format(e.series().lastObservedTime()));
      event.put("series", series);
    }
    event.put("type", e.type());
    return event;
  }

  private static Map<String, Object> referenceAsMap(ObjectReference r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("apiVersion", r.apiVersion());
    if (!r.fieldPath().isEmpty()) {
      m.put("fieldPath", r.fieldPath());
    }
    m.put("kind", r.kind());
    m.put("name", r.name());
    if (!r.namespace().isEmpty()) {
      m.put("namespace", r.namespace());
    }
    if (!r.uid().isEmpty()) {
      m.put("uid", r.uid());
    }
    return m;
  }

  /** How {@code PodBindingBinder} built the Binding before {@link RequestBodies} (the target's keys in order). */
  private static Map<String, Object> bindingAsMaps(Pod pod, String nodeName) {
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", pod.metadata().name());
    metadata.put("namespace", pod.metadata().namespace());
    if (!pod.metadata().uid().isEmpty()) {
      metadata.put("uid", pod.metadata().uid());
    }
    Map<String, String> annotations = new TreeMap<>();
    pod.metadata().annotations().forEach((k, v) -> {
      if (k.startsWith("fleetkit.io/")) {
        annotations.put(k, v);
      }
    });
    if (!annotations.isEmpty()) {
      metadata.put("annotations", annotations);
    }
    Map<String, Object> target = new LinkedHashMap<>();
    target.put("apiVersion", "v1");
    target.put("kind", "Node");
    target.put("name", nodeName);
    Map<String, Object> binding = new LinkedHashMap<>();
    binding.put("apiVersion", "v1");
    binding.put("kind", "Binding");
    binding.put("metadata", metadata);
    binding.put("target", target);
    return binding;
  }

  /** How {@code SchedulingEvents} built the series patch before {@link RequestBodies}: through fabric8's builder. */
  private static io.fabric8.kubernetes.api.model.events.v1.Event builderPatch(Event e) {
    return new EventBuilder()
        .withNewMetadata().withNamespace(e.metadata().namespace()).withName(e.metadata().name()).endMetadata()
        .withSeries(new EventSeriesBuilder().withCount(e.series().count())
            .withLastObservedTime(new MicroTime(RequestBodies.MICRO_TIME.format(e.series().lastObservedTime())))
            .build())
        .build();
  }
}
