package io.fleetkit.networking.gateway;

import static io.fleetkit.networking.gateway.StatusConformance.CLASS;
import static io.fleetkit.networking.gateway.StatusConformance.INFRA;
import static io.fleetkit.networking.gateway.StatusConformance.WEB;
import static io.fleetkit.networking.gateway.StatusConformance.gateway;
import static io.fleetkit.networking.gateway.StatusConformance.http;
import static io.fleetkit.networking.gateway.StatusConformance.https;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.gateway.FromNamespaces;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.GatewayStatus;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.Listener;
import io.fleetkit.api.gateway.ListenerStatus;
import io.fleetkit.api.gateway.ParentReference;
import io.fleetkit.api.gateway.ReferenceGrant;
import io.fleetkit.api.gateway.SecretObjectReference;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Whatever the sequence of changes to routes, listeners, grants, Secrets and the class, once the controller has
 * settled the stored status is what {@link GatewayAttachment} computes from the store's objects, every condition of
 * its object's generation, and another sync writes nothing.
 */
final class GatewayStatusPropertiesTest {
  private static final String GW = "gw";
  private static final List<String> BACKENDS = List.of("infra-backend-v1", "infra-backend-v2", "missing");
  private static final List<String> SECTIONS = List.of("", "http", "https", "other");

  @Property(tries = 40)
  void settled_statusIsTheComputedOne_ofTheLatestGenerations_andStable(
      @ForAll @Size(min = 1, max = 14) List<@IntRange(min = 0, max = 999) Integer> ops) {
    try (StatusConformance s = new StatusConformance()) {
      SecretObjectReference webCert = new SecretObjectReference("", "Secret", "certificate", WEB);
      s.store.create(gateway(GW, http("http", "", 80, FromNamespaces.All), https("https", "", webCert)));
      s.settle();
      for (int op : ops) {
        apply(s, op);
        s.settle();
      }
      assertMatchesComputation(s);
      long writes = s.controller.statusWrites();
      s.controller.runUntilIdle();
      s.store.create(Namespace.of("poke"));
      s.settle();
      assertThat(s.controller.statusWrites()).as("writes of a sync after settling").isEqualTo(writes);
    }
  }

  private static void apply(StatusConformance s, int op) {
    int arg = op / 10;
    switch (op % 10) {
      case 0, 1, 2 -> { // a route created or replaced
        String name = "r" + (arg % 4);
        ParentReference parent = new ParentReference("", "", arg % 5 == 0 ? "same-namespace" : GW, "",
            SECTIONS.get(arg % SECTIONS.size()), null);
        HTTPRoute r = StatusConformance.route(name, parent, BACKENDS.get(arg % BACKENDS.size()));
        if (s.store.get(HTTPRoute.class, INFRA, name).isPresent()) {
          HTTPRoute old = s.route(name);
          s.store.update(new HTTPRoute(old.metadata(), r.spec()));
        } else {
          s.store.create(r);
        }
      }
      case 3 -> s.store.get(HTTPRoute.class, INFRA, "r" + (arg % 4))
          .ifPresent(r -> s.store.delete(HTTPRoute.class, INFRA, r.metadata().name()));
      case 4 -> { // listeners changed
        Gateway g = s.gateway(GW);
        List<Listener> ls = new ArrayList<>(g.spec().listeners());
        if (arg % 2 == 0 && ls.size() > 1) {
          ls.remove(ls.size() - 1);
        } else if (ls.stream().noneMatch(l -> l.name().equals("other"))) {
          ls.add(http("other", arg % 3 == 0 ? "a.example.com" : "", 8080, FromNamespaces.Same));
        }
        s.store.update(new Gateway(g.metadata(), new io.fleetkit.api.gateway.GatewaySpec(CLASS, ls)));
      }
      case 5 -> { // the grant for the web certificate
        if (s.store.get(ReferenceGrant.class, WEB, "grant").isPresent()) {
          s.store.delete(ReferenceGrant.class, WEB, "grant");
        } else {
          s.store.create(new ReferenceGrant(ObjectMeta.of(WEB, "grant"),
              List.of(new ReferenceGrant.From(Gateway.GROUP, Gateway.KIND, INFRA)),
              List.of(new ReferenceGrant.To("", "Secret", arg % 2 == 0 ? "" : "certificate"))));
        }
      }
      case 6 -> { // the certificate spoiled or repaired
        Secret c = s.store.require(Secret.class, WEB, "certificate");
        Secret next = c.data().get("tls.crt").size() < 100
            ? TestCertificates.tls(WEB, "certificate").withMetadata(c.metadata())
            : new Secret(c.metadata(), Secret.TYPE_TLS, Map.of("tls.crt", Bytes.ofUtf8("x"), "tls.key",
                Bytes.ofUtf8("x")), false);
        s.store.update(next);
      }
      case 7 -> { // a backend Service deleted or restored
        if (s.store.get(Service.class, INFRA, "infra-backend-v2").isPresent()) {
          s.store.delete(Service.class, INFRA, "infra-backend-v2");
        } else {
          s.store.create(Service.of(ObjectMeta.of(INFRA, "infra-backend-v2"), io.fleetkit.api.core.ServiceSpec
              .builder().port(io.fleetkit.api.core.ServicePort.of(8080)).build()));
        }
      }
      case 8 -> {
        GatewayClass c = s.store.require(GatewayClass.class, "", CLASS);
        s.store.update(c.withDescription("d" + arg));
      }
      default -> { } // nothing: a settle without changes
    }
  }

