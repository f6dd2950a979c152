package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.NamespacePhase;
import io.fleetkit.api.core.ServiceAccount;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEventType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ServiceAccounts controller. {@code testServiceAccountCreation} ports the table of kubernetes
 * {@code pkg/controller/serviceaccount/serviceaccounts_controller_test.go} (TestServiceAccountCreation, the stored
 * version of ntnn/kubernetes at 1608dfc8): the managed accounts {@code default} and {@code managed} in namespace
 * {@code default}; the accounts that exist, the namespace (Active, Terminating or none) and the event (namespace
 * added, updated, or an account deleted, managed or not); the accounts created, in order. As upstream's test calls
 * the event handlers, which queue the namespace, each case runs the sync the event queues; that the store's watches
 * lead to those syncs is checked by {@code start_...}.
 */
final class ServiceAccountsControllerTest {
  private static final String NS = "default";
  private static final List<String> MANAGED = List.of("default", "managed");

  enum Ns { NONE, ACTIVE, TERMINATING }

  enum Event { ADDED, UPDATED, ACCOUNT_DELETED, UNMANAGED_ACCOUNT_DELETED }

  static Stream<Arguments> testServiceAccountCreation() {
    return Stream.of(
        Arguments.of("new active namespace missing serviceaccounts", List.of(), Ns.ACTIVE, Event.ADDED,
            List.of("default", "managed")),
        Arguments.of("new active namespace missing serviceaccount", List.of("managed"), Ns.ACTIVE, Event.ADDED,
            List.of("default")),
        Arguments.of("new active namespace with serviceaccounts", List.of("default", "managed"), Ns.ACTIVE,
            Event.ADDED, List.of()),
        Arguments.of("new terminating namespace", List.of(), Ns.TERMINATING, Event.ADDED, List.of()),
        Arguments.of("updated active namespace missing serviceaccounts", List.of(), Ns.ACTIVE, Event.UPDATED,
            List.of("default", "managed")),
        Arguments.of("updated active namespace missing serviceaccount", List.of("default"), Ns.ACTIVE, Event.UPDATED,
            List.of("managed")),
        Arguments.of("updated active namespace with serviceaccounts", List.of("default", "managed"), Ns.ACTIVE,
            Event.UPDATED, List.of()),
        Arguments.of("updated terminating namespace", List.of(), Ns.TERMINATING, Event.UPDATED, List.of()),
        Arguments.of("deleted serviceaccount without namespace", List.of(), Ns.NONE, Event.ACCOUNT_DELETED,
            List.of()),
        Arguments.of("deleted serviceaccount with active namespace", List.of("managed"), Ns.ACTIVE,
            Event.ACCOUNT_DELETED, List.of("default")),
        Arguments.of("deleted serviceaccount with terminating namespace", List.of(), Ns.TERMINATING,
            Event.ACCOUNT_DELETED, List.of()),
        Arguments.of("deleted unmanaged serviceaccount with active namespace", List.of("default", "managed"),
            Ns.ACTIVE, Event.UNMANAGED_ACCOUNT_DELETED, List.of()),
        Arguments.of("deleted unmanaged serviceaccount with terminating namespace", List.of(), Ns.TERMINATING,
            Event.UNMANAGED_ACCOUNT_DELETED, List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void testServiceAccountCreation(String name, List<String> existing, Ns ns, Event event, List<String> expected) {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      boolean namespaceEvent = event == Event.ADDED || event == Event.UPDATED;
      if (!namespaceEvent) {
        makeNamespace(store, ns); // upstream's ExistingNamespace
      }
      for (String sa : existing) {
        store.create(ServiceAccount.of(NS, sa));
      }
      List<String> created = new ArrayList<>();
      store.watch(ServiceAccount.class, "", e -> {
        if (e.type() == WatchEventType.ADDED) {
          created.add(e.object().metadata().name());
        }
      });
      ServiceAccountsController c = ServiceAccountsController.of(store, MANAGED);
      if (namespaceEvent) {
        makeNamespace(store, ns); // upstream adds the namespace to the informer's store, then calls the handler
      }
      // the handlers (namespaceAdded, namespaceUpdated, serviceAccountDeleted) each queue the namespace for a sync
      c.sync(NS);
      assertThat(created).as(name).containsExactlyElementsOf(expected);
    }
  }

  private static void makeNamespace(ObjectStore store, Ns ns) {
    if (ns == Ns.NONE) {
      return;
    }
    store.create(Namespace.of(NS));
    if (ns == Ns.TERMINATING) {
      store.delete(Namespace.class, "", NS); // marked: phase Terminating, held by its kubernetes finalizer
      assertThat(store.require(Namespace.class, "", NS).status().phase()).isEqualTo(NamespacePhase.Terminating);
    }
  }

  @Test
  void sync_isIdempotent_keepsAnExistingAccount_andReportsWhatItCreated() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      store.create(Namespace.of("team"));
      ServiceAccount custom = new ServiceAccount(ObjectMeta.of("team", "default"), List.of("s"), List.of(), false);
      store.create(custom);
      ServiceAccountsController c = ServiceAccountsController.of(store);
      assertThat(c.sync("team")).isEmpty();
      assertThat(store.require(ServiceAccount.class, "team", "default").secrets()).containsExactly("s");
      store.delete(ServiceAccount.class, "team", "default");
      assertThat(c.sync("team")).containsExactly("default");
      assertThat(c.sync("team")).isEmpty();
      assertThat(c.sync("missing")).isEmpty();
    }
  }

  @Test
  void start_syncsEveryExistingNamespace_thenFollowsNewOnes_andRecreatesADeletedDefault() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      store.create(Namespace.of("a"));
      try (ServiceAccountsController c = ServiceAccountsController.of(store).start()) {
        assertThat(store.get(ServiceAccount.class, "a", "default")).isPresent();
        store.create(Namespace.of("b"));
        assertThat(store.get(ServiceAccount.class, "b", "default")).as("created within the namespace's create")
            .isPresent();
        store.delete(ServiceAccount.class, "b", "default");
        assertThat(store.get(ServiceAccount.class, "b", "default")).isPresent();
      }
      store.create(Namespace.of("c"));
      assertThat(store.get(ServiceAccount.class, "c", "default")).as("closed: no longer watching").isEmpty();
    }
  }
}
