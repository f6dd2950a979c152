package io.fleetkit.adapter.kubernetes.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link WatchEventSerialization} against fabric8's {@link KubernetesSerialization}: for any pod or node watch event
 * (strings with quotes, backslashes, control and non-ASCII characters, labels, annotations, containers, resources,
 * unknown fields of every JSON type, {@code apiVersion} or {@code kind} first, {@code type} before or after the object),
 * the one-pass read gives a {@link WatchEvent} equal to fabric8's, and it did take the one-pass read; any other shape
 * falls back to fabric8's read with the same result or the same error.
 */
final class WatchEventSerializationTest {
  private static final KubernetesSerialization FABRIC8 = new KubernetesSerialization();
  private static final WatchEventSerialization FAST = new WatchEventSerialization();

  @Property(tries = 300)
  void unmarshal_anyPodEvent_equalsFabric8sRead(@ForAll("pods") Pod pod, @ForAll("types") String type,
      @ForAll boolean kindFirst, @ForAll boolean typeFirst) {
    String text = event(pod, type, kindFirst, typeFirst);
    assertThat(FAST.watchEvent(text)).as("one-pass read taken").isNotNull();
    WatchEvent fast = FAST.unmarshal(text, WatchEvent.class);
    WatchEvent slow = FABRIC8.unmarshal(text, WatchEvent.class);
    assertThat(fast).isEqualTo(slow);
    assertThat(fast.getObject()).isInstanceOf(Pod.class).isEqualTo(slow.getObject());
  }

  @Property(tries = 100)
  void unmarshal_anyNodeEvent_equalsFabric8sRead(@ForAll("nodes") Node node, @ForAll("types") String type,
      @ForAll boolean kindFirst, @ForAll boolean typeFirst) {
    String text = event(node, type, kindFirst, typeFirst);
    assertThat(FAST.watchEvent(text)).as("one-pass read taken").isNotNull();
    assertThat(FAST.unmarshal(text, WatchEvent.class)).isEqualTo(FABRIC8.unmarshal(text, WatchEvent.class));
  }

  @Test
  void unmarshal_otherShapes_fallBackToFabric8sRead() {
    String pod = FABRIC8.asJson(new PodBuilder().withNewMetadata().withName("p").endMetadata().build());
    List<String> others = List.of(
        "{\"type\":\"ADDED\",\"object\":" + pod + ",\"extra\":1}",                  // a field fabric8 keeps
        "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"p\"},\"apiVersion\":\"v1\",\"kind\":\"Pod\"}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"x.io/v1\",\"kind\":\"Thing\",\"spec\":{\"a\":[1,2.5]}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v\\u0031\",\"kind\":\"Pod\"}}",
        "{ \"type\" : \"DELETED\" , \"object\" : " + pod + " }",
        "{\"object\":" + pod + "}");
    for (String text : others) {
      WatchEvent fast = FAST.unmarshal(text, WatchEvent.class);
      assertThat(fast).as(text).isEqualTo(FABRIC8.unmarshal(text, WatchEvent.class));
    }
    assertThat(FAST.unmarshal(others.get(2), WatchEvent.class).getObject())
        .isInstanceOf(GenericKubernetesResource.class);
    assertThat(FAST.watchEvent(others.get(0))).isNull();
    assertThat(FAST.watchEvent(others.get(4))).as("whitespace inside the object only").isNotNull();
  }

  @Test
  void unmarshal_brokenText_failsAsFabric8Does() {
    String broken = "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{";
    Class<? extends Throwable> expected = thrown(() -> FABRIC8.unmarshal(broken, WatchEvent.class));
    assertThatThrownBy(() -> FAST.unmarshal(broken, WatchEvent.class)).isInstanceOf(expected);
  }

  @Test
  void unmarshal_otherTypes_areFabric8s() {
    String pod = FABRIC8.asJson(new PodBuilder().withNewMetadata().withName("p").endMetadata().build());
    assertThat(FAST.unmarshal(pod, Pod.class)).isEqualTo(FABRIC8.unmarshal(pod, Pod.class));
  }

