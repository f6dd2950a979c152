package io.fleetkit.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.StoreUnavailableException;
import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimStatus;
import io.fleetkit.api.core.PersistentVolumeMode;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.PersistentVolumeReclaimPolicy;
import io.fleetkit.api.core.PersistentVolumeSource;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.PersistentVolumeStatus;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.storage.provision.ProvisionRequest;
import io.fleetkit.storage.provision.ProvisionResult;
import io.fleetkit.storage.provision.VolumeProvisioner;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The table machinery of upstream's PV controller tests ({@code framework_test.go}'s {@code controllerTest},
 * {@code newVolume}, {@code newClaim} and their modifiers, {@code runSyncTests} and {@code runMultisyncTests}),
 * over FleetKit's {@link ObjectStore}: the initial objects are created in a store, the case's call runs on a
 * {@link PersistentVolumeController}, and the store's volumes and claims are compared with the expected ones
 * (spec, annotations, labels, phase, the claim's status modes and capacity, the volume's status message), the
 * recorded events with the expected {@code "Type Reason"} list.
 *
 * <p>The store gives every object its own uid, so a volume's claim reference to an upstream claim uid (e.g.
 * {@code uid1-1}) is rewritten to the uid the store gave that claim; a uid no initial claim has (e.g.
 * {@code uid1-777}) is kept, and matches no claim.
 *
 * <p>FleetKit validates names, upstream's fake API server does not: upstream's volume names with {@code _} (e.g.
 * {@code volume1-4_1}) are spelled with {@code -} in the store.
 *
 * <p>Events are compared whole: upstream's {@code checkEvents} reads only as many events as the case expects, so
 * its tables list no event where the controller emits one the case is not about; such rows here list the event
 * upstream's controller ({@code pv_controller.go}) emits, with a comment.
 */
final class SyncTable {
  /** Upstream's {@code testNamespace}. */
  static final String NS = "default";
  static final List<PersistentVolumeAccessMode> RWO_ROX =
      List.of(PersistentVolumeAccessMode.ReadWriteOnce, PersistentVolumeAccessMode.ReadOnlyMany);
  static final List<String> NO_EVENTS = List.of();
  static final PersistentVolumePhase AVAILABLE = PersistentVolumePhase.Available;
  static final PersistentVolumePhase BOUND = PersistentVolumePhase.Bound;
  static final PersistentVolumePhase RELEASED = PersistentVolumePhase.Released;
  static final PersistentVolumePhase PENDING = PersistentVolumePhase.Pending;
  static final PersistentVolumePhase FAILED = PersistentVolumePhase.Failed;
  static final PersistentVolumeClaimPhase CLAIM_PENDING = PersistentVolumeClaimPhase.Pending;
  static final PersistentVolumeClaimPhase CLAIM_BOUND = PersistentVolumeClaimPhase.Bound;
  static final PersistentVolumeClaimPhase CLAIM_LOST = PersistentVolumeClaimPhase.Lost;
  static final PersistentVolumeReclaimPolicy RETAIN = PersistentVolumeReclaimPolicy.Retain;
  static final PersistentVolumeReclaimPolicy DELETE = PersistentVolumeReclaimPolicy.Delete;
  static final PersistentVolumeMode BLOCK = PersistentVolumeMode.Block;
  static final PersistentVolumeMode FILESYSTEM = PersistentVolumeMode.Filesystem;
  static final String CLASS_EMPTY = "";
  static final String CLASS_GOLD = "gold";
  static final String CLASS_SILVER = "silver";
  static final String CLASS_WAIT = "wait";
  static final String BOUND_BY_CONTROLLER = StorageAnnotations.BOUND_BY_CONTROLLER;
  static final String BIND_COMPLETED = StorageAnnotations.BIND_COMPLETED;
  static final String SELECTED_NODE = StorageAnnotations.SELECTED_NODE;

  private SyncTable() {}

  /** What a case runs: upstream's {@code testSyncClaim}, {@code testSyncClaimError}, {@code testSyncVolume}. */
  enum Call {
    SYNC_CLAIM, SYNC_CLAIM_ERROR, SYNC_VOLUME,
    /** {@code runMultisyncTests} with {@code testSyncClaim}: the claim's sync, then whole syncs until settled. */
    MULTI_SYNC_CLAIM,
    /** {@code runMultisyncTests} with {@code testSyncVolume}. */
    MULTI_SYNC_VOLUME
  }