  private static void assertMatchesComputation(StatusConformance s) {
    GatewayAttachment a = GatewayAttachment.compute(new GatewayObjects(s.store.list(GatewayClass.class).items(),
        s.store.list(Gateway.class).items(), s.store.list(HTTPRoute.class).items(),
        s.store.list(Service.class).items(), s.store.list(Namespace.class).items(),
        s.store.list(ReferenceGrant.class).items(), s.store.list(Secret.class).items()));
    GatewayClass c = s.store.require(GatewayClass.class, "", CLASS);
    assertLatest(c.metadata(), c.status().conditions());
    for (Gateway g : s.store.list(Gateway.class).items()) {
      GatewayStatus want = a.gateway(g.metadata().key());
      assertSame(g.metadata(), g.status().conditions(), want.conditions());
      assertThat(g.status().listeners()).extracting(ListenerStatus::name)
          .containsExactlyElementsOf(want.listeners().stream().map(ListenerStatus::name).toList());
      for (ListenerStatus l : want.listeners()) {
        ListenerStatus got = g.status().listener(l.name());
        assertThat(got.attachedRoutes()).as("attachedRoutes of %s", l.name()).isEqualTo(l.attachedRoutes());
        assertThat(got.supportedKinds()).isEqualTo(l.supportedKinds());
        assertSame(g.metadata(), got.conditions(), l.conditions());
      }
    }
    for (HTTPRoute r : s.store.list(HTTPRoute.class).items()) {
      List<RouteParent> want = a.route(r.metadata().key()).stream()
          .filter(p -> s.store.get(Gateway.class, INFRA, p.gateway().substring(INFRA.length() + 1)).isPresent())
          .toList();
      assertThat(r.status().parents()).as("parents of %s", r.metadata().key()).hasSize(want.size());
      for (RouteParent p : want) {
        var got = r.status().parent(p.status().parentRef(), GatewayStatusController.DEFAULT_CONTROLLER_NAME);
        assertThat(got).as("parent %s of %s", p.status().parentRef(), r.metadata().key()).isNotNull();
        assertSame(r.metadata(), got.conditions(), p.status().conditions());
      }
    }
  }

  private static void assertSame(ObjectMeta m, List<Condition> got, List<Condition> want) {
    assertLatest(m, got);
    assertThat(got).extracting(c -> c.type() + " " + c.status() + " " + c.reason() + " " + c.message())
        .containsExactlyElementsOf(want.stream().map(c -> c.type() + " " + c.status() + " " + c.reason() + " "
            + c.message()).toList());
  }

  private static void assertLatest(ObjectMeta m, List<Condition> conditions) {
    assertThat(conditions).isNotEmpty().allSatisfy(c -> {
      assertThat(c.observedGeneration()).as("%s of %s", c.type(), m.key()).isEqualTo(m.generation());
      assertThat(c.lastTransitionTime()).isNotNull();
    });
  }
}
