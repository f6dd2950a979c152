package io.fleetkit.storage;

import static io.fleetkit.storage.SyncTable.AVAILABLE;
import static io.fleetkit.storage.SyncTable.BIND_COMPLETED;
import static io.fleetkit.storage.SyncTable.BOUND;
import static io.fleetkit.storage.SyncTable.BOUND_BY_CONTROLLER;
import static io.fleetkit.storage.SyncTable.CLAIM_BOUND;
import static io.fleetkit.storage.SyncTable.CLAIM_LOST;
import static io.fleetkit.storage.SyncTable.CLAIM_PENDING;
import static io.fleetkit.storage.SyncTable.CLASS_EMPTY;
import static io.fleetkit.storage.SyncTable.CLASS_GOLD;
import static io.fleetkit.storage.SyncTable.CLASS_SILVER;
import static io.fleetkit.storage.SyncTable.CLASS_WAIT;
import static io.fleetkit.storage.SyncTable.DELETE;
import static io.fleetkit.storage.SyncTable.FAILED;
import static io.fleetkit.storage.SyncTable.NO_EVENTS;
import static io.fleetkit.storage.SyncTable.PENDING;
import static io.fleetkit.storage.SyncTable.RELEASED;
import static io.fleetkit.storage.SyncTable.RETAIN;
import static io.fleetkit.storage.SyncTable.SELECTED_NODE;
import static io.fleetkit.storage.SyncTable.claim;
import static io.fleetkit.storage.SyncTable.claims;
import static io.fleetkit.storage.SyncTable.row;
import static io.fleetkit.storage.SyncTable.volume;
import static io.fleetkit.storage.SyncTable.volumes;