  /**
   * Upstream's {@code newVolume}: a volume with modes RWO+ROX and Filesystem mode; with {@code csiDriver}, upstream's
   * {@code newExternalProvisionedVolume} (a CSI volume of that driver).
   */
  record Vol(String name, String capacity, String claimUid, String claimName, PersistentVolumePhase phase,
      PersistentVolumeReclaimPolicy policy, String cls, Map<String, String> annotations, Map<String, String> labels,
      PersistentVolumeMode mode, String message, @Nullable String csiDriver, List<String> finalizers,
      boolean deleting) {
    /** Upstream's {@code withLabels}. */
    Vol withLabels(Map<String, String> l) {
      return new Vol(name, capacity, claimUid, claimName, phase, policy, cls, annotations, l, mode, message,
          csiDriver, finalizers, deleting);
    }

    /** Upstream's {@code withVolumeVolumeMode}. */
    Vol withMode(PersistentVolumeMode m) {
      return new Vol(name, capacity, claimUid, claimName, phase, policy, cls, annotations, labels, m, message,
          csiDriver, finalizers, deleting);
    }

    /** Upstream's {@code withMessage} (the expected {@code status.message}). */
    Vol withMessage(String m) {
      return new Vol(name, capacity, claimUid, claimName, phase, policy, cls, annotations, labels, mode, m,
          csiDriver, finalizers, deleting);
    }

    /** Upstream's {@code volumeWithAnnotation}. */
    Vol withAnnotation(String key, String value) {
      Map<String, String> ann = new LinkedHashMap<>(annotations);
      ann.put(key, value);
      return new Vol(name, capacity, claimUid, claimName, phase, policy, cls, ann, labels, mode, message,
          csiDriver, finalizers, deleting);
    }

    /** Upstream's {@code newExternalProvisionedVolume}'s CSI source. */
    Vol withCsi(String driver) {
      return new Vol(name, capacity, claimUid, claimName, phase, policy, cls, annotations, labels, mode, message,
          driver, finalizers, deleting);
    }

    /** Upstream's {@code volumesWithFinalizers}. */
    Vol withFinalizers(String... f) {
      return new Vol(name, capacity, claimUid, claimName, phase, policy, cls, annotations, labels, mode, message,
          csiDriver, List.of(f), deleting);
    }

    /** Upstream's {@code withVolumeDeletionTimestamp}: the store marks the volume deleted after creating it. */
    Vol markedForDeletion() {
      return new Vol(name, capacity, claimUid, claimName, phase, policy, cls, annotations, labels, mode, message,
          csiDriver, finalizers, true);
    }

    PersistentVolume toObject(Map<String, String> uids) {
      PersistentVolumeSpec.Builder spec = PersistentVolumeSpec.builder().storage(capacity).accessModes(RWO_ROX)
          .persistentVolumeReclaimPolicy(policy).storageClassName(cls).volumeMode(mode);
      if (!claimName.isEmpty()) {
        spec.claimRef(new ClaimReference(NS, claimName, uids.getOrDefault(claimUid, claimUid)));
      }
      if (csiDriver != null) {
        spec.source(new PersistentVolumeSource.Csi(csiDriver, "527b55dc-c7db-4574-9226-2e33318b06a3", "ext4",
            false, Map.of("Test-Key", "Test-Value")));
      }
      ObjectMeta meta = ObjectMeta.builder().name(storeName(name, uids)).labels(labels).annotations(annotations)
          .finalizers(finalizers).build();
      return new PersistentVolume(meta, spec.build(), new PersistentVolumeStatus(phase, message, "", null));
    }
  }

  /** A volume name as the store spells it (see the class comment). */
  static String storeName(String volumeName) {
    return volumeName.replace('_', '-');
  }

  /**
   * A volume name as the store spells it, where a provisioned volume's name {@code pvc-<claim uid>} (e.g.
   * {@code pvc-uid11-1}) has the uid the store gave that claim.
   */
  static String storeName(String volumeName, Map<String, String> uids) {
    String prefix = PersistentVolumeController.VOLUME_NAME_PREFIX;
    if (volumeName.startsWith(prefix) && uids.containsKey(volumeName.substring(prefix.length()))) {
      return prefix + uids.get(volumeName.substring(prefix.length()));
    }
    return storeName(volumeName);
  }

