package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespaceSpec;
import io.fleetkit.api.core.NamespaceStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeAddress;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The update rules of Namespaces and Nodes, ported from kubernetes {@code pkg/apis/core/validation/validation_test.go}
 * at commit 000f26050b9be6fb3d79fae95e06b47fc96128cd, through {@link WriteRules} as the stores apply them:
 *
 * <ul>
 *   <li>{@code TestValidateNamespaceFinalizeUpdate} 4 of 4, {@code TestValidateNamespaceUpdate} 6 of 7 and {@code
 *       TestValidateNamespaceStatusUpdate} 4 of 5 (left out in each: the renamed namespace, another object in the
 *       store). Their first case updates two empty namespaces; FleetKit
 *       cannot build a namespace without a name, so the case uses {@code foo}. The finalize cases go through
 *       {@link WriteRules#finalizeNamespace} (the {@code namespaces/finalize} write, the one that changes
 *       {@code spec.finalizers}; an update keeps the stored ones), whose names the namespace checks when it is
 *       built, as {@code ValidateNamespaceFinalizeUpdate} does.</li>
 *   <li>{@code TestValidateNodeUpdate} 22 of 26 (left out: the renamed node, the store key; the three
 *       preferAvoidPods annotation cases, not modelled). The first case's nodes get the name {@code foo}. Status
 *       changes go through the status path ({@link WriteRules#updateWithStatus}), as upstream runs the same function
 *       for {@code nodes/status}; the fractional extended resources are refused when the node is built.</li>
 * </ul>
 */
final class NamespaceNodeUpdateRulesTest {

  // ----------------------------------------------------------------------------------------------- Namespace

  private static Namespace ns(String name, Map<String, String> labels, List<String> finalizers) {
    return new Namespace(ObjectMeta.of(name).withLabels(labels), new NamespaceSpec(finalizers), NamespaceStatus.ACTIVE);
  }

  @Test
  void namespaceFinalize_upstreamCases() {
    okFinalize(ns("foo", Map.of(), List.of()), ns("foo", Map.of(), List.of())); // {} -> {}
    builtRefused(() -> ns("foo", Map.of(), List.of("Foo")), "spec.finalizers[0]",
        "name is neither a standard finalizer name nor is it fully qualified");
    Namespace two = okFinalize(ns("foo", Map.of(), List.of("foo.com/bar")),
        ns("foo", Map.of(), List.of("foo.com/bar", "what.com/bar")));
    assertThat(two.spec().finalizers()).containsExactly("foo.com/bar", "what.com/bar");
    builtRefused(() -> ns("fooemptyfinalizer", Map.of(), List.of("", "foo.com/bar", "what.com/bar")),
        "spec.finalizers[0]", "");
  }

  @Test
  void namespaceUpdate_upstreamCases() {
    okUpdate(ns("foo", Map.of(), List.of()), ns("foo", Map.of(), List.of())); // {} -> {}
    okUpdate(ns("foo2", Map.of("foo", "bar"), List.of()), ns("foo2", Map.of("foo", "baz"), List.of()));
    okUpdate(ns("foo3", Map.of(), List.of()), ns("foo3", Map.of("foo", "baz"), List.of()));
    okUpdate(ns("foo4", Map.of("bar", "foo"), List.of()), ns("foo4", Map.of("foo", "baz"), List.of()));
    okUpdate(ns("foo5", Map.of("foo", "baz"), List.of()), ns("foo5", Map.of("Foo", "baz"), List.of()));
    // labels, finalizers and a Terminating status in one update: valid; the status is the stored one, and so are
    // spec.finalizers (the registry's PrepareForUpdate; only namespaces/finalize changes them)
    Namespace updated = okUpdate(ns("foo6", Map.of("foo", "baz"), List.of()),
        ns("foo6", Map.of("Foo", "baz"), List.of(Namespace.KUBERNETES_FINALIZER)).withStatus(
            NamespaceStatus.TERMINATING));
    assertThat(updated.status()).isEqualTo(NamespaceStatus.ACTIVE);
    assertThat(updated.metadata().labels()).containsExactly(Map.entry("Foo", "baz"));
    assertThat(updated.spec().finalizers()).isEmpty();
  }

  @Test
  void namespaceStatusUpdate_upstreamCases() {
    Namespace foo = ns("foo", Map.of(), List.of());
    assertThat(WriteRules.updateStatus(foo, foo.withStatus(NamespaceStatus.ACTIVE)).effect())
        .isEqualTo(WriteRules.Effect.NONE); // {} -> Active
    // cannot set deletionTimestamp via status update: the stored metadata is kept, so Terminating is refused
    Namespace marked = foo.withMetadata(foo.metadata().toBuilder().deletionTimestamp(Instant.EPOCH).build());
    assertThatThrownBy(() -> WriteRules.updateStatus(foo, marked.withStatus(NamespaceStatus.TERMINATING)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Namespace foo: status.phase \"Terminating\" may only be 'Active' if `deletionTimestamp`"
            + " is empty");
    // can update phase via status update (the namespace is being deleted)
    assertThat(WriteRules.updateStatus(marked, marked.withStatus(NamespaceStatus.TERMINATING)).object().status())
        .isEqualTo(NamespaceStatus.TERMINATING);
    assertThatThrownBy(() -> WriteRules.updateStatus(foo, foo.withStatus(NamespaceStatus.TERMINATING)))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(((ValidationException) e).violations()).extracting(Violation::field)
            .containsExactly("status.phase"));
    // and back: a namespace being deleted stays Terminating
    Namespace terminating = marked.withStatus(NamespaceStatus.TERMINATING);
    assertThatThrownBy(() -> WriteRules.updateStatus(terminating, terminating.withStatus(NamespaceStatus.ACTIVE)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("may only be 'Terminating' if `deletionTimestamp` is not empty");
  }

  private static Namespace okUpdate(Namespace stored, Namespace updated) {
    WriteRules.Change<Namespace> change = WriteRules.update(stored, updated);
    assertThat(change.effect()).isNotEqualTo(WriteRules.Effect.REMOVE);
    return change.object();
  }

  private static Namespace okFinalize(Namespace stored, Namespace updated) {
    WriteRules.Change<Namespace> change = WriteRules.finalizeNamespace(stored, updated);
    assertThat(change.effect()).isNotEqualTo(WriteRules.Effect.REMOVE);
    return change.object();
  }

  // ---------------------------------------------------------------------------------------------------- Node

  private static Node.Builder node(String name) {
    return Node.builder().name(name);
  }

  private static Node cidrs(Node n, String... cidrs) {
    return n.withSpec(n.spec().withPodCIDRs(List.of(cidrs)));
  }

  private static ResourceList resources(String cpu, String memory) {
    return ResourceList.builder().put("cpu", cpu).put("memory", memory).build();
  }

  @Test
  void nodeUpdate_upstreamCases() {
    ok(node("foo").build(), node("foo").build()); // {} -> {}
    ok(node("foo").label("foo", "bar").build(), node("foo").label("foo", "baz").build());
    ok(node("foo").build(), node("foo").label("foo", "baz").build());
    ok(node("foo").label("bar", "foo").build(), node("foo").label("foo", "baz").build());
    ok(node("foo").build(), cidrs(node("foo").build(), "192.168.0.0/16")); // podCIDRs set from empty
    refused(cidrs(node("foo").build(), "192.123.0.0/16"), cidrs(node("foo").build(), "192.168.0.0/16"),
        "spec.podCIDRs");
    ok(node("foo").capacity(resources("10000", "100")).build(), node("foo").capacity(resources("100", "10000"))
        .build());
    ok(node("foo").label("bar", "foo").capacity(resources("10000", "100")).build(),
        node("foo").label("bar", "fooobaz").capacity(resources("100", "10000")).build());
    ok(node("foo").label("bar", "foo").address(new NodeAddress("ExternalIP", "1.2.3.4")).build(),
        node("foo").label("bar", "fooobaz").build());
    ok(node("foo").label("foo", "baz").build(), node("foo").label("Foo", "baz").build());
    ok(node("foo").unschedulable(false).build(), node("foo").unschedulable(true).build());
    refused(node("foo").build(), node("foo").address(new NodeAddress("ExternalIP", "1.1.1.1"))
        .address(new NodeAddress("ExternalIP", "1.1.1.1")).build(), "status.addresses[1]");
    ok(node("foo").build(), node("foo").address(new NodeAddress("ExternalIP", "1.1.1.1"))
        .address(new NodeAddress("InternalIP", "10.1.1.1")).build());
    ok(node("valid-extended-resources").build(), node("valid-extended-resources").capacity(ResourceList.builder()
        .put("cpu", "10").put("memory", "10G").put("example.com/a", "5").put("example.com/b", "10").build())
        .build());
    builtRefused(() -> node("invalid-fractional-extended-capacity").capacity(ResourceList.builder()
        .put("cpu", "10").put("memory", "10G").put("example.com/a", "500m").build()).build(),
        "status.capacity.example.com/a", "must be an integer");
    builtRefused(() -> node("invalid-fractional-extended-allocatable").capacity(ResourceList.builder()
        .put("cpu", "10").put("memory", "10G").put("example.com/a", "5").build()).allocatable(ResourceList.builder()
        .put("cpu", "10").put("memory", "10G").put("example.com/a", "4.5").build()).build(),
        "status.allocatable.example.com/a", "must be an integer");
    ok(node("update-provider-id-when-not-set").build(),
        node("update-provider-id-when-not-set").providerID("provider:///new").build());
    refused(node("update-provider-id-when-set").providerID("provider:///old").build(),
        node("update-provider-id-when-set").providerID("provider:///new").build(), "spec.providerID");
    ok(cidrs(node("pod-cidrs-as-is").build(), "192.168.0.0/16"),
        cidrs(node("pod-cidrs-as-is").build(), "192.168.0.0/16"));
    ok(cidrs(node("pod-cidrs-as-is-2").build(), "192.168.0.0/16", "2000::/10"),
        cidrs(node("pod-cidrs-as-is-2").build(), "192.168.0.0/16", "2000::/10"));
    // upstream's old node of three pod CIDRs is refused by ValidateNode itself, which its update test does not run
    // on the old object: here that node cannot be built, so it never reaches an update
    builtRefused(() -> cidrs(node("pod-cidrs-not-same-length").build(), "192.168.0.0/16", "192.167.0.0/16",
        "2000::/10"), "spec.podCIDRs", "may specify no more than one CIDR for each IP family");
    refused(cidrs(node("pod-cidrs-not-same").build(), "192.168.0.0/16", "2000::/10"),
        cidrs(node("pod-cidrs-not-same").build(), "2000::/10", "192.168.0.0/16"), "spec.podCIDRs");
  }

  @Test
  void nodeUpdate_refusal_namesObjectFieldAndRule() {
    assertThatThrownBy(() -> WriteRules.update(node("n1").providerID("a").build(), node("n1").providerID("b")
        .build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Node n1: spec.providerID \"b\" Forbidden: node updates may not change providerID except"
            + " from \"\" to valid");
    // on the status path too: a duplicate address is refused by updateStatus
    Node n = node("n1").build();
    assertThatThrownBy(() -> WriteRules.updateStatus(n, node("n1").address(new NodeAddress("Hostname", "h"))
        .address(new NodeAddress("Hostname", "h")).build()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Node n1: status.addresses[1] \"NodeAddress[type=Hostname, address=h]\" Duplicate value");
  }

  /** Valid both as an update and as a status update (upstream runs ValidateNodeUpdate for both). */
  private static void ok(Node stored, Node updated) {
    assertThatCode(() -> WriteRules.updateWithStatus(stored, updated)).doesNotThrowAnyException();
  }

  private static void refused(Node stored, Node updated, String field) {
    assertThatThrownBy(() -> WriteRules.updateWithStatus(stored, updated))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(((ValidationException) e).violations()).extracting(Violation::field)
            .contains(field));
  }

  private static void builtRefused(Supplier<?> build, String field, String rule) {
    assertThatThrownBy(build::get)
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining(rule)
        .satisfies(e -> assertThat(((ValidationException) e).violations()).extracting(Violation::field)
            .contains(field));
  }
}