import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.storage.StorageAnnotations;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.StorageClassSpec;
import io.fleetkit.api.storage.VolumeBindingMode;
import io.fleetkit.storage.SyncTable.Call;
import io.fleetkit.storage.SyncTable.Case;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes/kubernetes {@code pkg/controller/volume/persistentvolume/binder_test.go}, TestSync and
 * TestMultiSync (the stored version whose TestSync has cases 4-9 to 4-12 and the VolumeAttributesClass cases 2-11 to
 * 2-13; its cases up to 13-5 equal commit d68e3f8f's), with the controller's behaviour as {@code pv_controller.go}
 * of the same generation. Each row is one upstream case, by its name: one sync of the first claim or volume
 * ({@code testSyncClaim}, {@code testSyncClaimError}, {@code testSyncVolume}), or for TestMultiSync syncs until the
 * controller settles. See {@link SyncTable} for how rows are run and compared.
 *
 * <p>Not ported: 2-11, 2-12, 2-13 (VolumeAttributesClass: FleetKit's claims and volumes have no
 * volumeAttributesClassName). Upstream runs TestSync with the VolumeAttributesClass gate on and off; FleetKit has no
 * gates, so each case runs once. Upstream's class {@code wait} has no provisioner; FleetKit requires one, so it
 * names {@value StorageAnnotations#NO_PROVISIONER} (no case provisions from it).
 */
final class BinderSyncTest {
  private static final Map<String, String> LABELS = Map.of("foo", "true", "bar", "false");

  /** TestSync's only class: {@code wait}, binding on first consumer. */
  private static final List<StorageClass> CLASSES = List.of(StorageClass.of(ObjectMeta.of(CLASS_WAIT),
      StorageClassSpec.builder().provisioner(StorageAnnotations.NO_PROVISIONER)
          .volumeBindingMode(VolumeBindingMode.WaitForFirstConsumer).build()));

  @ParameterizedTest(name = "{0}")
  @MethodSource("testSync")
  void testSync(Case c) {
    SyncTable.run(c, CLASSES);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("testMultiSync")
  void testMultiSync(Case c) {
    SyncTable.run(c, List.of());
  }

  static Stream<Case> testSync() {
    return Stream.of(
        // [Unit test set 1] User did not care which PV they get.
        row("1-1 - successful bind",
            volumes(volume("volume1-1", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume1-1", "1Gi", "uid1-1", "claim1-1", BOUND, RETAIN, CLASS_EMPTY, BOUND_BY_CONTROLLER)),
            claims(claim("claim1-1", "uid1-1", "1Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim1-1", "uid1-1", "1Gi", "volume1-1", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("1-2 - noop",
            volumes(volume("volume1-2", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume1-2", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(claim("claim1-2", "uid1-2", "10Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim1-2", "uid1-2", "10Gi", "", CLAIM_PENDING, null)),
            List.of("Normal FailedBinding"), Call.SYNC_CLAIM),
        row("1-3 - reset to Pending",
            volumes(volume("volume1-3", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume1-3", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(claim("claim1-3", "uid1-3", "10Gi", "", CLAIM_BOUND, null)),
            claims(claim("claim1-3", "uid1-3", "10Gi", "", CLAIM_PENDING, null)),
            List.of("Normal FailedBinding"), Call.SYNC_CLAIM),
        row("1-4 - smallest volume",
            volumes(volume("volume1-4_1", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY),
                volume("volume1-4_2", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume1-4_1", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY),
                volume("volume1-4_2", "1Gi", "uid1-4", "claim1-4", BOUND, RETAIN, CLASS_EMPTY, BOUND_BY_CONTROLLER)),
            claims(claim("claim1-4", "uid1-4", "1Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim1-4", "uid1-4", "1Gi", "volume1-4_2", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("1-5 - prebound volume by name - success",
            volumes(volume("volume1-5_1", "10Gi", "", "claim1-5", AVAILABLE, RETAIN, CLASS_EMPTY),
                volume("volume1-5_2", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume1-5_1", "10Gi", "uid1-5", "claim1-5", BOUND, RETAIN, CLASS_EMPTY),
                volume("volume1-5_2", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(claim("claim1-5", "uid1-5", "1Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim1-5", "uid1-5", "1Gi", "volume1-5_1", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED).withExpectedCapacity("10Gi")),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("1-6 - prebound volume by UID - success",
            volumes(volume("volume1-6_1", "10Gi", "uid1-6", "claim1-6", AVAILABLE, RETAIN, CLASS_EMPTY),
                volume("volume1-6_2", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume1-6_1", "10Gi", "uid1-6", "claim1-6", BOUND, RETAIN, CLASS_EMPTY),
                volume("volume1-6_2", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(claim("claim1-6", "uid1-6", "1Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim1-6", "uid1-6", "1Gi", "volume1-6_1", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED).withExpectedCapacity("10Gi")),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("1-7 - prebound volume to different claim",
            volumes(volume("volume1-7", "10Gi", "uid1-777", "claim1-7", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume1-7", "10Gi", "uid1-777", "claim1-7", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(claim("claim1-7", "uid1-7", "1Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim1-7", "uid1-7", "1Gi", "", CLAIM_PENDING, null)),
            List.of("Normal FailedBinding"), Call.SYNC_CLAIM),
        row("1-8 - complete bind after crash - PV bound",
            volumes(volume("volume1-8", "1Gi", "uid1-8", "claim1-8", AVAILABLE, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER)),
            volumes(volume("volume1-8", "1Gi", "uid1-8", "claim1-8", BOUND, RETAIN, CLASS_EMPTY, BOUND_BY_CONTROLLER)),
            claims(claim("claim1-8", "uid1-8", "1Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim1-8", "uid1-8", "1Gi", "volume1-8", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("1-9 - complete bind after crash - PV status saved",
            volumes(volume("volume1-9", "1Gi", "uid1-9", "claim1-9", BOUND, RETAIN, CLASS_EMPTY, BOUND_BY_CONTROLLER)),
            volumes(volume("volume1-9", "1Gi", "uid1-9", "claim1-9", BOUND, RETAIN, CLASS_EMPTY, BOUND_BY_CONTROLLER)),
            claims(claim("claim1-9", "uid1-9", "1Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim1-9", "uid1-9", "1Gi", "volume1-9", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("1-10 - complete bind after crash - PVC bound",
            volumes(volume("volume1-10", "1Gi", "uid1-10", "claim1-10", BOUND, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER)),
            volumes(volume("volume1-10", "1Gi", "uid1-10", "claim1-10", BOUND, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER)),
            claims(claim("claim1-10", "uid1-10", "1Gi", "volume1-10", CLAIM_PENDING, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            claims(claim("claim1-10", "uid1-10", "1Gi", "volume1-10", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("1-11 - bind when selector matches",
            volumes(volume("volume1-1", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY).withLabels(LABELS)),
            volumes(volume("volume1-1", "1Gi", "uid1-1", "claim1-1", BOUND, RETAIN, CLASS_EMPTY, BOUND_BY_CONTROLLER)
                .withLabels(LABELS)),
            claims(claim("claim1-1", "uid1-1", "1Gi", "", CLAIM_PENDING, null).withSelector(LABELS)),
            claims(claim("claim1-1", "uid1-1", "1Gi", "volume1-1", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED).withSelector(LABELS)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("1-12 - do not bind when selector does not match",
            volumes(volume("volume1-1", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume1-1", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(claim("claim1-1", "uid1-1", "1Gi", "", CLAIM_PENDING, null).withSelector(LABELS)),
            claims(claim("claim1-1", "uid1-1", "1Gi", "", CLAIM_PENDING, null).withSelector(LABELS)),
            List.of("Normal FailedBinding"), Call.SYNC_CLAIM),
        row("1-13 - delayed binding",
            volumes(volume("volume1-1", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_WAIT)),
            volumes(volume("volume1-1", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_WAIT)),
            claims(claim("claim1-1", "uid1-1", "1Gi", "", CLAIM_PENDING, CLASS_WAIT)),
            claims(claim("claim1-1", "uid1-1", "1Gi", "", CLAIM_PENDING, CLASS_WAIT)),
            List.of("Normal WaitForFirstConsumer"), Call.SYNC_CLAIM),
        row("1-14 - successful prebound PV",
            volumes(volume("volume1-1", "1Gi", "", "claim1-1", AVAILABLE, RETAIN, CLASS_WAIT)),
            volumes(volume("volume1-1", "1Gi", "uid1-1", "claim1-1", BOUND, RETAIN, CLASS_WAIT)),
            claims(claim("claim1-1", "uid1-1", "1Gi", "", CLAIM_PENDING, CLASS_WAIT)),
            claims(claim("claim1-1", "uid1-1", "1Gi", "volume1-1", CLAIM_BOUND, CLASS_WAIT, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("1-15 - successful prebound PVC",
            volumes(volume("volume1-15_1", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY),
                volume("volume1-15_2", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume1-15_1", "10Gi", "uid1-15", "claim1-15", BOUND, RETAIN, CLASS_EMPTY,
                    BOUND_BY_CONTROLLER),
                volume("volume1-15_2", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(claim("claim1-15", "uid1-15", "1Gi", "volume1-15_1", CLAIM_PENDING, null)),
            claims(claim("claim1-15", "uid1-15", "1Gi", "volume1-15_1", CLAIM_BOUND, null, BIND_COMPLETED)
                .withExpectedCapacity("10Gi")),
            NO_EVENTS, Call.SYNC_CLAIM),
        // Upstream's table lists no event; its controller emits VolumeMismatch (incompatible accessMode).
        row("1-16 - successful prebound PVC",
            volumes(volume("volume1-16", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume1-16", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(claim("claim1-16", "uid1-16", "1Gi", "volume1-16", CLAIM_PENDING, null)
                .withAccessModes(List.of(PersistentVolumeAccessMode.ReadWriteMany))),
            claims(claim("claim1-16", "uid1-16", "1Gi", "volume1-16", CLAIM_PENDING, null)
                .withAccessModes(List.of(PersistentVolumeAccessMode.ReadWriteMany))),
            List.of("Warning VolumeMismatch"), Call.SYNC_CLAIM),
        // Upstream's "volume1-17-empty" has phase "": the API server defaults it to Pending, as FleetKit's model
        // does. Upstream's table lists no event; its controller emits FailedBinding (no match, no class).
        row("1-17 - skip non-available PV if it's not pre-bind",
            volumes(volume("volume1-17-pending", "1Gi", "", "", PENDING, RETAIN, CLASS_EMPTY),
                volume("volume1-17-failed", "1Gi", "", "", FAILED, RETAIN, CLASS_EMPTY),
                volume("volume1-17-released", "1Gi", "", "", RELEASED, RETAIN, CLASS_EMPTY),
                volume("volume1-17-empty", "1Gi", "", "", PENDING, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume1-17-pending", "1Gi", "", "", PENDING, RETAIN, CLASS_EMPTY),
                volume("volume1-17-failed", "1Gi", "", "", FAILED, RETAIN, CLASS_EMPTY),
                volume("volume1-17-released", "1Gi", "", "", RELEASED, RETAIN, CLASS_EMPTY),
                volume("volume1-17-empty", "1Gi", "", "", PENDING, RETAIN, CLASS_EMPTY)),
            claims(claim("claim1-17", "uid1-17", "1Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim1-17", "uid1-17", "1Gi", "", CLAIM_PENDING, null)),
            List.of("Normal FailedBinding"), Call.SYNC_CLAIM),
        row("1-18 - successful pre-bound PV to PVC provisioning",
            volumes(volume("volume1-18", "1Gi", "uid1-18", "claim1-18", AVAILABLE, RETAIN, CLASS_WAIT)),
            volumes(volume("volume1-18", "1Gi", "uid1-18", "claim1-18", BOUND, RETAIN, CLASS_WAIT)),
            claims(claim("claim1-18", "uid1-18", "1Gi", "", CLAIM_PENDING, CLASS_WAIT)
                .withAnnotation(SELECTED_NODE, "node1")),
            claims(claim("claim1-18", "uid1-18", "1Gi", "volume1-18", CLAIM_BOUND, CLASS_WAIT, BOUND_BY_CONTROLLER,
                BIND_COMPLETED).withAnnotation(SELECTED_NODE, "node1")),
            NO_EVENTS, Call.SYNC_CLAIM),

        // [Unit test set 2] User asked for a specific PV.
        row("2-1 - claim prebound to non-existing volume - noop",
            volumes(),
            volumes(),
            claims(claim("claim2-1", "uid2-1", "10Gi", "volume2-1", CLAIM_PENDING, null)),
            claims(claim("claim2-1", "uid2-1", "10Gi", "volume2-1", CLAIM_PENDING, null)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("2-2 - claim prebound to non-existing volume - reset status",
            volumes(),
            volumes(),
            claims(claim("claim2-2", "uid2-2", "10Gi", "volume2-2", CLAIM_BOUND, null)),
            claims(claim("claim2-2", "uid2-2", "10Gi", "volume2-2", CLAIM_PENDING, null)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("2-3 - claim prebound to unbound volume",
            volumes(volume("volume2-3", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume2-3", "1Gi", "uid2-3", "claim2-3", BOUND, RETAIN, CLASS_EMPTY, BOUND_BY_CONTROLLER)),
            claims(claim("claim2-3", "uid2-3", "1Gi", "volume2-3", CLAIM_PENDING, null)),
            claims(claim("claim2-3", "uid2-3", "1Gi", "volume2-3", CLAIM_BOUND, null, BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("2-4 - claim prebound to prebound volume by name",
            volumes(volume("volume2-4", "1Gi", "", "claim2-4", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume2-4", "1Gi", "uid2-4", "claim2-4", BOUND, RETAIN, CLASS_EMPTY)),
            claims(claim("claim2-4", "uid2-4", "1Gi", "volume2-4", CLAIM_PENDING, null)),
            claims(claim("claim2-4", "uid2-4", "1Gi", "volume2-4", CLAIM_BOUND, null, BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("2-5 - claim prebound to prebound volume by UID",
            volumes(volume("volume2-5", "1Gi", "uid2-5", "claim2-5", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume2-5", "1Gi", "uid2-5", "claim2-5", BOUND, RETAIN, CLASS_EMPTY)),
            claims(claim("claim2-5", "uid2-5", "1Gi", "volume2-5", CLAIM_PENDING, null)),
            claims(claim("claim2-5", "uid2-5", "1Gi", "volume2-5", CLAIM_BOUND, null, BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM),
        // Upstream's table lists no event; its controller emits a Warning FailedBinding ("volume already bound to a
        // different claim").
        row("2-6 - claim prebound to already bound volume",
            volumes(volume("volume2-6", "1Gi", "uid2-6_1", "claim2-6_1", BOUND, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume2-6", "1Gi", "uid2-6_1", "claim2-6_1", BOUND, RETAIN, CLASS_EMPTY)),
            claims(claim("claim2-6", "uid2-6", "1Gi", "volume2-6", CLAIM_BOUND, null)),
            claims(claim("claim2-6", "uid2-6", "1Gi", "volume2-6", CLAIM_PENDING, null)),
            List.of("Warning FailedBinding"), Call.SYNC_CLAIM),
        // As 2-6 (the event), and the sync fails.
        row("2-7 - claim bound by controller to already bound volume",
            volumes(volume("volume2-7", "1Gi", "uid2-7_1", "claim2-7_1", BOUND, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume2-7", "1Gi", "uid2-7_1", "claim2-7_1", BOUND, RETAIN, CLASS_EMPTY)),
            claims(claim("claim2-7", "uid2-7", "1Gi", "volume2-7", CLAIM_BOUND, null, BOUND_BY_CONTROLLER)),
            claims(claim("claim2-7", "uid2-7", "1Gi", "volume2-7", CLAIM_BOUND, null, BOUND_BY_CONTROLLER)),
            List.of("Warning FailedBinding"), Call.SYNC_CLAIM_ERROR),
        row("2-8 - claim prebound to unbound volume that does not match the selector",
            volumes(volume("volume2-8", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume2-8", "1Gi", "uid2-8", "claim2-8", BOUND, RETAIN, CLASS_EMPTY, BOUND_BY_CONTROLLER)),
            claims(claim("claim2-8", "uid2-8", "1Gi", "volume2-8", CLAIM_PENDING, null).withSelector(LABELS)),
            claims(claim("claim2-8", "uid2-8", "1Gi", "volume2-8", CLAIM_BOUND, null, BIND_COMPLETED)
                .withSelector(LABELS)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("2-9 - claim prebound to unbound volume that size is smaller than requested",
            volumes(volume("volume2-9", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume2-9", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(claim("claim2-9", "uid2-9", "2Gi", "volume2-9", CLAIM_BOUND, null)),
            claims(claim("claim2-9", "uid2-9", "2Gi", "volume2-9", CLAIM_PENDING, null)),
            List.of("Warning VolumeMismatch"), Call.SYNC_CLAIM),
        // Upstream's initial volume has a claim uid "1" but no claim name, hence no claim reference.
        row("2-10 - claim prebound to unbound volume that class is different",
            volumes(volume("volume2-10", "1Gi", "1", "", AVAILABLE, RETAIN, CLASS_GOLD)),
            volumes(volume("volume2-10", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_GOLD)),
            claims(claim("claim2-10", "uid2-10", "1Gi", "volume2-10", CLAIM_BOUND, null)),
            claims(claim("claim2-10", "uid2-10", "1Gi", "volume2-10", CLAIM_PENDING, null)),
            List.of("Warning VolumeMismatch"), Call.SYNC_CLAIM),

        // [Unit test set 3] Syncing bound claim
        row("3-1 - bound claim with missing VolumeName",
            volumes(),
            volumes(),
            claims(claim("claim3-1", "uid3-1", "10Gi", "", CLAIM_BOUND, null, BOUND_BY_CONTROLLER, BIND_COMPLETED)),
            claims(claim("claim3-1", "uid3-1", "10Gi", "", CLAIM_LOST, null, BOUND_BY_CONTROLLER, BIND_COMPLETED)),
            List.of("Warning ClaimLost"), Call.SYNC_CLAIM),
        row("3-2 - bound claim with missing volume",
            volumes(),
            volumes(),
            claims(claim("claim3-2", "uid3-2", "10Gi", "volume3-2", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            claims(claim("claim3-2", "uid3-2", "10Gi", "volume3-2", CLAIM_LOST, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            List.of("Warning ClaimLost"), Call.SYNC_CLAIM),
        row("3-3 - bound claim with unbound volume",
            volumes(volume("volume3-3", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume3-3", "10Gi", "uid3-3", "claim3-3", BOUND, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER)),
            claims(claim("claim3-3", "uid3-3", "10Gi", "volume3-3", CLAIM_PENDING, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            claims(claim("claim3-3", "uid3-3", "10Gi", "volume3-3", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("3-4 - bound claim with prebound volume",
            volumes(volume("volume3-4", "10Gi", "claim3-4-x", "claim3-4", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume3-4", "10Gi", "claim3-4-x", "claim3-4", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(claim("claim3-4", "uid3-4", "10Gi", "volume3-4", CLAIM_PENDING, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            claims(claim("claim3-4", "uid3-4", "10Gi", "volume3-4", CLAIM_LOST, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            List.of("Warning ClaimMisbound"), Call.SYNC_CLAIM),
        row("3-5 - bound claim with bound volume",
            volumes(volume("volume3-5", "10Gi", "uid3-5", "claim3-5", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume3-5", "10Gi", "uid3-5", "claim3-5", BOUND, RETAIN, CLASS_EMPTY)),
            claims(claim("claim3-5", "uid3-5", "10Gi", "volume3-5", CLAIM_PENDING, null, BIND_COMPLETED)),
            claims(claim("claim3-5", "uid3-5", "10Gi", "volume3-5", CLAIM_BOUND, null, BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("3-6 - bound claim with bound volume",
            volumes(volume("volume3-6", "10Gi", "uid3-6-x", "claim3-6-x", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume3-6", "10Gi", "uid3-6-x", "claim3-6-x", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(claim("claim3-6", "uid3-6", "10Gi", "volume3-6", CLAIM_PENDING, null, BIND_COMPLETED)),
            claims(claim("claim3-6", "uid3-6", "10Gi", "volume3-6", CLAIM_LOST, null, BIND_COMPLETED)),
            List.of("Warning ClaimMisbound"), Call.SYNC_CLAIM),
        row("3-7 - bound claim with unbound volume where selector doesn't match",
            volumes(volume("volume3-3", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume3-3", "10Gi", "uid3-3", "claim3-3", BOUND, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER)),
            claims(claim("claim3-3", "uid3-3", "10Gi", "volume3-3", CLAIM_PENDING, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED).withSelector(LABELS)),
            claims(claim("claim3-3", "uid3-3", "10Gi", "volume3-3", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED).withSelector(LABELS)),
            NO_EVENTS, Call.SYNC_CLAIM),

        // [Unit test set 4] All syncVolume tests.
        row("4-1 - pending volume",
            volumes(volume("volume4-1", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume4-1", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(),
            claims(),
            NO_EVENTS, Call.SYNC_VOLUME),
        row("4-2 - pending prebound volume",
            volumes(volume("volume4-2", "10Gi", "", "claim4-2", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume4-2", "10Gi", "", "claim4-2", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(),
            claims(),
            NO_EVENTS, Call.SYNC_VOLUME),
        row("4-3 - bound volume with missing claim",
            volumes(volume("volume4-3", "10Gi", "uid4-3", "claim4-3", BOUND, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume4-3", "10Gi", "uid4-3", "claim4-3", RELEASED, RETAIN, CLASS_EMPTY)),
            claims(),
            claims(),
            NO_EVENTS, Call.SYNC_VOLUME),
        row("4-4 - volume bound to claim with different UID",
            volumes(volume("volume4-4", "10Gi", "uid4-4", "claim4-4", BOUND, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume4-4", "10Gi", "uid4-4", "claim4-4", RELEASED, RETAIN, CLASS_EMPTY)),
            claims(claim("claim4-4", "uid4-4-x", "10Gi", "volume4-4", CLAIM_BOUND, null, BIND_COMPLETED)),
            claims(claim("claim4-4", "uid4-4-x", "10Gi", "volume4-4", CLAIM_BOUND, null, BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_VOLUME),
        row("4-5 - volume bound by controller to unbound claim",
            volumes(volume("volume4-5", "10Gi", "uid4-5", "claim4-5", BOUND, RETAIN, CLASS_EMPTY, BOUND_BY_CONTROLLER)),
            volumes(volume("volume4-5", "10Gi", "uid4-5", "claim4-5", BOUND, RETAIN, CLASS_EMPTY, BOUND_BY_CONTROLLER)),
            claims(claim("claim4-5", "uid4-5", "10Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim4-5", "uid4-5", "10Gi", "", CLAIM_PENDING, null)),
            NO_EVENTS, Call.SYNC_VOLUME),
        row("4-5 - volume bound by user to bound claim",
            volumes(volume("volume4-5", "10Gi", "uid4-5", "claim4-5", BOUND, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume4-5", "10Gi", "uid4-5", "claim4-5", BOUND, RETAIN, CLASS_EMPTY)),
            claims(claim("claim4-5", "uid4-5", "10Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim4-5", "uid4-5", "10Gi", "", CLAIM_PENDING, null)),
            NO_EVENTS, Call.SYNC_VOLUME),
        row("4-6 - volume bound by to bound claim",
            volumes(volume("volume4-6", "10Gi", "uid4-6", "claim4-6", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume4-6", "10Gi", "uid4-6", "claim4-6", BOUND, RETAIN, CLASS_EMPTY)),
            claims(claim("claim4-6", "uid4-6", "10Gi", "volume4-6", CLAIM_BOUND, null)),
            claims(claim("claim4-6", "uid4-6", "10Gi", "volume4-6", CLAIM_BOUND, null)),
            NO_EVENTS, Call.SYNC_VOLUME),
        row("4-7 - volume bound by controller to claim bound somewhere else",
            volumes(volume("volume4-7", "10Gi", "uid4-7", "claim4-7", BOUND, RETAIN, CLASS_EMPTY, BOUND_BY_CONTROLLER)),
            volumes(volume("volume4-7", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(claim("claim4-7", "uid4-7", "10Gi", "volume4-7-x", CLAIM_BOUND, null)),
            claims(claim("claim4-7", "uid4-7", "10Gi", "volume4-7-x", CLAIM_BOUND, null)),
            NO_EVENTS, Call.SYNC_VOLUME),
        row("4-8 - volume bound by user to claim bound somewhere else",
            volumes(volume("volume4-8", "10Gi", "uid4-8", "claim4-8", BOUND, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume4-8", "10Gi", "", "claim4-8", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(claim("claim4-8", "uid4-8", "10Gi", "volume4-8-x", CLAIM_BOUND, null)),
            claims(claim("claim4-8", "uid4-8", "10Gi", "volume4-8-x", CLAIM_BOUND, null)),
            NO_EVENTS, Call.SYNC_VOLUME),
        row("4-9 - volume bound to bound claim, with PersistentVolumeReclaimDelete",
            volumes(volume("volume4-9", "10Gi", "uid4-9", "claim4-9", AVAILABLE, DELETE, CLASS_EMPTY)),
            volumes(volume("volume4-9", "10Gi", "uid4-9", "claim4-9", BOUND, DELETE, CLASS_EMPTY)),
            claims(claim("claim4-9", "uid4-9", "10Gi", "volume4-9", CLAIM_BOUND, null)),
            claims(claim("claim4-9", "uid4-9", "10Gi", "volume4-9", CLAIM_BOUND, null)),
            NO_EVENTS, Call.SYNC_VOLUME),
        // Upstream's table lists no event; its controller's failed deletion emits VolumeFailedDelete.
        row("4-10 - volume bound to missing claim",
            volumes(volume("volume4-10", "10Gi", "uid4-10", "claim4-10", AVAILABLE, DELETE, CLASS_EMPTY)),
            volumes(volume("volume4-10", "10Gi", "uid4-10", "claim4-10", FAILED, DELETE, CLASS_EMPTY)
                .withMessage("error getting deleter volume plugin for volume \"volume4-10\": "
                    + "no volume plugin matched")),
            claims(),
            claims(),
            List.of("Warning VolumeFailedDelete"), Call.SYNC_VOLUME),
        // Upstream's claim is in the API server but not the controller's cache; FleetKit reads the store, which has
        // it: the volume is Bound, not reclaimed.
        row("4-11 - volume bound to unknown claim",
            volumes(volume("volume4-11", "10Gi", "uid4-11", "claim4-11", AVAILABLE, DELETE, CLASS_EMPTY)),
            volumes(volume("volume4-11", "10Gi", "uid4-11", "claim4-11", BOUND, DELETE, CLASS_EMPTY)),
            claims(claim("claim4-11", "uid4-11", "10Gi", "volume4-11", CLAIM_BOUND, null)),
            claims(claim("claim4-11", "uid4-11", "10Gi", "volume4-11", CLAIM_BOUND, null)),
            NO_EVENTS, Call.SYNC_VOLUME),
        // Upstream's cache holds an older claim4-12 (uid4-12) and the API server the new one (uid4-12-new); the
        // store holds only the newest, which the volume names.
        row("4-12 - volume bound to newest claim but not updated to local cache",
            volumes(volume("volume4-12", "10Gi", "uid4-12-new", "claim4-12", AVAILABLE, DELETE, CLASS_EMPTY)),
            volumes(volume("volume4-12", "10Gi", "uid4-12-new", "claim4-12", BOUND, DELETE, CLASS_EMPTY)),
            claims(claim("claim4-12", "uid4-12-new", "10Gi", "volume4-12", CLAIM_BOUND, null)),
            claims(claim("claim4-12", "uid4-12-new", "10Gi", "volume4-12", CLAIM_BOUND, null)),
            NO_EVENTS, Call.SYNC_VOLUME),

        // PVC with class
        row("13-1 - binding to class",
            volumes(volume("volume13-1-1", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY),
                volume("volume13-1-2", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_GOLD)),
            volumes(volume("volume13-1-1", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY),
                volume("volume13-1-2", "10Gi", "uid13-1", "claim13-1", BOUND, RETAIN, CLASS_GOLD,
                    BOUND_BY_CONTROLLER)),
            claims(claim("claim13-1", "uid13-1", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            claims(claim("claim13-1", "uid13-1", "1Gi", "volume13-1-2", CLAIM_BOUND, CLASS_GOLD, BOUND_BY_CONTROLLER,
                BIND_COMPLETED).withExpectedCapacity("10Gi")),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("13-2 - binding without a class",
            volumes(volume("volume13-2-1", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_GOLD),
                volume("volume13-2-2", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume13-2-1", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_GOLD),
                volume("volume13-2-2", "10Gi", "uid13-2", "claim13-2", BOUND, RETAIN, CLASS_EMPTY,
                    BOUND_BY_CONTROLLER)),
            claims(claim("claim13-2", "uid13-2", "1Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim13-2", "uid13-2", "1Gi", "volume13-2-2", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED).withExpectedCapacity("10Gi")),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("13-3 - binding to specific a class",
            volumes(volume("volume13-3-1", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_SILVER),
                volume("volume13-3-2", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_GOLD)),
            volumes(volume("volume13-3-1", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_SILVER),
                volume("volume13-3-2", "10Gi", "uid13-3", "claim13-3", BOUND, RETAIN, CLASS_GOLD,
                    BOUND_BY_CONTROLLER)),
            claims(claim("claim13-3", "uid13-3", "1Gi", "", CLAIM_PENDING, CLASS_GOLD)),
            claims(claim("claim13-3", "uid13-3", "1Gi", "volume13-3-2", CLAIM_BOUND, CLASS_GOLD, BOUND_BY_CONTROLLER,
                BIND_COMPLETED).withExpectedCapacity("10Gi")),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("13-4 - empty class",
            volumes(volume("volume13-4", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume13-4", "1Gi", "uid13-4", "claim13-4", BOUND, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER)),
            claims(claim("claim13-4", "uid13-4", "1Gi", "", CLAIM_PENDING, CLASS_EMPTY)),
            claims(claim("claim13-4", "uid13-4", "1Gi", "volume13-4", CLAIM_BOUND, CLASS_EMPTY, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("13-5 - nil class",
            volumes(volume("volume13-5", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume13-5", "1Gi", "uid13-5", "claim13-5", BOUND, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER)),
            claims(claim("claim13-5", "uid13-5", "1Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim13-5", "uid13-5", "1Gi", "volume13-5", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            NO_EVENTS, Call.SYNC_CLAIM));
  }

  static Stream<Case> testMultiSync() {
    return Stream.of(
        // Upstream's table lists no event; its first syncClaim emits FailedBinding (the volume is still Pending),
        // before the periodic syncs make the volume Available and bind it.
        row("10-1 - successful bind",
            volumes(volume("volume10-1", "1Gi", "", "", PENDING, RETAIN, CLASS_EMPTY)),
            volumes(volume("volume10-1", "1Gi", "uid10-1", "claim10-1", BOUND, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER)),
            claims(claim("claim10-1", "uid10-1", "1Gi", "", CLAIM_PENDING, null)),
            claims(claim("claim10-1", "uid10-1", "1Gi", "volume10-1", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            List.of("Normal FailedBinding"), Call.MULTI_SYNC_CLAIM),
        row("10-2 - bind PV race",
            volumes(volume("volume10-2-1", "1Gi", "uid10-2", "claim10-2", BOUND, RETAIN, CLASS_EMPTY,
                    BOUND_BY_CONTROLLER),
                volume("volume10-2-2", "1Gi", "uid10-2", "claim10-2", BOUND, RETAIN, CLASS_EMPTY,
                    BOUND_BY_CONTROLLER)),
            volumes(volume("volume10-2-1", "1Gi", "uid10-2", "claim10-2", BOUND, RETAIN, CLASS_EMPTY,
                    BOUND_BY_CONTROLLER),
                volume("volume10-2-2", "1Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY)),
            claims(claim("claim10-2", "uid10-2", "1Gi", "volume10-2-1", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            claims(claim("claim10-2", "uid10-2", "1Gi", "volume10-2-1", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED)),
            NO_EVENTS, Call.MULTI_SYNC_CLAIM));
  }
}