  static Vol volume(String name, String capacity, String claimUid, String claimName, PersistentVolumePhase phase,
      PersistentVolumeReclaimPolicy policy, String cls, String... annotations) {
    Map<String, String> ann = new LinkedHashMap<>();
    for (String a : annotations) {
      ann.put(a, "yes");
    }
    return new Vol(name, capacity, claimUid, claimName, phase, policy, cls, ann, Map.of(), FILESYSTEM, "", null,
        List.of(), false);
  }

  static List<Vol> volumes(Vol... v) {
    return List.of(v);
  }

  /**
   * Upstream's {@code newClaim}: a claim in {@code default} asking for RWO+ROX in Filesystem mode; a Bound claim has
   * its requested modes and size as its status (or {@code expectedCapacity}, upstream's {@code withExpectedCapacity}).
   */
  record Claim(String name, String uid, String capacity, String volumeName, PersistentVolumeClaimPhase phase,
      @Nullable String cls, Map<String, String> annotations, @Nullable Map<String, String> selector,
      List<PersistentVolumeAccessMode> modes, PersistentVolumeMode mode, @Nullable String expectedCapacity) {
    /** Upstream's {@code withLabelSelector}. */
    Claim withSelector(Map<String, String> labels) {
      return new Claim(name, uid, capacity, volumeName, phase, cls, annotations, labels, modes, mode,
          expectedCapacity);
    }

    /** Upstream's {@code withClaimVolumeMode}. */
    Claim withMode(PersistentVolumeMode m) {
      return new Claim(name, uid, capacity, volumeName, phase, cls, annotations, selector, modes, m,
          expectedCapacity);
    }

    /** Upstream's {@code withExpectedCapacity}. */
    Claim withExpectedCapacity(String c) {
      return new Claim(name, uid, capacity, volumeName, phase, cls, annotations, selector, modes, mode, c);
    }

    /** Upstream's {@code claimWithAccessMode}. */
    Claim withAccessModes(List<PersistentVolumeAccessMode> m) {
      return new Claim(name, uid, capacity, volumeName, phase, cls, annotations, selector, m, mode,
          expectedCapacity);
    }

    /** Upstream's {@code claimWithAnnotation}. */
    Claim withAnnotation(String key, String value) {
      Map<String, String> ann = new LinkedHashMap<>(annotations);
      ann.put(key, value);
      return new Claim(name, uid, capacity, volumeName, phase, cls, ann, selector, modes, mode, expectedCapacity);
    }

    PersistentVolumeClaimSpec spec(Map<String, String> uids) {
      return PersistentVolumeClaimSpec.builder().accessModes(modes).storage(capacity).storageClassName(cls)
          .volumeMode(mode).volumeName(storeName(volumeName, uids))
          .selector(selector == null ? null : LabelSelector.of(selector)).build();
    }

    PersistentVolumeClaimStatus status() {
      if (phase != CLAIM_BOUND) {
        return new PersistentVolumeClaimStatus(phase, List.of(), ResourceList.EMPTY, List.of());
      }
      String size = expectedCapacity == null ? capacity : expectedCapacity;
      return new PersistentVolumeClaimStatus(phase, modes, ResourceList.builder().put("storage", size).build(),
          List.of());
    }

    PersistentVolumeClaim toObject(Map<String, String> uids) {
      ObjectMeta meta = ObjectMeta.builder().namespace(NS).name(name).annotations(annotations).build();
      return new PersistentVolumeClaim(meta, spec(uids), status());
    }
  }

  static Claim claim(String name, String uid, String capacity, String volumeName, PersistentVolumeClaimPhase phase,
      @Nullable String cls, String... annotations) {
    Map<String, String> ann = new LinkedHashMap<>();
    for (String a : annotations) {
      ann.put(a, "yes");
    }
    return new Claim(name, uid, capacity, volumeName, phase, cls, ann, null, RWO_ROX, FILESYSTEM, null);
  }

  static List<Claim> claims(Claim... c) {
    return List.of(c);
  }

