package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.policy.UnhealthyPodEvictionPolicyType;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The eviction subresource, ported from upstream {@code pkg/registry/core/pod/storage/eviction_test.go} (kubernetes
 * commit 5f3bc7cdab9b2544f0389b9a83c88fa15b793b7a; {@code eviction.go} with {@code addConditionAndDeletePod}):
 * TestEviction (its cases under the three unhealthy-pod policies, nil, IfHealthyBudget and AlwaysAllow, as upstream
 * loops, skipping the policies a case excludes), TestEvictionIgnorePDB (likewise; upstream's {@code mockStore} is
 * {@link MockDeletes}, a {@link ForwardingObjectStore} failing pod deletions by upstream's per-name rules and counting
 * them as {@code expectedDeleteCount}), TestEvictionPDBStatus and TestAddConditionAndDelete.
 *
 * <p>Adapted: upstream's budget is named {@code foo} in its messages, FleetKit's reason names it
 * {@code default/foo}; a TooManyRequests error is a refused {@link EvictionDecision} whose reason is upstream's
 * message and cause, a Conflict or BadRequest is the exception thrown. Skipped: TestEviction's "bad name in Url"
 * (FleetKit's API takes the pod, there is no URL name to mismatch) and TestEvictionDryRun (FleetKit has no dry-run;
 * {@link Evictions#canEvict} is the question without the deletion).
 */
final class EvictionsTest {
  private static final Map<String, String> A = Map.of("a", "true");
  private static final PodSpec SPEC = PodSpec.builder().container("c", "img", ResourceList.EMPTY).build();
  /** Upstream's loop over the policies, nil first (TestEviction); TestEvictionIgnorePDB starts with AlwaysAllow. */
  private static final List<@Nullable UnhealthyPodEvictionPolicyType> POLICIES =
      Arrays.asList(null, UnhealthyPodEvictionPolicyType.IfHealthyBudget, UnhealthyPodEvictionPolicyType.AlwaysAllow);
  private static final List<@Nullable UnhealthyPodEvictionPolicyType> NOT_ALWAYS_ALLOW =
      Arrays.asList(null, UnhealthyPodEvictionPolicyType.IfHealthyBudget);
  private static final List<@Nullable UnhealthyPodEvictionPolicyType> ALWAYS_ALLOW =
      Arrays.asList(UnhealthyPodEvictionPolicyType.AlwaysAllow);

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore base = Sim.store(clock);

  @AfterEach
  void close() {
    base.close();
  }

  /**
   * Upstream's budget {@code foo} in namespace default; {@code observedGeneration} is its generation. Upstream's has
   * neither minAvailable nor maxUnavailable, which FleetKit's validation requires: it gets maxUnavailable 1, which
   * the eviction does not read (only the status counts).
   */
  private PodDisruptionBudget budget(LabelSelector selector, @Nullable UnhealthyPodEvictionPolicyType policy,
      int allowed, int currentHealthy, int desiredHealthy) {
    PodDisruptionBudget pdb = base.create(PodDisruptionBudget.of(ObjectMeta.of("default", "foo"),
        new PodDisruptionBudgetSpec(null, selector, IntOrPercent.ONE, policy)));
    return base.updateStatus(pdb.withStatus(new PodDisruptionBudgetStatus(pdb.metadata().generation(), Map.of(),
        allowed, currentHealthy, desiredHealthy, 0, List.of())));
  }

  /** Upstream's {@code validNewPod} named {@code name}, labelled a=true, bound to node foo; phase Pending. */
  private Pod pod(String name) {
    Pod p = base.create(Pod.builder().namespace("default").name(name).labels(A).spec(SPEC).build());
    return base.updateWithStatus(p.withNodeName("foo"));
  }

  private Pod withPhase(Pod p, PodPhase phase) {
    return base.updateStatus(p.withStatus(p.status().withPhase(phase)));
  }

  private Pod withReady(Pod p, ConditionStatus ready) {
    return base.updateStatus(p.withStatus(p.status().withConditionUpdated(
        PodCondition.of(PodCondition.READY, ready, "", "", clock.now()))));
  }

  /** Upstream's TooManyRequests message and cause, with FleetKit's budget key. */
  private static String tooManyRequests(String cause) {
    return EvictionDecision.VIOLATES_BUDGET + " " + cause.replace("budget foo ", "budget default/foo ");
  }

  /** What an eviction answered: a decision, or the exception it threw. */
  private record Outcome(@Nullable EvictionDecision decision, @Nullable Throwable error) {
    static Outcome of(java.util.function.Supplier<EvictionDecision> eviction) {
      try {
        return new Outcome(eviction.get(), null);
      } catch (RuntimeException e) {
        return new Outcome(null, e);
      }
    }
  }

  // ---- TestEviction ----

  /**
   * A TestEviction case: the budget's selector and {@code disruptionsAllowed}, the pod's name and phase
   * ({@code null}: as created, Pending), the refusal expected (upstream's cause; {@code null}: evicted and deleted),
   * and the policies it runs under.
   */
  private record EvictionCase(String name, LabelSelector selector, int allowed, String pod, @Nullable PodPhase phase,
      @Nullable String refusal, List<@Nullable UnhealthyPodEvictionPolicyType> policies) {}

  private static final LabelSelector MATCHING = LabelSelector.of(A);

  private static final List<EvictionCase> EVICTION_CASES = List.of(
      // AlwaysAllow would terminate the pod since Running pods are not guarded by this policy
      new EvictionCase("matching pdbs with no disruptions allowed, pod running", MATCHING, 0, "t1", PodPhase.Running,
          "The disruption budget foo needs 0 healthy pods and has 0 currently", NOT_ALWAYS_ALLOW),
      new EvictionCase("matching pdbs with no disruptions allowed, pod pending", MATCHING, 0, "t2", PodPhase.Pending,
          null, POLICIES),
      new EvictionCase("matching pdbs with no disruptions allowed, pod succeeded", MATCHING, 0, "t3",
          PodPhase.Succeeded, null, POLICIES),
      new EvictionCase("matching pdbs with no disruptions allowed, pod failed", MATCHING, 0, "t4", PodPhase.Failed,
          null, POLICIES),
      new EvictionCase("matching pdbs with disruptions allowed", MATCHING, 1, "t5", null, null, POLICIES),
      new EvictionCase("non-matching pdbs", LabelSelector.of(Map.of("b", "true")), 0, "t6", null, null, POLICIES),
      // "matching pdbs with disruptions allowed but bad name in Url" (t7): skipped, no URL name in FleetKit's API
      new EvictionCase("matching pdbs with no disruptions allowed, pod running, empty selector",
          LabelSelector.EVERYTHING, 0, "t8", PodPhase.Running,
          "The disruption budget foo needs 0 healthy pods and has 0 currently", NOT_ALWAYS_ALLOW));

  static Stream<Arguments> evictionCases() {
    List<Arguments> out = new ArrayList<>();
    for (UnhealthyPodEvictionPolicyType policy : POLICIES) {
      for (EvictionCase c : EVICTION_CASES) {
        if (c.policies().contains(policy)) {
          out.add(Arguments.of(c, policy));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} with {1} policy")
  @MethodSource("evictionCases")
  void testEviction(EvictionCase c, @Nullable UnhealthyPodEvictionPolicyType policy) {
    budget(c.selector(), policy, c.allowed(), 0, 0);
    Pod pod = pod(c.pod());
    if (c.phase() != null) {
      pod = withPhase(pod, c.phase());
    }
    ConditionAtDelete recorder = new ConditionAtDelete(base);
    EvictionDecision d = Evictions.evict(recorder, pod, clock.now(), DeleteOptions.gracePeriod(0));
    if (c.refusal() != null) {
      assertThat(d.allowed()).as(d.reason()).isFalse();
      assertThat(d.reason()).isEqualTo(tooManyRequests(c.refusal()));
      assertThat(base.get(Pod.class, "default", c.pod())).as("not deleted").isPresent();
      return;
    }
    assertThat(d.allowed()).as(d.reason()).isTrue();
    assertThat(d.podGone()).isFalse();
    assertThat(base.get(Pod.class, "default", c.pod())).as("deleted").isEmpty();
    // FleetKit's own check: the deleted pod carried upstream's DisruptionTarget condition
    assertThat(recorder.seen).singleElement().satisfies(EvictionsTest::assertEvictionCondition);
  }

  private static void assertEvictionCondition(@Nullable PodCondition dt) {
    assertThat(dt).isNotNull();
    assertThat(dt.status()).isEqualTo(ConditionStatus.True);
    assertThat(dt.reason()).isEqualTo("EvictionByEvictionAPI");
    assertThat(dt.message()).isEqualTo("Eviction API: evicting");
  }

  /** Records the DisruptionTarget condition of each pod as stored when its deletion arrives. */
  private static final class ConditionAtDelete extends ForwardingObjectStore {
    final List<@Nullable PodCondition> seen = new ArrayList<>();

    ConditionAtDelete(ObjectStore delegate) {
      super(delegate);
    }

    @Override
    public <T extends io.fleetkit.api.meta.ApiObject<T>> T delete(Class<T> kind, String namespace, String name,
        DeleteOptions options) {
      if (kind == Pod.class) {
        delegate().get(Pod.class, namespace, name)
            .ifPresent(p -> seen.add(p.status().condition(PodCondition.DISRUPTION_TARGET)));
      }
      return super.delete(kind, namespace, name, options);
    }
  }

  // ---- TestEvictionIgnorePDB ----

  /**
   * A TestEvictionIgnorePDB case: the budget, the pod's name, phase ({@code null}: Pending), whether it is being
   * deleted and its Ready condition ({@code null}: none), the eviction's options (made from the stored pod), the
   * refusal expected (upstream's cause), or the error ({@code CONFLICT}, {@code BAD_REQUEST}), and how many
   * deletions reach the store.
   */
  private record IgnorePdbCase(String name, LabelSelector selector, int allowed, int currentHealthy,
      int desiredHealthy, String pod, @Nullable PodPhase phase, boolean terminating, @Nullable ConditionStatus ready,
      Function<Pod, DeleteOptions> options, @Nullable String refusal, @Nullable String error, int deleteCount,
      List<@Nullable UnhealthyPodEvictionPolicyType> policies) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final String CONFLICT = "Conflict";
  private static final String BAD_REQUEST = "BadRequest";
  private static final Function<Pod, DeleteOptions> GRACE_0 = p -> DeleteOptions.gracePeriod(0);

  private static final List<IgnorePdbCase> IGNORE_PDB_CASES = List.of(
      new IgnorePdbCase("pdbs No disruptions allowed, pod pending, first delete conflict, pod still pending, pod "
          + "deleted successfully", MATCHING, 0, 0, 0, "t1", PodPhase.Pending, false, null, GRACE_0, null, null, 3,
          POLICIES),
      // This test case is critical. If it is removed or broken we may regress and allow a pod to be deleted without
      // checking PDBs when the pod should not be deleted.
      new IgnorePdbCase("pdbs No disruptions allowed, pod pending, first delete conflict, pod becomes running, "
          + "continueToPDBs", MATCHING, 0, 0, 0, "t2", PodPhase.Pending, false, null, GRACE_0,
          "The disruption budget foo needs 0 healthy pods and has 0 currently", null, 1,
          NOT_ALWAYS_ALLOW), // AlwaysAllow does not continueToPDBs, but straight to deletion
      new IgnorePdbCase("pdbs No disruptions allowed, pod pending, first delete conflict, pod becomes running, skip "
          + "PDB check, conflict", MATCHING, 0, 0, 0, "t2", PodPhase.Pending, false, ConditionStatus.False, GRACE_0,
          "The disruption budget foo is still being processed by the server.", null, 2,
          ALWAYS_ALLOW), // nil, IfHealthyBudget continueToPDBs
      new IgnorePdbCase("pdbs disruptions allowed, pod pending, first delete conflict, pod becomes running, "
          + "continueToPDBs", MATCHING, 1, 0, 0, "t3", PodPhase.Pending, false, null, GRACE_0, null, null, 2,
          NOT_ALWAYS_ALLOW), // AlwaysAllow does not continueToPDBs, but straight to deletion if pod not ready
      new IgnorePdbCase("pod pending, always conflict on delete", MATCHING, 0, 0, 0, "t4", PodPhase.Pending, false,
          null, GRACE_0, null, CONFLICT, Evictions.RETRY_STEPS, POLICIES),
      // upstream's precondition is the string "userProvided", which its mockStore's Update never checks; FleetKit's
      // store checks it when the condition is written, so the caller's version here is the pod's own
      new IgnorePdbCase("pod pending, always conflict on delete, user provided ResourceVersion constraint", MATCHING,
          0, 0, 0, "t5", PodPhase.Pending, false, null,
          p -> DeleteOptions.of(DeletePreconditions.resourceVersion(p.metadata().resourceVersion())), null, CONFLICT,
          1, POLICIES),
      new IgnorePdbCase("matching pdbs with no disruptions allowed, pod terminating", MATCHING, 0, 0, 0, "t6", null,
          true, null, p -> DeleteOptions.gracePeriod(300), null, null, 1, POLICIES),
      new IgnorePdbCase("matching pdbs with no disruptions allowed, pod running, pod healthy, unhealthy pod not ours",
          MATCHING, 0, 2, 2, "t7", PodPhase.Running, false, ConditionStatus.True, GRACE_0,
          "The disruption budget foo needs 2 healthy pods and has 2 currently", null, 0, POLICIES),
      new IgnorePdbCase("matching pdbs with disruptions allowed, pod running, pod healthy, healthy pod ours, deletes "
          + "pod by honoring the PDB", MATCHING, 1, 3, 3, "t8", PodPhase.Running, false, ConditionStatus.True, GRACE_0,
          null, null, 1, POLICIES),
      new IgnorePdbCase("matching pdbs with no disruptions allowed, pod running, pod unhealthy, unhealthy pod ours",
          MATCHING, 0, 2, 2, "t8", PodPhase.Running, false, ConditionStatus.False, GRACE_0, null, null, 1, POLICIES),
      new IgnorePdbCase("matching pdbs with no disruptions allowed, pod running, pod unhealthy, unhealthy pod ours, "
          + "skips the PDB check and deletes", MATCHING, 0, 0, 0, "t8", PodPhase.Running, false,
          ConditionStatus.False, GRACE_0, null, null, 1,
          ALWAYS_ALLOW), // nil, IfHealthyBudget would not skip the PDB check
      new IgnorePdbCase("matching pdbs with no disruptions allowed, pod running, pod unhealthy, unhealthy pod ours, "
          + "resource version conflict", MATCHING, 0, 2, 2, "t9", PodPhase.Running, false, ConditionStatus.False,
          GRACE_0, "The disruption budget foo is still being processed by the server.", null, 1, POLICIES),
      new IgnorePdbCase("matching pdbs with no disruptions allowed, pod running, pod unhealthy, unhealthy pod ours, "
          + "other error on delete", MATCHING, 0, 2, 2, "t10", PodPhase.Running, false, ConditionStatus.False,
          GRACE_0, null, BAD_REQUEST, 1, POLICIES),
      new IgnorePdbCase("matching pdbs with no disruptions allowed, pod running, pod healthy, empty selector, pod not "
          + "deleted by honoring the PDB", LabelSelector.EVERYTHING, 0, 3, 3, "t11", PodPhase.Running, false,
          ConditionStatus.True, GRACE_0, "The disruption budget foo needs 3 healthy pods and has 3 currently", null,
          0, POLICIES));

  static Stream<Arguments> ignorePdbCases() {
    List<@Nullable UnhealthyPodEvictionPolicyType> order = Arrays.asList(UnhealthyPodEvictionPolicyType.AlwaysAllow,
        null, UnhealthyPodEvictionPolicyType.IfHealthyBudget);
    List<Arguments> out = new ArrayList<>();
    for (UnhealthyPodEvictionPolicyType policy : order) {
      for (IgnorePdbCase c : IGNORE_PDB_CASES) {
        if (c.policies().contains(policy)) {
          out.add(Arguments.of(c, policy));
        }
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} with {1} policy")
  @MethodSource("ignorePdbCases")
  void testEvictionIgnorePDB(IgnorePdbCase c, @Nullable UnhealthyPodEvictionPolicyType policy) {
    budget(c.selector(), policy, c.allowed(), c.currentHealthy(), c.desiredHealthy());
    Pod pod = pod(c.pod());
    if (c.phase() != null) {
      pod = withPhase(pod, c.phase());
    }
    if (c.ready() != null) {
      pod = withReady(pod, c.ready());
    }
    if (c.terminating()) {
      pod = base.delete(Pod.class, "default", c.pod(), DeleteOptions.gracePeriod(30));
      assertThat(pod.metadata().deletionTimestamp()).isNotNull();
    }
    MockDeletes ms = new MockDeletes(base);
    DeleteOptions options = c.options().apply(pod);
    Pod evicted = pod;
    Outcome got = Outcome.of(() -> Evictions.evict(ms, evicted, clock.now(), options));
    if (c.error() != null) {
      assertThat(got.error()).as("error").isNotNull();
      if (c.error().equals(CONFLICT)) {
        assertThat(got.error()).isInstanceOf(ConflictException.class)
            .hasMessage("Operation cannot be fulfilled on tests \"2\": message");
      } else {
        assertThat(got.error()).hasMessage("test designed to error");
      }
    } else {
      assertThat(got.error()).as("error").isNull();
      EvictionDecision d = got.decision();
      assertThat(d).isNotNull();
      if (c.refusal() != null) {
        assertThat(d.allowed()).as(d.reason()).isFalse();
        assertThat(d.reason()).isEqualTo(tooManyRequests(c.refusal()));
      } else {
        assertThat(d.allowed()).as(d.reason()).isTrue();
      }
    }
    assertThat(ms.deleteCount).as("delete count").isEqualTo(c.deleteCount());
  }

  /**
   * Upstream's {@code mockStore.mutatorDeleteFunc} in front of a real store: every pod deletion counts; t4's always
   * conflict, t6's and t8's succeed, t10's fail with a BadRequest; any other pod's first deletion conflicts after the
   * pod changed (Running, except t1 and t5, which keep their phase); a later deletion without a resourceVersion
   * precondition succeeds, one with a precondition conflicts after the pod changed again unless it names the
   * version of that second change (upstream's "1000"). A success is the real store's deletion.
   */
  static final class MockDeletes extends ForwardingObjectStore {
    int deleteCount;
    private @Nullable String settledVersion;

    MockDeletes(ObjectStore delegate) {
      super(delegate);
    }

    @Override
    public <T extends io.fleetkit.api.meta.ApiObject<T>> T delete(Class<T> kind, String namespace, String name,
        DeleteOptions options) {
      if (kind != Pod.class) {
        return super.delete(kind, namespace, name, options);
      }
      deleteCount++;
      switch (name) {
        case "t4" -> throw conflict();
        case "t6", "t8" -> {
          return super.delete(kind, namespace, name, options);
        }
        case "t10" -> throw new FleetKitException("test designed to error");
        default -> { }
      }
      if (deleteCount == 1) {
        Pod p = delegate().require(Pod.class, namespace, name);
        if (!name.equals("t1") && !name.equals("t5") && p.status().phase() != PodPhase.Running) {
          delegate().updateStatus(p.withStatus(p.status().withPhase(PodPhase.Running)));
        } else {
          touch(p);
        }
        throw conflict();
      }
      String rv = options.preconditions().resourceVersion();
      if (!rv.isEmpty() && !rv.equals(settledVersion)) {
        // the pod has changed again; the next attempt must read its newest version
        settledVersion = touch(delegate().require(Pod.class, namespace, name)).metadata().resourceVersion();
        throw conflict();
      }
      return super.delete(kind, namespace, name, options);
    }

    /** A write that changes only the pod's resourceVersion (and an annotation). */
    private Pod touch(Pod p) {
      return delegate().update(p.withMetadata(p.metadata().toBuilder()
          .annotation("test/touched", p.metadata().resourceVersion()).build()));
    }

    private static ConflictException conflict() {
      return new ConflictException("Operation cannot be fulfilled on tests \"2\": message");
    }
  }

  // ---- TestEvictionPDBStatus ----

  static Stream<Arguments> pdbStatusCases() {
    return Stream.of(
        Arguments.of("pdb status is updated after eviction", 1, 0, PodDisruptionBudgetStatus.INSUFFICIENT_PODS),
        Arguments.of("condition reason is only updated if AllowedDisruptions becomes 0", 3, 2,
            PodDisruptionBudgetStatus.SUFFICIENT_PODS));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pdbStatusCases")
  void testEvictionPDBStatus(String name, int allowed, int expectedAllowed, String expectedReason) {
    PodDisruptionBudget pdb = base.create(PodDisruptionBudget.of(ObjectMeta.of("default", "foo"),
        new PodDisruptionBudgetSpec(null, MATCHING, IntOrPercent.ONE, null)));
    Condition sufficient = new Condition(PodDisruptionBudgetStatus.DISRUPTION_ALLOWED, ConditionStatus.True,
        pdb.metadata().generation(), clock.now(), PodDisruptionBudgetStatus.SUFFICIENT_PODS, "");
    base.updateStatus(pdb.withStatus(new PodDisruptionBudgetStatus(pdb.metadata().generation(), Map.of(), allowed,
        0, 0, 0, List.of(sufficient))));
    for (String podName : List.of("foo-1", "foo-2")) {
      withPhase(pod(podName), PodPhase.Running);
    }
    clock.advance(java.time.Duration.ofSeconds(5));
    EvictionDecision d = Evictions.evict(base, base.require(Pod.class, "default", "foo-1"), clock.now(),
        DeleteOptions.DEFAULT);
    assertThat(d.allowed()).as(d.reason()).isTrue();
    PodDisruptionBudgetStatus s = base.require(PodDisruptionBudget.class, "default", "foo").status();
    assertThat(s.disruptionsAllowed()).isEqualTo(expectedAllowed);
    assertThat(s.conditions()).singleElement().satisfies(c -> {
      assertThat(c.type()).isEqualTo(PodDisruptionBudgetStatus.DISRUPTION_ALLOWED);
      assertThat(c.reason()).isEqualTo(expectedReason);
    });
    // FleetKit's own checks: the pod is recorded as disrupted at the eviction's time, and is terminating
    assertThat(s.disruptedPods()).containsEntry("foo-1", clock.now());
    assertThat(base.require(Pod.class, "default", "foo-1").metadata().deletionTimestamp()).isNotNull();
  }

  // ---- TestAddConditionAndDelete ----

  static Stream<Arguments> addConditionAndDeleteCases() {
    Function<Pod, DeleteOptions> none = p -> DeleteOptions.DEFAULT;
    return Stream.of(
        Arguments.of("simple", true, none, null),
        Arguments.of("missing", false, none, "not found"),
        Arguments.of("valid uid", true, (Function<Pod, DeleteOptions>) p ->
            DeleteOptions.of(DeletePreconditions.uid(p.metadata().uid())), null),
        Arguments.of("invalid uid", true, (Function<Pod, DeleteOptions>) p ->
            DeleteOptions.of(DeletePreconditions.uid(p.metadata().uid() + "1")),
            "The object might have been deleted and then recreated"),
        Arguments.of("valid resourceVersion", true, (Function<Pod, DeleteOptions>) p ->
            DeleteOptions.of(DeletePreconditions.resourceVersion(p.metadata().resourceVersion())), null),
        Arguments.of("invalid resourceVersion", true, (Function<Pod, DeleteOptions>) p ->
            DeleteOptions.of(DeletePreconditions.resourceVersion(p.metadata().resourceVersion() + "1")),
            "The object might have been modified"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("addConditionAndDeleteCases")
  void testAddConditionAndDelete(String name, boolean initialPod, Function<Pod, DeleteOptions> makeDeleteOptions,
      @Nullable String expectErr) {
    Pod created = initialPod ? base.create(Pod.builder().namespace("default").name("foo").spec(SPEC).build())
        : Pod.builder().namespace("default").name("foo").spec(SPEC).build();
    DeleteOptions options = makeDeleteOptions.apply(created);
    Throwable err = catchThrowable(() -> Evictions.addConditionAndDelete(base, "default", "foo", options,
        clock.now()));
    if (expectErr == null) {
      assertThat(err).isNull();
      assertThat(base.get(Pod.class, "default", "foo")).as("deleted").isEmpty();
      return;
    }
    assertThat(err).isNotNull();
    assertThat(err.getMessage()).contains(expectErr);
    assertThat(err).isInstanceOf(initialPod ? ConflictException.class : NotFoundException.class);
    if (initialPod) {
      Pod left = base.require(Pod.class, "default", "foo");
      assertThat(left.status().condition(PodCondition.DISRUPTION_TARGET)).as("no condition written").isNull();
    }
  }

  // ---- FleetKit's own ----

  @Test
  void evict_runningReadyPod_marksDisruptionTargetAndDeletesGracefully() {
    budget(MATCHING, null, 1, 1, 0);
    Pod pod = withReady(withPhase(pod("web"), PodPhase.Running), ConditionStatus.True);
    clock.advance(java.time.Duration.ofSeconds(7));
    Instant at = clock.now();
    EvictionDecision d = Evictions.evict(base, pod, at);
    assertThat(d.allowed()).as(d.reason()).isTrue();
    assertThat(d.budget()).isEqualTo("default/foo");
    Pod left = base.require(Pod.class, "default", "web");
    assertThat(left.metadata().deletionTimestamp()).as("terminating").isNotNull();
    PodCondition dt = left.status().condition(PodCondition.DISRUPTION_TARGET);
    assertEvictionCondition(dt);
    assertThat(dt.lastTransitionTime()).isEqualTo(at);
  }

  @Test
  void evict_refused_writesNothing() {
    budget(MATCHING, null, 0, 1, 1);
    Pod pod = withReady(withPhase(pod("web"), PodPhase.Running), ConditionStatus.True);
    String rv = base.resourceVersion();
    assertThat(Evictions.evict(base, pod, clock.now()).allowed()).isFalse();
    assertThat(base.resourceVersion()).isEqualTo(rv);
  }

  @Test
  void evict_podReplacedUnderItsName_conflicts() {
    Pod old = withPhase(pod("web"), PodPhase.Succeeded);
    base.delete(Pod.class, "default", "web");
    Pod replacement = pod("web");
    assertThatThrownBy(() -> Evictions.evict(base, old, clock.now())).isInstanceOf(ConflictException.class)
        .hasMessageContaining("The object might have been deleted and then recreated");
    assertThat(base.require(Pod.class, "default", "web").metadata().uid()).isEqualTo(replacement.metadata().uid());
  }

  @Test
  void evict_podGone_allowed() {
    Pod pod = pod("web");
    base.delete(Pod.class, "default", "web", DeleteOptions.gracePeriod(0));
    EvictionDecision d = Evictions.evict(base, pod, clock.now());
    assertThat(d.allowed()).isTrue();
    assertThat(d.podGone()).isTrue();
    assertThat(d.reason()).contains("already gone");
  }
}
