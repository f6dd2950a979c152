package io.fleetkit.storage;

import static io.fleetkit.storage.SyncTable.AVAILABLE;
import static io.fleetkit.storage.SyncTable.BIND_COMPLETED;
import static io.fleetkit.storage.SyncTable.BLOCK;
import static io.fleetkit.storage.SyncTable.BOUND;
import static io.fleetkit.storage.SyncTable.BOUND_BY_CONTROLLER;
import static io.fleetkit.storage.SyncTable.CLAIM_BOUND;
import static io.fleetkit.storage.SyncTable.CLAIM_PENDING;
import static io.fleetkit.storage.SyncTable.CLASS_EMPTY;
import static io.fleetkit.storage.SyncTable.CLASS_GOLD;
import static io.fleetkit.storage.SyncTable.CLASS_SILVER;
import static io.fleetkit.storage.SyncTable.FILESYSTEM;
import static io.fleetkit.storage.SyncTable.NO_EVENTS;
import static io.fleetkit.storage.SyncTable.RETAIN;
import static io.fleetkit.storage.SyncTable.claim;
import static io.fleetkit.storage.SyncTable.claims;
import static io.fleetkit.storage.SyncTable.row;
import static io.fleetkit.storage.SyncTable.volume;
import static io.fleetkit.storage.SyncTable.volumes;

import io.fleetkit.storage.SyncTable.Call;
import io.fleetkit.storage.SyncTable.Case;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes/kubernetes {@code pkg/controller/volume/persistentvolume/binder_test.go}, TestSyncBlockVolume
 * (all 18 cases; the same stored version as {@link BinderSyncTest}): binding by volumeMode, with no StorageClass
 * objects. Each row is one upstream case, by its name; see {@link SyncTable} for how rows are run.
 */
final class BinderBlockVolumeSyncTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("testSyncBlockVolume")
  void testSyncBlockVolume(Case c) {
    SyncTable.run(c, List.of());
  }

  static Stream<Case> testSyncBlockVolume() {
    return Stream.of(
        row("14-1 - binding to volumeMode block",
            volumes(volume("volume14-1", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY).withMode(BLOCK)),
            volumes(volume("volume14-1", "10Gi", "uid14-1", "claim14-1", BOUND, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withMode(BLOCK)),
            claims(claim("claim14-1", "uid14-1", "10Gi", "", CLAIM_PENDING, null).withMode(BLOCK)),
            claims(claim("claim14-1", "uid14-1", "10Gi", "volume14-1", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED).withMode(BLOCK)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("14-2 - binding to volumeMode filesystem",
            volumes(volume("volume14-2", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY).withMode(FILESYSTEM)),
            volumes(volume("volume14-2", "10Gi", "uid14-2", "claim14-2", BOUND, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withMode(FILESYSTEM)),
            claims(claim("claim14-2", "uid14-2", "10Gi", "", CLAIM_PENDING, null).withMode(FILESYSTEM)),
            claims(claim("claim14-2", "uid14-2", "10Gi", "volume14-2", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED).withMode(FILESYSTEM)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("14-3 - do not bind pv volumeMode filesystem and pvc volumeMode block",
            volumes(volume("volume14-3", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY).withMode(FILESYSTEM)),
            volumes(volume("volume14-3", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY).withMode(FILESYSTEM)),
            claims(claim("claim14-3", "uid14-3", "10Gi", "", CLAIM_PENDING, null).withMode(BLOCK)),
            claims(claim("claim14-3", "uid14-3", "10Gi", "", CLAIM_PENDING, null).withMode(BLOCK)),
            List.of("Normal FailedBinding"), Call.SYNC_CLAIM),
        row("14-4 - do not bind pv volumeMode block and pvc volumeMode filesystem",
            volumes(volume("volume14-4", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY).withMode(BLOCK)),
            volumes(volume("volume14-4", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY).withMode(BLOCK)),
            claims(claim("claim14-4", "uid14-4", "10Gi", "", CLAIM_PENDING, null).withMode(FILESYSTEM)),
            claims(claim("claim14-4", "uid14-4", "10Gi", "", CLAIM_PENDING, null).withMode(FILESYSTEM)),
            List.of("Normal FailedBinding"), Call.SYNC_CLAIM),
        // No class "gold" exists: provisioning fails with "storageclass ... not found".
        row("14-5 - do not bind when matching class but not volumeMode",
            volumes(volume("volume14-5", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_GOLD).withMode(FILESYSTEM)),
            volumes(volume("volume14-5", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_GOLD).withMode(FILESYSTEM)),
            claims(claim("claim14-5", "uid14-5", "10Gi", "", CLAIM_PENDING, CLASS_GOLD).withMode(BLOCK)),
            claims(claim("claim14-5", "uid14-5", "10Gi", "", CLAIM_PENDING, CLASS_GOLD).withMode(BLOCK)),
            List.of("Warning ProvisioningFailed"), Call.SYNC_CLAIM),
        row("14-5-1 - do not bind when matching volumeModes but class does not match",
            volumes(volume("volume14-5-1", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_GOLD).withMode(FILESYSTEM)),
            volumes(volume("volume14-5-1", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_GOLD).withMode(FILESYSTEM)),
            claims(claim("claim14-5-1", "uid14-5-1", "10Gi", "", CLAIM_PENDING, CLASS_SILVER).withMode(FILESYSTEM)),
            claims(claim("claim14-5-1", "uid14-5-1", "10Gi", "", CLAIM_PENDING, CLASS_SILVER).withMode(FILESYSTEM)),
            List.of("Warning ProvisioningFailed"), Call.SYNC_CLAIM),
        row("14-5-2 - do not bind when pvc is prebound to pv with matching volumeModes but class does not match",
            volumes(volume("volume14-5-2", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_GOLD).withMode(FILESYSTEM)),
            volumes(volume("volume14-5-2", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_GOLD).withMode(FILESYSTEM)),
            claims(claim("claim14-5-2", "uid14-5-2", "10Gi", "volume14-5-2", CLAIM_PENDING, CLASS_SILVER)
                .withMode(FILESYSTEM)),
            claims(claim("claim14-5-2", "uid14-5-2", "10Gi", "volume14-5-2", CLAIM_PENDING, CLASS_SILVER)
                .withMode(FILESYSTEM)),
            List.of("Warning VolumeMismatch"), Call.SYNC_CLAIM),
        row("14-7 - bind when pv volume is prebound and volumeModes match",
            volumes(volume("volume14-7", "10Gi", "", "claim14-7", AVAILABLE, RETAIN, CLASS_EMPTY).withMode(BLOCK)),
            volumes(volume("volume14-7", "10Gi", "uid14-7", "claim14-7", BOUND, RETAIN, CLASS_EMPTY).withMode(BLOCK)),
            claims(claim("claim14-7", "uid14-7", "10Gi", "", CLAIM_PENDING, null).withMode(BLOCK)),
            claims(claim("claim14-7", "uid14-7", "10Gi", "volume14-7", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED).withMode(BLOCK)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("14-8 - do not bind when pvc is prebound to pv with mismatching volumeModes",
            volumes(volume("volume14-8", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY).withMode(BLOCK)),
            volumes(volume("volume14-8", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY).withMode(BLOCK)),
            claims(claim("claim14-8", "uid14-8", "10Gi", "volume14-8", CLAIM_PENDING, null).withMode(FILESYSTEM)),
            claims(claim("claim14-8", "uid14-8", "10Gi", "volume14-8", CLAIM_PENDING, null).withMode(FILESYSTEM)),
            List.of("Warning VolumeMismatch"), Call.SYNC_CLAIM),
        row("14-8-1 - do not bind when pvc is prebound to pv with mismatching volumeModes",
            volumes(volume("volume14-8-1", "10Gi", "", "claim14-8-1", AVAILABLE, RETAIN, CLASS_EMPTY)
                .withMode(BLOCK)),
            volumes(volume("volume14-8-1", "10Gi", "", "claim14-8-1", AVAILABLE, RETAIN, CLASS_EMPTY)
                .withMode(BLOCK)),
            claims(claim("claim14-8-1", "uid14-8-1", "10Gi", "", CLAIM_PENDING, null).withMode(FILESYSTEM)),
            claims(claim("claim14-8-1", "uid14-8-1", "10Gi", "", CLAIM_PENDING, null).withMode(FILESYSTEM)),
            List.of("Normal FailedBinding"), Call.SYNC_CLAIM),
        row("14-9 - bind when pvc is prebound to pv with matching volumeModes block",
            volumes(volume("volume14-9", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY).withMode(BLOCK)),
            volumes(volume("volume14-9", "10Gi", "uid14-9", "claim14-9", BOUND, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withMode(BLOCK)),
            claims(claim("claim14-9", "uid14-9", "10Gi", "volume14-9", CLAIM_PENDING, null).withMode(BLOCK)),
            claims(claim("claim14-9", "uid14-9", "10Gi", "volume14-9", CLAIM_BOUND, null, BIND_COMPLETED)
                .withMode(BLOCK)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("14-10 - bind when pv is prebound to pvc with matching volumeModes block",
            volumes(volume("volume14-10", "10Gi", "", "claim14-10", AVAILABLE, RETAIN, CLASS_EMPTY).withMode(BLOCK)),
            volumes(volume("volume14-10", "10Gi", "uid14-10", "claim14-10", BOUND, RETAIN, CLASS_EMPTY)
                .withMode(BLOCK)),
            claims(claim("claim14-10", "uid14-10", "10Gi", "", CLAIM_PENDING, null).withMode(BLOCK)),
            claims(claim("claim14-10", "uid14-10", "10Gi", "volume14-10", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED).withMode(BLOCK)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("14-11 - bind when pvc is prebound to pv with matching volumeModes filesystem",
            volumes(volume("volume14-11", "10Gi", "", "", AVAILABLE, RETAIN, CLASS_EMPTY).withMode(FILESYSTEM)),
            volumes(volume("volume14-11", "10Gi", "uid14-11", "claim14-11", BOUND, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withMode(FILESYSTEM)),
            claims(claim("claim14-11", "uid14-11", "10Gi", "volume14-11", CLAIM_PENDING, null).withMode(FILESYSTEM)),
            claims(claim("claim14-11", "uid14-11", "10Gi", "volume14-11", CLAIM_BOUND, null, BIND_COMPLETED)
                .withMode(FILESYSTEM)),
            NO_EVENTS, Call.SYNC_CLAIM),
        row("14-12 - bind when pv is prebound to pvc with matching volumeModes filesystem",
            volumes(volume("volume14-12", "10Gi", "", "claim14-12", AVAILABLE, RETAIN, CLASS_EMPTY)
                .withMode(FILESYSTEM)),
            volumes(volume("volume14-12", "10Gi", "uid14-12", "claim14-12", BOUND, RETAIN, CLASS_EMPTY)
                .withMode(FILESYSTEM)),
            claims(claim("claim14-12", "uid14-12", "10Gi", "", CLAIM_PENDING, null).withMode(FILESYSTEM)),
            claims(claim("claim14-12", "uid14-12", "10Gi", "volume14-12", CLAIM_BOUND, null, BOUND_BY_CONTROLLER,
                BIND_COMPLETED).withMode(FILESYSTEM)),
            NO_EVENTS, Call.SYNC_CLAIM),
        // Upstream's table lists one VolumeMismatch; its controller emits it on the volume and then on the claim.
        row("14-13 - output warning when pv is prebound to pvc with different volumeModes",
            volumes(volume("volume14-13", "10Gi", "uid14-13", "claim14-13", AVAILABLE, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withMode(FILESYSTEM)),
            volumes(volume("volume14-13", "10Gi", "uid14-13", "claim14-13", AVAILABLE, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withMode(FILESYSTEM)),
            claims(claim("claim14-13", "uid14-13", "10Gi", "", CLAIM_PENDING, null).withMode(BLOCK)),
            claims(claim("claim14-13", "uid14-13", "10Gi", "", CLAIM_PENDING, null).withMode(BLOCK)),
            List.of("Warning VolumeMismatch", "Warning VolumeMismatch"), Call.SYNC_VOLUME),
        // As 14-13 (two events).
        row("14-13-1 - output warning when pv is prebound to pvc with different volumeModes",
            volumes(volume("volume14-13-1", "10Gi", "uid14-13-1", "claim14-13-1", AVAILABLE, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withMode(BLOCK)),
            volumes(volume("volume14-13-1", "10Gi", "uid14-13-1", "claim14-13-1", AVAILABLE, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withMode(BLOCK)),
            claims(claim("claim14-13-1", "uid14-13-1", "10Gi", "", CLAIM_PENDING, null).withMode(FILESYSTEM)),
            claims(claim("claim14-13-1", "uid14-13-1", "10Gi", "", CLAIM_PENDING, null).withMode(FILESYSTEM)),
            List.of("Warning VolumeMismatch", "Warning VolumeMismatch"), Call.SYNC_VOLUME),
        row("14-14 - wait for synClaim without warning when pv is prebound to pvc with matching volumeModes block",
            volumes(volume("volume14-14", "10Gi", "uid14-14", "claim14-14", AVAILABLE, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withMode(BLOCK)),
            volumes(volume("volume14-14", "10Gi", "uid14-14", "claim14-14", AVAILABLE, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withMode(BLOCK)),
            claims(claim("claim14-14", "uid14-14", "10Gi", "", CLAIM_PENDING, null).withMode(BLOCK)),
            claims(claim("claim14-14", "uid14-14", "10Gi", "", CLAIM_PENDING, null).withMode(BLOCK)),
            NO_EVENTS, Call.SYNC_VOLUME),
        row("14-14-1 - wait for synClaim without warning when pv is prebound to pvc with matching volumeModes file",
            volumes(volume("volume14-14-1", "10Gi", "uid14-14-1", "claim14-14-1", AVAILABLE, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withMode(FILESYSTEM)),
            volumes(volume("volume14-14-1", "10Gi", "uid14-14-1", "claim14-14-1", AVAILABLE, RETAIN, CLASS_EMPTY,
                BOUND_BY_CONTROLLER).withMode(FILESYSTEM)),
            claims(claim("claim14-14-1", "uid14-14-1", "10Gi", "", CLAIM_PENDING, null).withMode(FILESYSTEM)),
            claims(claim("claim14-14-1", "uid14-14-1", "10Gi", "", CLAIM_PENDING, null).withMode(FILESYSTEM)),
            NO_EVENTS, Call.SYNC_VOLUME));
  }
}