  /**
   * One row of upstream's table: {@code name} is upstream's case name; {@code setup} what upstream's test wraps
   * around the call (mock plugin calls, failing API writes, nodes).
   */
  record Case(String name, List<Vol> initialVolumes, List<Vol> expectedVolumes, List<Claim> initialClaims,
      List<Claim> expectedClaims, List<String> events, Call call, Setup setup) {
    @Override
    public String toString() {
      return name;
    }

    /** Upstream's {@code wrapTestWithReclaimCalls(operationDelete, ...)}: delete results in turn (null: success). */
    Case withDeleteCalls(@Nullable String... results) {
      List<Optional<String>> calls = new ArrayList<>();
      for (String r : results) {
        calls.add(Optional.ofNullable(r));
      }
      return new Case(name, initialVolumes, expectedVolumes, initialClaims, expectedClaims, events, call,
          new Setup(calls, setup.provisionCalls(), setup.createErrors(), setup.nodes()));
    }

    /** Upstream's {@code wrapTestWithProvisionCalls}: provision calls in turn. */
    Case withProvisionCalls(ProvisionCall... calls) {
      return new Case(name, initialVolumes, expectedVolumes, initialClaims, expectedClaims, events, call,
          new Setup(setup.deleteCalls(), List.of(calls), setup.createErrors(), setup.nodes()));
    }

    /**
     * Upstream's reactor errors on {@code create persistentvolumes}: each create of a volume by the controller fails
     * in turn, {@link #UNAVAILABLE} as a store failure, {@link #ALREADY_EXISTS} as a conflict (nothing is saved).
     */
    Case withCreateErrors(String... errors) {
      return new Case(name, initialVolumes, expectedVolumes, initialClaims, expectedClaims, events, call,
          new Setup(setup.deleteCalls(), setup.provisionCalls(), List.of(errors), setup.nodes()));
    }

    /** Nodes in the store (upstream's node lister). */
    Case withNodes(String... nodes) {
      return new Case(name, initialVolumes, expectedVolumes, initialClaims, expectedClaims, events, call,
          new Setup(setup.deleteCalls(), setup.provisionCalls(), setup.createErrors(), List.of(nodes)));
    }
  }

  /**
   * What a row's test wraps around the call. With {@code deleteCalls} or {@code provisionCalls} (not {@code null})
   * upstream's mock plugin is registered as the provisioner {@value #MOCK_PLUGIN}: it answers these calls in turn, and
   * every configured delete call must be used.
   */
  record Setup(@Nullable List<Optional<String>> deleteCalls, @Nullable List<ProvisionCall> provisionCalls,
      List<String> createErrors, List<String> nodes) {
    static final Setup NONE = new Setup(null, null, List.of(), List.of());
  }

  /** Upstream's {@code provisionCall}: the class parameters the call must see, and its failure (null: success). */
  record ProvisionCall(Map<String, String> expectedParameters, @Nullable String error) {}

  static final String UNAVAILABLE = "unavailable";
  static final String ALREADY_EXISTS = "already exists";

  static Case row(String name, List<Vol> initialVolumes, List<Vol> expectedVolumes, List<Claim> initialClaims,
      List<Claim> expectedClaims, List<String> events, Call call) {
    return new Case(name, initialVolumes, expectedVolumes, initialClaims, expectedClaims, events, call, Setup.NONE);
  }

  /** Upstream's {@code mockPluginName}: the name the mock plugin is registered under. */
  static final String MOCK_PLUGIN = "kubernetes.io/mock-volume";

  /**
   * Upstream's mock volume plugin: provisions a volume of the claim's size, modes and volume mode with the class's
   * reclaim policy, or fails, per configured call; deletes per configured call. Calls beyond the configured ones
   * fail, as upstream's.
   */
  private static final class MockPlugin implements VolumeProvisioner {
    private final Deque<Optional<String>> deletes;
    private final Deque<ProvisionCall> provisions;
    private final List<String> problems = new ArrayList<>();

    MockPlugin(Setup setup) {
      this.deletes = new ArrayDeque<>(setup.deleteCalls() == null ? List.of() : setup.deleteCalls());
      this.provisions = new ArrayDeque<>(setup.provisionCalls() == null ? List.of() : setup.provisionCalls());
    }

    @Override
    public String name() {
      return MOCK_PLUGIN;
    }