  private static Class<? extends Throwable> thrown(Runnable r) {
    try {
      r.run();
    } catch (RuntimeException e) {
      return e.getClass();
    }
    throw new AssertionError("fabric8 read broken text without an error");
  }

  private static String event(HasMetadata o, String type, boolean kindFirst, boolean typeFirst) {
    String json = FABRIC8.asJson(o);
    String head = "{\"apiVersion\":\"v1\",\"kind\":\"" + o.getKind() + "\",";
    assertThat(json).startsWith(head);
    if (kindFirst) {
      json = "{\"kind\":\"" + o.getKind() + "\",\"apiVersion\":\"v1\"," + json.substring(head.length());
    }
    String t = "\"type\":" + FABRIC8.asJson(type);
    return typeFirst ? "{" + t + ",\"object\":" + json + "}" : "{\"object\":" + json + "," + t + "}";
  }

  @Provide
  Arbitrary<String> types() {
    return Arbitraries.of("ADDED", "MODIFIED", "DELETED", "BOOKMARK");
  }

  private static Arbitrary<String> text() {
    return Arbitraries.strings().withCharRange('a', 'z').withChars('"', '\\', '\n', '\u0001', 'é', '☃', ' ', '-')
        .ofMaxLength(12);
  }

  private static Arbitrary<Object> anyValue() {
    return Arbitraries.oneOf(text().map(s -> (Object) s), Arbitraries.integers().map(i -> (Object) i),
        Arbitraries.longs().map(l -> (Object) l), Arbitraries.doubles().map(d -> (Object) d),
        Arbitraries.of(true, false).map(b -> (Object) b),
        Arbitraries.maps(text(), Arbitraries.integers()).ofMaxSize(2).map(m -> (Object) m),
        Arbitraries.integers().list().ofMaxSize(3).map(l -> (Object) l));
  }

  @Provide
  Arbitrary<Pod> pods() {
    Arbitrary<Map<String, String>> labels = Arbitraries.maps(text(), text()).ofMaxSize(3);
    Arbitrary<Map<String, Object>> extra = Arbitraries.maps(text().map(s -> "x-" + s), anyValue()).ofMaxSize(2);
    Arbitrary<String> quantity = Arbitraries.of("100m", "1", "64Mi", "2Gi", "0.5", "1e3");
    return Combinators.combine(text(), text(), labels, labels, quantity, quantity, text().injectNull(0.5), extra)
        .as((name, ns, l, a, cpu, mem, node, x) -> {
          Pod p = new PodBuilder()
              .withNewMetadata().withName("p" + name).withNamespace(ns).withLabels(l).withAnnotations(a)
              .withUid("u-" + name).withResourceVersion("42").endMetadata()
              .withNewSpec().withSchedulerName("fleetkit").withNodeName(node)
              .addNewContainer().withName("main").withImage("pause")
              .withNewResources().addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity(mem))
              .endResources().endContainer()
              .addNewToleration().withKey(name).withOperator("Exists").withTolerationSeconds(30L).endToleration()
              .endSpec()
              .withNewStatus().withPhase("Pending").endStatus()
              .build();
          x.forEach(p.getSpec()::setAdditionalProperty);
          return p;
        });
  }

  @Provide
  Arbitrary<Node> nodes() {
    return Combinators.combine(text(), Arbitraries.maps(text(), text()).ofMaxSize(3), Arbitraries.integers()
        .between(1, 256)).as((name, labels, cpu) -> new NodeBuilder()
        .withNewMetadata().withName("n" + name).withLabels(labels).endMetadata()
        .withNewSpec().addNewTaint().withKey(name).withEffect("NoSchedule").endTaint().endSpec()
        .withNewStatus().addToCapacity("cpu", new Quantity(Integer.toString(cpu)))
        .addToAllocatable("cpu", new Quantity(Integer.toString(cpu))).endStatus()
        .build());
  }
}
