package io.fleetkit.adapter.kubernetes.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.api.model.events.v1.EventSeriesBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventSeries;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.ObjectMeta;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The Event body {@link SchedulingEvents} posts ({@link RequestBodies#event}): read back by fabric8, it is the
 * object fabric8's builder makes from the same event (the mapping it replaced), with and without the optional parts.
 */
final class SchedulingEventsJsonTest {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final Instant T = Instant.parse("2026-12-02T05:06:07.123456Z");

  @Test
  void eventJson_scheduledEventWithUid_readsBackAsTheBuildersEvent() {
    Event e = event(new ObjectReference("v1", "Pod", "default", "web-0", "uid-1", ""), null, null);

    String json = RequestBodies.event(e);

    assertThat(JSON.unmarshal(json, io.fabric8.kubernetes.api.model.events.v1.Event.class)).isEqualTo(builders(e));
    assertThat(json).contains("\"eventTime\":\"2026-12-02T05:06:07.123456Z\"").doesNotContain("related")
        .doesNotContain("series").doesNotContain("fieldPath");
  }

  @Test
  void eventJson_relatedSeriesAndFieldPathWithoutUid_readsBackAsTheBuildersEvent() {
    Event e = event(new ObjectReference("v1", "Pod", "default", "web-0", "", "spec.containers{main}"),
        new ObjectReference("v1", "Node", "", "n1", "", ""), new EventSeries(3, T.plusSeconds(60)));

    String json = RequestBodies.event(e);

    assertThat(JSON.unmarshal(json, io.fabric8.kubernetes.api.model.events.v1.Event.class)).isEqualTo(builders(e));
    assertThat(json).contains("\"count\":3").doesNotContain("\"uid\"");
  }

  private static Event event(ObjectReference regarding, @Nullable ObjectReference related,
      @Nullable EventSeries series) {
    return new Event(ObjectMeta.of("default", "web-0.17d1"), T, series, "fleetkit", "replica-a", "Binding",
        "Scheduled", regarding, related, "Successfully assigned default/web-0 to n1", Event.NORMAL, 0, null, null);
  }

  /** The mapping through fabric8's builders that {@link RequestBodies#event} replaced. */
  private static io.fabric8.kubernetes.api.model.events.v1.Event builders(Event e) {
    return new EventBuilder()
        .withNewMetadata().withNamespace(e.metadata().namespace()).withName(e.metadata().name()).endMetadata()
        .withEventTime(new MicroTime("2026-12-02T05:06:07.123456Z"))
        .withReportingController(e.reportingController())
        .withReportingInstance(e.reportingInstance())
        .withType(e.type())
        .withReason(e.reason())
        .withAction(e.action())
        .withNote(e.note())
        .withRegarding(reference(e.regarding()))
        .withRelated(e.related() == null ? null : reference(e.related()))
        .withSeries(e.series() == null ? null : new EventSeriesBuilder().withCount(e.series().count())
            .withLastObservedTime(new MicroTime("2026-12-02T05:07:07.123456Z")).build())
        .build();
  }

  private static io.fabric8.kubernetes.api.model.ObjectReference reference(ObjectReference r) {
    return new ObjectReferenceBuilder().withApiVersion(r.apiVersion()).withKind(r.kind())
        .withNamespace(r.namespace().isEmpty() ? null : r.namespace()).withName(r.name())
        .withUid(r.uid().isEmpty() ? null : r.uid())
        .withFieldPath(r.fieldPath().isEmpty() ? null : r.fieldPath()).build();
  }
}