    @Override
    public synchronized ProvisionResult provision(ProvisionRequest request) {
      ProvisionCall next = provisions.poll();
      if (next == null) {
        return ProvisionResult.failed("Mock plugin error: no provisionCalls configured");
      }
      if (!next.expectedParameters().equals(request.storageClass().spec().parameters())) {
        problems.add("provision call with parameters " + request.storageClass().spec().parameters()
            + ", expected " + next.expectedParameters());
      }
      if (next.error() != null) {
        return ProvisionResult.failed(next.error());
      }
      PersistentVolumeClaim claim = request.claim();
      PersistentVolumeSpec spec = PersistentVolumeSpec.builder()
          .capacity(ResourceList.builder().put("storage", claim.requestedStorage()).build())
          .accessModes(claim.spec().accessModes())
          .persistentVolumeReclaimPolicy(request.storageClass().reclaimPolicy())
          .volumeMode(claim.spec().volumeMode()).build();
      return ProvisionResult.provisioned(PersistentVolume.of(ObjectMeta.of(request.volumeName()), spec));
    }

    @Override
    public synchronized Optional<String> delete(PersistentVolume volume) {
      Optional<String> next = deletes.poll();
      return next == null ? Optional.of("Mock plugin error: no deleteCalls configured") : next;
    }

    synchronized int remainingDeletes() {
      return deletes.size();
    }

    synchronized List<String> problems() {
      return List.copyOf(problems);
    }
  }

  /** The store as upstream's reactor: creates of volumes fail as configured, once armed. */
  private static final class FailingCreates extends ForwardingObjectStore {
    private final Deque<String> errors;
    private volatile boolean armed;

    FailingCreates(ObjectStore delegate, List<String> errors) {
      super(delegate);
      this.errors = new ArrayDeque<>(errors);
    }

    @Override
    public <T extends ApiObject<T>> T create(T object) {
      if (armed && object instanceof PersistentVolume) {
        String error;
        synchronized (errors) {
          error = errors.poll();
        }
        if (ALREADY_EXISTS.equals(error)) {
          throw new ConflictException(object.describe() + " already exists");
        }
        if (error != null) {
          throw new StoreUnavailableException("Mock creation error", null);
        }
      }
      return super.create(object);
    }
  }

  /** Runs {@code c} on a fresh store holding {@code classes} and checks its expectations. */
  static void run(Case c, List<StorageClass> classes) {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore base = ObjectStore.builder().clock(clock).build()) {
      FailingCreates store = new FailingCreates(base, c.setup().createErrors());
      List<String> events = new CopyOnWriteArrayList<>();
      EventRecorder recorder = (regarding, related, type, reason, action, note) -> events.add(type + " " + reason);
      PersistentVolumeController.Builder builder = PersistentVolumeController.builder(store).clock(clock)
          .events(recorder);
      MockPlugin mock = c.setup().deleteCalls() == null && c.setup().provisionCalls() == null ? null
          : new MockPlugin(c.setup());
      if (mock != null) {
        builder.provisioner(mock);
      }
      PersistentVolumeController controller = builder.build();
      classes.forEach(store::create);
      c.setup().nodes().forEach(n -> store.create(Node.builder().name(n).build()));
      Map<String, String> uids = new HashMap<>();
      for (Claim claim : c.initialClaims()) {
        uids.put(claim.uid(), store.create(claim.toObject(uids)).metadata().uid());
      }
      for (Vol v : c.initialVolumes()) {
        store.create(v.toObject(uids));
        if (v.deleting()) {
          store.delete(PersistentVolume.class, "", storeName(v.name()));
        }
      }
      store.armed = true;

      Optional<String> error = switch (c.call()) {
        case SYNC_CLAIM, SYNC_CLAIM_ERROR -> controller.syncClaim(NS, c.initialClaims().get(0).name());
        case SYNC_VOLUME -> controller.syncVolume(storeName(c.initialVolumes().get(0).name()));
        case MULTI_SYNC_CLAIM -> multiSync(store, controller,
            () -> controller.syncClaim(NS, c.initialClaims().get(0).name()));
        case MULTI_SYNC_VOLUME -> multiSync(store, controller,
            () -> controller.syncVolume(storeName(c.initialVolumes().get(0).name())));
      };
      if (c.call() == Call.SYNC_CLAIM_ERROR) {
        assertThat(error).as("%s: the sync fails", c.name()).isPresent();
      } else {
        assertThat(error).as("%s: the sync succeeds", c.name()).isEmpty();
      }

      checkVolumes(c, store, uids);
      checkClaims(c, store, uids);
      assertThat(events).as("%s: events", c.name()).containsExactlyElementsOf(c.events());
      if (mock != null) {
        assertThat(mock.remainingDeletes()).as("%s: unused delete calls", c.name()).isZero();
        assertThat(mock.problems()).as("%s: mock plugin calls", c.name()).isEmpty();
      }
    }
  }

  /** The case's sync, then whole syncs (upstream's periodic sync) until a sync changes nothing. */
  private static Optional<String> multiSync(ObjectStore store, PersistentVolumeController controller,
      Supplier<Optional<String>> firstSync) {
    Optional<String> first = firstSync.get();
    if (first.isPresent()) {
      return first;
    }
    for (int round = 0; round < 20; round++) {
      Map<String, String> before = versions(store);
      controller.syncAll();
      if (versions(store).equals(before)) {
        return Optional.empty();
      }
    }
    return Optional.of("the controller did not settle after 20 whole syncs");
  }

  private static Map<String, String> versions(ObjectStore store) {
    Map<String, String> v = new TreeMap<>();
    store.list(PersistentVolume.class).items().forEach(
        x -> v.put("pv/" + x.metadata().name(), x.metadata().resourceVersion()));
    store.list(PersistentVolumeClaim.class).items().forEach(
        x -> v.put("pvc/" + x.metadata().name(), x.metadata().resourceVersion()));
    return v;
  }

  private static void checkVolumes(Case c, ObjectStore store, Map<String, String> uids) {
    Map<String, PersistentVolume> actual = new TreeMap<>();
    store.list(PersistentVolume.class).items().forEach(v -> actual.put(v.metadata().name(), v));
    List<String> expectedNames = new ArrayList<>();
    c.expectedVolumes().forEach(v -> expectedNames.add(storeName(v.name(), uids)));
    Collections.sort(expectedNames);
    assertThat(actual.keySet()).as("%s: volumes", c.name()).containsExactlyElementsOf(expectedNames);
    for (Vol v : c.expectedVolumes()) {
      PersistentVolume want = v.toObject(uids);
      PersistentVolume got = actual.get(storeName(v.name(), uids));
      String what = c.name() + ": volume " + v.name();
      assertThat(got.spec()).as("%s spec", what).isEqualTo(want.spec());
      assertThat(got.metadata().annotations()).as("%s annotations", what)
          .isEqualTo(want.metadata().annotations());
      assertThat(got.metadata().labels()).as("%s labels", what).isEqualTo(want.metadata().labels());
      assertThat(got.metadata().finalizers()).as("%s finalizers", what).isEqualTo(want.metadata().finalizers());
      assertThat(got.status().phase()).as("%s phase", what).isEqualTo(want.status().phase());
      assertThat(got.status().message()).as("%s message", what).isEqualTo(want.status().message());
    }
  }

  private static void checkClaims(Case c, ObjectStore store, Map<String, String> uids) {
    Map<String, PersistentVolumeClaim> actual = new TreeMap<>();
    store.list(PersistentVolumeClaim.class).items().forEach(x -> actual.put(x.metadata().name(), x));
    List<String> expectedNames = new ArrayList<>();
    c.expectedClaims().forEach(x -> expectedNames.add(x.name()));
    Collections.sort(expectedNames);
    assertThat(actual.keySet()).as("%s: claims", c.name()).containsExactlyElementsOf(expectedNames);
    for (Claim x : c.expectedClaims()) {
      PersistentVolumeClaim want = x.toObject(uids);
      PersistentVolumeClaim got = actual.get(x.name());
      String what = c.name() + ": claim " + x.name();
      assertThat(got.spec()).as("%s spec", what).isEqualTo(want.spec());
      assertThat(got.metadata().annotations()).as("%s annotations", what)
          .isEqualTo(want.metadata().annotations());
      // FleetKit also keeps a failed provisioning as the claim's ProvisioningFailed condition (upstream: an event
      // only), which upstream's expected claims cannot hold: that condition is not compared.
      PersistentVolumeClaimStatus s = got.status();
      PersistentVolumeClaimStatus compared = new PersistentVolumeClaimStatus(s.phase(), s.accessModes(),
          s.capacity(), s.conditions().stream()
              .filter(k -> !k.type().equals(PersistentVolumeController.PROVISIONING_FAILED)).toList());
      assertThat(compared).as("%s status", what).isEqualTo(want.status());
    }
  }
}
